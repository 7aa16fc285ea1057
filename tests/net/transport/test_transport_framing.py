"""Frames: Int32StringReceiver-compatible length prefixes with a hard limit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.protocols.basic import Int32StringReceiver

from net.transport.errors import FrameTooLarge
from net.transport.framing import MAX_LENGTH, FrameDecoder, encode_frame


def test_round_trip_across_arbitrary_chunking() -> None:
    payloads = [b"", b"a", b"x" * 1000]
    stream = b"".join(encode_frame(p) for p in payloads)
    decoder = FrameDecoder()
    got: list[bytes] = []
    for i in range(len(stream)):  # one byte at a time: the worst split
        frames, err = decoder.feed(stream[i : i + 1])
        assert err is None
        got += frames
    assert got == payloads
    assert decoder.buffered == 0


@settings(max_examples=40)
@given(st.lists(st.binary(max_size=300), max_size=8), st.lists(st.integers(1, 50), max_size=20))
def test_any_split_yields_the_same_frames(payloads: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(encode_frame(p) for p in payloads)
    decoder = FrameDecoder()
    got: list[bytes] = []
    pos = 0
    for cut in cuts + [len(stream)]:
        frames, err = decoder.feed(stream[pos : pos + cut])
        assert err is None
        got += frames
        pos += cut
    frames, _ = decoder.feed(stream[pos:])
    assert got + frames == payloads


def test_compatible_with_twisted_int32_string_receiver() -> None:
    received: list[bytes] = []

    class R(Int32StringReceiver):
        def stringReceived(self, string: bytes) -> None:
            received.append(string)

    r = R()
    r.dataReceived(encode_frame(b"hello") + encode_frame(b""))
    assert received == [b"hello", b""]


def test_limit_is_one_mebibyte_and_exact_limit_is_accepted() -> None:
    assert MAX_LENGTH == 1 << 20
    decoder = FrameDecoder(max_length=16)
    frames, err = decoder.feed(encode_frame(b"y" * 16, max_length=16))
    assert err is None and frames == [b"y" * 16]


def test_oversized_prefix_breaks_the_stream_but_keeps_earlier_frames() -> None:
    decoder = FrameDecoder(max_length=16)
    data = encode_frame(b"ok", 16) + (17).to_bytes(4, "big") + b"z" * 17
    frames, err = decoder.feed(data)
    assert frames == [b"ok"]
    assert isinstance(err, FrameTooLarge) and "17 bytes" in str(err) and err.fatal
    # once broken, always broken: later bytes cannot be trusted
    frames, err2 = decoder.feed(encode_frame(b"later", 16))
    assert frames == [] and err2 is err


def test_sender_refuses_to_emit_oversized_frame() -> None:
    with pytest.raises(FrameTooLarge):
        encode_frame(b"x" * 17, max_length=16)


def test_default_limits_are_max_length_on_both_sides() -> None:
    """Without an explicit limit, one byte over 1 MiB is refused by the sender
    and breaks the receiver; exactly 1 MiB passes both."""
    big = b"\x00" * MAX_LENGTH
    frame = encode_frame(big)
    frames, err = FrameDecoder().feed(frame)
    assert err is None and frames == [big]
    with pytest.raises(FrameTooLarge, match=str(MAX_LENGTH)):
        encode_frame(big + b"\x00")
    frames, err = FrameDecoder().feed((MAX_LENGTH + 1).to_bytes(4, "big"))
    assert frames == [] and isinstance(err, FrameTooLarge)


def test_partial_frame_stays_buffered_until_complete() -> None:
    decoder = FrameDecoder()
    frame = encode_frame(b"abcdef")
    frames, err = decoder.feed(frame[:7])
    assert (frames, err, decoder.buffered) == ([], None, 7)
    frames, err = decoder.feed(frame[7:] + frame[:2])
    assert (frames, err, decoder.buffered) == ([b"abcdef"], None, 2)

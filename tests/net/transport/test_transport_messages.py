"""Message parsing: every field checked, unknown types and extra fields refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.encoding import encode
from net.transport.errors import MalformedFrame, UnknownMessageType
from net.transport.messages import (
    LOBBY,
    Auth,
    Bye,
    Hello,
    Links,
    PeerInfo,
    Ping,
    Pong,
    Reject,
    Relay,
    encode_message,
    parse_message,
)

K = b"k" * 32
EXAMPLES = [
    Hello((1, 2), K, b"t" * 8, LOBBY, b"n" * 32, (("127.0.0.1", 4000), ("::1", 4001)), "Aki"),
    Hello((1,), K, b"t" * 8, b"g" * 32, b"n" * 32),
    Auth(b"s" * 64),
    Reject("version", "why"),
    Ping(3),
    Pong(0),
    Relay(b"g" * 32, K, b"payload", 2),
    Relay(LOBBY, K, b""),
    Relay(LOBBY, K, b"just for you", 1, to=b"j" * 32),
    Links((PeerInfo(K, (("127.0.0.1", 9),)), PeerInfo(b"j" * 32, ()))),
    Bye("done"),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: m.T)
def test_round_trip(message: object) -> None:
    assert parse_message(encode_message(message)) == message  # type: ignore[arg-type]


@settings(max_examples=50)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_crash(payload: bytes) -> None:
    try:
        parse_message(payload)
    except (MalformedFrame, UnknownMessageType):
        pass


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b"not canonical", "not canonical"),
        (encode([1, 2]), "must be a map"),
        (encode({"x": 1}), "'t'"),
        (encode({"t": "ping"}), "lacks the field 'n'"),
        (encode({"t": "ping", "n": -1}), "ping.n"),
        (encode({"t": "ping", "n": True}), "ping.n"),
        (encode({"t": "ping", "n": 1, "extra": 0}), "unexpected fields"),
        (encode({"t": "auth", "sig": b"short"}), "64 bytes"),
        (encode({"t": "msg", "game": b"g" * 31, "origin": K, "data": b"", "hops": 0, "to": None}),
         "game id"),
        (encode({"t": "msg", "game": LOBBY, "origin": K, "data": b"", "hops": 99, "to": None}),
         "hops"),
        (encode({"t": "msg", "game": LOBBY, "origin": K, "data": b"", "hops": 0, "to": b"x"}),
         "msg.to"),
        (encode({"t": "links", "peers": [{"key": K}]}), "key and listen"),
    ],
)
def test_malformed_payloads_are_named(data: bytes, fragment: str) -> None:
    with pytest.raises(MalformedFrame, match=fragment):
        parse_message(data)


def test_bad_listen_address() -> None:
    bad = Hello((1,), K, b"t" * 8, LOBBY, b"n" * 32).to_data()
    bad["listen"] = [["127.0.0.1", 70000]]
    with pytest.raises(MalformedFrame, match="port"):
        parse_message(encode(bad))


def test_unknown_type_lists_known_types() -> None:
    with pytest.raises(UnknownMessageType, match="'teleport'.*hello"):
        parse_message(encode({"t": "teleport"}))


def test_documented_ping_frame_vector() -> None:
    """docs/protocol.md section 3 quotes these exact bytes."""
    from net.transport.framing import encode_frame

    frame = encode_frame(encode_message(Ping(3)))
    assert frame == bytes.fromhex("00000014") + b"ds1:ni3es1:ts4:pinge"

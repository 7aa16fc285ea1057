"""Property tests: any canonical body survives signing and the wire, and any
single-byte change to a signed envelope is caught."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.encoding import decode
from net.envelope import EnvelopeChain, EnvelopeWriter, Genesis, Seen, game_id
from net.errors import ProtocolError
from net.identity import Identity

IDS = [Identity.from_seed(bytes([7 + seat]) * 32) for seat in range(3)]
GENESIS = Genesis("rider", "1", b"c" * 32, tuple(i.public_key for i in IDS), {}, (b"p" * 16,) * len(IDS))
GAME = game_id(GENESIS)

leaves = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=12) | st.binary(max_size=12)
canonical = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4).map(tuple) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
seen = st.builds(Seen, st.integers(0, 2**40), st.binary(min_size=32, max_size=32))
kinds = st.text(min_size=1, max_size=20)


@settings(max_examples=60)
@given(seat=st.integers(0, 2), kind=kinds, bodies=st.lists(canonical, min_size=1, max_size=3), seen=seen)
def test_envelopes_round_trip_through_bytes_and_verify(seat: int, kind: str, bodies: list[Any],
                                                       seen: Seen) -> None:
    writer = EnvelopeWriter(IDS[seat], GAME, seat)
    chain = EnvelopeChain.from_genesis(GENESIS)
    for body in bodies:
        env = writer.write(kind, body, seen)
        again = type(env).from_bytes(env.to_bytes())
        assert again == env
        assert again.digest() == env.digest()
        assert again.to_bytes() == env.to_bytes()
        assert decode(env.to_bytes())["body"] == decode(again.to_bytes())["body"]
        chain.accept(again)
    assert chain.logs[seat].next_seq == len(bodies)


@settings(max_examples=60)
@given(body=canonical, position=st.integers(0, 10**6), flip=st.integers(1, 255))
def test_any_flipped_byte_is_rejected(body: Any, position: int, flip: int) -> None:
    env = EnvelopeWriter(IDS[1], GAME, 1).write("move", body, Seen(3, bytes(32)))
    raw = bytearray(env.to_bytes())
    raw[position % len(raw)] ^= flip
    chain = EnvelopeChain.from_genesis(GENESIS)
    try:
        tampered = type(env).from_bytes(bytes(raw))
        chain.accept(tampered)
    except ProtocolError:
        assert chain.logs[1].next_seq == 0
        return
    # the only way through is a change that leaves every signed byte intact
    raise AssertionError(f"tampered envelope accepted: {bytes(raw)!r}")


inputs_digests = st.none() | st.binary(min_size=32, max_size=32)


@settings(max_examples=80)
@given(seat=st.integers(0, 2), kind=kinds, body=canonical, step=st.integers(0, 2**40),
       state=st.binary(min_size=32, max_size=32), inputs=inputs_digests)
def test_the_bytes_cut_from_one_encoding_are_the_canonical_ones(seat: int, kind: str, body: Any, step: int,
                                                                 state: bytes, inputs: bytes | None) -> None:
    """net/envelope.py encodes an envelope's signed content once and frames the signed bytes, the
    digest and the wire bytes around it; each must equal the plain canonical encoding."""
    from engine.core.encoding import encode
    from engine.core.hashing import digest
    from net.envelope import DIGEST_DOMAIN, signed_bytes_of

    env = EnvelopeWriter(IDS[seat], GAME, seat).write(kind, body, Seen(step, state, inputs))
    for e in (env, type(env).from_bytes(env.to_bytes())):
        assert e.to_bytes() == encode(e.to_data())
        assert e.signed_bytes() == signed_bytes_of(e.content())
        assert e.digest() == digest(DIGEST_DOMAIN, e.content())

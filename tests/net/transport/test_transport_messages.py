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


# --- audit additions: every bound of every field is enforced ----------------

HELLO = Hello((1,), K, b"t" * 8, LOBBY, b"n" * 32, (("127.0.0.1", 4000),), "Aki").to_data()
RELAY = Relay(LOBBY, K, b"x").to_data()


def _with(base: dict[str, object], **changes: object) -> bytes:
    return encode({**base, **changes})


@pytest.mark.parametrize(
    "data, fragment",
    [
        (_with(HELLO, v=[]), "hello.v"),
        (_with(HELLO, v=[0]), "hello.v"),
        (_with(HELLO, v=[True]), "hello.v"),
        (_with(HELLO, v=list(range(1, 18))), "hello.v"),
        (_with(HELLO, v=1), "hello.v"),
        (_with(HELLO, key=b"k" * 31), "hello.key must be 32 bytes"),
        (_with(HELLO, key="k" * 32), "hello.key must be bytes"),
        (_with(HELLO, table=b"t" * 9), "hello.table must be 8 bytes"),
        (_with(HELLO, nonce=b"n" * 31), "hello.nonce must be 32 bytes"),
        (_with(HELLO, game="game"), "hello.game"),
        (_with(HELLO, name="n" * 65), "hello.name .*64"),
        (_with(HELLO, name=b"Aki"), "hello.name"),
        (_with(HELLO, listen=[["127.0.0.1", 0]]), "port"),
        (_with(HELLO, listen=[["127.0.0.1", 65536]]), "port"),
        (_with(HELLO, listen=[["127.0.0.1", True]]), "port"),
        (_with(HELLO, listen=[["", 4000]]), "host text"),
        (_with(HELLO, listen=[["h" * 65, 4000]]), "host text"),
        (_with(HELLO, listen=[["127.0.0.1", 4000, 1]]), "host text"),
        (_with(HELLO, listen=[["127.0.0.1", 4000 + i] for i in range(9)]), "at most 8"),
        (_with(HELLO, listen="127.0.0.1:4000"), "at most 8"),
        (encode({"t": "reject", "code": "c" * 65, "reason": "r"}), "reject.code"),
        (encode({"t": "reject", "code": "c", "reason": "r" * 1001}), "reject.reason"),
        (encode({"t": "bye", "reason": "r" * 1001}), "bye.reason"),
        (encode({"t": "pong", "n": -1}), "pong.n"),
        (encode({"t": "pong", "n": 2**63}), "pong.n"),
        (encode({"t": "ping", "n": 2**63}), "ping.n"),
        (_with(RELAY, origin=b"o" * 33), "msg.origin must be 32 bytes"),
        (_with(RELAY, data="text"), "msg.data must be bytes"),
        (_with(RELAY, hops=-1), "msg.hops"),
        (encode({"t": "links", "peers": [{"key": K, "listen": []}] * 65}), "at most 64"),
        (encode({"t": "links", "peers": [{"key": K, "listen": [], "x": 1}]}), "key and listen"),
        (encode({"t": "links", "peers": [{"key": b"k", "listen": []}]}), "links.key must be 32"),
        (encode({"t": "links", "peers": [{"key": K, "listen": [["", 1]]}]}), "listen address"),
    ],
)
def test_every_field_bound_is_enforced(data: bytes, fragment: str) -> None:
    with pytest.raises(MalformedFrame, match=fragment):
        parse_message(data)


def test_largest_legal_values_are_accepted() -> None:
    """The other side of each bound above: the limit itself is fine."""
    hello = Hello(tuple(range(1, 17)), K, b"t" * 8, LOBBY, b"n" * 32,
                  tuple(("h" * 64, 65535 - i) for i in range(8)), "n" * 64)
    assert parse_message(encode_message(hello)) == hello
    links = Links(tuple(PeerInfo(bytes([i]) * 32, ()) for i in range(64)))
    assert parse_message(encode_message(links)) == links
    assert parse_message(encode_message(Ping(2**63 - 1))) == Ping(2**63 - 1)
    assert parse_message(encode_message(Reject("c" * 64, "r" * 1000))) == Reject("c" * 64, "r" * 1000)
    assert parse_message(encode_message(Relay(LOBBY, K, b"", 8))).hops == 8  # type: ignore[union-attr]


canonical_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2**64) | st.text(max_size=70) | st.binary(max_size=40),
    lambda children: st.lists(children, max_size=10) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=12,
)


@settings(max_examples=150)
@given(st.sampled_from(EXAMPLES), st.data())
def test_any_field_replaced_by_any_value_is_parsed_or_named(message: object, data: st.DataObject) -> None:
    """Well-formed canonical data with one field swapped for a random value:
    parsing either succeeds and round-trips, or raises the typed rejection
    (never a crash that would take the link down)."""
    fields = message.to_data()  # type: ignore[attr-defined]
    name = data.draw(st.sampled_from(sorted(set(fields) - {"t"})))
    fields[name] = data.draw(canonical_values)
    payload = encode(fields)
    try:
        parsed = parse_message(payload)
    except MalformedFrame:
        return
    assert parse_message(encode_message(parsed)) == parsed

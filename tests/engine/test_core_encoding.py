"""Canonical encoding and state-hash test vectors (engine core).

The literal bytes and digests below are the contract with every other peer and
with independent verifiers: if one changes, old transcripts stop verifying.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import EncodingError, decode, digest, encode, state_hash
from engine.core.encoding import MAX_DEPTH

VECTORS = [
    (None, b"N"),
    (True, b"T"),
    (False, b"F"),
    (0, b"i0e"),
    (-17, b"i-17e"),
    (2**70, b"i1180591620717411303424e"),
    ("", b"s0:"),
    ("カード", b"s9:\xe3\x82\xab\xe3\x83\xbc\xe3\x83\x89"),
    (b"\x00\xff", b"b2:\x00\xff"),
    ([1, "a", [None]], b"li1es1:alNee"),
    ({"b": 1, "a": [True]}, b"ds1:alTes1:bi1ee"),
    ({"é": 0, "z": 1}, b"ds1:zi1es2:\xc3\xa9i0ee"),  # keys sorted by UTF-8 bytes
]


@pytest.mark.parametrize(("value", "expected"), VECTORS)
def test_encoding_vectors(value: object, expected: bytes) -> None:
    assert encode(value) == expected
    assert encode(decode(expected)) == expected


def test_tuples_encode_as_lists_and_decode_as_tuples() -> None:
    assert encode((1, 2)) == encode([1, 2])
    assert decode(b"li1ei2ee") == (1, 2)


def test_state_hash_vectors() -> None:
    # Pinned literal digests: SHA-256 of encode(["fairtable/state/v1", value]).
    assert state_hash({}).hex() == "54526b9c33cbd089f1047a058731fb39180ea6bf5a523987fc35495c478f9b11"
    assert state_hash({"a": 1}).hex() == "e69d66c7ea725f0ac2004ad3ca1ddff36878b8c22118a2b1e743c1e8efbac727"
    raw = b"ls18:fairtable/state/v1ds1:ai1eee"
    assert encode(["fairtable/state/v1", {"a": 1}]) == raw
    assert hashlib.sha256(raw).hexdigest() == state_hash({"a": 1}).hex()


def test_digest_is_domain_separated() -> None:
    assert digest("a", 1) != digest("b", 1)
    assert len(digest("a", 1)) == 32


@pytest.mark.parametrize("bad", [1.5, {1, 2}, {1: "x"}, object()])
def test_refuses_non_canonical_types(bad: object) -> None:
    with pytest.raises(EncodingError):
        encode(bad)


@pytest.mark.parametrize(
    "raw",
    [
        b"",  # nothing
        b"i01e",  # leading zero
        b"i-0e",  # negative zero
        b"ie",  # empty number
        b"i1",  # unterminated
        b"s3:ab",  # short text
        b"s2:\xff\xfe",  # invalid UTF-8
        b"ds1:bi1es1:ai2ee",  # keys out of order
        b"ds1:ai1es1:ai2ee",  # repeated key
        b"di1ei2ee",  # non-text key
        b"li1e",  # unterminated list
        b"NN",  # trailing bytes
        b"x",  # unknown tag
        b"l" * 100 + b"e" * 100,  # too deep
        b"b-1:",  # negative length
    ],
)
def test_decode_rejects_non_canonical_bytes(raw: bytes) -> None:
    with pytest.raises(EncodingError):
        decode(raw)


canonical_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | st.binary(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)


def _normalise(value: object) -> object:
    if isinstance(value, list):
        return tuple(_normalise(v) for v in value)
    if isinstance(value, dict):
        return {k: _normalise(v) for k, v in value.items()}
    return value


@given(canonical_values)
def test_round_trip(value: object) -> None:
    raw = encode(value)
    assert decode(raw) == _normalise(value)
    assert encode(decode(raw)) == raw


# --- audit additions: boundaries, hostile bytes, decode accepts only canonical


def _nested(levels: int) -> object:
    value: object = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_depth_limit_is_the_same_for_encode_and_decode() -> None:
    """MAX_DEPTH counts levels below the top value: 65 nested lists are the
    deepest value accepted, both ways, so every encodable value decodes."""
    deepest = _nested(MAX_DEPTH + 1)
    raw = encode(deepest)
    assert raw == b"l" * (MAX_DEPTH + 1) + b"e" * (MAX_DEPTH + 1)
    assert encode(decode(raw)) == raw
    with pytest.raises(EncodingError, match="nested deeper"):
        encode(_nested(MAX_DEPTH + 2))
    with pytest.raises(EncodingError, match="nested deeper"):
        decode(b"l" * (MAX_DEPTH + 2) + b"e" * (MAX_DEPTH + 2))
    # a map nests like a list
    with pytest.raises(EncodingError, match="nested deeper"):
        encode({"k": _nested(MAX_DEPTH + 1)})


def test_self_referencing_value_is_refused_not_a_crash() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(EncodingError):
        encode(loop)


def test_bytes_like_values_encode_as_bytes() -> None:
    assert encode(bytearray(b"\x01\x02")) == b"b2:\x01\x02"
    assert encode(memoryview(b"\x01\x02")) == b"b2:\x01\x02"
    assert decode(memoryview(b"b2:\x01\x02")) == b"\x01\x02"


def test_objects_take_part_through_canonical() -> None:
    class Card:
        def __canonical__(self) -> object:
            return {"id": "c01", "lv": 1}

    assert encode(Card()) == encode({"id": "c01", "lv": 1}) == b"ds2:ids3:c01s2:lvi1ee"
    assert encode([Card()]) == b"l" + encode(Card()) + b"e"


@pytest.mark.parametrize("bad", ["N", None, 7, [b"N"]])
def test_decode_refuses_non_bytes_input(bad: object) -> None:
    with pytest.raises(EncodingError, match="must be bytes"):
        decode(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "raw",
    [
        b"i" + b"9" * 4097 + b"e",  # absurdly long number (hostile CPU burn)
        b"s" + b"9" * 4097 + b":",  # absurdly long length
        b"i+1e",  # explicit plus sign
        b"i 1e",  # whitespace
        b"s01:a",  # length with a leading zero
        b"s-0:",  # negative-zero length
        b"s1:",  # text shorter than its length
        b"ds1:a",  # map value missing
        b"ds1:aNs1:a",  # unterminated map
        b"lN",  # unterminated list after an item
        b"i1eN",  # two values
        b"n",  # lower-case tag
    ],
)
def test_decode_rejects_more_non_canonical_bytes(raw: bytes) -> None:
    with pytest.raises(EncodingError):
        decode(raw)


def test_longest_number_accepted_round_trips() -> None:
    raw = b"i" + b"9" * 4096 + b"e"
    assert encode(decode(raw)) == raw


@settings(max_examples=300)
@given(st.binary(max_size=40))
def test_decode_accepts_only_what_encode_emits(raw: bytes) -> None:
    """Arbitrary bytes: a typed rejection, or the one canonical spelling."""
    try:
        value = decode(raw)
    except EncodingError:
        return
    assert encode(value) == raw


@settings(max_examples=200)
@given(canonical_values, st.data())
def test_any_single_byte_edit_is_rejected_or_still_canonical(value: object, data: st.DataObject) -> None:
    """Flip, drop or insert one byte of a valid encoding: decode must never
    accept a non-canonical spelling or crash with an untyped error."""
    raw = bytearray(encode(value))
    pos = data.draw(st.integers(0, len(raw) - 1))
    edit = data.draw(st.sampled_from(["flip", "drop", "insert"]))
    if edit == "flip":
        raw[pos] ^= data.draw(st.integers(1, 255))
    elif edit == "drop":
        del raw[pos]
    else:
        raw.insert(pos, data.draw(st.integers(0, 255)))
    try:
        decoded = decode(bytes(raw))
    except EncodingError:
        return
    assert encode(decoded) == bytes(raw)


def test_digest_vector_and_domain_is_part_of_the_hashed_bytes() -> None:
    assert digest("fairtable/state/v1", {"a": 1}) == state_hash({"a": 1})
    expected = hashlib.sha256(b"ls3:dom" + encode([1, b"x"]) + b"e").digest()
    assert digest("dom", [1, b"x"]) == expected
    # a domain is never confused with the start of the value
    assert digest("ab", "c") != digest("a", "bc")

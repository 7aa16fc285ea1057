"""Canonical encoding and state-hash test vectors (engine core).

The literal bytes and digests below are the contract with every other peer and
with independent verifiers: if one changes, old transcripts stop verifying.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, strategies as st

from engine.core import EncodingError, decode, digest, encode, state_hash

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

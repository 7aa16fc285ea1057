"""Canonical encoding: one byte string for one value, on every peer.

Everything that is hashed or signed in Fairtable goes through :func:`encode`.
The format is a small tagged, length-prefixed text-and-bytes encoding in the
spirit of bencode, extended so that text and bytes stay distinct:

========  ==================================================
``N``     null (``None``)
``T``     true
``F``     false
``i..e``  integer in decimal, no leading zeros, no ``-0``
``b<n>:`` ``n`` raw bytes follow
``s<n>:`` ``n`` bytes of UTF-8 text follow
``l..e``  list (tuples encode as lists)
``d..e``  map: text keys, strictly ascending by UTF-8 bytes
========  ==================================================

Why not JSON: JSON has several spellings of one value (whitespace, escapes,
number forms) and no bytes. Here :func:`decode` accepts exactly the bytes
:func:`encode` would produce and nothing else, so ``encode(decode(b)) == b``
for every accepted ``b``; an independent implementation needs one page.

Floats, sets and arbitrary objects are refused: they are determinism hazards.
Objects may take part by defining ``__canonical__()`` returning encodable data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import EncodingError

#: Deepest nesting accepted by :func:`decode` (a guard for hostile input).
MAX_DEPTH = 64


def encode(value: Any) -> bytes:
    """Return the canonical bytes of ``value``."""
    out: list[bytes] = []
    _encode_into(value, out, 0)
    return b"".join(out)


def _encode_into(value: Any, out: list[bytes], depth: int) -> None:
    # Exact-type checks first: the state hash encodes every state, and most of a
    # state is plain ints, strings and tuples. Subclasses (NamedTuples, IntEnums)
    # fall through to the isinstance ladder below, which gives the same bytes.
    if depth > MAX_DEPTH:
        raise EncodingError(f"value nested deeper than {MAX_DEPTH} levels")
    kind = type(value)
    if kind is tuple or kind is list:
        _encode_items(value, out, depth)
    elif kind is int:
        out.append(b"i%de" % value)
    elif kind is str:
        raw = value.encode("utf-8")
        out.append(b"s%d:%s" % (len(raw), raw))
    elif value is None:
        out.append(b"N")
    elif value is True:
        out.append(b"T")
    elif value is False:
        out.append(b"F")
    elif isinstance(value, int):
        out.append(b"i%de" % value)
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        out.append(b"s%d:%s" % (len(raw), raw))
    elif isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        out.append(b"b%d:%s" % (len(raw), raw))
    elif isinstance(value, (list, tuple)):
        _encode_items(value, out, depth)
    elif isinstance(value, Mapping):
        items = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise EncodingError(f"map key {key!r} is not text")
            items.append((key.encode("utf-8"), item))
        items.sort(key=lambda pair: pair[0])
        out.append(b"d")
        for raw_key, item in items:
            out.append(b"s%d:%s" % (len(raw_key), raw_key))
            _encode_into(item, out, depth + 1)
        out.append(b"e")
    elif hasattr(value, "__canonical__"):
        _encode_into(value.__canonical__(), out, depth)
    elif isinstance(value, float):
        raise EncodingError("floats are not allowed in canonical data")
    else:
        raise EncodingError(f"cannot encode a value of type {type(value).__name__}")


def _encode_items(value: list[Any] | tuple[Any, ...], out: list[bytes], depth: int) -> None:
    """A list or tuple; plain int and str items are written inline (no call per leaf)."""
    out.append(b"l")
    inner = depth + 1
    append = out.append
    for item in value:
        kind = type(item)
        if kind is int:
            append(b"i%de" % item)
        elif kind is str:
            raw = item.encode("utf-8")
            append(b"s%d:%s" % (len(raw), raw))
        else:
            _encode_into(item, out, inner)
    append(b"e")


def decode(data: bytes) -> Any:
    """Parse canonical bytes; reject anything :func:`encode` would not emit.

    Lists decode as tuples and maps as dicts, so decoded data is hashable where
    it matters and cannot be mistaken for mutable state.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise EncodingError("canonical data must be bytes")
    raw = bytes(data)
    value, end = _decode_at(raw, 0, 0)
    if end != len(raw):
        raise EncodingError(f"{len(raw) - end} trailing bytes after the value")
    return value


def _read_decimal(raw: bytes, pos: int, stop: bytes) -> tuple[int, int]:
    end = raw.find(stop, pos)
    if end < 0:
        raise EncodingError(f"unterminated number at offset {pos}")
    digits = raw[pos:end]
    negative = digits.startswith(b"-")
    body = digits[1:] if negative else digits
    if not body or not body.isdigit() or len(body) > 4096:
        raise EncodingError(f"malformed number at offset {pos}")
    if (body.startswith(b"0") and len(body) > 1) or (negative and body == b"0"):
        raise EncodingError(f"non-canonical number at offset {pos}")
    return int(digits), end + 1


def _decode_at(raw: bytes, pos: int, depth: int) -> tuple[Any, int]:
    if depth > MAX_DEPTH:
        raise EncodingError(f"value nested deeper than {MAX_DEPTH} levels")
    if pos >= len(raw):
        raise EncodingError("unexpected end of data")
    tag = raw[pos : pos + 1]
    pos += 1
    if tag == b"N":
        return None, pos
    if tag == b"T":
        return True, pos
    if tag == b"F":
        return False, pos
    if tag == b"i":
        return _read_decimal(raw, pos, b"e")
    if tag in (b"b", b"s"):
        length, pos = _read_decimal(raw, pos, b":")
        if length < 0 or pos + length > len(raw):
            raise EncodingError(f"length {length} runs past the end of data")
        chunk = raw[pos : pos + length]
        pos += length
        if tag == b"b":
            return chunk, pos
        try:
            return chunk.decode("utf-8"), pos
        except UnicodeDecodeError as exc:
            raise EncodingError(f"invalid UTF-8 text: {exc.reason}") from None
    if tag == b"l":
        items = []
        while raw[pos : pos + 1] != b"e":
            item, pos = _decode_at(raw, pos, depth + 1)
            items.append(item)
        return tuple(items), pos + 1
    if tag == b"d":
        result: dict[str, Any] = {}
        previous: bytes | None = None
        while raw[pos : pos + 1] != b"e":
            if raw[pos : pos + 1] != b"s":
                raise EncodingError(f"map key at offset {pos} is not text")
            key_start = pos + 1
            key, pos = _decode_at(raw, pos, depth + 1)
            raw_key = key.encode("utf-8")
            if previous is not None and raw_key <= previous:
                raise EncodingError(f"map keys out of order or repeated at offset {key_start}")
            previous = raw_key
            result[key], pos = _decode_at(raw, pos, depth + 1)
        return result, pos + 1
    raise EncodingError(f"unknown tag {tag!r} at offset {pos - 1}")

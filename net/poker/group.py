"""The edwards25519 prime-order subgroup, through libsodium (PyNaCl).

Why this module exists: every card protocol computes in the subgroup of
prime order ``L`` of edwards25519. libsodium does the curve arithmetic; this
module adds what the protocols need on top, in one place:

- strict decoding of *received* points (:func:`decode_point`): canonical,
  on the curve, in the prime-order subgroup, not small-order, not the
  identity, via ``crypto_core_ed25519_is_valid_point``;
- strict decoding of received scalars (:func:`decode_scalar`): exactly 32
  little-endian bytes encoding an integer ``< L`` (no silent reduction);
- domain-separated hashing to scalars (Fiat-Shamir challenges) and to points
  (card points and proof generators, which must have no known discrete-log
  relation to ``G`` or to each other: never ``i*G``);
- random scalars from :mod:`secrets` only.

Scalars are plain ``int`` in ``[0, L)`` inside the hot loops (Python integer
arithmetic mod ``L`` is exact and cheaper than a libsodium call); points are
their 32-byte compressed encodings. :class:`Scalar` and :class:`Point` are the
typed values used at API boundaries.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import secrets
from typing import Any

from nacl import bindings as _nacl
from nacl.exceptions import RuntimeError as _NaclRuntimeError

from engine.core.encoding import encode
from net.poker.errors import BadPoint, BadScalar

#: Order of the prime-order subgroup of edwards25519.
L = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES = 32
SCALAR_BYTES = 32
#: Encoding of the neutral element. Never accepted from the wire; it can appear
#: only inside local computations (for example a sum that cancels).
IDENTITY = b"\x01" + bytes(31)
#: The standard base point G.
BASE = _nacl.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))


# --- raw fast operations: ints mod L and 32-byte encodings -------------------

def sb(k: int) -> bytes:
    """32-byte little-endian encoding of a scalar already reduced mod L."""
    return k.to_bytes(32, "little")


def mul(k: int, point: bytes) -> bytes:
    """``k * point`` for a point of prime order (``k`` reduced mod L).

    libsodium refuses a zero scalar and an identity result; in the prime-order
    subgroup both mean exactly "the result is the identity", so we return it.
    It also refuses a point outside that subgroup (small-order, mixed-order,
    non-canonical): that is a caller that skipped validation, and mapping it to
    the identity would silently drop the point, so it raises ValueError.
    """
    if k == 0 or point == IDENTITY:
        return IDENTITY
    try:
        return bytes(_nacl.crypto_scalarmult_ed25519_noclamp(sb(k), point))
    except _NaclRuntimeError:
        if not is_valid_point(point):  # only on the failure path: free in the hot loop
            raise ValueError("scalar multiplication of a point outside the prime-order subgroup; "
                             "decode received points with decode_point first") from None
        return IDENTITY


def base_mul(k: int) -> bytes:
    """``k * G`` using libsodium's precomputed base-point table."""
    if k == 0:
        return IDENTITY
    return bytes(_nacl.crypto_scalarmult_ed25519_base_noclamp(sb(k)))


def add(p: bytes, q: bytes) -> bytes:
    return bytes(_nacl.crypto_core_ed25519_add(p, q))


def sub(p: bytes, q: bytes) -> bytes:
    return bytes(_nacl.crypto_core_ed25519_sub(p, q))


def neg(p: bytes) -> bytes:
    return sub(IDENTITY, p)


def total(points: list[bytes]) -> bytes:
    """Sum of points (the identity for an empty list)."""
    if not points:
        return IDENTITY
    acc = points[0]
    for p in points[1:]:
        acc = _nacl.crypto_core_ed25519_add(acc, p)
    return bytes(acc)


def is_valid_point(data: object) -> bool:
    """True for a canonical encoding of a non-identity prime-order point."""
    return (
        isinstance(data, bytes)
        and len(data) == POINT_BYTES
        and bool(_nacl.crypto_core_ed25519_is_valid_point(data))
    )


def decode_point(data: object, *, seat: int | None, what: str) -> bytes:
    """Validate a received point; raise :class:`BadPoint` naming ``seat``."""
    if not isinstance(data, bytes) or len(data) != POINT_BYTES:
        raise BadPoint(f"{what} is not a 32-byte point encoding", seat=seat)
    if not _nacl.crypto_core_ed25519_is_valid_point(data):
        raise BadPoint(
            f"{what} is not a canonical point of prime order (small-order, identity, "
            "off the curve or non-canonical)", seat=seat)
    return data


def decode_scalar(data: object, *, seat: int | None, what: str) -> int:
    """Validate a received scalar: 32 little-endian bytes, value ``< L``."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        raise BadScalar(f"{what} is not a 32-byte scalar", seat=seat)
    value = int.from_bytes(data, "little")
    if value >= L:
        raise BadScalar(f"{what} is not below the group order (non-canonical scalar)", seat=seat)
    return value


def random_scalar() -> int:
    """A uniform non-zero scalar from the OS CSPRNG (64 bytes reduced: no bias)."""
    while True:
        k = int.from_bytes(secrets.token_bytes(64), "little") % L
        if k:
            return k


def hash_to_scalar(domain: str, value: Any) -> int:
    """Fiat-Shamir: SHA-512 of ``encode([domain, value])`` reduced mod L.

    64 bytes reduced with ``crypto_core_ed25519_scalar_reduce`` so the result
    is statistically uniform.
    """
    wide = hashlib.sha512(encode((domain, value))).digest()
    return int.from_bytes(_nacl.crypto_core_ed25519_scalar_reduce(wide), "little")


def hash_to_point(domain: str, value: Any) -> bytes:
    """A point with no known discrete log: sum of two Elligator maps of hashes.

    Summing two independent ``from_uniform`` images is the usual
    random-oracle construction (a single map reaches only part of the curve).
    libsodium clears the cofactor, so the result is in the prime-order subgroup.
    """
    wide = hashlib.sha512(encode((domain, value))).digest()
    p1 = _nacl.crypto_core_ed25519_from_uniform(wide[:32])
    p2 = _nacl.crypto_core_ed25519_from_uniform(wide[32:])
    point = bytes(_nacl.crypto_core_ed25519_add(p1, p2))
    if not is_valid_point(point):  # probability ~2^-250; never silently continue
        raise ValueError("hash_to_point produced an invalid point; change the input")
    return point


GENERATOR_DOMAIN = "fairtable/cards/generator/v1"


@functools.cache
def generator(index: int) -> bytes:
    """The ``index``-th independent proof generator (cached; index >= 0)."""
    return hash_to_point(GENERATOR_DOMAIN, index)


@functools.lru_cache(maxsize=64)
def generators(count: int) -> tuple[bytes, ...]:
    """Generators 1..count (index 0 is reserved for the shuffle's chain base)."""
    return tuple(generator(i) for i in range(1, count + 1))


@functools.lru_cache(maxsize=64)
def generators_sum(count: int) -> bytes:
    return total(list(generators(count)))


# --- typed values for API boundaries ------------------------------------------

@dataclasses.dataclass(frozen=True, slots=True)
class Scalar:
    """An integer modulo L (always stored reduced)."""

    value: int

    def __post_init__(self) -> None:
        if not 0 <= self.value < L:
            raise ValueError("scalar out of range; reduce it modulo L first")

    @classmethod
    def random(cls) -> Scalar:
        return cls(random_scalar())

    @classmethod
    def from_bytes(cls, data: object, *, seat: int | None = None, what: str = "scalar") -> Scalar:
        return cls(decode_scalar(data, seat=seat, what=what))

    def to_bytes(self) -> bytes:
        return sb(self.value)

    def __add__(self, other: Scalar) -> Scalar:
        return Scalar((self.value + other.value) % L)

    def __sub__(self, other: Scalar) -> Scalar:
        return Scalar((self.value - other.value) % L)

    def __mul__(self, other: Scalar) -> Scalar:
        return Scalar((self.value * other.value) % L)

    def __neg__(self) -> Scalar:
        return Scalar(-self.value % L)

    def __repr__(self) -> str:  # never print secrets in full
        return f"Scalar(<{self.value.bit_length()} bits>)"


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    """A point of the prime-order subgroup, by its canonical 32-byte encoding.

    Construct received points with :meth:`from_bytes` (strict); the plain
    constructor trusts its caller and is for locally computed values.
    """

    raw: bytes

    @classmethod
    def from_bytes(cls, data: object, *, seat: int | None = None, what: str = "point") -> Point:
        return cls(decode_point(data, seat=seat, what=what))

    @classmethod
    def base(cls) -> Point:
        return cls(BASE)

    @classmethod
    def identity(cls) -> Point:
        return cls(IDENTITY)

    @classmethod
    def hashed(cls, domain: str, value: Any) -> Point:
        return cls(hash_to_point(domain, value))

    def __add__(self, other: Point) -> Point:
        return Point(add(self.raw, other.raw))

    def __sub__(self, other: Point) -> Point:
        return Point(sub(self.raw, other.raw))

    def __neg__(self) -> Point:
        return Point(neg(self.raw))

    def __mul__(self, k: Scalar) -> Point:
        return Point(mul(k.value, self.raw))

    def __canonical__(self) -> bytes:
        return self.raw

    def __repr__(self) -> str:
        return f"Point({self.raw.hex()[:12]}…)"

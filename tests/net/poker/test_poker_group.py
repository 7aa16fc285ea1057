"""The edwards25519 group layer: strict decoding and domain-separated hashing."""

from __future__ import annotations

import hashlib

import pytest
from nacl import bindings

from net.poker import group as g
from net.poker.errors import BadPoint, BadScalar

# The eight small-order points of edwards25519 include these canonical encodings
# (identity, order 2, and an order-4/8 point); none may be accepted from a peer.
SMALL_ORDER = [
    bytes.fromhex("0100000000000000000000000000000000000000000000000000000000000000"),
    bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    bytes.fromhex("0000000000000000000000000000000000000000000000000000000000000000"),
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
]


@pytest.mark.parametrize("encoding", SMALL_ORDER)
def test_small_order_points_are_rejected_naming_the_seat(encoding: bytes) -> None:
    with pytest.raises(BadPoint) as info:
        g.decode_point(encoding, seat=3, what="card key")
    assert info.value.seat == 3


def test_non_canonical_and_off_curve_and_short_points_are_rejected() -> None:
    valid = g.base_mul(12345)
    # y >= p: the field prime itself encodes y = 0 non-canonically
    non_canonical = (2**255 - 19).to_bytes(32, "little")
    off_curve = None
    for y in range(2, 50):  # find an encoding whose y has no x on the curve
        cand = y.to_bytes(32, "little")
        if not bindings.crypto_core_ed25519_is_valid_point(cand):
            off_curve = cand
            break
    assert off_curve is not None
    # a point with a torsion component (valid point + order-8 point) is not in the subgroup
    mixed = bindings.crypto_core_ed25519_add(valid, SMALL_ORDER[3])
    for bad in (non_canonical, off_curve, mixed, valid[:31], valid + b"\x00", "text"):
        with pytest.raises(BadPoint) as info:
            g.decode_point(bad, seat=1, what="x")
        assert info.value.seat == 1
    assert g.decode_point(valid, seat=1, what="x") == valid


def test_scalars_must_be_canonical() -> None:
    assert g.decode_scalar(g.sb(g.L - 1), seat=0, what="s") == g.L - 1
    for bad in (g.L.to_bytes(32, "little"), (2**256 - 1).to_bytes(32, "little"), b"\x01" * 31, 7):
        with pytest.raises(BadScalar) as info:
            g.decode_scalar(bad, seat=2, what="s")
        assert info.value.seat == 2


def test_arithmetic_matches_integer_model() -> None:
    a, b = g.random_scalar(), g.random_scalar()
    assert g.add(g.base_mul(a), g.base_mul(b)) == g.base_mul((a + b) % g.L)
    assert g.mul(b, g.base_mul(a)) == g.base_mul(a * b % g.L)
    assert g.mul(0, g.BASE) == g.IDENTITY and g.mul(g.L - 1, g.BASE) == g.neg(g.BASE)
    assert g.mul(5, g.IDENTITY) == g.IDENTITY and g.total([]) == g.IDENTITY
    assert g.sub(g.base_mul(a), g.base_mul(a)) == g.IDENTITY
    pa, pb = g.Point(g.base_mul(a)), g.Point(g.base_mul(b))
    assert (pa + pb) - pb == pa and (g.Point.base() * g.Scalar(a)) == pa
    assert (g.Scalar(a) * g.Scalar(b)).value == a * b % g.L


def test_hash_to_scalar_is_sha512_reduced_and_domain_separated() -> None:
    from engine.core.encoding import encode

    wide = hashlib.sha512(encode(("d", (1, b"x")))).digest()
    assert g.hash_to_scalar("d", (1, b"x")) == int.from_bytes(wide, "little") % g.L
    assert g.hash_to_scalar("d", 1) != g.hash_to_scalar("e", 1)


def test_hashed_points_and_generators_are_valid_and_distinct() -> None:
    gens = g.generators(30)
    assert all(g.is_valid_point(p) for p in gens)
    assert len(set(gens) | {g.generator(0), g.BASE}) == 32
    assert g.hash_to_point("a", 1) != g.hash_to_point("b", 1)
    assert g.generators_sum(30) == g.total(list(gens))


def test_random_scalars_are_in_range_and_differ() -> None:
    values = {g.random_scalar() for _ in range(50)}
    assert len(values) == 50 and all(0 < v < g.L for v in values)


def test_scalar_and_point_values_refuse_bad_input() -> None:
    with pytest.raises(ValueError):
        g.Scalar(g.L)
    with pytest.raises(ValueError):
        g.Scalar(-1)
    with pytest.raises(BadScalar):
        g.Scalar.from_bytes(g.L.to_bytes(32, "little"), seat=4)
    with pytest.raises(BadPoint):
        g.Point.from_bytes(g.IDENTITY, seat=4)
    assert g.Point.from_bytes(g.BASE) == g.Point.base()
    assert (-g.Point.base()) + g.Point.base() == g.Point.identity()
    assert g.Point.identity().raw == g.IDENTITY and "bits" in repr(g.Scalar.random())


def test_multiplying_an_unvalidated_point_raises_instead_of_giving_the_identity() -> None:
    """libsodium refuses small- and mixed-order points; that must not turn into
    a silent identity (a share or key term that just disappears)."""
    mixed = bindings.crypto_core_ed25519_add(g.base_mul(777), SMALL_ORDER[3])
    for bad in (SMALL_ORDER[1], SMALL_ORDER[3], mixed):
        with pytest.raises(ValueError):
            g.mul(5, bad)
    assert g.mul(0, g.BASE) == g.IDENTITY and g.mul(5, g.IDENTITY) == g.IDENTITY
    assert g.mul(g.L - 1, g.BASE) == g.neg(g.BASE)

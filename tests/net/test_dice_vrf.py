"""One-phase dice (net.dice_vrf): spec vectors, completeness, and every forged or
replayed part refused, naming the seat, with the round unchanged."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from nacl import bindings as nacl_bindings

from engine.core.actions import SYSTEM
from engine.core.encoding import encode
from engine.core.pending import Chance, DiceRolled
from net import dice_vrf as v
from net.dice import faces_from_seed
from net.errors import MalformedMessage, ProtocolError, Replay, UnexpectedMessage, UnknownSeat
from net.poker import group as g
from net.poker.errors import BadPoint, BadScalar

GAME = b"V" * 32
OTHER_GAME = b"W" * 32
SEATS = (0, 1, 2)


def secret(seat: int, tag: str = "") -> int:
    return g.hash_to_scalar("fairtable/test-dice-secret", (seat, tag)) or 1


def keys(game: bytes = GAME, tag: str = "") -> dict[int, bytes]:
    return {s: v.check_key(game, s, v.announce_key(game, s, secret(s, tag))) for s in SEATS}


def ctx(step: int = 7, purpose: str = "trap", dice: tuple[int, ...] = (6, 6), game: bytes = GAME,
        seats: tuple[int, ...] = SEATS) -> v.RollContext:
    return v.RollContext(game, step, purpose, dice, seats)


def full(c: v.RollContext) -> v.VrfDiceRound:
    rnd = v.VrfDiceRound(c, keys(c.game))
    for s in c.seats:
        rnd.receive(s, rnd.make(s, secret(s)))
    return rnd


def test_every_view_gets_the_same_faces_and_the_spec_holds() -> None:
    c = ctx()
    views = [v.VrfDiceRound(c, keys()) for _ in SEATS]
    parts = {s: views[s].make(s, secret(s)) for s in SEATS}
    for view in views:
        for s in reversed(SEATS):  # arrival order does not matter
            assert not view.complete
            view.receive(s, parts[s])
    assert len({view.faces() for view in views}) == 1
    faces = views[0].faces()
    assert all(1 <= f <= 6 for f in faces) and len(faces) == 2
    assert views[0].answer() == DiceRolled(SYSTEM, "trap", faces)
    # by hand: P = hash to the curve of the context, Y = d*P, seed = SHA-256 of [domain, [context, outputs]]
    base = g.hash_to_point("fairtable/dice-vrf/base/v1", (GAME, 7, "trap", (6, 6), SEATS))
    outputs = [g.mul(secret(s), base) for s in SEATS]
    assert [parts[s]["out"] for s in SEATS] == outputs
    seed = hashlib.sha256(encode(["fairtable/dice-vrf/seed/v1", [[GAME, 7, "trap", [6, 6], list(SEATS)], outputs]])).digest()
    assert views[0].seed() == seed and faces == faces_from_seed(seed, (6, 6))
    record = views[0].transcript()
    assert record["faces"] == faces and set(record["parts"]) == {"0", "1", "2"}


def test_a_part_is_the_same_bytes_every_time_so_a_restarted_peer_sends_the_same() -> None:
    c = ctx()
    assert v.roll_part(c, 1, secret(1)) == v.roll_part(c, 1, secret(1))
    assert v.announce_key(GAME, 1, secret(1)) == v.announce_key(GAME, 1, secret(1))
    assert v.roll_part(ctx(step=8), 1, secret(1)) != v.roll_part(c, 1, secret(1))


def test_every_part_of_the_context_changes_the_outcome_seed() -> None:
    seeds = {full(c).seed() for c in (ctx(), ctx(step=8), ctx(purpose="event"), ctx(dice=(6, 5)),
                                      ctx(game=OTHER_GAME), ctx(seats=(0, 1)))}
    assert len(seeds) == 6


def test_stalled_names_the_seats_that_did_not_roll() -> None:
    rnd = v.VrfDiceRound(ctx(), keys())
    rnd.receive(1, rnd.make(1, secret(1)))
    stalled = rnd.stalled()
    assert stalled is not None and stalled.seats == (0, 2) and stalled.phase == "roll"
    assert "forfeit, not a re-roll" in str(stalled)
    assert rnd.missing() == (0, 2)
    with pytest.raises(UnexpectedMessage):
        rnd.seed()
    assert full(ctx()).stalled() is None


def _forged(seat: int) -> dict[str, Any]:
    """Seat ``seat``'s part with an output it chose (a valid point) and a proof for nothing."""
    honest = v.roll_part(ctx(), seat, secret(seat))
    return {**honest, "out": g.base_mul(424242)}


def _other_nonce(seat: int) -> dict[str, bytes]:
    """A second valid proof of seat ``seat``'s (unique) output, made with another nonce."""
    c, d = ctx(), secret(seat)
    base, key = c.base(), g.base_mul(d)
    out, k = g.mul(d, base), g.random_scalar()
    t1, t2 = g.base_mul(k), g.mul(k, base)
    e = v._part_challenge(c, seat, key, base, out, t1, t2)
    return {"out": out, "e": g.sb(e), "z": g.sb((k + e * d) % g.L)}


#: A point of order 8 (small order: never valid alone, and it makes any point it is added to mixed-order).
TORSION_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
#: y = p + 3 (2^255 - 16): a curve point's encoding with y not reduced mod p. No point of prime
#: order has y < 19, so none has a second encoding and the seed hashes each output's only one.
NON_CANONICAL = (2**255 - 16).to_bytes(32, "little")


def _mixed(point: bytes) -> bytes:
    """``point`` plus the order-8 point: on the curve, but outside the prime-order subgroup."""
    return bytes(nacl_bindings.crypto_core_ed25519_add(point, TORSION_8))


HOSTILE: list[tuple[str, Any, type[ProtocolError]]] = [
    ("forged output", lambda: _forged(2), v.BadDiceProof),
    ("challenge flipped", lambda: {**v.roll_part(ctx(), 2, secret(2)), "e": g.sb(5)}, v.BadDiceProof),
    ("response flipped", lambda: {**v.roll_part(ctx(), 2, secret(2)), "z": g.sb(5)}, v.BadDiceProof),
    ("replayed from another step", lambda: v.roll_part(ctx(step=6), 2, secret(2)), v.BadDiceProof),
    ("replayed from another game", lambda: v.roll_part(ctx(game=OTHER_GAME), 2, secret(2)), v.BadDiceProof),
    ("another seat's part", lambda: v.roll_part(ctx(), 1, secret(1)), v.BadDiceProof),
    ("made for seat 2 with seat 1's secret", lambda: v.roll_part(ctx(), 2, secret(1)), v.BadDiceProof),
    ("another key (a wrong chain of values)", lambda: v.roll_part(ctx(), 2, secret(2, "old")), v.BadDiceProof),
    ("another purpose", lambda: v.roll_part(ctx(purpose="event"), 2, secret(2)), v.BadDiceProof),
    ("other dice", lambda: v.roll_part(ctx(dice=(6,)), 2, secret(2)), v.BadDiceProof),
    ("other seats", lambda: v.roll_part(ctx(seats=(0, 2)), 2, secret(2)), v.BadDiceProof),
    ("missing field", lambda: {"out": g.base_mul(3), "e": g.sb(1)}, MalformedMessage),
    ("extra field", lambda: {**v.roll_part(ctx(), 2, secret(2)), "pad": b"x" * 5000}, MalformedMessage),
    ("not a map", lambda: [b"x"], MalformedMessage),
    ("output too short", lambda: {**v.roll_part(ctx(), 2, secret(2)), "out": b"\x01" * 31}, BadPoint),
    ("identity output", lambda: {**v.roll_part(ctx(), 2, secret(2)), "out": g.IDENTITY}, BadPoint),
    ("small-order output", lambda: {**v.roll_part(ctx(), 2, secret(2)), "out": bytes(32)}, BadPoint),
    ("mixed-order output (its own output plus a point of order 8)",
     lambda: {**v.roll_part(ctx(), 2, secret(2)), "out": _mixed(v.roll_part(ctx(), 2, secret(2))["out"])}, BadPoint),
    ("negated output (a valid point, not d*P)",
     lambda: {**v.roll_part(ctx(), 2, secret(2)), "out": g.neg(v.roll_part(ctx(), 2, secret(2))["out"])},
     v.BadDiceProof),
    ("non-canonical encoding (y >= p)", lambda: {**v.roll_part(ctx(), 2, secret(2)), "out": NON_CANONICAL}, BadPoint),
    ("scalar not below the order", lambda: {**v.roll_part(ctx(), 2, secret(2)), "z": g.L.to_bytes(32, "little")},
     BadScalar),
    ("challenge not bytes", lambda: {**v.roll_part(ctx(), 2, secret(2)), "e": 5}, BadScalar),
]


@pytest.mark.parametrize("name, make, error", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_part_is_refused_naming_the_seat_and_changes_nothing(name: str, make: Any,
                                                                      error: type[ProtocolError]) -> None:
    rnd = v.VrfDiceRound(ctx(), keys())
    rnd.receive(0, rnd.make(0, secret(0)))
    with pytest.raises(error) as err:
        rnd.receive(2, make())
    assert err.value.seat == 2
    assert rnd.missing() == (1, 2)
    rnd.receive(1, rnd.make(1, secret(1)))
    rnd.receive(2, rnd.make(2, secret(2)))  # its genuine part still counts
    assert rnd.faces() == full(ctx()).faces()


def test_a_repeat_is_a_replay_and_a_second_proof_is_refused() -> None:
    rnd = v.VrfDiceRound(ctx(), keys())
    part = rnd.make(1, secret(1))
    rnd.receive(1, part)
    with pytest.raises(Replay) as replay:
        rnd.receive(1, dict(part))
    assert replay.value.seat == 1
    second = _other_nonce(1)
    assert second != part and v.check_part(ctx(), 1, keys()[1], second) == part["out"]  # valid on its own
    with pytest.raises(UnexpectedMessage, match="second, different part") as err:
        rnd.receive(1, second)
    assert err.value.seat == 1 and rnd.missing() == (0, 2)


def test_a_seat_outside_the_roll_is_named() -> None:
    rnd = v.VrfDiceRound(ctx(seats=(0, 1)), {0: keys()[0], 1: keys()[1]})
    with pytest.raises(UnknownSeat) as err:
        rnd.receive(2, v.roll_part(ctx(), 2, secret(2)))
    assert err.value.seat == 2
    with pytest.raises(ValueError, match="no dice key"):
        v.VrfDiceRound(ctx(), {0: keys()[0]})


@pytest.mark.parametrize("name, message, error", [
    ("another seat's announcement", lambda: v.announce_key(GAME, 1, secret(1)), v.BadDiceProof),
    ("from another game", lambda: v.announce_key(OTHER_GAME, 2, secret(2)), v.BadDiceProof),
    ("a key it cannot prove", lambda: {**v.announce_key(GAME, 2, secret(2)), "key": g.base_mul(7)}, v.BadDiceProof),
    ("identity key", lambda: {**v.announce_key(GAME, 2, secret(2)), "key": g.IDENTITY}, BadPoint),
    ("mixed-order key", lambda: {**v.announce_key(GAME, 2, secret(2)),
                                 "key": _mixed(v.announce_key(GAME, 2, secret(2))["key"])}, BadPoint),
    ("small-order key", lambda: {**v.announce_key(GAME, 2, secret(2)), "key": TORSION_8}, BadPoint),
    ("non-canonical key", lambda: {**v.announce_key(GAME, 2, secret(2)), "key": NON_CANONICAL}, BadPoint),
    ("missing proof", lambda: {"key": g.base_mul(7)}, MalformedMessage),
    ("not a map", lambda: b"key", MalformedMessage),
], ids=lambda x: x if isinstance(x, str) else "")
def test_a_bad_dice_key_announcement_is_refused_naming_the_seat(name: str, message: Any,
                                                                error: type[ProtocolError]) -> None:
    with pytest.raises(error) as err:
        v.check_key(GAME, 2, message())
    assert err.value.seat == 2


def test_context_checks() -> None:
    for bad in (dict(game=b"x"), dict(step=-1), dict(purpose=""), dict(dice=(0,)), dict(seats=()),
                dict(seats=(1, 0))):
        with pytest.raises(ValueError):
            ctx(**bad)  # type: ignore[arg-type]
    rnd = v.VrfDiceRound.from_pending(GAME, 3, SEATS, Chance("x", (6, 1)), keys())
    assert rnd.ctx == ctx(step=3, purpose="x", dice=(6, 1))
    for s in SEATS:
        rnd.receive(s, rnd.make(s, secret(s)))
    assert rnd.faces()[1] == 1  # a one-sided die in a random roll still shows 1


def test_our_own_part_is_taken_without_a_proof_check_and_gives_the_same_faces() -> None:
    rnd = v.VrfDiceRound(ctx(), keys())
    rnd.receive_ours(0, rnd.make(0, secret(0)))
    with pytest.raises(UnexpectedMessage):
        rnd.receive_ours(0, rnd.make(0, secret(0)))
    with pytest.raises(MalformedMessage):
        rnd.receive_ours(1, {"out": g.base_mul(3)})
    for s in (1, 2):
        rnd.receive(s, rnd.make(s, secret(s)))
    assert rnd.faces() == full(ctx()).faces()


def test_a_part_proved_against_another_base_point_does_not_reuse_the_nonce() -> None:
    """roll_part takes a precomputed base point; a caller that hands it a point that is not the
    context's must not get two proofs under one nonce (from two such proofs anyone solves the
    dice secret: d = (z1 - z2) / (e1 - e2)). The nonce hashes the whole statement, base included."""
    c, d = ctx(), secret(1)
    honest = v.roll_part(c, 1, d)
    other = v.roll_part(c, 1, d, g.hash_to_point("fairtable/test-other-base", 1))
    e1, z1 = (int.from_bytes(honest[k], "little") for k in ("e", "z"))
    e2, z2 = (int.from_bytes(other[k], "little") for k in ("e", "z"))
    assert e1 != e2
    assert (z1 - z2) * pow(e1 - e2, -1, g.L) % g.L != d, "the two proofs share a nonce: the dice secret leaks"


def test_a_departed_seats_part_comes_from_its_published_secret_and_gives_the_same_roll() -> None:
    """A seat that leaves publishes its dice secret (net/session/leave.py); every peer computes its
    part, so the faces are those its own message would have given: leaving cannot re-roll."""
    secrets_ = {s: g.random_scalar() for s in range(4)}
    keys = {s: g.base_mul(x) for s, x in secrets_.items()}
    chance = Chance("locke.move", (6, 6))
    honest = v.VrfDiceRound.from_pending(b"g" * 32, 9, range(4), chance, keys)
    left = v.VrfDiceRound.from_pending(b"g" * 32, 9, range(4), chance, keys)
    for s in range(4):
        honest.receive(s, v.roll_part(honest.ctx, s, secrets_[s]))
    for s in (0, 1, 3):
        left.receive(s, v.roll_part(left.ctx, s, secrets_[s]))
    assert not left.complete and left.missing() == (2,)
    with pytest.raises(ValueError, match="not the one behind its dice key"):
        left.part_of_departed(2, secrets_[1])
    left.part_of_departed(2, secrets_[2])
    assert left.complete and left.faces() == honest.faces()
    left.part_of_departed(2, secrets_[2])  # already in: unchanged
    assert left.faces() == honest.faces()

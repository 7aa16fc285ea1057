"""One-phase dice statistics (seeded, deterministic): chi-square goodness of fit.

The rolls use the real base point, outputs, seed and face sampler of
net.dice_vrf. Only seat 0 is honest (its dice secret is a seeded hash,
standing in for the OS generator); the other seats hold fixed secrets an
adversary chose (1, and the same secret at every seat), so their outputs are
known to it in advance. The faces must still be fair, and also when the
adversary's one freedom, choosing the step a roll happens at, is used to
keep only rolls it likes: it cannot tell them apart before seat 0 sends.
Proofs are left out here (they are checked in tests/net/test_dice_vrf.py):
the statistics are of the values every peer computes once proofs hold.
"""

from __future__ import annotations

from collections import Counter

from net import dice_vrf as v
from net.dice import faces_from_seed
from net.poker import group as g
from tests.net.test_dice_statistics import CRITICAL_10_DOF, P_MIN, chi2, chi2_sf

GAME = b"T" * 32
HONEST = g.hash_to_scalar("fairtable/test-honest-dice-secret", 0) or 1
ADVERSARY = 1


def outputs(step: int, dice: tuple[int, ...], seats: int = 2) -> tuple[v.RollContext, bytes, bytes]:
    """The roll's context, the honest output and the adversary's (the same at all its seats)."""
    ctx = v.RollContext(GAME, step, "stats", dice, tuple(range(seats)))
    base = ctx.base()
    return ctx, g.mul(HONEST, base), g.mul(ADVERSARY, base)


def faces(step: int, dice: tuple[int, ...], seats: int = 2) -> tuple[int, ...]:
    ctx, honest, adversary = outputs(step, dice, seats)
    return faces_from_seed(v.vrf_seed(ctx, [honest] + [adversary] * (seats - 1)), dice)


def test_2d6_sums_over_7200_rolls_are_fair() -> None:
    sums = Counter(sum(faces(i, (6, 6))) for i in range(7_200))
    expected = {s: 7_200 * (6 - abs(s - 7)) / 36 for s in range(2, 13)}
    stat = chi2(sums, expected)
    assert stat < CRITICAL_10_DOF and chi2_sf(stat, 10) > P_MIN


def test_single_d6_faces_are_uniform_with_five_adversarial_seats() -> None:
    got = Counter(faces(i, (6,), seats=6)[0] for i in range(3_000))
    assert chi2_sf(chi2(got, {f: 500.0 for f in range(1, 7)}), 5) > P_MIN


def test_faces_at_the_steps_an_adversary_can_predict_for_itself_are_still_fair() -> None:
    """The adversary knows its own outputs at every step in advance; keeping only the steps where
    its own output's first byte is even must not skew the faces (its output tells nothing of them)."""
    kept: Counter[int] = Counter()
    for step in range(6_000):
        ctx, honest, adversary = outputs(step, (6,))
        if adversary[0] % 2 == 0:
            kept[faces_from_seed(v.vrf_seed(ctx, [honest, adversary]), (6,))[0]] += 1
    total = sum(kept.values())
    assert total > 2_500
    assert chi2_sf(chi2(kept, {f: total / 6 for f in range(1, 7)}), 5) > P_MIN

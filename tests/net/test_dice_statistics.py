"""Dice statistics (seeded, deterministic): chi-square goodness of fit.

The rolls use the real seed combiner and face sampler. Only seat 0 is honest
(its contributions come from a seeded counter-mode hash, standing in for
``secrets``); every other seat plays a fixed adversarial contribution. The
sums must still be fair: one honest seat is enough.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Sequence

import pytest

from net.dice import faces_from_seed, joint_seed

GAME = b"S" * 32
ADVERSARY = b"\x00" * 32
P_MIN = 0.001
#: Critical value of chi-square with 10 degrees of freedom at p = 0.001.
CRITICAL_10_DOF = 29.588


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for chi-square with an integer number of degrees of freedom.

    Closed forms of the regularized upper incomplete gamma Q(dof/2, x/2):
    a finite Poisson sum for even dof, erfc plus a finite sum for odd dof.
    """
    y = x / 2
    if dof % 2 == 0:
        term, total = 1.0, 0.0
        for i in range(dof // 2):
            if i:
                term *= y / i
            total += term
        return math.exp(-y) * total
    total = math.erfc(math.sqrt(y))
    term = math.sqrt(y) * math.exp(-y) / math.gamma(1.5)
    for i in range((dof - 1) // 2):
        total += term
        term *= y / (i + 1.5)
    return total


def chi2(observed: Counter[int], expected: dict[int, float]) -> float:
    assert set(observed) <= set(expected)
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def honest(i: int) -> bytes:
    return hashlib.sha256(b"fairtable-test-honest-seat/%d" % i).digest()


def roll(i: int, dice: Sequence[int], seats: int = 2) -> tuple[int, ...]:
    contributions = (honest(i),) + (ADVERSARY,) * (seats - 1)
    seed = joint_seed(GAME, i, "stats", dice, tuple(range(seats)), contributions)
    return faces_from_seed(seed, dice)


def test_chi2_sf_matches_published_critical_values() -> None:
    assert chi2_sf(CRITICAL_10_DOF, 10) == pytest.approx(0.001, rel=2e-3)
    assert chi2_sf(20.515, 5) == pytest.approx(0.001, rel=2e-3)
    assert chi2_sf(13.816, 2) == pytest.approx(0.001, rel=2e-3)
    assert chi2_sf(43.820, 19) == pytest.approx(0.001, rel=2e-3)
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, rel=2e-3)


def test_2d6_sums_over_60000_rolls_are_fair() -> None:
    sums = Counter(sum(roll(i, (6, 6))) for i in range(60_000))
    ways = {s: 6 - abs(s - 7) for s in range(2, 13)}
    expected = {s: 60_000 * w / 36 for s, w in ways.items()}
    stat = chi2(sums, expected)
    assert stat < CRITICAL_10_DOF
    assert chi2_sf(stat, 10) > P_MIN


@pytest.mark.parametrize("sides, rolls", [(3, 9_000), (20, 20_000)])
def test_single_die_faces_are_uniform(sides: int, rolls: int) -> None:
    faces = Counter(roll(i, (sides,), seats=6)[0] for i in range(rolls))
    expected = {f: rolls / sides for f in range(1, sides + 1)}
    assert chi2_sf(chi2(faces, expected), sides - 1) > P_MIN


def test_the_chi_square_check_catches_a_modulo_biased_die() -> None:
    # Power check: a die that maps a 4-bit value with "% 6" (no rejection)
    # favours faces 1..4; the same test must reject it.
    faces = Counter(honest(i)[0] % 16 % 6 + 1 for i in range(12_000))
    expected = {f: 12_000 / 6 for f in range(1, 7)}
    assert chi2_sf(chi2(faces, expected), 5) < P_MIN


def test_the_chi_square_check_catches_a_rigged_2d6() -> None:
    # A sampler that lets the adversary's bytes decide (ignoring the honest seat)
    sums = Counter(sum(faces_from_seed(hashlib.sha256(ADVERSARY + bytes([i % 4])).digest(), (6, 6)))
                   for i in range(60_000))
    expected = {s: 60_000 * (6 - abs(s - 7)) / 36 for s in range(2, 13)}
    assert chi2(sums, expected) > CRITICAL_10_DOF

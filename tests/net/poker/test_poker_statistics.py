"""Shuffle uniformity: where a marked card ends up after three seats shuffle.

Cheap path, said plainly: the 3,000 three-seat shuffles below do not build
ciphertexts or proofs (that would take minutes). They draw each seat's
permutation through :func:`net.poker.shuffle.random_permutation`, the very
function :func:`net.poker.shuffle.shuffle` uses, with a seeded generator in
place of ``secrets.randbelow``, and apply it the way ``remask`` does
(output ``i`` takes input ``perm[i]``). ``test_real_shuffle_uses_that_permutation``
pins that equivalence on a real, proven shuffle.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from poker_helpers import GAME

from net.poker import group as g
from net.poker.cards import card_point
from net.poker.proofs import Context
from net.poker.shuffle import random_permutation, shuffle, trivial_deck, verify_shuffle

CARDS = 24
SEATS = 3
ROUNDS = 3000
#: chi-square critical value for 23 degrees of freedom at p = 0.001
CRITICAL_23 = 49.728

Permuter = Callable[[int, Callable[[int], int]], tuple[int, ...]]


def _marked_positions(seed: int, permuter: Permuter) -> list[int]:
    rng = random.Random(seed)
    counts = [0] * CARDS
    for _ in range(ROUNDS):
        position = 0  # the marked card starts on top
        for _seat in range(SEATS):
            perm = permuter(CARDS, rng.randrange)
            position = perm.index(position)  # output i holds input perm[i]
        counts[position] += 1
    return counts


def _chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_marked_card_position_is_uniform_over_three_seat_shuffles() -> None:
    counts = _marked_positions(20261129, random_permutation)
    assert sum(counts) == ROUNDS
    assert _chi_square(counts) < CRITICAL_23, counts


def _sattolo(n: int, randbelow: Callable[[int], int]) -> tuple[int, ...]:
    """An off-by-one Fisher-Yates (only cyclic permutations): a classic bug."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = randbelow(i)
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)


def test_the_statistic_catches_a_biased_shuffle() -> None:
    """Control: one seat's buggy shuffle never leaves the card in place; the same
    test must reject it, or it could not fail at all."""
    rng = random.Random(7)
    counts = [0] * CARDS
    for _ in range(ROUNDS):
        counts[_sattolo(CARDS, rng.randrange).index(0)] += 1
    assert counts[0] == 0
    assert _chi_square(counts) > CRITICAL_23


def test_real_shuffle_uses_that_permutation() -> None:
    x = g.random_scalar()
    key = g.base_mul(x)
    points = [card_point(GAME, f"c{i}") for i in range(8)]
    deck = trivial_deck(points, key)
    ctx = Context(GAME, 5, 0)
    out, proof = shuffle(ctx, key, deck, random.Random(99).randrange)
    verify_shuffle(ctx, key, deck, out, proof)
    expected = random_permutation(8, random.Random(99).randrange)
    assert [g.sub(b, g.mul(x, a)) for a, b in out] == [points[j] for j in expected]

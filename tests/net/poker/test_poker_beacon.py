"""The beacon's public permutation (net/poker/beacon.py): a uniform permutation from a seed,
bound to the game, step, zone and the very deck it permutes."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from net.poker import beacon
from net.poker import group as g

GAME = hashlib.sha256(b"beacon-test-game").digest()


def _seed(i: int) -> bytes:
    return hashlib.sha256(b"seed" + i.to_bytes(4, "big")).digest()


def test_a_seed_gives_one_permutation_of_every_position() -> None:
    for n in (0, 1, 2, 6, 86):
        perm = beacon.permutation(_seed(n), n)
        assert sorted(perm) == list(range(n))
        assert perm == beacon.permutation(_seed(n), n)  # every peer derives the same one
    assert beacon.permutation(_seed(1), 86) != beacon.permutation(_seed(2), 86)


def test_every_position_is_about_equally_likely() -> None:
    """Where card 0 lands over 6000 seeds, for a 6-card deck: each of the 6 places about 1000
    times (a bias of a few percent, such as a modulo bias on small words, would show)."""
    n, runs = 6, 6000
    landed = Counter(beacon.permutation(_seed(i), n).index(0) for i in range(runs))
    assert set(landed) == set(range(n))
    chi2 = sum((landed[k] - runs / n) ** 2 / (runs / n) for k in range(n))
    assert chi2 < 25.7  # 5 degrees of freedom, p = 0.0001


def test_apply_moves_the_card_at_perm_i_to_position_i() -> None:
    assert beacon.apply((2, 0, 1), ("a", "b", "c")) == ("c", "a", "b")
    with pytest.raises(ValueError, match="not a permutation"):
        beacon.apply((0, 0, 1), ("a", "b", "c"))
    with pytest.raises(ValueError, match="32 bytes"):
        beacon.permutation(b"short", 3)


def test_the_context_binds_game_step_zone_and_deck() -> None:
    deck = ((g.base_mul(3), g.base_mul(5)), (g.base_mul(7), g.base_mul(11)))
    other = (deck[1], deck[0])
    ctx = beacon.beacon_context(GAME, 4, "combat:deck", deck, (0, 1, 2))
    assert ctx.dice == () and ctx.seats == (0, 1, 2) and ctx.step == 4
    bases = {ctx.base(),
             beacon.beacon_context(GAME, 4, "combat:deck", other, (0, 1, 2)).base(),
             beacon.beacon_context(GAME, 5, "combat:deck", deck, (0, 1, 2)).base(),
             beacon.beacon_context(GAME, 4, "die:1", deck, (0, 1, 2)).base(),
             beacon.beacon_context(hashlib.sha256(b"other").digest(), 4, "combat:deck", deck, (0, 1, 2)).base()}
    assert len(bases) == 5  # a part made for one of them is checked against another base: refused

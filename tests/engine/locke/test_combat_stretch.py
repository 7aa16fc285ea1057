"""Stretching a card's level with mind checks (KMC 10.5.1-2; ruling N142, audit-13 finding 6).

KMC 10.5.1 lets mind checks make up only the levels a character's own ESP level and power
cannot pay (the shortfall); 10.5.2 spends power for the levels the own level covers. So the
own part of a stretched play is exactly min(level, power left), never less: a seat that
stretched a card it could pay would save power and hide its level, with nothing to catch it.
A stretched play therefore claims the exact own part (``locke.cb.stretch``, judged on the
current stats like every other hidden stat, N100/N158), also when that part is 0.

Seat 0 is Locke-1 (level 6, power 50, mind 8); seat 2 Nia (level 4, power 20, mind 5).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim, false_claims
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Play
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, five, game, roll

LOCKE_FIRST = (6, 6, 1, 1)  # initiative: Locke (fighter 0) first
NIA_FIRST = (1, 1, 6, 6)


def _duel(locke: list[str], nia: list[str], first: tuple[int, ...] = LOCKE_FIRST, **kw: Any) -> Any:
    table = combat_table(deck=locke + nia, **kw)
    roll(table, *first)
    return table


def _stretches(table: Any, seat: int, card_id: str) -> set[tuple[int, int]]:
    return {(a.stretch, a.mind) for a in table.legal(seat) if isinstance(a, Play) and a.card == card_id}


def test_stretching_a_card_ones_own_level_covers_is_a_false_claim() -> None:
    """KMC 10.5.1: Locke (level 6) may not fire the level-6 D-bomb on six mind checks for no
    power; the claim of the exact own part (6, not 0) is false, names his seat, and the play
    changes nothing."""
    table = _duel(seven("d-bomb-50"), seven("raygun-2"))
    before = table.state
    with pytest.raises(FalseClaim) as err:
        table.feed(card(table, 0, "attack", "d-bomb-50", target=1, stretch=6, mind=8))
    assert err.value.seat == 0 and err.value.claim.what == cc.STRETCH and err.value.claim.rule == "locke.10.5.1"
    assert table.state is before and fight(table).fighters[0].spent == 0


def test_a_stretch_of_one_level_too_many_is_caught_as_well() -> None:
    """KMC 10.5.1: the level-7 geoid bomb needs exactly one mind check from Locke; two (own
    part 5) is an over-stretch."""
    table = _duel(seven("geoid-bomb-100"), seven("raygun-2"))
    with pytest.raises(FalseClaim) as err:
        table.feed(card(table, 0, "attack", "geoid-bomb-100", target=1, stretch=2, mind=8))
    assert err.value.seat == 0 and err.value.claim.what == cc.STRETCH


def test_the_honest_stretch_passes_and_pays_the_own_levels() -> None:
    """KMC 10.5.1-2: one check for the level above his own; his six levels cost six power."""
    table = _duel(seven("geoid-bomb-100"), seven("raygun-2"))
    assert _stretches(table, 0, "geoid-bomb-100") == {(1, 8)}
    act(table, card(table, 0, "attack", "geoid-bomb-100", target=1, stretch=1, mind=8))
    stretch = [c for c in table.state.claims if c.what == cc.STRETCH]
    assert len(stretch) == 1 and stretch[0].value[0] == [6, 0]
    roll(table, 2, 2)  # the mind check passes
    assert fight(table).fighters[0].spent == 6


def test_the_power_left_bounds_the_own_part() -> None:
    """KMC 10.5.2: with 2 power left (a public change of -18, N100) Nia's own part of the
    level-3 bazooka is 2, so she stretches exactly one level: the only honest stretch the legal
    actions offer; stretching two is a false claim."""
    seats = five(s2={"place": "P:1:0", "mods": [["power", "add", -18, "game"]]})
    table = _duel(seven("raygun-2"), seven("bazooka-9"), NIA_FIRST, seats=seats)
    assert _stretches(table, 2, "bazooka-9") == {(1, 5)}
    with pytest.raises(FalseClaim) as err:
        table.feed(card(table, 2, "attack", "bazooka-9", target=0, stretch=2, mind=5))
    assert err.value.seat == 2 and err.value.claim.what == cc.STRETCH
    act(table, card(table, 2, "attack", "bazooka-9", target=0, stretch=1, mind=5))
    assert [c.value[0] for c in table.state.claims if c.what == cc.STRETCH] == [[2, 0]]


def test_an_own_part_of_zero_is_claimed_exactly_too() -> None:
    """KMC 10.5.1 with no ESP at all: Yamaki-1 (level 0, power 0) stretches the whole level of
    a card, and says so (own part 0, a claim that holds); saying he pays one level himself is
    false (before, no claim was made for an own part of 0, nor checked for a part he has not)."""
    seats = five(s2={"character": "yamaki-1", "silhouette": "yamaki-1", "place": "P:1:0"},
                 s3={"character": "ran-g", "silhouette": "ran-g"})
    table = _duel(seven("raygun-2"), seven("blaster-4"), NIA_FIRST, seats=seats)
    assert _stretches(table, 2, "blaster-4") == {(2, 5)}
    with pytest.raises(FalseClaim) as err:
        table.feed(card(table, 2, "attack", "blaster-4", target=0, stretch=1, mind=5))
    assert err.value.seat == 2 and err.value.claim.what == cc.STRETCH
    act(table, card(table, 2, "attack", "blaster-4", target=0, stretch=2, mind=5))
    assert [c.value[0] for c in table.state.claims if c.what == cc.STRETCH] == [[0, 0]]


def test_the_audit_names_the_over_stretching_seat() -> None:
    """A networked table judges the claim when the character card opens (the end-of-game audit,
    N173): applied without the trusted table's judgement, the over-stretch leaves a claim that
    the opened cards prove false, naming seat 0; the honest stretch's claims all hold."""
    table = _duel(seven("d-bomb-50", "geoid-bomb-100"), seven("raygun-2"))
    n = len(table.state.claims)
    lie = game().apply(table.state, card(table, 0, "attack", "d-bomb-50", target=1, stretch=6, mind=8))
    found = false_claims(lie.claims[n:], table.truth.get, game().claim_holds)
    assert [(f.seat, f.claim.what) for f in found] == [(0, cc.STRETCH)]
    honest = game().apply(table.state, card(table, 0, "attack", "geoid-bomb-100", target=1, stretch=1, mind=8))
    assert false_claims(honest.claims[n:], table.truth.get, game().claim_holds) == ()
    assert {c.what for c in honest.claims[n:]} >= {cc.CARD, cc.STRETCH}


def test_kmc_10_5_2s_worked_example_two_checks_and_one_power_n253() -> None:
    """KMC 10.5.2's example: a level-2 esper passes two mind checks to fire a bazooka (level 3)
    and spends 1 power. With 10.5.1's exact shortfall (N142, kept by N253) that is an esper with
    1 power left: Yamaki 2 (level 2, power 15, mind 9) after a public change of -14 power."""
    seats = five(s2={"character": "yamaki-2", "silhouette": "nia", "place": "P:1:0",
                     "mods": [["power", "add", -14, "game"]]})
    table = _duel(seven("raygun-2"), seven("bazooka-9"), NIA_FIRST, seats=seats)
    assert _stretches(table, 2, "bazooka-9") == {(2, 9)}
    act(table, card(table, 2, "attack", "bazooka-9", target=0, stretch=2, mind=9))
    roll(table, 2, 2, 3, 3)  # both mind checks pass (4 and 6, against mind 9)
    assert fight(table).fighters[1].spent == 1

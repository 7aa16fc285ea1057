"""Henchmen's syncs are bounded by the master's own card, every one of them (KMC 10.8, 2.3.1;
ruling N148; audit-13 finding 18).

KMC 10.8: a sync is a card of the same kind at or below the attack's level; a henchman syncs
at level 2 or less. Each sync raises the attack by one level, but the bound is the attack
card's own level, not the raised one: with two henchmen on a ray gun (level 1) the second may
not add a level-2 blaster. The same holds for a henchman syncing its master's escape teleport:
at or below that teleport's level (and 2).

Locke-1 (seat 0, fighter 0) has two henchmen (nine cards); Nia is seat 2 (fighter 1).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalAction
from engine.locke.actions import Nop
from engine.locke.combat.actions import Play
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)
NIA_FIRST = (1, 1, 6, 6)


def _table(locke: tuple[str, ...], nia: tuple[str, ...], first: tuple[int, ...]) -> Any:
    table = combat_table(henchmen=2, deck=list(locke) + ["*"] * (9 - len(locke)) + seven(*nia))
    roll(table, *first)
    assert len(fight(table).fighters[0].hand) == 9
    return table


def _hench_cards(table: Any) -> set[str]:
    return {a.card for a in table.legal(0) if isinstance(a, Play) and a.use == "hench"}


def test_the_second_henchman_may_not_sync_above_the_attack_cards_level() -> None:
    """KMC 10.8: Locke's ray gun (level 1); the first henchman adds a level-1 ray gun (level 2
    now); the second may still add only level 1: the blaster (level 2) is neither offered nor
    accepted (before, the raised level let it in)."""
    table = _table(("raygun-1", "raygun-2", "blaster-4", "raygun-3"), (), LOCKE_FIRST)
    act(table, card(table, 0, "attack", "raygun-1", target=1))
    assert waiting(table) == ("locke.cb_hench", 0) and "blaster-4" not in _hench_cards(table)
    act(table, card(table, 0, "hench", "raygun-2"))
    assert fight(table).strike is not None and fight(table).strike.level == 2
    assert waiting(table) == ("locke.cb_hench", 0)
    assert _hench_cards(table) == {"raygun-3"}
    before = table.state
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 0, "hench", "blaster-4"))
    assert err.value.rule == "locke.10.8" and table.state is before
    act(table, card(table, 0, "hench", "raygun-3"))
    assert [e[2:4] for e in table.state.events if e[0] == "cb-sync"] == [("henchman", 2), ("henchman", 3)]


def test_on_a_level_two_attack_both_henchmen_may_add_level_two() -> None:
    """KMC 10.8, 2.3.1: the bound is min(the attack card's level, 2): a blaster (level 2) lets
    both henchmen sync blasters."""
    table = _table(("blaster-4", "blaster-5", "blaster-6"), (), LOCKE_FIRST)
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, card(table, 0, "hench", "blaster-5"))
    assert "blaster-6" in _hench_cards(table)
    act(table, card(table, 0, "hench", "blaster-6"))
    assert fight(table).strike is not None and fight(table).strike.level == 4


def test_a_henchman_syncs_an_escape_teleport_at_or_below_its_level() -> None:
    """KMC 10.8 with the escape teleport (N148): Locke escapes Nia's ray gun with a level-1
    teleport; his henchmen may add level-1 teleports only, not a level-2 one, the first and
    the second alike."""
    table = _table(("teleport-1", "teleport-2", "teleport-1"), ("raygun-1",), NIA_FIRST)
    act(table, card(table, 2, "attack", "raygun-1", target=0))
    act(table, card(table, 0, "escape", "teleport-1"))
    assert waiting(table) == ("locke.cb_hench", 0)
    assert _hench_cards(table) == {"teleport-1"}
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 0, "hench", "teleport-2"))
    assert err.value.rule == "locke.10.8"
    act(table, card(table, 0, "hench", "teleport-1"))
    assert waiting(table) == ("locke.cb_hench", 0) and _hench_cards(table) == set()
    act(table, Nop(0))
    strike = fight(table).strike
    assert strike is not None and strike.escape_level == 2


def test_henchmen_not_declared_may_still_sync_kmc_10_3_1_note_2() -> None:
    """KMC 10.3.1 note 2: henchmen left undeclared before the initiative may still sync their
    master's attack; only the extra card is lost (issue 25 A4: the engine asked declared ones
    only). Yamaki 2 (one henchman on the card) declared none; the sync is a claim that the card
    has it, and a second one is not offered (claiming one is false)."""
    from engine.core.claims import FalseClaim
    from engine.locke.combat import claims as cc
    from tests.engine.locke.flow_helpers import five

    seats = five(s2={"character": "yamaki-2", "silhouette": "nia", "place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven() + seven("raygun-1", "raygun-2", "raygun-3"))
    table.henchmen = True  # type: ignore[attr-defined]  # the test answers the undeclared henchmen's question
    roll(table, *NIA_FIRST)
    assert len(fight(table).fighters[1].hand) == 7 and fight(table).fighters[1].henchmen == 0
    act(table, card(table, 2, "attack", "raygun-1", target=0))
    assert waiting(table) == ("locke.cb_hench_more", 2)
    act(table, card(table, 2, "hench", "raygun-2"))
    assert [c.value for c in table.state.claims if c.what == cc.ITEM][-1] == ["henchman", 1]
    assert fight(table).strike is not None and fight(table).strike.level == 2
    assert waiting(table) == ("locke.cb_hench_more", 2) and table.legal(2) == [Nop(2)]
    with pytest.raises(FalseClaim):
        table.feed(card(table, 2, "hench", "raygun-3"))


def test_a_seat_without_henchmen_is_asked_too_and_may_only_pass() -> None:
    """Everyone's attack gets the undeclared henchmen's question (being asked gives nothing
    away); Locke 1 has no henchmen, so he may only pass."""
    table = combat_table(deck=seven("raygun-1", "raygun-2") + seven())
    table.henchmen = True  # type: ignore[attr-defined]
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "raygun-1", target=1))
    assert waiting(table) == ("locke.cb_hench_more", 0) and table.legal(0) == [Nop(0)]

"""Hijiri's whim, first option, in play (seed 002 line 169, event 11; rulings N78, N275):
until death the card's printed special abilities (KMC 2.2) are gone and the rolled ones are
used instead, where the engine has a rule for them (engine/locke/kit.py): release, the
henchman, ship support. Seat 0 is Locke 1 (conversion, shape change; no release, no items)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalAction
from engine.locke import claims as ck
from engine.locke import kit
from engine.locke.abilities import SHAPE_CHANGE
from engine.locke.actions import Choose, Declare, Release, UseAbility
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Equip
from tests.engine.locke.combat_helpers import combat_table, fight
from tests.engine.locke.flow_helpers import act, five, game, roll, table_at, waiting
from tests.engine.locke.test_traps import _event

LOST = list(kit.LOST)


def _ability(name: str) -> list[Any]:
    return [kit.PREFIX + name, "set", 1, "life"]


def _arrested(character: str, mods: list[list[Any]]) -> Any:
    """Seat 0 (``character``) arrested on P:1:1 with ``mods``, at its release choice."""
    seats = five(s0={"character": character, "place": "P:1:1", "status": "arrested", "mods": mods})
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier",
                      "cells": {"P:1:1": {"face_up": "arrest"}}})
    act(table, Declare(0, False))
    assert waiting(table) == ("locke.release", 0)
    return table


def test_the_printed_abilities_are_gone_after_the_whim() -> None:
    """Seed 002 line 169: "all the special abilities it had are lost". Locke 1 may no longer
    shape-change (nor convert): not offered, and refused if tried."""
    table = table_at({"seats": five(s0={"mods": [LOST]}), "phase": "planet", "turn_of": 0, "fill": "frontier"})
    act(table, Declare(0, False))
    assert waiting(table) == ("locke.move", 0)
    assert not [a for a in table.legal(0) if isinstance(a, UseAbility)]
    with pytest.raises(IllegalAction):
        table.feed(UseAbility(0, SHAPE_CHANGE, 0, "nia"))


def test_a_rolled_release_frees_a_character_whose_card_has_none_and_claims_nothing() -> None:
    """Seed 002 line 169 entry 2 and seed 000 3.2.1: the whim's release is used like the
    card's; it is on the public ledger, so using it claims nothing about the card."""
    table = _arrested("locke-1", [LOST, _ability("release")])
    assert Release(0, True) in table.legal(0)
    act(table, Release(0, True))
    assert table.state.seats[0].status == "normal"
    assert not [c for c in table.state.claims if c.what == ck.RELEASE]


def test_a_printed_release_is_lost_with_the_whim() -> None:
    """Francis prints release; after the whim (abilities rolled without release) it is gone."""
    table = _arrested("francis", [LOST, _ability("sword"), _ability("blaster")])
    assert Release(0, True) not in table.legal(0)
    with pytest.raises(IllegalAction):
        table.feed(Release(0, True))


def test_a_rolled_henchman_is_declared_without_a_claim() -> None:
    """Entry 5 (N275): the henchman the 4-6 gave is a level-2 henchman (KMC 10.3.2): Locke 1,
    whose card has none, brings it, and the public ledger makes the declaration no claim."""
    mods = [LOST, _ability("henchman"), _ability("sword"), list(kit.HENCHMAN)]
    table = combat_table(seats=five(s0={"mods": mods}, s2={"place": "P:1:0"}), equip={0: Equip(0, 1, "", False)})
    assert fight(table).fighters[0].henchmen == 1
    assert not [c for c in table.state.claims if c.what == cc.ITEM and c.seat == 0]


def test_the_same_ability_rolled_again_is_rolled_anew() -> None:
    """N275: two abilities are two different ones; a second 2 (release) is rolled again."""
    table = _event()
    roll(table, 5, 6)
    act(table, Choose(0, "a"))
    roll(table, 3, 2, 1, 4)
    roll(table, 2)
    roll(table, 2)
    assert ("hijiri-whim-again", 0, "release") in table.state.events
    roll(table, 6)
    assert ("hijiri-whim-abilities", 0, ["release", "ship-support"]) in table.state.events
    assert kit.gained(table.state.seats[0].mods) == ("release", "ship-support")


@pytest.mark.parametrize(("face", "gets"), [(3, False), (4, True)])
def test_the_henchman_ability_rolls_for_its_henchman(face: int, gets: bool) -> None:
    """Entry 5: 1d6, 4-6 gives one henchman (N275: rolled once, as the ability is gained)."""
    table = _event()
    roll(table, 5, 6)
    act(table, Choose(0, "a"))
    roll(table, 3, 2, 1, 4)
    roll(table, 5)
    roll(table, 3)
    roll(table, face)
    assert ("hijiri-whim-henchman", 0, face, int(gets)) in table.state.events
    assert ("henchman" in kit.public_items(table.state.seats[0].mods)) is gets
    card = game().components.character("locke-1")
    assert len(kit.now(card, table.state.seats[0].mods).items_of("henchman")) == int(gets)


def test_kit_now_is_idempotent_and_keeps_the_printed_items() -> None:
    """KMC 2.2 names the special abilities; the items of KMC 3 stay (N275). Applying the ledger
    twice gives the same card (the honest options and the combat both read it)."""
    card = game().components.character("yamaki-2")
    mods = [tuple(LOST), (kit.PREFIX + "ship-support", "set", 1, "life"), kit.HENCHMAN]
    once = kit.now(card, mods)
    assert kit.now(once, mods) == once
    assert not once.has_ability("release")
    assert len(once.items_of("henchman")) == 2 and len(once.items_of("ship")) == 2


def test_a_rolled_ship_support_is_a_ship_the_card_need_not_carry() -> None:
    """Entry 6 (N275): ship support is the ship item on the ship-support chart (KMC 10.4.2).
    Locke 1, whose card has no ship, may use it after the whim; the chart's result is public,
    so saying what the ship did claims nothing about the card."""
    from engine.locke.combat.actions import ShipEffect, UseItem
    from tests.engine.locke.combat_helpers import initiative, seven

    mods = [LOST, _ability("ship-support"), _ability("sword")]
    table = combat_table(seats=five(s0={"mods": mods}, s2={"place": "P:1:0"}), deck=seven() + seven())
    initiative(table, 6, 6, 1, 1)
    assert UseItem(0, "ship", 1) in table.legal(0)
    before = len(table.state.claims)
    act(table, UseItem(0, "ship", 1))
    roll(table, 4, 4)  # 8: no support (seed 002 ship-support chart)
    assert table.legal(0) == [ShipEffect(0, "no-support")]
    act(table, ShipEffect(0, "no-support"))
    assert len(table.state.claims) == before


def test_a_second_whim_takes_the_first_whims_abilities_too() -> None:
    """Seed 002 line 169: the whim takes "the abilities it had"; after a second whim (a), those
    are the first whim's rolled ones (N275), and only the new rolls count."""
    first = [tuple(LOST), (kit.PREFIX + "release", "set", 1, "life"), (kit.PREFIX + "henchman", "set", 1, "life"),
             kit.HENCHMAN]
    second = first + [tuple(LOST), (kit.PREFIX + "sword", "set", 1, "life"),
                      (kit.PREFIX + "ship-support", "set", 1, "life")]
    assert kit.gained(second) == ("sword", "ship-support") and kit.public_items(second) == ("ship",)
    card = kit.now(game().components.character("locke-1"), second)
    assert not card.has_ability("release") and not card.items_of("henchman") and card.items_of("ship")

"""A seat that synced keeps its turn's special attacks (KMC 10.4.1, 10.4.2; ruling N150;
audit-13 finding 7).

KMC 10.4.1: a player who already synced another's attack in this round has no normal action
on its own turn; 10.4.2: special attacks (ship, beam cannon, geoid bomb) are used
independently of the combat cards, every round, by everyone not asleep. So the syncer's turn
comes with the special and free options only; before, it was skipped whole.

Fighters: 0 Locke-1 (seat 0) and 1 Lord Leon (seat 4, a ship; level 6) on one side, 2 Nia
(seat 2) on the other. Initiative: Locke, Nia, Leon.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalAction
from engine.locke.actions import Nop
from engine.locke.combat.actions import Durability, Play, UseItem
from engine.locke.control import orders
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, five, roll, waiting

ORDER = (6, 6, 1, 1, 3, 3)  # Locke 12, Leon 2, Nia 6


def _synced(leon: str = "lord-leon") -> Any:
    """Locke attacks Nia with a blaster, Leon syncs it with a ray gun; Nia takes the hit and
    passes her turn: Leon's turn comes."""
    faces = {"lord-leon": "lord-leon", "elmi": "elmi"}
    seats = five(s2={"place": "P:1:0"}, s4={"character": leon, "silhouette": faces[leon], "place": "P:1:0"})
    table = combat_table(sides=((0, 4), (2,)), seats=seats,
                         deck=seven("blaster-4") + seven("raygun-2", "raygun-1") + seven())
    roll(table, *ORDER)
    act(table, card(table, 0, "attack", "blaster-4", target=2))
    assert waiting(table) == ("locke.cb_sync", 4)
    act(table, card(table, 4, "sync", "raygun-2"))
    assert fight(table).fighters[1].acted
    act(table, Nop(2))  # no escape
    act(table, Nop(2))  # no defence
    act(table, Durability(2, 4))
    roll(table, 6, 5)  # the damage check
    act(table, Nop(0))  # the rest of Locke's turn (N235)
    act(table, Nop(2))  # Nia's turn: she passes
    return table


def test_a_ship_owner_who_synced_still_fires_his_ship() -> None:
    """KMC 10.4.1-10.4.2: Lord Leon's turn comes; his ship is offered, no card play is."""
    table = _synced()
    assert waiting(table) == ("locke.cb_act", 4)
    legal = table.legal(4)
    assert UseItem(4, "ship", 2) in legal and Nop(4) in legal
    assert not any(isinstance(a, Play) for a in legal)
    act(table, UseItem(4, "ship", 2))
    roll(table, 1, 2)  # ship support 3: a G-bomb (5, 30)
    assert [e for e in table.state.events if e[0] == "cb-ship"][-1][2] == "g-bomb"


def test_a_syncer_cannot_play_a_card_on_its_turn() -> None:
    """KMC 10.4.1: the normal action is gone: a card play is refused with the rule and changes
    nothing (the ray gun he still holds would otherwise be a legal attack)."""
    table = _synced()
    before = table.state
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 4, "attack", "raygun-1", target=2))
    assert err.value.rule == "locke.10.4.1" and table.state is before


def test_a_syncer_without_specials_may_only_pass() -> None:
    """KMC 10.4.1: a seat with no special attack still gets its turn (nothing but a pass is
    offered), which tells the table nothing about its card."""
    table = _synced(leon="elmi")
    assert waiting(table) == ("locke.cb_act", 4) and table.legal(4) == [Nop(4)]


def test_a_controller_cannot_order_a_syncer_to_attack() -> None:
    """N210-N211 with KMC 10.4.1: an attack order to a seat that synced could not be carried out
    (and its pass would show its hand as if it had lied): the orders are to act freely or pass."""
    table = _synced()
    assert orders(table.state, table.state.queue[0]) == ("free", "pass")

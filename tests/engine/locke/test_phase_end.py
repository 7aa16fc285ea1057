"""The planet phase ends the moment its condition holds (issue 25 A7, A8; KMC 7.2.2-7.3.1,
seed 000 3.2.2 line 104).

- A party whose members hold three information cards between them ends the planet phase
  when it forms (seed 000 3.2.2: 'the moment it is plain'), not at the next card drawn.
- The last face-down planet card opening ends it at once (KMC 7.2.2 'every planet card is
  open', then 7.2.3 and 7.3.1): the base phase is set up before anything else happens, so the
  opened card's combat is not fought on the old board.
"""

from __future__ import annotations

from engine.locke.actions import Declare, Join, Keep, Propose, Walk
from tests.engine.locke.flow_helpers import act, five, table_at


def test_a_party_holding_three_information_cards_ends_the_planet_phase_when_it_forms() -> None:
    """Seed 000 3.2.2 (l.104): Locke (2 cards) invites Nia (1 card) on his cell; her yes ends it."""
    seats = five(s0={"info": 2}, s2={"info": 1, "place": "P:1:0"})
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "spaceport"})
    act(table, Declare(0, False))
    act(table, Propose(0, (2,)))
    act(table, Join(2, True))
    assert table.state.phase == "base"
    assert ("phase-change", "information", 0) in table.state.events


def test_the_last_planet_card_opening_ends_the_planet_phase_at_once() -> None:
    """KMC 7.2.2-7.3.1: the only face-down card left is a combat card (seed 000 3.2.1); once it is
    shown the base phase begins, and no random combat is rolled on the planet board."""
    table = table_at({"seats": five(), "phase": "planet", "turn_of": 0, "cells": {"P:1:1": "combat"}})
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, False))
    assert table.state.phase == "base"
    assert ("phase-change", "all-open", -1) in table.state.events
    assert not any(e[0] in ("random-combat", "combat") for e in table.state.events)

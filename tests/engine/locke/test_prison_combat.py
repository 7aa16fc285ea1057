"""A prisoner may stop a prison combat (issue 25 A10; seed 002 prison chart 9-10, KMC ch. 12;
ruling D10).

Seed 002 prison 9-10: in a combat the prison chart made, each character may stop the combat as
any round begins, its escape then counted as failed; KMC ch. 12 lets the prisoner take re-arrest
instead of fighting once the opponent is known, which is stopping as round 1 begins. D10
recorded this, but nothing asked the prisoner (engine/locke/combat/flow.py PrisonStop now does).
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import SYSTEM
from engine.core.pending import Chance, Decision, DiceRolled, HiddenOp
from engine.locke.actions import TryRevive
from engine.locke.combat.actions import Equip, GoOn
from engine.locke.combat.flow import PRISON_COMBAT, begin
from engine.locke.combat.model import Obstacle
from engine.locke.state import Combat
from tests.engine.locke.flow_helpers import act, five, game, table_at, waiting


def _prison_combat() -> Any:
    """Locke (seat 0) in prison fights the police the prison chart's 9 called."""
    table = table_at({"seats": five(s0={"status": "arrested", "prison_failures": 1}), "phase": "planet",
                      "turn_of": 1, "fill": "frontier"})
    police = Obstacle("police", 0, 1, 1, squad=1)
    table.state = game().settle(begin(table.state, Combat(PRISON_COMBAT, "P:1:0", ((0,), ()), obstacles=(police,))))
    while not (isinstance(table.pending, Decision) and table.pending.prompt == "locke.cb_prison_stop"):
        pending = table.pending
        if isinstance(pending, Decision) and pending.prompt == "locke.cb_equip":
            table.feed(Equip(pending.seat, 0, "", False))
        elif isinstance(pending, Decision) and pending.prompt == "locke.try_revive":
            table.feed(TryRevive(pending.seat, False))
        elif isinstance(pending, (HiddenOp, Chance)) or pending is None:
            table.step()
        else:
            raise AssertionError(f"unexpected {pending!r}")
    return table


def test_the_prisoner_may_stop_as_round_one_begins_and_stays_in_prison() -> None:
    """KMC ch. 12 re-arrest instead of fighting = seed 002's stop at the start of round 1: the
    combat ends, the prisoner stays arrested and the failure counts (the chart's +1 grows)."""
    table = _prison_combat()
    assert waiting(table) == ("locke.cb_prison_stop", 0)
    assert table.legal(0) == [GoOn(0, True), GoOn(0, False)]
    act(table, GoOn(0, False))
    s = table.state
    assert s.combat is None and ("cb-prison-stop", 0, 1) in s.events
    assert s.seats[0].status == "arrested" and s.seats[0].prison_failures == 2
    assert not any(e[0] == "cb-round" for e in s.events)


def test_fighting_on_deals_the_round() -> None:
    table = _prison_combat()
    act(table, GoOn(0, True))
    while isinstance(table.pending, HiddenOp):
        table.step()
    assert isinstance(table.pending, Chance) and table.pending.purpose == "locke.combat.initiative"
    table.feed(DiceRolled(SYSTEM, table.pending.purpose, (6, 6, 1, 1)))
    assert table.state.combat is not None and any(e[0] == "cb-round" for e in table.state.events)


def test_a_prisoner_who_teleports_out_of_its_prison_combat_stays_in_prison_n257() -> None:
    """Ruling N257: an escape takes the prisoner out of the fight, not out of prison: no move, still
    arrested, and the try failed (seed 002 prison 9-10 frees it only when every opponent is dead).
    Before, its piece moved to the cell it picked while it stayed arrested."""
    from tests.engine.locke.combat_helpers import card, seven, stack
    from tests.engine.locke.flow_helpers import roll

    table = _prison_combat()
    stack(table, seven("teleport-2"))
    act(table, GoOn(0, True))
    roll(table, 6, 6, 1, 1)  # Locke first
    act(table, card(table, 0, "flee", "teleport-2"))
    while isinstance(table.pending, Chance) and table.pending.purpose == "locke.combat.escape":
        roll(table, 1)
    s = table.state
    assert s.combat is None and ("cb-escape", 0, "P:1:0") in s.events
    assert s.seats[0].place == "P:1:0" and s.seats[0].status == "arrested" and s.seats[0].prison_failures == 2


def _prison_combat_joined(joiner: int, seats: list[dict[str, Any]], cells: dict[str, Any]) -> Any:
    """Locke (seat 0) in prison fights the police the prison chart called; seat ``joiner`` rolls
    actually-there 2 (at once), the others decline; up to the first stop question."""
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 1, "fill": "frontier", "cells": cells})
    police = Obstacle("police", 0, 1, 1, squad=1)
    table.state = game().settle(begin(table.state, Combat(PRISON_COMBAT, "P:1:0", ((0,), ()), obstacles=(police,))))
    while not (isinstance(table.pending, Decision) and table.pending.prompt == "locke.cb_prison_stop"):
        pending = table.pending
        if isinstance(pending, Decision) and pending.prompt == "locke.cb_equip":
            table.feed(Equip(pending.seat, 0, "", False))
        elif isinstance(pending, Decision) and pending.prompt == "locke.try_revive":
            table.feed(TryRevive(pending.seat, pending.seat == joiner))
            if pending.seat == joiner:
                table.feed(DiceRolled(SYSTEM, "locke.chart.actually-there", (1, 1)))
        elif isinstance(pending, (HiddenOp, Chance)) or pending is None:
            table.step()
        else:
            raise AssertionError(f"unexpected {pending!r}")
    return table


def test_a_prisoner_who_joins_anothers_prison_combat_by_actually_there_stays_in_its_prison_n276() -> None:
    """Seed 002 prison chart (lines 75-76): only a combat the prison chart did not make frees a
    prisoner who takes part. Ruling N276: Yamaki 1 (seat 3), arrested on P:3:1, rolls
    actually-there 2 into Locke's prison combat: it fights from its prison, its piece stays on
    its own arrest card, and it is still arrested (its failures unchanged until it stops).
    Before, it escaped as it arrived and its piece moved onto Locke's cell."""
    table = _prison_combat_joined(3, five(s0={"status": "arrested", "prison_failures": 1},
                                          s3={"status": "arrested", "place": "P:3:1"}),
                                  {"P:3:1": {"face_up": "arrest"}})
    s = table.state
    assert ("joined-from-prison", 3, "P:3:1") in s.events
    assert not [e for e in s.events if e[0] == "escaped" and e[1] == 3]
    assert s.seats[3].status == "arrested" and s.seats[3].place == "P:3:1"
    assert s.combat is not None and any(f.seat == 3 for f in s.combat.detail.fighters)
    act(table, GoOn(0, False))
    assert waiting(table) == ("locke.cb_prison_stop", 3)
    act(table, GoOn(3, False))
    s = table.state
    assert s.combat is None
    assert s.seats[3].status == "arrested" and s.seats[3].place == "P:3:1" and s.seats[3].prison_failures == 1


def test_every_character_in_a_prison_combat_may_stop_not_only_the_prisoners_n277() -> None:
    """Seed 002 prison 9-10 (line 82): the stop "can be declared by each character that took part
    in the combat". Ruling N277: Nia (seat 2, free) joined Locke's prison combat by actually-there;
    as round 1 begins she is asked too, and stopping takes her out of the fight with nothing
    counted (she had no escape to fail), while Locke fights on. Before, only prisoners were asked."""
    table = _prison_combat_joined(2, five(s0={"status": "arrested", "prison_failures": 1}), {})
    act(table, GoOn(0, True))
    assert waiting(table) == ("locke.cb_prison_stop", 2)
    assert table.legal(2) == [GoOn(2, True), GoOn(2, False)]
    act(table, GoOn(2, False))
    s = table.state
    assert ("cb-prison-stop", 2, 1) in s.events
    assert s.seats[2].status == "normal" and s.seats[2].prison_failures == 0
    assert s.seats[0].status == "arrested" and s.seats[0].prison_failures == 1
    assert s.combat is not None  # Locke and the police fight on

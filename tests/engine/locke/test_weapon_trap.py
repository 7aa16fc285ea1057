"""Seed 002 weapon check 3 (line 46): the police vanish, no combat takes place, and the
player gets the trap chart instead (rulings N224, N271)."""

from __future__ import annotations

from typing import Any

from engine.core.pending import Chance, Decision
from engine.locke.actions import Declare, TryRevive, Walk
from engine.locke.combat.flow import begin
from engine.locke.combat.model import Obstacle
from engine.locke.combat.actions import Equip
from engine.locke.state import Combat
from tests.engine.locke.flow_helpers import act, five, game, roll, settle, table_at

POLICE = Obstacle("police", 0, 0, 1, weapon="weapon-check", traits=("one-attack-hits-all", "combined-fire"),
                  jammer=1, squad=3)


def _police_combat(cause: str, arrested: bool = False) -> Any:
    seats = five(s0={"status": "arrested"} if arrested else {})
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier"})
    table.state = game().settle(begin(table.state, Combat(cause, "P:1:0", ((0,), ()), obstacles=(POLICE,))))
    for _ in range(20):
        settle(table)
        pending = table.pending
        if isinstance(pending, Decision) and pending.prompt == "locke.try_revive":
            table.feed(TryRevive(pending.seat, False))
        elif isinstance(pending, Chance) and pending.purpose == "locke.chart.weapon-check":
            return table
        else:
            raise AssertionError(f"unexpected {pending!r}")
    raise AssertionError("no weapon check")


def _equip_all(table: Any) -> None:
    settle(table)
    while isinstance(table.pending, Decision) and table.pending.prompt == "locke.cb_equip":
        table.feed(Equip(table.pending.seat, 0, "", False))
        settle(table)


def test_weapon_check_3_ends_the_combat_and_rolls_the_trap_chart() -> None:
    table = _police_combat("random-combat:card")
    roll(table, 1, 2)  # 3: a trap
    _equip_all(table)
    assert ("cb-weapon-check", "police", "trap") in table.state.events
    assert table.state.combat is None
    ended = [e for e in table.state.events if e[0] == "combat"][-1]
    assert ended[1] == "random-combat:card" and ended[6] == "trap"
    assert table.state.last_combat == ()  # no combat took place: not Hijiri's "final combat"
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.trap"
    roll(table, 3, 4)  # trap 7: the event chart, for seat 0
    assert ("trap", "event", 0) in table.state.events


def test_a_prisoner_whose_police_turn_into_a_trap_escapes() -> None:
    """Seed 000 line 90 (2) and KMC ch. 12 note 1 (ruling N271, amending N224): a prison check
    whose combat turns into a trap frees the prisoner (no failure is counted), and the trap
    chart follows for it."""
    table = _police_combat("random-combat:prison", arrested=True)
    roll(table, 2, 1)
    _equip_all(table)
    p = table.state.seats[0]
    assert p.status == "normal" and p.prison_failures == 0
    assert ("escaped", 0, "prison-trap") in table.state.events
    assert not any(e[0] == "prison-failed" for e in table.state.events)
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.trap"


def _on_card(card: str, cause: str, arrested: bool = False, **s2: Any) -> Any:
    """Seat 0 on P:1:1, whose face-up ``card`` called a police combat; the weapon check waits."""
    s0: dict[str, Any] = {"place": "P:1:1", **({"status": "arrested"} if arrested else {})}
    seats = five(s0=s0, s2=s2 or {"place": "P:1:2"})
    position = {"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier",
                "cells": {"P:1:1": {"face_up": card}}, "order": [0, 2, 1, 3, 4]}
    table = table_at(position)
    table.state = game().settle(begin(table.state, Combat(cause, "P:1:1", ((0,), ()), obstacles=(POLICE,))))
    settle(table)
    return table


def test_the_arrest_card_goes_when_the_trap_it_turned_into_is_over() -> None:
    """Seed 000 line 90 (2): the prison check turned into a trap, so once that trap's event is over
    the prison is gone and the arrest card leaves its cell (N271)."""
    table = _on_card("arrest", "random-combat:prison", arrested=True)
    roll(table, 1, 2)  # weapon check 3: a trap
    _equip_all(table)
    assert dict(table.state.cells)["P:1:1"].face_up == "arrest"  # the trap's event is not over yet
    roll(table, 3, 4)  # trap 7: the event chart
    roll(table, 2, 3)  # event 5: hypno crystal, over at once
    assert ("event", "hypno-crystal", 0) in table.state.events
    assert dict(table.state.cells)["P:1:1"].face_up == ""
    assert table.state.seats[0].status == "normal"


def test_a_combat_card_turned_trap_catches_the_next_arrival_the_same_way() -> None:
    """Seed 000 line 98: a combat card whose combat became a trap that still holds someone catches
    whoever comes next with the same trap, instead of a fresh random-combat roll (N271); the card
    stays on its cell (nothing it brought was destroyed, line 97)."""
    table = _on_card("combat", "random-combat:card")
    roll(table, 1, 2)  # weapon check 3: a trap
    _equip_all(table)
    roll(table, 4, 4)  # trap 8: deadline for everyone present
    roll(table, 3)  # seat 0 rests three turns
    s = table.state
    assert s.seats[0].restraint == "deadline" and ("P:1:1", "deadline", 0) in s.ongoing
    assert dict(s.cells)["P:1:1"].face_up == "combat"
    for _ in range(20):  # seat 0's resting turn passes; seat 2 is next
        pending = table.pending
        if isinstance(pending, Decision) and pending.seat == 2:
            break
        if isinstance(pending, Decision):
            act(table, table.legal(pending.seat)[0])
        else:
            table.step()
            settle(table)
    act(table, Declare(2, False))
    act(table, Walk(2, "P:1:1"))
    assert ("trap", "ongoing-deadline", 2) in table.state.events
    assert not any(e[0] == "random-combat" and e[1] == 2 for e in table.state.events)
    roll(table, 2)
    assert table.state.seats[2].restraint == "deadline" and ("P:1:1", "deadline", 2) in table.state.ongoing


def _called(cause: str = "random-combat:card") -> Any:
    """A police combat just called: seats 1-4 stand elsewhere, able to try actually-there."""
    table = table_at({"seats": five(), "phase": "planet", "turn_of": 0, "fill": "frontier"})
    table.state = game().settle(begin(table.state, Combat(cause, "P:1:0", ((0,), ()), obstacles=(POLICE,))))
    settle(table)
    return table


def test_the_weapon_check_comes_before_anyone_is_offered_to_join() -> None:
    """KMC 10.2.1 (the checks once round 1 is sure) and 10.12.1 (the weapon check is step 2 of a
    random combat, before it starts): the first thing asked is the police's weapon check, not an
    actually-there roll (seed 002; audit-13 finding 20)."""
    table = _called()
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.weapon-check"
    assert not any(e[0] == "chart-entry" for e in table.state.events)


def test_on_the_cancelling_weapon_check_nobody_is_moved() -> None:
    """Seed 002 weapon check 3 (N224): no combat, so nobody is asked to join and nobody moves
    onto the cell or leaves a party; the trap chart follows at once."""
    table = _called()
    places = [p.place for p in table.state.seats]
    roll(table, 1, 2)  # 3: a trap
    assert [p.place for p in table.state.seats] == places
    assert not any(e[0] in ("chart-entry", "joined", "joins-later") for e in table.state.events)
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.trap"


def test_after_an_arming_weapon_check_the_joining_checks_follow() -> None:
    """Seed 002 weapon check 4-10: the police are armed and the combat is sure, so the others
    are offered actually-there now (N117), and the joiner comes in before round 1."""
    table = _called()
    roll(table, 3, 4)  # 7: armed
    assert ("cb-weapon-check", "police", "blaster") in table.state.events
    pending = table.pending
    assert isinstance(pending, Decision) and pending.prompt == "locke.try_revive"
    table.feed(TryRevive(pending.seat, True))
    settle(table)
    roll(table, 1, 1)  # actually-there 2: on the cell now
    assert table.state.seats[pending.seat].place == "P:1:0"


def test_a_prisoner_attacked_on_its_cell_has_escaped() -> None:
    """Seed 002 prison chart (lines 75-76, D11, N272): a prisoner that fights in a combat the prison
    chart did not make (here one declared against it on its cell) is out of prison."""
    seats = five(s0={"place": "P:1:1"}, s2={"place": "P:1:1", "status": "arrested", "prison_failures": 1})
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier"})
    table.state = game().settle(begin(table.state, Combat("declared", "P:1:1", ((0,), (2,)))))
    settle(table)
    s = table.state
    assert s.seats[2].status == "normal" and s.seats[2].prison_failures == 0
    assert ("escaped", 2, "joined-combat") in s.events


def test_the_prisoner_of_a_prison_combat_stays_arrested_while_it_fights() -> None:
    """Seed 002 prison 9-10: the prison chart's own combat frees only when every opponent dies, so
    its prisoner is still arrested once the combat is under way (N257, N272)."""
    table = _on_card("arrest", "random-combat:prison", arrested=True)
    roll(table, 3, 4)  # weapon check 7: blasters, the combat goes on
    s = table.state
    assert s.combat is not None and s.seats[0].status == "arrested"
    assert not any(e[0] == "escaped" for e in s.events)

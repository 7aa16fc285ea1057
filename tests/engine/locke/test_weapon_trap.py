"""Seed 002 weapon check 3 (line 46): the police vanish, no combat takes place, and the
player gets the trap chart instead (ruling N224)."""

from __future__ import annotations

from typing import Any

from engine.core.pending import Chance, Decision
from engine.locke.actions import TryRevive
from engine.locke.combat.flow import begin
from engine.locke.combat.model import Obstacle
from engine.locke.combat.actions import Equip
from engine.locke.state import Combat
from tests.engine.locke.flow_helpers import five, game, roll, settle, table_at

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


def test_a_prisoner_whose_police_turn_into_a_trap_is_not_freed() -> None:
    """N224: no combat took place, so the prison combat is not won (the prisoner stays, the
    check counts as failed) and the trap chart follows."""
    table = _police_combat("random-combat:prison", arrested=True)
    roll(table, 2, 1)
    _equip_all(table)
    p = table.state.seats[0]
    assert p.status == "arrested" and p.prison_failures == 1
    assert ("prison-failed", 0, "prison-combat") in table.state.events
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.trap"


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

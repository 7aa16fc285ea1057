"""What a combat with obstacles settles as it ends (seed 000 lines 90 and 97, seed 002 prison 9-10):
the card that called it goes, or the prisoner is free, only when every obstacle with durability
was destroyed; obstacles that only sleep under an illusion (KMC 5.3.2) were not (ruling N274)."""

from __future__ import annotations

from typing import Any

from engine.core.pending import Decision
from engine.locke.actions import TryRevive
from engine.locke.combat.actions import Equip, GoOn
from engine.locke.combat.common import put
from engine.locke.combat.flow import CombatEnd, begin
from engine.locke.combat.model import ASLEEP, DEAD, ESCAPED, Obstacle
from engine.locke.state import Combat
from tests.engine.locke.combat_helpers import fight
from tests.engine.locke.flow_helpers import act, five, game, settle, table_at

ESPER = Obstacle("esper", 3, 0, 3, cards=True)


def _ended(cause: str, card: str, obstacle_state: str, arrested: bool = False, stays: bool = False) -> Any:
    """Seat 0 fought an esper called by the face-up ``card`` on P:1:1; the combat ends with the
    esper in ``obstacle_state`` (members left unless DEAD) and seat 0 gone by the illusion's teleport
    (KMC 5.3.2: everyone else asleep, its user escapes) or, with the esper dead or ``stays``, still in."""
    s0: dict[str, Any] = {"place": "P:1:1", **({"status": "arrested"} if arrested else {})}
    table = table_at({"seats": five(s0=s0), "phase": "planet", "turn_of": 0, "fill": "frontier",
                      "cells": {"P:1:1": {"face_up": card}}})
    table.state = game().settle(begin(table.state, Combat(cause, "P:1:1", ((0,), ()), obstacles=(ESPER,))))
    settle(table)
    while isinstance(table.pending, Decision):  # no items, nobody joins, the prisoner fights on
        seat = table.pending.seat
        prompt = table.pending.prompt
        answer = {"locke.cb_equip": Equip(seat, 0, "", False), "locke.try_revive": TryRevive(seat, False),
                  "locke.cb_prison_stop": GoOn(seat, True)}[prompt]
        act(table, answer)
    f = fight(table)
    dead = obstacle_state == DEAD
    stays = stays or dead
    fighters = tuple(x._replace(state=obstacle_state, members=(0,) if dead else x.members) if x.ob is not None
                     else x if stays else x._replace(state=ESCAPED) for x in f.fighters)
    s = put(table.state, f._replace(fighters=fighters, escapers=() if stays else (0,)))
    rest = s.queue
    while rest and type(rest[0]).__module__.startswith("engine.locke.combat."):  # the combat's own steps
        rest = rest[1:]
    table.state = game().settle(s._replace(queue=(CombatEnd(),) + rest))
    settle(table)
    return table


def test_a_combat_card_whose_esper_only_sleeps_stays_on_its_cell() -> None:
    """Seed 000 line 97: the combat card goes once everything with durability it brought out is
    destroyed; an esper put to sleep by an illusion while its foe teleported away is not (N274)."""
    table = _ended("random-combat:card", "combat", ASLEEP)
    assert dict(table.state.cells)["P:1:1"].face_up == "combat"
    assert not any(e[0] == "obstacles-cleared" for e in table.state.events)


def test_a_combat_card_whose_esper_died_is_removed() -> None:
    """Seed 000 line 97, the other way: every obstacle destroyed, the card goes."""
    table = _ended("random-combat:card", "combat", DEAD)
    assert dict(table.state.cells)["P:1:1"].face_up == ""


def test_a_prisoner_whose_opponent_only_sleeps_is_not_free() -> None:
    """Seed 002 prison 9-10: the prison combat frees only when every opponent it brought has died;
    an esper asleep under an illusion (another fighter's, who escaped with it) has not (N274), so
    the try counts as failed and the arrest card stays."""
    table = _ended("random-combat:prison", "arrest", ASLEEP, arrested=True, stays=True)
    p = table.state.seats[0]
    assert p.status == "arrested" and p.prison_failures == 1
    assert dict(table.state.cells)["P:1:1"].face_up == "arrest"


def test_a_prisoner_whose_opponent_died_is_free_and_the_arrest_card_goes() -> None:
    """Seed 002 prison 9-10 and seed 000 line 90 (1): every opponent dead, the prisoner is free and
    the prison is gone with its card."""
    table = _ended("random-combat:prison", "arrest", DEAD, arrested=True)
    p = table.state.seats[0]
    assert p.status == "normal" and p.prison_failures == 0
    assert dict(table.state.cells)["P:1:1"].face_up == ""

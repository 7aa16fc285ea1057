"""The seed-002 opponents as combat obstacles, built from the charts themselves (charts.resolve ->
combat.obstacles_from), so both the chart data and the automaton's play are under test.

Fighters are numbered as in test_combat.py: the seats of side 0, then the obstacles. Seat 0 is
Locke-1 (level 6, power 50, durability 6, mind 8).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.pending import Chance, Decision
from engine.locke import charts
from engine.locke.actions import Nop, TryRevive
from engine.locke.combat.flow import begin
from engine.locke.combat.obstacles import obstacles_from
from engine.locke.combat.actions import Durability, Equip
from engine.locke.combat.auto import BombBlast, BombVanishes
from engine.locke.combat.common import COMBINED, HIT_ALL, MACHINE, put
from engine.locke.combat.model import Obstacle
from engine.locke.state import Combat
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, five, game, roll, table_at, waiting

OBSTACLE_FIRST = (1, 1, 6, 6)  # initiative (KMC 10.3.3): Locke rolls 2, the obstacle 12
LOCKE_FIRST = (6, 6, 1, 1)


def _trap_obstacle(faces: tuple[int, int]) -> Obstacle:
    (obstacle,) = obstacles_from(game(), charts.resolve("trap", faces).opponents, ())
    return obstacle


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def _against(obstacle: Obstacle, first: tuple[int, ...], deck: list[str] | None = None) -> Any:
    table = combat_table(sides=((0,), ()), obstacles=(obstacle,), deck=deck or seven("raygun-1"))
    roll(table, *first)
    return table


# --- the chart's numbers (seed 002 trap chart, lines 133-143) -----------------------------------------


@pytest.mark.parametrize("faces,entry,squad,durability,firepower,level,hits,traits", [
    ((1, 2), "dark-knight", 1, 8, 50, 6, 1, (MACHINE, "round-end-breakdown-roll")),  # line 133: D bomb Lv6 fp50
    ((2, 3), "hell-diver", 4, 6, 0, 2, 1, (HIT_ALL, COMBINED)),  # line 135: 4, blasters Lv2, firepower rolled
    ((4, 5), "cyber", 3, 8, 2, 2, 2, (HIT_ALL,)),  # line 139: 3, melee Lv2 fp2, two simultaneous attacks
    ((5, 6), "e-buster", 1, 10, 60, 6, 1, ("spares-declared-level-2-or-less",)),  # line 141: buster cannon Lv6 fp60
    ((6, 6), "super-e-buster", 1, 10, 60, 6, 1, ()),  # line 143 (13 needs trap +4): buster cannon, jammer, barrier
])
def test_each_trap_opponent_is_built_with_the_charts_numbers(faces: tuple[int, int], entry: str, squad: int,
                                                             durability: int, firepower: int, level: int, hits: int,
                                                             traits: tuple[str, ...]) -> None:
    modifier = 1 if entry == "super-e-buster" else 0
    (ob,) = obstacles_from(game(), charts.resolve("trap", faces, modifier).opponents, ())
    assert (ob.id, ob.squad, ob.durability, ob.firepower, ob.weapon_level, ob.hits) == \
        (entry, squad, durability, firepower, level, hits)
    assert set(traits) <= set(ob.traits)
    if entry == "hell-diver":
        assert ob.weapon == "blaster"  # seed 002 line 135: firepower "check", rolled at every use
    if entry == "super-e-buster":
        assert (ob.jammer, ob.barrier) == (3, 4)


# --- their play --------------------------------------------------------------------------------------


def test_three_cybers_make_one_simultaneous_attack_of_six_checks() -> None:
    """Seed 002 trap 9 and note 2 (lines 139, 150-155): the cybers' melee is one simultaneous attack,
    answered with one card, whose hit makes two checks per cyber against the durability declared once."""
    table = _against(_trap_obstacle((4, 5)), OBSTACLE_FIRST)
    assert len(_events(table, "cb-weapon")) == 1
    assert waiting(table) == ("locke.cb_escape", 0)
    act(table, Nop(0))
    act(table, Nop(0))
    act(table, Durability(0, 6))
    pending = table.pending
    assert isinstance(pending, Chance) and len(pending.dice) == 12  # six damage checks of 2d6
    roll(table, *([3, 4] * 6))  # firepower 2 against 6 (1:3 or so): row 7 each
    assert len(_events(table, "cb-weapon")) == 1  # no second or third cyber attack this round


def test_two_cybers_left_make_four_checks() -> None:
    """Seed 002 note 2: the simultaneous attack makes the living members' checks only."""
    table = combat_table(sides=((0,), ()), obstacles=(_trap_obstacle((4, 5)),), deck=seven("raygun-1"))
    f = fight(table)
    cybers = f.fighters[1]._replace(members=(8, 0, 8))  # one cyber destroyed earlier
    table.state = put(table.state, f._replace(fighters=(f.fighters[0], cybers)))
    roll(table, *OBSTACLE_FIRST)
    act(table, Nop(0))
    act(table, Nop(0))
    act(table, Durability(0, 6))
    pending = table.pending
    assert isinstance(pending, Chance) and len(pending.dice) == 8


def test_four_hell_divers_fire_their_blasters_as_one_attack() -> None:
    """Seed 002 trap 5 and note 1 (lines 135, 147-149): one attack of the four, each blaster's
    firepower rolled on the weapon-firepower chart and summed."""
    table = _against(_trap_obstacle((2, 3)), OBSTACLE_FIRST)
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.weapon-firepower"
    assert len(pending.dice) == 4  # one die per living diver
    roll(table, 1, 2, 3, 4)
    (fp,) = _events(table, "cb-firepower")
    assert fp[2] == [1, 2, 3, 4] and fp[3] > 0
    assert fight(table).strike is not None and fight(table).strike.firepower == fp[3]
    assert len(_events(table, "cb-weapon")) == 1 and waiting(table) == ("locke.cb_escape", 0)


def test_an_attack_on_the_hell_divers_makes_a_check_for_each() -> None:
    """Seed 002 note 1 (line 147): an attack on the squad is an attack on every member, a check each."""
    table = _against(_trap_obstacle((2, 3)), LOCKE_FIRST)
    act(table, card(table, 0, "attack", "raygun-1", target=1))
    pending = table.pending
    assert isinstance(pending, Chance) and len(pending.dice) == 8


@pytest.mark.parametrize("face,destroyed", [(5, True), (6, False)])
def test_the_dark_knights_roll_at_every_round_end_and_fall_on_five_or_less(face: int, destroyed: bool) -> None:
    """Seed 002 trap 3 (line 133): at each round's end 1d6; 5 or less destroys the dark knights."""
    table = _against(_trap_obstacle((1, 2)), LOCKE_FIRST)
    act(table, Nop(0))  # Locke does nothing; the knights fire their D bomb (Lv 6, firepower 50)
    assert _events(table, "cb-weapon")[-1][1:] == ("dark-knight", "fixed", 6)
    act(table, Nop(0))
    act(table, Nop(0))
    act(table, Durability(0, 6))
    roll(table, 5, 6)  # 50 against 6 (8:1): row 11, no natural double
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.breakdown"
    roll(table, face)
    assert bool(_events(table, "cb-breakdown")) == destroyed
    assert (table.state.combat is None or fight(table).fighters[1].members[0] == 0) == destroyed



def _police_until_the_weapon_check(row: tuple[int, int], sides: Any = ((0,), ())) -> Any:
    """A random combat against the police of the random-combat chart's ``row``, stopped at the
    weapon check rolled once at the start (seed 002 line 39)."""
    police = obstacles_from(game(), charts.resolve("random-combat", row).opponents, ())
    table = table_at({"seats": five(s2={"place": "P:1:0"}), "phase": "planet", "turn_of": 0, "fill": "frontier",
                      "cells": {}})
    table.state = game().settle(begin(table.state, Combat("random-combat", "P:1:0", sides, obstacles=police)))
    while not (isinstance(table.pending, Chance) and table.pending.purpose == "locke.chart.weapon-check"):
        pending = table.pending
        if isinstance(pending, Decision) and pending.prompt == "locke.cb_equip":
            act(table, Equip(pending.seat, 0, "", False))
        elif isinstance(pending, Decision) and pending.prompt == "locke.try_revive":
            act(table, TryRevive(pending.seat, False))
        else:
            assert not isinstance(pending, (Decision, Chance)), pending
            table.step()
    return table


def test_the_weapon_check_can_turn_the_police_into_an_armoured_car() -> None:
    """Seed 002 weapon check 11 (line 50): the police vanish and a beam-cannon armoured car
    (durability 8, Lv 4, firepower rolled) fights instead; its firepower is rolled at every use."""
    table = _police_until_the_weapon_check((4, 5))
    roll(table, 5, 6)
    assert _events(table, "cb-weapon-check")[-1][1:] == ("police", "armored-car")
    car = fight(table).fighters[1]
    assert car.ob is not None and (car.ob.id, car.members, car.ob.weapon, car.ob.weapon_level) == \
        ("armored-car", (8,), "beam-cannon", 4)
    assert MACHINE in car.ob.traits


@pytest.mark.parametrize("faces,bomb,level,firepower", [((1, 1), "g-bomb", 5, 30), ((6, 6), "d-bomb", 6, 50)])
def test_a_weapon_check_bomb_hits_everyone_in_the_first_round_and_vanishes(
        faces: tuple[int, int], bomb: str, level: int, firepower: int) -> None:
    """Seed 002 weapon check 2 and 12 (lines 44, 51, 53): the police vanish; the bomb attacks every
    fighter at the first round's start, then is gone."""
    table = _police_until_the_weapon_check((4, 5), sides=((0,), (2,)))  # Locke and Nia fight each other
    roll(table, *faces)
    assert _events(table, "cb-weapon-check")[-1][1:] == ("police", bomb)
    while not _events(table, "cb-weapon"):
        pending = table.pending
        if isinstance(pending, Decision) and pending.prompt == "locke.try_revive":  # after the check (N117)
            act(table, TryRevive(pending.seat, False))
        elif isinstance(pending, Decision):
            assert pending.prompt == "locke.cb_equip", pending
            act(table, Equip(pending.seat, 0, "", False))
        elif isinstance(pending, Chance):
            roll(table, *([1] * len(pending.dice)))
        else:
            table.step()  # the deal
    assert fight(table).round == 1
    assert _events(table, "cb-weapon")[-1][1:] == (bomb, "bomb", level)
    strike = fight(table).strike
    assert strike is not None and (strike.target, strike.level, strike.firepower) == (0, level, firepower)
    later = [st for st in table.state.queue if isinstance(st, (BombBlast, BombVanishes))]
    assert later == [BombBlast(2, 1), BombVanishes(2)]  # the bomb (fighter 2) at Nia (fighter 1) next, then it is gone


def test_an_unused_character_fights_with_its_cards_numbers_and_face_up_cards() -> None:
    """Seed 002 random combat 0-2 (lines 22-24), KMC 10.12.2: an unused character is revealed and
    fights with its printed level, power, durability and mind, its combat cards dealt face up (N140);
    on its turn it plays the strongest card it can surely pay for (KMC 10.12.3, N141)."""
    (nagato,) = obstacles_from(game(), charts.resolve("random-combat", (1, 1), -1).opponents, ("nagato",))
    assert (nagato.id, nagato.level, nagato.power, nagato.durability, nagato.mind, nagato.cards) == \
        ("nagato", 5, 40, 6, 6, True)
    table = combat_table(sides=((0,), ()), obstacles=(nagato,),
                         deck=seven("raygun-1") + seven("raygun-2", "beam-cannon-12", "d-bomb-40", "esp-block"))
    roll(table, *OBSTACLE_FIRST)
    (play,) = _events(table, "cb-play")
    assert play[1:3] == (-1, "beam-cannon-12")  # the level-6 D bomb is above its level 5
    strike = fight(table).strike
    assert strike is not None and (strike.level, strike.firepower, strike.target) == (4, 12, 0)

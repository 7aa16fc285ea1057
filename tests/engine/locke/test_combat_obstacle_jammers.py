"""ESP jammers and obstacles (KMC 10.10, 10.12; seed 002; rulings N156, N164, N184, N206, N238-N239).

An obstacle's jammer is read from the fight as it is now: broken by a stronger attack, or
stopped by an absorb ball's knock-out, it stops nothing more that round. A seat's jammer of
hidden level put on an obstacle stops the obstacle's face-up cards at or below its level,
its owner answering as against a seat's cards, and the automaton picks again.
Seat 0 is fighter 0; the obstacle is fighter 1."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.locke.actions import Nop
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Equip, JamVeto, UseItem
from engine.locke.combat.common import MACHINE, NO_SLEEP
from engine.locke.combat.model import Obstacle
from tests.engine.locke.combat_helpers import card, combat_table, fight, initiative, seven
from tests.engine.locke.flow_helpers import act, five, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)
OBSTACLE_FIRST = (1, 1, 6, 6)


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def _machine(jammer: int, level: int = 2, durability: int = 9) -> Obstacle:
    """A machine with a fixed weapon and an ESP jammer (an alarm device's shape, N104)."""
    return Obstacle("alarm-test", level, 5, durability, traits=(MACHINE, NO_SLEEP), jammer=jammer, weapon_level=level)


# --- (a) an obstacle's jammer, read live (N156, N184, N206; N238) -----------------------------------


def test_an_obstacle_jammer_broken_by_a_stronger_attack_stops_nothing_more_that_round() -> None:
    """KMC 10.7.3 with N184: Locke's level-4 beam cannon breaks the machine's level-3 jammer; in the
    same round the machine attacks him and his level-2 ESP block now works (before: the jammer's
    level, copied onto him as the round began, still refused it)."""
    table = combat_table(sides=((0,), ()), obstacles=(_machine(3),), deck=seven("beam-cannon-12", "esp-block"))
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "beam-cannon-12", target=1))
    roll(table, 6, 6)  # the damage check on the machine
    assert _events(table, "cb-broken") and fight(table).fighters[1].ob.jammer == 0
    act(table, Nop(0))  # the rest of Locke's turn
    assert waiting(table) == ("locke.cb_escape", 0)  # the machine's attack on him
    act(table, Nop(0))
    assert card(table, 0, "defend", "esp-block") in table.legal(0)
    act(table, card(table, 0, "defend", "esp-block"))
    assert _events(table, "cb-defend")


def test_an_unbroken_obstacle_jammer_still_stops_the_cards_at_or_below_it() -> None:
    """KMC 10.10, N156: the same machine's jammer, not broken, refuses Locke's level-2 block."""
    from engine.core.errors import IllegalAction

    table = combat_table(sides=((0,), ()), obstacles=(_machine(3),), deck=seven("esp-block"))
    roll(table, *OBSTACLE_FIRST)
    act(table, Nop(0))  # no escape
    assert card(table, 0, "defend", "esp-block") not in table.legal(0)
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 0, "defend", "esp-block"))
    assert err.value.rule == "locke.10.10"


def test_a_destroyed_obstacles_jammer_stops_nothing_more_that_round() -> None:
    """N238: the jammer is read from its obstacle as it is now; once the obstacle has left the
    fight (destroyed), the level-3 jammer it put on Locke this round refuses nothing."""
    from engine.locke.combat.common import put, with_fighter

    table = combat_table(sides=((0,), ()), obstacles=(_machine(3), _machine(0)), deck=seven("esp-block"))
    f = fight(table)
    assert f.fighters[0].jammed_by == (1,)
    table.state = put(table.state, with_fighter(f, 1, f.fighters[1]._replace(members=(0,))))  # destroyed
    roll(table, 1, 1, 6, 6)  # initiative: Locke 2, the second machine 12
    act(table, Nop(0))  # no escape from the second machine's attack
    assert card(table, 0, "defend", "esp-block") in table.legal(0)


def test_an_obstacle_knocked_out_by_an_absorb_ball_jams_nothing_for_the_rest_of_the_round() -> None:
    """Seed 000 3.1.3, N206: the machine attacks first; Locke's absorb ball takes it, the machine
    fails its level check and is knocked out: its jammer stops at once, so Locke's level-2
    blaster works on his turn that same round (before: it stayed refused until the round's end)."""
    seats = five(s0={"kept": ["absorb-ball-3"]}, s2={})
    table = combat_table(sides=((0,), ()), obstacles=(_machine(3),), deck=seven("blaster-4"), seats=seats)
    initiative(table, *OBSTACLE_FIRST)
    h = table.state.seats[0].kept[0]
    act(table, Nop(0))  # no escape
    act(table, UseItem(0, "absorb-ball", -1, h, "absorb-ball-3"))
    roll(table, 6, 6)  # the machine's level check: 12 > 2, failed
    roll(table, 3)  # knocked out for 3 rounds
    assert fight(table).fighters[1].ball_out and waiting(table) == ("locke.cb_act", 0)
    assert card(table, 0, "attack", "blaster-4", target=1) in table.legal(0)
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    assert _events(table, "cb-play")[-1][1:3] == (0, "blaster-4")


# --- (b) a seat's jammer on an obstacle (KMC 10.10, N164; N239) -------------------------------------


def _esper_jammed(*cards: str) -> Any:
    """E-Strohheim (level 0; jammer level 4, KMC 2.3.2) puts his jammer on an esper (level 5,
    infinite power, face-up cards ``cards``); the esper's turn comes first."""
    seats = five(s0={"character": "strohheim-e", "silhouette": "soi"}, s2={})
    esper = Obstacle("esper", 5, 0, 3, cards=True)
    table = combat_table(sides=((0,), ()), obstacles=(esper,), seats=seats, deck=seven() + seven(*cards),
                         equip={0: Equip(0, 0, "", False, 1)})
    assert fight(table).fighters[1].jam_owner == 0
    roll(table, *OBSTACLE_FIRST)
    return table


def test_a_seats_jammer_stops_an_obstacles_card_and_the_automaton_picks_again() -> None:
    """KMC 10.10: the esper's bazooka (level 3) waits for E-Strohheim; he stops it (a true claim),
    the play is taken back and the automaton picks again: the ray gun (level 1) is known to be
    stopped too, so it has no attack left and passes."""
    table = _esper_jammed("bazooka-10", "raygun-2")
    assert waiting(table) == ("locke.cb_jam_ask", 0) and _events(table, "cb-play")[-1][2] == "bazooka-10"
    act(table, JamVeto(0, True))
    claim = table.state.claims[-1]
    assert claim.what == cc.JAMMER and claim.seat == 0 and claim.value == 3
    esper = fight(table).fighters[1]
    assert esper.jam_known == 3 and len(esper.hand) == 7 and fight(table).strike is None
    assert _events(table, "cb-pass")[-1] == ("cb-pass", -1, "esper")
    assert waiting(table) == ("locke.cb_act", 0)


def test_a_card_above_the_jammer_goes_through_and_that_is_a_claim() -> None:
    """KMC 10.10: the G-bomb (level 5) is above his level-4 jammer: letting it work claims so, and
    the attack goes on at E-Strohheim."""
    table = _esper_jammed("g-bomb-25")
    assert table.legal(0) == [JamVeto(0, False)]
    act(table, JamVeto(0, False))
    assert table.state.claims[-1].what == cc.JAM_PASS
    assert fight(table).strike is not None and waiting(table) == ("locke.cb_escape", 0)


def test_stopping_an_obstacles_card_above_the_jammer_is_caught() -> None:
    """KMC 10.10: saying the level-4 jammer stops a level-5 card is a false claim naming seat 0."""
    table = _esper_jammed("g-bomb-25")
    with pytest.raises(FalseClaim) as err:
        table.feed(JamVeto(0, True))
    assert err.value.seat == 0 and err.value.claim.what == cc.JAMMER


def test_a_seats_jammer_stops_an_obstacles_defence_card_and_the_hit_goes_on() -> None:
    """KMC 10.10, 10.12.3: E-Strohheim's beam cannon (level 4) at the esper; its ESP barrier card
    (level 4) waits for him; he stops it and, with nothing else that can work, the esper takes
    the hit."""
    seats = five(s0={"character": "strohheim-e", "silhouette": "soi"}, s2={})
    esper = Obstacle("esper", 5, 0, 3, cards=True)
    table = combat_table(sides=((0,), ()), obstacles=(esper,), seats=seats, deck=seven() + seven("esp-barrier"),
                         equip={0: Equip(0, 0, "", False, 1)})
    roll(table, *LOCKE_FIRST)
    act(table, UseItem(0, "beam-cannon", 1))
    roll(table, 4)  # the beam cannon's firepower
    assert waiting(table) == ("locke.cb_jam_ask", 0) and _events(table, "cb-play")[-1][2] == "esp-barrier"
    act(table, JamVeto(0, True))
    assert fight(table).strike is not None and not _events(table, "cb-defend")
    roll(table, 1, 1)  # the damage check on the esper
    assert _events(table, "cb-hit")[-1][1:3] == (0, "esper")


def test_a_seats_jammer_stops_an_obstacles_teleport_block_and_the_escape_stands() -> None:
    """KMC 10.9-10.10: Nia flees with a level-3 teleport; the esper would block it with its level-4
    teleport, which E-Strohheim's level-4 jammer on the esper stops; with no other block it can
    make, Nia gets away."""
    seats = five(s0={"character": "strohheim-e", "silhouette": "soi"}, s2={"place": "P:1:0"})
    esper = Obstacle("esper", 5, 0, 3, cards=True)
    table = combat_table(sides=((0, 2), ()), obstacles=(esper,), seats=seats,
                         deck=seven() + seven("teleport-3") + seven("teleport-4"), equip={0: Equip(0, 0, "", False, 2)})
    roll(table, 1, 1, 6, 6, 3, 3)  # Nia first
    act(table, card(table, 2, "flee", "teleport-3"))
    assert waiting(table) == ("locke.cb_jam_ask", 0) and _events(table, "cb-play")[-1][2] == "teleport-4"
    act(table, JamVeto(0, True))
    assert fight(table).fighters[2].jam_known == 4
    act(table, Nop(0))  # E-Strohheim does not block his partner
    assert not _events(table, "cb-block-try") and not _events(table, "cb-block")
    assert table.pending is not None and getattr(table.pending, "purpose", "") == "locke.combat.escape"

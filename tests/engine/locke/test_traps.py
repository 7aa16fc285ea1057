"""The trap chart and the event chart in play (issue 12, item 3: l3-planet's entries).

Each test is a named scenario: seat 0 (Locke 1: level 6, durability 6, mind 8)
walks onto a trap card at P:1:1 and the test gives every die. Seed lines cite
seeds/002 (the chart collection): the trap chart is lines 129-146, the event
chart lines 157-170.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import CheatDetected
from engine.locke.actions import Answer, CheckValue, Choose, Declare, DeclareDurability, Keep, Nop, Stat, UseCard, Walk
from engine.locke import traps
from engine.locke.chart_data import CHARTS
from tests.engine.locke.flow_helpers import act, five, roll, table_at, waiting


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def test_every_trap_and_event_entry_has_its_code() -> None:
    """Each row of the trap chart (seed 002 lines 129-146) and the event chart (lines 157-170) is
    one entry of engine/locke/traps.py's tables, and the tables hold nothing else."""
    assert set(traps.TRAP_ENTRIES) == {e.id for e in CHARTS["trap"].entries}
    assert set(traps.EVENT_ENTRIES) == {e.id for e in CHARTS["event"].entries}


def _trap(seats: Any = None, **position: Any) -> Any:
    """Seat 0 walks onto a face-down trap card and shows it: the trap chart waits for its dice."""
    cells = {"P:1:1": "trap", **position.pop("cells", {})}
    data = {"seats": seats or five(), "phase": "planet", "turn_of": 0, "fill": "frontier", "cells": cells, **position}
    table = table_at(data)
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, False))
    return table


def _event(seats: Any = None, **position: Any) -> Any:
    table = _trap(seats, **position)
    roll(table, 3, 4)  # trap 7: the event chart (seed 002 line 137)
    assert ("trap", "event", 0) in table.state.events
    return table


def _others_pass(table: Any) -> None:
    """Every other seat declares nothing and stays put until the game waits on seat 0 again."""
    from engine.core.pending import Decision

    for _ in range(50):
        pending = table.pending
        if not isinstance(pending, Decision) or pending.seat == 0:
            return
        act(table, table.legal(pending.seat)[0])
    raise AssertionError("seat 0 never came back")


def _stock(table: Any, *cards: str) -> None:
    """Give the position a planet stock (positions start without one), top card first."""
    from engine.locke.state import with_zone

    s = table.state
    handles = tuple(range(s.next_handle, s.next_handle + len(cards)))
    table.truth.update(zip(handles, cards))
    table.state = s._replace(zones=with_zone(s, "planet:stock", handles), next_handle=s.next_handle + len(cards))


# --- trap chart ----------------------------------------------------------------------------


def test_declaring_a_false_mind_is_a_false_claim() -> None:
    """Ruling N1 with KMC 11.3: the declared mind is a claim judged on the card (the local table at once)."""
    table = _trap()
    roll(table, 1, 1)
    with pytest.raises(FalseClaim):
        table.feed(DeclareDurability(0, 7))


def test_trap_6_hallucination_doubles_add_firepower_then_a_damage_check() -> None:
    """Seed 002 line 136: a hit on doubles rolls again and adds; then a durability check."""
    table = _trap()
    roll(table, 2, 4)
    act(table, Stat(0, "level", 6))
    roll(table, 4, 4)  # 8 > 6, doubles: roll again
    roll(table, 3, 4)  # +7 = 15
    assert table.state.events[-1] == ("hallucination", 0, "hit", 15)
    act(table, DeclareDurability(0, 6))
    roll(table, 1, 2)  # 15 against 6: 2:1, roll 3 -> 2
    assert table.state.seats[0].damage == 2


def test_trap_7_goes_to_the_event_chart() -> None:
    """Seed 002 line 137: trap 7 rolls the event chart."""
    table = _event()
    assert table.pending.purpose == "locke.chart.event"


def test_trap_8_deadline_restrains_everyone_present_for_their_own_d3() -> None:
    """Seed 002 line 138, rulings R22, N8, D36: each present character rolls 1d3 and cannot refuse."""
    seats = five(s2={"place": "P:1:1"})
    table = _trap(seats)
    roll(table, 4, 4)
    assert ("trap", "deadline", 0) in table.state.events
    roll(table, 2)  # seat 0: two turns
    roll(table, 3)  # seat 2: three turns
    s = table.state
    assert s.seats[0].status == s.seats[2].status == "resting"
    assert (s.seats[0].rest, s.seats[2].rest) == (2, 2)  # seat 2's own turn came next and counted one
    assert s.seats[0].restraint == "deadline" and ("P:1:1", "deadline", 0) in s.ongoing
    from engine.locke.declare import answerers

    assert 0 not in answerers(s, 3) and 2 not in answerers(s, 3)
    assert dict(s.cells)["P:1:1"].face_up == "trap"  # still going on: the card stays


def test_deadline_counts_down_and_frees_and_removes_the_card() -> None:
    """Seed 000 line 100: the trap card goes once its event is over (all restrained are free)."""
    table = _trap()
    roll(table, 4, 4)
    roll(table, 1)
    assert table.state.seats[0].rest == 1
    # seats 2, 3, 4 play; seat 1 is a base player (no planet turn)
    for seat in (2, 3, 4):
        act(table, Declare(seat, False))
        act(table, table.legal(seat)[0])  # Nop / first move
        while waiting(table)[1] == seat and waiting(table)[0] != "locke.declaring":
            act(table, table.legal(seat)[0])
    s = table.state
    assert s.seats[0].status == "normal" and s.seats[0].restraint == ""
    assert ("woke", 0, "counted") in s.events
    assert dict(s.cells)["P:1:1"].face_up == ""


def test_a_trap_still_holding_someone_catches_the_next_one_the_same_way() -> None:
    """Seed 000 line 100: entering a trap card whose trap still holds someone gives the same trap."""
    seats = five(s2={"place": "P:1:2"})
    table = _trap(seats, order=[0, 2, 1, 3, 4])
    roll(table, 4, 4)
    roll(table, 3)
    act(table, Declare(2, False))
    act(table, Walk(2, "P:1:1"))
    assert ("trap", "ongoing-deadline", 2) in table.state.events
    roll(table, 2)
    assert table.state.seats[2].restraint == "deadline" and ("P:1:1", "deadline", 2) in table.state.ongoing


def test_trap_12_chronos_trap_repeats_1_1_checks_until_a_mind_check_passes() -> None:
    """Seed 002 line 142: a failed mind check costs a 1:1 damage check, and again, until one passes."""
    table = _trap()
    roll(table, 6, 6)
    assert ("trap", "chronos-trap", 0) in table.state.events
    act(table, CheckValue(0, 8))
    roll(table, 5, 6)  # 11 > 8: failed
    act(table, DeclareDurability(0, 6))
    roll(table, 1, 3)  # 1:1 roll 4 -> 1
    assert table.state.seats[0].damage == 1
    act(table, CheckValue(0, 8))
    roll(table, 2, 2)  # passed
    assert ("chronos-trap-escaped", 0) in table.state.events
    assert dict(table.state.cells)["P:1:1"].face_up == ""  # the event is over: the card goes


@pytest.mark.parametrize("faces,bomb,fp", [((1, 2), "n-bomb", None), ((3, 3), "g-bomb", 30), ((5, 5), "d-bomb", 50),
                                          ((6, 6), "geoid-bomb", 100)])
def test_trap_14_genocide_bombs_hit_the_durability(faces: tuple[int, int], bomb: str, fp: int | None) -> None:
    """Seed 002 line 144: N-bomb a 10:1 check; G, D and geoid bombs firepower 30, 50, 100."""
    table = _event()
    roll(table, 6, 6)
    roll(table, 5, 5)
    roll(table, *faces)
    assert ("genocide", 0, bomb) in table.state.events
    act(table, DeclareDurability(0, 6))
    roll(table, 6, 5)  # row 11
    last = _events(table, "damage")[-1]
    assert last[1] == "genocide:" + bomb and last[3] == "durability"
    assert last[5] == ("10-1" if fp is None else {30: "5-1", 50: "8-1", 100: "10-1"}[fp]) + "@11"


def test_black_hole_is_avoided_with_two_lafnor_mirrors() -> None:
    """Seed 002 line 146: two Lafnor mirrors used at the fall avoid the black hole."""
    seats = five(s0={"kept": ["lafnor-mirror-5", "lafnor-mirror-7"]})
    table = _trap(seats)
    for faces in ((3, 4), (6, 6), (6, 6)):  # event, trap +4, 16: black hole
        roll(table, *faces)
        assert waiting(table) == ("locke.reroll", 0)  # a holder of face-down cards may re-roll its own dice
        act(table, Nop(0))
    act(table, CheckValue(0, 6))
    roll(table, 6, 5)
    act(table, Nop(0))
    assert waiting(table) == ("locke.mirrors", 0)
    h1, h2 = table.state.seats[0].kept
    act(table, UseCard(0, h1, "lafnor-mirror-5", other=h2, choice="lafnor-mirror-7"))
    s = table.state
    assert s.seats[0].alive and ("black-hole-avoided", 0, "mirrors") in s.events
    assert ("planet", "lafnor-mirror", 0, "lafnor-mirror-7") in s.events and not s.seats[0].kept


# --- event chart ---------------------------------------------------------------------------


def test_a_non_locke_turning_face_up_as_a_locke_is_caught() -> None:
    """Seed 002 line 160: only an (L) character is spared; the revealed card proves it."""
    table = _event()
    roll(table, 1, 1)
    act(table, Choose(0, "no"))
    with pytest.raises(CheatDetected):
        table.feed(Choose(1, "reveal"))
        from tests.engine.locke.flow_helpers import settle

        settle(table)


def test_psycho_blast_on_a_locke_who_turns_face_up_hits_everyone_present() -> None:
    """Seed 002 line 161: a Locke that turns face up is spared; everyone present takes 10:1."""
    seats = five(s2={"place": "P:1:1"})
    table = _event(seats)
    roll(table, 1, 2)
    act(table, Choose(0, "reveal"))
    for seat in (0, 2):
        act(table, table.legal(seat)[0])
        roll(table, 3, 4)
    assert sorted(e[2] for e in _events(table, "damage")) == [0, 2]


def test_event_4_d_bomb_misfire_destroys_the_card_and_checks_who_is_there() -> None:
    """Seed 002 line 162, R20, N9: two dice pick a planet cell; its card is destroyed; anyone there
    makes an ESP level check or takes 10:1."""
    seats = five(s2={"place": "P:3:4"})
    table = _event(seats)
    roll(table, 1, 3)
    roll(table, 3, 4)  # planet 3, cell 4
    assert ("misfire", 0, "P:3:4") in table.state.events
    assert dict(table.state.cells)["P:3:4"].handle is None
    act(table, CheckValue(2, 4))
    roll(table, 6, 6)
    act(table, table.legal(2)[0])
    roll(table, 3, 4)
    assert _events(table, "damage")[-1][1:3] == ("d-bomb-misfire", 2)


def test_event_6_astro_race_prize_goes_to_the_first_to_18() -> None:
    """Seed 002 line 164, N6: the roller draws a hidden ability card; the first to 18 wins it."""
    table = _trap()
    _stock(table, "spaceport", "nike", "trap")
    roll(table, 3, 4)
    roll(table, 2, 4)
    assert ("event", "astro-race", 0) in table.state.events
    while getattr(table.pending, "prompt", "") == "locke.race_keep":
        act(table, table.legal(0)[0])
    assert ("astro-race-prize", 0, "drawn") in table.state.events
    prize = dict(table.state.zones)["race:prize"][0]
    assert table.knowledge[0].card(prize) == "nike" and not table.knowledge[1].knows(prize)
    for _ in range(4):
        roll(table, *([5, 5, 5, 4, 4]))  # 20 for seats 0-2, 16 for 3-4 after four rolls
    # seats 0, 1, 2 tie at 20: a final among them
    assert any(e[0] == "astro-race-final" for e in table.state.events)
    roll(table, 6, 1, 1)
    roll(table, 5, 1, 1)
    roll(table, 4, 1, 1)
    roll(table, 3, 1, 1)  # seat 0: 6,5,4,3 = 18
    assert ("astro-race-won", 0) in table.state.events
    assert table.state.seats[0].kept == (prize,)


def test_astro_race_two_sixes_cost_a_point_or_retire() -> None:
    """Seed 002 line 164: a second six in a row: 1 damage or retire; a third: out."""
    table = _trap()
    _stock(table, "nike")
    roll(table, 3, 4)
    roll(table, 2, 4)
    while getattr(table.pending, "prompt", "") == "locke.race_keep":
        act(table, table.legal(0)[0])
    roll(table, 6, 1, 1, 1, 1)
    roll(table, 6, 1, 1, 1, 1)
    assert waiting(table) == ("locke.race_six", 0)
    act(table, Choose(0, "retire"))
    assert ("astro-race-retired", 0, "chose") in table.state.events


def test_event_10_emperor_plan_gathers_everyone_and_fights() -> None:
    """Seed 002 line 168, N3: every living character comes to the roller's cell and a combat starts."""
    table = _event()
    roll(table, 5, 5)
    s = table.state
    assert ("event", "emperor-plan", 0) in s.events
    assert all(p.place == "P:1:1" for p in s.seats if p.alive)
    assert s.combat is not None and s.combat.cause == "emperor-plan"


def test_event_11_hijiri_whim_a_rolls_new_public_stats_and_abilities() -> None:
    """Seed 002 line 169 (first option): level, power, durability (at least 2), mind +2; abilities."""
    table = _event()
    roll(table, 5, 6)
    act(table, Choose(0, "a"))
    roll(table, 3, 2, 1, 4)
    p = table.state.seats[0]
    assert ("level", "set", 3, "life") in p.mods and ("durability", "set", 2, "life") in p.mods
    assert ("mind", "set", 6, "life") in p.mods and ("power", "set", 20, "life") in p.mods
    roll(table, 2)
    roll(table, 6)
    assert ("hijiri-whim-abilities", 0, ["release", "ship-support"]) in table.state.events


def test_event_11_hijiri_whim_b_takes_stats_from_four_unused_characters() -> None:
    """Seed 002 line 169 (second option): four unused characters give level, power, durability, mind."""
    table = _event()
    roll(table, 5, 6)
    act(table, Choose(0, "b"))
    entry = next(e for e in table.state.events if e[0] == "hijiri-whim")
    assert entry[2] == "b" and len(entry[3]) == 4


def test_event_12_trap_plus_4_adds_four_to_the_trap_roll() -> None:
    """Seed 002 line 170, R21: the next trap roll gets +4 (here 4 + 4 = 8: deadline)."""
    table = _event()
    roll(table, 6, 6)
    roll(table, 2, 2)
    assert ("trap", "deadline", 0) in table.state.events


def test_answering_a_declaration_is_not_offered_to_the_restrained_by_deadline() -> None:
    """Ruling N8: a deadline-restrained player is skipped when a declaration is answered."""
    table = _trap()
    roll(table, 4, 4)
    roll(table, 3)  # seat 0 restrained for three turns
    act(table, Declare(2, True))  # seat 2's turn: answers go left from 2: 3, 4, then 0 (skipped), 1
    for seat in (3, 4, 1):
        assert waiting(table) == ("locke.answer", seat)
        act(table, Answer(seat, True))
    assert table.outcome() is not None


@pytest.mark.parametrize("faces,entry", [((1, 2), "dark-knights"), ((2, 3), "hell-divers"), ((4, 5), "cybers"),
                                         ((5, 6), "e-buster")])
def test_trap_combat_entries_start_a_combat_through_the_entry_point(faces: tuple[int, int], entry: str) -> None:
    """Seed 002 lines 133, 135, 139, 141, ruling N80: the trap's obstacles fight the roller's party."""
    table = _trap()
    roll(table, *faces)
    s = table.state
    assert ("trap", entry, 0) in s.events
    assert s.combat is not None and s.combat.cause == "trap:" + entry and s.combat.sides[0] == (0,)
    assert s.combat.obstacles


def test_trap_10_golems_roll_their_number_first() -> None:
    """Seed 002 line 140: 1d6 golems."""
    table = _trap()
    roll(table, 4, 6)
    roll(table, 3)
    assert table.state.combat is not None  # the real combat keeps the golems together as one squad (N152)
    assert sum(getattr(o, "squad", 1) for o in table.state.combat.obstacles) == 3


def test_trap_4_resonance_forest_rolls_a_random_combat() -> None:
    """Seed 002 line 134, ruling N80: the forest's combat comes from the random-combat chart."""
    table = _trap()
    roll(table, 1, 3)
    assert table.pending.purpose == "locke.chart.random-combat"


def test_prison_row_11_escapes_into_the_trap_chart_and_the_arrest_card_goes() -> None:
    """Seed 002 line 83 (prison 11) and seed 000 line 90: out of prison, into a trap; the prison is gone."""
    seats = five(s0={"place": "P:1:1", "status": "arrested"})
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier",
                      "cells": {"P:1:1": {"face_up": "arrest"}}})
    act(table, Declare(0, False))
    from engine.locke.actions import Release

    act(table, Release(0, False))
    roll(table, 5, 6)  # 11: escape into a trap
    assert table.state.seats[0].status == "normal"
    roll(table, 1, 1)  # psycho bomb
    act(table, DeclareDurability(0, 8))
    roll(table, 6, 6)
    roll(table, 3, 5)  # the natural 6-6 calls for the transformation check (fate): 8, nothing
    assert dict(table.state.cells)["P:1:1"].face_up == ""


def test_event_10_a_prisoner_gathered_into_the_emperor_plan_combat_escapes() -> None:
    """Seed 002 prison chart (lines 75-76): an arrested character who takes part in a combat the
    prison chart did not make has escaped; the emperor plan (line 168) gathers it into one (D11, N272)."""
    table = _event(five(s3={"status": "arrested", "prison_failures": 2}))
    roll(table, 5, 5)
    s = table.state
    assert s.combat is not None and s.combat.cause == "emperor-plan"
    assert s.seats[3].status == "normal" and s.seats[3].prison_failures == 0
    assert ("escaped", 3, "joined-combat") in s.events


def test_astro_race_the_dead_may_roll_actually_alive_and_race() -> None:
    """Seed 002 line 164 (event 6): as the race starts, a dead character may make the actually-alive
    check; 2 or 12 brings it back (on the roller's cell, N273) and it races with the living, while a
    3-5 residual thought cannot race and 6-11 leaves it dead."""
    from engine.locke.actions import TryRevive

    table = _trap(five(s3={"alive": False, "place": ""}, s4={"alive": False, "place": ""}))
    _stock(table, "nike")
    roll(table, 3, 4)
    roll(table, 2, 4)
    while getattr(table.pending, "prompt", "") == "locke.race_keep":
        act(table, table.legal(0)[0])
    assert waiting(table) == ("locke.try_revive_race", 3)  # its own question: no combat to turn up in
    act(table, TryRevive(3, True))
    roll(table, 6, 6)  # actually alive: back on the roller's cell
    assert waiting(table) == ("locke.try_revive_race", 4)
    act(table, TryRevive(4, True))
    roll(table, 1, 2)  # 3: a residual thought, which does not race
    s = table.state
    assert s.seats[3].alive and s.seats[3].place == "P:1:1" and not s.seats[4].alive
    assert ("astro-race-start", 0, [0, 1, 2, 3]) in s.events
    assert not any(e[0] == "chart-entry" and e[1] == "residual-thought" for e in s.events)

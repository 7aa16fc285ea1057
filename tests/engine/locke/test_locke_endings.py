"""Victory declarations, refusals, overrides and every way a game ends
(KMC 6.4, 11.1; the judgement is engine/locke/victory.py, grades KMC 6.4)."""

from __future__ import annotations

import pytest

from engine.core.errors import CheatDetected
from engine.locke.actions import Answer, Declare, Destroy, KingRoom, Nop, Nova, Override, Surrender, Walk
from engine.locke.combat.actions import Durability, Equip
from engine.locke.declare import answerers
from tests.engine.locke.flow_helpers import decline_joins, KEYS, act, five, roll, settle, table_at, waiting


def _planet(seats=None, turn_of=0, **extra):  # type: ignore[no-untyped-def]
    return table_at({"seats": seats or five(), "phase": "planet", "turn_of": turn_of, "fill": "frontier", **extra})


def test_a_player_who_saw_the_declarers_card_may_still_refuse() -> None:
    """KMC 11.1.2 read the right way round (issue 25 A1): seat 1 has seen the declarer's card,
    the declarer has not seen seat 1's: seat 1 is asked, and its refusal stands."""
    table = _planet(five(s0={"seen_by": [1, 2]}))
    assert answerers(table.state, 0) == (1, 2, 3, 4)
    act(table, Declare(0, True))
    act(table, Answer(1, False))
    assert table.outcome() is None and ("refused", 1, 0) in table.state.events


def test_elmi_overrides_a_refusal_when_half_the_others_are_dead() -> None:
    """KMC 11.1.3: Elmi shows her card; with half the other players dead the refusal is void."""
    seats = five(s1={"alive": False}, s2={"alive": False, "place": ""})
    table = _planet(seats, turn_of=4)
    act(table, Declare(4, True))
    act(table, Answer(0, False))
    assert [a.use for a in table.legal(4)] == [False, True]
    act(table, Override(4, True))
    outcome = table.outcome()
    assert outcome is not None and outcome.reason.startswith("locke.end.declaration")
    assert table.state.seats[4].exposed


def test_an_override_by_a_card_without_one_is_cheating() -> None:
    """KMC 11.1.3: only four cards can void a refusal; showing another is caught when it opens."""
    table = _planet()
    act(table, Declare(0, True))
    act(table, Answer(1, False))
    table.feed(Override(0, True))
    with pytest.raises(CheatDetected):
        settle(table)


def test_last_one_alive_ends_the_game_after_its_turn() -> None:
    """KMC 6.4: one player alive finishes its turn: the game ends."""
    seats = five(s1={"alive": False}, s2={"alive": False}, s3={"alive": False}, s4={"alive": False})
    table = _planet(seats)
    act(table, Declare(0, False))
    act(table, Nop(0))
    outcome = table.outcome()
    assert outcome is not None and outcome.reason.startswith("locke.end.last-alive")
    assert [r.grade for r in outcome.seats][1:] == ["D"] * 4 or all(r.grade in "BD" for r in outcome.seats[1:])


def test_everyone_dead_ends_the_game() -> None:
    """KMC 6.4: when every player is dead there is no next turn; the game ends (police of a combat card here)."""
    seats = five(s0={"damage": 5}, s1={"alive": False}, s2={"alive": False, "place": ""}, s3={"alive": False},
                 s4={"alive": False})
    table = _planet(seats, cells={"P:1:1": {"face_up": "combat"}})
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    roll(table, 3, 3)  # random combat 6: three police with ray guns
    act(table, Surrender(0, False))
    decline_joins(table)  # the dead may try actually-alive (seed 002); here nobody does
    act(table, Equip(0, 0, "", False))  # no items declared (KMC 10.3.2)
    roll(table, 1, 1, 6, 6)  # initiative (KMC 10.3.3): Locke 2, the police 12
    roll(table, 6, 6, 6)  # combined fire of three ray guns (seed 002): 4 + 4 + 4 = 12
    act(table, Nop(0))  # no escape
    act(table, Nop(0))  # no defence
    act(table, Durability(0, 1))  # Locke declares 1 left (a claim)
    roll(table, 4, 4)  # 12:1 reads the 10:1 column: Locke dies
    outcome = table.outcome()
    assert outcome is not None and outcome.reason.startswith("locke.end.all-dead")
    assert all(r.grade in "BD" for r in outcome.seats)


def _base(seats, turn_of=0, destroyed=0, **extra):  # type: ignore[no-untyped-def]
    return table_at({"seats": seats, "phase": "base", "turn_of": turn_of, "fill": "corridor",
                     "key_bases_destroyed": destroyed,
                     "placements": [{"zone": "keybases", "seat": 1, "cells": KEYS}], **extra})


def _base_seats(**overrides):  # type: ignore[no-untyped-def]
    base = {"s0": {"place": "B:1:2"}, "s1": {"place": "B:4:4"}, "s2": {"place": ""}, "s3": {"place": ""},
            "s4": {"place": ""}}
    for key, value in overrides.items():
        base[key] = {**base[key], **value}
    return five(**base)


def test_four_key_bases_destroyed_ends_the_game_good_wins() -> None:
    """KMC 6.4, 9.3.1: the fourth destruction ends the game at once; Good wins."""
    table = _base(_base_seats(), destroyed=3, cells={"B:1:2": {"face_up": "command-room"}})
    act(table, Declare(0, False))
    act(table, Destroy(0))
    outcome = table.outcome()
    assert outcome is not None and outcome.reason.startswith("locke.end.key-bases")
    won = {r.seat for r in outcome.seats if r.won}
    assert 0 in won and 1 not in won  # Locke (Good) wins, Riot (Evil) loses
    assert outcome.result(0).grade == "A"  # type: ignore[union-attr]


def test_nova_ends_the_game_with_everyone_dead() -> None:
    """KMC 4 / 6.4: a passed Nova check kills everyone and destroys every key base; Good wins (grade B)."""
    table = _base(_base_seats(), cells={"B:1:2": {"face_up": "nova"}})
    act(table, Declare(0, False))
    act(table, Nop(0))
    assert waiting(table) == ("locke.nova", 0)
    act(table, Nova(0, 6))
    roll(table, 2, 3)
    outcome = table.outcome()
    assert outcome is not None and outcome.reason.startswith("locke.end.nova")
    assert not any(p.alive for p in table.state.seats)
    assert outcome.result(0).grade == "B"  # type: ignore[union-attr]


def test_king_editorial_room_makes_yuki_hijiri_the_only_winner() -> None:
    """KMC 2.2.3, 4, 6.4: Hijiri passes a mind check on the King editorial room and alone wins."""
    seats = _base_seats(s4={"character": "hijiri-yuki", "silhouette": "hijiri-yuki", "place": "B:2:2"})
    table = _base(seats, turn_of=4, cells={"B:2:2": {"face_up": "king-editorial-room"}})
    act(table, Declare(4, False))
    act(table, Nop(4))
    assert waiting(table) == ("locke.king", 4)
    act(table, KingRoom(4, 7))
    roll(table, 3, 3)
    outcome = table.outcome()
    assert outcome is not None and outcome.reason.startswith("locke.end.king-room")
    assert outcome.winners == (4,)


def test_only_hijiri_may_try_the_king_room() -> None:
    """KMC 4: anyone else trying is caught when the card opens."""
    seats = _base_seats(s4={"place": "B:2:2"})
    table = _base(seats, turn_of=4, cells={"B:2:2": {"face_up": "king-editorial-room"}})
    act(table, Declare(4, False))
    act(table, Nop(4))
    assert [type(a).__name__ for a in table.legal(4)] == ["Nop"]
    table.feed(KingRoom(4, 3))
    with pytest.raises(CheatDetected):
        settle(table)


def test_termination_guard_judges_the_game_as_it_stands() -> None:
    """Ruling N47 (our addition; N23 judges it): after 150 turn cycles the game is judged as it stands."""
    table = _planet(turn=150 * 5)
    act(table, Declare(0, False))
    act(table, Nop(0))
    outcome = table.outcome()
    assert outcome is not None and outcome.reason.startswith("locke.end.guard")

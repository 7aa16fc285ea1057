"""The phase change and the base phase (KMC 7.2.2-7.3.3, 9.3; chapter 4)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.core.pending import Placement
from engine.locke import board
from engine.locke.actions import Declare, Destroy, EnterBase, InfoCheck, Keep, Land, Nop, Teleport, Walk
from engine.locke.turn import KEY_BASES, OUTER, DealtInformationCheck
from tests.engine.locke.flow_helpers import act, five, game, place, roll, settle, table_at, waiting


def _planet(**position):  # type: ignore[no-untyped-def]
    return table_at({"seats": five(), "phase": "planet", "turn_of": 0, "fill": "frontier", **position})


def _third_information():  # type: ignore[no-untyped-def]
    table = _planet(seats=five(s0={"info": 2}), cells={"P:1:1": "information"})
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, False))
    place(table)
    return table


def test_third_information_card_ends_the_planet_phase() -> None:
    """KMC 7.2.2 / seed 000 3.2.2: a player holding three information cards ends the planet phase."""
    table = _third_information()
    s = table.state
    assert s.phase == "base" and s.seats[0].info == 3
    assert any(e[:3] == ("phase-change", "information", 0) for e in s.events)
    # KMC 7.3.1.1: the key bases were placed by the base player (seat 1), one on each of four cells
    keys = [p for p in s.placements if p[0] == "keybases"][0]
    assert keys[1] == 1
    assert sorted(table.truth[h] for h in keys[3] if table.truth[h]) == sorted(KEY_BASES)
    assert table.knowledge[1].card(keys[3][0]) is not None  # the placer knows them
    assert table.knowledge[0].card(keys[3][0]) is None
    assert [cell.handle is not None for _, cell in s.cells].count(True) == 36
    # KMC 7.3.1.2: the finder now puts its piece on any outer cell
    assert waiting(table) == ("locke.info_entry", 0)
    assert sorted(a.to for a in table.legal(0)) == sorted(OUTER)


def test_finders_enter_then_base_players_drop_in_at_random() -> None:
    """KMC 7.3.1.2-4: finders on an outer cell, base players on 2d6 (row, column), then the finder's card opens."""
    table = _third_information()
    act(table, Walk(0, "B:1:1"))
    roll(table, 3, 4)  # the base player's random cell
    s = table.state
    assert s.seats[0].place == "B:1:1" and s.seats[1].place == "B:3:4"
    assert dict(s.cells)["B:1:1"].handle is None or any(e[0] == "key-base-found" for e in s.events)


def test_every_planet_card_open_ends_the_planet_phase() -> None:
    """KMC 7.2.2: the planet phase ends when every planet card has been turned."""
    table = _planet(fill=None, cells={"P:1:1": "frontier"})
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, True))
    place(table)
    assert table.state.phase == "base"
    assert any(e[:2] == ("phase-change", "all-open") for e in table.state.events)


def test_base_player_with_three_dealt_information_cards_ends_the_phase_at_once() -> None:
    """Seed 000 3.2.2: a base player dealt three information cards shows them when the planet phase starts."""
    seats = five(s1={"kept": ["information", "information", "information", "henchman"]})
    data = {"seats": seats, "phase": "planet", "fill": "frontier", "turn_of": 0}
    table = table_at(data)
    # a position starts at a turn; put the start-of-phase check in front of it
    table.state = table.state._replace(queue=(DealtInformationCheck(1),) + table.state.queue)
    settle(table)
    legal = table.legal(1)
    assert len(legal) == 1 and isinstance(legal[0], InfoCheck) and len(legal[0].handles) == 3
    act(table, legal[0])
    # seed 000 3.2.3: at the phase end the base player says whether an identity card is among its others
    assert table.legal(1) == [Nop(1)]
    act(table, Nop(1))
    place(table)
    assert table.state.phase == "base" and table.state.seats[1].info == 3


def test_hiding_three_information_cards_is_a_false_claim() -> None:
    """Seed 000 3.2.2: claiming fewer than three while holding three is caught by the local table."""
    from engine.core.claims import FalseClaim

    seats = five(s1={"kept": ["information", "information", "information"]})
    table = table_at({"seats": seats, "phase": "planet", "fill": "frontier", "turn_of": 0})
    table.state = table.state._replace(queue=(DealtInformationCheck(1),) + table.state.queue)
    with pytest.raises(FalseClaim):
        table.feed(InfoCheck(1, ()))


def _base(**position):  # type: ignore[no-untyped-def]
    keys = {"B:1:2": "command-room", "B:3:3": "laboratory", "B:5:5": "computer-room", "B:6:6": "energy-room"}
    data = {"seats": five(s0={"place": "B:1:1"}, s1={"place": "B:4:4"}, s2={"place": ""}, s3={"place": ""},
                          s4={"place": ""}),
            "phase": "base", "fill": "corridor", "turn_of": 0,
            "placements": [{"zone": "keybases", "seat": 1, "cells": keys}], **position}
    return table_at(data)


def test_base_walk_is_orthogonal_without_wrapping() -> None:
    """KMC 9.3.1: up, down, left, right; the edges do not connect."""
    table = _base()
    act(table, Declare(0, False))
    assert sorted(a.to for a in table.legal(0) if isinstance(a, Walk)) == ["B:1:2", "B:2:1"]


def test_base_teleport_offers_every_end_of_a_path_that_never_revisits() -> None:
    """KMC 9.3.1, fig. 9.2: a teleport of 3 from row 2, column 2 reaches exactly the marked cells."""
    table = _base(seats=five(s0={"place": "B:2:2"}, s1={"place": "B:4:4"}, s2={"place": ""}, s3={"place": ""},
                              s4={"place": ""}))
    act(table, Declare(0, False))
    act(table, Teleport(0, 4))
    roll(table, 3)
    got = sorted(a.to for a in table.legal(0) if isinstance(a, Land))
    assert got == sorted(c.key for c in board.teleport_destinations(board.cell_from_key("B:2:2"), 3))
    assert got == sorted(["B:1:2", "B:1:4", "B:2:1", "B:2:3", "B:2:5", "B:3:2", "B:3:4", "B:4:1", "B:4:3", "B:5:2"])


def test_a_non_base_player_opens_the_key_base_placement_then_destroys_it() -> None:
    """KMC 9.3.2, 9.3.1: the card under a non-base player opens (key base from the placement); Good destroys it."""
    table = _base()
    act(table, Declare(0, False))
    act(table, Walk(0, "B:1:2"))
    s = table.state
    assert dict(s.cells)["B:1:2"].face_up == "command-room"
    # the turn goes on; on its next turn Locke (Good) may destroy it
    while waiting(table)[1] != 0:
        prompt, who = waiting(table)
        act(table, Declare(who, False) if prompt == "locke.declaring" else Nop(who))
    act(table, Declare(0, False))
    assert any(isinstance(a, Destroy) for a in table.legal(0))
    act(table, Destroy(0))
    assert table.state.key_bases_destroyed == 1 and table.state.claims[-1].what == "locke.good_now"


def test_a_base_player_does_not_open_base_cards() -> None:
    """KMC 9.3.2: only non-base players turn base cards."""
    table = _base(turn_of=1)
    act(table, Declare(1, False))
    act(table, Walk(1, "B:3:4"))
    assert dict(table.state.cells)["B:3:4"].handle is not None


def test_entering_the_base_needs_level_plus_information_plus_tries() -> None:
    """KMC 9.3.1: 2d6 at or below declared level + information cards + earlier tries enters on an outer cell."""
    table = _base(turn_of=2, seats=five(s0={"place": "B:1:1"}, s1={"place": "B:4:4"}, s2={"place": "", "info": 1},
                                        s3={"place": ""}, s4={"place": ""}))
    act(table, Declare(2, False))
    assert sorted(a.level for a in table.legal(2) if isinstance(a, EnterBase)) == [0, 1, 2, 3, 4]  # Nia: level 4
    act(table, EnterBase(2, 4))
    roll(table, 6, 6)  # 12 > 4 + 1 + 0
    assert table.state.seats[2].entry_tries == 1 and table.state.seats[2].place == ""


def test_destroying_as_a_non_good_character_is_refused_by_legal_and_caught_as_a_claim() -> None:
    """KMC 9.3.1: only a character that is Good now may destroy; Elmi (Special) claiming it is false."""
    from engine.core.claims import FalseClaim

    table = _base(turn_of=4, seats=five(s0={"place": "B:1:1"}, s1={"place": "B:4:4"}, s2={"place": ""},
                                        s3={"place": ""}, s4={"place": "B:1:2"}),
                  cells={"B:1:2": {"face_up": "command-room"}})
    act(table, Declare(4, False))
    assert not any(isinstance(a, Destroy) for a in table.legal(4))
    with pytest.raises(FalseClaim):
        table.feed(Destroy(4))


def test_key_base_placement_is_a_hidden_placement_of_the_first_base_player() -> None:
    """KMC 7.3.1.1 / ruling N41: the four key bases are one placement by the first base player, told to the others."""
    seats = five(s3={"character": "nagato", "silhouette": "nagato", "place": ""}, s0={"info": 2})
    table = _planet(seats=seats, cells={"P:1:1": "information"})
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    table.feed(Keep(0, False))
    while not isinstance(table.pending, Placement):
        table.step()
    assert table.pending.op == "place" and table.pending.seat == 1 and table.pending.things == KEY_BASES
    place(table)
    keys = [p for p in table.state.placements if p[0] == "keybases"][0]
    assert table.knowledge[3].card(keys[3][0]) is not None  # disclosed to the other base player
    assert table.knowledge[2].card(keys[3][0]) is None


def test_recovery_is_refused_without_damage() -> None:
    """KMC 9.2.1: only lost durability can be recovered."""
    from engine.locke.actions import Recover

    table = _planet()
    act(table, Declare(0, False))
    with pytest.raises(IllegalAction):
        table.feed(Recover(0))


@pytest.mark.parametrize("converted", [True, False])
def test_a_converted_eg_character_is_good_now_and_may_destroy(converted: bool) -> None:
    """Issue 25 A9 (KMC 2.2.1, 6.3.2, 9.3.1): an E/G character converted by Locke or Liza is Good
    until it next comes back to life, so destroying a key base is an honest move, offered and
    judged true; unconverted, the same move is not offered and is a false claim."""
    from engine.core.claims import FalseClaim

    e_g = next(c.id for c in game().components.characters if c.attribute == "evil-good")
    table = _base(turn_of=4, seats=five(s0={"place": "B:1:1"}, s1={"place": "B:4:4"}, s2={"place": ""},
                                        s3={"place": ""},
                                        s4={"character": e_g, "silhouette": "elmi", "place": "B:1:2",
                                            "converted": converted}),
                  cells={"B:1:2": {"face_up": "command-room"}})
    act(table, Declare(4, False))
    assert any(isinstance(a, Destroy) for a in table.legal(4)) == converted
    if converted:
        act(table, Destroy(4))
        assert table.state.key_bases_destroyed == 1 and table.state.claims[-1].value is True
    else:
        with pytest.raises(FalseClaim):
            table.feed(Destroy(4))

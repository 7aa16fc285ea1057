"""Specials announced as "a ship" (KMC 10.4.2 notes 1-2, KMC 2.3.1; ruling N226).

E-Strohheim may announce his beam cannon, Dr. Wong his geoid bomb, as "a ship": the 2d6 are
rolled as for a ship (public), then the user says what happens, a claim about the character
card judged when it opens. Seat 0 (fighter 0) uses the special; seat 2, Nia (fighter 1), is
on his cell."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import FalseClaim, IllegalAction
from engine.core.pending import Decision
from engine.locke.actions import Nop
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import ShipEffect, UseItem
from engine.locke.state import public_data
from tests.engine.locke.combat_helpers import combat_table, fight, initiative, seven
from tests.engine.locke.flow_helpers import act, five, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)


def _table(s0: str, silhouette: str = "") -> Any:
    seats = five(s0={"character": s0, "silhouette": silhouette or {"strohheim-e": "soi"}.get(s0, s0)},
                 s2={"character": "nia", "silhouette": "nia", "place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven() + seven())
    initiative(table, *LOCKE_FIRST)
    return table


def _ship(table: Any, *faces: int) -> None:
    act(table, UseItem(0, "ship", 1))
    roll(table, *faces)


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def test_the_beam_cannon_announced_as_a_ship_must_fire_on_two() -> None:
    """KMC 10.4.2 note 1: on 2, 3 or 12 E-Strohheim's "ship" must fire its beam cannon (no D-bomb):
    the honest answer is the cannon, a claim about his card; its firepower is rolled."""
    table = _table("strohheim-e")
    assert UseItem(0, "ship", 1) in table.legal(0) and UseItem(0, "beam-cannon", 1) in table.legal(0)
    _ship(table, 1, 1)
    assert waiting(table) == ("locke.cb_ship_effect", 0) and table.legal(0) == [ShipEffect(0, "beam-cannon")]
    act(table, ShipEffect(0, "beam-cannon"))
    claim = table.state.claims[-1]
    assert claim.what == cc.SHIP and claim.value == [2, "d-bomb", "beam-cannon"] and claim.seat == 0
    roll(table, 4)  # the firepower chart
    assert _events(table, "cb-firepower")[-1][-1] == 16 and waiting(table) == ("locke.cb_escape", 2)
    strike = fight(table).strike
    assert strike is not None and strike.level == 4


def test_the_beam_cannon_announced_as_a_ship_may_hold_fire_on_seven_to_eleven() -> None:
    """KMC 10.4.2 note 1: on 7-11 it may say "nothing happens" (as a ship would), or fire."""
    table = _table("strohheim-e")
    _ship(table, 3, 5)
    assert table.legal(0) == [ShipEffect(0, "beam-cannon"), ShipEffect(0, "no-support")]
    act(table, ShipEffect(0, "no-support"))
    assert waiting(table) == ("locke.cb_act", 0) and fight(table).strike is None


def test_a_beam_cannon_saying_it_dropped_a_d_bomb_is_caught() -> None:
    """N226: E-Strohheim has no ship; a D-bomb at 2 is a false claim about his card."""
    table = _table("strohheim-e")
    _ship(table, 1, 1)
    with pytest.raises(FalseClaim) as err:
        table.feed(ShipEffect(0, "d-bomb"))
    assert err.value.seat == 0 and err.value.claim.what == cc.SHIP


def test_the_geoid_bomb_announced_as_a_ship_follows_its_own_numbers() -> None:
    """KMC 10.4.2 note 2: Dr. Wong's "ship" rolls 2d6 and the bomb's card decides: 4 fires (level
    7, 100, where a ship's chart gives a beam cannon); 8 does nothing; 10 knocks him out."""
    table = _table("dr-wong")
    _ship(table, 2, 2)
    assert table.legal(0) == [ShipEffect(0, "geoid-bomb")]
    act(table, ShipEffect(0, "geoid-bomb"))
    strike = fight(table).strike
    assert strike is not None and (strike.level, strike.firepower) == (7, 100)
    assert waiting(table) == ("locke.cb_escape", 2)
    table = _table("dr-wong")
    _ship(table, 4, 4)
    assert table.legal(0) == [ShipEffect(0, "no-support")]
    table = _table("dr-wong")
    _ship(table, 5, 5)
    assert table.legal(0) == [ShipEffect(0, "knocked-out")]
    act(table, ShipEffect(0, "knocked-out"))
    assert fight(table).fighters[0].fainted and _events(table, "cb-fainted")[-1][1:] == (0, "geoid-bomb")


def test_a_real_ship_answers_with_its_chart_entry() -> None:
    """Seed 002 ship support: Lord Leon's ship at 3 drops its G-bomb (5, 30): the only honest answer."""
    table = _table("lord-leon")
    _ship(table, 1, 2)
    assert table.legal(0) == [ShipEffect(0, "g-bomb")]
    act(table, ShipEffect(0, "g-bomb"))
    strike = fight(table).strike
    assert strike is not None and (strike.level, strike.firepower, strike.machine) == (5, 30, True)


def test_an_effect_no_special_has_at_that_roll_is_refused() -> None:
    """KMC 10.4.2: at 8 nothing a ship, beam cannon or geoid bomb does is a D-bomb; refused with
    the rule, nothing changed."""
    table = _table("strohheim-e")
    _ship(table, 4, 4)
    before = table.state
    with pytest.raises(IllegalAction) as err:
        table.feed(ShipEffect(0, "d-bomb"))
    assert err.value.rule == "locke.10.4.2" and table.state is before


def test_a_ship_and_then_the_bomb_in_one_round_claims_two_specials() -> None:
    """KMC 10.4.2: each special once a round. Dr. Wong's "ship" was his bomb, so the bomb is not
    offered again this round; naming it anyway claims a second special kind, which is false."""
    table = _table("dr-wong")
    _ship(table, 4, 4)
    act(table, ShipEffect(0, "no-support"))
    assert waiting(table) == ("locke.cb_act", 0)
    assert not [a for a in table.legal(0) if isinstance(a, UseItem) and a.item in cc.SPECIALS]
    with pytest.raises(FalseClaim) as err:
        table.feed(UseItem(0, "geoid-bomb", 1))
    assert err.value.seat == 0 and err.value.claim.value == ["specials", 2]


def test_a_ship_and_a_cannon_look_the_same_until_the_statement() -> None:
    """Hidden information (N226): seat 0 shows Lord Leon's silhouette and is Lord Leon (a ship) in
    one game, E-Strohheim (a beam cannon) in the other. The announcement and the roll are public
    and the same; every other seat sees the same state and questions until seat 0 says what
    happens."""
    tables = [_table(who, silhouette="lord-leon") for who in ("lord-leon", "strohheim-e")]

    def same() -> None:
        a, b = tables
        assert public_data(a.state) == public_data(b.state) and a.pending == b.pending
        if isinstance(a.pending, Decision) and a.pending.seat != 0:
            assert a.legal(a.pending.seat) == b.legal(b.pending.seat)
        assert a.legal(2) == b.legal(2)

    same()
    for t in tables:
        act(t, UseItem(0, "ship", 1))
    same()
    for t in tables:
        roll(t, 2, 3)
    same()
    assert all(waiting(t) == ("locke.cb_ship_effect", 0) for t in tables)
    assert tables[0].legal(0) == [ShipEffect(0, "beam-cannon")] == tables[1].legal(0)  # 5: both fire the cannon
    for t in tables:
        act(t, ShipEffect(0, "beam-cannon"))
    same()


def test_the_cruiser_card_is_a_ship_and_asks_nothing() -> None:
    """Seed 000 3.1.1: the cruiser card is face up from its first use, a ship: the chart applies
    with no statement (N226 is about the character cards' specials)."""
    from tests.engine.locke.flow_helpers import table_at

    seats = five(s0={"kept": ["cruiser"]}, s2={"character": "nia", "silhouette": "nia", "place": "P:1:0"})
    h = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier"}).state.seats[0].kept[0]
    table = combat_table(seats=seats, deck=seven() + seven())
    initiative(table, *LOCKE_FIRST)
    act(table, UseItem(0, "ship", 1, h, "cruiser"))
    roll(table, 1, 2)
    assert waiting(table) == ("locke.cb_escape", 2) and not _events(table, "cb-ship-effect")
    act(table, Nop(2))

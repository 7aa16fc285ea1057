"""Turns in the planet phase: movement, planet-card draws, prison, ambushes, parties
(KMC 7.2, 8, 9.1-9.2; seed 000 chapter 3). Each test builds a position and
gives the dice itself."""

from __future__ import annotations

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import CheatDetected, IllegalAction
from engine.core.pending import Chance
from engine.locke.actions import (
    Appear,
    Declare,
    Fight,
    Join,
    Keep,
    Land,
    Leave,
    Propose,
    Release,
    Surrender,
    Teleport,
    Walk,
)
from engine.locke.combat.actions import Equip
from tests.engine.locke.flow_helpers import decline_joins, act, five, game, roll, table_at, waiting


def _start(seats=None, **position):  # type: ignore[no-untyped-def]
    data = {"seats": seats or five(), "phase": "planet", "turn_of": 0, "fill": "frontier", **position}
    table = table_at(data)
    assert waiting(table) == ("locke.declaring", 0)
    act(table, Declare(0, False))
    return table


def _moves(table, kind):  # type: ignore[no-untyped-def]
    return sorted(a.to for a in table.legal(0) if isinstance(a, kind))


def test_teleport_fails_above_the_declared_level() -> None:
    """KMC 9.2.1: a face above the declared level leaves the mover where it is (and no combat follows)."""
    table = _start()
    act(table, Teleport(0, 2))
    roll(table, 5)
    assert table.state.seats[0].place == "P:1:0"
    assert table.state.events[-1][:2] == ("teleport-failed", 0)
    assert waiting(table) == ("locke.declaring", 2)  # the turn is over: no card, no combat


def test_declaring_a_teleport_level_above_ones_own_is_a_false_claim() -> None:
    """KMC 9.2.1 / 11.2: Nia (level 4) cannot declare level 6; the local table catches it at once."""
    seats = five(s0={"character": "nia", "silhouette": "nia"}, s2={"character": "locke-1", "silhouette": "locke"})
    table = _start(seats)
    with pytest.raises(FalseClaim) as err:
        table.feed(Teleport(0, 6))
    assert err.value.seat == 0 and err.value.step == len(table.log)


def test_an_ability_card_is_kept_face_down_as_a_claim() -> None:
    """KMC 9.2.2: the drawer alone reads the card and keeps an ability card face down."""
    table = _start(cells={"P:1:1": "henchman"})
    act(table, Walk(0, "P:1:1"))
    assert waiting(table) == ("locke.keep", 0)
    assert [a.keep for a in table.legal(0)] == [True]
    act(table, Keep(0, True))
    s = table.state
    assert table.card(s.seats[0].kept[-1]) == "henchman"
    assert s.claims[-1].what == "locke.keeps_ability"
    assert dict(s.cells)["P:1:1"].handle is None


def test_keeping_an_instruction_card_is_a_false_claim_caught_on_a_local_table() -> None:
    """KMC 9.2.2, PLAN claims: keeping an arrest card face down claims it is an ability card: false."""
    table = _start(cells={"P:1:1": "arrest"})
    act(table, Walk(0, "P:1:1"))
    before = table.state
    with pytest.raises(FalseClaim) as err:
        table.feed(Keep(0, True))
    assert err.value.seat == 0 and err.value.claim.what == "locke.keeps_ability"
    assert table.state is before


def test_showing_an_ability_card_is_detected() -> None:
    """KMC 9.2.2: ability cards are kept; showing one is caught when it opens."""
    table = _start(cells={"P:1:1": "nike"})
    act(table, Walk(0, "P:1:1"))
    table.feed(Keep(0, False))
    with pytest.raises(CheatDetected):
        table.step()


def test_information_is_kept_face_up_by_the_drawer() -> None:
    """Seed 000 3.2.2: information stays face up in front of the drawer."""
    table = _start(cells={"P:1:1": "information"})
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, False))
    s = table.state
    assert s.seats[0].info == 1 and dict(s.cells)["P:1:1"].handle is None and s.phase == "planet"


def test_arrest_then_the_prison_check_each_turn() -> None:
    """Seed 000 3.2.1, seed 002 prison chart: arrested on the cell; 2d6 + failures each turn; 2-5 escapes."""
    table = _start(cells={"P:1:1": "arrest"})
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, False))
    assert table.state.seats[0].status == "arrested"
    assert waiting(table)[1] != 0  # no combat phase after an arrest; the next seat plays
    s = table.state
    assert dict(s.cells)["P:1:1"].face_up == "arrest"


def _arrested_turn(character: str = "locke-1", failures: int = 0):  # type: ignore[no-untyped-def]
    seats = five(s0={"character": character, "silhouette": "locke", "place": "P:1:1", "status": "arrested",
                     "prison_failures": failures},
                 s2={"character": "yamaki-2" if character != "yamaki-2" else "nia", "silhouette": "nia"})
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier",
                      "cells": {"P:1:1": {"face_up": "arrest"}}})
    act(table, Declare(0, False))
    assert waiting(table) == ("locke.release", 0)
    return table


def test_prison_failure_raises_the_next_roll() -> None:
    """Seed 002 prison: 12 fails (ESP proof, pending part 3) and each failure adds +1 later."""
    table = _arrested_turn()
    act(table, Release(0, False))
    roll(table, 6, 6)
    assert table.state.seats[0].status == "arrested" and table.state.seats[0].prison_failures == 1


def test_prison_low_roll_escapes() -> None:
    """Seed 002 prison: a total of 2-5 escapes."""
    table = _arrested_turn(failures=2)
    act(table, Release(0, False))
    roll(table, 1, 2)
    assert table.state.seats[0].status == "normal" and table.state.seats[0].prison_failures == 0


def test_release_skips_the_prison_check_and_is_a_claim() -> None:
    """Seed 000 3.2.1: a character with release walks out without a check; Locke has none (false claim)."""
    table = _arrested_turn("yamaki-2")
    assert any(isinstance(a, Release) and a.use for a in table.legal(0))
    act(table, Release(0, True))
    assert table.state.seats[0].status == "normal"
    honest = _arrested_turn("locke-1")
    assert not any(isinstance(a, Release) and a.use for a in honest.legal(0))
    with pytest.raises(FalseClaim):
        honest.feed(Release(0, True))


def _ambush_position():  # type: ignore[no-untyped-def]
    return {"seats": five(), "phase": "planet", "turn_of": 0, "fill": "frontier", "cells": {"P:1:1": "henchman", "P:1:6": "frontier"},
            "placements": [{"zone": "ambush:1", "seat": 1, "cells": {"P:1:1": "ambush-a", "P:3:3": "ambush-b"}}]}


def test_an_ambush_opens_before_the_card_and_its_placer_may_appear() -> None:
    """Seed 000 3.2.3: the ambush replaces the planet card; the placer may come out with 1d6 henchmen."""
    table = table_at(_ambush_position())
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    s = table.state
    assert dict(s.cells)["P:1:1"].face_up == "ambush-a"
    assert waiting(table) == ("locke.appear", 1)
    act(table, Appear(1, True))
    roll(table, 5)  # 5-6: two henchmen
    assert table.state.combat is not None and table.state.combat.henchmen == 2
    assert table.state.seats[1].place == "P:1:1"  # ruling N44: the base player is on the board now
    decline_joins(table)
    assert waiting(table) == ("locke.cb_equip", 1)  # KMC 10.3.2: items are declared first
    act(table, Equip(1, 0, "", False))
    act(table, Equip(0, 0, "", False))
    fight = table.state.combat.detail
    assert [f.seat for f in fight.fighters] == [1, 0] and len(fight.fighters[0].hand) == 9  # KMC 5: 7 + 2 henchmen
    assert isinstance(table.pending, Chance) and table.pending.purpose == "locke.combat.initiative"


def test_an_empty_ambush_cell_proves_nothing_is_there() -> None:
    """Seed 000 3.2.3 / PLAN placements: opening a cell without an ambush shows the planet card as usual."""
    table = table_at(_ambush_position())
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:6"))
    opened = dict(table.state.open_cards)
    placement = table.state.placements[0]
    assert opened[placement[3][placement[2].index("P:1:6")]] == ""
    assert waiting(table) == ("locke.keep", 0)


def test_combat_card_rolls_random_combat_and_police_allow_surrender() -> None:
    """Seed 000 3.2.1 (ruling N11): a combat card rolls the random-combat chart; police may be surrendered to."""
    table = _start(cells={"P:1:1": "combat"})
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, False))
    roll(table, 3, 4)  # 7: police with blasters
    assert waiting(table) == ("locke.surrender", 0)
    act(table, Surrender(0, True))
    assert table.state.seats[0].status == "arrested" and table.state.combat is None


def test_combat_card_fight_is_a_kmc_10_combat() -> None:
    """KMC 10.12.1: a combat card's police fight a real combat (cards dealt, initiative, attacks)."""
    table = _start(cells={"P:1:1": "combat"})
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, False))
    roll(table, 3, 4)
    act(table, Surrender(0, False))
    decline_joins(table)  # the dead may try actually-alive (seed 002); here nobody does
    act(table, Equip(0, 0, "", False))
    assert len(table.state.combat.detail.fighters[0].hand) == 7
    roll(table, 6, 6, 1, 1)  # Locke acts first
    attacks = [a for a in table.legal(0) if getattr(a, "use", "") == "attack"]
    assert attacks and all(a.target == 1 for a in attacks)  # the police squad is fighter 1
    best = max(attacks, key=lambda a: game().components.combat_card(a.acts_as or a.card).firepower)
    act(table, best)
    roll(table, 4, 4, 4, 4, 4, 4)  # one attack hits all three policemen (seed 002)
    hits = [e for e in table.state.events if e[0] == "cb-hit"]
    assert hits and hits[-1][1] == 0 and len(hits[-1][3]) == 3


def test_declared_combat_is_compulsory_with_the_same_silhouette() -> None:
    """KMC 9.2.3: someone with your silhouette on your cell forces a combat."""
    seats = five(s2={"place": "P:1:1", "silhouette": "locke"})
    table = _start(seats, cells={"P:1:1": {"face_up": ""}})
    act(table, Walk(0, "P:1:1"))
    assert waiting(table) == ("locke.fight", 0)
    assert [a.target for a in table.legal(0)] == [2]
    with pytest.raises(IllegalAction):
        table.feed(Fight(0, -1))


def test_party_proposal_acceptance_and_leaving() -> None:
    """KMC 9.2.1: the turn player invites others in a normal state; who accepts rides along; partners may leave."""
    seats = five(s2={"place": "P:1:0"}, s3={"place": "P:1:0"})
    table = _start(seats)
    act(table, Propose(0, (2, 3)))
    assert waiting(table) == ("locke.join", 2)
    act(table, Join(2, True))
    act(table, Join(3, False))
    s = table.state
    assert s.seats[2].status == "partner" and s.seats[2].leader == 0 and s.seats[3].leader == -1
    # the next turns: seat 2's turn comes; it may only stay or leave
    while waiting(table)[1] != 2:
        prompt, who = waiting(table)
        act(table, table.legal(who)[0] if prompt != "locke.declaring" else Declare(who, False))
    act(table, Declare(2, False))
    assert sorted(type(a).__name__ for a in table.legal(2)) == ["Leave", "Nop"]
    act(table, Leave(2))
    assert table.state.seats[2].leader == -1 and table.state.seats[2].status == "normal"


def test_party_teleport_partners_choose_to_follow_with_a_level_claim() -> None:
    """KMC 9.2.1 / ruling N46: after the leader's teleport each partner follows (claiming the level) or drops out."""
    from engine.locke.actions import Follow

    seats = five(s2={"place": "P:1:0", "status": "partner", "leader": 0},
                 s3={"character": "lag", "silhouette": "lag-1", "place": "P:1:0", "status": "partner", "leader": 0})
    table = _start(seats)
    act(table, Teleport(0, 5))
    roll(table, 5)
    act(table, Land(0, "P:1:5"))
    assert waiting(table) == ("locke.follow", 2)
    assert [a.follow for a in table.legal(2)] == [False]  # Nia is level 4: she cannot honestly follow a 5
    act(table, Follow(2, False))
    assert [a.follow for a in table.legal(3)] == [False, True]  # Lag is level 5
    act(table, Follow(3, True))
    s = table.state
    assert s.seats[0].place == s.seats[3].place == "P:1:5" and s.seats[3].leader == 0
    assert s.seats[2].place == "P:1:0" and s.seats[2].leader == -1 and s.seats[2].status == "normal"
    assert s.claims[-1].what == "locke.stat_now" and s.claims[-1].seat == 3
    assert s.claims[-1].value[:3] == ["level", "le", 5]  # Lag's current level reaches the leader's 5

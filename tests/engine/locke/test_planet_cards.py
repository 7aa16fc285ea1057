"""Planet cards in play (issue 12, item 1): one named scenario per kind, citing seed 000
(seeds/000, the planet cards = KMC chapter 3) by line, or KMC 3.2.4 where seed 000 has a
gap (ruling C2: frontier and entertainment district).

Kinds whose effect lives in combat (cruiser, henchman, jammer, field, suits, Nike, subspace
field, ESP controller, absorb ball, geoid bomb, mirror, industrial district, slum) are
tested here through the API combat uses (notes/API-effects.md): the card is revealed
through the hidden-card operation, checked, kept face up or spent by its lifetime.
Instruction cards of part 2 keep their tests in test_locke_turns.py (spaceport, arrest,
combat, information, ambush, identify-other); the trap card is in test_traps.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import CheatDetected
from engine.core.pending import Chance
from engine.locke import planet_cards as pc
from engine.locke.components import PLANET_EFFECTS
from engine.locke.actions import Declare, InfoCheck, Keep, Land, Nop, Teleport, UseCard, Walk
from engine.locke.planet_cards import Gift
from tests.engine.locke.flow_helpers import act, five, game, place, roll, settle, table_at, waiting


def _table(seats: Any = None, **position: Any) -> Any:
    data = {"seats": seats or five(), "phase": "planet", "turn_of": 0, "fill": "spaceport", **position}
    table = table_at(data)
    act(table, Declare(0, False))
    return table


def _kept(**cards: Any) -> Any:
    """five() with seat 0 holding ``kept`` and other fields."""
    return five(s0=cards)


ROOT = Path(__file__).resolve().parents[3]


def test_every_planet_effect_type_names_its_code() -> None:
    """A card's behaviour is found from its JSON: each effect type the component loader accepts
    (and no other) names the engine files that carry it out, and those files exist."""
    assert set(pc.EFFECT_CODE) == set(PLANET_EFFECTS)
    for files in pc.EFFECT_CODE.values():
        assert files and all((ROOT / f).is_file() for f in files)
    assert {p.effect.type for p in game().components.planets} <= set(pc.EFFECT_CODE)


def _run(table: Any, steps: Any) -> Any:
    """Queue ``steps`` in front (as the combat does with use_steps) and let the table answer them."""
    table.state = game().settle(table.state._replace(queue=tuple(steps) + table.state.queue))
    settle(table)
    return table.state


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def test_there_are_28_kinds_in_81_cards() -> None:
    """Seed 000 lines 7-34: 28 kinds; the deck holds 81 cards (appendix C)."""
    cards = game().components.planets
    assert len({pc.kind_of(c.id) for c in cards}) == 28
    assert sum(c.count for c in cards) == 81


# --- used in the movement decision --------------------------------------------------------


def test_frontier_heals_one_durability_and_is_spent() -> None:
    """KMC 3.2.4 (C2): the frontier heals 1 lost durability; single use, back under the stock."""
    table = _table(_kept(kept=["frontier"], damage=2))
    h = table.state.seats[0].kept[0]
    assert UseCard(0, h, "frontier") in table.legal(0)
    act(table, UseCard(0, h, "frontier"))
    s = table.state
    assert s.seats[0].damage == 1 and not s.seats[0].kept and not s.seats[0].shown
    assert ("planet", "frontier", 0, "frontier") in s.events
    assert waiting(table) == ("locke.move", 0)  # a free option: the move is still to come


def test_frontier_is_not_offered_without_damage() -> None:
    """KMC 3.2.4: nothing to heal, no use."""
    table = _table(_kept(kept=["frontier"]))
    assert not any(isinstance(a, UseCard) for a in table.legal(0))


def test_using_a_card_as_another_is_caught_when_it_is_revealed() -> None:
    """Seed 000 line 37: kept cards are used by turning them up; a wrong one is a cheat."""
    table = _table(_kept(kept=["nike"], damage=1))
    h = table.state.seats[0].kept[0]
    with pytest.raises(CheatDetected):
        table.feed(UseCard(0, h, "frontier"))
        settle(table)


def test_entertainment_district_gives_a_kept_card_to_another_player_in_secret() -> None:
    """KMC 3.2.4 (C2): give one ability card to another player; only the receiver learns it."""
    table = _table(_kept(kept=["entertainment", "nike"]))
    ent, nike = table.state.seats[0].kept
    act(table, UseCard(0, ent, "entertainment", target=3, other=nike))
    s = table.state
    assert s.seats[3].kept == (nike,) and s.seats[0].kept == ()
    assert table.knowledge[3].card(nike) == "nike" and not table.knowledge[2].knows(nike)
    assert nike not in dict(s.open_cards)
    assert ("planet", "entertainment", 0, "entertainment") in s.events and ("card-given", 0, 3) in s.events
    assert s.claims[-1].what == "locke.keeps_ability"


def test_a_given_wildcard_may_be_chosen_again() -> None:
    """Seed 000 line 83: a wildcard fixed by use is chosen afresh by whoever receives it by gift."""
    table = _table(_kept(kept=["entertainment", "wildcard"]))
    ent, wild = table.state.seats[0].kept
    _run(table, pc.use_steps(0, wild, "cruiser"))
    assert table.state.wild == ((wild, "cruiser"),) and table.state.seats[0].shown == (wild,)
    act(table, UseCard(0, ent, "entertainment", target=2, other=wild))
    s = table.state
    assert s.wild == () and s.seats[2].shown == (wild,)
    assert pc.stands_for(s, wild) == "wildcard"


def test_shape_change_into_a_new_random_character() -> None:
    """Seed 000 lines 70-71: become someone else; the old card is set aside for good."""
    table = _table(_kept(kept=["shape-change"], seen_by=[2]))
    h = table.state.seats[0].kept[0]
    old = table.state.seats[0].character
    act(table, UseCard(0, h, "shape-change", choice="character"))
    s = table.state
    new = s.seats[0].character
    assert new != old and old in dict(s.zones)["chars:erased"]
    assert table.knowledge[0].card(new) not in (None, "locke-1")
    assert s.seats[0].seen_by == ()
    assert ("shape-changed", 0, "character") in s.events


def test_a_shape_change_into_a_character_drops_a_conversion() -> None:
    """KMC 2.2.1: a conversion was of the old card; the new character is not converted (it could
    otherwise destroy a key base as Good, engine/locke/claims.py good_now)."""
    table = _table(_kept(kept=["shape-change"], converted=True))
    h = table.state.seats[0].kept[0]
    act(table, UseCard(0, h, "shape-change", choice="character"))
    assert not table.state.seats[0].converted


def test_a_shape_change_into_a_character_leaves_the_damage_behind() -> None:
    """Seed 000 line 71, ruling N65: the new character is a wholly new person, so the old one's
    damage does not follow it (else 4 damage carried into a durability-4 card would leave a
    living seat with no durability it could honestly declare)."""
    table = _table(_kept(kept=["shape-change"], damage=4))
    h = table.state.seats[0].kept[0]
    act(table, UseCard(0, h, "shape-change", choice="character"))
    assert table.state.seats[0].damage == 0 and table.state.seats[0].alive


def test_shape_change_into_a_free_silhouette() -> None:
    """Seed 000 line 70: or change the silhouette card."""
    table = _table(_kept(kept=["shape-change"]))
    h = table.state.seats[0].kept[0]
    act(table, UseCard(0, h, "shape-change", choice="flora"))
    assert table.state.seats[0].silhouette == "flora"


def test_wildcard_stands_in_for_the_frontier() -> None:
    """Seed 000 line 83: the wildcard acts as any ability card; used once, it is that card."""
    table = _table(_kept(kept=["wildcard"], damage=1))
    h = table.state.seats[0].kept[0]
    act(table, UseCard(0, h, "frontier"))
    s = table.state
    assert ("planet", "wildcard", 0, "frontier") in s.events and s.seats[0].damage == 0
    assert s.wild == ()  # spent with the single-use card it stood for


def test_a_fixed_wildcard_cannot_change() -> None:
    """Seed 000 line 83: once used it stays what it was used as."""
    table = _table(_kept(kept=["wildcard"], damage=1))
    h = table.state.seats[0].kept[0]
    _run(table, pc.use_steps(0, h, "nike"))
    with pytest.raises(CheatDetected):
        _run(table, pc.use_steps(0, h, "cruiser"))


# --- residential district: re-roll ---------------------------------------------------------


def test_residential_district_rerolls_the_teleport_die() -> None:
    """Seed 000 line 79: once, roll the dice just rolled again."""
    table = _table(_kept(kept=["residential"]))
    h = table.state.seats[0].kept[0]
    act(table, Teleport(0, 3))
    roll(table, 6)
    assert waiting(table) == ("locke.reroll", 0)
    assert table.legal(0) == [Nop(0), UseCard(0, h, "residential")]
    act(table, UseCard(0, h, "residential"))
    assert isinstance(table.pending, Chance)  # the teleport die again
    roll(table, 2)
    act(table, Land(0, table.legal(0)[0].to))
    assert ("planet", "residential", 0, "residential") in table.state.events
    assert table.state.seats[0].kept == ()


def test_keeping_the_roll_applies_it_unchanged() -> None:
    """Seed 000 line 79: the re-roll is optional."""
    table = _table(_kept(kept=["nike"]))
    act(table, Teleport(0, 3))
    roll(table, 6)
    assert table.legal(0) == [Nop(0)]
    act(table, Nop(0))
    assert ("teleport-failed", 0, 3, 6) in table.state.events


# --- clone ----------------------------------------------------------------------------------


def test_clone_brings_a_dead_player_back_on_its_next_turn() -> None:
    """Seed 000 line 66, KMC 8: on the first turn dead, a held clone must be used; back on a spaceport."""
    seats = five(s2={"alive": False, "place": "", "kept": ["clone"], "damage": 4})
    table = _table(seats)
    act(table, Nop(0))
    assert waiting(table) == ("locke.clone", 2)
    h = table.state.seats[2].kept[0]
    assert table.legal(2) == [UseCard(2, h, "clone")]  # must use it
    act(table, UseCard(2, h, "clone"))
    assert waiting(table) == ("locke.clone_place", 2)
    act(table, Walk(2, "P:4:0"))
    p = table.state.seats[2]
    assert p.alive and p.damage == 0 and p.place == "P:4:0"
    assert ("planet", "clone", 2, "clone") in table.state.events


def test_a_wildcard_not_used_as_a_clone_on_the_first_dead_turn_never_can_be() -> None:
    """Seed 000 line 83: only on the first turn dead can a wildcard be the clone."""
    seats = five(s2={"alive": False, "place": "", "kept": ["wildcard"]})
    table = _table(seats)
    act(table, Nop(0))
    h = table.state.seats[2].kept[0]
    assert UseCard(2, h, "clone") in table.legal(2)
    act(table, Nop(2))
    assert h in table.state.no_clone
    assert not pc.takes_dead_turn(table.state, 2)


def test_a_wildcard_given_away_gets_a_clone_turn_of_its_own() -> None:
    """Seed 000 line 83: the receiver of a gift chooses the wildcard afresh, so the clone window
    its giver let pass (its own first dead turn) does not follow the card: the receiver may
    still use it as a clone on its own first dead turn."""
    seats = five(s2={"alive": False, "place": "", "kept": ["entertainment", "wildcard"]})
    table = _table(seats)
    act(table, Nop(0))
    ent, wild = table.state.seats[2].kept
    act(table, Nop(2))  # no clone this dead turn: the wildcard may never be seat 2's clone
    assert wild in table.state.no_clone
    s = table.state  # seat 2 is back (as an actually-alive check would bring it) and gives it away
    table.state = s._replace(seats=tuple(p._replace(alive=True, place="P:1:0") if i == 2 else p
                                         for i, p in enumerate(s.seats)))
    _run(table, (Gift(2, wild, 3),))  # the entertainment district's gift
    s = table.state
    assert s.seats[3].kept == (wild,) and wild not in s.no_clone
    assert ent in s.no_clone  # the giver's own cards keep their mark
    dead = s._replace(seats=tuple(p._replace(alive=False, place="") if i == 3 else p for i, p in enumerate(s.seats)))
    assert pc.takes_dead_turn(dead, 3)


def test_claiming_no_clone_while_holding_one_is_false() -> None:
    """Seed 000 line 66: a clone held must be used; saying none is a false claim."""
    from engine.core.claims import FalseClaim

    seats = five(s2={"alive": False, "place": "", "kept": ["clone"]})
    table = _table(seats)
    act(table, Nop(0))
    with pytest.raises(FalseClaim):
        table.feed(Nop(2))


# --- Evil-face exceptions -----------------------------------------------------------------------


def _to_base(seats: Any) -> Any:
    """The planet phase ends at once (every card is open) after seat 0's move."""
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "cells": {"P:1:1": "nike"}})
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, True))
    return table


def test_an_evil_face_uses_its_hidden_identify_card_when_the_planet_phase_ends() -> None:
    """Seed 000 line 109: an Evil face's initial identify-other card waits until the planet phase ends."""
    table = _to_base(five(s1={"kept": ["identify-other", "trap"]}))
    assert waiting(table) == ("locke.identity", 1)
    h = table.state.seats[1].kept[0]
    act(table, UseCard(1, h, "identify-other", target=0))
    assert table.knowledge[1].card(table.state.seats[0].character) == "locke-1"
    assert 1 in table.state.seats[0].seen_by
    assert ("evil-exception", "identity", 1) in table.state.events
    assert waiting(table) == ("locke.identity", 1)  # the trap card stays hidden, as seed 000 line 86 says
    assert table.legal(1) == [Nop(1)]
    act(table, Nop(1))
    place(table)
    assert table.state.phase == "base" and len(table.state.seats[1].kept) == 1


def test_an_evil_face_exposes_itself_when_the_planet_phase_ends() -> None:
    """Seed 000 line 109: an initial expose-self card is used once the planet phase is over."""
    table = _to_base(five(s1={"kept": ["expose-self"]}))
    h = table.state.seats[1].kept[0]
    act(table, UseCard(1, h, "expose-self"))
    assert table.state.seats[1].exposed


def test_an_evil_face_hiding_an_identity_card_is_a_false_claim() -> None:
    """Seed 000 line 109: the Evil face must use it then."""
    from engine.core.claims import FalseClaim

    table = _to_base(five(s1={"kept": ["expose-self"]}))
    with pytest.raises(FalseClaim):
        table.feed(Nop(1))


def test_an_evil_face_that_draws_an_information_card_counts_its_hidden_ones() -> None:
    """Seed 000 line 105: hidden initial information plus those drawn since: three end the phase."""
    seats = five(s1={"kept": ["information", "information", "henchman"], "place": "P:2:0"})
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 1, "fill": "information"})
    # a base player is on the board after an ambush (ruling N44); give it a turn
    act(table, Declare(1, False))
    act(table, Walk(1, "P:2:1"))
    act(table, Keep(1, False))
    assert waiting(table) == ("locke.evil_info", 1)
    legal = table.legal(1)
    assert len(legal) == 1 and isinstance(legal[0], InfoCheck) and len(legal[0].handles) == 2
    act(table, legal[0])
    assert table.state.seats[1].info == 3
    assert any(e[:2] == ("phase-change", "information") for e in table.state.events)


# --- combat-only kinds through the combat API -------------------------------------------------------

COMBAT_KINDS = [
    ("cruiser", "permanent"), ("henchman", "permanent"), ("esp-jammer-3", "until-broken"),
    ("esp-field-4", "until-broken"), ("energy-suit", "until-broken"), ("powered-suit-5", "until-broken"),
    ("nike", "until-broken"), ("subspace-field", "single-use"), ("esp-controller", "single-use"),
    ("absorb-ball-5", "single-use"), ("geoid-bomb", "single-use"), ("lafnor-mirror-6", "single-use"),
    ("industrial", "single-use"), ("slum", "single-use"),
]


@pytest.mark.parametrize("card,lifetime", COMBAT_KINDS)
def test_combat_kinds_are_revealed_checked_and_kept_or_spent_by_lifetime(card: str, lifetime: str) -> None:
    """Seed 000 lines 37-81: a kept card is turned up when used (hidden-card reveal); permanent and
    until-broken cards stay face up with the holder (held_items), single-use ones are spent."""
    table = _table(_kept(kept=[card]))
    h = table.state.seats[0].kept[0]
    s = _run(table, pc.use_steps(0, h, card))
    assert dict(s.open_cards)[h] == card and ("planet", pc.kind_of(card), 0, card) in s.events
    assert pc.held_items(s, 0) == ((h, card),)
    assert game().components.planet(card).lifetime == lifetime
    if lifetime == "single-use" or card == "nike":
        s = pc.spend(s, 0, h)
        assert pc.held_items(s, 0) == () and dict(s.zones)["planet:stock"][-1] == h


def test_a_dead_evil_face_uses_its_identity_card_when_a_clone_brings_it_back() -> None:
    """Seed 000 line 109, KMC 8: dead at the phase end, the Evil face uses it on revival (base phase)."""
    keys = {"B:1:2": "command-room", "B:3:3": "laboratory", "B:5:5": "computer-room", "B:6:6": "energy-room"}
    seats = five(s0={"place": "B:1:1"}, s1={"alive": False, "place": "", "kept": ["clone", "expose-self"]},
                 s2={"place": ""}, s3={"place": ""}, s4={"place": ""})
    table = table_at({"seats": seats, "phase": "base", "fill": "corridor", "turn_of": 1,
                      "placements": [{"zone": "keybases", "seat": 1, "cells": keys}]})
    assert waiting(table) == ("locke.clone", 1)
    clone, expose = table.state.seats[1].kept
    act(table, UseCard(1, clone, "clone"))
    act(table, Walk(1, "B:1:3"))
    assert waiting(table) == ("locke.identity", 1)
    assert table.legal(1) == [UseCard(1, expose, "expose-self")]
    act(table, UseCard(1, expose, "expose-self"))
    s = table.state
    assert s.seats[1].alive and s.seats[1].exposed and s.seats[1].place == "B:1:3"


def test_expose_self_turns_the_drawer_face_up_and_it_can_no_longer_refuse() -> None:
    """Seed 000 lines 115-116: the drawer's card is shown to all; no more refusals; the card is returned."""
    from engine.locke.declare import answerers

    table = _table(cells={"P:1:1": "expose-self"})
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, False))
    s = table.state
    assert s.seats[0].exposed and dict(s.open_cards)[s.seats[0].character] == "locke-1"
    assert 0 not in answerers(s, 2)
    assert dict(s.cells)["P:1:1"].handle is None and dict(s.cells)["P:1:1"].face_up == ""


def test_a_clone_revived_seat_goes_on_to_the_combat_phase_kmc_8_n66() -> None:
    """KMC 8 (dead state): the revived seat places its piece, then its turn goes on from the
    instruction phase, so the combat phase follows (ruling N66; issue 25 A6: the turn used to end
    right after the cell's instruction). Back on Locke's spaceport, Nia may declare a combat."""
    seats = five(s2={"alive": False, "place": "", "kept": ["clone"]})
    table = _table(seats)
    act(table, Nop(0))
    h = table.state.seats[2].kept[0]
    act(table, UseCard(2, h, "clone"))
    act(table, Walk(2, "P:1:0"))
    assert waiting(table) == ("locke.fight", 2)
    assert any(getattr(a, "target", None) == 0 for a in table.legal(2))


def test_a_clone_revived_seat_in_the_base_phase_gets_its_destruction_phase_kmc_8() -> None:
    """KMC 8 (ruling N66): back on an outer cell, the turn goes on; on the Nova the revived seat
    is offered its try in the destruction phase (issue 25 A6: the turn used to end first)."""
    keys = {"B:1:2": "command-room", "B:3:3": "laboratory", "B:5:5": "computer-room", "B:6:6": "energy-room"}
    seats = five(s0={"place": "B:6:1"}, s1={"place": ""}, s2={"alive": False, "place": "", "kept": ["clone"]},
                 s3={"place": ""}, s4={"place": ""})
    table = table_at({"seats": seats, "phase": "base", "fill": "corridor", "turn_of": 2,
                      "cells": {"B:1:1": {"face_up": "nova"}},
                      "placements": [{"zone": "keybases", "seat": 1, "cells": keys}]})
    assert waiting(table) == ("locke.clone", 2)
    act(table, UseCard(2, table.state.seats[2].kept[0], "clone"))
    act(table, Walk(2, "B:1:1"))
    assert waiting(table) == ("locke.nova", 2)

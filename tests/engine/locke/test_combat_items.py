"""Items of the character cards in combat (KMC 2.3, 10.3.2, 10.4.2, 10.7): a scenario per item,
each use a claim that the character carries it. Seat 0 is Locke-1 unless a test says otherwise;
the fighters are seat 0 (fighter 0) and seat 2 (fighter 1) on Locke's cell."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import IllegalAction
from engine.locke import claims as ck
from engine.locke.actions import CheckValue, Nop
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Absorb, Durability, Equip, JamVeto, Play, ShipEffect, UseItem
from tests.engine.locke.combat_helpers import card, combat_table, fight, hand, seven
from tests.engine.locke.flow_helpers import act, five, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)
NIA_FIRST = (1, 1, 6, 6)


def _seats(s0: str = "locke-1", s2: str = "nia") -> list[dict[str, Any]]:
    faces = {"locke-1": "locke", "nia": "nia", "nagato": "tres", "francis": "francis", "lord-leon": "lord-leon",
             "dr-wong": "dr-wong", "strohheim-e": "soi", "octavius": "flora", "yamaki-1": "yamaki-1",
             "cornelia": "leticia", "strohheim-s": "strohheim-s"}
    over: dict[str, Any] = {"s2": {"character": s2, "silhouette": faces[s2], "place": "P:1:0"},
                            "s0": {"character": s0, "silhouette": faces[s0]}}
    if "yamaki-1" in (s0, s2):
        over["s3"] = {"character": "ran-g", "silhouette": "ran-g"}
    return five(**over)


def _table(s0: str = "locke-1", s2: str = "nia", first: tuple[int, ...] = LOCKE_FIRST, deck0: tuple[str, ...] = (),
           deck2: tuple[str, ...] = (), equip: dict[int, Equip] | None = None) -> Any:
    extra0 = 1 if equip and 0 in equip and equip[0].henchmen else 0
    table = combat_table(seats=_seats(s0, s2), deck=seven(*deck0) + ["*"] * extra0 + seven(*deck2), equip=equip)
    roll(table, *first)
    return table


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


# --- declarations (KMC 10.3.2) -------------------------------------------------------------------


def test_declared_henchmen_bring_a_card_and_are_a_claim() -> None:
    """KMC 2.3.1 henchman: declared before the initiative, one more card each."""
    table = _table(s0="cornelia", equip={0: Equip(0, 1, "", False)})
    assert len(fight(table).fighters[0].hand) == 8 and fight(table).fighters[0].henchmen == 1
    assert any(c.what == cc.ITEM and c.value == ["henchman", 1] for c in table.state.claims)


def test_declaring_henchmen_one_does_not_have_is_caught() -> None:
    """KMC 2.3: Nia has no henchmen; the declaration is a false claim naming her seat."""
    with pytest.raises(FalseClaim) as err:
        combat_table(seats=_seats(), equip={2: Equip(2, 1, "", False)})
    assert err.value.seat == 2 and err.value.claim.what == cc.ITEM


def test_the_honest_declaration_lists_only_ones_own_items() -> None:
    """KMC 10.3.2: Yamaki-1 may declare his P-suit and his ESP field; Nia nothing."""
    from engine.locke.state import Combat
    from engine.locke.combat.flow import begin
    from tests.engine.locke.flow_helpers import decline_joins, game, table_at

    table = table_at({"seats": _seats(s2="yamaki-1"), "phase": "planet", "turn_of": 0, "fill": "frontier"})
    table.state = game().settle(begin(table.state, Combat("declared", "P:1:0", ((0,), (2,)))))
    decline_joins(table)  # the others may say they were actually there (seed 002, N117)
    table.step()  # the shuffle
    assert table.legal(0) == [Equip(0, 0, "", False)]
    act(table, Equip(0, 0, "", False))
    options = table.legal(2)
    assert Equip(2, 0, "powered-suit", True) in options and Equip(2, 0, "energy-suit", False) not in options


# --- special attacks (KMC 10.4.2) ----------------------------------------------------------------------


def test_a_ship_fires_from_the_ship_support_chart_and_the_turn_goes_on() -> None:
    """KMC 2.3.1 ship, seed 002 ship support: 3 is a G-bomb (5, 30); the normal action is still to come."""
    table = _table(s0="lord-leon")
    act(table, UseItem(0, "ship", 1))
    roll(table, 1, 2)
    assert _events(table, "cb-ship")[-1][2] == "g-bomb" and table.legal(0) == [ShipEffect(0, "g-bomb")]
    act(table, ShipEffect(0, "g-bomb"))  # N226: a "ship" says what it does, a claim about the card
    act(table, Nop(2))
    act(table, Nop(2))
    act(table, Durability(2, 4))
    roll(table, 3, 3)
    assert waiting(table) == ("locke.cb_act", 0)
    assert UseItem(0, "ship", 1) not in table.legal(0)  # once a round
    with pytest.raises(IllegalAction):
        table.feed(UseItem(0, "ship", 1))


def test_a_ship_misfire_hits_its_owner() -> None:
    """Seed 002 ship support 12: a beam cannon at oneself."""
    table = _table(s0="lord-leon")
    act(table, UseItem(0, "ship", 1))
    roll(table, 6, 6)
    act(table, ShipEffect(0, "misfire"))
    roll(table, 6)  # firepower 20
    assert waiting(table) == ("locke.cb_dur", 0)


def test_a_ship_one_does_not_have_is_a_false_claim() -> None:
    """KMC 2.3: Locke has no ship (nor a beam cannon or geoid bomb it could announce as one,
    N226): what his "ship" does is a false claim about his card."""
    table = _table()
    act(table, UseItem(0, "ship", 1))
    roll(table, 1, 2)
    with pytest.raises(FalseClaim) as err:
        table.feed(ShipEffect(0, "g-bomb"))
    assert err.value.seat == 0 and err.value.claim.what == cc.SHIP


def test_the_geoid_bomb_fires_on_six_or_less_and_knocks_out_on_ten() -> None:
    """KMC 2.3.1 geoid bomb: 2d6 of 6 or less fires level 7, 100; 10 or more knocks Dr. Wong out."""
    table = _table(s0="dr-wong")
    act(table, UseItem(0, "geoid-bomb", 1))
    roll(table, 1, 2)
    assert waiting(table) == ("locke.cb_escape", 2)
    table = _table(s0="dr-wong")
    act(table, UseItem(0, "geoid-bomb", 1))
    roll(table, 5, 5)
    assert fight(table).fighters[0].fainted and _events(table, "cb-fainted")


def test_e_strohheims_beam_cannon_rolls_its_firepower() -> None:
    """KMC 2.3.1 beam cannon: a special attack, firepower from the chart, no card, no power."""
    table = _table(s0="strohheim-e")
    act(table, UseItem(0, "beam-cannon", 1))
    roll(table, 4)
    assert _events(table, "cb-firepower")[-1][-1] == 16 and waiting(table) == ("locke.cb_escape", 2)


# --- answers to an attack (KMC 10.7) ------------------------------------------------------------------


def test_the_psycho_pod_stops_an_attack_on_four_or_less() -> None:
    """KMC 2.3.1 psycho-pod: like the card, up to level 6, on 1d6 of 1-4."""
    table = _table(s2="nagato", deck0=("blaster-4",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, UseItem(2, "psycho-pod", -1))
    roll(table, 3)
    assert _events(table, "cb-defend")[-1][-1] == "psycho-pod"


def test_the_psycho_pod_fails_on_five() -> None:
    table = _table(s2="nagato", deck0=("blaster-4",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, UseItem(2, "psycho-pod", -1))
    roll(table, 5)
    assert waiting(table) == ("locke.cb_dur", 2)


def test_the_lafnor_mirror_escapes_at_level_seven_unblocked() -> None:
    """KMC 2.3.1 mirror: 1d6 of 1-4, a level-7 escape nobody can block; then 1d6 of movement."""
    table = _table(s2="francis", deck0=("blaster-4", "teleport-7"))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, UseItem(2, "lafnor-mirror", -1))
    roll(table, 2)
    roll(table, 3)
    assert waiting(table) == ("locke.cb_land", 2)


def test_the_subspace_field_escapes_on_nine_or_less() -> None:
    """KMC 2.3.1 subspace field: 2d6 of 9 or less escapes at level 7."""
    table = _table(s2="dr-wong", deck0=("bazooka-7",))
    act(table, card(table, 0, "attack", "bazooka-7", target=1))
    act(table, UseItem(2, "subspace-field", -1))
    roll(table, 4, 4)
    roll(table, 1)
    assert waiting(table) == ("locke.cb_land", 2)


# --- suits and the field (KMC 2.3.2) ------------------------------------------------------------------


def test_the_hell_diver_suit_takes_the_hit_instead_of_the_body() -> None:
    """KMC 2.3.2 H-suit: durability 8, checked in place of the body."""
    table = _table(s2="strohheim-e", deck0=("blaster-6",), equip={2: Equip(2, 0, "hell-diver-suit", False)})
    act(table, card(table, 0, "attack", "blaster-6", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    roll(table, 2, 2)
    hit = _events(table, "cb-suit-hit")[-1]
    assert hit[1:3] == (2, "hell-diver-suit") and hit[4] == 8 and table.state.seats[2].damage == 0


def test_the_energy_suit_throws_back_an_attack_whose_level_check_fails() -> None:
    """KMC 2.3.2 E-suit, KMC 11.2 (1): the attacker declares its ESP level (a claim) and checks it;
    failing, it is hit itself."""
    table = _table(s2="octavius", deck0=("blaster-4",), equip={2: Equip(2, 0, "energy-suit", False)})
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    assert waiting(table) == ("locke.check_value", 0)
    act(table, CheckValue(0, 6))
    assert table.state.claims[-1].what == ck.STAT_NOW and table.state.claims[-1].value[:3] == ["level", "le", 6]
    roll(table, 6, 6)  # 12 > 6: thrown back
    assert _events(table, "cb-reflect")[-1][-1] is True and waiting(table) == ("locke.cb_dur", 0)


def test_the_reflection_check_is_made_at_the_declared_level_not_the_cards() -> None:
    """KMC 11.2 (1): Locke (level 6) fires a level-2 blaster and declares 6: a 5 passes, where the
    card's level would have thrown the attack back; the suit takes the hit."""
    table = _table(s2="octavius", deck0=("blaster-4",), equip={2: Equip(2, 0, "energy-suit", False)})
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    act(table, CheckValue(0, 6))
    roll(table, 2, 3)
    assert _events(table, "cb-reflect")[-1] == ("cb-reflect", 2, False)
    roll(table, 2, 2)  # the suit's damage check (durability 5)
    assert _events(table, "cb-suit-hit")[-1][1:3] == (2, "energy-suit") and table.state.seats[2].damage == 0


def test_declaring_a_reflection_level_above_ones_own_is_a_false_claim() -> None:
    """KMC 11.2 (1): the declared level may not pass the level one can use now."""
    table = _table(s0="nia", s2="octavius", deck0=("blaster-4",), equip={2: Equip(2, 0, "energy-suit", False)})
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    with pytest.raises(FalseClaim) as err:
        table.feed(CheckValue(0, 6))  # Nia's level is 4
    assert err.value.seat == 0


def test_nike_hits_the_energy_suit_with_no_check() -> None:
    """KMC 2.3.2 E-suit: Nike's attack hits the suit without a reflection check."""
    table = combat_table(seats=_seats(s0="strohheim-s", s2="octavius"), deck=seven() + seven(),
                         equip={0: Equip(0, 0, "", False, -1, 10), 2: Equip(2, 0, "energy-suit", False)})
    roll(table, 3, 3)  # the Nike check
    roll(table, *LOCKE_FIRST)
    act(table, UseItem(0, "nike", 1))
    assert not _events(table, "cb-reflect")
    roll(table, 2, 2)  # the suit's damage check
    assert _events(table, "cb-suit-hit")[-1][1:3] == (2, "energy-suit") and table.state.seats[2].damage == 0


def test_nike_is_not_absorbed_by_the_powered_suit() -> None:
    """KMC 2.3.2 P-suit: Nike's attack cannot be absorbed; it hits the body."""
    table = combat_table(seats=_seats(s0="strohheim-s", s2="yamaki-1"), deck=seven() + seven(),
                         equip={0: Equip(0, 0, "", False, -1, 10), 2: Equip(2, 0, "powered-suit", False)})
    roll(table, 3, 3)
    roll(table, *LOCKE_FIRST)
    act(table, UseItem(0, "nike", 1))
    assert waiting(table) == ("locke.cb_dur", 2)  # no absorb question: the body takes it
    assert not _events(table, "cb-suit-absorbs")


def test_the_powered_suit_absorbs_up_to_its_level_as_a_claim() -> None:
    """KMC 2.3.2 P-suit: Yamaki-1's suit (level 3) absorbs a bazooka; saying it breaks is false."""
    table = _table(s2="yamaki-1", deck0=("bazooka-7",), equip={2: Equip(2, 0, "powered-suit", False)})
    act(table, card(table, 0, "attack", "bazooka-7", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    assert table.legal(2) == [Absorb(2, True)]
    with pytest.raises(FalseClaim) as err:
        table.feed(Absorb(2, False))
    assert err.value.seat == 2 and err.value.claim.what == cc.PSUIT
    act(table, Absorb(2, True))
    assert _events(table, "cb-suit-absorbs")


def test_the_esp_field_pays_for_cards_up_to_its_level() -> None:
    """KMC 2.3.2 field: Yamaki-1 (level 0) plays a bazooka through his level-3 field, no power;
    a beam cannon (level 4) through it is a false claim."""
    table = _table(s2="yamaki-1", first=NIA_FIRST, deck2=("bazooka-8", "beam-cannon-12"),
                   equip={2: Equip(2, 0, "", True)})
    plays = [a for a in table.legal(2) if isinstance(a, Play) and a.field]
    assert plays and all(a.card != "beam-cannon-12" for a in plays)
    with pytest.raises(FalseClaim) as err:
        table.feed(Play(2, "attack", hand(table, 2)["beam-cannon-12"], "beam-cannon-12", "", 0, 0, 0, 0, True))
    assert err.value.claim.what == cc.FIELD
    act(table, Play(2, "attack", hand(table, 2)["bazooka-8"], "bazooka-8", "", 0, 0, 0, 0, True))
    assert fight(table).fighters[1].spent == 0 and table.state.claims[-1].what == cc.FIELD
    assert waiting(table) == ("locke.cb_escape", 0)


# --- a player's jammer and Nike (KMC 10.10, 2.3.2) --------------------------------------------------


def _jammed() -> Any:
    seats = _seats(s0="strohheim-e")
    table = combat_table(seats=seats, deck=seven() + seven("bazooka-10", "beam-cannon-12", "g-bomb-25"),
                         equip={0: Equip(0, 0, "", False, 1)})
    roll(table, *NIA_FIRST)
    return table


def test_a_jammer_of_hidden_level_stops_a_card_as_a_claim_and_the_player_chooses_again() -> None:
    """KMC 10.10: E-Strohheim's jammer (level 4) is on Nia; he stops her bazooka (a true claim);
    she takes it back and may not try that level again."""
    table = _jammed()
    act(table, card(table, 2, "attack", "bazooka-10", target=0))
    assert waiting(table) == ("locke.cb_jam_ask", 0)
    act(table, JamVeto(0, True))
    assert table.state.claims[-1].what == cc.JAMMER and _events(table, "cb-jam-veto")
    assert waiting(table) == ("locke.cb_act", 2) and "bazooka-10" in hand(table, 2)
    assert all(a.card != "bazooka-10" for a in table.legal(2) if isinstance(a, Play))
    assert fight(table).fighters[1].spent == 0


def test_stopping_a_card_above_the_jammer_is_a_false_claim() -> None:
    """KMC 10.10: a G-bomb (level 5) is above E-Strohheim's level-4 jammer: saying it cannot be used is false."""
    table = _jammed()
    act(table, card(table, 2, "attack", "g-bomb-25", target=0, stretch=1, mind=5))
    roll(table, 1, 1)  # her mind check: a try that fails is passed over in silence, so it comes first
    assert table.legal(0) == [JamVeto(0, False)]
    with pytest.raises(FalseClaim) as err:
        table.feed(JamVeto(0, True))
    assert err.value.seat == 0 and err.value.claim.what == cc.JAMMER


def test_what_the_jammers_owner_answered_is_known_and_never_asked_again() -> None:
    """KMC 10.10 (the unknown-level jammer) with N184: each answer about E-Strohheim's jammer
    (level 4, on Nia) is a claim and is recorded. Elmi, not jammed, hits him with a level-3
    bazooka: "broken" would be false (caught); "holds" makes the jammer known to reach 3, so
    Nia may not even try a level-3 card, and a second level-3 hit asks nothing. Nia's level-5
    G-bomb (its mind check passed) waits for him: stopping it would be false (caught); letting
    it work claims the jammer is below 5, so a level-5 card is not put to him again, while a
    level-4 one still is."""
    from engine.locke.combat.actions import Broken
    from engine.locke.combat.common import jam_asks
    from tests.engine.locke.flow_helpers import game

    seats = five(s0={"character": "strohheim-e", "silhouette": "soi"},
                 s2={"character": "nia", "silhouette": "nia", "place": "P:1:0"},
                 s4={"place": "P:1:0"})
    table = combat_table(sides=((0,), (2, 4)), seats=seats,
                         deck=seven() + seven("bazooka-10", "g-bomb-25") + seven("bazooka-8", "bazooka-9"),
                         equip={0: Equip(0, 0, "", False, 1)})
    assert [f.seat for f in fight(table).fighters] == [0, 2, 4] and fight(table).fighters[1].jam_owner == 0
    roll(table, 1, 1, 3, 3, 6, 6)  # Elmi, Nia, Strohheim
    act(table, card(table, 4, "attack", "bazooka-8", target=0))
    while waiting(table)[0] != "locke.cb_break":  # Nia does not sync, Strohheim does not escape
        act(table, Nop(waiting(table)[1]))
    assert waiting(table) == ("locke.cb_break", 0) and table.legal(0) == [Broken(0, False)]
    before = table.state
    with pytest.raises(FalseClaim) as err:
        table.feed(Broken(0, True))
    assert err.value.seat == 0 and table.state is before
    act(table, Broken(0, False))
    assert fight(table).fighters[1].jam_known == 3
    from engine.core.pending import Chance

    while isinstance(table.pending, Chance) or waiting(table) != ("locke.cb_act", 2):
        if isinstance(table.pending, Chance):
            roll(table, *(4,) * len(table.pending.dice))
            continue
        options = table.legal(waiting(table)[1])
        act(table, next((a for a in options if isinstance(a, Durability)), Nop(waiting(table)[1])))
    assert all(a.card != "bazooka-10" for a in table.legal(2) if isinstance(a, Play))
    with pytest.raises(IllegalAction) as bad:
        table.feed(card(table, 2, "attack", "bazooka-10", target=0))
    assert bad.value.rule == "locke.10.10"
    act(table, card(table, 2, "attack", "g-bomb-25", target=0, stretch=1, mind=5))
    roll(table, 1, 1)  # her mind check
    assert waiting(table) == ("locke.cb_jam_ask", 0) and table.legal(0) == [JamVeto(0, False)]
    with pytest.raises(FalseClaim):
        table.feed(JamVeto(0, True))
    act(table, JamVeto(0, False))
    assert table.state.claims[-1].what == cc.JAM_PASS and table.state.claims[-1].value == 5
    f, cards = fight(table), game().components
    assert f.fighters[1].jam_through == 5
    assert not jam_asks(f, f.fighters[1], cards.combat_card("g-bomb-30"))
    assert jam_asks(f, f.fighters[1], cards.combat_card("beam-cannon-12"))  # level 4: not known yet
    assert waiting(table) == ("locke.cb_escape", 0)


def test_letting_a_card_through_a_jammer_that_reaches_it_is_a_false_claim() -> None:
    """KMC 10.10: a card that works shows the jammer is below it; E-Strohheim letting Nia's
    level-3 bazooka work under his level-4 jammer is caught naming him."""
    table = _jammed()
    act(table, card(table, 2, "attack", "bazooka-10", target=0))
    assert table.legal(0) == [JamVeto(0, True)]
    with pytest.raises(FalseClaim) as err:
        table.feed(JamVeto(0, False))
    assert err.value.seat == 0 and err.value.claim.what == cc.JAM_PASS


def test_a_failed_try_under_a_jammer_is_passed_over_in_silence() -> None:
    """KMC 10.10: when a try fails (here Nia's mind check for the stretched G-bomb) the jammer's
    owner may stay silent whatever the levels: he is not asked, and she loses card and power."""
    table = _jammed()
    act(table, card(table, 2, "attack", "g-bomb-25", target=0, stretch=1, mind=5))
    roll(table, 6, 6)  # the mind check fails
    assert not any(c.what in (cc.JAMMER, cc.JAM_PASS) for c in table.state.claims)
    assert "g-bomb-25" not in hand(table, 2) and fight(table).before is None
    assert waiting(table)[0] != "locke.cb_jam_ask"


def test_nike_attacks_unstoppably_and_takes_the_hits() -> None:
    """KMC 2.3.2 Nike: after a passed check (10 or less for S-Strohheim) its attack (20) cannot be
    escaped or defended, and attacks on its user hit Nike (durability 10)."""
    table = combat_table(seats=_seats(s0="strohheim-s"), deck=seven() + seven("blaster-4"),
                         equip={0: Equip(0, 0, "", False, -1, 10)})
    roll(table, 3, 3)  # the Nike check
    assert fight(table).fighters[0].nike_on
    roll(table, *LOCKE_FIRST)
    assert all(not isinstance(a, Play) for a in table.legal(0)) and UseItem(0, "nike", 1) in table.legal(0)
    act(table, UseItem(0, "nike", 1))
    assert waiting(table) == ("locke.cb_dur", 2)
    act(table, Durability(2, 4))
    roll(table, 3, 3)
    assert UseItem(0, "nike", 1) not in table.legal(0)  # the normal action is spent; the turn goes on (N235)
    act(table, Nop(0))
    act(table, card(table, 2, "attack", "blaster-4", target=0))
    assert table.legal(0) == [Nop(0)]  # no escape while using Nike
    act(table, Nop(0))
    act(table, Nop(0))
    roll(table, 2, 2)
    assert _events(table, "cb-suit-hit")[-1][1:3] == (0, "nike") and table.state.seats[0].damage == 0


def test_a_nike_check_of_eleven_knocks_out() -> None:
    table = combat_table(seats=_seats(s0="strohheim-s"), deck=seven(), equip={0: Equip(0, 0, "", False, -1, 10)})
    roll(table, 5, 6)
    assert fight(table).fighters[0].fainted and not fight(table).fighters[0].nike_on

"""Combat scenarios (KMC 10, fig. 10.2, ch. 5): one test per step of the attack path and
per card mechanic, on a trusted LocalTable with the combat deck stacked and the dice given.

Fighters are numbered in the order of the combat's sides: side 0's seats, side 1's seats,
then the obstacles. Seat 0 is Locke-1 (level 6, power 50, durability 6, mind 8), seat 2 Nia
(level 4, power 20, durability 4, mind 5), seat 4 Elmi (level 6, power 40, durability 3, mind 4).
"""

from __future__ import annotations

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import IllegalAction
from engine.core.pending import Chance
from engine.locke.actions import Land, Nop
from engine.locke.chart_data import POLICE_TRAITS
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Durability, GoOn, Play, Sleep
from engine.locke.combat.common import HIT_ALL, COMBINED, NO_SLEEP, put
from engine.locke.combat.model import ASLEEP, Obstacle
from tests.engine.locke.combat_helpers import card, combat_table, fight, hand, seven
from tests.engine.locke.flow_helpers import act, five, roll, waiting

NIA_FIRST = (1, 1, 6, 6)  # initiative (KMC 10.3.3): fighter 0 rolls 2, fighter 1 rolls 12
LOCKE_FIRST = (6, 6, 1, 1)


def _duel(locke: list[str], nia: list[str], first: tuple[int, ...] = LOCKE_FIRST):  # type: ignore[no-untyped-def]
    table = combat_table(deck=locke + nia)
    roll(table, *first)
    return table


def _events(table, kind):  # type: ignore[no-untyped-def]
    return [e for e in table.state.events if e[0] == kind]


# --- the round: deal, initiative (KMC 10.3) ----------------------------------------------------


def test_hands_are_dealt_privately_from_the_shuffled_deck() -> None:
    """KMC 5, 10.3.1: seven cards each, dealt through the hidden-card deal; nobody else knows them."""
    table = combat_table(deck=seven("bazooka-10") + seven("esp-shield"))
    f = fight(table)
    assert [len(x.hand) for x in f.fighters] == [7, 7]
    assert all(table.knowledge[0].knows(h) for h in f.fighters[0].hand)
    assert not any(table.knowledge[2].knows(h) or table.knowledge[4].knows(h) for h in f.fighters[0].hand)
    assert "bazooka-10" in hand(table, 0) and "esp-shield" in hand(table, 2)
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.initiative" and len(pending.dice) == 4


# --- attack, defence, hit (KMC 10.6, 10.7.3, 10.7.4) --------------------------------------------


def test_an_attack_card_defended_by_a_defence_card_of_its_level() -> None:
    """KMC 10.7.3: a defence card of the attack's level or higher stops it; power pays the level used."""
    table = _duel(seven("bazooka-10"), seven("esp-shield", "esp-block"))
    assert waiting(table) == ("locke.cb_act", 0)
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    assert waiting(table) == ("locke.cb_escape", 2)
    act(table, Nop(2))
    assert waiting(table) == ("locke.cb_defend", 2)
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 2, "defend", "esp-block"))  # level 2 < 3
    assert err.value.rule == "locke.10.7.3"
    act(table, card(table, 2, "defend", "esp-shield"))
    assert _events(table, "cb-defend") and fight(table).fighters[0].spent == 3
    assert [c.what for c in table.state.claims[-4:]] == [cc.CARD, cc.USE, cc.CARD, cc.USE]


def test_a_hit_reads_the_declared_durability_on_the_damage_table() -> None:
    """KMC 10.7.4: the target declares its durability (a claim), the attacker's dice read the table."""
    table = _duel(seven("bazooka-10"), seven("raygun-2"))
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    assert waiting(table) == ("locke.cb_dur", 2) and table.legal(2) == [Durability(2, 4)]
    act(table, Durability(2, 4))
    roll(table, 3, 3)  # 10 against 4: the 2:1 column, row 6
    hit = _events(table, "cb-hit")[-1]
    assert hit[1] == 0 and hit[2] == 2 and hit[3] == ["2-1@6"]
    assert table.state.seats[2].damage == hit[4] - hit[5] > 0


def test_a_light_sword_passes_every_defence_card_and_cannot_be_synced() -> None:
    """KMC 5.1: no defence card stops a light sword; nobody syncs it."""
    table = _duel(seven("light-sword-5-30"), seven("esp-psycho-pod"))
    act(table, card(table, 0, "attack", "light-sword-5-30", target=1))
    act(table, Nop(2))
    assert [a for a in table.legal(2) if isinstance(a, Play)] == []
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 2, "defend", "esp-psycho-pod"))
    assert err.value.rule == "locke.10.7.3"
    act(table, Nop(2))
    assert waiting(table) == ("locke.cb_dur", 2)


def test_level_seven_cannot_be_defended_by_cards() -> None:
    """KMC 5.2: defence cards go up to level 6; a level-7 attack passes them."""
    table = _duel(seven("geoid-bomb-100"), seven("esp-psycho-pod"))
    act(table, card(table, 0, "attack", "geoid-bomb-100", target=1, stretch=1, mind=8))  # Locke is level 6
    roll(table, 2, 2)  # the mind check passes (KMC 10.5.1)
    act(table, Nop(2))
    assert [a for a in table.legal(2) if isinstance(a, Play)] == []


# --- syncs (KMC 10.8) ----------------------------------------------------------------------------


def _three():  # type: ignore[no-untyped-def]
    seats = five(s2={"place": "P:1:0"}, s4={"place": "P:1:0"})
    table = combat_table(sides=((0, 4), (2,)), seats=seats,
                         deck=seven("blaster-6") + seven("blaster-5", "bazooka-7")
                         + seven("esp-shield", "esp-block"))
    roll(table, 6, 6, 2, 5, 1, 1)  # Locke, Elmi, Nia
    return table


def test_a_player_whose_turn_is_to_come_syncs_and_loses_its_normal_action() -> None:
    """KMC 10.8, 10.8.1: a sync at or below the attack's level adds one level and its firepower."""
    table = _three()
    act(table, card(table, 0, "attack", "blaster-6", target=2))
    assert waiting(table) == ("locke.cb_sync", 4)
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 4, "sync", "bazooka-7"))  # level 3 above the attack's 2
    assert err.value.rule == "locke.10.8"
    act(table, card(table, 4, "sync", "blaster-5"))
    assert _events(table, "cb-sync")[-1][2:] == (3, 11)
    act(table, Nop(2))  # no escape
    with pytest.raises(IllegalAction):
        table.feed(card(table, 2, "defend", "esp-block"))  # the synced attack is level 3 now
    act(table, card(table, 2, "defend", "esp-shield"))
    act(table, Nop(0))  # KMC 10.4: Locke's turn comes back after his attack (N235); he passes
    # KMC 10.4.1 (N150): Elmi's turn keeps no normal action; with no special attack she can only pass
    assert waiting(table) == ("locke.cb_act", 4) and table.legal(4) == [Nop(4)]
    act(table, Nop(4))
    assert waiting(table) == ("locke.cb_act", 2)


def test_henchmen_sync_their_masters_attack_at_level_two_or_less() -> None:
    """KMC 10.8 / 2.3: a henchman syncs the master's attack with a card of level 2 or less, for free."""
    table = combat_table(henchmen=1, deck=seven("bazooka-8", "raygun-3", "blaster-4") + ["raygun-2"] + seven("raygun-1"))
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "bazooka-8", target=1))
    assert waiting(table) == ("locke.cb_hench", 0)
    act(table, card(table, 0, "hench", "raygun-3"))
    assert _events(table, "cb-sync")[-1][2:] == ("henchman", 4, 11)
    assert fight(table).fighters[0].spent == 3  # the henchman's card cost nothing


# --- escape and teleport blocks (KMC 10.7.2, 10.9) -----------------------------------------------


def test_a_teleport_escape_moves_the_escaper_out_of_the_combat() -> None:
    """KMC 10.7.2, 10.11: a teleport at least the attack's level escapes; 1d6 moves it like a level teleport."""
    table = _duel(seven("blaster-4", "teleport-1"), seven("teleport-3"))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, card(table, 2, "escape", "teleport-3"))
    assert waiting(table) == ("locke.cb_block", 0)
    act(table, Nop(0))
    roll(table, 2)
    assert waiting(table) == ("locke.cb_land", 2)
    land = table.legal(2)[0]
    assert isinstance(land, Land)
    act(table, land)
    assert table.state.seats[2].place == land.to
    assert table.state.combat is None  # nobody left to fight (KMC 10.3.5)
    assert _events(table, "cb-escape")[-1][1:] == (2, land.to)


def test_a_higher_teleport_blocks_the_escape_and_the_attack_hits() -> None:
    """KMC 10.9: a block above the teleport's level stops it; having tried, the target cannot defend."""
    table = _duel(seven("blaster-4", "teleport-4"), seven("teleport-3", "esp-shield"))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, card(table, 2, "escape", "teleport-3"))
    act(table, card(table, 0, "block", "teleport-4"))
    assert _events(table, "cb-block")
    assert waiting(table) == ("locke.cb_dur", 2)  # no defence phase after an escape try (KMC 10.7)


def test_a_block_that_falls_short_gives_its_card_and_power_back() -> None:
    """KMC 10.9 note, ruling N146: a block at or below the teleport's level fails and is returned."""
    table = _duel(seven("blaster-4", "teleport-2"), seven("teleport-3"))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, card(table, 2, "escape", "teleport-3"))
    act(table, card(table, 0, "block", "teleport-2"))
    assert _events(table, "cb-block-short")
    assert "teleport-2" in hand(table, 0) and fight(table).fighters[0].spent == 2  # the blaster's 2 only


def test_fleeing_on_ones_own_turn() -> None:
    """KMC 10.4.1: a teleport is a normal action that escapes the combat."""
    table = _duel(seven("teleport-2"), seven("raygun-2"))
    act(table, card(table, 0, "flee", "teleport-2"))
    act(table, Nop(2))  # Nia does not block
    roll(table, 1)
    act(table, table.legal(0)[0])
    assert _events(table, "cb-escape")[-1][1] == 0


# --- illusion (KMC 5.3.2) --------------------------------------------------------------------------


def test_an_illusion_puts_the_attacker_to_sleep_and_the_user_escapes() -> None:
    """KMC 5.3.2, table 5.4: above level + mind one must sleep; all others asleep: the user escapes."""
    table = _duel(seven("blaster-4"), seven("illusion-4"))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, card(table, 2, "escape", "illusion-4"))
    roll(table, 6, 6)  # 4 + 12 = 16 > Locke's 6 + 8
    assert waiting(table) == ("locke.cb_sleep", 0) and table.legal(0) == [Sleep(0, True)]
    before = table.state
    with pytest.raises(FalseClaim) as err:
        table.feed(Sleep(0, False))
    assert err.value.seat == 0 and err.value.claim.what == cc.AWAKE and table.state is before
    act(table, Sleep(0, True))
    assert fight(table).fighters[0].state == ASLEEP and _events(table, "cb-illusion-stops")
    assert _events(table, "cb-illusion-escape")


def test_staying_awake_under_an_illusion_is_a_claim_and_the_attack_goes_on() -> None:
    """Table 5.4: at or below level + mind a player may stay awake; the escape failed, the attack hits."""
    table = _duel(seven("blaster-4"), seven("illusion-4"))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, card(table, 2, "escape", "illusion-4"))
    roll(table, 1, 1)  # 6 <= 14
    act(table, Sleep(0, False))
    assert table.state.claims[-1].what == cc.AWAKE
    assert waiting(table) == ("locke.cb_dur", 2)


def test_machines_cannot_be_answered_by_an_illusion() -> None:
    """KMC 10.7.2: no illusion against a machine's attack."""
    car = Obstacle("armored-car", 4, 0, 8, weapon="beam-cannon", traits=("machine", NO_SLEEP), weapon_level=4)
    table = combat_table(sides=((0,), ()), obstacles=(car,), deck=seven("illusion-7", "teleport-5"))
    roll(table, 1, 1, 6, 6)  # the car first
    roll(table, 3)  # beam cannon: 14
    assert waiting(table) == ("locke.cb_escape", 0)
    uses = {(a.card, a.use) for a in table.legal(0) if isinstance(a, Play)}
    assert ("teleport-5", "escape") in uses and ("illusion-7", "escape") not in uses


# --- contact telepathy, wildcard, mind stretching ---------------------------------------------------


def test_contact_telepathy_shows_the_target_to_everyone_awake_in_the_combat() -> None:
    """KMC 5.4: a level check with no power cost; on success the players in the combat see the card."""
    table = _duel(seven("contact-telepathy"), seven("raygun-2"))
    target = table.state.seats[2].character
    assert not table.knowledge[0].knows(target)
    act(table, card(table, 0, "telepathy", "contact-telepathy", target=1, level=6))
    roll(table, 2, 3)
    assert table.knowledge[0].knows(target) and 0 in table.state.seats[2].seen_by
    assert fight(table).fighters[0].spent == 0


def test_declaring_a_telepathy_level_above_ones_own_is_a_false_claim() -> None:
    """KMC 5.4: Nia (level 4) declaring 6 for the check is caught, naming her seat."""
    table = _duel(seven("raygun-1"), seven("contact-telepathy"), NIA_FIRST)
    with pytest.raises(FalseClaim) as err:
        table.feed(card(table, 2, "telepathy", "contact-telepathy", target=0, level=6))
    assert err.value.seat == 2 and err.value.claim.what == cc.TELEPATHY


def test_a_telepathy_level_above_seven_is_accepted_after_gains() -> None:
    """N222: the bound on the declared level is the public ledger's: Locke (level 6) with +2 from
    transformations checks contact telepathy at 8 (before, the handler refused anything above 7
    while the honest options offered 8; a random game found it)."""
    seats = five(s0={"mods": [["level", "add", 1, "game"], ["level", "add", 1, "game"]]}, s2={"place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven("contact-telepathy") + seven("raygun-2"))
    roll(table, *LOCKE_FIRST)
    with pytest.raises(IllegalAction) as err:  # 9 passes what any card with these gains could have
        table.feed(card(table, 0, "telepathy", "contact-telepathy", target=1, level=9))
    assert err.value.rule == "locke.5.4"
    play = card(table, 0, "telepathy", "contact-telepathy", target=1, level=8)
    assert play in table.legal(0)
    act(table, play)
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose.startswith("locke.")


def test_the_wildcard_stands_for_any_card() -> None:
    """KMC 5.5: the wildcard counts as the card named with it (claimed as the wildcard itself)."""
    table = _duel(seven("combat-wildcard"), seven("raygun-2"))
    act(table, card(table, 0, "attack", "combat-wildcard", target=1, acts_as="d-bomb-50"))
    assert _events(table, "cb-play")[-1][2:4] == ("combat-wildcard", "d-bomb-50")
    assert table.state.claims[-2].what == cc.CARD and table.state.claims[-2].value == "combat-wildcard"
    assert fight(table).fighters[0].spent == 6


def test_stretching_the_level_with_mind_checks() -> None:
    """KMC 10.5.1: Nia (level 4) fires a G-bomb (level 5) with one mind check; her own 4 power is spent."""
    table = _duel(seven("raygun-1"), seven("g-bomb-25"), NIA_FIRST)
    act(table, card(table, 2, "attack", "g-bomb-25", target=0, stretch=1, mind=5))
    roll(table, 2, 2)
    assert _events(table, "cb-stretch")[-1][-1] is True and waiting(table) == ("locke.cb_escape", 0)
    assert fight(table).fighters[1].spent == 4


def test_a_failed_mind_check_spends_the_card_for_nothing() -> None:
    """KMC 10.5.1: one failed check and the level is not filled; the power used is spent anyway."""
    table = _duel(seven("raygun-1"), seven("g-bomb-25"), NIA_FIRST)
    act(table, card(table, 2, "attack", "g-bomb-25", target=0, stretch=1, mind=5))
    roll(table, 6, 6)
    assert _events(table, "cb-fizzle") and "g-bomb-25" not in hand(table, 2)
    assert fight(table).fighters[1].spent == 4 and waiting(table) == ("locke.cb_act", 2)  # her turn goes on (N235)
    assert not any(isinstance(a, Play) for a in table.legal(2))  # the normal action is spent
    act(table, Nop(2))
    assert waiting(table) == ("locke.cb_act", 0)


# --- false claims name their seat (issue 13 acceptance) ----------------------------------------------


def test_a_level_above_ones_own_is_a_false_claim() -> None:
    """KMC 10.5.2: Nia (level 4) playing a level-5 card on her own level is caught at once."""
    table = _duel(seven("raygun-1"), seven("g-bomb-25"), NIA_FIRST)
    before = table.state
    with pytest.raises(FalseClaim) as err:
        table.feed(card(table, 2, "attack", "g-bomb-25", target=0))
    assert err.value.seat == 2 and err.value.claim.what == cc.USE and table.state is before


def test_a_defence_card_not_held_is_a_false_claim() -> None:
    """KMC 5: naming a card the handle does not hold is caught and names the seat."""
    table = _duel(seven("bazooka-10"), seven("raygun-2"))
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    act(table, Nop(2))
    lie = Play(2, "defend", hand(table, 2)["raygun-2"], "esp-barrier", "", -1, 0, 0, 0)
    with pytest.raises(FalseClaim) as err:
        table.feed(lie)
    assert err.value.seat == 2 and err.value.claim.what == cc.CARD


def test_a_level_gained_by_transformation_pays_for_the_card() -> None:
    """N158 (seed 002 transformation +1 level, N100): Nia's level 5 now pays for the level-5
    card that was a false claim on her printed level 4; the claim records the public change."""
    seats = five(s2={"place": "P:1:0", "mods": [["level", "add", 1, "game"]]})
    table = combat_table(deck=seven("raygun-1") + seven("g-bomb-25"), seats=seats)
    roll(table, *NIA_FIRST)
    assert card(table, 2, "attack", "g-bomb-25", target=0) in table.legal(2)  # honest: no mind stretch needed
    act(table, card(table, 2, "attack", "g-bomb-25", target=0))
    use = [c for c in table.state.claims if c.what == cc.USE]
    assert use and use[-1].value[1] == [["level", "add", 1, "game"]]


def test_an_esp_proof_makes_any_level_a_false_claim() -> None:
    """N112, N158: with an ESP proof in, level and power are 0: even a level-1 card on one's own
    level is a false claim."""
    seats = five(s2={"place": "P:1:0", "proofs": 1})
    table = combat_table(deck=seven("raygun-1") + seven("bazooka-9"), seats=seats)
    roll(table, *NIA_FIRST)
    assert not [a for a in table.legal(2) if getattr(a, "card", "") == "bazooka-9" and not a.stretch]
    with pytest.raises(FalseClaim) as err:
        table.feed(card(table, 2, "attack", "bazooka-9", target=0))
    assert err.value.seat == 2 and err.value.claim.what == cc.USE


def test_a_natural_double_on_a_survivor_rolls_the_transformation_chart() -> None:
    """Seed 002 damage table (N154): a 1-1 on a character that survives calls the transformation
    check at once, through fate's chart."""
    table = _duel(seven("raygun-1"), seven("raygun-2"))
    act(table, card(table, 0, "attack", "raygun-1", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    act(table, Durability(2, 4))
    roll(table, 6, 6)  # raygun-1 (firepower 1) against 4: a natural 6-6, no damage
    assert table.state.seats[2].alive
    assert isinstance(table.pending, Chance) and table.pending.purpose == "locke.chart.transformation"


def test_a_combat_death_goes_through_fate() -> None:
    """KMC 8 through engine/locke/fate.py: the death is logged with its cause; the ESP proofs go."""
    seats = five(s2={"place": "P:1:0", "proofs": 1})
    table = combat_table(deck=seven("light-sword-6-50") + seven("raygun-2"), seats=seats)
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "light-sword-6-50", target=1))
    while table.pending is not None and waiting(table) != ("locke.cb_dur", 2):
        act(table, Nop(2))
    act(table, Durability(2, 4))
    roll(table, 2, 3)
    assert not table.state.seats[2].alive and table.state.seats[2].proofs == 0
    assert ("died", 2, "combat", 0) in table.state.events


def test_a_card_from_someone_elses_hand_is_refused() -> None:
    """KMC 10.4.1: only one's own hand."""
    table = _duel(seven("bazooka-10"), seven("bazooka-9"))
    other = hand(table, 2)["bazooka-9"]
    with pytest.raises(IllegalAction) as err:
        table.feed(Play(0, "attack", other, "bazooka-9", "", 1, 0, 0, 0))
    assert err.value.rule == "locke.10.4.1"


# --- obstacles (KMC 10.12, seed 002) ------------------------------------------------------------------


def _police(jammer: int = 0) -> Obstacle:
    return Obstacle("police", 0, 0, 1, weapon="raygun", traits=POLICE_TRAITS, jammer=jammer, squad=3, weapon_level=1)


def test_an_obstacle_jammer_blocks_cards_at_or_below_its_level() -> None:
    """KMC 10.10: under a jammer of level 3 only cards above 3 work; contact telepathy still does."""
    table = combat_table(sides=((0,), ()), obstacles=(_police(jammer=3),),
                         deck=seven("bazooka-10", "beam-cannon-12", "contact-telepathy"))
    roll(table, *LOCKE_FIRST)
    cards = {a.card for a in table.legal(0) if isinstance(a, Play)}
    assert "beam-cannon-12" in cards and "bazooka-10" not in cards
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 0, "attack", "bazooka-10", target=1))
    assert err.value.rule == "locke.10.10"


def test_an_esper_defends_with_the_lowest_sure_card() -> None:
    """KMC 10.12.3: obstacles' cards are face up (N140) and they defend with the least card that surely works."""
    esper = Obstacle("esper", 3, 0, 3, cards=True)
    table = combat_table(sides=((0,), ()), obstacles=(esper,),
                         deck=seven("blaster-4") + seven("esp-shield", "esp-block", "esp-barrier"))
    assert table.state.combat.detail.fighters[1].faces[:3] == ("esp-shield", "esp-block", "esp-barrier")
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    assert _events(table, "cb-defend")[-1][-1] == "esp-block"


def test_golems_heal_at_the_end_of_every_round() -> None:
    """Seed 002 trap 10: undestroyed golems recover all durability at each round's end."""
    golems = Obstacle("golem", 0, 0, 3, weapon="beam-cannon", traits=(HIT_ALL, COMBINED, "round-end-full-heal", NO_SLEEP),
                      squad=2, weapon_level=4)
    table = combat_table(sides=((0,), ()), obstacles=(golems,), deck=seven("raygun-1"))
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "raygun-1", target=1))
    roll(table, 1, 1, 6, 6)  # 1 against 3 (1:2 or less): row 2 hurts the first golem by 2, row 12 misses
    assert fight(table).fighters[1].members == (1, 3)
    act(table, Nop(0))  # the rest of Locke's turn (N235)
    roll(table, 1, 1)  # their two beam cannons fire together: 10 + 10
    act(table, Nop(0))
    act(table, Nop(0))
    act(table, Durability(0, 6))
    roll(table, 3, 4)  # 20 against 6: 3:1, row 7: 1 damage
    assert table.state.seats[0].damage == 1
    assert fight(table).round == 2 and fight(table).fighters[1].members == (3, 3)


# --- going on and ending (KMC 10.3.4-6, 11.6) ----------------------------------------------------------


def test_the_combat_ends_when_nobody_wants_to_go_on() -> None:
    """KMC 10.3.5: after an attack, the combat goes on only if someone declares so."""
    table = _duel(seven("bazooka-10"), seven("esp-shield"))
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    act(table, Nop(2))
    act(table, card(table, 2, "defend", "esp-shield"))
    act(table, Nop(0))  # the rest of Locke's turn (N235)
    act(table, Nop(2))  # Nia passes her turn
    assert waiting(table) == ("locke.cb_go_on", 0)
    act(table, GoOn(0, False))
    act(table, GoOn(2, False))
    assert table.state.combat is None
    end = _events(table, "combat")[-1]
    assert end[5:8] == ("kmc-10", "over", 1)


def test_the_thirtieth_round_is_the_last() -> None:
    """KMC 11.6 / ruling 26: a combat ends after 30 rounds."""
    table = _duel(seven("bazooka-10"), seven("esp-shield"))
    table.state = put(table.state, fight(table)._replace(round=30))
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    act(table, Nop(2))
    act(table, card(table, 2, "defend", "esp-shield"))
    act(table, Nop(0))  # the rest of Locke's turn (N235)
    act(table, Nop(2))
    act(table, GoOn(0, True))
    act(table, GoOn(2, True))
    assert table.state.combat is None and _events(table, "combat")[-1][6] == "round-limit"


"""Random characters bring their card's items (KMC 10.12.2 (1)-(2), 10.12.3; ruling N245).

Each test puts seat 0 (Locke-1: level 6, power 50, durability 6) against one random character
built as a random combat builds it (combat.obstacles_from with the card drawn from the unused
pile), with the obstacle's face-up hand stacked after Locke's seven cards. Fighter 0 is Locke,
fighter 1 the random character.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.pending import Chance
from engine.locke.actions import CheckValue
from engine.locke.combat.obstacles import obstacles_from
from engine.locke.combat.common import obstacle_jam, put, with_fighter
from engine.locke.combat.model import Obstacle
from engine.locke.combat.randoms import CARRIED, items_of
from engine.locke.outcomes import Opponent
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, game, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)  # initiative: Locke 12, the random character 2
RANDOM_FIRST = (1, 1, 6, 6)
#: Cards that neither attack nor defend: an obstacle holding only these does nothing on its own.
INERT = ("teleport-1", "teleport-2", "teleport-3", "teleport-4", "illusion-1", "illusion-2", "illusion-3",
         "illusion-4", "illusion-5")


def _random(character: str) -> Obstacle:
    (ob,) = obstacles_from(game(), (Opponent("unused-character", count=1, random_characters=1),), (character,))
    return ob


def _table(character: str, first: tuple[int, ...], mine: tuple[str, ...] = (), theirs: tuple[str, ...] = (),
           nike: tuple[int, int] | None = None) -> Any:
    ob = _random(character)
    size = 7 + max(0, dict(ob.items).get("henchman", 0))
    theirs = tuple(theirs) + INERT[: size - len(theirs)]
    table = combat_table(sides=((0,), ()), obstacles=(ob,), deck=seven(*mine) + list(theirs))
    if nike is not None:  # KMC 2.3.2: the Nike check comes before the initiative
        roll(table, *nike)
    roll(table, *first)
    return table


def _unjam(table: Any) -> None:
    f = fight(table)
    table.state = put(table.state, with_fighter(f, 0, f.fighters[0]._replace(jammed_by=())))


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


# --- what each card brings -------------------------------------------------------------------------


@pytest.mark.parametrize("character,expected", [
    ("locke-1", ()),
    ("cornelia", (("henchman", 1),)),
    ("nagato", (("psycho-pod", 0),)),
    ("octavius", (("energy-suit", 0),)),
    ("yamaki-1", (("powered-suit", 3), ("esp-field", 3), ("esp-jammer", 3), ("ship", 0))),
    ("strohheim-e", (("hell-diver-suit", 0), ("esp-jammer", 4), ("beam-cannon", 0))),
    ("strohheim-s", (("nike", 10),)),
    ("dr-wong", (("geoid-bomb", 0),)),  # the subspace field is an escape: never tried (KMC 10.12.3)
    ("francis", ()),  # the Lafnor mirror likewise
])
def test_a_random_character_brings_the_items_of_its_card(character: str, expected: tuple[Any, ...]) -> None:
    """KMC 10.12.2 (1)-(2), table 2.1 (assets/locke/characters.json)."""
    assert _random(character).items == expected


def test_every_carried_item_is_on_some_character_card() -> None:
    """No item id of randoms.CARRIED is a typo: each is on at least one character card."""
    found = {i for c in game().components.characters for i, _ in items_of(c)}
    assert found == set(CARRIED)


def test_the_declaration_is_logged_for_the_table() -> None:
    table = _table("yamaki-1", LOCKE_FIRST)
    assert _events(table, "cb-ob-equip") == [("cb-ob-equip", "yamaki-1",
                                               [["powered-suit", 3], ["esp-field", 3], ["esp-jammer", 3], ["ship", 0]])]


# --- henchmen (KMC 10.12.2 (1), 10.8, N148) ---------------------------------------------------------


def test_a_random_characters_henchman_brings_a_card_and_syncs_its_attack() -> None:
    """Cornelia (level 4, one henchman): eight face-up cards; her blaster (level 2, 4) is joined by
    her henchman's best card of level 2 or less: the ray gun 3, so level 3 and firepower 7."""
    table = _table("cornelia", RANDOM_FIRST, theirs=("blaster-4", "raygun-3"))
    f = fight(table).fighters[1]
    assert f.henchmen == 1
    strike = fight(table).strike
    assert strike is not None and (strike.card, strike.level, strike.firepower, strike.hench_level) == \
        ("blaster-4", 3, 7, 1)
    assert ("cb-sync", "cornelia", "henchman", 3, 7) in table.state.events
    assert len(fight(table).fighters[1].hand) == 6  # eight, less the two played
    assert waiting(table) == ("locke.cb_escape", 0)


def test_a_henchman_adds_no_card_above_level_two() -> None:
    """KMC 10.8, N148: a henchman's card is at most min(2, the attack card's level): on Cornelia's
    beam cannon (level 4) her henchman adds the ray gun 3, not the stronger level-3 bazooka 10."""
    table = _table("cornelia", RANDOM_FIRST, theirs=("beam-cannon-12", "bazooka-10", "raygun-3"))
    strike = fight(table).strike
    assert strike is not None and (strike.card, strike.level, strike.firepower, strike.hench_level) == \
        ("beam-cannon-12", 5, 15, 1)


# --- suits and Nike (KMC 2.3.2) --------------------------------------------------------------------


def test_a_random_octavius_throws_back_an_attack_whose_level_check_fails() -> None:
    """KMC 2.3.2 E-suit: Locke declares its level for the reflection check; 12 fails, the
    attack comes back at Locke."""
    table = _table("octavius", LOCKE_FIRST, mine=("blaster-4",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    assert waiting(table) == ("locke.check_value", 0)
    act(table, CheckValue(0, 6))
    roll(table, 6, 6)
    assert _events(table, "cb-reflect")[-1][-1] is True and waiting(table) == ("locke.cb_dur", 0)


def test_a_random_octavius_suit_takes_a_hit_that_passes_the_check() -> None:
    """KMC 2.3.2: a passed check hits the suit (durability 5), not the character."""
    table = _table("octavius", LOCKE_FIRST, mine=("blaster-4",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    act(table, CheckValue(0, 6))
    roll(table, 2, 3)
    roll(table, 6, 5)
    f = fight(table).fighters[1]
    assert f.members == (game().components.character("octavius").durability,)  # untouched
    hit = _events(table, "cb-suit-hit")[-1]
    assert hit[1:3] == ("octavius", "energy-suit") and hit[4] == 5 and f.suit_left == hit[5]


@pytest.mark.parametrize("attack,absorbed", [("bazooka-7", True), ("beam-cannon-12", False)])
def test_a_random_yamaki_p_suit_absorbs_up_to_level_three(attack: str, absorbed: bool) -> None:
    """KMC 2.3.2 P-suit of level 3 (public on a random character): a level-3 bazooka is absorbed,
    a level-4 beam cannon breaks the suit and hits Yamaki."""
    table = _table("yamaki-1", LOCKE_FIRST, mine=(attack,))
    _unjam(table)  # as if Yamaki's jammer (level 3) were on another player
    act(table, card(table, 0, "attack", attack, target=1))
    if absorbed:
        assert ("cb-suit-absorbs", "yamaki-1", 3) in table.state.events
        assert fight(table).fighters[1].suit == "powered-suit"
        return
    assert ("cb-suit-broken", "yamaki-1", 4) in table.state.events
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.damage"
    assert fight(table).fighters[1].suit == ""


def test_a_random_strohheim_e_hell_diver_suit_takes_the_hits() -> None:
    """KMC 2.3.2 H-suit: durability 8, in the character's place."""
    table = _table("strohheim-e", LOCKE_FIRST, mine=("g-bomb-25",))  # above its level-4 jammer on Locke
    act(table, card(table, 0, "attack", "g-bomb-25", target=1))
    roll(table, 3, 3)
    hit = _events(table, "cb-suit-hit")[-1]
    assert hit[1:3] == ("strohheim-e", "hell-diver-suit") and hit[4] == 8


def test_a_random_strohheim_s_attacks_with_nike_when_its_check_passes() -> None:
    """KMC 2.3.2 Nike (check value 10 on S-Strohheim's card): a 4 turns it on; on its turn it
    attacks for 20, and nobody escapes or defends: Locke declares its durability at once."""
    table = _table("strohheim-s", RANDOM_FIRST, nike=(2, 2))
    assert ("cb-ob-item", "strohheim-s", "nike", -1) in table.state.events
    strike = fight(table).strike
    assert strike is not None and (strike.firepower, strike.target) == (20, 0)
    assert waiting(table) == ("locke.cb_dur", 0)


def test_a_random_strohheims_nike_takes_the_hit_in_its_place() -> None:
    table = _table("strohheim-s", LOCKE_FIRST, mine=("blaster-4",), nike=(2, 2))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    roll(table, 3, 3)
    hit = _events(table, "cb-suit-hit")[-1]
    assert hit[1:3] == ("strohheim-s", "nike") and hit[4] == 10


def test_a_nike_check_of_eleven_knocks_the_random_strohheim_out() -> None:
    """KMC 2.3.2: 11 or more fails the check (value 10) and knocks the user out for the round."""
    table = _table("strohheim-s", RANDOM_FIRST, theirs=("raygun-3",), nike=(6, 5))
    f = fight(table).fighters[1]
    assert f.fainted and not f.nike_on and fight(table).strike is None
    assert waiting(table) == ("locke.cb_act", 0)


# --- the field and the jammer ------------------------------------------------------------------------


def test_a_random_yamaki_plays_through_its_field_at_level_zero_for_no_power() -> None:
    """KMC 2.3.2 ESP field (Yamaki-1, ESP level 0, field 3): cards up to level 3 at no power."""
    table = _table("yamaki-1", RANDOM_FIRST, theirs=("bazooka-8", "beam-cannon-12"))
    ship = table.pending  # its ship fires first (KMC 10.4.2): the ship-support chart
    assert isinstance(ship, Chance) and ship.purpose == "locke.chart.ship-support"
    roll(table, 3, 4)  # 7: no support (seed 002 ship-support chart)
    strike = fight(table).strike
    assert strike is not None and strike.card == "bazooka-8" and strike.field  # not the level-4 cannon
    assert fight(table).fighters[1].spent == 0


def test_an_attack_above_the_field_breaks_it() -> None:
    """KMC 2.3.2: an attack above the field's level, not escaped, breaks it."""
    table = _table("yamaki-1", LOCKE_FIRST, mine=("beam-cannon-12",))
    act(table, card(table, 0, "attack", "beam-cannon-12", target=1))
    assert ("cb-broken", -1, "yamaki-1", "esp-field", "obstacle", 4) in table.state.events
    assert not fight(table).fighters[1].field


def test_a_random_characters_jammer_goes_on_a_player() -> None:
    """KMC 10.12.2 (2): its jammer (Strohheim-E's, level 4) is on Locke: Locke's cards of level 4
    or less are not offered."""
    table = _table("strohheim-e", LOCKE_FIRST, mine=("beam-cannon-12", "g-bomb-25"))
    assert obstacle_jam(fight(table), fight(table).fighters[0]) == 4
    plays = {a.card for a in table.legal(0) if getattr(a, "use", "") == "attack"}
    assert "g-bomb-25" in plays and "beam-cannon-12" not in plays


# --- special attacks (KMC 10.4.2) and the psycho-pod (KMC 2.3.1) -------------------------------------


def test_a_random_dr_wong_fires_his_geoid_bomb_before_his_cards() -> None:
    """KMC 2.3.1 geoid bomb: 2d6 of 6 or less fires level 7, firepower 100."""
    table = _table("dr-wong", RANDOM_FIRST)
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.geoid-bomb"
    roll(table, 3, 3)
    strike = fight(table).strike
    assert strike is not None and (strike.level, strike.firepower, strike.target) == (7, 100, 0)
    assert ("cb-ob-item", "dr-wong", "geoid-bomb", 0) in table.state.events


def test_a_random_dr_wong_knocked_out_by_his_bomb_does_nothing_more_this_round() -> None:
    """KMC 2.3.1: 10 or more knocks him out for the rest of the round: his cards stay in hand."""
    table = _table("dr-wong", RANDOM_FIRST, theirs=("raygun-3",))
    roll(table, 5, 6)
    f = fight(table).fighters[1]
    assert f.fainted and f.wake == 2
    assert fight(table).strike is None and not any(e[0] == "cb-play" and e[-1] == "dr-wong"
                                                   for e in table.state.events)


def test_a_random_characters_ship_bombards_from_the_ship_support_chart() -> None:
    """Lord Leon's Griffon (KMC 2.3.1 ship): the ship-support chart at a random target."""
    table = _table("lord-leon", RANDOM_FIRST)
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.ship-support"
    roll(table, 1, 1)
    assert _events(table, "cb-ship")[-1][1] == -1
    assert ("cb-ob-item", "lord-leon", "ship", 0) in table.state.events


def test_a_random_strohheim_e_fires_its_beam_cannon() -> None:
    """KMC 2.3.1 beam cannon: level 4, firepower rolled on the weapon-firepower chart; a
    character's weapon, not a machine's (KMC 5.3.2 lists the non-humans), so an illusion answers it."""
    table = _table("strohheim-e", RANDOM_FIRST, mine=("illusion-6",))
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.weapon-firepower"
    roll(table, 6)
    strike = fight(table).strike
    assert strike is not None and strike.level == 4 and strike.firepower > 0 and strike.target == 0
    assert not strike.machine
    assert any(getattr(a, "card", "") == "illusion-6" for a in table.legal(0))


@pytest.mark.parametrize("face,stopped", [(4, True), (5, False)])
def test_a_random_nagato_tries_the_psycho_pod_when_no_card_surely_defends(face: int, stopped: bool) -> None:
    """KMC 2.3.1 psycho-pod: attacks up to level 6, 1d6 of 4 or less stops it."""
    table = _table("nagato", LOCKE_FIRST, mine=("blaster-4",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.psycho-pod"
    roll(table, face)
    if stopped:
        assert ("cb-defend", -1, "psycho-pod") in table.state.events and fight(table).strike is None
    else:
        pending = table.pending
        assert isinstance(pending, Chance) and pending.purpose == "locke.chart.damage"


def test_the_psycho_pod_is_not_tried_against_a_light_sword() -> None:
    table = _table("nagato", LOCKE_FIRST, mine=("light-sword-5-30",))
    act(table, card(table, 0, "attack", "light-sword-5-30", target=1))
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.chart.damage"


def test_a_sure_defence_card_comes_before_the_pod() -> None:
    table = _table("nagato", LOCKE_FIRST, mine=("blaster-4",), theirs=("esp-block",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    assert ("cb-defend", -1, "nagato", "esp-block") in table.state.events


def test_a_knocked_out_random_character_is_still_an_enemy_an_illusion_must_put_to_sleep() -> None:
    """KMC 5.3.2: every enemy and every player able to act must sleep before the illusion's user
    escapes; "able to act" qualifies the players only, so Dr. Wong knocked out by his own geoid
    bomb (N162) still takes the (automatic) check, and the user escapes once he sleeps."""
    table = _table("dr-wong", RANDOM_FIRST, mine=("illusion-6",))
    roll(table, 5, 6)  # 11: Dr. Wong is knocked out for the round
    assert fight(table).fighters[1].fainted and waiting(table) == ("locke.cb_act", 0)
    act(table, card(table, 0, "illusion", "illusion-6"))
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.illusion" and len(pending.dice) == 2
    roll(table, 3, 3)  # 6 + 6 = 12 > Dr. Wong's level + mind
    assert ("cb-asleep", -1, "dr-wong", 12) in table.state.events
    assert any(e[0] == "cb-illusion-escape" for e in table.state.events)

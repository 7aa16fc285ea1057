"""Locke components: appendix C counts, spot checks against the rulebook, integrity.

Every number asserted here is typed in from the source (KMC appendix C,
chapters 2-5, seed 000 = chapter 3), never derived from the data under test.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import pytest

import assets
from engine.locke.components import (
    CHART_IDS,
    ComponentSet,
    component_set_from_data,
)

FILES = ("characters", "silhouettes", "combat_cards", "planets", "bases")


def raw_files() -> dict[str, Any]:
    return {name: assets.load_json(f"locke/{name}.json") for name in FILES}


@functools.cache
def components() -> ComponentSet:
    return component_set_from_data(**raw_files())


def total(cards: Any) -> int:
    return sum(c.count for c in cards)


# ---------------------------------------------------------------- appendix C totals


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("characters", 27), ("silhouettes", 60), ("combat_cards", 86), ("planets", 81), ("bases", 60)],
)
def test_appendix_c_totals(kind: str, expected: int) -> None:
    """KMC appendix C (and chapter 1.2.1): card totals of each kind."""
    cs = components()
    assert cs.counts[kind] == expected
    assert len(cs.deck(kind)) == expected


# Planet cards, appendix C, one line of the table per tuple: (ids, copies each).
PLANET_LINES = [
    (("lafnor-mirror-5", "lafnor-mirror-6", "lafnor-mirror-7"), 1),
    (("subspace-field",), 1),
    (("absorb-ball-3", "absorb-ball-4", "absorb-ball-5"), 1),
    (("powered-suit-4", "powered-suit-5"), 1),
    (("esp-jammer-3", "esp-jammer-4", "esp-jammer-5"), 1),
    (("esp-field-3", "esp-field-4", "esp-field-5"), 1),
    (("energy-suit", "geoid-bomb", "nike", "cruiser", "shape-change", "esp-controller", "wildcard"), 1),
    (("henchman", "frontier", "residential", "industrial", "entertainment", "slum"), 2),
    (("clone",), 3),
    (("ambush-a", "ambush-b"), 1),
    (("information",), 13),
    (("combat",), 10),
    (("spaceport",), 6),
    (("arrest",), 4),
    (("trap",), 3),
    (("identify-other",), 4),
    (("expose-self",), 2),
]


@pytest.mark.parametrize(("ids", "copies"), PLANET_LINES)
def test_appendix_c_planet_lines(ids: tuple[str, ...], copies: int) -> None:
    """KMC appendix C, planet-card table: copies of each card."""
    for pid in ids:
        assert components().planet(pid).count == copies, pid


def test_appendix_c_planet_lines_cover_every_card() -> None:
    """KMC appendix C: the lines above list all 81 planet cards, ability group 37, others 44."""
    listed = {pid for ids, _ in PLANET_LINES for pid in ids}
    assert listed == {p.id for p in components().planets}
    groups = Counter()
    for p in components().planets:
        groups[p.group] += p.count
    assert groups == {"ability": 37, "other": 44}


COMBAT_LINES = [
    ("raygun", 1, (1, 2, 3), 4),
    ("blaster", 2, (4, 5, 6), 3),
    ("bazooka", 3, (7, 8, 9, 10), 2),
    ("beam-cannon", 4, (12, 14, 16, 18, 20), 1),
    ("g-bomb", 5, (25, 30, 35), 1),
    ("d-bomb", 6, (40, 50), 1),
    ("geoid-bomb", 7, (100,), 1),
]


@pytest.mark.parametrize(("weapon", "level", "firepowers", "copies"), COMBAT_LINES)
def test_appendix_c_attack_cards(weapon: str, level: int, firepowers: tuple[int, ...], copies: int) -> None:
    """KMC appendix C and table 5.1: level, attack values and copies per attack weapon."""
    cards = [c for c in components().combat_cards if c.weapon == weapon]
    assert sorted(c.firepower for c in cards) == list(firepowers)
    assert {c.level for c in cards} == {level}
    assert {c.count for c in cards} == {copies}


def test_appendix_c_light_swords() -> None:
    """KMC appendix C and table 5.1: light sword Lv5/30, Lv6/50, Lv7/100, one each."""
    swords = sorted((c.level, c.firepower, c.count) for c in components().combat_cards if c.weapon == "light-sword")
    assert swords == [(5, 30, 1), (6, 50, 1), (7, 100, 1)]


@pytest.mark.parametrize(
    ("card_id", "level", "copies"),
    [("esp-screen", 1, 4), ("esp-block", 2, 4), ("esp-shield", 3, 3),
     ("esp-barrier", 4, 3), ("esp-field", 5, 2), ("esp-psycho-pod", 6, 2)],
)
def test_appendix_c_defence_cards(card_id: str, level: int, copies: int) -> None:
    """KMC appendix C and table 5.2: defence card levels and copies."""
    card = components().combat_card(card_id)
    assert (card.type, card.level, card.count) == ("defence", level, copies)


def test_appendix_c_escape_and_other_cards() -> None:
    """KMC appendix C and table 5.3: illusion Lv1-7 one each, teleport Lv1-7 two each;
    contact telepathy 3, wildcard 1."""
    cs = components()
    for lv in range(1, 8):
        assert cs.combat_card(f"illusion-{lv}").count == 1
        assert cs.combat_card(f"teleport-{lv}").count == 2
    assert cs.combat_card("contact-telepathy").count == 3
    assert cs.combat_card("combat-wildcard").count == 1
    by_type = Counter()
    for c in cs.combat_cards:
        by_type[c.type] += c.count
    assert by_type == {"attack": 43, "defence": 18, "escape": 21, "contact-telepathy": 3, "wildcard": 1}


BASE_LINES = [
    (("command-room", "laboratory", "computer-room", "energy-room"), 1),
    (("corridor",), 10),
    (("random-teleport",), 8),
    (("trap",), 3),
    (("barracks",), 3),
    (("energy-absorber",), 3),
    (("madonna-of-khan",), 2),
    (("illusion-room-4", "illusion-room-5", "illusion-room-6"), 1),
    (("alarm-1-1",), 2),
    (("alarm-1-2", "alarm-2-1", "alarm-2-2", "alarm-2-3", "alarm-3-2", "alarm-3-3",
      "alarm-3-4", "alarm-4-3", "alarm-4-4", "alarm-5-4"), 1),
    (("esp-controller-system", "ek", "audio-room", "cafe-dahlia", "king-editorial-room", "powder-room",
      "autograph-session", "stacked-vortex", "nova", "black-hole", "white-hole", "goat-farm"), 1),
]


@pytest.mark.parametrize(("ids", "copies"), BASE_LINES)
def test_appendix_c_base_lines(ids: tuple[str, ...], copies: int) -> None:
    """KMC appendix C, secret-base table: copies of each card."""
    for bid in ids:
        assert components().base(bid).count == copies, bid


def test_appendix_c_base_lines_cover_every_card() -> None:
    """KMC appendix C: the lines above are every base card; four key bases."""
    listed = {bid for ids, _ in BASE_LINES for bid in ids}
    assert listed == {b.id for b in components().bases}
    assert sum(b.count for b in components().bases if b.kind == "key-base") == 4


def test_alarm_devices_match_chapter_4() -> None:
    """KMC ch. 4 (alarm device): the eleven jammer-attack level pairs."""
    pairs = sorted(
        (b.effect.params["jammer_level"], b.effect.params["attack_level"])
        for b in components().bases if b.kind == "alarm"
    )
    assert pairs == [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3), (4, 4), (5, 4)]


SILHOUETTE_LINES = [
    ("good", ("locke", "adel", "soi", "teo", "tres", "nia", "francis", "flora", "marian", "lag-1", "lag-2",
              "leticia", "rema-1", "rema-2", "rosanne"), 2),
    ("good", ("helene", "nadia", "yamaki-1", "yamaki-2", "ran-g"), 1),
    ("evil", ("grunberg-e", "strohheim-e", "ran-e"), 1),
    ("evil", ("amazona", "octavius", "cornelia", "nagato", "riot"), 2),
    ("special", ("grunberg-s", "strohheim-s"), 1),
    ("special", ("dr-wong", "elmi", "jessica", "lord-leon", "hijiri-yuki"), 2),
]


@pytest.mark.parametrize(("attribute", "ids", "copies"), SILHOUETTE_LINES)
def test_appendix_c_silhouette_lines(attribute: str, ids: tuple[str, ...], copies: int) -> None:
    """KMC appendix C, silhouette table: attribute and copies of each silhouette."""
    for sid in ids:
        s = components().silhouette(sid)
        assert (s.attribute, s.count) == (attribute, copies), sid


def test_appendix_c_silhouettes_by_attribute() -> None:
    """KMC appendix C: Good 2+28+5 = 35, Evil 3+10 = 13, Special 2+10 = 12."""
    listed = {sid for _, ids, _ in SILHOUETTE_LINES for sid in ids}
    assert listed == {s.id for s in components().silhouettes}
    by_attr = Counter()
    for s in components().silhouettes:
        by_attr[s.attribute] += s.count
    assert by_attr == {"good": 35, "evil": 13, "special": 12}


# ---------------------------------------------------------------- spot checks


# (id, attribute, sex, marital, level, power, durability, mind, release, shape-change): KMC table 2.1.
CHARACTER_ROWS = [
    ("locke-1", "good", "male", "single", 6, 50, 6, 8, False, True),
    ("locke-3", "good", "male", "single", 6, 30, 5, 6, False, True),
    ("raiza", "good", "female", "single", 6, 35, 6, 6, False, True),
    ("elmi", "special", "unknown", "unknown", 6, 40, 3, 4, False, True),
    ("amazona", "evil-good", "female", "single", 5, 25, 5, 5, False, False),
    ("ran-eg", "evil-good", "male", "single", 4, 20, 4, 4, False, False),
    ("francis", "good", "female", "single", 4, 25, 4, 5, True, False),
    ("octavius", "evil", "male", "single", 4, 10, 2, 3, False, False),
    ("yamaki-2", "good", "male", "married", 2, 15, 5, 9, True, False),
    ("jessica", "special", "female", "single", 1, 10, 2, 2, True, False),
    ("hijiri-yuki", "special", "male", "married", 0, 0, 7, 7, True, True),
    ("strohheim-s", "special", "male", "single", 0, 0, 2, 7, False, False),
    ("dr-wong", "special", "male", "single", 0, 0, 2, 6, False, False),
]


@pytest.mark.parametrize("row", CHARACTER_ROWS, ids=[r[0] for r in CHARACTER_ROWS])
def test_character_table_2_1(row: tuple[Any, ...]) -> None:
    """KMC ch. 2, table 2.1: stats, sex, marital status, release and shape-change columns."""
    cid, attribute, sex, marital, level, power, durability, mind, release, change = row
    c = components().character(cid)
    assert (c.attribute, c.sex, c.marital) == (attribute, sex, marital)
    assert (c.level, c.power, c.durability, c.mind) == (level, power, durability, mind)
    assert (c.can_release, c.can_shape_change) == (release, change)


def test_character_items_chapter_2_3() -> None:
    """KMC ch. 2.3 and table 2.1 remarks: starting items and their levels."""
    cs = components()
    yamaki = cs.character("yamaki-1")
    assert [(g.id, g.params.get("level")) for g in yamaki.items] == [
        ("powered-suit", 3), ("esp-field", 3), ("esp-jammer", 3), ("ship", None)]
    stro = cs.character("strohheim-e")
    assert [(g.id, g.params.get("level")) for g in stro.items] == [
        ("hell-diver-suit", None), ("esp-jammer", 4), ("beam-cannon", None)]
    assert [g.params["ship_en"] for g in cs.character("lord-leon").items_of("ship")] == ["Griffon"]
    assert [g.params["ship_ja"] for g in cs.character("amazona").items_of("ship")] == ["炎の虎"]
    assert [g.id for g in cs.character("dr-wong").items] == ["geoid-bomb", "subspace-field"]
    assert cs.character("strohheim-s").items[0].params == {"check_max": 10}
    for cid in ("yamaki-2", "cornelia", "marian"):  # no number in table 2.1: ruling C21
        assert cs.character(cid).items_of("henchman")[0].params == {"count": 1}


def test_item_numbers_chapter_2_3() -> None:
    """KMC ch. 2.3: the fixed numbers of each character item."""
    items = components().catalogue.items
    assert items["psycho-pod"].constants == {"max_level": 6, "die_success_max": 4}
    assert items["lafnor-mirror"].constants == {"escape_level": 7, "die_success_max": 4, "move_dice": 1}
    assert items["geoid-bomb"].constants == {"level": 7, "attack": 100, "success_max": 6, "faint_min": 10}
    assert items["subspace-field"].constants == {"escape_level": 7, "success_max": 9, "faint_min": 10}
    assert items["energy-suit"].constants["durability"] == 5
    assert items["hell-diver-suit"].constants["durability"] == 8
    assert items["nike"].constants == {"attack": 20, "durability": 10, "faint_min": 11}
    assert items["henchman"].constants == {"level": 2, "extra_cards": 1}
    assert items["beam-cannon"].constants["level"] == 4


def test_abilities_chapter_2_2() -> None:
    """KMC ch. 2.2: conversion check for the Lockes and Raiza, disintegration for
    Jessica, the author's privilege for Yuki Hijiri."""
    cs = components()
    convert = sorted(c.id for c in cs.characters if c.has_ability("conversion-check"))
    assert convert == ["locke-1", "locke-2", "locke-3", "raiza"]
    assert [c.id for c in cs.characters if c.has_ability("disintegration")] == ["jessica"]
    assert [c.id for c in cs.characters if c.has_ability("authors-privilege")] == ["hijiri-yuki"]
    # KMC 2.2.1 step 1 (and 11.5): the Locke reveals its card to everyone, not only to the target.
    conversion = cs.catalogue.abilities["conversion-check"].text_en
    assert "face up for everyone" in conversion and "to one player" not in conversion


def test_victory_conditions_table_2_1_and_ch_11() -> None:
    """KMC table 2.1 remarks and ch. 11.8: personal victory conditions."""
    cs = components()
    v = {c.id: c.victory for c in cs.characters}
    assert v["riot"].kind == "lose-if-any-alive" and v["riot"].params["targets"] == ("grunberg", "ran", "nia")
    assert v["grunberg-e"].params["targets"] == ("ran", "nia")
    assert v["lag"].kind == "lose-if-any-dead" and v["lag"].params["targets"] == ("rema",)
    assert v["lord-leon"].kind == "no-other-alive-at-level" and v["lord-leon"].params["level"] == 5
    assert (v["elmi"].kind, v["elmi"].params["numerator"], v["elmi"].params["denominator"]) == ("dead-share-of-others", 1, 2)
    assert v["dr-wong"].kind == "dead-share-of-all"
    assert v["marian"].kind == v["francis"].kind == "lose-if-all-present-dead"
    assert v["jessica"].params == {"sex": "male", "marital": "single"}
    assert v["strohheim-s"].params["flags"] == ("random-character-counts",)
    # ch. 11.8.1: Raiza counts as a Locke.
    assert "locke" in cs.character("raiza").counts_as
    no_condition = {cid for cid, cond in v.items() if cond.kind == "none"}
    assert no_condition == {"locke-1", "locke-2", "locke-3", "raiza", "nagato", "amazona", "ran-eg",
                            "cornelia", "octavius", "yamaki-2", "yamaki-1", "strohheim-e"}


def test_planet_cards_seed_000() -> None:
    """Seed 000 (KMC ch. 3): kind, lifetime and numbers of specific planet cards."""
    cs = components()
    geoid = cs.planet("geoid-bomb")
    assert (geoid.kind, geoid.lifetime) == ("ability", "single-use")
    assert geoid.effect.params == {"level": 7, "attack": 100, "success_max": 4, "faint_min": 10}
    assert "hidden-until-effect" in geoid.flags
    sub = cs.planet("subspace-field")
    assert sub.effect.params == {"escape_level": 7, "success_max": 6, "faint_min": 10}
    assert cs.planet("cruiser").lifetime == cs.planet("henchman").lifetime == "permanent"
    for pid in ("esp-jammer-4", "esp-field-5", "energy-suit", "powered-suit-4", "nike"):
        assert cs.planet(pid).lifetime == "until-broken", pid
    assert cs.planet("absorb-ball-5").effect.params == {"max_level": 5, "faint_dice": 1, "absorbs": ("light-sword",)}
    assert "absorbs" not in cs.planet("absorb-ball-4").effect.params
    assert cs.planet("esp-controller").effect.params == {"release_die_face": 1}
    assert cs.planet("ambush-a").effect.params["henchmen_by_face"] == (0, 0, 1, 1, 2, 2)
    assert cs.planet("industrial").effect.params == {"level": 6}
    assert cs.planet("slum").effect.params == {"count": 3}
    assert cs.planet("information").effect.params == {"needed": 3}
    assert cs.planet("arrest").effect.params == {"chart": "prison"}
    assert cs.planet("clone").flags == ("must-use",)
    instruction = {p.id for p in cs.planets if p.kind == "instruction"}
    assert instruction == {"ambush-a", "ambush-b", "information", "combat", "spaceport", "arrest", "trap",
                           "identify-other", "expose-self"}


def test_base_cards_chapter_4() -> None:
    """KMC ch. 4: numbers on specific secret-base cards."""
    cs = components()
    assert cs.base("stacked-vortex").effect.params == {"cards": 7, "odds": 10}
    assert cs.base("madonna-of-khan").effect.params["escape_faces"] == (1, 2)
    assert cs.base("madonna-of-khan").effect.params["threat_damage_faces"] == (4, 5, 6)
    assert cs.base("cafe-dahlia").effect.params == {"rest_dice": 1, "author_multiplier": 2, "heal_per_turn": 1}
    assert cs.base("autograph-session").effect.params["locke_multiplier"] == 2
    assert cs.base("barracks").effect.params == {"chart": "random-combat"}
    assert cs.base("black-hole").effect.params == {"exit": "white-hole"}
    assert cs.base("nova").flags == ()
    assert cs.base("energy-absorber").flags == ("no-recovery",)
    assert cs.base("energy-absorber").effect.params == {"rest_dice": 1}


def test_light_sword_and_teleport_tags_chapter_5() -> None:
    """KMC ch. 5.1-5.3: light swords cannot be joined or card-defended; teleports can be
    joined and block teleports; illusions and defences cannot be joined."""
    cs = components()
    sword = cs.combat_card("light-sword-6-50")
    assert {"no-sync", "ignores-defence-cards", "breaks-defences"} <= set(sword.tags)
    assert {"syncable", "teleport-block"} <= set(cs.combat_card("teleport-3").tags)
    assert "no-sync" in cs.combat_card("illusion-3").tags
    assert "no-sync" in cs.combat_card("esp-barrier").tags
    assert cs.combat_card("blaster-5").firepower == 5 and cs.combat_card("blaster-5").level == 2


# ---------------------------------------------------------------- integrity


def test_ids_unique_within_each_kind() -> None:
    cs = components()
    for cards in (cs.characters, cs.silhouettes, cs.combat_cards, cs.planets, cs.bases,
                  tuple(cs.catalogue.items.values()), tuple(cs.catalogue.abilities.values())):
        ids = [c.id for c in cards]
        assert len(ids) == len(set(ids))
    # Raw data too: the catalogue maps would hide a duplicate.
    raw = raw_files()["characters"]
    for key in ("abilities", "items", "characters"):
        ids = [e["id"] for e in raw[key]]
        assert len(ids) == len(set(ids)), key


def test_every_reference_resolves() -> None:
    """Every ability, item, victory target, silhouette character and chart id resolves."""
    cs = components()
    people = {p for c in cs.characters for p in c.counts_as}
    for c in cs.characters:
        assert all(g.id in cs.catalogue.abilities for g in c.abilities)
        assert all(g.id in cs.catalogue.items for g in c.items)
        targets = c.victory.params.get("targets", ())
        assert isinstance(targets, tuple) and set(targets) <= people
    char_ids = {c.id for c in cs.characters}
    assert {cid for s in cs.silhouettes for cid in s.characters} == char_ids
    for p in cs.planets:
        if p.effect.type == "grant-item":
            assert p.effect.params["item"] in cs.catalogue.items
    for card in (*cs.planets, *cs.bases):
        chart = card.effect.params.get("chart")
        assert chart is None or chart in CHART_IDS


def test_no_floats_or_bools_in_data() -> None:
    """Components are integers, text, lists and maps only (they are hashed)."""

    def walk(value: Any, where: str) -> None:
        assert not isinstance(value, (float, bool)) and value is not None, where
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{where}.{k}")
        elif isinstance(value, list):
            for n, v in enumerate(value):
                walk(v, f"{where}[{n}]")

    for name, data in raw_files().items():
        walk(data, name)


def test_descriptions_are_english_paraphrase() -> None:
    """Every description is our own English text (no Japanese sentences copied in)."""
    cs = components()
    texts = [a.text_en for a in cs.catalogue.abilities.values()] + [i.text_en for i in cs.catalogue.items.values()]
    texts += [p.text_en for p in cs.planets] + [b.text_en for b in cs.bases]
    for text in texts:
        assert text and text.isascii(), text


def test_digest_is_stable_and_content_bound() -> None:
    a = component_set_from_data(**raw_files())
    b = component_set_from_data(**raw_files())
    assert a.digest() == b.digest() and len(a.digest()) == 32
    raw = raw_files()
    raw["combat_cards"]["combat_cards"][0]["firepower"] = 3
    raw["combat_cards"]["combat_cards"][2]["firepower"] = 1
    swapped = component_set_from_data(**raw)
    assert swapped.digest() != a.digest()


def test_deck_expands_duplicates() -> None:
    deck = components().deck("planets")
    assert deck.count("information") == 13 and deck.count("ambush-a") == 1
    assert components().deck("characters")[0] == "locke-1"


def test_no_recovery_cells_chapter_9_3() -> None:
    """KMC 9.3 (base-phase turn, "recovery"): the recovery action is refused on twelve
    event cells, random teleport among them (chapter 4 does not repeat it there);
    Cafe Dahlia heals by its own rule; the black hole only while a white hole exists."""
    cs = components()
    no_recovery = {b.id for b in cs.bases if "no-recovery" in b.flags}
    assert no_recovery == {
        "energy-absorber", "madonna-of-khan", "esp-controller-system", "powder-room", "goat-farm",
        "random-teleport", "audio-room", "stacked-vortex", "ek", "autograph-session",
        "illusion-room-4", "illusion-room-5", "illusion-room-6",
    }
    assert cs.base("cafe-dahlia").flags == ("no-normal-recovery",)
    assert cs.base("black-hole").flags == ("no-recovery-if-exit-open",)
    assert all(not b.flags for b in cs.bases if b.kind in ("key-base", "alarm")) and not cs.base("corridor").flags

"""Deck-construction rules rider.deck.1-8 (docs/rules/rider-decks.md), the deck
file format and expand(). Each rule test starts from a legal deck and breaks
that one rule only, then checks that exactly that rule is named."""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assets
from engine.core.errors import DeckError
from engine.rider.cards import CardSet, cardset_from_data
from engine.rider.deck import DECK_FORMAT, RULES, check_deck, deck_from_data, expand

CARDSET = cardset_from_data(assets.load_json("rider/cardset.json"))
SHIPPED = ("rider/decks/ember-rush.deck.json", "rider/decks/tidewall-vigil.deck.json")
# Ember Rush, written out so the tests do not depend on the shipped file.
LEGAL = {
    "FT-001": 2, "FT-002": 1, "FT-025": 1,                  # Lv.1: flame x3, gale
    "FT-063": 1,                                            # Lv.0
    "FT-004": 2, "FT-005": 2, "FT-006": 2, "FT-028": 2, "FT-065": 1,
    "FT-007": 2, "FT-008": 1, "FT-031": 2, "FT-067": 1,
    "FT-010": 2, "FT-034": 1, "FT-012": 1,                  # Lv.4 (FT-012 is the special placement)
}


def rule_ids(problems: list[str]) -> list[str]:
    ids = [re.match(r"\[(rider\.deck\.\d)\] ", p) for p in problems]
    assert all(ids), problems
    return [m.group(1) for m in ids if m]


def changed(base: Mapping[str, int], **delta: int) -> dict[str, int]:
    deck = dict(base)
    for key, d in delta.items():
        card_id = key.replace("_", "-")
        deck[card_id] = deck.get(card_id, 0) + d
        if deck[card_id] == 0:
            del deck[card_id]
    return deck


def test_base_deck_is_legal() -> None:
    assert sum(LEGAL.values()) == 24
    assert check_deck(CARDSET, LEGAL) == []


@pytest.mark.parametrize("path", SHIPPED)
def test_shipped_decks_are_legal(path: str) -> None:
    name, cardset_id, counts = deck_from_data(assets.load_json(path))
    assert cardset_id == CARDSET.id
    assert name["en"] and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", name["ja"])
    assert check_deck(CARDSET, counts) == []
    assert len(expand(counts)) == 24


def test_shipped_decks_have_different_styles() -> None:
    decks = [deck_from_data(assets.load_json(p))[2] for p in SHIPPED]
    attrs = [{CARDSET.cards[i].attribute for i in d} - {"free"} for d in decks]
    assert attrs[0].isdisjoint(attrs[1])
    effects = [{e.type for i in d for e in CARDSET.cards[i].effects} for d in decks]
    assert {"full_power", "can_attack"} <= effects[0]
    assert {"recover", "rescue_lost", "guard", "draw"} <= effects[1]
    assert not {"recover", "rescue_lost", "guard"} & effects[0]


def test_deck_rule_exactly_24_cards() -> None:
    too_many = changed(LEGAL, FT_065=1)
    assert rule_ids(check_deck(CARDSET, too_many)) == ["rider.deck.1"]
    assert "remove 1" in check_deck(CARDSET, too_many)[0]
    too_few = changed(LEGAL, FT_065=-1)
    problems = check_deck(CARDSET, too_few)
    assert rule_ids(problems) == ["rider.deck.1"] and "add 1" in problems[0]


def test_deck_rule_at_most_two_copies_of_a_name() -> None:
    deck = changed(LEGAL, FT_004=1, FT_065=-1)
    problems = check_deck(CARDSET, deck)
    assert rule_ids(problems) == ["rider.deck.2"]
    assert "'Blaze Lancer'" in problems[0] and "remove 1" in problems[0]


def test_deck_rule_copies_count_cards_with_the_same_name_together() -> None:
    card = CARDSET.cards["FT-004"]
    import dataclasses
    from types import MappingProxyType

    reprint = dataclasses.replace(card, id="FT-004b")
    with_reprint = CardSet(CARDSET.id, CARDSET.name_en, CARDSET.name_ja,
                           MappingProxyType({**CARDSET.cards, "FT-004b": reprint}))
    deck = changed(LEGAL, FT_004b=1, FT_065=-1)
    assert rule_ids(check_deck(with_reprint, deck)) == ["rider.deck.2"]


def test_deck_rule_extra_copies_effect_raises_the_limit() -> None:
    assert CARDSET.cards["FT-065"].max_copies == 4
    four = changed(LEGAL, FT_065=3, FT_004=-2, FT_028=-1)
    assert check_deck(CARDSET, four) == []
    five = changed(four, FT_065=1, FT_005=-1)
    problems = check_deck(CARDSET, five)
    assert rule_ids(problems) == ["rider.deck.2"] and "at most 4" in problems[0]


def test_deck_rule_exactly_four_level1() -> None:
    five = changed(LEGAL, FT_003=1, FT_065=-1)
    problems = check_deck(CARDSET, five)
    assert rule_ids(problems) == ["rider.deck.3"] and "remove 1 Lv.1 card" in problems[0]
    three = changed(LEGAL, FT_001=-1, FT_065=1)
    problems = check_deck(CARDSET, three)
    assert rule_ids(problems) == ["rider.deck.3"] and "add 1 Lv.1 card" in problems[0]


def test_deck_rule_exactly_four_level4() -> None:
    five = changed(LEGAL, FT_009=1, FT_067=-1)
    assert rule_ids(check_deck(CARDSET, five)) == ["rider.deck.4"]
    three = changed(LEGAL, FT_010=-1, FT_065=1)
    assert rule_ids(check_deck(CARDSET, three)) == ["rider.deck.4"]


def test_deck_rule_level2_3_cards_are_neither_level1_nor_level4() -> None:
    deck = changed(LEGAL, FT_030=2, FT_028=-2)  # a gale Lv.2-3 in place of a gale Lv.2
    assert check_deck(CARDSET, deck) == []


def test_deck_rule_at_most_one_level0() -> None:
    deck = changed(LEGAL, FT_061=1, FT_065=-1)
    problems = check_deck(CARDSET, deck)
    assert rule_ids(problems) == ["rider.deck.5"] and "remove 1" in problems[0]


def test_deck_rule_at_most_one_special_placement() -> None:
    deck = changed(LEGAL, FT_036=1, FT_067=-1)
    problems = check_deck(CARDSET, deck)
    assert rule_ids(problems) == ["rider.deck.6"] and "remove 1" in problems[0]


def test_deck_rule_level1_two_non_free_attributes() -> None:
    one_attribute = changed(LEGAL, FT_025=-1, FT_003=1)  # all four Lv.1 are flame
    problems = check_deck(CARDSET, one_attribute)
    assert rule_ids(problems) == ["rider.deck.7"] and "(flame)" in problems[0]


def test_deck_rule_level1_attributes_free_does_not_count() -> None:
    flame_and_free = changed(LEGAL, FT_025=-1, FT_064=1)
    assert rule_ids(check_deck(CARDSET, flame_and_free)) == ["rider.deck.7"]


def test_deck_rule_unknown_card_ids() -> None:
    deck = changed(LEGAL, FT_067=-1, XX_999=1)
    problems = check_deck(CARDSET, deck)
    assert rule_ids(problems) == ["rider.deck.8"] and "XX-999" in problems[0]


def test_deck_rule_counts_must_be_whole_numbers() -> None:
    deck: dict[str, int] = {**LEGAL, "FT-068": -1}
    assert rule_ids(check_deck(CARDSET, deck)) == ["rider.deck.8"]
    zero = {**LEGAL, "FT-068": 0}
    assert check_deck(CARDSET, zero) == []


def test_deck_breaking_every_rule_gets_every_rule_named() -> None:
    deck = {
        "FT-001": 3,               # 3 copies (rule 2); the only Lv.1: 3 flame (rules 3 and 7)
        "FT-061": 1, "FT-062": 1,  # two Lv.0 (rule 5)
        "FT-012": 1, "FT-036": 1,  # two special placements (rule 6); one Lv.4 (rule 4)
        "NOPE-1": 1,               # unknown (rule 8)
    }                              # 8 cards (rule 1)
    problems = check_deck(CARDSET, deck)
    assert rule_ids(problems) == sorted(RULES)
    assert len(problems) == len(RULES)


def test_deck_breaking_several_rules_names_only_those() -> None:
    deck = changed(LEGAL, FT_061=1, FT_036=1, FT_009=1)  # 27 cards, 2 Lv.0, 2 special, 5 Lv.4
    assert rule_ids(check_deck(CARDSET, deck)) == ["rider.deck.1", "rider.deck.4", "rider.deck.5", "rider.deck.6"]


@settings(max_examples=60)
@given(st.permutations(sorted(LEGAL)), st.sampled_from(sorted(CARDSET.cards)), st.sampled_from(sorted(LEGAL)))
def test_swapping_one_card_is_judged_independently_of_order(order: list[str], new: str, old: str) -> None:
    deck = changed(changed({k: LEGAL[k] for k in order}, **{new.replace("-", "_"): 1}), **{old.replace("-", "_"): -1})
    problems = check_deck(CARDSET, deck)
    assert problems == check_deck(CARDSET, dict(sorted(deck.items())))
    assert "rider.deck.1" not in rule_ids(problems)  # a swap keeps 24 cards
    c_new, c_old = CARDSET.cards[new], CARDSET.cards[old]
    if c_new.levels == c_old.levels and c_new.attribute == c_old.attribute and not c_new.special_placement:
        # same level and attribute: only the copies limit can break
        assert set(rule_ids(problems)) <= {"rider.deck.2"}


# ---------------------------------------------------------------- deck files

def deck_data(**over: object) -> dict[str, object]:
    data: dict[str, object] = {
        "format": DECK_FORMAT,
        "name": {"en": "Test", "ja": "テスト"},
        "cardset": "fairtable-core",
        "cards": [{"id": i, "count": n} for i, n in LEGAL.items()],
    }
    data.update(over)
    return data


def test_deck_file_round_trip() -> None:
    name, cardset_id, counts = deck_from_data(deck_data())
    assert dict(name) == {"en": "Test", "ja": "テスト"} and cardset_id == "fairtable-core"
    assert dict(counts) == LEGAL and list(counts) == sorted(LEGAL)


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ([], "one JSON object"),
        (deck_data(format="fairtable.rider.cardset/1"), "format"),
        (deck_data(name="Test"), "name in English and Japanese"),
        (deck_data(name={"en": "Test", "ja": ""}), "name in English and Japanese"),
        (deck_data(cardset=3), "card set"),
        (deck_data(cards={"FT-001": 2}), "must be a list"),
        (deck_data(cards=[{"id": "FT-001"}]), "exactly"),
        (deck_data(cards=[{"id": "FT-001", "count": 0}]), "at least 1"),
        (deck_data(cards=[{"id": "FT-001", "count": True}]), "at least 1"),
        (deck_data(cards=[{"id": "FT-001", "count": 1}, {"id": "FT-001", "count": 1}]), "listed twice"),
        (deck_data(colour="red"), "unknown field 'colour'"),
        (deck_data(description="fast"), "description"),
    ],
)
def test_deck_file_shape_errors(data: object, needle: str) -> None:
    with pytest.raises(DeckError) as info:
        deck_from_data(data)
    assert any(needle in p for p in info.value.problems), info.value.problems


def test_deck_file_lists_every_shape_problem() -> None:
    with pytest.raises(DeckError) as info:
        deck_from_data(deck_data(name=None, cardset=None, cards=[1, {"id": "", "count": 1}]))
    assert len(info.value.problems) == 4


def test_expand_is_sorted_and_repeats() -> None:
    assert expand({"FT-010": 2, "FT-001": 1, "FT-005": 0}) == ("FT-001", "FT-010", "FT-010")
    assert expand(dict(reversed(list(LEGAL.items())))) == expand(LEGAL)
    assert len(expand(LEGAL)) == 24
    with pytest.raises(DeckError):
        expand({"FT-001": -1})


def test_every_deck_rule_is_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "rider-decks.md").read_text(encoding="utf-8")
    for rule in RULES:
        assert f"`{rule}`" in doc, rule

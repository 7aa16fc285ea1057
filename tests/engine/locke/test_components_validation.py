"""Locke component validation: bad data is rejected with every problem named."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assets
from engine.core.errors import EngineError
from engine.locke.components import (
    ComponentError,
    bases_from_data,
    characters_from_data,
    combat_cards_from_data,
    component_set_from_data,
    planets_from_data,
    silhouettes_from_data,
)

FILES = ("characters", "silhouettes", "combat_cards", "planets", "bases")
_RAW = {name: assets.load_json(f"locke/{name}.json") for name in FILES}
# Key holding the card list in each file.
LIST_KEY = {"characters": "characters", "silhouettes": "silhouettes", "combat_cards": "combat_cards",
            "planets": "planets", "bases": "bases"}


def raw() -> dict[str, Any]:
    return copy.deepcopy(_RAW)


def entry(data: dict[str, Any], name: str, card_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in data[name][LIST_KEY[name]] if e["id"] == card_id)
    return found


def problems_of(data: dict[str, Any], **kw: Any) -> list[str]:
    with pytest.raises(ComponentError) as info:
        component_set_from_data(**data, **kw)
    assert isinstance(info.value, EngineError) and isinstance(info.value, ValueError)
    return info.value.problems


def test_shipped_data_is_valid() -> None:
    component_set_from_data(**raw())


def test_every_problem_is_reported_at_once() -> None:
    data = raw()
    entry(data, "characters", "locke-1")["level"] = 9
    entry(data, "silhouettes", "adel")["sex"] = "robot"
    entry(data, "combat_cards", "blaster-4")["firepower"] = 0
    entry(data, "planets", "slum")["effect"]["count"] = "three"
    entry(data, "bases", "nova")["kind"] = "bomb"
    found = problems_of(data)
    assert len(found) == 5, found
    text = " | ".join(found)
    for needle in ("'locke-1'", "'robot'", "'blaster-4'", "'slum'", "'bomb'"):
        assert needle in text
    assert "assets/locke" in str(ComponentError(found))


def test_count_mismatch_names_appendix_c() -> None:
    data = raw()
    entry(data, "planets", "information")["count"] = 12
    assert problems_of(data) == ["planets: 80 cards, but appendix C lists 81"]
    # The check can be switched off (for variant card sets) but still validates fields.
    cs = component_set_from_data(**data, expected_counts=None)
    assert cs.counts["planets"] == 80


@pytest.mark.parametrize("bad", [2.5, True, -1, "6", None])
def test_stats_must_be_plain_integers(bad: Any) -> None:
    data = raw()
    entry(data, "characters", "nia")["durability"] = bad
    found = problems_of(data)
    assert len(found) == 1 and "'durability'" in found[0] and "'nia'" in found[0]


def test_unknown_ability_and_item_ids_are_rejected() -> None:
    data = raw()
    ch = entry(data, "characters", "jessica")
    ch["abilities"][0]["id"] = "laser-eyes"
    ch["items"].append({"id": "jetpack", "params": {}})
    found = problems_of(data)
    assert any("'laser-eyes'" in p for p in found) and any("'jetpack'" in p for p in found)


def test_item_parameters_are_checked() -> None:
    data = raw()
    yamaki = entry(data, "characters", "yamaki-1")
    yamaki["items"][2]["params"] = {}  # jammer without its level
    entry(data, "characters", "cornelia")["items"][0]["params"]["colour"] = "red"
    found = problems_of(data)
    assert any("missing parameter 'level'" in p for p in found)
    assert any("unknown parameter(s) ['colour']" in p for p in found)


def test_grant_item_effect_must_match_the_item() -> None:
    data = raw()
    entry(data, "planets", "esp-jammer-4")["effect"]["item"] = "esp-cannon"
    entry(data, "planets", "powered-suit-5")["effect"].pop("level")
    found = problems_of(data)
    assert any("'esp-cannon'" in p for p in found)
    assert any("'powered-suit-5'" in p and "'level'" in p for p in found)


def test_victory_target_must_be_a_person() -> None:
    data = raw()
    entry(data, "characters", "riot")["victory"]["targets"] = ["grunberg", "zorg"]
    found = problems_of(data)
    assert found == ["character 'riot': victory target 'zorg' is no character's 'counts_as'"]


def test_silhouette_must_agree_with_its_character() -> None:
    data = raw()
    entry(data, "silhouettes", "amazona")["sex"] = "male"
    entry(data, "silhouettes", "ran-e")["attribute"] = "good"
    found = problems_of(data)
    assert any("'amazona'" in p and "female" in p for p in found)
    assert any("'ran-e'" in p and "evil-good" in p for p in found)


def test_every_character_needs_a_silhouette() -> None:
    data = raw()
    entry(data, "silhouettes", "octavius")["characters"] = []
    assert "character 'octavius' has no silhouette of its own" in " ".join(problems_of(data))


def test_unknown_chart_and_effect_are_rejected() -> None:
    data = raw()
    entry(data, "planets", "trap")["effect"]["chart"] = "trapp"
    entry(data, "bases", "corridor")["effect"]["type"] = "party"
    found = problems_of(data)
    assert any("'trapp'" in p for p in found) and any("'party'" in p for p in found)


def test_duplicate_ids_are_rejected() -> None:
    data = raw()
    entry(data, "combat_cards", "raygun-2")["id"] = "raygun-1"
    assert "combat card id 'raygun-1' is used twice" in problems_of(data)


def test_instruction_cards_take_instruction_lifetimes() -> None:
    data = raw()
    entry(data, "planets", "information")["lifetime"] = "permanent"
    found = problems_of(data)
    assert len(found) == 1 and "'permanent'" in found[0]


def test_only_attack_cards_carry_firepower() -> None:
    data = raw()
    entry(data, "combat_cards", "esp-block")["firepower"] = 3
    assert problems_of(data) == ["combat card 'esp-block': only attack cards have a weapon and firepower"]


def test_unknown_fields_and_wrong_format_are_rejected() -> None:
    data = raw()
    entry(data, "bases", "ek")["colour"] = "red"
    data["silhouettes"]["format"] = "v0"
    found = problems_of(data)
    assert any("unknown field(s) ['colour']" in p for p in found)
    assert any("'format'" in p for p in found)


@pytest.mark.parametrize(
    "fn",
    [characters_from_data, silhouettes_from_data, combat_cards_from_data, bases_from_data,
     lambda d: planets_from_data(d, {})],
)
@pytest.mark.parametrize("junk", [None, 3, "x", [], {"format": "nope"}])
def test_junk_files_raise_component_error(fn: Any, junk: Any) -> None:
    with pytest.raises(ComponentError):
        fn(junk)


@settings(max_examples=40)
@given(name=st.sampled_from(FILES), data=st.data())
def test_dropping_any_card_is_caught(name: str, data: st.DataObject) -> None:
    """Removing any one entry from any file breaks a count or a reference."""
    files = raw()
    cards = files[name][LIST_KEY[name]]
    index = data.draw(st.integers(min_value=0, max_value=len(cards) - 1))
    del cards[index]
    with pytest.raises(ComponentError):
        component_set_from_data(**files)


@settings(max_examples=40)
@given(name=st.sampled_from(FILES[1:]), data=st.data(), delta=st.sampled_from([-1, 1]))
def test_changing_any_count_is_caught(name: str, data: st.DataObject, delta: int) -> None:
    files = raw()
    cards = files[name][LIST_KEY[name]]
    card = cards[data.draw(st.integers(min_value=0, max_value=len(cards) - 1))]
    card["count"] += delta
    with pytest.raises(ComponentError):
        component_set_from_data(**files)


def test_broken_item_list_is_reported_once_not_per_planet_card() -> None:
    """A fault in the item catalogue is named once; planet cards granting items
    are not flooded with follow-on errors."""
    data = raw()
    jammer = next(i for i in data["characters"]["items"] if i["id"] == "esp-jammer")
    jammer["lifetime"] = "forever"
    found = problems_of(data)
    assert len(found) == 1 and "'forever'" in found[0]

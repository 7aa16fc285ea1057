"""Locke scenario files (docs/scenarios.md, "Locke scenarios"): the format states combats,
stacked decks and checkpoints, and every expectation it offers can fail.

Each check is shown to fail on a real file with one value changed: a check that cannot
fail would let a wrong rule pass unnoticed.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from net.games.locke.scenario import EXPECT_KEYS
from net.problems import InputProblem
from tools.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[2] / "tests" / "engine" / "locke" / "scenarios"
FILES = sorted(ROOT.rglob("*.json"))
#: A rule source: a KMC section, a seed line or section, or a ruling id (docs/rules/locke-rulings.md).
SOURCE = re.compile(r"KMC \d|[Ss]eed 00[02]|ruling [A-Z]?\d+|\b[A-Z]{1,2}\d+\b")


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / f"{name}.json").read_text(encoding="utf-8"))
    return data


def problems(data: dict[str, Any]) -> list[str]:
    result = run_scenario(data, ROOT)
    found: list[str] = result.get("expect_problems", [])
    return found


def test_there_are_scenario_files_by_topic() -> None:
    assert len(FILES) >= 35
    assert {p.parent.name for p in FILES} >= {"traps", "base_cards", "movement", "turns", "declarations", "combat",
                                               "phases"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_file_cites_its_rule_and_expects_something(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert SOURCE.search(data.get("description", "")), f"{path.name}: the description names no KMC section, seed or ruling"
    checkpoints = [a for a in data["actions"] if a.get("kind") == "expect"]
    assert data.get("expect") or checkpoints, f"{path.name} checks nothing"


# --- each check fails when the file says something else ---------------------------------------


@pytest.mark.parametrize(("name", "path", "wrong"), [
    ("combat/initiative_tie", ("expect", "combat", "order"), [0, 2]),
    ("combat/initiative_tie", ("expect", "pending_seat"), 0),
    ("combat/henchmen_cards", ("expect", "combat", "fighters", "0", "hand"), 7),
    ("combat/cards_back_to_deck", ("expect", "zones", "combat:deck"), 85),
    ("combat/cards_back_to_deck", ("expect", "combat"), {"round": 1}),
    ("turns/identify_another", ("expect", "knows", "3", "2"), "nia"),
    ("turns/identify_another", ("expect", "seats", "2", "seen_by"), []),
    ("declarations/refusal_cancels", ("expect", "outcome"), {"winners": []}),
    ("declarations/refusal_cancels", ("expect", "log", "lacks"), [["accepted", 1]]),
    ("traps/event_9_wheat_harvest", ("expect", "log", "has"), [["still-restrained", 0, "wheat", 4]]),
    ("traps/trap_2_psycho_bomb", ("expect", "seats", "0", "mods"), [["mind", "add", -1, "life"]]),
    ("movement/walk_two_cells_refused", ("expect", "pending"), "locke.land"),
])
def test_a_changed_expectation_fails(name: str, path: tuple[str, ...], wrong: Any) -> None:
    data = load(name)
    assert problems(data) == []
    changed = copy.deepcopy(data)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = wrong
    assert problems(changed), f"{name}: changing {'.'.join(path)} went unnoticed"


@pytest.mark.parametrize(("field", "wrong"), [
    ("exactly", [{"kind": "locke.walk", "to": "P:1:1"}]),
    ("has", [{"kind": "locke.walk", "to": "P:1:2"}]),
    ("lacks", [{"kind": "locke.walk", "to": "P:1:1"}]),
    ("kinds", ["locke.walk"]),
    ("count", 1),
])
def test_each_legal_check_fails_when_wrong(field: str, wrong: Any) -> None:
    """KMC 9.2.1: from the spaceport a walk reaches cells 1 and 6 (with flights and teleports)."""
    data = load("movement/walk_ring_neighbours")
    checkpoint = data["actions"][1]
    assert checkpoint["kind"] == "expect"
    checkpoint["legal"]["0"] = {field: wrong}
    found = problems(data)
    assert found and found[0].startswith("at actions[1] (a checkpoint)"), found


def test_a_view_field_is_checked_and_an_unknown_one_named() -> None:
    data = load("turns/identify_another")
    data["expect"]["view"] = {"0": {"seen_characters": [[2, "nia"]]}}
    assert problems(data) == []
    data["expect"]["view"] = {"0": {"seen_characters": []}, "3": {"my_character": "nia"}}
    found = problems(data)
    assert len(found) == 2
    data["expect"]["view"] = {"0": {"no_such_field": 1}}
    assert "no field 'no_such_field'" in problems(data)[0]


def test_an_unknown_expectation_or_field_is_named_not_ignored() -> None:
    data = load("turns/identify_another")
    data["expect"]["seat"] = {"2": {"alive": True}}  # a typo of "seats"
    assert any("unknown expectation 'seat'" in p for p in problems(data))
    data = load("turns/identify_another")
    data["expect"]["seats"]["2"]["seenby"] = [0]
    assert any("no field 'seenby'" in p for p in problems(data))
    assert all(key in EXPECT_KEYS for key in ("legal", "view", "knows", "combat", "state", "zones", "log", "outcome"))


def test_a_checkpoint_cannot_expect_an_error() -> None:
    data = load("movement/walk_ring_neighbours")
    data["actions"][1]["error"] = None
    with pytest.raises(InputProblem, match="checkpoint cannot expect an error"):
        run_scenario(data, ROOT)


def test_the_stack_puts_the_named_cards_on_top_and_refuses_cards_it_lacks() -> None:
    """A stacked deck deals what the file says (KMC 10.3.1: seven cards each); a card the deck
    does not hold is a file problem, not a silent deal of something else."""
    data = load("combat/henchmen_cards")
    nine = ["bazooka-8", "bazooka-9", "illusion-7", "raygun-2", "raygun-3", "teleport-5", "teleport-6",
            "light-sword-6-50", "esp-screen"]
    data["position"]["stack"]["combat:deck"][:9] = nine
    data["expect"]["combat"]["fighters"]["0"]["hand"] = nine
    found = problems(data)
    assert found == [], found
    data["position"]["stack"]["combat:deck"][0] = "no-such-card"
    with pytest.raises(InputProblem, match="no card 'no-such-card'"):
        run_scenario(data, ROOT)


def test_a_bad_combat_is_a_file_problem() -> None:
    data = load("combat/henchmen_cards")
    data["position"]["combat"]["sides"] = [[0], [12]]
    with pytest.raises(InputProblem, match="sides"):
        run_scenario(data, ROOT)
    data = load("combat/henchmen_cards")
    data["position"]["combat"]["obstacles"] = [{"id": "police", "level": 0, "firepower": 0, "durability": 1,
                                                 "colour": "blue"}]
    with pytest.raises(InputProblem, match="unknown fields"):
        run_scenario(data, ROOT)


def test_a_combat_card_is_named_by_its_id_and_one_not_held_is_a_file_problem() -> None:
    """Seed 002 random combat: Locke plays the ray gun he holds; the file need not know its handle."""
    data = load("combat/police_squad")
    play = next(a for a in data["actions"] if a["kind"] == "locke.cb.play")
    assert "handle" not in play and problems(data) == []
    play["card"] = "bazooka-10"
    with pytest.raises(InputProblem, match="holds no 'bazooka-10'"):
        run_scenario(data, ROOT)


def test_dice_given_while_the_game_waits_for_a_decision_say_what_it_waits_for() -> None:
    data = load("movement/walk_ring_neighbours")
    data["actions"].insert(0, {"kind": "dice_rolled", "faces": [3]})
    with pytest.raises(InputProblem, match="waits for locke.declaring from seat 1"):
        run_scenario(data, ROOT)

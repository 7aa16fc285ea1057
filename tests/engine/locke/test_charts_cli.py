"""``python -m tools.chart``: one chart roll from the command line."""

from __future__ import annotations

import json

import pytest

from tools import chart as chart_tool


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = chart_tool.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_damage_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "damage", "--attack", "50", "--durability", "5", "--dice", "1,1", "--json")
    data = json.loads(out)
    assert code == 0 and data["entry"] == "10-1@2" and data["value"] == 5
    assert data["next"]["chart"] == "transformation"  # natural double one


def test_firepower_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "weapon-firepower", "--weapon", "blaster", "--dice", "4", "--json")
    assert code == 0 and json.loads(out)["value"] == 5


def test_modifier_and_chain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "prison", "--mod", "2", "--dice", "3,4,5,2", "--chain", "--json")
    data = json.loads(out)
    assert code == 0 and [d["entry"] for d in data] == ["prison-combat", "police-blaster"]


def test_rolls_locally_without_dice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "trap", "--esp-level", "3", "--json")
    assert code == 0 and 2 <= json.loads(out)["row"] <= 16


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list", "--json")
    listing = json.loads(out)
    assert code == 0 and "black-hole" in listing["trap"] and len(listing["damage"]) == 13 * 11


def test_errors_say_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "transformation", "--mod", "1", "--dice", "3,4")
    assert code == 2 and "cannot be shifted" in err and "tools.chart list" in err
    code, _, err = run(capsys, "nosuch", "--dice", "1,1")
    assert code == 2 and "unknown chart" in err

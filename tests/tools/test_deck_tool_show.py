"""``tools.deck show`` of a deck that breaks the deck rules: the listing is
still printed, then every broken rule, and the exit status is 1 (as ``check``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import assets
from tools import deck as deck_tool


def test_show_of_an_illegal_deck_lists_it_then_names_the_problem_and_exits_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(assets.path("rider/decks/ember-rush.deck.json").read_text(encoding="utf-8"))
    data["cards"].append({"id": "FT-999", "count": 1})
    bad = tmp_path / "bad.deck.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert deck_tool.main(["show", str(bad)]) == 1
    shown = capsys.readouterr().out
    assert "FT-999  (not in card set" in shown
    assert deck_tool.main(["check", str(bad)]) == 1
    problems = [line.strip() for line in capsys.readouterr().out.splitlines()[1:]]
    assert problems and all(problem in shown for problem in problems)
    assert not shown.rstrip().endswith("ok")

"""``tools.match locke --log``: the game told line by line for people, in either language,
seats counted from 1, the same words as the table's log (client/locke/story.py); a game
that cannot tell its games says so."""

from __future__ import annotations

import json

import pytest

from tools import match


def test_a_locke_game_is_told_line_by_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["locke", "--seats", "5", "--bots", "random", "--seed", "3", "--log"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "Turn 1: Random bot (Seat " in "\n".join(out)
    assert any(line.startswith("Random bot (Seat 5): ") for line in out)
    assert not any("Seat 0" in line or "seat 0" in line for line in out)  # people count from 1
    assert any(line.startswith("  ") for line in out)  # the public events under their input
    assert out[-2].split(" after ")[0].endswith(("win", "wins"))  # the usual summary follows


def test_the_story_in_japanese_and_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["locke", "--seats", "5", "--bots", "random", "--seed", "3", "--log", "ja", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert any(line.startswith("ターン1：") for line in result["story"])
    english = match.play(match.build_parser().parse_args(["locke", "--seats", "5", "--bots", "random", "--seed", "3",
                                                          "--log"]))
    assert len(english["story"]) == len(result["story"])  # the same game, line for line


def test_a_game_without_a_story_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["tiny", "--log"]) == 2
    assert "cannot tell its games line by line" in capsys.readouterr().err

"""tools.match --games (the summary of many games), tools.bench locke_bots and the Locke entry's
bot levels (issue 28): the shapes of their reports; the figures themselves are measurements."""

from __future__ import annotations

import json

import pytest

from net.games import game_named
from tools import match
from tools.bench import locke_bots
from tools.match_summary import quantile, summarise, wilson


def test_locke_offers_random_and_heuristic_bots_described_in_english_and_japanese() -> None:
    entry = game_named("locke")
    assert set(entry.bots) == {"random", "heuristic"}
    assert set(entry.bot_descriptions) == set(entry.bots)
    for english, japanese in entry.bot_descriptions.values():
        assert english.isascii() and not japanese.isascii()
    assert entry.judge is not None and entry.end_sides is not None


def test_match_games_summarises_endings_sides_lengths_and_the_judge(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["locke", "--seats", "5", "--bots", "heuristic,random,heuristic,random,random",
                       "--games", "2", "--seed", "4", "--replay", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["problems"] == [] and report["replays_exact"] == 2
    assert report["judge_disagreements"] == 0
    assert sum(report["endings"].values()) == 2 and sum(report["grades"].values()) == 10
    assert set(report["wins_by_bot"]) == {"heuristic", "random"}
    assert report["wins_by_bot"]["heuristic"]["seats"] == 4
    assert set(report["wins_by_side"]) <= {"good", "evil", "special"}
    assert report["turns"]["median"] > 0 and report["inputs"]["p90"] >= report["inputs"]["median"]


def test_match_games_refuses_saving_and_the_network(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["locke", "--games", "2", "--save", "x.ft"]) == 2
    assert "--games" in capsys.readouterr().err
    assert match.main(["locke", "--games", "0"]) == 2


def test_wilson_intervals_and_quantiles() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert quantile([5, 1, 3, 2, 4], 0.5) == 3 and quantile([5, 1, 3, 2, 4], 0.9) == 5 and quantile([], 0.5) is None
    summary = summarise([{"bots": ["a", "b"], "seats": [{"won": True}, {"won": False}], "sides": ["good", "evil"],
                          "reason": "x", "ending": "declaration", "turns": 4, "actions": 40, "grades": ["A", "D"]}])
    assert summary["wins_by_bot"]["a"]["wins"] == 1 and summary["wins_by_side"]["evil"]["wins"] == 0
    assert summary["sides_that_won"] == ["good"] and summary["ended_by_rule"] == 1


def test_bench_locke_bots_reports_cpu_per_game_and_decision_times() -> None:
    figures = locke_bots.games("heuristic", 5, 1)
    assert figures["games"] == 1 and figures["cpu_s_per_game_mean"] > 0
    assert 0 < figures["decision_ms_median"] <= figures["decision_ms_p99"] <= figures["decision_ms_max"]

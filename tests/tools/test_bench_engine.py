"""tools.bench engine: the report's shape (speed targets live in the benchmark, not here)."""

from __future__ import annotations

import json

import pytest

from tools.bench import engine


def test_engine_bench_reports_speed_and_win_rate(capsys: pytest.CaptureFixture[str]) -> None:
    engine.main(["--games", "4", "--greedy-games", "4", "--locke-games", "1", "--json"])
    report = json.loads(capsys.readouterr().out)
    speed, strength = report["random_vs_random"], report["greedy_vs_random"]
    assert speed["games"] == 4 and speed["games_per_s"] > 0 and speed["actions_per_s"] > 0
    assert strength["games"] == 4
    assert strength["greedy_wins"] + strength["random_wins"] + strength["draws"] == 4
    assert report["targets"] == {"games_per_s": 100, "greedy_win_rate": 0.7, "locke_actions_per_s": 5000}
    assert [r["seats"] for r in report["locke"]] == [5, 10]
    assert all(r["games"] == 1 and r["actions_per_s"] > 0 for r in report["locke"])

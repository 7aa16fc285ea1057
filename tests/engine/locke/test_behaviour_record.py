"""The games of the coverage run and of the heuristic bots still show the table exactly
what they showed when tests/engine/locke/fixtures/games.json.gz was recorded: the same
event log line by line, the same inputs and the same outcome (issue 24's acceptance;
tests/engine/locke/behaviour.py says how and when to re-record)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.engine.locke import behaviour
from tests.engine.locke.three_hundred import played_games


def _first_difference(want: dict[str, Any], got: dict[str, Any]) -> str:
    name = f"{want['bots']} game, {want['players']} seats, seed {want['seed']}"
    for index, (old, new) in enumerate(zip(want["events"], got["events"])):
        if old != new:
            return f"{name}: event {index} was {old!r}, is now {new!r}"
    for field in ("events", "inputs", "inputs_digest", "ending", "outcome"):
        if want[field] != got[field]:
            return f"{name}: {field} differs (recorded {str(want[field])[:200]}, now {str(got[field])[:200]})"
    return ""


def _recorded(kind: str) -> list[dict[str, Any]]:
    return [r for r in behaviour.recorded_games() if r["bots"] == kind]


@pytest.mark.xdist_group("locke300")
def test_the_coverage_run_shows_what_it_showed() -> None:
    recorded = _recorded("random")
    played = [behaviour.game_record("random", g.players, g.seed, g.table) for g in played_games()]
    assert len(recorded) == len(played) == 300
    problems = [p for p in (_first_difference(w, g) for w, g in zip(recorded, played)) if p]
    assert not problems, f"{len(problems)} of 300 games differ; the first: {problems[0]}"


@pytest.mark.slow
def test_heuristic_games_show_what_they_showed() -> None:
    recorded = _recorded("heuristic")
    assert len(recorded) == 6 * len(behaviour.HEURISTIC_SEEDS)
    problems = []
    with behaviour.untraced():
        for want in recorded:
            table = behaviour.heuristic_table(want["players"], want["seed"])
            table.run(400_000)
            problem = _first_difference(want, behaviour.game_record("heuristic", want["players"], want["seed"], table))
            if problem:
                problems.append(problem)
    assert not problems, f"{len(problems)} heuristic games differ; the first: {problems[0]}"


def test_a_changed_event_is_caught() -> None:
    """The comparison can fail: one altered event in a recorded game is named."""
    want = _recorded("random")[0]
    got = {**want, "events": list(want["events"])}
    got["events"][3] = ["something", "else"]
    assert "event 3 was" in _first_difference(want, got)
    assert _first_difference(want, want) == ""


TRACED = "tests/engine/locke/test_control.py::test_the_controller_moves_the_victim_but_never_by_its_hidden_cards"


def test_every_locke_test_is_compared_with_its_trace(tmp_path: Path) -> None:
    """The trace check can fail: with one recorded digest altered, that test fails and says why."""
    traces = json.loads(behaviour.TRACES.read_text())
    assert len(traces) > 500 and TRACED in traces
    traces[TRACED] = [traces[TRACED][0], "0" * 64]
    altered = tmp_path / "traces.json"
    altered.write_text(json.dumps(traces))
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "FAIRTABLE_LOCKE_TRACES": str(altered), "FAIRTABLE_LOCKE_TRACE": "check"}
    done = subprocess.run([sys.executable, "-m", "pytest", TRACED, "-n", "0", "-q", "-p", "no:cacheprovider"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0, done.stdout
    assert "no longer show the table what they showed" in done.stdout

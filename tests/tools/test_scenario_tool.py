"""tools.scenario: positions from JSON, actions applied, typed errors reported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools import scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "engine" / "rider" / "scenarios"
FILES = sorted(p for p in SCENARIOS.glob("*.json") if p.name != "testset.json")


def test_there_are_example_scenarios() -> None:
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_example_scenario_meets_its_expectations(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert scenario.main([str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["expect_problems"] == []
    assert len(bytes.fromhex(result["hash"])) == 32


def test_rejected_action_reports_class_rule_and_message(capsys: pytest.CaptureFixture[str]) -> None:
    scenario.main([str(SCENARIOS / "attack_column_without_lv1.json"), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and result["applied"] == 1
    assert result["error"]["class"] == "IllegalAction" and result["error"]["rule"] == "rider.6"
    assert "Lv.1" in result["error"]["message"]
    # the state shown is the one before the rejected action: column A still at Lv.4
    assert result["state"]["players"][0]["columns"][0]["cards"][-1] == ["F4", 4]


def test_failed_expectation_exits_1(tmp_path: Path) -> None:
    data = json.loads((SCENARIOS / "third_lost_wins.json").read_text(encoding="utf-8"))
    data["cardset"] = str(SCENARIOS / "testset.json")
    data["expect"]["winner"] = 1
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert scenario.main([str(path)]) == 1


def test_bad_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert scenario.main([str(tmp_path / "none.json")]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "fairtable.rider.scenario/1", "cardset": str(SCENARIOS / "testset.json"),
                               "position": {"seats": [{"hand": ["nope"]}, {}]}}), encoding="utf-8")
    assert scenario.main([str(bad)]) == 2
    assert "nope" in capsys.readouterr().err


def test_runs_as_a_module() -> None:
    done = subprocess.run([sys.executable, "-m", "tools.scenario", str(SCENARIOS / "partial_destruction.json"), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["state"]["players"][1]["discard"] == ["T4", "T3"]


LOCKE_SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "engine" / "locke" / "scenarios").rglob("*.json"))


@pytest.mark.parametrize("path", LOCKE_SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_locke_scenario_prints_as_json(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 25 C: ``--json`` works for Locke, whose public state holds bytes (the running digests,
    printed as hex) and typed steps (printed as the lists the state hash covers)."""
    assert scenario.main([str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    state = result["state"]
    assert result["expect_problems"] == [] and len(result["hash"]) == 64
    count, chain = state["events"]
    assert isinstance(count, int) and (chain == "" or bytes.fromhex(chain))
    assert all(isinstance(step, list) and isinstance(step[0], str) for step in state["queue"])

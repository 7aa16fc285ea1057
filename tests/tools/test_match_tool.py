"""tools.match: reproducible bot games, action logs, and replays that check every hash."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import assets
from tools import match

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tools.match", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.slow
def test_same_seed_gives_same_final_hash_in_two_processes() -> None:
    first = _run("rider", "--bots", "greedy,random", "--seed", "7", "--json")
    second = _run("rider", "--bots", "greedy,random", "--seed", "7", "--json")
    assert first.returncode == 0, first.stderr
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert a == b
    assert set(a) >= {"winner", "turns", "actions", "final_hash", "reason"}
    assert len(bytes.fromhex(a["final_hash"])) == 32 and a["actions"] > 10
    other = json.loads(_run("rider", "--bots", "greedy,random", "--seed", "8", "--json").stdout)
    assert other["final_hash"] != a["final_hash"]


def test_log_replays_with_every_hash(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    assert match.main(["rider", "--bots", "random,random", "--seed", "11", "--json", "--log", str(log)]) == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["steps"][0]["action"]["kind"] == "rider.setup"  # the log starts at the set-up
    assert len(data["setup"]["decks"]) == 2
    result = match.replay(data)
    assert result["ok"] and result["steps"] == len(data["steps"]) and result["final_hash"] == data["final_hash"]
    replayed = _run("--replay", str(log), "--json")
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["ok"]


def test_tampered_log_is_caught_at_the_changed_step(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    assert match.main(["rider", "--seed", "5", "--log", str(log)]) == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    data["steps"][20]["hash"] = "00" * 32
    result = match.replay(data)
    assert not result["ok"] and result["first_mismatch"] == 21
    data = json.loads(log.read_text(encoding="utf-8"))
    data["steps"][3]["action"]["zone"] = "deck:9"  # a shuffle of another zone
    result = match.replay(data)
    assert not result["ok"] and result["first_mismatch"] == 4 and "rejected" in result["error"]
    log.write_text(json.dumps(data), encoding="utf-8")
    assert _run("--replay", str(log)).returncode == 1


def test_explicit_deck_files_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = str(assets.path("rider/decks/tidewall-vigil.deck.json"))
    assert match.main(["rider", "--deck0", deck, "--deck1", deck, "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] > 0
    assert match.main(["rider", "--bots", "greedy"]) == 2
    assert "--bots" in capsys.readouterr().err
    assert match.main(["rider", "--deck0", str(tmp_path / "missing.json")]) == 2
    assert match.main(["--replay", str(tmp_path / "missing.json")]) == 2
    assert match.main([]) == 2


def test_json_round_trip_of_bytes() -> None:
    value = {"a": (b"\x00\xff", [1, "x"])}
    assert match.from_json(json.loads(json.dumps(match.to_json(value)))) == {"a": [b"\x00\xff", [1, "x"]]}


def test_max_steps_reports_an_unfinished_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["rider", "--seed", "3", "--max-steps", "5", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["reason"] == "unfinished" and result["winner"] is None and result["actions"] == 5


def test_an_illegal_deck_file_is_named_with_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(assets.path("rider/decks/ember-rush.deck.json").read_text(encoding="utf-8"))
    data["cards"].append({"id": "FT-999", "count": 1})
    bad = tmp_path / "bad.deck.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert match.main(["rider", "--deck0", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "FT-999" in err and "tools.deck check" in err and "logged" not in err


def test_a_log_with_another_start_or_cut_short_is_caught(tmp_path: Path) -> None:
    """The replay checks the hash before the first step and the final hash,
    so a log whose starting position was altered, or whose last steps were
    dropped (every remaining step hash still matching), is refused."""
    log = tmp_path / "game.json"
    assert match.main(["rider", "--seed", "6", "--log", str(log)]) == 0
    original = json.loads(log.read_text(encoding="utf-8"))
    assert match.replay(original)["ok"]

    other_start = json.loads(log.read_text(encoding="utf-8"))
    other_start["initial_hash"] = "00" * 32
    result = match.replay(other_start)
    assert not result["ok"] and result["first_mismatch"] == 0 and result["error"] == "the initial state differs"

    cut = json.loads(log.read_text(encoding="utf-8"))
    del cut["steps"][-3:]
    result = match.replay(cut)
    assert not result["ok"] and result["first_mismatch"] is None
    assert result["steps"] == len(original["steps"]) - 3 and "final hash differs" in result["error"]
    log.write_text(json.dumps(cut), encoding="utf-8")
    assert _run("--replay", str(log)).returncode == 1


@pytest.mark.slow
@pytest.mark.parametrize("seats", [5, 10])
def test_locke_match_ends_judged_and_replays(seats: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tools.match locke --seats N --bots random --seed S --json: a judged end, and the log replays."""
    log = tmp_path / "locke.json"
    assert match.main(["locke", "--seats", str(seats), "--bots", "random", "--seed", "5", "--json",
                       "--log", str(log)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["reason"].startswith("locke.end.") and len(result["grades"]) == seats
    assert set(result["winners"]) == {i for i, g in enumerate(result["grades"]) if g in "AB"}
    assert match.main(["--replay", str(log), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["ok"] and replayed["final_hash"] == result["final_hash"]


def test_locke_refuses_a_bad_table_size_and_the_network(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["locke", "--seats", "4"]) == 2
    assert "5 to 10" in capsys.readouterr().err
    assert match.main(["locke", "--seats", "5", "--net", "tcp"]) == 2
    assert "local table" in capsys.readouterr().err


def test_result_fields_name_every_winner_and_the_seat_results() -> None:
    from engine.core import Outcome, SeatResult
    from tools.match import outcome_fields, who_won

    rider = outcome_fields(Outcome(1, "win (rider.9)"))
    assert rider == {"winner": 1, "winners": [1], "reason": "win (rider.9)"} and who_won(rider) == "seat 1 wins"
    assert who_won(outcome_fields(Outcome(None, "draw"))) == "a draw"
    assert outcome_fields(None) == {"winner": None, "winners": [], "reason": "unfinished"}
    graded = outcome_fields(Outcome.judged("end", [SeatResult.graded(0, won=True, alive=True, reason="a"),
                                                   SeatResult.graded(1, won=False, alive=False, reason="b"),
                                                   SeatResult.graded(2, won=True, alive=False, reason="c")]))
    assert graded["winner"] is None and graded["winners"] == [0, 2] and who_won(graded) == "seats 0, 2 win"
    assert [s["grade"] for s in graded["seats"]] == ["A", "D", "B"]
    nobody = outcome_fields(Outcome.judged("end", [SeatResult(0, False, "x"), SeatResult(1, False, "y")]))
    assert who_won(nobody) == "nobody wins"

"""tools.match: reproducible bot games, and their saved records (replayed by tools.verify: tests/tools/test_local_records.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import assets
from net.transcript import LOCAL_FORMAT, load_raw
from net.verifier import verify
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


def test_a_saved_local_match_is_the_local_record_and_verifies(tmp_path: Path) -> None:
    record = tmp_path / "game.ft"
    assert match.main(["rider", "--bots", "random,random", "--seed", "11", "--json", "--save", str(record)]) == 0
    data = load_raw(record)
    assert data["format"] == LOCAL_FORMAT
    assert data["inputs"][0]["input"]["kind"] == "rider.setup"  # the record starts at the set-up
    assert len(data["table"]["setup"]["decks"]) == 2 and list(data["table"]["names"]) == ["random bot", "random bot"]
    verdict = verify(data)
    assert verdict.ok and verdict.table == "local" and verdict.end == "normal end", verdict
    checked = subprocess.run([sys.executable, "-m", "tools.verify", str(record), "--json"], cwd=ROOT,
                             capture_output=True, text=True, timeout=120, check=False)
    assert checked.returncode == 0 and json.loads(checked.stdout)["ok"], checked.stderr


def test_explicit_deck_files_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = str(assets.path("rider/decks/tidewall-vigil.deck.json"))
    assert match.main(["rider", "--deck0", deck, "--deck1", deck, "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] > 0
    assert match.main(["rider", "--bots", "greedy"]) == 2
    assert "--bots" in capsys.readouterr().err
    assert match.main(["rider", "--deck0", str(tmp_path / "missing.json")]) == 2
    assert match.main([]) == 2


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


@pytest.mark.slow
@pytest.mark.parametrize("seats", [5, 10])
def test_locke_match_ends_judged_and_replays(seats: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tools.match locke --seats N --bots random --seed S --json: a judged end, and the saved record replays."""
    record = tmp_path / "locke.ft"
    assert match.main(["locke", "--seats", str(seats), "--bots", "random", "--seed", "5", "--json",
                       "--save", str(record)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["reason"].startswith("locke.end.") and len(result["grades"]) == seats
    assert set(result["winners"]) == {i for i, g in enumerate(result["grades"]) if g in "AB"}
    verdict = verify(load_raw(record))
    assert verdict.ok and verdict.outcome is not None and verdict.outcome["reason"] == result["reason"], verdict
    assert load_raw(record)["end"]["final_hash"].hex() == result["final_hash"]


def test_locke_refuses_a_bad_table_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["locke", "--seats", "4"]) == 2
    assert "5 to 10" in capsys.readouterr().err
    assert match.main(["locke", "--seats", "4", "--net", "tcp"]) == 2  # refused before any peer starts
    assert "5 to 10" in capsys.readouterr().err


def test_result_fields_name_every_winner_and_the_seat_results() -> None:
    from engine.core import Outcome, SeatResult
    from tools.match import outcome_fields, who_won

    rider = outcome_fields(Outcome(1, "win (rider.9)"))
    assert rider == {"winner": 1, "winners": [1], "reason": "win (rider.9)"} and who_won(rider) == "seat 2 wins"  # people count from 1
    assert who_won(outcome_fields(Outcome(None, "draw"))) == "a draw"
    assert outcome_fields(None) == {"winner": None, "winners": [], "reason": "unfinished"}
    graded = outcome_fields(Outcome.judged("end", [SeatResult.graded(0, won=True, alive=True, reason="a"),
                                                   SeatResult.graded(1, won=False, alive=False, reason="b"),
                                                   SeatResult.graded(2, won=True, alive=False, reason="c")]))
    assert graded["winner"] is None and graded["winners"] == [0, 2] and who_won(graded) == "seats 1, 3 win"
    assert [s["grade"] for s in graded["seats"]] == ["A", "D", "B"]
    nobody = outcome_fields(Outcome.judged("end", [SeatResult(0, False, "x"), SeatResult(1, False, "y")]))
    assert who_won(nobody) == "nobody wins"


def test_deck_files_are_read_through_the_games_own_deck_tool(tmp_path: Path) -> None:
    """Rider's deck tool lives in Rider's package, named by its registry entry; a game without decks has none."""
    from net.games import game_named
    from net.games.rider import deck_tool as rider_deck_tool
    from tools._cli import InputProblem, deck_tool

    assert deck_tool(game_named("rider")) is rider_deck_tool
    with pytest.raises(InputProblem, match="Tiny has no decks"):
        deck_tool(game_named("tiny"))
    own = str(assets.path("rider/decks/tidewall-vigil.deck.json"))
    setup = match.local_setup(game_named("rider"), 2, (own, None))
    assert list(setup.record["decks"][0]) == list(rider_deck_tool.deck_cards(own, None))  # the file, read by Rider's tool

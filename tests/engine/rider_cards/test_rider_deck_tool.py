"""``python -m tools.deck``: exit codes and messages, run as a real process
for check (the command players and CI use), in-process for the rest."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import assets
from tools import deck as deck_tool

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted(str(p) for p in assets.path("rider/decks").glob("*.deck.json"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tools.deck", *args], check=False, cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def write_deck(tmp_path: Path, cards: dict[str, int], cardset: str = "fairtable-core") -> Path:
    data = {
        "format": "fairtable.rider.deck/1",
        "name": {"en": "Broken", "ja": "壊れたデッキ"},
        "cardset": cardset,
        "cards": [{"id": i, "count": n} for i, n in cards.items()],
    }
    path = tmp_path / "test.deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_two_shipped_decks() -> None:
    assert len(SHIPPED) == 2


def test_check_legal_deck_prints_ok_exit_0() -> None:
    result = run("check", SHIPPED[0])
    assert (result.returncode, result.stdout, result.stderr) == (0, "ok\n", "")


def test_check_illegal_deck_lists_every_rule_exit_1(tmp_path: Path) -> None:
    path = write_deck(tmp_path, {"FT-001": 3, "FT-061": 2, "FT-012": 1, "FT-036": 1, "ZZ-1": 1})
    result = run("check", str(path))
    assert result.returncode == 1
    for n in range(1, 9):
        assert f"[rider.deck.{n}]" in result.stdout, result.stdout


def test_check_unreadable_json_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.deck.json"
    path.write_text('{"format": "fairtable.rider.deck/1",', encoding="utf-8")
    result = run("check", str(path))
    assert result.returncode == 2
    assert "not valid JSON" in result.stderr and "line 1" in result.stderr


def test_check_unknown_cardset_exit_2(tmp_path: Path) -> None:
    path = write_deck(tmp_path, {"FT-001": 2}, cardset="someone-elses-set")
    result = run("check", str(path))
    assert result.returncode == 2
    assert "'someone-elses-set'" in result.stderr and "--cardset" in result.stderr


def test_check_with_explicit_cardset_file(tmp_path: Path) -> None:
    other = assets.load_json("rider/cardset.json")
    other["id"] = "my-set"
    cardset = tmp_path / "my.cardset.json"
    cardset.write_text(json.dumps(other), encoding="utf-8")
    data = json.loads(Path(SHIPPED[1]).read_text(encoding="utf-8"))
    data["cardset"] = "my-set"
    deck = tmp_path / "mine.deck.json"
    deck.write_text(json.dumps(data), encoding="utf-8")
    assert deck_tool.main(["check", str(deck), "--cardset", str(cardset)]) == 0
    assert deck_tool.main(["check", str(deck)]) == 2


def test_check_invalid_cardset_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = assets.load_json("rider/cardset.json")
    broken["cards"][0]["power"] = -1
    cardset = tmp_path / "broken.cardset.json"
    cardset.write_text(json.dumps(broken), encoding="utf-8")
    assert deck_tool.main(["check", SHIPPED[0], "--cardset", str(cardset)]) == 2
    assert "FT-001" in capsys.readouterr().err


def test_missing_file_and_not_a_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert deck_tool.main(["check", str(tmp_path / "none.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
    path = tmp_path / "x.json"
    path.write_text('{"format": "other"}', encoding="utf-8")
    assert deck_tool.main(["check", str(path)]) == 2
    assert "not a Rider deck" in capsys.readouterr().err


def test_list_english_and_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    assert deck_tool.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Ley Highway Core Set" and len(lines) == 1 + 68
    assert lines[1].startswith("FT-001  Lv.1") and "Ember Scout" in lines[1]
    assert deck_tool.main(["list", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "残り火の斥候" in out and "レベルアップ時" in out


def test_show_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert deck_tool.main(["show", SHIPPED[0]]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ember Rush\n") and "24 cards" in out and out.rstrip().endswith("ok")


def test_bad_command_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert deck_tool.main(["frobnicate"]) == 2
    assert deck_tool.main(["list", "--lang", "fr"]) == 2

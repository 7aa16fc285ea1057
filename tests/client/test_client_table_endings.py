"""The table's own endings (a forfeit, resignations, seats leaving, an abandonment, a conviction)
are worded in the player's language on every game's end screen, Locke's included
(client/table/end_scene.py ``table_reason``; client/locke/__init__.py ``end_words``).

The reasons are written by the networked session (net/session/*.py); a test reads them from
the source so a new or reworded one cannot fall back to English unnoticed."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from client.table.end_scene import table_reason
from engine.core.game import Outcome
from net.session.leave import TOO_FEW

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed")
SESSION_DIR = Path(__file__).resolve().parents[2] / "net" / "session"


def _written_reasons() -> list[str]:
    """Every outcome reason the session writes, its fields filled with sample values."""
    found = []
    for path in sorted(SESSION_DIR.glob("*.py")):
        for literal in re.findall(r'"reason": f?"([^"]*)"', path.read_text(encoding="utf-8")):
            if literal != "ended":  # endgame.py's placeholder for a missing outcome, never shown as an ending
                literal = literal.replace("{TOO_FEW}", TOO_FEW)  # a named head (net/session/leave.py)
                found.append(re.sub(r"\{[^}]*\}", "2", literal))
    return found


def test_the_session_writes_the_reasons_this_test_knows() -> None:
    assert len(_written_reasons()) >= 7  # forfeit, two resignations, every-seat resignation, leaves, abandon, conviction


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("reason", _written_reasons())
def test_every_table_ending_the_session_writes_has_words(reason: str, lang: str) -> None:
    text = table_reason(reason, NAMES, 0, lang)
    assert text is not None, f"no words for the table ending {reason!r}"
    assert "{" not in text and "seat 2" not in text  # fields filled, seats named for people
    if lang == "ja":
        assert not text.isascii()


def test_a_seat_in_an_ending_is_named_for_people() -> None:
    forfeit = table_reason("seat 2 forfeited: it did not move in time", NAMES, 0, "en")
    convicted = table_reason("seat 0 was convicted of cheating (x); the table claims the game", NAMES, 0, "en")
    assert forfeit is not None and forfeit.startswith("Cy (Seat 3)")
    assert convicted is not None and convicted.startswith("You (Seat 1)")
    assert table_reason("seat 9 resigned", NAMES, 0, "en") is None  # no such seat: not worded as one


def test_a_game_s_own_ending_is_left_to_the_game() -> None:
    assert table_reason("locke.end.survivor: one side survives", NAMES, 0, "en") is None


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_locke_s_end_screen_words_seats_leaving_until_one_played(lang: str) -> None:
    """Seen after the leave helper's change: a 3-seat table where two seats stepped out showed the
    session's English reason at a Japanese table."""
    from client.locke import end_words
    session = SimpleNamespace(names=NAMES, me=0, state=SimpleNamespace(turn=4), moves=80)
    reason = ("seats left the game until only one seat still played (the last leave was signed at step 80): "
              "the game ended early with no single winner")
    text = end_words(session).reason(Outcome(None, reason), lang)
    assert text == table_reason(reason, NAMES, 0, lang) and "step 80" not in text

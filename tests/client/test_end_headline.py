"""The end screen's headline for one-winner games (Rider) and graded multi-winner games."""

from __future__ import annotations

from client.table.end_scene import headline, others_line
from engine.core import Outcome, SeatResult

NAMES = ("Ann", "Bo", "Cy")


def test_one_winner_and_draw_read_as_before() -> None:
    assert headline(Outcome(0, "r"), 0, NAMES, "en") == ("You won!", True)
    text, good = headline(Outcome(1, "r"), 0, NAMES, "en")
    assert "Bo" in text and not good
    assert headline(Outcome(None, "r"), 0, NAMES, "en") == ("Draw.", False)
    assert others_line(Outcome(1, "r"), 0, NAMES, "en") == ""


def test_graded_outcome_says_our_grade_and_lists_every_winner() -> None:
    out = Outcome.judged("locke.end", [SeatResult.graded(0, won=True, alive=False, reason="good"),
                                       SeatResult.graded(1, won=False, alive=True, reason="evil"),
                                       SeatResult.graded(2, won=True, alive=True, reason="good")])
    assert headline(out, 0, NAMES, "en") == ("You won (grade B)!", True)
    assert headline(out, 1, NAMES, "en") == ("You lost (grade C).", False)
    assert headline(out, 1, NAMES, "ja")[0] == "あなたの負け（グレードC）。"
    line = others_line(out, 1, NAMES, "en")
    assert line == "Winners: Ann (Seat 1): B, Cy (Seat 3): A"


def test_ungraded_several_winners_and_nobody_winning() -> None:
    two = Outcome.judged("r", [SeatResult(0, True, "x"), SeatResult(1, False, "y"), SeatResult(2, True, "z")])
    text, good = headline(two, 1, NAMES, "en")
    assert "Ann" in text and "Cy" in text and not good
    assert headline(two, 2, NAMES, "en")[1] is True
    none = Outcome.judged("r", [SeatResult(0, False, "x"), SeatResult(1, False, "y")])
    assert headline(none, 0, NAMES, "en") == ("Nobody won.", False)

"""The end screen of a Locke table says how the game ended in the player's language, with no
rule id in it (engine/locke/victory.py ENDINGS; client/locke/__init__.py end_words)."""

from __future__ import annotations

import pytest

from client.locke import end_reason
from engine.core.game import Outcome, SeatResult
from engine.locke.ending import REASONS
from engine.locke.victory import ENDINGS


def _outcome(ending: str) -> Outcome:
    return Outcome.judged(f"locke.end.{ending}: {REASONS[ending]}",
                          [SeatResult.graded(0, won=True, alive=True, reason="x"),
                           SeatResult.graded(1, won=False, alive=False, reason="y")])


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_ending_has_words_without_its_rule_id(ending: str, lang: str) -> None:
    text = end_reason(_outcome(ending), lang)
    assert text and "locke." not in text and "KMC" not in text
    if lang == "ja":
        assert not text.isascii()


def test_an_unknown_reason_is_still_said_for_people() -> None:
    assert end_reason(Outcome(None, "seat 0 resigned"), "en") == "seat 1 resigned"  # counted from 1

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


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_turn_line_of_a_finished_game_names_nobody_as_playing(lang: str) -> None:
    """Seen under the end screen: "Game over · turn 46 · Heuristic bot (Seat 4) plays"."""
    from client.locke.views import turn_line
    from client.locke.words import Namer
    from engine.core.hidden import Knowledge
    from net.games.locke import components
    from tests.client.locke_helpers import locke_table
    from twisted.internet.task import Clock

    _app, scene = locke_table(Clock(), seats=5, seed=3)
    over = scene.state._replace(phase="over", turn=46, current=3)
    namer = Namer(lang, ["Ann", "Bob", "Cy", "Di", "Ed"], 0, components(), Knowledge(0))
    line = turn_line(over, namer)
    assert "46" in line and "Di" not in line and ("plays" not in line if lang == "en" else "の番" not in line), line


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_turn_line_says_your_turn_on_our_turn(lang: str) -> None:
    """Seen: "Planet phase · turn 3 · You (Seat 1) plays" (then "play"): our own turn reads as ours."""
    from client.locke.views import turn_line
    from client.locke.words import Namer
    from client.table.words import WatchedNames
    from engine.core.hidden import Knowledge
    from net.games.locke import components
    from tests.client.locke_helpers import locke_table
    from twisted.internet.task import Clock

    _app, scene = locke_table(Clock(), seats=5, seed=3)
    ours = scene.state._replace(phase="planet", turn=3, current=0)
    names = ["Ann", "Bob", "Cy", "Di", "Ed"]
    line = turn_line(ours, Namer(lang, names, 0, components(), Knowledge(0)))
    assert line.endswith("your turn" if lang == "en" else "あなたの番"), line
    watched = turn_line(ours, Namer(lang, WatchedNames(names), 0, components(), Knowledge(0)))
    assert "Ann" in watched, watched

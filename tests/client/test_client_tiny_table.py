"""Tiny's table is the table layer's scene (client/tiny/scene.py onto client/table/scene.py).

A local three-seat Tiny table opened from the lobby gets, without a line of
its own, what every table has: the help overlay (F1) with Tiny's pages, the
settings panel, the log re-worded when the language changes, the Lobby
button asking first while the game runs, the concede question worded for a
table of more than two seats, and the end screen with the audit; Play again
opens a new local table of as many seats. Each seat shows its status from
the session.
"""

from __future__ import annotations

import re
from typing import Any

import pygame
from twisted.internet.task import Clock

from client.main import build_app
from client.settings import Settings
from client.table.status import COLOURS
from tests.client.conftest import click, key


def _tiny_table(clock: Clock, seats: int = 3) -> Any:
    app = build_app(clock=clock, settings=Settings(name="Ann", game="tiny", seats=seats))
    key(app, pygame.K_RETURN)  # the lobby's Play with Tiny chosen
    scene = app.scene
    assert scene.name == "tiny" and len(scene.session.names) == seats
    return app, scene


def test_a_local_tiny_table_has_the_layers_overlays_questions_and_log(clock: Clock, private_dirs: Any) -> None:
    app, scene = _tiny_table(clock)
    key(app, pygame.K_F1)
    assert scene.help is not None  # Tiny's help pages: the rules and the controls
    app.render()
    key(app, pygame.K_ESCAPE)
    assert scene.help is None
    click(app, next(b for b in scene.side_buttons if b.payload == "settings").rect.center)
    assert scene.settings_panel is not None
    scene.toggle_settings()
    for _ in range(10):  # the bots and the table play on the clock until our first question
        clock.advance(0.5)
        app.tick()
    assert scene.buttons and {b.label for b in scene.buttons} == {"Guess high (7+)", "Guess low (6 or less)"}
    statuses = [scene.session.peer_status(s) for s in range(3)]
    assert statuses[0] == "peer_you_turn" and set(statuses) <= set(COLOURS)
    english = [e.text for e in scene.log]
    assert english[0].startswith("When it is your turn") and "The deck is shuffled." in english
    app.set_lang("ja")
    scene.update(clock.seconds())
    assert [e.text for e in scene.log] != english and len(scene.log) == len(english)  # re-worded, none lost
    app.set_lang("en")
    scene.update(clock.seconds())
    click(app, scene.leave_button.rect.center)  # the game runs: the table asks first
    assert scene.prompt is not None and scene.prompt.kind == "leave" and app.scene is scene
    key(app, pygame.K_ESCAPE)
    assert scene.prompt is None and scene.buttons  # our choices are back
    click(app, next(b for b in scene.side_buttons if b.payload == "concede").rect.center)
    assert scene.prompt is not None and "with no winner" in " ".join(scene.prompt.lines)  # three seats: nobody wins
    click(app, scene.prompt.buttons[0].rect.center)  # Concede
    assert scene.session.over
    for _ in range(5):
        clock.advance(0.5)
        app.tick()
    end = app.scene
    assert end.name == "end" and end.audit_ok, end.audit_detail
    outcome = end.session.outcome()
    assert outcome is not None and outcome.winner is None and outcome.reason == "seat 0 conceded"
    click(app, end.again_button.rect.center)  # Play again: a new local table of as many seats
    again = app.scene
    assert again.name == "tiny" and again is not scene and len(again.session.names) == 3
    assert not again.session.over and again.session.moves == 0
    click(app, again.leave_button.rect.center)
    click(app, again.prompt.buttons[0].rect.center)  # Leave: back to the lobby
    assert app.scene.name == "lobby"


def test_a_tiny_table_draws_every_seat_with_its_status_at_the_smallest_window(clock: Clock, private_dirs: Any) -> None:
    app = build_app(size=(960, 600), clock=clock, settings=Settings(name="Ann", game="tiny", seats=6))
    key(app, pygame.K_RETURN)
    scene = app.scene
    for _ in range(10):
        clock.advance(0.5)
        app.tick()
    app.render()
    ring = scene.ring
    assert ring is not None
    for seat, rect in enumerate(ring.seats):  # the status dot of each seat is drawn in its status colour
        colour = COLOURS[scene.session.peer_status(seat)]
        inner = rect.inflate(-12, -8)
        dot = {tuple(app.screen.get_at((x, y))[:3]) for x in range(inner.left, inner.left + 9)
               for y in range(inner.bottom - 16, inner.bottom)}
        assert tuple(colour) in dot, (seat, colour)


def test_tiny_reads_as_a_game_cards_by_number_and_each_total_explained_at_the_end(clock: Clock) -> None:  # type: ignore[no-untyped-def]
    """Issue 29 item 7: no card ids ("c13"), the reveal and the secret show explained, and every
    seat's total shown as card + dice + guess at the end (engine/tiny/game.py score_parts)."""
    import random as random_module

    from engine.tiny.game import score_parts
    from tests.local_tables import play_out, tiny_session

    app = build_app(clock=clock, settings=Settings(name="Ann", game="tiny", seats=3))
    session = tiny_session(clock, seats=3)
    from client.tiny.scene import TinyScene

    scene = TinyScene(app, session)
    app.switch(scene)
    play_out(session, clock, random_module.Random(3), tick=app.tick)
    scene.refresh()
    lines = scene.lines()
    assert not any(re.search(r"\bc\d\d\b", line) for line in lines + [e.text for e in scene.log]), lines
    parts = score_parts(session.state)
    for seat, (card, dice, bonus) in enumerate(parts):
        assert f"{card} + dice {dice} + guess {bonus} = {card + dice + bonus}" in scene.seat_line(seat)
    assert any("only they know which" in e.text for e in scene.log)
    winner = session.outcome().winner
    assert winner == max(range(3), key=lambda s: (sum(parts[s]), -s))  # the totals shown decide, ties to the lower seat


def test_the_end_screen_says_each_total_in_the_players_language(clock: Clock) -> None:  # type: ignore[no-untyped-def]
    """Seen in a real window (issue 29 item 5): after a networked Tiny game the end screen read
    "Reason: seat 2 scored highest", the engine's English, in the Japanese window too, and no
    totals. It names the winner with its total by parts and every other seat's total; a
    resignation or concession is worded by the table layer (client.table.end_scene.table_reason)."""
    import random as random_module

    from client.table.end_scene import EndScene
    from client.tiny import end_words
    from engine.core.game import Outcome
    from engine.tiny.game import score_parts
    from tests.local_tables import play_out, tiny_session

    app = build_app(size=(960, 600), clock=clock, settings=Settings(name="Ann", game="tiny", seats=3))
    session = tiny_session(clock, seats=3)
    play_out(session, clock, random_module.Random(5), tick=app.tick)
    outcome = session.outcome()
    assert outcome is not None and outcome.winner is not None
    words = end_words(session)
    parts = score_parts(session.state)
    for lang in ("en", "ja"):
        text = words.reason(outcome, lang)
        assert "scored highest" not in text, text
        assert all(str(sum(p)) in text for p in parts), text
    card, dice, bonus = parts[outcome.winner]
    assert f"(card {card} + dice {dice} + guess {bonus})" in words.reason(outcome, "en")
    assert " has " not in words.reason(outcome, "en")  # "You (Seat 1) has…" was seen: no verb to agree
    assert words.reason(Outcome(None, "seat 1 resigned"), "ja").endswith("が対局をやめた（署名付きのメッセージで降参）")
    end = EndScene(app, session, reason=words.reason, progress=words.progress)
    app.switch(end)
    app.set_lang("ja")
    end.resized((960, 600))
    app.render()


def test_a_watcher_reads_that_it_watches_not_an_empty_hand(clock: Clock) -> None:
    """A seat-less watcher's session (client/table/net_session.py ``watching``) holds no hand: the
    title says it watches with every hand face down, in the player's language."""
    app, scene = _tiny_table(clock)
    assert any(line.startswith("Your hand:") for line in scene.title_lines())
    scene.session.watching = True  # what a NetSession of a watcher says (its peer has no seat)
    lines = scene.title_lines()
    assert lines[-1] == "Watching: every hand stays face down" and not any("Your hand" in x for x in lines)
    app.set_lang("ja")
    assert scene.title_lines()[-1].startswith("見学中")

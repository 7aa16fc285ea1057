"""Issue 15 item 10, the smaller things: Enter in the lobby resumes a waiting
game; the lobby has the help and settings too; ..."""

from __future__ import annotations

import pygame

from client.lobby import LobbyScene
from client.settings import Settings
from net.identity import Identity
from tests.client.conftest import click, key
from tests.client.test_client_resume import _planted_game


def test_enter_in_the_lobby_resumes_a_waiting_game_instead_of_a_new_one(app) -> None:  # type: ignore[no-untyped-def]
    _planted_game(Identity.generate())  # a waiting game (held by another key, so the resume fails at once)
    started: list[Settings] = []
    lobby = LobbyScene(app, Settings(name="Me"), start_game=started.append, lan=False)
    app.switch(lobby)
    assert lobby.unfinished and lobby.resume_button.hotkey == "Enter" and lobby.play_button.hotkey == ""
    key(app, pygame.K_RETURN)
    assert started == []  # no new game against the bot ...
    assert lobby.message.startswith("Could not resume the game:")  # ... Enter tried the waiting one
    app.render()


def test_enter_plays_the_bot_when_nothing_waits(app) -> None:  # type: ignore[no-untyped-def]
    started: list[Settings] = []
    lobby = LobbyScene(app, Settings(name="Me"), start_game=started.append, lan=False)
    app.switch(lobby)
    assert not lobby.unfinished and lobby.play_button.hotkey == "Enter"
    key(app, pygame.K_RETURN)
    assert len(started) == 1


def test_the_lobby_opens_help_and_settings(app) -> None:  # type: ignore[no-untyped-def]
    started: list[Settings] = []
    lobby = LobbyScene(app, Settings(name="Me"), start_game=started.append, lan=False)
    app.switch(lobby)
    key(app, pygame.K_F1)
    assert lobby.help is not None
    key(app, pygame.K_RETURN)
    assert started == []  # the overlay is modal
    key(app, pygame.K_ESCAPE)
    assert lobby.help is None
    click(app, lobby.settings_button.rect.center)
    assert lobby.settings_panel is not None
    ja = next(b for _, _, c in lobby.settings_panel.choices for b in c.buttons if b.payload == "ja")
    click(app, ja.rect.center)
    assert app.lang == "ja" and lobby.settings.lang == "ja" and lobby.play_button.label == "ボットと対戦"
    app.render()
    key(app, pygame.K_ESCAPE)
    assert lobby.settings_panel is None


def finish_game(app, clock, scene) -> None:  # type: ignore[no-untyped-def]
    import random

    from net.games import game_named

    session = scene.session
    me = game_named("rider").bot("greedy", random.Random(5))
    while not scene.ended:
        if scene.legal:
            session.submit(me.choose(session.game, session.state, session.me, session.knowledge, scene.legal))
            scene.refresh()
        clock.advance(1.0)
        app.tick()


def test_the_end_dialog_can_be_put_away_to_look_at_the_final_board(app, clock) -> None:  # type: ignore[no-untyped-def]
    from client.rider.demo import play_to_midgame

    scene = play_to_midgame(app, clock, seed=11)
    finish_game(app, clock, scene)
    end = app.scene
    assert end.name == "end" and end.board is scene and not end.dismissed
    click(app, end.board_button.rect.center)
    assert end.dismissed
    app.render()
    # the final board is live: hovering a card on it shows its preview
    rect, card = scene.faces[0]
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0)))
    assert scene.hover_card == card
    key(app, pygame.K_s)  # the result's keys do nothing while it is away ...
    assert end.saved == ""
    key(app, pygame.K_b)  # ... and B brings it back
    assert not end.dismissed
    key(app, pygame.K_b)
    click(app, end.result_button.rect.center)
    assert not end.dismissed
    app.render()


def test_concede_on_a_local_table_ends_the_game_for_the_bot(app, clock) -> None:  # type: ignore[no-untyped-def]
    from client.rider.demo import play_to_midgame

    scene = play_to_midgame(app, clock, seed=11)
    moves = scene.session.moves
    button = next(b for b in scene.side_buttons if b.payload == "concede")
    click(app, button.rect.center)
    assert scene.prompt is not None and scene.prompt.kind == "concede" and not scene.session.over  # asks first
    yes = next(b for b in scene.prompt.buttons if b.label == "Concede")
    click(app, yes.rect.center)
    assert scene.session.over and scene.legal == []
    outcome = scene.session.outcome()
    assert outcome.winner == scene.opp and outcome.reason == "seat 0 conceded"
    for _ in range(2):  # the table lets the last move settle, then shows the end
        clock.advance(1.0)
        app.tick()
    end = app.scene
    assert end.name == "end" and end.audit_ok  # every recorded input still replays
    assert scene.session.moves == moves
    from client.table.end_scene import headline
    from client.rider.describe import reason_text

    assert headline(outcome, scene.me, scene.session.names, "en")[0] == "Greedy bot (Seat 2) won."
    assert reason_text(outcome.reason, outcome.winner, scene.session.names, scene.me, "en") == "You (Seat 1) conceded"
    saved = scene.session.transcript()
    assert saved["end"]["outcome"]["reason"] == "seat 0 conceded" and saved["end"]["conceded"] == 0
    assert not any(b.payload == "concede" for b in scene.side_buttons)


def test_a_peer_bot_without_a_name_shows_the_bot_that_plays_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import time

    from twisted.internet import reactor

    from client.app import App
    from tests.client.test_client_net import bot_peer, pump

    app = App((1280, 800), clock=reactor)
    lobby = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1", resumable=False)
    app.switch(lobby)
    lobby._host()
    bot = bot_peer(lobby.net.code, tmp_path, name=None)  # tools.peer join CODE --bot random, no --name
    try:
        deadline = time.monotonic() + 60  # a safety net against a hang, not a speed target
        while time.monotonic() < deadline and app.scene.name != "table" and bot.poll() is None:
            pump(app, reactor)
        assert app.scene.name == "table"
        assert app.scene.session.names[1] == "Random bot"  # not a bare key fingerprint
        app.scene.session.leave()
    finally:
        if bot.poll() is None:
            bot.kill()
        bot.wait()

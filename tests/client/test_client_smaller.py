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

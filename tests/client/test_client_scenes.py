"""Every scene builds and draws (headless), in both languages and sizes."""

from __future__ import annotations

import pygame
import pytest

from client.rider.play import end_words
from client.table.end_scene import show_end
from client.lobby import LobbyScene
from client.rider.demo import play_to_midgame
from client.rider.play import start_local_game
from client.settings import Settings
from tests.client.conftest import click, key


def distinct_colours(surface: pygame.Surface, step: int = 4) -> int:
    w, h = surface.get_size()
    return len({surface.get_at((x, y))[:3] for x in range(0, w, step) for y in range(0, h, step)})


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_lobby_draws_in_both_languages(app, lang):
    app.lang = lang
    app.switch(LobbyScene(app, Settings(lang=lang)))
    app.render()
    assert app.scene.name == "lobby"
    assert distinct_colours(app.screen) > 50
    assert app.scene.fingerprint, app.scene.identity_error  # real identity, created in the temp data dir


def test_lobby_language_switch_and_invite_check(app):
    scene = LobbyScene(app, Settings())
    app.switch(scene)
    click(app, scene.lang_choice.buttons[1].rect.center)
    assert app.lang == "ja" and scene.settings.lang == "ja"
    click(app, scene.code_field.rect.center)
    app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text="FT1-NOT-A-CODE"))
    click(app, scene.join_button.rect.center)
    assert "招待コード" in scene.message  # a clear rejection, never a fake connection
    assert scene.net is None  # nothing was dialled
    assert scene.host_button.enabled


def test_lobby_play_button_starts_a_bot_game(app):
    started = []
    scene = LobbyScene(app, Settings(), start_game=started.append)
    app.switch(scene)
    key(app, pygame.K_RETURN)
    assert len(started) == 1 and started[0].deck


def test_table_draws_at_set_up_and_after_resize(app, clock):
    scene = start_local_game(app, Settings(), on_leave=lambda: None, seed=3)
    app.render()
    assert scene.legal and scene.legal[0].KIND == "rider.setup"
    pygame.display.set_mode((1000, 640), pygame.RESIZABLE)
    app.dispatch(pygame.event.Event(pygame.VIDEORESIZE, size=(1000, 640), w=1000, h=640))
    app.render()
    assert scene.layout.size == (1000, 640)
    assert distinct_colours(app.screen) > 50


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_midgame_table_and_end_screen_draw(app, clock, lang):
    app.lang = lang
    scene = play_to_midgame(app, clock, seed=5)
    app.render()
    assert distinct_colours(app.screen) > 300
    end = show_end(app, scene, scene.session, words=end_words(scene.session))
    app.render()
    assert end.audit_ok, end.audit_detail

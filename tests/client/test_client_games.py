"""The lobby lists every game of the registry (net/games/) and opens a game's local table through
the client module its entry names: Tiny, registered once, is played to its end by clicks."""

from __future__ import annotations

import random

import pygame

from client.main import build_app
from client.settings import Settings
from net.games import games
from tests.client.conftest import click, key


def _pick(app, name: str) -> None:  # type: ignore[no-untyped-def]
    button = next(b for b in app.scene.game_choice.buttons if b.payload == name)
    click(app, button.rect.center)


def test_the_lobby_lists_every_registered_game_and_plays_tiny_by_clicks(clock, private_dirs) -> None:  # type: ignore[no-untyped-def]
    app = build_app(clock=clock, settings=Settings(name="Tester"))
    lobby = app.scene
    assert lobby.name == "lobby"
    assert [b.payload for b in lobby.game_choice.buttons] == [g.name for g in games()]
    assert {"locke", "rider", "tiny"} <= {b.payload for b in lobby.game_choice.buttons}
    assert [b.label for b in lobby.game_choice.buttons if b.payload == "tiny"] == ["Tiny"]
    _pick(app, "tiny")
    assert lobby.settings.game == "tiny" and "plays on this computer against bots" in lobby.message
    key(app, pygame.K_RETURN)
    table = app.scene
    assert table.name == "tiny"
    assert table.lines()[0] == "Tiny, 3 seats"
    rng = random.Random(3)
    for _ in range(20):
        if table.table.pending is None:
            break
        offered = [b for b in table.buttons if b is not table.leave_button]
        assert offered, "seat 0 waits only when it has something to choose"
        click(app, rng.choice(offered).rect.center)
    assert table.table.pending is None and table.table.outcome() is not None
    assert any(line.startswith(("You win", "Seat ")) for line in table.lines())
    click(app, table.leave_button.rect.center)
    assert app.scene.name == "lobby" and app.scene.settings.game == "tiny"  # the choice is remembered


def test_a_game_without_a_client_table_is_listed_and_says_how_to_play_it(clock, private_dirs) -> None:  # type: ignore[no-untyped-def]
    app = build_app(clock=clock, settings=Settings(name="Tester"))
    _pick(app, "locke")
    assert "Super Human Locke has no table in this client yet" in app.scene.message
    assert "python -m tools.match locke" in app.scene.message
    key(app, pygame.K_RETURN)
    assert app.scene.name == "lobby"

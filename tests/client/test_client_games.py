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


def test_tiny_seats_ten_players_around_the_table_without_overlap(clock, private_dirs) -> None:  # type: ignore[no-untyped-def]
    """The table layer's N-seat layout in a real scene: ten seats at the smallest window,
    ours at the bottom, each seat's place and the middle apart, seats named from 1."""
    from client.tiny.scene import TinyScene
    from net.games import game_named

    app = build_app(size=(960, 600), clock=clock, settings=Settings(name="Tester"))
    scene = TinyScene(app, game_named("tiny"), on_leave=lambda: None, seed=5, seats=10)
    app.switch(scene)
    app.render()
    ring = scene.ring
    assert ring is not None and len(ring.seats) == 10
    rects = [*ring.seats, ring.middle]
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(scene.board().contains(r) for r in rects)
    assert ring.of(0).centery == max(r.centery for r in ring.seats)  # ours, nearest the player
    assert not any(b.rect.colliderect(r) for b in scene.buttons for r in rects)  # the buttons sit below
    assert scene.seat_line(9).startswith("Bot (seat 10)")
    assert "Bot (seat 0)" not in " ".join(scene.lines())

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
    assert lobby.settings.game == "tiny" and lobby.message == ""  # Tiny plays with friends too
    [(label, seats)] = lobby.setup_choices  # Tiny's own set-up picker: the number of seats
    assert label == "Seats" and [b.payload for b in seats.buttons] == [str(n) for n in range(2, 11)]
    click(app, next(b for b in seats.buttons if b.payload == "4").rect.center)
    assert lobby.settings.seats == 4
    key(app, pygame.K_RETURN)
    table = app.scene
    assert table.name == "tiny"
    assert table.lines()[0] == "Tiny, 4 seats"
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
    lobby = app.scene
    assert "Super Human Locke has no table in this client yet" in lobby.message
    assert "python -m tools.match locke" in lobby.message
    assert lobby.setup_choices == [] and lobby.net_entry() is None  # local-only, shown as such:
    assert not lobby.host_button.enabled and not lobby.join_button.enabled  # no hosting, no joining
    key(app, pygame.K_RETURN)
    assert app.scene.name == "lobby"


def test_the_friends_panel_lists_every_networked_game_and_hosts_the_chosen_one(clock, private_dirs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Rider and Tiny are hosted with their own set-up (Tiny: the seats chosen); Locke is honest about
    being local-only. A screenshot of each listing is written (and read back) headless."""
    from twisted.internet import reactor

    from client.app import App
    from client.i18n import tr
    from client.lobby import LobbyScene

    app = App((1280, 800), clock=reactor)
    try:
        lobby = LobbyScene(app, Settings(name="Host", game="tiny", seats=5), lan=False, host_interface="127.0.0.1",
                           resumable=False)
        app.switch(lobby)
        assert [g.name for g in lobby.net_games()] == ["rider", "tiny"]  # the registry's networked games
        assert lobby.host_button.label == "Host a Tiny table" and lobby.host_button.enabled
        shots = {}
        for game in ("tiny", "rider", "locke"):
            _pick(app, game)
            app.render()
            shots[game] = tmp_path / f"lobby-{game}.png"
            pygame.image.save(app.screen, str(shots[game]))
            assert pygame.image.load(str(shots[game])).get_size() == (1280, 800)
        assert not lobby.host_button.enabled and tr("en", "friends_off", game="Super Human Locke",
                                                    games="Rider, Tiny").startswith("Super Human Locke cannot")
        _pick(app, "tiny")
        click(app, lobby.host_button.rect.center)
        net = lobby.net
        assert net is not None and net.entry.name == "tiny" and net.seats == 5, lobby.message
        assert net.seats_free() == 4 and net.code.startswith("FT1-")  # five seats, ours taken
        net.cancel()
    finally:
        for _ in range(20):
            reactor.iterate(0.002)
        app.running = False


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

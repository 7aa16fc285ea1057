"""The lobby lists every game of the registry (net/games/) and opens a game's local table through
the client module its entry names: Tiny, registered once, is played to its end by clicks."""

from __future__ import annotations

import random

import pygame

from client import theme
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
    assert [b.payload for b in table.side_buttons] == ["lobby", "settings", "help", "concede"]  # the layer's
    rng = random.Random(3)
    for _ in range(400):  # the bots play on the reactor clock; we click one of our buttons when offered
        if app.scene is not table:
            break
        if table.buttons:
            assert table.legal, "a button is offered only for a legal input"
            click(app, rng.choice(table.buttons).rect.center)
        clock.advance(0.5)
        app.tick()
    session = table.session
    assert session.over and session.outcome() is not None
    assert len(table.log) == 1 + session.moves  # the opening hint, then one line per applied input
    assert any(line.startswith(("You win", "Random bot (Seat ")) or line == "Draw." for line in table.lines())
    end = app.scene
    assert end.name == "end" and end.audit_ok, end.audit_detail  # the table layer's end screen and audit
    click(app, end.lobby_button.rect.center)
    assert app.scene.name == "lobby" and app.scene.settings.game == "tiny"  # the choice is remembered


def test_a_game_without_a_client_table_is_listed_and_says_how_to_play_it(clock, private_dirs, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A control that cannot work is visibly off, with the reason beside it, in both languages.
    Every shipped game has a table now, so Locke's entry stands in without its client UI."""
    import dataclasses

    import net.games
    from client.i18n import tr

    monkeypatch.setitem(net.games._GAMES, "locke", dataclasses.replace(net.games.game_named("locke"), client_ui=None))
    app = build_app(clock=clock, settings=Settings(name="Tester"))
    _pick(app, "locke")
    lobby = app.scene
    assert lobby.setup_choices == [] and lobby.net_entry() is None  # local-only, shown as such:
    assert not lobby.play_button.enabled  # no Locke table in this client: Play against a bot is off
    assert "Super Human Locke has no table in this client yet" in lobby.play_blocked()
    assert "python -m tools.match locke" in lobby.play_blocked()
    assert not lobby.host_button.enabled and not lobby.join_button.enabled  # no hosting, no joining
    assert lobby.friends_blocked().startswith("Super Human Locke cannot be played with friends yet")
    app.render()
    hint = pygame.Rect(lobby.left.left + 20, lobby.hint_top, lobby.left.width - 40,
                       lobby.play_button.rect.top - lobby.hint_top - 4)
    warn = {tuple(app.screen.get_at((x, y))[:3]) for x in range(hint.left, hint.right, 2)
            for y in range(hint.top, hint.bottom, 2)}
    assert tuple(theme.WARN) in warn  # the reason is drawn beside the button, as a warning
    click(app, lobby.play_button.rect.center)
    key(app, pygame.K_RETURN)
    assert app.scene is lobby  # neither the button nor Enter starts anything
    app.set_lang("ja")
    lobby.layout()
    assert lobby.play_blocked() == tr("ja", "game_no_ui", game="超人ロック", name="locke")  # its Japanese name
    assert lobby.play_blocked() != tr("en", "game_no_ui", game="Super Human Locke", name="locke")
    app.set_lang("en")
    for game in ("rider", "tiny"):  # every registered game with a table: its buttons work and say nothing
        _pick(app, game)
        assert lobby.play_button.enabled and lobby.play_blocked() == ""
        assert lobby.host_button.enabled and lobby.join_button.enabled and lobby.friends_blocked() == ""
        for _label, choice in lobby.setup_choices:  # every option of its set-up picker can be picked
            assert choice.buttons and all(b.enabled for b in choice.buttons)


def test_a_lobby_without_an_identity_turns_hosting_off_and_says_why(clock, private_dirs, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from client import lobby as lobby_module

    monkeypatch.setattr(lobby_module, "load_identity", lambda: (None, "permission denied: id.pem"))
    app = build_app(clock=clock, settings=Settings(name="Tester", game="tiny"))
    lobby = app.scene
    assert not lobby.host_button.enabled and not lobby.join_button.enabled
    assert "identity key could not be opened" in lobby.friends_blocked()  # above the buttons; in full below:
    assert "permission denied" in lobby.message and "restart" in lobby.message
    assert lobby.play_button.enabled  # a local table needs no key


def test_the_friends_panel_lists_every_networked_game_and_hosts_the_chosen_one(clock, private_dirs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Rider and Tiny are hosted with their own set-up (Tiny: the seats chosen); Locke is honest about
    being local-only. A screenshot of each listing is written (and read back) headless."""
    from twisted.internet import reactor

    from client.app import App
    from client.lobby import LobbyScene

    app = App((1280, 800), clock=reactor)
    try:
        lobby = LobbyScene(app, Settings(name="Host", game="tiny", seats=5), lan=False, host_interface="127.0.0.1",
                           resumable=False)
        app.switch(lobby)
        assert [g.name for g in lobby.net_games()] == ["locke", "rider", "tiny"]  # the registry's networked games
        assert lobby.host_button.label == "Host a Tiny table" and lobby.host_button.enabled
        shots = {}
        for game in ("tiny", "rider", "locke"):
            _pick(app, game)
            app.render()
            shots[game] = tmp_path / f"lobby-{game}.png"
            pygame.image.save(app.screen, str(shots[game]))
            assert pygame.image.load(str(shots[game])).get_size() == (1280, 800)
        assert lobby.host_button.enabled and lobby.host_button.label == "Host a Super Human Locke table"
        assert lobby.friends_blocked() == ""
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
    from client.tiny import local_session
    from client.tiny.scene import TinyScene
    from net.games import game_named

    app = build_app(size=(960, 600), clock=clock, settings=Settings(name="Tester"))
    scene = TinyScene(app, local_session(app, game_named("tiny"), 10, seed=5), on_leave=lambda: None)
    app.switch(scene)
    app.render()
    ring = scene.ring
    assert ring is not None and len(ring.seats) == 10
    rects = [*ring.seats, ring.middle]
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(scene.board().contains(r) for r in rects)
    assert ring.of(0).centery == max(r.centery for r in ring.seats)  # ours, nearest the player
    side = scene.side()
    assert not any(b.rect.colliderect(r) for b in scene.buttons + scene.side_buttons for r in rects)  # below, beside
    assert not any(side.colliderect(r) for r in rects) and not side.colliderect(scene.bar())
    assert scene.seat_line(9).startswith("Random bot (Seat 10)")
    assert scene.seat_line(0).startswith("You (Seat 1)")
    assert "Seat 0" not in " ".join(scene.lines())


def test_game_names_are_shown_in_the_players_language(clock):  # type: ignore[no-untyped-def]
    """Issue 29 item 7: the game row and the host button name the games in Japanese too."""
    app = build_app(clock=clock, settings=Settings(name="Tester", lang="ja"))
    lobby = app.scene
    labels = [b.label for b in lobby.game_choice.buttons]
    assert {"超人ロック", "ライダー", "タイニー"} <= set(labels), labels
    assert "ライダー" in lobby.host_button.label
    app.render()
    app.set_lang("en")
    lobby.layout()
    assert {"Super Human Locke", "Rider", "Tiny"} <= {b.label for b in lobby.game_choice.buttons}

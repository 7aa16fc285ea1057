"""Watching a networked table from the client (issue 32 item 1): a lobby watches two bot peers
play Rider over TCP on 127.0.0.1 (client/rider/demo.py ``watched_midgame``, the real driver,
mesh and sessions). The watcher's screen never shows a hidden card: every card face drawn is
a public one and the pixels of both players' hand slots are exactly the card back, frame after
frame; its state hashes are the players'; the players' table lists the watcher; the lobby's
Watch button watches by code and says so."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pygame

from client.lobby import LobbyScene
from client.rider.demo import watched_midgame
from client.settings import Settings
from client.table.log_panel import watchers_line
from client.table.net_session import NetSession
from client.table.words import player_label
from tests.client.conftest import click, knowable
from tests.client.test_client_net import pump, real_app  # noqa: F401  (the fixture)


def _backs_only(app: Any, scene: Any, seat: int) -> int:
    """Check that every hand slot of ``seat`` shows the card back; the number of slots checked."""
    slots = scene.hand_slots(seat)
    if not slots or not all(b.left >= a.right for a, b in itertools.pairwise(slots)):
        return 0
    for rect in slots:
        inner = rect.inflate(-6, -6)
        expected = scene._felt(app.screen.get_size()).subsurface(rect).copy()
        expected.blit(scene.art.back(rect.size), (0, 0))
        back = expected.subsurface(inner.move(-rect.left, -rect.top))
        assert pygame.image.tobytes(app.screen.subsurface(inner), "RGB") == pygame.image.tobytes(back, "RGB")
    return len(slots)


def test_the_watchers_screen_shows_no_hidden_card_and_agrees_with_the_players(real_app) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    app, reactor = real_app
    scene, host, remote = watched_midgame(app, reactor, step=4, hold=False)
    session = scene.session
    watcher = session.peer
    assert session.watching and watcher.seat is None and dict(session.knowledge.cards) == {}
    asked: list[str] = []
    real_face = scene.art.face

    def spy(card_id: str, size: Any, lang: str) -> Any:
        asked.append(card_id)
        return real_face(card_id, size, lang)

    scene.art.face = spy
    host.delay = remote.delay = 0.1  # the players slow down: many frames to look at
    # the players see the watcher by name (now, while it watches); the watcher sees nobody as "you"
    assert NetSession(host, clock=reactor).watchers() == ["Watcher"]
    assert player_label(0, session.names, session.me, "en") == "Aki (Seat 1)"
    assert "Watching without a seat" in watchers_line(scene, "en")
    try:
        _watch_to_the_end(app, reactor, scene, asked, host)
    finally:
        session.stop()
        for peer in (host, remote, watcher):
            if peer.result is None:
                peer.leave("the test is over")
        for _ in range(20):
            pump(app, reactor)


def _watch_to_the_end(app: Any, reactor: Any, scene: Any, asked: list[str], host: Any) -> None:
    session = scene.session
    watcher = session.peer
    checked = frames = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if session.over or watcher.result is not None:
            break
        pump(app, reactor, 3)
        asked.clear()
        scene.draw(app.screen)
        frames += 1
        allowed = knowable(scene)  # public zones only: a watcher knows no card
        assert set(asked) <= allowed, f"the watcher's screen drew faces nobody public may see: {set(asked) - allowed}"
        if frames % 5 == 0:  # every fifth frame at rest (cards flying are drawn over the slots)
            scene.anims.clear()
            scene.draw(app.screen)
            checked += _backs_only(app, scene, 0) + _backs_only(app, scene, 1)
    assert frames > 30 and checked > 60, (frames, checked)
    while time.monotonic() < deadline:
        if watcher.result is not None and host.result is not None:
            break
        pump(app, reactor, 2)
    assert watcher.session is not None and host.session is not None
    assert watcher.session.hashes == host.session.hashes and watcher.session.finished
    while time.monotonic() < deadline + 10:  # the table hands over to the end screen
        if app.scene is not scene:
            break
        pump(app, reactor, 2)
    assert app.scene is not scene


def test_the_lobby_watches_by_code_and_says_so(real_app) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    from net.games import game_named
    from net.identity import Identity
    from net.peer import Peer

    app, reactor = real_app
    host = Peer(Identity.generate(), game_named("tiny"), reactor=reactor, name="Host", watchers=2, linger=0.2)
    code = host.host(2, interface="127.0.0.1").encode()
    viewer = LobbyScene(app, Settings(name="Viewer", lang="en"), lan=False, resumable=False)
    app.switch(viewer)
    click(app, viewer.code_field.rect.center)
    app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=code))
    assert viewer.watch_button.enabled
    click(app, viewer.watch_button.rect.center)
    assert viewer.net is not None and viewer.net.role == "watch" and viewer.net.peer.watch
    assert viewer.table_status() == "Waiting for the host's game to start; you will watch it without a seat"
    for _ in range(500):
        pump(app, reactor)
        if host.desk is not None and host.desk.watchers:
            break
    assert host.desk is not None and host.desk.names() == ["Viewer"], viewer.net.lines
    assert viewer.net.result is None  # it waits for the game, it is not turned away
    viewer.net.cancel()
    host.leave("the test is over")
    for _ in range(20):
        pump(app, reactor)
    # the host's setting: a table we host lets 4 watch, or none with Watchers off
    for allowed, expected in ((True, 4), (False, 0)):
        lobby = LobbyScene(app, Settings(name="Host", lang="en", watchers=allowed), lan=False,
                           host_interface="127.0.0.1", resumable=False)
        app.switch(lobby)
        lobby._host()
        assert lobby.net is not None and lobby.net.peer.watchers == expected
        lobby.net.cancel()
        for _ in range(20):
            pump(app, reactor)


def test_a_table_on_the_lan_list_is_watched_with_its_rows_watch(real_app) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The LAN list (its advertisement handed to the browser as zeroconf would) offers *Watch* at
    the right end of each row: a click there watches the table instead of taking a seat."""
    from client.lobby import lan_watch_rect
    from client.table.net_play import LanBrowser
    from net.identity import Identity

    app, reactor = real_app
    host = LobbyScene(app, Settings(name="Alice"), lan=False, host_interface="127.0.0.1", resumable=False)
    app.switch(host)
    click(app, host.host_button.rect.center)
    assert host.net is not None
    seeker = LobbyScene(app, Settings(name="Bob"), lan=False, identity=Identity.generate(), resumable=False)
    seeker.resized(app.screen.get_size())
    seeker.lan = LanBrowser(reactor, seeker._net_changed)  # not started: no sockets
    seeker.lan._found(host.net.ad())
    try:
        (row, _ad), = seeker.lan_rows()
        seeker.draw(app.screen)
        seeker.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=lan_watch_rect(row).center, button=1))
        assert seeker.net is not None and seeker.net.role == "watch"
        for _ in range(500):
            pump(app, reactor)
            if host.net.peer.desk is not None and host.net.peer.desk.watchers:
                break
        assert host.net.peer.desk is not None and host.net.peer.desk.names() == ["Bob"]
        assert host.net.seats_free() == 1  # watching takes no seat
    finally:
        if seeker.net is not None:
            seeker.net.cancel()
        host.net.cancel()
        seeker.lan = None
        for _ in range(20):
            pump(app, reactor)


def test_a_watcher_leaving_is_asked_to_stop_watching_not_to_give_a_game_up(real_app) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    app, reactor = real_app
    scene, host, remote = watched_midgame(app, reactor, step=4, hold=True)
    try:
        click(app, next(b for b in scene.side_buttons if b.payload == "lobby").rect.center)
        prompt = scene.prompt
        assert prompt is not None and prompt.kind == "leave"
        words = " ".join([prompt.title, *prompt.lines])
        assert "Stop watching" in words and "resignation" not in words and "give the game up" not in words, words
        assert prompt.options[0][0] == "Stop watching"
    finally:
        scene.session.stop()
        for peer in (host, remote, scene.session.peer):
            if peer.result is None:
                peer.leave("the test is over")
        for _ in range(20):
            pump(app, reactor)

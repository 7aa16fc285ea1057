"""Rematch at a table of more than two seats (Tiny, three seats, over TCP on 127.0.0.1).

What a player expects: everyone is offered Play again; the new game starts
when all have accepted (each of the last game's players back at the table
derived from its game id); while waiting the host sees who is back and whom
it still waits for; a player who does not come back (chose the lobby, or
left) is named, and the rematch ends instead of waiting for ever. The other
seats are in-process bot peers (the real driver); ours is the lobby's, as the host
and as a joiner.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from client.app import App
from client.lobby import LobbyScene
from client.scene import Scene
from client.settings import Settings
from tests.client.conftest import click

pytestmark = pytest.mark.slow


def pump_until(app: App, reactor: Any, done: Any, wall: float = 60.0) -> None:
    deadline = time.monotonic() + wall  # a safety net against a hang, not a speed target
    while time.monotonic() < deadline and not done():
        reactor.iterate(0.002)
        app.tick()
    assert done()


def tiny_peer(reactor: Any, identity: Any, invite: Any, name: str) -> Any:
    from net.games import game_named
    from net.peer import Peer

    tiny = game_named("tiny")
    peer = Peer(identity, tiny, reactor=reactor, agent=tiny.bot("random", random.Random(len(name))), delay=0.0,
                name=name, linger=0.5)
    peer.join(invite, connect_timeout=30.0)
    return peer


def _first_game(app: App, reactor: Any, peers: list[Any]) -> tuple[str, Any, list[Any]]:
    """Host a three-seat Tiny table in the lobby, seat two bot peers, end the game by our concession;
    return the invite code, the end screen and the two bots' identities."""
    from net.identity import Identity
    from net.transport.invite import parse_invite

    lobby = LobbyScene(app, Settings(name="Host", game="tiny", seats=3), lan=False, host_interface="127.0.0.1",
                       resumable=False)
    app.switch(lobby)
    lobby._host()
    code = lobby.net.code
    invite = parse_invite(code)
    identities = [Identity.generate(), Identity.generate()]
    peers += [tiny_peer(reactor, identities[0], invite, "Bot A"), tiny_peer(reactor, identities[1], invite, "Bot B")]
    pump_until(app, reactor, lambda: app.scene.name == "tiny")
    scene = app.scene
    peers.append(scene.session.peer)
    # as soon as there is a game to give up: other seats' parts may be in flight (the three-seat
    # resignation race, tests/net/session/test_resign_race.py), every peer still ends
    pump_until(app, reactor, lambda: scene.session.can_resign())
    scene.session.concede()
    pump_until(app, reactor, lambda: app.scene.name == "end")
    return code, app.scene, identities


def _rematch_invite(lobby_code: str, end: Any) -> Any:
    """The invite every player of the finished game derives for its rematch (client/table/net_play.py)."""
    from client.table.net_play import REMATCH_DOMAIN
    from engine.core.hashing import digest
    from net.transport.invite import Invite, parse_invite

    old = parse_invite(lobby_code)
    return Invite(digest(REMATCH_DOMAIN, end.session.session.gid)[:8], old.fingerprint, old.addresses)


def test_play_again_at_three_seats_starts_when_every_player_is_back() -> None:
    from twisted.internet import reactor

    app = App((1280, 800), clock=reactor)
    peers: list[Any] = []
    try:
        code, end, identities = _first_game(app, reactor, peers)
        old = end.session
        assert end.again_button.enabled  # everyone is offered a rematch: the host here
        invite = _rematch_invite(code, end)
        click(app, end.again_button.rect.center)
        waiting = app.scene
        assert waiting.name == "lobby" and waiting.net.role == "rematch" and waiting.net.seats == 3
        peers.append(waiting.net.peer)
        pump_until(app, reactor, lambda: bool(waiting.net.code))
        assert waiting.net.rematch_missing() == ["Bot A", "Bot B"]
        assert "Bot A" in waiting.table_status() and "Bot B" in waiting.table_status()
        peers.append(tiny_peer(reactor, identities[0], invite, "Bot A"))  # the first accepts
        pump_until(app, reactor, lambda: waiting.net.rematch_missing() == ["Bot B"])
        assert waiting.net.rematch_back() == ["Bot A"] and app.scene is waiting  # not started: Bot B is not back
        assert "Bot B" in waiting.table_status() and "Bot A" in waiting.table_status()
        peers.append(tiny_peer(reactor, identities[1], invite, "Bot B"))  # the second accepts: the game starts
        pump_until(app, reactor, lambda: app.scene.name == "tiny")
        new = app.scene.session
        peers.append(new.peer)
        assert len(new.names) == 3 and new.session.gid != old.session.gid
        assert set(new.peer.genesis.seat_keys) == set(old.peer.genesis.seat_keys)  # the same three players
        new.leave()
    finally:
        app.switch(Scene(app))  # the table scene stops following its session
        for peer in peers:
            if peer.result is None:
                peer.leave("test over")
        for _ in range(200):
            reactor.iterate(0.002)
        app.running = False


def test_a_player_who_does_not_come_back_is_named_and_the_rematch_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    from twisted.internet import reactor

    from client.table import net_play

    monkeypatch.setattr(net_play, "REMATCH_WAIT", 4.0)
    app = App((1280, 800), clock=reactor)
    peers: list[Any] = []
    try:
        code, end, identities = _first_game(app, reactor, peers)
        invite = _rematch_invite(code, end)
        click(app, end.again_button.rect.center)
        waiting = app.scene
        peers.append(waiting.net.peer)
        pump_until(app, reactor, lambda: bool(waiting.net.code))
        back = tiny_peer(reactor, identities[0], invite, "Bot A")  # Bot A accepts; Bot B chose the lobby
        peers.append(back)
        pump_until(app, reactor, lambda: waiting.net.rematch_missing() == ["Bot B"])
        pump_until(app, reactor, lambda: waiting.net is None, wall=30.0)  # the wait is over: said, not hung
        assert "Bot B" in waiting.message and "did not come back" in waiting.message, waiting.message
        pump_until(app, reactor, lambda: back.result is not None, wall=30.0)  # the one who came back is let go
        assert back.genesis is None
    finally:
        app.switch(Scene(app))  # the table scene stops following its session
        for peer in peers:
            if peer.result is None:
                peer.leave("test over")
        for _ in range(200):
            reactor.iterate(0.002)
        app.running = False


def tiny_host(reactor: Any, identity: Any, name: str, *, port: int = 0, table: bytes | None = None,
              players: frozenset[bytes] | None = None) -> Any:
    from net.games import game_named
    from net.peer import Peer

    tiny = game_named("tiny")
    peer = Peer(identity, tiny, reactor=reactor, agent=tiny.bot("random", random.Random(7)), delay=0.0, name=name,
                linger=0.5)
    if players is not None:
        peer.allowed_keys = players - {identity.public_key}
    peer.host(3, interface="127.0.0.1", port=port, table=table)
    return peer


def test_a_joiner_of_three_is_offered_play_again_and_meets_everyone_again() -> None:
    """Our client joins a three-seat table hosted by a bot peer: its end screen offers Play again too;
    pressing it, the lobby waits for the host by name; at the host's table it shows the host back
    and waits for the third player by name (the host's roster); once the third player is back at
    the derived table, the new game starts with the same three keys."""
    from twisted.internet import reactor

    from client.table.net_play import REMATCH_DOMAIN
    from engine.core.hashing import digest
    from net.identity import Identity
    from net.transport.invite import Invite

    app = App((1280, 800), clock=reactor)
    peers: list[Any] = []
    try:
        host_id, third_id = Identity.generate(), Identity.generate()
        host = tiny_host(reactor, host_id, "Bot Host")
        peers.append(host)
        invite = host.invite
        lobby = LobbyScene(app, Settings(name="Me", game="tiny"), lan=False, host_interface="127.0.0.1",
                           resumable=False)
        app.switch(lobby)
        lobby._join(invite.encode())
        peers.append(lobby.net.peer)
        peers.append(tiny_peer(reactor, third_id, invite, "Bot C"))
        pump_until(app, reactor, lambda: app.scene.name == "tiny")
        scene = app.scene
        assert scene.me != 0 and len(scene.session.names) == 3
        pump_until(app, reactor, lambda: scene.session.can_resign())
        keys = set(scene.session.peer.genesis.seat_keys)
        gid = scene.session.session.gid
        scene.session.concede()
        pump_until(app, reactor, lambda: app.scene.name == "end")
        end = app.scene
        assert end.again_button.enabled  # a joiner is offered the rematch too
        click(app, end.again_button.rect.center)
        waiting = app.scene
        assert waiting.name == "lobby" and waiting.net.role == "rematch" and waiting.net.rematch.role == "join"
        peers.append(waiting.net.peer)
        assert waiting.net.rematch_missing() == ["Bot Host"] and "Bot Host" in waiting.table_status()
        pump_until(app, reactor, lambda: host.result is not None)  # the old game let its port go
        derived = digest(REMATCH_DOMAIN, gid)[:8]
        again = tiny_host(reactor, host_id, "Bot Host", port=invite.addresses[0][1], table=derived,
                          players=frozenset(keys))  # the host presses Play again: its old port, the derived table
        peers.append(again)
        pump_until(app, reactor, lambda: waiting.net is None or waiting.net.at_host or app.scene is not waiting)
        assert waiting.net is not None and waiting.net.at_host, (waiting.message, waiting.net and waiting.net.lines)
        # the host's roster (net.peer.lobby "seated") tells us who is back and whom the table still waits for
        pump_until(app, reactor, lambda: waiting.net is not None and waiting.net.rematch_missing() == ["Bot C"])
        assert waiting.net.rematch_back() == ["Bot Host"]
        status = waiting.table_status()
        assert "waiting for Bot C" in status and "Back at the table: Bot Host" in status, status
        peers.append(tiny_peer(reactor, third_id, Invite(derived, invite.fingerprint, invite.addresses), "Bot C"))
        pump_until(app, reactor, lambda: app.scene.name == "tiny")
        new = app.scene.session
        peers.append(new.peer)
        assert set(new.peer.genesis.seat_keys) == keys and new.session.gid != gid
        new.leave()
    finally:
        app.switch(Scene(app))
        for peer in peers:
            if peer.result is None:
                peer.leave("test over")
        for _ in range(200):
            reactor.iterate(0.002)
        app.running = False

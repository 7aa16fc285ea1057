"""Issue 15 item 10: rematch on networked tables. After a networked game the
end screen's *Play again* meets the same player again, at a table both sides
derive from the finished game's id (no new code to pass on), on the host's old
address; nobody else may take the seat. Over TCP on 127.0.0.1 with the real
peer driver on both sides."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from client.app import App
from client.lobby import LobbyScene
from client.settings import Settings
from tests.client.conftest import click

pytestmark = pytest.mark.slow


def pump_until(app: App, reactor: Any, done: Any, wall: float = 60.0) -> None:
    deadline = time.monotonic() + wall  # a safety net against a hang, not a speed target
    while time.monotonic() < deadline and not done():
        reactor.iterate(0.002)
        app.tick()
    assert done()


def joiner(reactor: Any, identity: Any, invite: Any, name: str) -> Any:
    from client.rider.decks import shipped_decks
    from client.rider.session import deck_cards
    from net.games import game_named
    from net.peer import Peer

    deck = shipped_decks()[1]
    peer = Peer(identity, game_named("rider"), reactor=reactor, deck=deck_cards(deck.data),
                agent=game_named("rider").bot("greedy", random.Random(3)), name=name, linger=0.5)
    peer.join(invite, connect_timeout=30.0)
    return peer


def test_play_again_on_a_networked_table_meets_the_same_player_again() -> None:
    from twisted.internet import reactor

    from client.rider.demo import bot_peer
    from client.table.net_play import REMATCH_DOMAIN
    from engine.core.hashing import digest
    from net.identity import Identity
    from net.transport.invite import Invite, parse_invite

    app = App((1280, 800), clock=reactor)
    lobby = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1", resumable=False)
    app.switch(lobby)
    lobby._host()
    old_invite = parse_invite(lobby.net.code)
    remote = bot_peer(reactor, lobby.net.code, name="Remote bot")
    peers = [remote]
    try:
        pump_until(app, reactor, lambda: app.scene.name == "table" and bool(app.scene.legal or app.scene.session.moves))
        scene = app.scene
        host_key = scene.session.peer.identity.public_key
        gid = scene.session.session.gid
        scene.session.concede()  # the quickest end: our signed resignation
        pump_until(app, reactor, lambda: app.scene.name == "end")
        end = app.scene
        assert end.again_button.enabled  # Play again is offered on a networked table
        click(app, end.again_button.rect.center)
        assert app.scene.name == "lobby"
        waiting = app.scene
        assert waiting.net is not None and waiting.net.role == "rematch" and waiting.net.rematch.role == "host"
        app.render()
        pump_until(app, reactor, lambda: remote.result is not None)
        # both sides derive the same table from the finished game; the host listens on its old address again
        table = digest(REMATCH_DOMAIN, remote.session.gid)[:8]
        assert remote.session.gid == gid
        invite = Invite(table, old_invite.fingerprint, old_invite.addresses)
        pump_until(app, reactor, lambda: bool(waiting.net.code))
        assert parse_invite(waiting.net.code).table == table
        # someone else with the same derived invite is refused: the rematch is for the last game's players
        intruder = joiner(reactor, Identity.generate(), invite, "Intruder")
        peers.append(intruder)
        settle = time.monotonic() + 3
        while time.monotonic() < settle:
            reactor.iterate(0.002)
            app.tick()
        assert intruder.genesis is None and app.scene is waiting
        again = joiner(reactor, remote.identity, invite, "Remote bot")
        peers.append(again)
        pump_until(app, reactor, lambda: app.scene.name == "table")
        rematch = app.scene.session
        assert set(rematch.peer.genesis.seat_keys) == {host_key, remote.identity.public_key}
        assert rematch.session.gid != gid and rematch.names[1] == "Remote bot"
        rematch.leave()
    finally:
        for peer in peers:
            if peer.result is None:
                peer.leave("test over")
        for _ in range(100):
            reactor.iterate(0.002)

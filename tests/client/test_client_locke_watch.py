"""Watching a networked Locke table without a seat (a newcomer's playtest): the watcher's table
names no seat "you" anywhere: not in the banner, the bar, the combat box, the rail or the log,
and no line is drawn as its own (bold) while seat 1 decides. Five in-process peers play (a
heuristic-bot host that lets people watch and four bots it seats); the lobby watches by code."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from client.lobby import LobbyScene
from client.locke.scene import LockeScene
from client.locke.views import combat_lines, rail_lines
from client.settings import Settings
from engine.core.pending import Decision
from net.games import game_named
from net.identity import Identity
from net.peer import Peer
from net.peer.bot_seats import add_bot
from tests.client.test_client_net import pump, real_app  # noqa: F401  (the fixture)


def _no_you(scene: LockeScene) -> None:
    namer = scene.namer("en")
    words = [scene.banner_text(), scene.instruction(), *[e.text for e in scene.log]]
    words += combat_lines(scene.state, namer)
    for seat in range(len(scene.state.seats)):
        words += [namer.seat(seat), *rail_lines(scene.state, seat, namer)]
    bad = [w for w in words if "Your decision" in w or "You (Seat" in w or w.startswith("you:")]
    assert not bad, bad
    assert not any(e.turn_marker for e in scene.log if not e.text.startswith("The table stopped"))


@pytest.mark.slow
def test_a_watcher_of_a_locke_table_is_nobody_at_it(real_app) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    app, reactor = real_app
    entry = game_named("locke")
    host = Peer(Identity.generate(), entry, reactor=reactor, agent=entry.bot("heuristic", random.Random(1)),
                delay=0.02, name="Aki", linger=0.5, watchers=4)
    code = host.host(5, interface="127.0.0.1").encode()
    bots = [add_bot(host, "heuristic", seed=n) for n in range(4)]
    lobby = LobbyScene(app, Settings(name="Watcher", lang="en"), lan=False, host_interface="127.0.0.1",
                       resumable=False)
    app.switch(lobby)
    lobby._join(code, "locke", watch=True)
    seat1_decisions = 0
    scene: Any = None
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline and seat1_decisions < 6:
            pump(app, reactor, 3)
            if not isinstance(app.scene, LockeScene):
                continue
            scene = app.scene
            assert scene.seatless and scene.me == -1 and not scene.legal
            pending = scene.session.pending
            if isinstance(pending, Decision) and pending.seat == 0:
                seat1_decisions += 1
                assert "Aki (Seat 1) is deciding" in scene.banner_text(), scene.banner_text()
            _no_you(scene)
            app.render()
        assert scene is not None and seat1_decisions >= 1
        gone = bots[0]  # a player steps out: the watcher's rail says a bot plays on, as the players' do
        while time.monotonic() < deadline and not gone.can_step_out():
            pump(app, reactor, 3)
        gone.step_out()
        seat = gone.session.seat
        while time.monotonic() < deadline and seat not in scene.session.session.left:
            pump(app, reactor, 3)
        assert scene.session.peer_status(seat) == "peer_stand_in"
        scene._leave()
        assert scene.prompt is not None and scene.prompt.title == "Stop watching this table?"
    finally:
        if scene is not None:
            scene.session.stop()
        for peer in [host, *bots, *([scene.session.peer] if scene is not None else [])]:
            if peer.result is None:
                peer.leave("the test is over")
        for _ in range(20):
            pump(app, reactor)

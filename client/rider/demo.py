"""A reproducible mid-game table for screenshots, benchmarks and tests.

Both seats are played by greedy bots (the local seat's moves still go
through the session's ``submit``, like a human's) until the game reaches
a busy position; the scene is then left waiting for the local seat.
"""

from __future__ import annotations

import random
from typing import Any

from twisted.internet.task import Clock

from client.app import App
from client.rider.play import start_local_game
from client.rider.table_scene import RiderTableScene
from client.settings import Settings
from net.bots import GreedyBot
from net.games.rider.evaluation import rider_score


def busy(scene: RiderTableScene, prompt: str = "rider.main") -> bool:
    """Enough on the table to show everything (levels, piles, a full hand),
    with the local seat to make a ``prompt`` decision."""
    state = scene.session.state
    pending = scene.session.pending
    cards_up = sum(len(c.cards) for p in state.players for c in p.columns)
    return (state.turn >= 8 and cards_up >= 7 and any(p.discard for p in state.players) and bool(scene.legal)
            and getattr(pending, "prompt", "") == prompt)


def play_to_midgame(app: App, clock: Clock, *, seed: int = 11, max_steps: int = 3000) -> RiderTableScene:
    """Start a local game on ``app`` and play it to a busy position."""
    settings = Settings(name="Player", lang=app.lang)
    for attempt in range(20):
        scene = start_local_game(app, settings, on_leave=lambda: None, seed=seed + attempt)
        me = GreedyBot(random.Random(seed + attempt), rider_score)
        session = scene.session
        for _ in range(max_steps):
            if session.over:
                break
            if scene.legal:
                if busy(scene):
                    scene.anims.clear()
                    app.tick()
                    return scene
                choice = me.choose(session.game, session.state, session.me, session.knowledge, scene.legal)
                session.submit(choice)
                scene.refresh()
            clock.advance(1.0)
            app.tick()
    raise RuntimeError("no busy position found; try another seed")


def bot_peer(reactor: Any, code: str, *, seed: int = 1, deck_index: int = 1, name: str = "Remote bot") -> Any:
    """An in-reactor bot peer (the real ``net.peer.Peer``, a fresh identity) that
    joins the table of invite ``code``: the far side of a networked demo or test."""
    from client.rider.decks import shipped_decks
    from client.rider.session import deck_cards
    from net.identity import Identity
    from net.games import game_named
    from net.peer import Peer
    from net.transport.invite import parse_invite

    decks = shipped_decks()
    deck = decks[deck_index % len(decks)]
    peer = Peer(Identity.generate(), game_named("rider"), reactor=reactor, deck=deck_cards(deck.data),
                agent=GreedyBot(random.Random(seed), rider_score), delay=0.0, name=name, linger=0.5)
    peer.join(parse_invite(code), connect_timeout=30.0)
    return peer


def play_networked_to_midgame(app: App, reactor: Any, *, seed: int = 11, wall: float = 60.0,
                              attempts: int = 8) -> tuple[RiderTableScene, Any]:
    """:func:`networked_midgame`, again with the next seed if a game ends first
    (shuffles are joint random, so a networked game cannot be replayed by seed)."""
    for attempt in range(attempts):
        found = networked_midgame(app, reactor, seed=seed + attempt, wall=wall)
        if found is not None:
            return found
    raise RuntimeError("no busy networked position reached; try another seed")


def networked_midgame(app: App, reactor: Any, *, seed: int = 11, wall: float = 60.0) -> tuple[RiderTableScene, Any] | None:
    """Host a networked table from the lobby on 127.0.0.1, let an in-reactor bot
    peer join, and play our seat with a greedy bot (through ``submit``) to a
    busy position. Returns (table scene, the remote peer). ``reactor`` must be
    the real reactor; it is iterated, never run or stopped."""
    import time

    from client.lobby import LobbyScene

    lobby = LobbyScene(app, Settings(name="Player", lang=app.lang), lan=False, host_interface="127.0.0.1",
                       resumable=False)  # a demo game is never offered for resuming
    app.switch(lobby)
    lobby._host()
    if lobby.net is None:
        raise RuntimeError(f"could not host: {lobby.message}")
    ours = lobby.net
    remote = bot_peer(reactor, ours.code, seed=seed)
    me = GreedyBot(random.Random(seed), rider_score)
    deadline = time.monotonic() + wall
    while time.monotonic() < deadline:
        reactor.iterate(0.002)
        app.tick()
        scene = app.scene
        if not isinstance(scene, RiderTableScene):
            continue
        if scene.session.over:
            break
        if scene.legal:
            if busy(scene):
                scene.anims.clear()
                app.tick()
                return scene, remote
            session = scene.session
            session.submit(me.choose(session.game, session.state, session.me, session.knowledge, scene.legal))
            scene.refresh()
    # this attempt is over: close both sides, ours too (its peer's timers would
    # otherwise stay on the shared reactor for as long as the process lives)
    if remote.result is None:
        remote.leave("the demo moves on to another game")
    if isinstance(app.scene, RiderTableScene):
        app.scene.session.stop()
    ours.cancel()
    for _ in range(50):
        reactor.iterate(0.002)
    return None


def watched_midgame(app: App, reactor: Any, *, seed: int = 11, wall: float = 60.0, step: int = 40,
                    hold: bool = True) -> tuple[RiderTableScene, Any, Any]:
    """Two in-reactor bot peers play Rider on 127.0.0.1 (the host lets people watch) and the
    lobby watches their table by its invite code (net/peer/watching.py): returns the watcher's
    table scene once the game reached ``step`` (or later), and the two players' peers. With
    ``hold`` the players then pause (a picture holds still). ``reactor`` must be the real
    reactor; it is iterated, never run or stopped."""
    import time

    from client.lobby import LobbyScene
    from client.rider.decks import shipped_decks
    from client.rider.session import deck_cards
    from net.games import game_named
    from net.identity import Identity
    from net.peer import Peer

    decks = shipped_decks()
    host = Peer(Identity.generate(), game_named("rider"), reactor=reactor, deck=deck_cards(decks[0].data),
                agent=GreedyBot(random.Random(seed), rider_score), delay=0.05, name="Aki", linger=0.5, watchers=4)
    code = host.host(2, interface="127.0.0.1").encode()
    remote = bot_peer(reactor, code, seed=seed + 1, name="Ben")
    remote.delay = 0.05
    lobby = LobbyScene(app, Settings(name="Watcher", lang=app.lang), lan=False, host_interface="127.0.0.1",
                       resumable=False)
    app.switch(lobby)
    lobby._join(code, "rider", watch=True)
    deadline = time.monotonic() + wall
    while time.monotonic() < deadline:
        reactor.iterate(0.002)
        app.tick()
        scene = app.scene
        if isinstance(scene, RiderTableScene) and scene.session.moves >= step and not scene.session.over:
            if not hold:
                return scene, host, remote
            host.delay = remote.delay = 30.0  # the players pause: the picture holds still
            for _ in range(30):
                reactor.iterate(0.002)
                app.tick()
            scene.anims.clear()
            app.tick()
            return scene, host, remote
    for peer in (host, remote):
        if peer.result is None:
            peer.leave("the demo gave up")
    raise RuntimeError("the watched game did not reach the wanted step in time")

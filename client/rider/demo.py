"""A reproducible mid-game table for screenshots, benchmarks and tests.

Both seats are played by greedy bots (the local seat's moves still go
through the session's ``submit``, like a human's) until the game reaches
a busy position; the scene is then left waiting for the local seat.
"""

from __future__ import annotations

import random

from twisted.internet.task import Clock

from client.app import App
from client.rider.play import start_local_game
from client.rider.table_scene import RiderTableScene
from client.settings import Settings
from net.bots import GreedyBot


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
        me = GreedyBot(random.Random(seed + attempt))
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

"""Local tables for tests: one way to build a game's local table on the table layer and play it out.

``tiny_session`` sets up a Tiny table of any size through the game registry
(``entry.local_record`` / ``entry.local``, the path the client and
``tools.match`` take) on the table layer's local adapter
(:class:`client.table.local.LocalSession`), seat 0 ours and the game's
random bot in every other seat, paced by a ``task.Clock`` so a test moves
time itself. ``play_out`` plays any local session to its end, our seat
choosing at random among its legal inputs. tests/client/test_table_layer.py,
tests/client/test_table_scene.py and tests/tools/test_local_records.py
build their tables with these.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from twisted.internet.task import Clock

from client.table.local import LocalSession
from engine.core.actions import Action
from net.games import game_named

#: Seconds between two looks at the table while playing it out (bots and the table wait 0.01 s).
STEP = 0.05


def tiny_session(clock: Clock, seats: int = 5, *, seed: int = 7, names: Sequence[str] | None = None) -> LocalSession[Any]:
    """A local Tiny table of ``seats``; its bots are seeded from ``seed`` (each seat its own)."""
    entry = game_named("tiny")
    setup = entry.local(entry.local_record(seats, None, None), None)
    bots = [None] + [entry.bot("random", random.Random(seed * 10 + s)) for s in range(1, seats)]
    return LocalSession(setup.game, setup.state, setup.knowledge, setup=setup.record, me=0,
                        names=list(names) if names is not None else [f"P{s}" for s in range(seats)],
                        bots=bots, seed=seed, clock=clock, bot_delay=0.01, system_delay=0.01)


def play_out(session: LocalSession[Any], clock: Clock, rng: random.Random, *, limit: int = 400,
             tick: Any = None) -> list[Action]:
    """Play ``session`` to its end (at most ``limit`` looks), our seat choosing at random; every
    applied input, in order. ``tick`` (an app's) runs after each look, for a scene that follows."""
    seen: list[Action] = []
    session.listeners.append(lambda pre, action, post: seen.append(action))
    session.start()
    for _ in range(limit):
        if session.over:
            break
        legal = session.legal()
        if legal:
            session.submit(rng.choice(legal))
        clock.advance(STEP)
        if tick is not None:
            tick()
    assert session.over and session.outcome() is not None, "the table did not reach its end"
    return seen

"""A networked demo attempt that gives up closes both peers (client/rider/demo.py).

It once left our own hosted peer running, so its tick timers stayed on the
shared reactor and a later Twisted trial test in the same worker failed its
clean-reactor check (DirtyReactorAggregateError naming Peer._on_tick and
Mesh._on_tick)."""

from __future__ import annotations

from client.app import App
from client.rider.demo import networked_midgame


def _peer_timers(reactor: object, before: set[object]) -> list[str]:
    calls = [c for c in reactor.getDelayedCalls() if c not in before and c.active()]  # type: ignore[attr-defined]
    return [repr(c) for c in calls if "Peer._on_tick" in repr(c) or "Mesh._on_tick" in repr(c)]


def test_an_attempt_that_runs_out_of_time_leaves_no_peer_running() -> None:
    from twisted.internet import reactor

    app = App((1280, 800), clock=reactor)
    before = set(reactor.getDelayedCalls())
    assert networked_midgame(app, reactor, seed=11, wall=0.05) is None  # far too short to reach a busy position
    assert _peer_timers(reactor, before) == []

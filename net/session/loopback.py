"""An in-memory network for sessions in one process (tests, benchmarks, demos).

Every payload a session returns is queued and delivered to every other
session (or to the one seat it is addressed to), first in first out, or in a
seeded random order to show that delivery order does not matter. Seats in
``down`` receive nothing (a crashed or cut-off peer). No sockets, no clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from net.session.core import Outgoing, Session

Tap = Callable[[int, Outgoing], "Outgoing | None"]


class Loopback:
    """Sessions wired together through one in-memory queue."""

    def __init__(self, sessions: Sequence[Session], shuffle_seed: int | None = None) -> None:
        self.sessions = list(sessions)
        for s in self.sessions:
            s.driver_calls_work = True  # post() does
        self.queue: list[tuple[int, Outgoing]] = []  # (sending seat, payload)
        self.rng = random.Random(shuffle_seed) if shuffle_seed is not None else None
        self.delivered = 0
        self.bytes = 0
        self.down: set[int] = set()
        #: Sees (and may replace or drop, by returning None) every payload sent.
        self.tap: Tap | None = None

    def post(self, seat: int, out: Sequence[Outgoing]) -> None:
        self._post(seat, out)
        session = next((s for s in self.sessions if s.seat == seat), None)
        while session is not None and session.has_work:  # a check put off until this was sent
            self._post(seat, session.work())

    def _post(self, seat: int, out: Sequence[Outgoing]) -> None:
        for o in out:
            if self.tap is not None:
                changed = self.tap(seat, o)
                if changed is None:
                    continue
                o = changed
            self.queue.append((seat, o))

    def start(self) -> None:
        for s in self.sessions:
            if s.seat is not None and s.seat not in self.down:
                self.post(s.seat, s.start())

    def run(self, limit: int | None = None) -> None:
        """Deliver until the queue is empty, or ``limit`` payloads (a crash point)."""
        for _ in range(limit if limit is not None else 10_000_000):
            if not self.queue:
                return
            index = self.rng.randrange(len(self.queue)) if self.rng is not None else 0
            sender, out = self.queue.pop(index)
            for s in self.sessions:
                if s.seat is None or s.seat == sender or s.seat in self.down:
                    continue
                if out.to is not None and out.to != s.seat:
                    continue
                self.delivered += 1
                self.bytes += len(out.data)
                self.post(s.seat, s.receive(out.data, sender=f"peer-{sender}", via=sender))
        if limit is None:
            raise RuntimeError("the table did not settle")

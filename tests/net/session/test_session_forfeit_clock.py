"""Deadlines under a Twisted ``task.Clock``: peers whose clocks start each step at
different times (slow links), claims that race an answer, and the grace period.

Every peer is a :class:`Session` ticked by a ``LoopingCall`` on one shared
fake clock, exactly as ``net.peer.Peer`` ticks it; payloads travel with a
per-link delay (``clock.callLater``). The honest seats claim a forfeit as
soon as their own deadline passes (what ``tools.peer --claim-forfeits``
does). The slow seat answers every choice it owes either just inside its own
deadline (it must never lose) or well after it plus the grace period (it
must lose, and every peer must agree on that).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from harness import NONCE, identities
from engine.tiny.game import RULES_ID, card_set_hash
from net.games import table_for
from twisted.internet import task

from net.bots.random_bot import RandomBot
from net.envelope import Genesis
from net.session import Misconduct, Outgoing, Session, Stalling

T, G, TICK = 3, 2, 0.25
SLOW = 1  # the slow seat; its links are slow too
FAST_LINK, SLOW_LINK = 0.1, 0.4  # seconds; G covers twice the slow link plus a tick


class Table:
    def __init__(self, seats: int, answer_at: float) -> None:
        """``answer_at``: when the slow seat answers, relative to its own deadline."""
        ids = identities(seats, tag="clock")
        genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids),
                          {"timeout_s": T, "grace_s": G}, (NONCE,) * seats)
        table = table_for(genesis)
        self.clock = task.Clock()
        self.sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                                 agent=None if s == SLOW else RandomBot(random.Random(s)))
                         for s in range(seats)]
        self.answer_at = answer_at
        self.seen_events = [0] * seats
        self.planned: Any = None
        self.loops = []
        for s in self.sessions:
            loop = task.LoopingCall(self.tick, s)
            loop.clock = self.clock
            loop.start(TICK, now=False)
            self.loops.append(loop)

    def delay(self, a: int, b: int) -> float:
        return SLOW_LINK if SLOW in (a, b) else FAST_LINK

    def send(self, sender: int, out: list[Outgoing]) -> None:
        for o in out:
            for s in self.sessions:
                if s.seat != sender and (o.to is None or o.to == s.seat):
                    self.clock.callLater(self.delay(sender, s.seat or 0), self.deliver, s, o.data, sender)

    def deliver(self, s: Session, data: bytes, sender: int) -> None:
        self.send(s.seat or 0, s.receive(data, sender=f"peer-{sender}"))
        self.after(s)

    def tick(self, s: Session) -> None:
        self.send(s.seat or 0, s.tick(self.clock.seconds()))
        self.after(s)

    def after(self, s: Session) -> None:
        for event in s.events[self.seen_events[s.seat or 0]:]:
            self.seen_events[s.seat or 0] += 1
            if isinstance(event, Stalling) and s.seat != SLOW:
                for staller in s.claimable():
                    self.send(s.seat or 0, s.claim_forfeit(staller))
        if s.seat == SLOW and s.legal(SLOW) and (self.planned is None or not self.planned.active()):
            due = s.waits.since + s.timeout + self.answer_at  # its own deadline, on its own clock
            self.planned = self.clock.callLater(max(0.0, due - self.clock.seconds()), self.answer, s, s.step)

    def answer(self, s: Session, step: int) -> None:
        legal = s.legal(s.seat or 0)
        if s.step != step or not legal:
            return  # the moment passed (or it conceded the forfeit)
        choice = legal[0]
        self.send(s.seat or 0, s.submit(s.seat or 0, choice))
        self.after(s)

    def run(self, limit: float = 300.0) -> None:
        start = self.clock.seconds()
        self.send_all()
        while not all(s.finished for s in self.sessions):
            assert self.clock.seconds() - start < limit, [(s.seat, s.phase, s.waiting_for()) for s in self.sessions]
            self.clock.advance(0.05)
        for loop in self.loops:
            loop.stop()

    def send_all(self) -> None:
        for s in self.sessions:
            self.send(s.seat or 0, s.start())
            self.after(s)


@pytest.mark.parametrize("seats", [2, 3])
def test_a_slow_seat_answering_just_inside_its_own_deadline_never_loses(seats: int) -> None:
    table = Table(seats, answer_at=-0.05)
    table.run()
    sessions = table.sessions
    assert all(s.forfeited is None and s.verdict == "ok" for s in sessions)
    assert len({s.hashes[-1] for s in sessions}) == 1
    claims = [c for s in sessions for c in s.claims_seen]
    assert claims and all(staller == SLOW for _, staller, _, _ in claims)  # the claims really raced the answers
    assert not any(isinstance(e, Misconduct) for s in sessions for e in s.events)  # and nobody is blamed


@pytest.mark.parametrize("seats", [2, 3])
def test_a_seat_answering_after_its_deadline_and_the_grace_period_loses_on_every_peer(seats: int) -> None:
    table = Table(seats, answer_at=G + 2 * SLOW_LINK + 1)
    table.run()
    sessions = table.sessions
    assert all(s.finished and s.forfeited == SLOW for s in sessions)
    assert len({repr(s.outcome) for s in sessions}) == 1 and len({s.step for s in sessions}) == 1
    assert not any(isinstance(e, Misconduct) for s in sessions for e in s.events)

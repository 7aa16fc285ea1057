"""Floods from a hostile seat stay within the documented limits
(net/session/limits.py, docs/security.md "Resource limits"): memory and
journal growth are measured under each flood and checked against generous
bounds, the flooder is named, and the game still ends normally."""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import NONCE, Table_, identities
from engine.tiny.game import RULES_ID, card_set_hash
from net.games import table_for

from engine.core.encoding import encode
from engine.core.hashing import digest
from net.bots.random_bot import RandomBot
from net.envelope import Genesis, sign_envelope
from net.journal import Journal
import pytest

from net.session import Finished, Flooding, Rejected, Session, limits, pump

MIB = 1024 * 1024
pytestmark = pytest.mark.slow


def _table(tmp_path: Path, seats: int = 2) -> tuple[Table_, list[Any]]:
    ids = identities(seats, tag="flood")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids),
                      {}, (NONCE,) * len(ids))
    table = table_for(genesis)
    sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                        agent=RandomBot(random.Random(s)), journal=Journal(tmp_path / f"seat{s}"))
                for s in range(seats)]
    return Table_(sessions), ids


def _journal_bytes(s: Session) -> int:
    return sum(f.stat().st_size for f in s.journal.directory.iterdir())


def _measure(victim: Session, flood: Callable[[], None]) -> tuple[int, int]:
    """Memory (Python allocations still held afterwards) and journal growth of ``flood``."""
    journal = _journal_bytes(victim)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    flood()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return after - before, _journal_bytes(victim) - journal


def _forged(s: Session, identity: Any, *, seq: int, prev: bytes, kind: str, body: Any,
            step: int | None = None) -> bytes:
    k = s.step if step is None else step
    seen = (k, s.hashes[k] if k < len(s.hashes) else bytes(32))
    return sign_envelope(identity, game=s.gid, seat=1, seq=seq, prev=prev, kind=kind, body=body,
                         seen=seen).to_bytes()


def _ends_normally(table: Table_) -> None:
    table.run()
    for s in table.sessions:
        assert s.finished and s.verdict == "ok", (s.seat, s.phase, s.step, s.waiting_for())
        assert any(isinstance(e, Finished) for e in s.events)


def _named(s: Session, seat: int) -> list[Flooding]:
    return [e for e in s.events if isinstance(e, Flooding) and e.seat == seat]


def test_future_envelopes_of_1_mb_are_refused_before_they_are_stored(tmp_path: Path) -> None:
    table, ids = _table(tmp_path)
    a, b = table.sessions
    table.start()
    table.run(limit=8)
    w = b._writer
    assert w is not None

    def flood() -> None:  # 150 signed envelopes of 1 MB each, far ahead of the game
        for i in range(150):
            a.receive(_forged(a, ids[1], seq=w.next_seq + 5 + i, prev=digest("x", i),
                              kind="shuffle", body={"deck": bytes(MIB)}, step=a.step + 50))

    memory, journal = _measure(a, flood)
    assert memory < 4 * MIB and journal == 0, (memory, journal)
    assert sum(a.inbox.count(seat) for seat in a.seats) < 20
    assert a.refused[1] >= 150 and _named(a, 1)
    assert len([e for e in a.events if isinstance(e, Rejected)]) <= limits.FLOOD_AFTER + 5
    print(f"\n1 MB future flood: memory +{memory / MIB:.2f} MiB, journal +{journal} bytes")
    _ends_normally(table)


def test_future_envelopes_within_the_kind_limit_fill_only_the_seat_budget(tmp_path: Path) -> None:
    table, ids = _table(tmp_path)
    a, b = table.sessions
    table.start()
    table.run(limit=8)
    w = b._writer
    assert w is not None

    def flood() -> None:  # 60 envelopes of 400 KiB (a shuffle may be that large), far ahead
        for i in range(60):
            a.receive(_forged(a, ids[1], seq=w.next_seq + 5 + i, prev=digest("x", i), kind="shuffle",
                              body={"deck": bytes(400 * 1024)}, step=a.step + 50))

    memory, journal = _measure(a, flood)
    assert a.inbox.size(1) <= limits.MAX_BUFFER_BYTES
    # a held envelope costs about twice its encoded size (the decoded body and its kept encoding)
    assert memory < 2 * limits.MAX_BUFFER_BYTES + 4 * MIB and journal == 0, (memory, journal)
    assert _named(a, 1)
    print(f"\n400 KiB x 60 future flood: memory +{memory / MIB:.2f} MiB, journal +{journal} bytes")
    _ends_normally(table)  # the seat's genuine next envelope always finds room


def test_catch_up_requests_are_answered_to_the_asking_link_only_and_rate_limited(tmp_path: Path) -> None:
    table, ids = _table(tmp_path, seats=3)
    a = table.sessions[0]
    table.start()
    table.run(limit=40)
    sent: list[Any] = []

    def flood() -> None:  # 4,000 requests from seat 2's link, each naming seat 1 as the recipient
        for n in range(4000):
            req = encode({"catch_up": {"game": a.gid, "have": (0, 0, 0), "n": n, "seat": 1}})
            sent.extend(a.receive(req, sender="peer-2", via=2))

    memory, journal = _measure(a, flood)
    replies = [o for o in sent if o.to is not None]
    assert replies and all(o.to == 2 for o in replies)  # never reflected onto seat 1
    log_bytes = sum(len(e.to_bytes()) for log in a._logs for e in log)
    assert sum(len(o.data) for o in replies) <= limits.CATCH_UP_BURST * (log_bytes + 4096)
    assert memory < 4 * MIB and journal == 0, (memory, journal)
    assert _named(a, 2)
    # unauthenticated (relayed) requests are not answered at all
    assert not [o for o in a.receive(encode({"catch_up": {"game": a.gid, "have": (0, 0, 0), "n": 1,
                                                          "seat": 2}}), sender="relay")
                if o.to is not None]
    print(f"\n4,000 catch-up requests: {len(replies)} replies, memory +{memory / MIB:.2f} MiB")
    table.sessions[0]._out.clear()
    _ends_normally(table)


def test_one_equivocation_proof_is_kept_per_seat(tmp_path: Path) -> None:
    table, ids = _table(tmp_path)
    a = table.sessions[0]
    table.start()
    table.run()
    first = a._logs[1][1]

    def flood() -> None:  # 500 different envelopes signed for one seq
        for i in range(500):
            a.receive(sign_envelope(ids[1], game=first.game, seat=1, seq=first.seq, prev=first.prev, kind="chat",
                                    body={"text": f"version {i} " + "x" * 400},
                                    seen=(first.seen.step, first.seen.state_hash)).to_bytes())

    memory, journal = _measure(a, flood)
    assert len(a.equivocations) == 1 and a.equivocations[0].seat == 1
    assert memory < 2 * MIB and journal == 0, (memory, journal)
    assert _named(a, 1)
    print(f"\n500 equivocations: memory +{memory / MIB:.2f} MiB")


def test_a_chat_flood_is_cut_at_the_per_step_budget_and_the_game_goes_on(tmp_path: Path) -> None:
    table, ids = _table(tmp_path)
    a, b = table.sessions
    agent, b.agent = b.agent, None  # the flooder holds its move while it floods
    table.start()
    table.run()
    assert a.waiting_for() == (1,)
    step = a.step

    b.journal = None  # the flooder's own disk is its business (and fsyncs would slow the test)

    def flood() -> None:  # 1,000 signed chat lines from the flooder's own session, one by one
        for i in range(1000):
            b._send("chat", {"text": f"spam {i}"})  # past Session.chat's own budget check
            pump.pump(b)  # the flooder refuses its own excess too, so its chain stays whole
            for out in b._flush():
                a.receive(out.data, sender="peer-1", via=1)

    memory, journal = _measure(a, flood)
    assert sum(1 for seat, _ in a.chat_log if seat == 1) == limits.CHAT_PER_STEP
    assert all(k == step for k in [e.seen.step for e in a._logs[1] if e.kind == "chat"])
    assert memory < 2 * MIB and journal < limits.CHAT_PER_STEP * 1024, (memory, journal)
    assert _named(a, 1)
    print(f"\n1,000 chat lines: memory +{memory / MIB:.2f} MiB, journal +{journal} bytes")
    with pytest.raises(ValueError, match="chat lines per move"):
        b.chat("one more")
    b.agent = agent
    pump.pump(b)
    table.post(1, b._flush())
    _ends_normally(table)


def test_every_message_kind_has_a_size_limit_well_above_honest_use() -> None:
    from net.session import KINDS

    assert set(limits.MAX_KIND_BYTES) == set(KINDS)
    assert all(4 * 1024 <= most <= 1024 * 1024 for most in limits.MAX_KIND_BYTES.values())

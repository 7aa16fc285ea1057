"""A peer cut off for a while (its incoming messages lost, not crashed) gets
what it missed through the catch-up request that tick() sends while waiting."""

from __future__ import annotations

import pytest
from harness import rider_table, tiny_table

from engine.core.encoding import decode
from net.session import Rejected, Session, catchup
from net.session.core import CATCH_UP_EVERY


def test_lost_messages_are_recovered_by_catch_up_on_tick() -> None:
    table, _, _ = rider_table(seed=8)
    table.start()
    table.run(limit=20)
    table.down.add(1)  # the link to seat 1 drops: what is sent now never reaches it
    table.run(limit=6)
    table.down.discard(1)
    table.run()
    a, b = table.sessions
    assert not (a.finished and b.finished), "the drop must have stalled the table"
    now = 0.0
    for _ in range(20):
        if a.finished and b.finished:
            break
        now += CATCH_UP_EVERY
        for s in table.sessions:
            out = s.tick(now)
            assert all(set(decode(o.data)) <= {"catch_up"} for o in out)
            table.post(s.seat or 0, out)
        table.run()
    assert a.finished and b.finished and a.hashes[-1] == b.hashes[-1]
    assert not [e for s in (a, b) for e in s.events if isinstance(e, Rejected)]


def test_catch_up_replies_are_chunked_and_rebuild_a_late_observer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catchup, "CATCH_UP_CHUNK", 4096)
    table, genesis = tiny_table(3)
    table.start()
    table.run()
    donor = table.sessions[2]
    late = Session(genesis, donor.game, donor.states[0], plan=donor.plan)
    replies = donor.receive(late.catch_up_request().data, via=0)  # as if over seat 0's own link
    assert len(replies) > 3 and all(r.to == 0 for r in replies)  # answered to that link only
    assert all(len(r.data) < 4096 + 64 * 1024 for r in replies)
    for r in replies:
        late.receive(r.data)
    assert late.finished and late.hashes == donor.hashes


def test_repeated_catch_up_requests_never_repeat_their_bytes() -> None:
    """The mesh drops a payload whose bytes it has seen (dedup), so a second
    request while nothing changed must differ from the first, or a peer whose
    first answer was lost could never ask again."""
    table, _, _ = rider_table(seed=8)
    table.start()
    table.run(limit=10)
    seat = table.sessions[0]
    first, second = seat.catch_up_request(), seat.catch_up_request()
    assert first.data != second.data
    a, b = decode(first.data)["catch_up"], decode(second.data)["catch_up"]
    assert a["have"] == b["have"] and (a["n"], b["n"]) == (1, 2)

"""A signed resignation (net.session.resign): the leaver's own word ends the
game at once, with no deadline to wait for, and the transcript verifies."""

from __future__ import annotations

import random
from typing import Any

import pytest
from harness import NONCE, Table_, identities
from engine.tiny.game import RULES_ID, card_set_hash
from net.games import table_for

from net.bots.random_bot import RandomBot
from net.envelope import Genesis, sign_envelope
from net.session import Finished, Rejected, Resigned, Session
from net.verifier import verify


def _two(**options: Any) -> tuple[Table_, list[Any]]:
    ids = identities(2, tag="resign")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids),
                      {"names": ["Ann", "Bo"], **options}, (NONCE,) * len(ids))
    table = table_for(genesis)
    sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[seat], seat=seat,
                        agent=RandomBot(random.Random(seat))) for seat in (0, 1)]
    return Table_(sessions), ids


def test_a_resignation_ends_the_game_at_once_for_the_other_seat_and_verifies() -> None:
    table, _ = _two(timeout_s=120)
    a, b = table.sessions
    b.agent = None  # seat 1 is a human who gives up instead of moving
    table.start()
    table.run()
    assert a.waiting_for() == (1,)
    assert a.deadline() == pytest.approx(120.0)  # the countdown a client shows
    table.post(1, b.resign())
    table.run()
    assert a.finished and a.forfeited == 1 and a.resigned == 1
    assert a.outcome is not None and a.outcome["winner"] == 0 and "resigned" in a.outcome["reason"]
    assert any(isinstance(e, Resigned) and e.seat == 1 and e.name == "Bo" for e in a.events)
    assert isinstance(a.events[-1], Finished) and a.deadline() is None
    assert b.forfeited == 1  # the leaver's own session agrees
    assert verify(a.transcript()).ok  # the signed resignation is the proof


def test_a_resignation_after_the_end_or_malformed_is_refused() -> None:
    table, ids = _two()
    a, b = table.sessions
    table.start()
    table.run()
    assert a.finished
    with pytest.raises(ValueError):
        a.resign()
    w = b._writer
    assert w is not None
    forged = sign_envelope(ids[1], game=b.gid, seat=1, seq=w.next_seq, prev=w.head, kind="resign",
                           body={"step": b.step}, seen=(b.step, b.hashes[b.step]))
    a.receive(forged.to_bytes(), sender="peer-1")
    assert a.outcome is not None and "resigned" not in a.outcome["reason"]


def test_a_resignation_with_a_wrong_body_is_refused_and_play_goes_on() -> None:
    table, ids = _two()
    a, b = table.sessions
    b.agent = None
    table.start()
    table.run()
    w = b._writer
    assert w is not None
    bad = sign_envelope(ids[1], game=b.gid, seat=1, seq=w.next_seq, prev=w.head, kind="resign",
                        body={"step": b.step, "extra": 1}, seen=(b.step, b.hashes[b.step]))
    a.receive(bad.to_bytes(), sender="peer-1")
    assert any(isinstance(e, Rejected) for e in a.events) and a.phase == "play" and a.forfeited is None

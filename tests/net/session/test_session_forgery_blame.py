"""A forged envelope, resignation or chat line is refused naming the link it came from,
not the seat it imitates (issue 30, smaller item; net/session/core.py ``_reject``).

Seat 2's link sends messages in seat 1's name, signed with seat 2's own key (it
has no other): before, the refusal, the log line and the refusal count named
seat 1, so a forger could get an honest seat listed as a flooder. Tiny, 3 and 5
seats, in process (net.session.loopback).
"""

from __future__ import annotations

import logging

import pytest
from harness import identities, tiny_table

from net.envelope import sign_envelope
from net.session import Rejected, Resigned

VICTIM, FORGER = 1, 2


@pytest.mark.parametrize("seats", [3, 5])
@pytest.mark.parametrize("kind,body", [("resign", None), ("chat", {"text": "I give up"}),
                                       ("action", {"action": {}, "cards": []})])
def test_a_forgery_in_another_seats_name_blames_the_link_it_came_from(
        seats: int, kind: str, body: object, caplog: pytest.LogCaptureFixture) -> None:
    table, _ = tiny_table(seats)
    table.sessions[VICTIM].agent = None  # the table stops at the victim's sealed guess
    table.start()
    table.run()
    a, victim = table.sessions[0], table.sessions[VICTIM]
    w = victim._writer
    assert w is not None and a.phase == "play"
    forger_key = identities(seats, tag="tiny")[FORGER]
    forged = sign_envelope(forger_key, game=a.gid, seat=VICTIM, seq=w.next_seq, prev=w.head, kind=kind,
                           body=body if body is not None else {"step": victim.step},
                           seen=(victim.step, victim.hashes[victim.step]))
    caplog.set_level(logging.WARNING, logger="fairtable.session")
    a.receive(forged.to_bytes(), sender="peer-2", via=FORGER)
    refused = [e for e in a.events if isinstance(e, Rejected)]
    assert len(refused) == 1, refused
    r = refused[0]
    assert r.seat is None and r.sender == "peer-2" and r.reason == "BadSignature", r
    assert "link peer-2" in str(r) and f"seat {VICTIM} is not blamed" in str(r)
    assert VICTIM not in a.refused and a.refused.get(None) == 1
    assert not any(isinstance(e, Resigned) for e in a.events) and a.phase == "play"
    logged = [rec.getMessage() for rec in caplog.records if rec.name == "fairtable.session"]
    assert any("link peer-2" in m for m in logged) and not any(f"message from seat {VICTIM}" in m for m in logged)

"""A seat cannot flood the final phase with "late" step parts (net.session.late).

After a resignation, phase ``final`` keeps a seat's step parts signed at or
after the resignation's step in its chain without effect (the three-seat race
of test_resign_race.py). These tests play the hostile seat: it signs such
parts by hand (its real key, chained onto its real head) and delivers them to
the resigner's session. Within the bound they are kept; over it each is
refused, a ``Rejected`` event names the seat and its link, a ``Flooding`` event
names it once the refusals pile up, nothing refused reaches the chain or the
transcript, the final deadline is not pushed back by them, and a genuine final
record still ends the game. Fake transport (net.session.loopback) and a
Twisted ``task.Clock`` for the deadline.
"""

from __future__ import annotations

from typing import Any

from harness import identities, tiny_table
from twisted.internet import task

from net.envelope import Envelope, sign_envelope
from net.session import Flooding, Rejected, Session, limits
from net.session.endgame import Final
from net.verifier import verify

HOSTILE = 2
KEY = identities(3, tag="tiny")[HOSTILE]


def _resigned_while_waited_for(cut: set[int]) -> Session:
    """Three Tiny seats; seat 0 (no bot) resigns while the table waits for its sealed guess.
    The seats in ``cut`` receive nothing from then on (the hostile seat's own session is
    always cut off: its envelopes are signed here by hand)."""
    table, _ = tiny_table(3, seed=3)
    a = table.sessions[0]
    a.agent = None
    table.start()
    table.run()
    assert a.phase == "play" and 0 in a.waiting_for()
    table.down = cut | {HOSTILE}
    table.post(0, a.resign())
    table.run()
    assert a.phase == "final" and HOSTILE in a.waiting_for()
    return a


def _resigned_while_not_waited_for() -> Session:
    """Seat 0 resigns at a moment the table does not wait for it (its automatic parts are in)."""
    table, _ = tiny_table(3, seed=3)
    a = table.sessions[0]
    a.agent = None
    table.start()
    for _ in range(200):
        if a.phase in ("hello", "play") and a.waiting_for() and 0 not in a.waiting_for():
            break
        table.run(limit=1)
    assert 0 not in a.waiting_for()
    table.down = {1, 2}
    a.resign()
    assert a.phase == "final"
    return a


def _forge(a: Session, kind: str, body: Any, step: int, *, seq_back: int = 0) -> Envelope:
    """The hostile seat's next envelope (``seq_back``: reuse an earlier seq, another version)."""
    log = a._logs[HOSTILE]
    seq = log.next_seq - seq_back
    prev = log.head if seq_back == 0 else log[seq - 1].digest()
    state_hash = a.hashes[step] if step < len(a.hashes) else bytes(32)
    return sign_envelope(KEY, game=a.gid, seat=HOSTILE, seq=seq, prev=prev, kind=kind, body=body,
                         seen=(step, state_hash))


def _final_phase(a: Session) -> Final:
    phase = a.current_phase
    assert isinstance(phase, Final) and phase.late is not None
    return phase


def _rejections(a: Session) -> list[Rejected]:
    return [e for e in a.events if isinstance(e, Rejected) and e.seat == HOSTILE]


def test_a_flood_of_one_kind_at_one_step_is_refused_and_named_and_the_game_still_ends() -> None:
    a = _resigned_while_waited_for(set())
    assert a.waiting_for() == (HOSTILE,)  # seat 1 signed its final record
    final = _final_phase(a)
    k = final.step
    assert final.late is not None and final.late.horizon == k  # nobody could pass the step it waited at
    a.receive(_forge(a, "reveal", {"reveal": "first"}, k).to_bytes(), sender="peer-2", via=HOSTILE)
    kept = a._logs[HOSTILE].next_seq
    assert final.late.count(HOSTILE) == 1  # one late part of a kind per step is what an honest seat can have
    for i in range(limits.FLOOD_AFTER + 8):  # every version of the next envelope is another second reveal
        a.receive(_forge(a, "reveal", {"reveal": f"again {i}"}, k).to_bytes(), sender="peer-2", via=HOSTILE)
    assert a._logs[HOSTILE].next_seq == kept, "nothing refused entered the seat's chain"
    assert final.late.count(HOSTILE) == 1
    refused = _rejections(a)
    assert refused and all(e.sender == "peer-2" and e.kind == "reveal" for e in refused)
    assert "second 'reveal' message at step" in refused[0].error
    floods = [e for e in a.events if isinstance(e, Flooding)]
    assert [(e.seat, e.what) for e in floods] == [(HOSTILE, "messages refused")]
    assert a.phase == "final" and HOSTILE in a.waiting_for()  # the session runs on
    # the seat's final record, chained after the one late part kept, still counts and ends the game
    a.receive(_forge(a, "final", final.record(), k).to_bytes(), sender="peer-2", via=HOSTILE)
    assert a.phase == "done" and a.finished
    assert sum(1 for e in a._logs[HOSTILE] if e.seen.step >= k and e.kind == "reveal") == 1
    result = verify(a.transcript())
    assert result.ok, str(result)


def test_a_part_past_the_horizon_or_after_its_own_final_record_is_refused() -> None:
    a = _resigned_while_waited_for({1})
    final = _final_phase(a)
    k = final.step
    a.receive(_forge(a, "commit", {"commit": "ahead"}, k + 1).to_bytes(), sender="peer-2", via=HOSTILE)
    assert final.late is not None and final.late.count(HOSTILE) == 0
    assert "no seat could get past step" in _rejections(a)[-1].error
    a.receive(_forge(a, "final", final.record(), k).to_bytes(), sender="peer-2", via=HOSTILE)
    assert HOSTILE not in a.waiting_for()
    a.receive(_forge(a, "reveal", {"reveal": "after"}, k).to_bytes(), sender="peer-2", via=HOSTILE)
    assert final.late.count(HOSTILE) == 0
    assert "after its own final record" in _rejections(a)[-1].error
    assert a.phase == "final" and a.waiting_for() == (1,)


def test_without_a_horizon_the_late_parts_get_the_in_flight_budget_and_no_more() -> None:
    a = _resigned_while_not_waited_for()
    final = _final_phase(a)
    assert final.late is not None and final.late.horizon is None
    k = final.step
    filler = "x" * (60 * limits.KIB)  # each part within the action size limit; the bytes budget binds
    taken = 0
    for i in range(limits.MAX_BUFFER_BYTES // len(filler) + 4):
        a.receive(_forge(a, "action", {"pad": filler}, k + i).to_bytes(), sender="peer-2", via=HOSTILE)
        if final.late.count(HOSTILE) == taken:
            break
        taken += 1
    assert 0 < taken < limits.MAX_BUFFER_BYTES // len(filler) + 1
    assert final.late.size[HOSTILE] <= limits.MAX_BUFFER_BYTES
    assert "more step parts after the game ended than a seat can have in flight" in _rejections(a)[-1].error
    assert a.phase == "final"


def test_late_parts_do_not_push_back_the_final_deadline() -> None:
    """Each kept late part is without effect: the wait for the seat's final record is not restarted."""
    a = _resigned_while_waited_for({1})
    final = _final_phase(a)
    clock = task.Clock()
    a.tick(clock.seconds())
    since = a.waits.since
    clock.advance(a.timeout / 2)
    a.tick(clock.seconds())
    a.receive(_forge(a, "reveal", {"reveal": "late"}, final.step).to_bytes(), sender="peer-2", via=HOSTILE)
    assert final.late is not None and final.late.count(HOSTILE) == 1
    assert a.waits.since == since
    clock.advance(a.timeout / 2 + 1)
    a.tick(clock.seconds())
    assert HOSTILE in a.claimable()

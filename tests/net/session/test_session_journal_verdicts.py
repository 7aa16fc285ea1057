"""Resume repeats the first run's verdicts: a refused envelope is not in the
journal, so after a restart the genuine envelope that took its seq is
accepted again (not mistaken for equivocation) and the game ends audited."""

from __future__ import annotations

import pytest

from pathlib import Path

from harness import identities, rider_decks, rider_table

from engine.core.encoding import decode
from engine.core.pending import Decision
from net.envelope import Envelope
from net.journal import Journal
from net.session import Outgoing, Rejected, Session, pump
from net.verifier import verify


def _refused_envelope_of_our_own(s: Session) -> tuple[Envelope, list[Outgoing]]:
    """Make ``s`` sign and send an action out of turn (every peer refuses it,
    ``s`` included, so its next envelope reuses the seq)."""
    env = s._send("action", {"action": {"kind": "rider.pass", "seat": s.seat}, "cards": []})
    pump.pump(s)
    out = s._flush()
    assert any(o.data == env.to_bytes() for o in out)
    assert s._writer is not None and s._writer.next_seq == env.seq  # refused by itself: seq reused
    return env, out


@pytest.mark.slow
def test_refused_envelope_then_kill_and_resume_continues_the_game(tmp_path: Path) -> None:
    table, genesis, setup = rider_table(seed=4, journal_dir=tmp_path)
    a, b = table.sessions
    table.start()
    table.run(limit=12)
    assert not (isinstance(a.pending, Decision) and a.pending.seat == 1)
    bad, out = _refused_envelope_of_our_own(b)
    table.post(1, out)
    # deliver until seat 0 refused the bad envelope and accepted the genuine one with its seq
    while not (len(a._logs[1]) > bad.seq):
        table.run(limit=1)
    refused = [e for e in a.events if isinstance(e, Rejected) and e.seat == 1]
    assert [(e.kind, e.reason) for e in refused] == [("action", "UnexpectedMessage")]
    genuine = a._logs[1][bad.seq]
    assert genuine.digest() != bad.digest()
    journal_bytes = {Envelope.from_bytes(r).digest() for r in Journal(tmp_path / "seat0").envelopes()}
    assert bad.digest() not in journal_bytes and genuine.digest() in journal_bytes
    # kill seat 0 (no goodbye, whatever it had queued is lost) and resume it from its journal
    a.journal.close()
    table.queue = [(seat, out) for seat, out in table.queue if seat != 0]
    table.down.add(0)
    table.run()
    back = Session(genesis, setup.game, setup.state, plan=setup.plan, identity=identities(2)[0], seat=0,
                   deck=rider_decks()[0], agent=a.agent, journal=Journal(tmp_path / "seat0"))
    assert len(back._logs[1]) == 0 and back.inbox.get(1, bad.seq).digest() == genuine.digest()
    table.sessions[0] = back
    table.down.discard(0)
    table.post(0, back.start())
    table.run()
    for s in table.sessions:
        assert s.finished, (s.seat, s.phase, s.step, s.waiting_for())
        assert s.verdict == "ok"
    assert not [e for e in back.events if isinstance(e, Rejected)], [str(e) for e in back.events]
    assert back._logs[1][bad.seq].digest() == genuine.digest()
    assert back.hashes[-1] == b.hashes[-1] and verify(back.transcript()).ok


def test_our_own_refused_envelope_is_marked_and_left_out_of_the_replay(tmp_path: Path) -> None:
    table, genesis, setup = rider_table(seed=6, journal_dir=tmp_path)
    a, b = table.sessions
    table.start()
    table.run(limit=12)
    bad, out = _refused_envelope_of_our_own(b)
    table.post(1, out)
    raw = Journal(tmp_path / "seat1")
    records = raw._envelopes.records
    assert bad.to_bytes() in records  # journalled before it was sent...
    assert decode(records[-1]) == ("rejected", bad.digest())  # ...then taken back by a verdict record
    assert bad.to_bytes() not in raw.envelopes()
    raw.close()
    table.run()
    for s in table.sessions:
        assert s.finished and s.verdict == "ok"
    # a restart of seat 1 after the end replays to the same final state, without the refused envelope
    b.journal.close()
    again = Session(genesis, setup.game, setup.state, plan=setup.plan, identity=identities(2)[1], seat=1,
                    deck=rider_decks()[1], agent=b.agent, journal=Journal(tmp_path / "seat1"))
    again.start()
    assert again.finished and again.hashes[-1] == b.hashes[-1]
    assert not [e for e in again.events if isinstance(e, Rejected)]

"""Journal before use: our own envelopes and every commitment opening are
written to the journal before the session queues or consumes them, and a
received envelope the moment it is accepted (before anything we send can
depend on it; a refused or still-waiting one never), so a crash at any point
can be resumed without sending a different part (docs/protocol.md, "Journal")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import identities, rider_decks, rider_table

from engine.core.encoding import decode
from net.envelope import Envelope
from net.journal import Journal
from net.session import Session


class OrderCheckingJournal(Journal):
    """A real journal that fails the test when its session used data first."""

    session: Session | None = None
    problems: list[str]

    def append_envelope(self, data: bytes) -> None:
        s = self.session
        if s is not None:
            env = Envelope.from_data(decode(data))
            if any(o.data == data for o in s._out):
                self.problems.append(f"envelope {env.seat}#{env.seq} was queued to send before it was journaled")
            if env.seat == s.seat:
                if s.inbox.get(env.seat, env.seq) is not None or env.seq < len(s._logs[env.seat]):
                    self.problems.append(f"our envelope #{env.seq} was buffered or used before it was journaled")
            elif not s._logs[env.seat] or s._logs[env.seat][-1].digest() != env.digest():
                self.problems.append(f"envelope {env.seat}#{env.seq} was journaled but not just accepted")
            elif s.inbox.get(env.seat, env.seq) is not None:
                self.problems.append(f"envelope {env.seat}#{env.seq} was journaled while still waiting")
        super().append_envelope(data)

    def put_secret(self, name: str, value: Any) -> None:
        s = self.session
        if s is not None and name.startswith("opening:") and (s.step, "commit") in s._sent:
            self.problems.append(f"the commitment of step {s.step} was sent before its opening was journaled")
        super().put_secret(name, value)


def test_everything_is_journaled_before_it_is_sent_or_used(tmp_path: Path) -> None:
    table, genesis, setup = rider_table(seed=3)
    ids, decks = identities(2), rider_decks()
    journals = []
    for seat, old in enumerate(table.sessions):
        journal = OrderCheckingJournal(tmp_path / f"seat{seat}")
        journal.problems = []
        s = Session(genesis, setup.game, setup.state, plan=setup.plan, identity=ids[seat], seat=seat,
                    deck=decks[seat], agent=old.agent, journal=journal)
        journal.session = s
        table.sessions[seat] = s
        journals.append(journal)
    table.start()
    table.run()
    for s, journal in zip(table.sessions, journals):
        assert s.finished, (s.seat, s.phase, s.step)
        assert journal.problems == []
        # every envelope the session accepted (its own and every peer's) is in its journal
        written = set(journal.envelopes())
        assert all(e.to_bytes() in written for e in s.envelopes())
        commits = [e.seen.step for e in s.envelopes() if e.seat == s.seat and e.kind == "commit"]
        assert commits and all(journal.secret(f"opening:{k}") is not None for k in commits)

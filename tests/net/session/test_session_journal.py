"""Crash and resume: a peer killed mid-game restarts from its journal, catches
up from another peer and the game ends with equal final hashes everywhere."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from harness import identities, rider_decks, rider_table

from engine.core.encoding import encode
from net.bots.greedy import GreedyBot
from net.games.rider.evaluation import rider_score
from net.journal import Journal
from net.session import Rejected, Session
from net.verifier import verify


@pytest.mark.slow
@pytest.mark.parametrize(("crash_after", "outbox_lost"), [(15, False), (35, False), (30, True)])
def test_crash_mid_game_then_resume_from_journal(tmp_path: Path, crash_after: int, outbox_lost: bool) -> None:
    import random

    table, genesis, setup = rider_table(seed=11, journal_dir=tmp_path)
    table.start()
    table.run(limit=crash_after)  # some deliveries happen, then seat 1 dies
    while outbox_lost and table.queue and not any(seat == 1 for seat, _ in table.queue):
        table.run(limit=1)  # die just after sending something
    assert table.queue, "the crash must happen mid-game"
    if outbox_lost:  # what it journaled but had not sent yet dies with it
        table.queue = [(seat, out) for seat, out in table.queue if seat != 1]
    dead = table.sessions[1]
    assert dead.journal is not None and not dead.finished
    dead.journal.close()
    table.down.add(1)
    table.run()  # messages sent while it is down are lost for it
    # restart: same journal, a fresh process (new objects, new agent)
    journal = Journal(tmp_path / "seat1")
    back = Session(genesis, setup.game, setup.state, plan=setup.plan, identity=identities(2)[1], seat=1,
                   deck=rider_decks()[1], agent=GreedyBot(random.Random(99), rider_score), journal=journal)
    table.sessions[1] = back
    table.down.discard(1)
    table.post(1, back.start())  # re-sends its own recent envelopes and asks for what it missed
    table.run()
    a, b = table.sessions
    for s in (a, b):
        assert s.finished, (s.seat, s.phase, s.step, s.waiting_for())
        assert not [e for e in s.events if isinstance(e, Rejected)], [str(e) for e in s.events]
    assert a.hashes[-1] == b.hashes[-1]
    assert encode(a.transcript()) == encode(b.transcript())
    assert verify(a.transcript()).ok


def test_journal_files_are_owner_only_and_survive_a_torn_record(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j")
    journal.put_secret("card", (5, b"x" * 32))
    journal.append_envelope(b"first")
    journal.close()
    for name in ("secrets.log", "envelopes.log"):
        assert stat.S_IMODE(os.stat(tmp_path / "j" / name).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(tmp_path / "j").st_mode) == 0o700
    with open(tmp_path / "j" / "envelopes.log", "ab") as handle:  # a crash mid-write
        handle.write((100).to_bytes(4, "big") + b"partial")
    again = Journal(tmp_path / "j")
    assert again.envelopes() == [b"first"]
    assert again.secret("card") == (5, b"x" * 32)
    again.append_envelope(b"second")
    again.close()
    assert Journal(tmp_path / "j").envelopes() == [b"first", b"second"]


def test_restarted_peer_never_resends_a_different_part(tmp_path: Path) -> None:
    """Resuming right after our commit was journaled reuses the journaled
    opening: no second, different commitment (which would be equivocation)."""
    table, genesis, setup = rider_table(seed=2, journal_dir=tmp_path)
    table.start()
    table.run(limit=12)
    sent_before = len(Journal(tmp_path / "seat0").envelopes())
    assert sent_before > 0
    table.sessions[0].journal.close()
    back = Session(genesis, setup.game, setup.state, plan=setup.plan, identity=identities(2)[0], seat=0,
                   deck=rider_decks()[0], agent=table.sessions[0].agent, journal=Journal(tmp_path / "seat0"))
    table.sessions[0] = back
    table.post(0, back.start())
    table.run()
    for s in table.sessions:
        assert s.finished and not [e for e in s.events if isinstance(e, Rejected)]

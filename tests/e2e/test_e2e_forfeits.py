"""End to end, real ``tools.peer`` processes on 127.0.0.1: forfeit claims.

A cheater built from our own Peer (tests/e2e/premature_claimer.py) claims the
game the moment it is the honest host's turn and leaves with a record of its
"win". The honest peer names the premature claim, plays its turn, and wins by
forfeit once the cheater's own deadline passes; its record verifies as its
own signed claim, the cheater's only as a claim (never a plain win). And a
seat too slow for the table's deadline loses by forfeit and its process says
so with exit status 1.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from e2e_procs import kill_all, start_host, start_joiner

from net.transcript import load_raw
from net.verifier import verify
from tools.match_tcp import finish

pytestmark = pytest.mark.e2e
CHEATER = str(Path(__file__).resolve().parent / "premature_claimer.py")
LIMIT = 60.0


def test_a_premature_forfeit_from_a_cheating_peer_does_not_beat_the_honest_peer(tmp_path: Path) -> None:
    host, code = start_host(tmp_path, "random", game="tiny", max_time=LIMIT,
                            extra=("--timeout", "3", "--claim-forfeits"))
    peers = [host]
    try:
        cheater = start_joiner(tmp_path, 1, code, "random", game="tiny", max_time=LIMIT,
                               extra=("--rules-module", CHEATER))
        peers.append(cheater)
        honest, crook = finish([host, cheater], deadline=time.monotonic() + LIMIT)
    finally:
        kill_all(peers)
    assert host.proc.returncode == 0, host.log_tail()
    assert honest["finished"] and honest["forfeited"] == 1 and honest["winner"] == 0, honest
    assert any(m["seat"] == 1 and "premature" in m["what"] for m in honest["misconduct"]), honest
    log = host.log.read_text()
    assert "peer1 (seat 2) claimed a forfeit by seat 1" in log  # log lines count seats from 1 and "misconduct" in log
    mine = verify(load_raw(tmp_path / "seat0.ft"))
    assert mine.ok and mine.end == "forfeit claim", str(mine)
    assert mine.forfeit is not None and mine.forfeit["staller"] == 1 and mine.forfeit["claimers"] == [0]
    assert any(v["claimer"] == 1 and v["staller"] == 0 for v in mine.void_claims), str(mine)
    assert crook["forfeited"] == 0  # what the cheater's own record says ...
    theirs = verify(load_raw(tmp_path / "seat1.ft"))
    assert theirs.ok and theirs.end == "forfeit claim" and "cannot be proven offline" in str(theirs)  # ... a claim


def test_a_seat_that_misses_the_deadline_loses_and_its_process_exits_1_saying_why(tmp_path: Path) -> None:
    host, code = start_host(tmp_path, "random", game="tiny", max_time=LIMIT,
                            extra=("--timeout", "2", "--claim-forfeits"))
    peers = [host]
    try:
        slow = start_joiner(tmp_path, 1, code, "random", game="tiny", max_time=LIMIT,
                            extra=("--timeout", "2", "--delay", "8"))
        peers.append(slow)
        won, lost = finish([host, slow], deadline=time.monotonic() + LIMIT)
    finally:
        kill_all(peers)
    assert host.proc.returncode == 0 and won["forfeited"] == 1 and won["winner"] == 0, host.log_tail()
    assert slow.proc.returncode == 1, slow.log_tail()
    assert lost["finished"] and lost["forfeited"] == 1 and lost["error"] is None
    assert "this seat (seat 2) forfeited" in slow.log.read_text()  # seats counted from 1 for people
    assert not won["misconduct"] and not lost["misconduct"]  # an honest forfeit blames nobody else

"""End to end, real ``tools.peer`` processes on 127.0.0.1, three Tiny seats (issue 30):
an early end at three seats still gives the honest seat a result, and a colluding
pair cannot hold it hostage.

- Early end: seat 1 resigns at its first chance; seat 2 then never signs the final
  record (tests/e2e/hostile_peer.py ``resign``, ``withhold-final``). Before, the
  honest host's forfeit claim against seat 2 was refused by every peer ("that seat
  owes nothing there") and the host waited until its --max-time. Now it forfeits
  seat 2 after the deadline; its record verifies and ``tools.verify`` exits 3 (the
  result rests on a forfeit claim).
- Hostage: seat 1 stalls (``stall``) and seat 2, an ordinary peer without
  --claim-forfeits, never co-signs the forfeit. After the abandonment deadline
  (3 x --timeout) the host signs that the game is abandoned; host and seat 2 end
  with no winner; ``tools.verify`` exits 3.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from e2e_procs import kill_all, run_checked, start_host, start_joiner, wait_until
from test_e2e_hostile import spawn_hostile

from tools.match_tcp import finish, seat_args

pytestmark = pytest.mark.e2e
LIMIT = 60.0
TIMEOUT = 2  # seconds: the forfeit deadline; the abandonment deadline is 3 x that


def _seated(host: object, seat: int = 1) -> None:
    """Seats follow the order of arrival: wait until joiner ``seat`` took its seat (shown counted from 1)."""
    log = getattr(host, "log")
    wait_until(lambda: f"takes seat {seat + 1} " in log.read_text(), 30, f"joiner {seat} to be seated")


@pytest.mark.parametrize("seats", [3, 5])
def test_an_early_end_at_three_seats_still_gives_the_honest_host_its_result(tmp_path: Path, seats: int) -> None:
    """Seat 1 resigns, seat 2 withholds its final record; at 5 seats seats 3 and 4 are honest and claim."""
    started = time.monotonic()
    host, code = start_host(tmp_path, "random", seats=seats, game="tiny", max_time=LIMIT,
                            extra=("--timeout", str(TIMEOUT), "--claim-forfeits"))
    peers = [host]
    try:
        peers.append(spawn_hostile(1, "resign", ["join", code, "--game", "tiny",
                                                 *seat_args(1, "random", 1, tmp_path, LIMIT, ())], tmp_path, at=2))
        _seated(host)
        peers.append(spawn_hostile(2, "withhold-final", ["join", code, "--game", "tiny",
                                                         *seat_args(2, "random", 1, tmp_path, LIMIT, ())], tmp_path))
        honest = []
        for seat in range(3, seats):
            _seated(host, seat - 1)
            honest.append(start_joiner(tmp_path, seat, code, "random", game="tiny", max_time=LIMIT,
                                       extra=("--timeout", str(TIMEOUT), "--claim-forfeits")))
        peers.extend(honest)
        result, *others = finish([host, *honest], deadline=time.monotonic() + LIMIT)
    finally:
        kill_all(peers)
    took = time.monotonic() - started
    print(f"\nearly end, {seats} seats: the host's result after {took:.1f} s (deadline {TIMEOUT} s)")
    for other in others:
        assert other["finished"] and other["gone"] == [1, 2], other
    assert host.proc.returncode == 0, host.log_tail()
    assert result["finished"] and result["forfeited"] == 1 and result["gone"] == [1, 2], result
    assert result["winner"] is None and "resigned" in result["reason"], result
    assert "HOSTILE: resign" in (tmp_path / "seat1.log").read_text()
    checked = run_checked(["-m", "tools.verify", str(tmp_path / "seat0.ft")])
    assert checked.returncode == 3 and "rests on a forfeit claim" in checked.stdout, checked.stdout


@pytest.mark.parametrize("seats", [3, 5])
def test_a_stall_whose_partner_never_claims_ends_as_abandoned_for_the_honest_host(tmp_path: Path,
                                                                                 seats: int) -> None:
    """Seat 1 stalls, seat 2 never claims; at 5 seats seats 3 and 4 are honest and claim."""
    started = time.monotonic()
    host, code = start_host(tmp_path, "random", seats=seats, game="tiny", max_time=LIMIT,
                            extra=("--timeout", str(TIMEOUT), "--claim-forfeits"))
    peers = [host]
    try:
        peers.append(spawn_hostile(1, "stall", ["join", code, "--game", "tiny",
                                                *seat_args(1, "random", 1, tmp_path, LIMIT, ())], tmp_path, at=3))
        _seated(host)
        partner = start_joiner(tmp_path, 2, code, "random", game="tiny", max_time=LIMIT,
                               extra=("--timeout", str(TIMEOUT)))  # never claims a forfeit
        peers.append(partner)
        honest = []
        for seat in range(3, seats):
            _seated(host, seat - 1)
            honest.append(start_joiner(tmp_path, seat, code, "random", game="tiny", max_time=LIMIT,
                                       extra=("--timeout", str(TIMEOUT), "--claim-forfeits")))
        peers.extend(honest)
        result, theirs, *others = finish([host, partner, *honest], deadline=time.monotonic() + LIMIT)
    finally:
        kill_all(peers)
    took = time.monotonic() - started
    print(f"\nhostage, {seats} seats: the host's result after {took:.1f} s (abandonment deadline {3 * TIMEOUT} s)")
    for other in others:
        assert other["finished"] and other["reason"] == result["reason"], other
    assert host.proc.returncode == 0, host.log_tail()
    assert result["finished"] and result["abandoned"] is not None and result["abandoned"]["silent"] == [1], result
    assert result["winner"] is None and result["audit"] == "not audited: abandoned", result
    assert theirs["finished"] and theirs["reason"] == result["reason"], theirs
    assert "abandoned" in host.log.read_text()
    checked = run_checked(["-m", "tools.verify", str(tmp_path / "seat0.ft")])
    assert checked.returncode == 3 and "abandonment claim" in checked.stdout, checked.stdout

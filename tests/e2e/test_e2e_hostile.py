"""End to end against a hostile seat: an honest ``tools.peer`` process and an
attacker process made from our own Peer (tests/e2e/hostile_peer.py), TCP on
127.0.0.1. Each test is bounded (~60 s)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from e2e_procs import STEP, kill_all, start_host, wait_until

from net.transcript import load_raw, verify
from tools.match_tcp import ROOT, PeerProcess, finish, peer_env, seat_args, spawn

pytestmark = pytest.mark.e2e
LIMIT = 60.0
HOSTILE = Path(__file__).with_name("hostile_peer.py")


def spawn_hostile(seat: int, mode: str, args: Sequence[str], workdir: Path, at: int = 8) -> PeerProcess:
    log = workdir / f"seat{seat}.log"
    with open(log, "w", encoding="utf-8") as handle:
        proc = subprocess.Popen([sys.executable, str(HOSTILE), mode, "--at", str(at), "--", *args],
                                stdout=subprocess.PIPE, stderr=handle, text=True, cwd=ROOT, env=peer_env())
    return PeerProcess(seat, proc, log)


def _deadline() -> float:
    return time.monotonic() + LIMIT


def test_kill_after_a_refused_envelope_then_resume_continues_and_ends_audited(tmp_path: Path) -> None:
    """The host refuses the attacker's out-of-turn action, accepts the genuine
    envelope that reuses its seq, is killed with SIGKILL and resumed: the
    replay repeats both verdicts, so the game goes on and ends audited."""
    host, code = start_host(tmp_path, "greedy", extra=("--delay", "0.02", "--progress-every", "1"))
    peers = [host]
    try:
        attacker = spawn_hostile(1, "refuse-once", ["join", code, "--game", "rider",
                                                    *seat_args(1, "random", 1, tmp_path, LIMIT,
                                                               ("--delay", "0.02"))], tmp_path)
        peers.append(attacker)

        def refused_then_moved_on() -> bool:
            log = host.log.read_text(errors="replace")
            at = log.find("rejected a 'action' message from seat 1")
            refused = re.search(r"at step (\d+)", log[at:]) if at >= 0 else None
            # a few steps after the refusal: seat 1's genuine envelope with that seq is in
            return refused is not None and any(int(k) >= int(refused.group(1)) + 5
                                               for k in STEP.findall(log[at:]))

        wait_until(refused_then_moved_on, 40, "the host to refuse the attacker's action and play on")
        os.kill(host.proc.pid, signal.SIGKILL)
        host.proc.wait(timeout=10)
        (tmp_path / "resumed").mkdir()
        back = spawn(0, ["resume", str(tmp_path / "seat0"), "--bot", "greedy", "--json", "--save",
                         str(tmp_path / "seat0.ft"), "--max-time", str(LIMIT)], tmp_path / "resumed")
        peers.append(back)
        resumed, hostile = finish([back, attacker], deadline=_deadline())
    finally:
        kill_all(peers)
    assert "HOSTILE: sent a refused action" in attacker.log.read_text()
    for r in (resumed, hostile):
        assert r["error"] is None and r["finished"] and r["audit"] == "ok", r
    assert resumed["rejected"] == 0, resumed  # the replay refused nothing new: no false equivocation
    assert resumed["final_hash"] == hostile["final_hash"]
    assert "resuming game" in back.log.read_text() and "Equivocation" not in back.log.read_text()
    assert verify(load_raw(tmp_path / "seat0.ft")).ok

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
from typing import Any

import pytest
from e2e_procs import STEP, kill_all, run_checked, start_host, wait_until

from engine.core.encoding import encode
from net.transcript import load_raw
from net.verifier import verify
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
            at = log.find("rejected a 'action' message from seat 2")  # index 1, counted from 1 in the log
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


def _peak_rss_kib(pid: int) -> int:
    """The process's peak resident memory so far (Linux VmHWM), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def _journal_size(directory: Path) -> int:
    return sum(f.stat().st_size for f in (directory / "journal").iterdir())


def _play_against(tmp_path: Path, mode: str, *, at: int = 6) -> tuple[PeerProcess, dict[str, Any], int, int]:
    """An honest host against a hostile joiner; the host's result, peak memory (KiB) and journal size."""
    host, code = start_host(tmp_path, "greedy", extra=("--delay", "0.02"))
    peers = [host]
    peak = 0
    try:
        attacker = spawn_hostile(1, mode, ["join", code, "--game", "rider",
                                           *seat_args(1, "random", 1, tmp_path, LIMIT, ("--delay", "0.02"))],
                                 tmp_path, at=at)
        peers.append(attacker)
        end = _deadline()
        while host.proc.poll() is None and time.monotonic() < end:
            try:
                peak = max(peak, _peak_rss_kib(host.proc.pid))
            except OSError:
                break
            time.sleep(0.1)
        [result] = finish([host], deadline=_deadline())
        journal = _journal_size(tmp_path / "seat0")
    finally:
        kill_all(peers)
    assert f"HOSTILE: {mode}" in attacker.log.read_text(), attacker.log_tail()
    return host, result, peak, journal


@pytest.mark.parametrize("mode", ["future-flood", "chat-flood", "catchup-flood"])
def test_floods_stay_within_bounds_name_the_flooder_and_the_game_ends_normally(tmp_path: Path, mode: str) -> None:
    host, result, peak, journal = _play_against(tmp_path, mode)
    print(f"\n{mode}: host peak RSS {peak / 1024:.0f} MiB, journal {journal / 1024:.0f} KiB, "
          f"wall {result['wall_s']} s")
    assert result["error"] is None and result["finished"] and result["audit"] == "ok", result
    assert "warning: seat 2 is flooding the table" in host.log.read_text()
    assert peak < 200 * 1024, peak  # generous: an honest game peaks near 60 MiB (docs/security.md)
    assert journal < 1024 * 1024, journal  # nothing of a flood is journalled (an honest game: ~60 KiB)
    assert verify(load_raw(tmp_path / "seat0.ft")).ok


def test_a_false_state_hash_convicts_the_liar_with_a_proof_tools_verify_confirms(tmp_path: Path) -> None:
    host, result, _, _ = _play_against(tmp_path, "false-hash", at=10)
    assert result["convicted"] == 1 and result["winner"] == 0, result
    assert "seat 1 was caught cheating" in result["error"] and "proof saved" in result["error"], result
    proof = tmp_path / "seat0.ft.proof"
    assert proof.exists(), host.log_tail()
    checked = run_checked(["-m", "tools.verify", str(proof)])
    assert checked.returncode == 0 and checked.stdout.startswith("proof holds: seat 2"), checked.stdout
    # a forged accusation of the honest seat is no proof
    data = dict(load_raw(proof))
    data["claim"] = {**data["claim"], "seat": 0}
    forged = tmp_path / "forged.proof"
    forged.write_bytes(encode(data))
    assert run_checked(["-m", "tools.verify", str(forged)]).returncode == 1

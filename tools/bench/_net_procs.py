"""Seats in their own processes, for ``tools.bench net`` (not a suite of its own).

:func:`measure_processes` starts one :mod:`tools.bench._net_seat` process per
seat, links them over loopback TCP, and measures

- ``round_trip_ms``: seat 0 signs and broadcasts an action, every other seat
  (its own process) verifies it and answers with a signed envelope, until
  seat 0 has verified every answer;
- ``dice_roll_ms``: one-phase 2d6 rolls (net.dice_vrf): every seat starts the
  roll at the same instant of the machine's monotonic clock (as peers do when
  they apply the step before it), sends its one ``roll`` envelope and verifies
  every other; the figure is the time until the *last* seat holds the faces
  (``seat0`` alone is also given; ``commit_reveal_roll_ms``: the same with
  the two-phase dice of records before issue 26; ``latest_start``: how late the last seat's
  reactor began the roll, timer resolution and waiting for a core, which the
  figure includes). All seats must derive the same faces.

Every process is a real peer, but they share this machine's cores: with
fewer cores than seats, the wall times include waiting for a core.
``cores`` in the result says how many there were; the critical path a table
of one core per peer would see is modelled in :mod:`tools.bench._dice_model`
from unit costs measured in the same run.
"""

from __future__ import annotations

import json
import os
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def figures(values: list[float]) -> dict[str, float | int]:
    return {"median": round(statistics.median(values), 3), "p95": round(_percentile(values, 0.95), 3),
            "count": len(values)}


class Seats:
    """``n`` seat processes, linked; talk to them one JSON line at a time."""

    def __init__(self, n: int, timeout: float = 60.0) -> None:
        self.n, self.timeout = n, timeout
        seed = secrets.token_hex(8)
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.procs = [subprocess.Popen([sys.executable, "-m", "tools.bench._net_seat", str(s), str(n), seed],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
                      for s in range(n)]
        ready = [self.read(s, "ready") for s in range(n)]
        self.tell(0, join=None)
        for s in range(1, n):
            self.tell(s, join=ready[0]["ready"], fp=ready[0]["fp"])
        for s in range(n):
            self.read(s, "linked")

    def tell(self, seat: int, **command: Any) -> None:
        stdin: IO[str] | None = self.procs[seat].stdin
        assert stdin is not None
        stdin.write(json.dumps(command) + "\n")
        stdin.flush()

    def read(self, seat: int, key: str) -> dict[str, Any]:
        stdout: IO[str] | None = self.procs[seat].stdout
        assert stdout is not None
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            line = stdout.readline()
            if not line:
                raise RuntimeError(f"benchmark seat {seat} of {self.n} exited (code {self.procs[seat].poll()})")
            data: dict[str, Any] = json.loads(line)
            if key in data:
                return data
        raise RuntimeError(f"benchmark seat {seat} of {self.n} did not answer {key!r} in time")

    def close(self) -> None:
        for s, proc in enumerate(self.procs):
            if proc.poll() is None:
                try:
                    self.tell(s, quit=True)
                except (BrokenPipeError, OSError):
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def round_trips(n: int, count: int) -> dict[str, float | int]:
    seats = Seats(n)
    try:
        for s in range(n):
            seats.tell(s, rt=count)
        return figures(seats.read(0, "rt_ms")["rt_ms"][min(5, count // 5):])  # the first few warm up
    finally:
        seats.close()


def dice_rolls(n: int, count: int, gap: float, protocol: str = "one-phase") -> dict[str, Any]:
    """``protocol`` "one-phase" (net.dice_vrf) or "commit-reveal" (net.dice, records before issue 26)."""
    seats = Seats(n)
    try:
        start = time.monotonic() + 0.3
        for s in range(n):
            seats.tell(s, dice=count + 3, start=start, gap=gap, protocol=protocol)
        results = [seats.read(s, "dice_ms") for s in range(n)]
    finally:
        seats.close()
    if len({json.dumps(r["faces"]) for r in results}) != 1:
        raise RuntimeError("the seats derived different faces")
    last = [max(r["dice_ms"][k] for r in results) for k in range(3, count + 3)]  # 3 warm-up rolls
    late = [max(r["late_ms"][k] for r in results) for k in range(3, count + 3)]
    return {**figures(last), "seat0": figures(results[0]["dice_ms"][3:]), "latest_start": figures(late),
            "phases": 2 if protocol == "commit-reveal" else 1}


def measure_processes(quick: bool = False, peers: tuple[int, ...] = (2, 6, 10)) -> dict[str, Any]:
    """Round trips and one-phase rolls with every seat in its own process."""
    out: dict[str, Any] = {"cores": os.cpu_count(), "round_trip_ms": {}, "dice_roll_ms": {},
                           "commit_reveal_roll_ms": {}}
    for n in peers:
        out["round_trip_ms"][str(n)] = round_trips(n, 30 if quick else 100)
    for n in peers:
        # rolls far enough apart that one is over before the next begins, even when the seats share few cores;
        # the two protocols alternate, so a change of the machine's load hits both
        for key, protocol in (("dice_roll_ms", "one-phase"), ("commit_reveal_roll_ms", "commit-reveal")):
            out[key][str(n)] = dice_rolls(n, 10 if quick else 30, gap=0.05 + 0.02 * n, protocol=protocol)
    return out

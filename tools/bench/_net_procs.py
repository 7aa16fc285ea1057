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
import queue
import secrets
import statistics
import subprocess
import sys
import threading
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
    """``n`` seat processes (``module``: :mod:`tools.bench._net_seat` or another one serving the same
    commands), linked; talk to them one JSON line at a time.

    Each process's answers are read by a thread of its own, so a seat that hangs or dies is
    reported after ``timeout`` seconds rather than blocking the benchmark; :meth:`close` (also
    when linking fails) asks every seat to quit and kills any that does not."""

    def __init__(self, n: int, timeout: float = 60.0, module: str = "tools.bench._net_seat") -> None:
        self.n, self.timeout = n, timeout
        seed = secrets.token_hex(8)
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.procs: list[subprocess.Popen[str]] = []
        self.lines: list[queue.Queue[str | None]] = []
        try:
            for s in range(n):
                proc = subprocess.Popen([sys.executable, "-m", module, str(s), str(n), seed],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
                self.procs.append(proc)
                self.lines.append(queue.Queue())
                threading.Thread(target=self._pump, args=(proc, self.lines[-1]), daemon=True).start()
            ready = [self.read(s, "ready") for s in range(n)]
            self.tell(0, join=None)
            for s in range(1, n):
                self.tell(s, join=ready[0]["ready"], fp=ready[0]["fp"])
            for s in range(n):
                self.read(s, "linked")
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _pump(proc: subprocess.Popen[str], into: queue.Queue[str | None]) -> None:
        stdout: IO[str] | None = proc.stdout
        assert stdout is not None
        with stdout:
            for line in stdout:
                into.put(line)
        into.put(None)  # the seat's output closed: it exited

    def tell(self, seat: int, **command: Any) -> None:
        stdin: IO[str] | None = self.procs[seat].stdin
        assert stdin is not None
        stdin.write(json.dumps(command) + "\n")
        stdin.flush()

    def read(self, seat: int, key: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines[seat].get(timeout=max(left, 0.0))
            except queue.Empty:
                raise RuntimeError(f"benchmark seat {seat} of {self.n} did not answer {key!r} "
                                   f"in {self.timeout:.0f} s") from None
            if line is None:
                raise RuntimeError(f"benchmark seat {seat} of {self.n} exited (code {self.procs[seat].poll()})")
            data: dict[str, Any] = json.loads(line)
            if "failed" in data:
                raise RuntimeError(f"benchmark seat {seat} of {self.n}: {data['failed']}")
            if key in data:
                return data

    def close(self) -> None:
        for s, proc in enumerate(self.procs):
            if proc.poll() is None:
                try:
                    self.tell(s, quit=True)
                except (BrokenPipeError, OSError, ValueError):
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stdin is not None:  # stdout is closed by its reader thread at its end
                try:
                    proc.stdin.close()
                except OSError:
                    pass


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

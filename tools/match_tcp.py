"""``tools.match --net tcp``: every seat is its own OS process on 127.0.0.1.

:func:`run_table` starts one ``python -m tools.peer host`` and a ``join`` per
other seat (the full protocols: handshake, lobby, sealed choices, dice,
shuffles with proofs, audit), waits for all of them, and gathers their JSON
results. ``tools.match`` (:func:`play_tcp`), the end-to-end tests and
``tools.bench net`` all use it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from net.seats import for_people, seat_label
from net.games import DEFAULT_GAME

if TYPE_CHECKING:
    from net.games import GameEntry

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK = "127.0.0.1"


class TableFailed(RuntimeError):
    """A peer process failed; the message includes the tail of its log."""


@dataclasses.dataclass
class PeerProcess:
    """One running ``tools.peer`` and where its log goes."""

    seat: int
    proc: subprocess.Popen[str]
    log: Path

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = self.log.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(text[-lines:])


@dataclasses.dataclass
class TableRun:
    """What every peer reported, plus the table-wide totals."""

    results: list[dict[str, Any]]
    wall_s: float
    cpu_s: float
    transcript: Path
    workdir: Path

    @property
    def messages(self) -> int:
        return sum(int(r.get("messages", 0)) for r in self.results)

    @property
    def bytes(self) -> int:
        return sum(int(r.get("bytes", 0)) for r in self.results)


def peer_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "tools.peer", *args]


def peer_env() -> dict[str, str]:
    path = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": str(ROOT) + (os.pathsep + path if path else ""),
            "PYTHONUNBUFFERED": "1"}


def spawn(seat: int, args: Sequence[str], workdir: Path) -> PeerProcess:
    log = workdir / f"seat{seat}.log"
    with open(log, "w", encoding="utf-8") as handle:
        proc = subprocess.Popen(peer_command(*args), stdout=subprocess.PIPE, stderr=handle, text=True,
                                cwd=ROOT, env=peer_env())
    return PeerProcess(seat, proc, log)


def next_line(proc: subprocess.Popen[str], deadline: float) -> str | None:
    """The process's next stdout line, or None when none came by ``deadline``; "" at end of output.

    Reads the pipe's descriptor a byte at a time, never through the text wrapper:
    a buffered ``readline`` may pull two lines at once, and a ``select`` on the
    descriptor would then wait for a line that has already been read.
    """
    assert proc.stdout is not None
    import selectors

    fd = proc.stdout.fileno()
    raw = bytearray()
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while True:
            if not sel.select(max(0.0, deadline - time.monotonic())):
                return None
            byte = os.read(fd, 1)
            if not byte:
                return raw.decode("utf-8", "replace")
            if byte == b"\n":
                return raw.decode("utf-8", "replace") + "\n"
            raw += byte


def read_invite(host: PeerProcess, timeout: float) -> str:
    """The invite code: the first stdout line of the host."""
    line = next_line(host.proc, time.monotonic() + timeout)
    if line is None:
        raise TableFailed(f"the host printed no invite code within {timeout:.0f} s:\n{host.log_tail()}")
    line = line.strip()
    if not line.startswith("FT1-"):
        raise TableFailed(f"the host did not print an invite code (got {line!r}):\n{host.log_tail()}")
    return line


def read_codes(host: PeerProcess, count: int, timeout: float) -> list[str]:
    """The next ``count`` stdout lines of an online host: one wormhole code each."""
    codes: list[str] = []
    end = time.monotonic() + timeout
    while len(codes) < count:
        line = next_line(host.proc, end)
        if line is None:
            raise TableFailed(f"the host printed {len(codes)} of {count} wormhole codes within "
                              f"{timeout:.0f} s:\n{host.log_tail()}")
        if not line.strip():
            raise TableFailed(f"the host stopped before printing its wormhole codes:\n{host.log_tail()}")
        codes.append(line.strip())
    return codes


def online_args(mailbox: str, relay: str) -> list[str]:
    """Flags pointing a peer at a mailbox and relay, relay only (no direct connections)."""
    return ["--mailbox", mailbox, "--relay", relay, "--no-direct"]


def seat_args(seat: int, bot: str, seed: int, workdir: Path, max_time: float, extra: Sequence[str]) -> list[str]:
    return ["--bot", bot, "--seed", str(seed * 1000 + seat), "--journal", str(workdir / f"seat{seat}"),
            "--identity", str(workdir / f"seat{seat}.pem"), "--name", f"peer{seat}",
            "--save", str(workdir / f"seat{seat}.ft"), "--json", "--max-time", str(max_time), *extra]


def finish(peers: Sequence[PeerProcess], deadline: float) -> list[dict[str, Any]]:
    """Wait for every peer; its last stdout line is its JSON result."""
    results: list[dict[str, Any]] = []
    try:
        for peer in peers:
            try:
                out, _ = peer.proc.communicate(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise TableFailed(f"{seat_label(peer.seat)} did not finish in time:\n{peer.log_tail()}") from None
            lines = [ln for ln in out.splitlines() if ln.startswith("{")]
            if not lines:
                raise TableFailed(f"{seat_label(peer.seat)} exited with status {peer.proc.returncode} and no result:\n"
                                  f"{peer.log_tail()}")
            results.append(json.loads(lines[-1]))
    finally:
        for peer in peers:
            if peer.proc.poll() is None:
                peer.proc.kill()
                peer.proc.wait()
    return results


def net_timeout(given: float | None, seats: int) -> float:
    """``--net-timeout``, or its default for ``seats`` peers: 120 s, and 180 s more for every seat beyond two."""
    return given if given is not None else 120.0 + 180.0 * max(0, seats - 2)


def run_table(bots: Sequence[str], *, game: str = DEFAULT_GAME, seed: int = 0, workdir: Path | None = None,
              timeout: float = 60.0, host_extra: Sequence[str] = (), join_extra: Sequence[Sequence[str]] = (),
              common: Sequence[str] = (), online: tuple[str, str] | None = None) -> TableRun:
    """Play one game with ``len(bots)`` peer processes; raise :class:`TableFailed` on a crash or timeout.

    With ``online`` (mailbox URL, relay hint) the host runs ``--online`` and each
    joiner joins with a wormhole code of its own, through the relay only."""
    workdir = workdir or Path(tempfile.mkdtemp(prefix="fairtable-table-"))
    workdir.mkdir(parents=True, exist_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    deadline = start + timeout
    seats = len(bots)
    peers: list[PeerProcess] = []
    try:
        wormhole = ["--online", *online_args(*online)] if online else []
        host = spawn(0, ["host", "--game", game, "--seats", str(seats), "--listen", LOOPBACK, *wormhole,
                         *seat_args(0, bots[0], seed, workdir, timeout, [*common, *host_extra])], workdir)
        peers.append(host)
        code = read_invite(host, timeout=min(30.0, timeout))
        codes = read_codes(host, seats - 1, min(30.0, timeout)) if online else [code] * (seats - 1)
        for seat in range(1, seats):
            extra = [*common, *(join_extra[seat - 1] if seat - 1 < len(join_extra) else ()),
                     *(online_args(*online) if online else ())]
            peers.append(spawn(seat, ["join", codes[seat - 1], "--game", game,
                                      *seat_args(seat, bots[seat], seed, workdir, timeout, extra)], workdir))
        results = finish(peers, deadline)
    finally:
        for peer in peers:
            if peer.proc.poll() is None:
                peer.proc.kill()
                peer.proc.wait()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return TableRun(results, round(wall, 3), round(cpu, 3), workdir / "seat0.ft", workdir)


def _who(result: dict[str, Any]) -> str:
    """A peer's seat for people ("seat 1"), or "a peer with no seat" before a game began."""
    seat = result.get("seat")
    return seat_label(seat) if isinstance(seat, int) else "a peer with no seat"


def audit_of(run: TableRun) -> str:
    """"ok", or what failed: a peer's error or audit, differing final hashes, or tools.verify."""
    from net.transcript import TranscriptError, load_raw
    from net.verifier import verify

    for r in run.results:
        if r.get("error"):
            return f"{_who(r)}: {for_people(str(r['error']))}"
        if not r.get("finished"):
            return f"{_who(r)} did not finish"
        if r.get("audit") != "ok":
            return f"{_who(r)}: audit {for_people(str(r.get('audit')))}"
    if len({r.get("final_hash") for r in run.results}) != 1:
        return "the peers' final state hashes differ: " + ", ".join(
            f"{_who(r)} {str(r.get('final_hash'))[:16]}" for r in run.results)
    try:
        verdict = verify(load_raw(run.transcript))
    except TranscriptError as exc:
        return f"transcript: {for_people(str(exc))}"
    return "ok" if verdict.ok else f"transcript: {for_people(str(verdict))}"


def play_tcp(args: Any, entry: GameEntry[Any], seats: int, bots: Sequence[str]) -> dict[str, Any]:
    """``tools.match GAME --net tcp``: the local match's fields plus wall_s, cpu_s, messages, bytes, audit.

    ``bots`` holds one checked bot name per seat (tools.match.bot_names)."""
    from tools._cli import InputProblem

    bots = list(bots)
    if entry.needs_deck:
        common = ["--cardset", args.cardset] if args.cardset else []
        host_extra = ["--deck", args.deck0] if args.deck0 else []
        join_extra = [["--deck", args.deck1] if args.deck1 else [] for _ in range(1, seats)]
    elif args.cardset or args.deck0 or args.deck1:
        raise InputProblem(f"{entry.title} has no decks; drop --cardset, --deck0 and --deck1")
    else:
        common, host_extra, join_extra = [], [], []
    with tempfile.TemporaryDirectory(prefix="fairtable-match-") as tmp:
        try:
            run = run_table(bots, game=entry.name, seed=args.seed, workdir=Path(tmp),
                            timeout=net_timeout(args.net_timeout, len(bots)), host_extra=host_extra, join_extra=join_extra, common=common)
        except TableFailed as exc:
            raise InputProblem(f"the networked match failed: {exc}") from None
        audit = audit_of(run)
        if args.save:
            try:
                shutil.copyfile(run.transcript, args.save)
            except OSError as exc:
                raise InputProblem(f"cannot write the transcript to {args.save} ({exc}); choose a writable "
                                   "path") from None
    first = run.results[0]
    return {
        "game": args.game, "seed": args.seed, "bots": bots, "net": "tcp",
        "winner": first.get("winner"), "winners": first.get("winners", []), "reason": first.get("reason", "unfinished"),
        "turns": first.get("turns"),
        "actions": first.get("actions"), "final_hash": first.get("final_hash"),
        "wall_s": run.wall_s, "cpu_s": run.cpu_s, "messages": run.messages, "bytes": run.bytes, "audit": audit,
        "ok": audit == "ok",
    }

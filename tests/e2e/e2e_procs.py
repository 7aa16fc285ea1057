"""Helpers of the end-to-end tests: peer processes on 127.0.0.1, their logs,
and a TCP relay whose links the test can cut (a dropped link, for real)."""

from __future__ import annotations

import re
import selectors
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tools.match_tcp import PeerProcess, read_invite, seat_args, spawn

LOOPBACK = "127.0.0.1"
STEP = re.compile(r"\bstep (\d+):")


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``condition`` (a bounded wait for another process, not a timed test)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.02)


def last_step(peer: PeerProcess) -> int:
    """The latest step the peer's log shows progress at (-1 before any)."""
    try:
        text = peer.log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return -1
    return max((int(m) for m in STEP.findall(text)), default=-1)


def step_reached(peer: PeerProcess, step: int) -> bool:
    """True once the peer's log shows progress at ``step`` or later."""
    return last_step(peer) >= step


def start_host(workdir: Path, bot: str, *, seats: int = 2, game: str = "rider", max_time: float = 60.0,
               extra: tuple[str, ...] = ()) -> tuple[PeerProcess, str]:
    host = spawn(0, ["host", "--game", game, "--seats", str(seats), "--listen", LOOPBACK,
                     *seat_args(0, bot, 1, workdir, max_time, extra)], workdir)
    return host, read_invite(host, timeout=30)


def start_joiner(workdir: Path, seat: int, code: str, bot: str, *, game: str = "rider", max_time: float = 60.0,
                 extra: tuple[str, ...] = ()) -> PeerProcess:
    return spawn(seat, ["join", code, "--game", game, *seat_args(seat, bot, 1, workdir, max_time, extra)], workdir)


def kill_all(peers: list[PeerProcess]) -> None:
    for peer in peers:
        if peer.proc.poll() is None:
            peer.proc.kill()
            peer.proc.wait()


class CuttableRelay:
    """Forwards TCP connections from 127.0.0.1:port to a target; :meth:`cut`
    closes every open connection and refuses new ones until :meth:`restore`."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.server = socket.create_server((LOOPBACK, 0))
        self.port: int = self.server.getsockname()[1]
        self.refusing = False
        self.cuts = 0
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        self.server.settimeout(0.05)
        while not self._stop.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                continue
            if self.refusing:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        with selectors.DefaultSelector() as sel:
            sel.register(a, selectors.EVENT_READ, b)
            sel.register(b, selectors.EVENT_READ, a)
            try:
                while not self._stop.is_set():
                    for key, _ in sel.select(0.1):
                        data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                        if not data:
                            return
                        key.data.sendall(data)
            except OSError:
                return
            finally:
                for s in (a, b):
                    s.close()

    def cut(self) -> None:
        self.refusing = True
        self.cuts += 1
        with self._lock:
            for s in self._open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self._open.clear()

    def restore(self) -> None:
        self.refusing = False

    def close(self) -> None:
        self._stop.set()
        self.cut()
        self.server.close()


def run_checked(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    import sys

    from tools.match_tcp import ROOT, peer_env

    return subprocess.run([sys.executable, *args], check=False, capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env=peer_env())

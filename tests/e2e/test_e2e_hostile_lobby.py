"""End to end (issue 9, items 2 and 4): a hostile joiner process made from our
own Peer (tests/e2e/hostile_joiner.py) against real ``tools.peer`` processes
on 127.0.0.1. It forges the host's lobby messages at another joiner and floods
the host with ``links`` gossip pointing at a trap address; the victim plays
the genuine game to an audited end and the trap never sees a connection."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from e2e_procs import kill_all, start_host, start_joiner, wait_until

from net.transcript import load_raw
from net.verifier import verify
from tools.match_tcp import ROOT, finish, next_line, peer_env

pytestmark = pytest.mark.e2e
LIMIT = 60.0
HOSTILE = str(Path(__file__).with_name("hostile_joiner.py"))


class Trap:
    """A listening socket that counts the connections made to it."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.server.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self.server.settimeout(0.05)
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                continue
            self.connections += 1
            client.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        self.server.close()


def _read_line(proc: subprocess.Popen[str], wanted: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while (line := next_line(proc, deadline)) is not None:
        if line.strip() == wanted:
            return
        if not line:
            break
    raise AssertionError(f"the hostile joiner never printed {wanted!r}")


def test_a_hostile_joiner_process_cannot_forge_the_host_or_make_it_dial(tmp_path: Path) -> None:
    tiny = ("--delay", "0.01")
    trap = Trap()
    host, code = start_host(tmp_path, "random", seats=4, game="tiny", max_time=LIMIT, extra=tiny)
    peers = [host]
    log = open(tmp_path / "mallory.log", "w", encoding="utf-8")  # noqa: SIM115
    attacker = subprocess.Popen([sys.executable, HOSTILE, code, "--trap", str(trap.port),
                                 "--max-time", str(LIMIT)], stdout=subprocess.PIPE, stderr=log,
                                text=True, cwd=ROOT, env=peer_env())
    try:
        wait_until(lambda: "takes seat 2 " in host.log.read_text(), 30, "the attacker to take seat 2")
        victim = start_joiner(tmp_path, 2, code, "random", game="tiny", max_time=LIMIT, extra=tiny)
        peers.append(victim)
        _read_line(attacker, "ATTACKED", 30)
        wait_until(lambda: victim.log.read_text().count("ignored a lobby message") >= 4, 30,
                   "the victim to refuse the four forgeries")
        assert "seated as seat" not in victim.log.read_text()  # none of them seated it anywhere
        late = start_joiner(tmp_path, 3, code, "random", game="tiny", max_time=LIMIT, extra=tiny)
        peers.append(late)
        results = finish(peers, deadline=time.monotonic() + LIMIT)
        out, _ = attacker.communicate(timeout=LIMIT)
    finally:
        kill_all(peers)
        if attacker.poll() is None:
            attacker.kill()
            attacker.wait()
        log.close()
        trap.close()
    for r in results:
        assert r["error"] is None and r["finished"] and r["audit"] == "ok", r
    mallory = [line for line in out.splitlines() if line.startswith("{")]
    assert mallory, out
    import json

    attacker_result = json.loads(mallory[-1])
    # it stayed at the table to the end and kept talking (how much depends on how long the game ran:
    # a count of frames is no fixed number)
    assert attacker_result["game_id"] == results[0]["game_id"] and attacker_result["links_frames_sent"] > 0
    assert len({r["game_id"] for r in results}) == 1 and results[1]["seat"] == 2
    text = victim.log.read_text()
    assert text.count("not by the host") >= 3 and "does not verify" in text, text
    assert verify(load_raw(tmp_path / "seat2.ft")).ok
    assert trap.connections == 0  # neither the invented keys nor the lie about the victim were dialled

"""End to end: watchers (net/peer/watching.py) as real processes on 127.0.0.1.

Two seats and a watcher (``python -m tools.peer join CODE --watch``) play and
watch Tiny over TCP; the watcher's public state hash must equal the seats' at
every step, it must end with the same verdict, and it must never hold a card
of anyone's. A watcher that joins mid-game catches up from the envelopes so
far; a hostile watcher (tests/e2e/hostile_watcher.py) that forges envelopes,
floods, and asks for a seat changes nothing and is named in the host's log.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_procs import kill_all, start_host, start_joiner, step_reached, wait_until

from tools.match_tcp import PeerProcess, finish, spawn

pytestmark = pytest.mark.e2e
LIMIT = 60.0
HOSTILE = str(Path(__file__).with_name("hostile_watcher.py"))


def _watcher(workdir: Path, code: str, n: int = 9, game: str = "tiny") -> PeerProcess:
    return spawn(n, ["join", code, "--watch", "--game", game, "--identity", str(workdir / f"watch{n}.pem"),
                     "--name", f"watcher{n}", "--json", "--max-time", str(LIMIT), "--save", str(workdir / f"w{n}.ft"),
                     "--hashes", str(workdir / f"w{n}.hashes")], workdir)


def _hashes(path: Path) -> list[str]:
    return list(json.loads(path.read_text(encoding="utf-8")))


def _table(tmp_path: Path, *, delay: str = "0.05", game: str = "tiny") -> tuple[PeerProcess, str]:
    extra = ("--delay", delay)
    host, code = start_host(tmp_path, "random", game=game, max_time=LIMIT,
                            extra=("--watchers", "3", "--hashes", str(tmp_path / "s0.hashes"), *extra))
    return host, code


def _check_same(tmp_path: Path, results: list[dict[str, object]], watchers: list[int]) -> None:
    watched = results[2:]
    for r in results:
        assert r["error"] is None and r["finished"] and r["audit"] == "ok", r
        assert r["rejected"] == 0, r
    assert len({r["final_hash"] for r in results}) == 1
    assert all(r["watcher"] and r["seat"] is None for r in watched)
    reference = _hashes(tmp_path / "s0.hashes")
    assert reference == _hashes(tmp_path / "s1.hashes") and len(reference) > 5
    for n in watchers:
        assert _hashes(tmp_path / f"w{n}.hashes") == reference  # every step's public state hash


def test_two_seats_and_a_watcher_agree_on_every_state_hash(tmp_path: Path) -> None:
    host, code = _table(tmp_path)
    watcher = _watcher(tmp_path, code)
    joiner = start_joiner(tmp_path, 1, code, "random", game="tiny", max_time=LIMIT,
                          extra=("--hashes", str(tmp_path / "s1.hashes"), "--delay", "0.05"))
    peers = [host, joiner, watcher]
    try:
        results = finish(peers, deadline=__import__("time").monotonic() + LIMIT + 20)
    finally:
        kill_all(peers)
    _check_same(tmp_path, results, [9])
    host_log = host.log.read_text(encoding="utf-8")
    assert "watcher9" in host_log and "is watching the table" in host_log
    watch_log = watcher.log.read_text(encoding="utf-8")
    assert "watching game" in watch_log
    # the watcher's record is the seats' record: tools.verify accepts it
    done = subprocess.run([sys.executable, "-m", "tools.verify", str(tmp_path / "w9.ft")], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("ok: "), done.stdout + done.stderr


def test_a_watcher_that_joins_mid_game_catches_up(tmp_path: Path) -> None:
    host, code = _table(tmp_path, delay="0.15", game="rider")
    joiner = start_joiner(tmp_path, 1, code, "random", game="rider", max_time=LIMIT,
                          extra=("--hashes", str(tmp_path / "s1.hashes"), "--delay", "0.15", "--progress-every", "1"))
    peers = [host, joiner]
    try:
        wait_until(lambda: step_reached(joiner, 16), LIMIT, "the game to reach step 16")
        late = _watcher(tmp_path, code, 8, game="rider")
        peers.append(late)
        results = finish(peers, deadline=__import__("time").monotonic() + LIMIT + 20)
    finally:
        kill_all(peers)
    _check_same(tmp_path, results, [8])


def test_a_hostile_watcher_changes_nothing_and_is_named(tmp_path: Path) -> None:
    host, code = _table(tmp_path, delay="0.02", game="rider")
    joiner = start_joiner(tmp_path, 1, code, "random", game="rider", max_time=LIMIT,
                          extra=("--hashes", str(tmp_path / "s1.hashes"), "--delay", "0.02"))
    hostile = subprocess.Popen([sys.executable, HOSTILE, code, "--max-time", str(LIMIT)], stdout=subprocess.PIPE,
                               stderr=open(tmp_path / "hostile.log", "w", encoding="utf-8"), text=True,
                               cwd=str(Path(__file__).resolve().parents[2]))
    honest = _watcher(tmp_path, code, game="rider")
    peers = [host, joiner, honest]
    try:
        results = finish(peers, deadline=__import__("time").monotonic() + LIMIT + 20)
        out, _ = hostile.communicate(timeout=LIMIT + 20)
    finally:
        kill_all(peers)
        if hostile.poll() is None:
            hostile.kill()
    _check_same(tmp_path, results, [9])
    attacks = json.loads(out.strip().splitlines()[-1])
    assert attacks["forged"] > 0 and attacks["flood"] > 50 and attacks["claims"] > 0, attacks
    log = host.log.read_text(encoding="utf-8")
    for what in ("game data from watcher hostile", "a 'join' message from watcher hostile",
                 "a 'nudge' message from watcher hostile", "a 'done' message from watcher hostile",
                 "a pull from watcher hostile", "a chat line from watcher hostile"):
        assert f"ignored {what}" in log, (what, log[-3000:])
    assert "more than 10 pulls in a row" in log and "more than 3 chat lines in a row" in log
    refused = results[0]["watcher_refusals"]["hostile"]
    assert refused["game data"] >= attacks["forged"] and refused["a pull"] > 20, refused
    assert "watcher9" not in results[0]["watcher_refusals"]  # the honest watcher did nothing wrong

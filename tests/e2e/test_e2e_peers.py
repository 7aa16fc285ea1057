"""End to end: real peer processes (python -m tools.peer) talking TCP on 127.0.0.1.

Every game here runs the full protocols (handshake, lobby, signed envelopes,
sealed choices, joint dice, shuffles and deals with proofs, audit) and ends
with a transcript that tools.verify accepts. Each test is bounded (~60 s)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from e2e_procs import (
    CuttableRelay,
    kill_all,
    run_checked,
    start_host,
    start_joiner,
    step_reached,
    wait_until,
)

from net.identity import Identity
from net.transcript import load_raw
from net.verifier import verify
from net.transport.invite import Invite, parse_invite
from tools.match_tcp import PeerProcess, TableRun, audit_of, finish, run_table, spawn

pytestmark = pytest.mark.e2e
LIMIT = 60.0


def _assert_same_end(results: list[dict[str, object]]) -> None:
    for r in results:
        assert r["error"] is None and r["finished"] and r["audit"] == "ok", r
        assert r["rejected"] == 0, r
    assert len({r["final_hash"] for r in results}) == 1, [r["final_hash"] for r in results]
    assert len({r["game_id"] for r in results}) == 1


def test_rider_between_two_bot_processes_via_match_then_verify(tmp_path: Path) -> None:
    """The issue's command line: tools.match --net tcp, then tools.verify says ok."""
    save = tmp_path / "game.ft"
    done = run_checked(["-m", "tools.match", "rider", "--net", "tcp", "--bots", "greedy,random", "--seed", "7",
                        "--json", "--save", str(save), "--net-timeout", str(LIMIT)], timeout=LIMIT + 10)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    local_fields = {"game", "seed", "bots", "winner", "reason", "turns", "actions", "final_hash"}
    assert local_fields | {"wall_s", "cpu_s", "messages", "bytes", "audit"} <= set(result)
    assert result["audit"] == "ok" and result["bots"] == ["greedy", "random"]
    # a real ending (rider.9 win or rider.10 turn-cap draw), never "unfinished" or a timeout
    assert ("rider.9" in result["reason"] and result["winner"] in (0, 1)) or \
        ("rider.10" in result["reason"] and result["winner"] is None), result
    assert result["messages"] > 20 and result["bytes"] > 10_000 and result["cpu_s"] > 0
    checked = run_checked(["-m", "tools.verify", str(save)])
    assert checked.returncode == 0 and checked.stdout.startswith("ok: ") and "reached by: normal end" in \
        checked.stdout, checked.stdout + checked.stderr
    # and a single flipped byte in the saved file is caught
    data = bytearray(save.read_bytes())
    data[len(data) // 2] ^= 1
    save.write_bytes(bytes(data))
    assert run_checked(["-m", "tools.verify", str(save)]).returncode == 1


@pytest.mark.parametrize("seats", [6, 10])
def test_dice_and_cards_exercise_with_many_peer_processes(tmp_path: Path, seats: int) -> None:
    run: TableRun = run_table(["random"] * seats, game="tiny", seed=seats, workdir=tmp_path, timeout=LIMIT,
                              common=["--linger", "5"])
    _assert_same_end(run.results)
    assert sorted(r["seat"] for r in run.results) == list(range(seats))
    assert audit_of(run) == "ok"
    # every seat's transcript is the same game and verifies on its own
    for seat in (0, seats - 1):
        assert verify(load_raw(tmp_path / f"seat{seat}.ft")).ok


@pytest.mark.parametrize("victim", [1, 0], ids=["joiner", "host"])
def test_peer_killed_with_sigkill_resumes_from_its_journal(tmp_path: Path, victim: int) -> None:
    host, code = start_host(tmp_path, "greedy", extra=("--delay", "0.01"))
    peers = [host]
    try:
        joiner = start_joiner(tmp_path, 1, code, "random", extra=("--delay", "0.01"))
        peers.append(joiner)
        dead = peers[victim]
        wait_until(lambda: step_reached(dead, 20), 40, "the game to reach step 20")
        os.kill(dead.proc.pid, signal.SIGKILL)
        dead.proc.wait(timeout=10)
        assert dead.proc.returncode == -signal.SIGKILL
        (tmp_path / "resumed").mkdir()
        back = spawn(victim, ["resume", str(tmp_path / f"seat{victim}"), "--bot", "random", "--json", "--save",
                              str(tmp_path / f"seat{victim}.ft"), "--max-time", str(LIMIT)], tmp_path / "resumed")
        peers.append(back)
        results = finish([back, peers[1 - victim]], deadline=_deadline())
    finally:
        kill_all(peers)
    _assert_same_end(results)
    assert "resuming game" in back.log.read_text()
    for seat in (0, 1):
        assert verify(load_raw(tmp_path / f"seat{seat}.ft")).ok


@pytest.mark.parametrize(("game", "seats", "cut_at", "delay"), [("rider", 2, 20, "0.01"), ("tiny", 3, 6, "0.4")])
def test_dropped_link_to_the_only_reachable_host_then_play_resumes(tmp_path: Path, game: str, seats: int,
                                                                   cut_at: int, delay: str) -> None:
    """Joiners do not listen (``--no-listen``), so everything goes through the
    host; the last joiner's only link (through a relay) is cut mid-game and
    refused for a while. With three seats the other joiner's messages reach
    it only as the host's forwards."""
    extra = ("--delay", delay, "--progress-every", "1")
    host, code = start_host(tmp_path, "greedy" if game == "rider" else "random", seats=seats, game=game,
                            extra=extra)
    invite = parse_invite(code)
    relay = CuttableRelay(invite.addresses[0])
    peers: list[PeerProcess] = [host]
    try:
        host_only = (*extra, "--no-listen")
        for seat in range(1, seats - 1):
            peers.append(start_joiner(tmp_path, seat, code, "random", game=game, extra=host_only))
        via_relay = Invite(invite.table, invite.fingerprint, (("127.0.0.1", relay.port),)).encode()
        joiner = start_joiner(tmp_path, seats - 1, via_relay, "random", game=game, extra=host_only)
        peers.append(joiner)
        wait_until(lambda: step_reached(joiner, cut_at), 40, f"the game to reach step {cut_at}")
        relay.cut()
        wait_until(lambda: "is reconnecting" in joiner.log.read_text(), 10, "the joiner to notice the cut")
        assert all(p.proc.poll() is None for p in peers), "a peer stopped while the link was down"
        relay.restore()
        results = finish(peers, deadline=_deadline())
        assert relay.cuts == 1
    finally:
        relay.close()
        kill_all(peers)
    _assert_same_end(results)
    if seats == 3:
        assert results[1]["direct"] == [0] and results[2]["direct"] == [0]  # host-only: no joiner-joiner link
    log = joiner.log.read_text()
    assert log.index("is reconnecting") < log.rindex("is connected")
    assert verify(load_raw(tmp_path / "seat0.ft")).ok


def test_joiners_listen_and_link_to_each_other_directly(tmp_path: Path) -> None:
    """By default a joiner of a loopback host listens on 127.0.0.1 (any free
    port) and says so in its handshake; the host's ``links`` frames tell the
    other joiner, which dials it: every pair of the three seats ends with a
    direct link, none only through the host."""
    run = run_table(["random"] * 3, game="tiny", seed=3, workdir=tmp_path, timeout=LIMIT,
                    common=[])
    _assert_same_end(run.results)
    direct = {r["seat"]: r["direct"] for r in run.results}
    assert direct == {0: [1, 2], 1: [0, 2], 2: [0, 1]}, direct
    joiners = [(tmp_path / f"seat{s}.log").read_text() for s in (1, 2)]
    assert all("accepting direct links on 127.0.0.1:" in log for log in joiners)


def test_bad_and_mismatched_invites_say_what_to_do(tmp_path: Path) -> None:
    bad = run_checked(["-m", "tools.peer", "join", "FT1-NOT-A-CODE", "--journal", str(tmp_path / "j")])
    assert bad.returncode == 2 and "bad invite code" in bad.stderr and "copy" in bad.stderr
    host, code = start_host(tmp_path, "greedy", max_time=30)
    try:
        invite = parse_invite(code)
        stranger = Identity.from_seed(bytes(32)).fingerprint
        forged = Invite(invite.table, stranger, invite.addresses).encode()
        wrong = run_checked(["-m", "tools.peer", "join", forged, "--journal", str(tmp_path / "w"), "--json",
                             "--connect-timeout", "20"], timeout=40)
        result = json.loads(wrong.stdout.strip().splitlines()[-1])
        assert wrong.returncode == 1 and "does not match the invite code" in result["error"]
        assert "fresh invite code" in result["error"]
        assert host.proc.poll() is None  # the host keeps waiting for the right player
    finally:
        kill_all([host])


def _deadline() -> float:
    import time

    return time.monotonic() + LIMIT


def test_a_peer_that_never_comes_back_loses_by_forfeit_after_its_deadline(tmp_path: Path) -> None:
    """The deadline names the staller; the host claims the game as its forfeit."""
    host, code = start_host(tmp_path, "greedy", extra=("--delay", "0.01", "--timeout", "1.5", "--claim-forfeits"))
    peers = [host]
    try:
        joiner = start_joiner(tmp_path, 1, code, "random", extra=("--delay", "0.01"))
        peers.append(joiner)
        wait_until(lambda: step_reached(joiner, 10), 40, "the game to reach step 10")
        os.kill(joiner.proc.pid, signal.SIGKILL)
        [result] = finish([host], deadline=_deadline())
    finally:
        kill_all(peers)
    assert host.proc.returncode == 0, host.log_tail()
    assert result["finished"] and result["forfeited"] == 1 and result["winner"] == 0, result
    assert "forfeit" in result["reason"] and result["audit"].startswith("not audited")
    log = host.log.read_text()
    assert "did not" in log and "(seat 2)" in log and "claiming the game as a forfeit by seat 2" in log
    verdict = verify(load_raw(tmp_path / "seat0.ft"))
    assert verdict.ok, str(verdict)

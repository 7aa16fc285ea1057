"""A table of friends who arrive late, with real processes over TCP on 127.0.0.1 (issue 29).

A 6-seat Tiny table: the host seats one bot of its own (``--add-bot``, run in
the host's process with its own key); four friends join at 0, 15, 35 and 55
seconds with a join timeout of 10 s (the in-memory tests,
tests/net/peer/test_peer_lobby_wait.py, use the real 30 s and 0/40/90/150 s:
the same waits, here scaled to the timeout so the suite stays short); the
second friend's process is killed at 20 s and started again at 40 s with
its key. No friend names the game (the invite code carries it), nobody gives
up, the game starts when the table is full, and every seat ends audited.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.e2e.e2e_procs import LOOPBACK, kill_all
from tools.match_tcp import PeerProcess, finish, read_invite, seat_args, spawn

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TIMEOUT = "10"


def _join(workdir: Path, seat: int, code: str, tag: int) -> PeerProcess:
    args = seat_args(seat, "random", 1, workdir, 240, ("--connect-timeout", TIMEOUT))
    return spawn(seat * 10 + tag, ["join", code, *args], workdir)  # no --game: the code names Tiny


def _until(moment: float, start: float, peers: list[PeerProcess]) -> None:
    while time.monotonic() < start + moment:
        for peer in peers:
            assert peer.proc.poll() is None, f"a peer gave up while waiting:\n{peer.log_tail()}"
        time.sleep(0.2)


def test_friends_minutes_apart_a_crash_and_comeback_and_a_host_bot_all_play_to_an_audited_end(tmp_path: Path) -> None:
    host = spawn(0, ["host", "--game", "tiny", "--seats", "6", "--listen", LOOPBACK, "--add-bot", "random",
                     *seat_args(0, "random", 1, tmp_path, 240, ())], tmp_path)
    peers = [host]
    try:
        code = read_invite(host, timeout=30)
        start = time.monotonic()
        first = _join(tmp_path, 1, code, 0)
        peers.append(first)
        _until(15, start, peers)
        second = _join(tmp_path, 2, code, 0)
        peers.append(second)
        _until(20, start, peers)
        second.proc.kill()  # its window crashes before the start: its seat is freed after the grace
        second.proc.wait()
        peers.remove(second)
        _until(35, start, peers)
        third = _join(tmp_path, 3, code, 0)
        peers.append(third)
        _until(40, start, peers)
        back = _join(tmp_path, 2, code, 1)  # the same key (seat2.pem) comes back
        peers.append(back)
        _until(55, start, peers)
        last = _join(tmp_path, 4, code, 0)
        peers.append(last)
        results = finish(peers, deadline=time.monotonic() + 180)  # each peer's JSON result (tools.match_tcp)
    finally:
        kill_all(peers)
    for result in results:
        assert result["error"] is None and result["finished"] and result["audit"] == "ok", result
    assert len({r["final_hash"] for r in results}) == 1  # every seat ends in the same state
    host_log = host.log.read_text(encoding="utf-8")
    assert "seat 3 is free again" in host_log or "is free again" in host_log, host_log[-3000:]
    assert "random bot takes an empty seat" in host_log


@pytest.mark.online
def test_an_online_table_waits_for_the_last_friend_through_the_real_mailbox_and_relay(tmp_path: Path) -> None:
    """The same through wormhole codes (the real mailbox server and transit relay on 127.0.0.1): a
    4-seat table with a host bot; the second friend comes 25 s after the first, whose join timeout
    is 10 s; neither names the game (the host's offer does); all end audited."""
    from tools.match_tcp import online_args, read_codes
    from tools.wormhole_servers import ServerProcess

    servers = ServerProcess()
    peers: list[PeerProcess] = []
    try:
        wormhole = online_args(servers.mailbox, servers.relay)
        host = spawn(0, ["host", "--game", "tiny", "--seats", "4", "--listen", LOOPBACK, "--online", *wormhole,
                         "--add-bot", "random", *seat_args(0, "random", 1, tmp_path, 240, ())], tmp_path)
        peers.append(host)
        read_invite(host, timeout=30)
        codes = read_codes(host, 2, timeout=60)
        start = time.monotonic()
        for seat, code, at in ((1, codes[0], 0.0), (2, codes[1], 25.0)):
            _until(at, start, peers)
            peers.append(spawn(seat, ["join", code, *wormhole,  # no --game: the host's offer names Tiny
                                      *seat_args(seat, "random", 1, tmp_path, 240, ("--connect-timeout", TIMEOUT))],
                               tmp_path))
        results = finish(peers, deadline=time.monotonic() + 180)  # each peer's JSON result (tools.match_tcp)
    finally:
        kill_all(peers)
        servers.stop()
    for result in results:
        assert result["error"] is None and result["finished"] and result["audit"] == "ok", result
    assert len({r["final_hash"] for r in results}) == 1

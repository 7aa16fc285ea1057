"""Real TCP on 127.0.0.1: three peers in one reactor form a table through the
host, survive a dropped link, and (in three OS processes) exchange payloads.

Trial test cases (pytest runs them): each test returns a Deferred and the
reactor spins until it fires. All traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import dataclasses

import pytest

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from transport_helpers import GAME, TABLE, identity
from twisted.internet import defer, reactor
from twisted.trial import unittest

from net.transport.backoff import Backoff
from net.transport.invite import parse_invite
from net.transport.mesh import PeerStatus
from net.transport.twisted_glue import TwistedMesh

ROOT = Path(__file__).resolve().parents[3]
LOOPBACK = "127.0.0.1"


def fast_backoff() -> Backoff:
    return Backoff(initial=0.05, maximum=0.2, jitter=0.0)


class LoopbackBase(unittest.TestCase):
    """Helpers only (no tests): peers on the real reactor."""

    timeout = 20

    def make(self, n: int, listen: bool) -> tuple[TwistedMesh, list[bytes]]:
        inbox: list[bytes] = []
        peer = TwistedMesh(identity(n), table=TABLE, reactor=reactor, game=GAME,
                           name=f"p{n}", backoff=fast_backoff,
                           on_message=lambda origin, data: inbox.append(data))
        peer.mesh.restrict_to(identity(k).public_key for k in (1, 2, 3))  # the table's seats
        if listen:
            peer.listen_tcp(0, LOOPBACK)
        self.addCleanup(lambda: defer.gatherResults(peer.stop()))
        return peer, inbox

    def until(self, condition: Callable[[], bool], what: str) -> defer.Deferred[None]:
        """Poll the condition on the reactor (no sleeping thread)."""
        d: defer.Deferred[None] = defer.Deferred()
        deadline = reactor.seconds() + 10  # type: ignore[attr-defined]

        def check() -> None:
            if condition():
                d.callback(None)
            elif reactor.seconds() > deadline:  # type: ignore[attr-defined]
                d.errback(AssertionError(f"timed out waiting for {what}"))
            else:
                reactor.callLater(0.01, check)  # type: ignore[attr-defined]

        check()
        return d



class LoopbackTable(LoopbackBase):
    @defer.inlineCallbacks
    def test_three_peers_through_the_host_then_drop_and_reconnect(self) -> Any:
        host, host_inbox = self.make(1, listen=True)
        a, a_inbox = self.make(2, listen=False)
        b, b_inbox = self.make(3, listen=False)
        ad = host.table_ad("Test table", "rider", 2)
        assert ad.invite() == dataclasses.replace(host.invite(), game="rider") and ad.addresses == (LOOPBACK,)
        code = host.invite().encode()
        assert parse_invite(code).addresses[0][0] == LOOPBACK
        for joiner in (a, b):
            joiner.join(parse_invite(code))
        key_a, key_b = identity(2).public_key, identity(3).public_key
        yield self.until(lambda: key_b in a.mesh.peers
                         and a.mesh.status(key_b) is PeerStatus.RELAYED, "a to see b")
        a.mesh.broadcast(b"one")
        yield self.until(lambda: b_inbox == [b"one"] and host_inbox == [b"one"], "relay to b")

        # cut a's only link from the host side; a redials after its backoff
        channel = host.mesh.peers[key_a].channel
        assert channel is not None
        channel.close()
        yield self.until(lambda: host.mesh.status(key_a) is PeerStatus.RECONNECTING,
                         "host to notice")
        b.mesh.broadcast(b"two")
        yield self.until(lambda: a_inbox == [b"two"], "a to reconnect and catch up")
        assert host.mesh.status(key_a) is PeerStatus.CONNECTED
        a.mesh.broadcast(b"three")
        yield self.until(lambda: b_inbox == [b"one", b"three"], "b to hear a again")

    @defer.inlineCallbacks
    def test_listening_joiners_link_directly(self) -> Any:
        host, _ = self.make(1, listen=True)
        a, _ = self.make(2, listen=True)
        b, b_inbox = self.make(3, listen=True)
        for joiner in (a, b):
            joiner.mesh.join(host.mesh.listen, identity(1).fingerprint)
        key_b = identity(3).public_key
        yield self.until(lambda: key_b in a.mesh.peers
                         and a.mesh.status(key_b) is PeerStatus.CONNECTED, "direct a-b link")
        a.mesh.broadcast(b"direct")
        yield self.until(lambda: b_inbox == [b"direct"], "delivery")
        assert host.mesh.stats["forwarded"] == 0


def run_peer(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("mesh_process.py")), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
    )


@pytest.mark.slow
def test_three_processes_form_a_table_through_the_host() -> None:
    """Separate OS processes; joiners do not listen, so the host forwards."""
    host = run_peer("host", "--peers", "3", "--seed", "1")
    try:
        assert host.stdout is not None
        line = host.stdout.readline()
        assert line.startswith("INVITE "), line + (host.stderr.read() if host.stderr else "")
        code = line.split()[1]
        joiners = [run_peer("join", code, "--peers", "3", "--seed", str(n)) for n in (2, 3)]
        results = [json.loads(p.communicate(timeout=30)[0]) for p in joiners]
        out, err = host.communicate(timeout=30)
        results.append(json.loads(out))
    finally:
        for proc in [host, *locals().get("joiners", [])]:
            if proc.poll() is None:
                proc.kill()
    names = {r["me"] for r in results}
    assert len(names) == 3
    for r in results:
        assert sorted(r["received"]) == sorted(f"hello from {n}" for n in names - {r["me"]})
    assert results[2]["forwarded"] >= 2  # the host carried the joiners' payloads


class LoopbackIPv6(LoopbackBase):
    @defer.inlineCallbacks
    def test_join_over_ipv6_loopback(self) -> Any:
        import socket

        try:
            with socket.socket(socket.AF_INET6) as probe:
                probe.bind(("::1", 0))
        except OSError:
            raise unittest.SkipTest("no IPv6 loopback here") from None
        host, host_inbox = self.make(1, listen=False)
        host.listen_tcp(0, "::1")
        joiner, _ = self.make(2, listen=False)
        invite = parse_invite(host.invite().encode())
        assert invite.addresses[0][0] == "::1"
        joiner.join(invite)
        key = identity(1).public_key
        yield self.until(lambda: key in joiner.mesh.peers
                         and joiner.mesh.status(key) is PeerStatus.CONNECTED, "IPv6 link")
        joiner.mesh.broadcast(b"v6")
        yield self.until(lambda: host_inbox == [b"v6"], "delivery over IPv6")

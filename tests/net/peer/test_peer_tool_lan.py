"""``tools.peer host --lan`` and ``tools.peer list``: the wiring to LAN
discovery, with the discovery object faked at its boundary (advertise,
browse, close), because real mDNS leaves the loopback range. The real
zeroconf round trip between two processes is opt-in (FAIRTABLE_MDNS_TESTS=1)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from twisted.internet import defer
from twisted.internet.task import Clock

from net.identity import Identity
from net.games import game_named
from net.peer import Peer
from net.transport.discovery import TableAd, service_name
from net.transport.invite import parse_invite
from tools import peer as peer_tool

ROOT = Path(__file__).resolve().parents[3]

class FakeDiscovery:
    """Stands in for net.transport.discovery.LanDiscovery: records what is
    advertised, hands the browse callbacks to the test, counts closes."""

    def __init__(self) -> None:
        self.ads: list[TableAd] = []
        self.callbacks: tuple[Callable[..., None], ...] = ()
        self.closed = 0

    def advertise(self, ad: TableAd) -> defer.Deferred[None]:
        self.ads.append(ad)
        return defer.succeed(None)

    def browse(self, on_found: Callable[[TableAd], None], on_lost: Callable[[str], None] | None = None,
               on_bad: Callable[[str, str], None] | None = None) -> None:
        assert on_lost is not None and on_bad is not None
        self.callbacks = (on_found, on_lost, on_bad)

    def close(self) -> defer.Deferred[None]:
        self.closed += 1
        return defer.succeed(None)


def ad(name: str, fp_seed: int, port: int = 4100) -> TableAd:
    key = Identity.from_seed(bytes([fp_seed]) * 32)
    return TableAd(name=name, game="rider", seats_free=1, fingerprint=key.fingerprint, table=bytes([fp_seed]) * 8,
                   port=port, addresses=("192.168.1.20",))


def test_list_reports_the_tables_still_there_when_browsing_ends_then_closes(capsys: pytest.CaptureFixture[str]) -> None:
    clock, lan = Clock(), FakeDiscovery()
    found: list[Any] = []
    peer_tool.browse_tables(clock, lan, 3.0).addCallback(found.extend)
    on_found, on_lost, on_bad = lan.callbacks
    alice, bob = ad("alice", 1), ad("bob", 2)
    on_found(bob)
    on_found(alice)
    on_found(ad("carol", 3))
    on_lost(service_name(ad("carol", 3)))  # withdrawn before the end: not listed
    on_bad("evil._fairtable._tcp.local.", "unsupported advertisement version '9'")
    clock.advance(2.9)
    assert found == [] and lan.closed == 0
    clock.advance(0.1)
    assert found == [alice, bob] and lan.closed == 1
    assert "ignored the advertisement" in capsys.readouterr().err
    lines = peer_tool.table_lines(found, as_json=False)
    assert lines[0].startswith("alice - rider, 1 seat(s) free, host key " + alice.fingerprint)
    code = lines[0].rsplit(" ", 1)[1]
    assert parse_invite(code) == alice.invite()
    record = json.loads(peer_tool.table_lines(found, as_json=True)[1])
    assert record["name"] == "bob" and parse_invite(record["invite"]) == bob.invite()


def test_list_says_what_to_do_when_the_network_cannot_be_searched() -> None:
    def no_multicast(reactor: Any, loopback_only: bool) -> Any:
        raise OSError("multicast is not available")

    args = peer_tool.build_parser().parse_args(["list", "--seconds", "1"])
    with pytest.raises(peer_tool.Problem, match="cannot search this network .*invite code"):
        peer_tool.run(args, discovery=no_multicast)
    assert peer_tool.main(["list", "--seconds", "0"]) == 2  # refused before any socket is opened


def test_host_lan_listens_on_every_interface_unless_told() -> None:
    args = peer_tool.build_parser().parse_args(["host", "--lan"])
    assert args.lan and args.listen is None
    assert peer_tool.build_parser().parse_args(["host"]).lan is False


def test_a_hosted_table_is_advertised_until_its_game_starts() -> None:
    from twisted.internet import reactor

    spec = game_named("tiny")
    host = Peer(Identity.generate(), spec, reactor=reactor, agent=game_named("tiny").bot("random", random.Random(1)), name="alice",
                linger=0.2)
    invite = host.host(2, interface="127.0.0.1")
    lan, said = FakeDiscovery(), []
    advert = peer_tool.LanAdvert(host, lan, "alice", said.append)
    joiner = None
    try:
        [shown] = lan.ads
        assert (shown.name, shown.game, shown.seats_free) == ("alice", "tiny", 1)
        assert shown.invite() == invite  # the same table, key and address as the invite code
        assert lan.closed == 0 and "advertising the table on the LAN" in said[0]
        joiner = Peer(Identity.generate(), spec, reactor=reactor, agent=game_named("tiny").bot("random", random.Random(2)),
                      linger=0.2)
        joiner.join(invite)
        deadline = time.monotonic() + 30  # a safety net against a hang, not a speed target
        while lan.closed == 0:
            assert time.monotonic() < deadline, "the advertisement was never withdrawn"
            reactor.iterate(0.002)
        assert host.genesis is not None and "no longer advertised" in said[-1]
        advert.close()
        assert lan.closed == 1  # withdrawn once
    finally:
        if joiner is not None:
            joiner.leave("test over")
        host.leave("test over")


@pytest.mark.skipif(os.environ.get("FAIRTABLE_MDNS_TESTS") != "1",
                    reason="real mDNS leaves the loopback range: set FAIRTABLE_MDNS_TESTS=1 to run it")
def test_host_lan_then_list_finds_it_over_real_zeroconf(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    host = subprocess.Popen([sys.executable, "-m", "tools.peer", "host", "--lan", "--lan-loopback", "--name", "alice",
                             "--identity", str(tmp_path / "id.pem"), "--max-time", "30"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None
        code = host.stdout.readline().strip()
        found = subprocess.run([sys.executable, "-m", "tools.peer", "list", "--lan-loopback", "--seconds", "5",
                                "--json"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False)
        tables = [json.loads(line) for line in found.stdout.splitlines()]
        assert any(t["name"] == "alice" and parse_invite(t["invite"]).table == parse_invite(code).table
                   for t in tables), found.stderr
    finally:
        host.kill()
        host.wait()

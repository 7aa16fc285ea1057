"""Mesh routing, dedup, liveness and reconnection, on an in-memory network with
a task clock (no sockets, no sleeps)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from transport_helpers import GAME, MemoryNet, Node, identity

from net.transport import mesh as mesh_module
from net.transport.errors import KeyMismatch
from net.transport.handshake import HOST_KEY_MISMATCH
from net.transport.mesh import PeerStatus
from net.transport.messages import MAX_HOPS, MAX_PEERS, Reject, Relay


def table(listen_joiners: bool) -> tuple[MemoryNet, Node, Node, Node]:
    net = MemoryNet()
    host = net.add(1)
    a = net.add(2, listen=listen_joiners)
    b = net.add(3, listen=listen_joiners)
    for node in (host, a, b):  # the seats of the game (the driver does this once they are fixed)
        node.mesh.restrict_to(identity(n).public_key for n in (1, 2, 3))
    for joiner in (a, b):
        joiner.mesh.join((host.address,), identity(1).fingerprint)
        net.settle()
    return net, host, a, b


def statuses(node: Node) -> dict[int, PeerStatus]:
    """Status of each peer, by identity number."""
    number = {identity(n).public_key: n for n in range(1, 10)}
    return {number[v.key]: v.status for v in node.mesh.view()}


def test_star_table_forwards_through_the_host() -> None:
    """Only the host accepts connections: joiners still reach each other."""
    net, host, a, b = table(listen_joiners=False)
    assert statuses(a) == {1: PeerStatus.CONNECTED, 3: PeerStatus.RELAYED}
    assert statuses(host) == {2: PeerStatus.CONNECTED, 3: PeerStatus.CONNECTED}
    a.mesh.broadcast(b"from a")
    net.settle()
    assert b.inbox == [(identity(2).public_key, b"from a")]
    assert host.inbox == [(identity(2).public_key, b"from a")]
    assert a.inbox == []  # never delivered back to its origin
    assert host.mesh.stats["forwarded"] == 1


def test_full_mesh_links_directly_and_nobody_forwards() -> None:
    net, host, a, b = table(listen_joiners=True)
    assert all(v.direct for v in a.mesh.view()) and len(a.mesh.view()) == 2
    assert statuses(b) == {1: PeerStatus.CONNECTED, 2: PeerStatus.CONNECTED}
    b.mesh.broadcast(b"from b")
    net.settle()
    assert a.inbox == [(identity(3).public_key, b"from b")]
    assert host.inbox == [(identity(3).public_key, b"from b")]
    assert host.mesh.stats["forwarded"] == 0 and a.mesh.stats["forwarded"] == 0
    # exactly one direct link between a and b: the smaller key dialed
    assert len(net.pumps) == 3


def test_duplicates_are_delivered_once() -> None:
    net, host, a, b = table(listen_joiners=False)
    a.mesh.broadcast(b"same")
    a.mesh._seen.clear()  # let the origin send the very same payload again
    a.mesh.broadcast(b"same")
    net.settle()
    assert host.inbox == [(identity(2).public_key, b"same")]
    assert b.inbox == [(identity(2).public_key, b"same")]
    assert host.mesh.stats["duplicates"] == 1


def test_message_for_another_game_is_not_delivered() -> None:
    net, host, a, _ = table(listen_joiners=False)
    problems: list[object] = []
    host.mesh.on_problem = problems.append
    channel = a.mesh.peers[identity(1).public_key].channel
    assert channel is not None
    channel.send(Relay(b"\x09" * 32, identity(2).public_key, b"elsewhere"))
    a.mesh.broadcast(b"here")
    net.settle()
    assert host.inbox == [(identity(2).public_key, b"here")]  # the link kept running
    assert len(problems) == 1 and host.mesh.stats["rejected"] == 1


def test_joining_a_host_with_the_wrong_key_fails_clearly_and_stops() -> None:
    net = MemoryNet()
    host = net.add(1)
    joiner = net.add(2, listen=False)
    joiner.mesh.join((host.address,), identity(7).fingerprint)  # invite of another host
    net.advance(10)
    assert isinstance(joiner.mesh.join_error, KeyMismatch)
    assert "you may be connecting to a different table" in str(joiner.mesh.join_error)
    assert HOST_KEY_MISMATCH[:40] in str(joiner.mesh.join_error)
    assert len(net.dials) == 1  # redialling cannot help, so it does not
    assert joiner.mesh.peers == {}


def test_backoff_schedule_while_the_host_is_unreachable() -> None:
    net = MemoryNet()
    host = net.add(1)
    net.blocked.add(host.address)
    joiner = net.add(2, listen=False)
    joiner.mesh.join((host.address,), identity(1).fingerprint)
    net.settle()
    net.advance(100, step=0.5)
    times = [t for t, _ in net.dials]
    gaps = [round(b - a, 3) for a, b in itertools.pairwise(times)]
    assert gaps[:8] == [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    # the host comes back: the next attempt succeeds and the schedule resets
    net.blocked.clear()
    net.advance(31, step=0.5)
    assert joiner.mesh.status(identity(1).public_key) is PeerStatus.CONNECTED
    assert joiner.mesh.peers[identity(1).public_key].backoff.attempts == 0


def test_link_drop_then_reconnect_delivers_what_was_sent_meanwhile() -> None:
    net, host, a, b = table(listen_joiners=False)
    changes: list[tuple[bytes, PeerStatus]] = []
    b.mesh.on_status = lambda key, status: changes.append((key, status))
    net.cut(a, host)
    assert a.mesh.status(identity(1).public_key) is PeerStatus.RECONNECTING
    assert (identity(2).public_key, PeerStatus.RECONNECTING) in changes
    b.mesh.broadcast(b"while a was away")
    net.settle()
    assert a.inbox == []  # a is unreachable for now; the host queued it
    net.advance(0.5)  # first redial after 0.5 s
    assert a.mesh.status(identity(1).public_key) is PeerStatus.CONNECTED
    assert a.inbox == [(identity(3).public_key, b"while a was away")]
    assert b.mesh.status(identity(2).public_key) is PeerStatus.RELAYED
    assert changes[-1] == (identity(2).public_key, PeerStatus.RELAYED)
    a.mesh.broadcast(b"back")
    net.settle()
    assert b.inbox == [(identity(2).public_key, b"back")]


def test_direct_link_drop_falls_back_to_forwarding() -> None:
    net, host, a, b = table(listen_joiners=True)
    net.blocked.update({a.address, b.address})  # their direct link cannot return
    net.cut(a, b)
    assert a.mesh.status(identity(3).public_key) is PeerStatus.RELAYED
    a.mesh.broadcast(b"via host")
    net.settle()
    assert b.inbox == [(identity(2).public_key, b"via host")]
    assert host.mesh.stats["forwarded"] == 1


def test_ping_measures_round_trip_time() -> None:
    net, _host, a, _ = table(listen_joiners=False)
    net.clock.advance(a.mesh.ping_interval)  # pings are written, not yet delivered
    net.clock.advance(0.05)
    net.settle()  # pings and pongs move now, 50 ms after sending
    rtt = {v.name: v.rtt_ms for v in a.mesh.view()}["p1"]
    assert rtt == pytest.approx(50.0)


def test_silent_link_is_stalling_then_dropped_and_redialled() -> None:
    net, host, a, _ = table(listen_joiners=False)
    net.freeze(a, host)
    net.advance(a.mesh.stall_after + a.mesh.ping_interval)
    assert a.mesh.status(identity(1).public_key) is PeerStatus.STALLING
    assert host.mesh.status(identity(2).public_key) is PeerStatus.STALLING
    dials = len(net.dials)
    net.advance(a.mesh.dead_after)
    # a dropped the dead link and redialled; the new link is up again
    assert len(net.dials) > dials
    assert a.mesh.status(identity(1).public_key) is PeerStatus.CONNECTED


def test_goodbye_means_left_and_no_redial() -> None:
    net, host, a, _b = table(listen_joiners=False)
    a.mesh.close("done playing")
    net.settle()
    assert host.mesh.status(identity(2).public_key) is PeerStatus.LEFT
    dials = len(net.dials)
    net.advance(5)
    assert len(net.dials) == dials


def test_directed_message_reaches_only_its_addressee_through_the_host() -> None:
    net, host, a, b = table(listen_joiners=False)
    a.mesh.send_to(identity(3).public_key, b"catch-up for b")
    a.mesh.send_to(identity(1).public_key, b"for the host")
    net.settle()
    assert b.inbox == [(identity(2).public_key, b"catch-up for b")]
    assert host.inbox == [(identity(2).public_key, b"for the host")]  # relayed, not read


def test_directed_message_over_a_direct_link_is_not_forwarded() -> None:
    net, host, a, b = table(listen_joiners=True)
    b.mesh.send_to(identity(2).public_key, b"direct")
    net.settle()
    assert a.inbox == [(identity(3).public_key, b"direct")]
    assert host.inbox == [] and host.mesh.stats["forwarded"] == 0


@settings(max_examples=15)
@given(st.lists(st.booleans(), min_size=2, max_size=5), st.data())
def test_every_payload_reaches_every_peer_exactly_once(listens: list[bool],
                                                       data: st.DataObject) -> None:
    """Any mix of listening, non-listening and unreachable joiners, any senders."""
    net = MemoryNet()
    host = net.add(1)
    joiners = [net.add(n + 2, listen=flag) for n, flag in enumerate(listens)]
    # some joiners advertise an address nobody can reach (behind NAT)
    for joiner in joiners:
        if data.draw(st.booleans()):
            net.blocked.add(joiner.address)
    for joiner in joiners:
        joiner.mesh.join((host.address,), identity(1).fingerprint)
        net.settle()
    nodes = [host, *joiners]
    senders = data.draw(st.lists(st.integers(0, len(nodes) - 1), min_size=1, max_size=4))
    sent = []
    for i, who in enumerate(senders):
        payload = f"payload {i}".encode()
        nodes[who].mesh.broadcast(payload)
        sent.append((nodes[who].mesh.identity.public_key, payload))
    net.settle()
    for node in nodes:
        expected = sorted(p for p in sent if p[0] != node.mesh.identity.public_key)
        assert sorted(node.inbox) == expected


def test_restricted_table_refuses_strangers_and_ignores_their_addresses() -> None:
    net = MemoryNet()
    host = net.add(1)
    a = net.add(2, listen=False)
    host.mesh.restrict_to([identity(2).public_key])
    a.mesh.join((host.address,), identity(1).fingerprint)
    net.settle()
    stranger = net.add(5, listen=False)
    stranger.mesh.join((host.address,), identity(1).fingerprint)
    net.settle()
    assert identity(5).public_key not in host.mesh.peers
    assert stranger.mesh.join_error is not None
    assert "not one of the players" in str(stranger.mesh.join_error)
    host.mesh.add_peer(identity(6).public_key, (("127.0.0.1", 20006),))
    assert identity(6).public_key not in host.mesh.peers  # never dialled either


def test_timer_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="ping_interval"):
        MemoryNet().add(1, ping_interval=60.0)


def test_a_failing_application_hook_does_not_break_the_link() -> None:
    net, host, a, _ = table(listen_joiners=False)

    def broken(origin: bytes, data: bytes) -> None:
        raise RuntimeError("session bug")

    host.mesh.on_message = broken
    a.mesh.broadcast(b"first")
    net.settle()
    assert host.mesh.stats["callback_errors"] == 1
    host.mesh.on_message = lambda origin, data: host.inbox.append((origin, data))
    a.mesh.broadcast(b"second")
    net.settle()
    assert host.inbox == [(identity(2).public_key, b"second")]
    assert host.mesh.status(identity(2).public_key) is PeerStatus.CONNECTED


def test_a_known_peer_with_the_wrong_key_is_redialled_with_backoff() -> None:
    net = MemoryNet()
    host = net.add(1)
    impostor = net.add(3)
    expected = identity(9).public_key
    assert identity(1).public_key < expected  # so the host is the side that dials
    host.mesh.add_peer(expected, (impostor.address,))
    net.settle()
    net.advance(4)
    attempts = [t for t, address in net.dials if address == impostor.address]
    assert [round(b - a, 2) for a, b in itertools.pairwise(attempts)][:3] == [
        0.5, 1.0, 2.0]
    assert host.mesh.status(expected) is PeerStatus.RECONNECTING
    assert identity(3).public_key not in host.mesh.peers



# --- audit additions: hop limits, dedup memory, peer cap, duplicate links ----


def _inject(net: MemoryNet, src: Node, dst: Node, relay: Relay) -> None:
    channel = src.mesh.peers[dst.mesh.identity.public_key].channel
    assert channel is not None
    channel.send(relay)
    net.settle()


def test_broadcast_at_the_hop_limit_is_delivered_but_not_forwarded() -> None:
    net, host, a, b = table(listen_joiners=False)
    origin = identity(2).public_key
    _inject(net, a, host, Relay(GAME, origin, b"last hop", MAX_HOPS))
    assert host.inbox == [(origin, b"last hop")] and b.inbox == []
    # not sent on at all (b would refuse a frame over the limit, hiding a send)
    assert host.mesh.stats["forwarded"] == 0 and b.mesh.stats["rejected"] == 0
    _inject(net, a, host, Relay(GAME, origin, b"one hop left", MAX_HOPS - 1))
    assert b.inbox == [(origin, b"one hop left")]


def test_directed_message_at_the_hop_limit_is_dropped() -> None:
    net, host, a, b = table(listen_joiners=False)
    to_b = identity(3).public_key
    _inject(net, a, host, Relay(GAME, identity(2).public_key, b"too far", MAX_HOPS, to=to_b))
    assert b.inbox == [] and host.inbox == []
    assert host.mesh.stats["forwarded"] == 0 and b.mesh.stats["rejected"] == 0
    _inject(net, a, host, Relay(GAME, identity(2).public_key, b"ok", MAX_HOPS - 1, to=to_b))
    assert b.inbox == [(identity(2).public_key, b"ok")] and host.inbox == []


def test_dedup_memory_is_bounded_and_forgets_the_oldest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mesh_module, "SEEN_LIMIT", 2)
    net, host, a, _ = table(listen_joiners=False)
    for payload in (b"p1", b"p2", b"p3"):
        a.mesh.broadcast(payload)
    net.settle()
    assert len(host.mesh._seen) == 2
    a.mesh._seen.clear()
    a.mesh.broadcast(b"p3")  # still remembered: dropped
    a.mesh.broadcast(b"p1")  # forgotten: delivered again
    net.settle()
    assert [d for _, d in host.inbox] == [b"p1", b"p2", b"p3", b"p1"]


def test_at_most_max_peers_are_remembered() -> None:
    node = MemoryNet().add(1)
    for n in range(MAX_PEERS + 5):
        node.mesh.add_peer(bytes([n, 200]) + b"\x00" * 30)
    assert len(node.mesh.peers) == MAX_PEERS


def test_a_learned_address_cannot_be_redirected_by_later_gossip() -> None:
    node = MemoryNet().add(1, listen=False)
    key = identity(9).public_key
    node.mesh.add_peer(key, (("127.0.0.1", 20009),))
    node.mesh.add_peer(key, (("127.0.0.1", 6666),))  # e.g. a hostile links frame
    assert node.mesh.peers[key].listen == (("127.0.0.1", 20009),)


def test_in_a_full_mesh_exactly_one_side_dials_each_pair() -> None:
    net, _host, a, b = table(listen_joiners=True)
    between = [addr for _, addr in net.dials if addr in (a.address, b.address)]
    smaller = min((a, b), key=lambda n: n.mesh.identity.public_key)
    larger = b if smaller is a else a
    assert between == [larger.address]  # dialed once, by the smaller key


@pytest.mark.parametrize("q_dials_first", [False, True])
def test_simultaneous_dials_keep_the_same_link_on_both_sides(q_dials_first: bool) -> None:
    """Both peers dial each other at once: each side independently keeps the
    link dialed by the smaller key, so they agree and one link survives,
    whichever connection happens to come up first."""
    net = MemoryNet()
    p, q = net.add(1, listen=False), net.add(2, listen=False)
    kp, kq = identity(1).public_key, identity(2).public_key
    if q_dials_first:
        q.mesh.add_peer(kp, (p.address,))
        p.mesh.add_peer(kq, (q.address,))
    else:
        p.mesh.add_peer(kq, (q.address,))
        q.mesh.add_peer(kp, (p.address,))
    assert len(net.pending) == 2
    net.settle()
    keep_p = p.mesh.peers[kq].channel
    keep_q = q.mesh.peers[kp].channel
    assert keep_p is not None and keep_q is not None
    dialer_is_p = keep_p.link.handshake.role == "dialer"
    assert dialer_is_p == (keep_q.link.handshake.role == "listener")  # the same connection
    assert dialer_is_p == (kp < kq)
    assert len(net.pumps) == 1
    p.mesh.broadcast(b"once")
    net.settle()
    assert q.inbox == [(kp, b"once")]


def test_a_second_link_dialed_by_the_same_side_replaces_the_first() -> None:
    """A redial while the old link still looks alive (half-open): the newer
    link wins on both sides and the older one is closed."""
    net, host, a, _ = table(listen_joiners=False)
    old_pumps = list(net.pumps)
    record = a.mesh.peers[identity(1).public_key]
    assert record.dial is not None
    a.mesh.connect(host.address, record.dial)  # type: ignore[misc]
    net.settle()
    new = [pump for pump in net.pumps if pump not in old_pumps]
    assert len(new) == 1
    assert record.channel is new[0].clientIO.protocol  # type: ignore[attr-defined]
    assert host.mesh.peers[identity(2).public_key].channel is new[0].serverIO.protocol  # type: ignore[attr-defined]
    a.mesh.broadcast(b"after")
    net.settle()
    assert host.inbox == [(identity(2).public_key, b"after")]


def test_a_reject_is_not_a_goodbye_so_the_peer_comes_back() -> None:
    net, host, a, _ = table(listen_joiners=False)
    _inject(net, a, host, Reject("restart", "restarting"))
    assert host.mesh.status(identity(2).public_key) is not PeerStatus.LEFT
    net.advance(1)
    assert host.mesh.status(identity(2).public_key) is PeerStatus.CONNECTED

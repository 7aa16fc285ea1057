"""Guests of a mesh (issue 32: a table's watchers, net/peer/watching.py): keys that are not
members once ``restrict_to`` named them. A host admits at most ``guest_limit`` of them; a
guest's payloads reach the host alone, as from the guest's own link, and are never forwarded;
broadcasts skip guests; a guest's ``links`` frames route nothing; a guest that left is forgotten."""

from __future__ import annotations

from transport_helpers import MemoryNet, Node, identity

from net.transport.mesh import PeerStatus
from net.transport.messages import Links, PeerInfo, Relay


def _table(limit: int = 1) -> tuple[MemoryNet, Node, Node]:
    net = MemoryNet()
    host, seat = net.add(1), net.add(2, listen=False)
    seat.mesh.join((host.address,), identity(1).fingerprint)
    net.settle()
    for node in (host, seat):
        node.mesh.restrict_to({identity(1).public_key, identity(2).public_key})
    host.mesh.guest_limit = limit
    return net, host, seat


def _guest(net: MemoryNet, n: int, host: Node) -> Node:
    guest = net.add(n, listen=False)
    guest.mesh.join((host.address,), identity(1).fingerprint)
    net.settle()
    return guest


def test_a_guest_is_heard_by_the_host_alone_and_hears_only_what_is_sent_to_it() -> None:
    net, host, seat = _table()
    guest = _guest(net, 9, host)
    key = identity(9).public_key
    assert host.mesh.is_guest(key) and not host.mesh.is_guest(identity(2).public_key)
    assert host.mesh.status(key) is PeerStatus.CONNECTED
    # its broadcast, claiming to come from the seat and to have travelled already
    channel = guest.mesh.peers[identity(1).public_key].channel
    assert channel is not None
    channel.send(Relay(guest.mesh.game, identity(2).public_key, b"forged", 3))
    channel.send(Relay(guest.mesh.game, key, b"toward the seat", 0, to=identity(2).public_key))
    guest.mesh.broadcast(b"hello")
    net.settle()
    assert host.inbox == [(key, b"forged"), (key, b"hello")]  # as from the guest's own link, whatever it says
    assert seat.inbox == [] and host.mesh.stats["guest_dropped"] == 1
    # the host's broadcast skips the guest; a payload sent to it arrives
    host.mesh.broadcast(b"to the seats")
    host.mesh.send_to(key, b"for the watcher")
    net.settle()
    assert seat.inbox == [(identity(1).public_key, b"to the seats")]
    assert guest.inbox == [(identity(1).public_key, b"for the watcher")]
    # the guest's word on who it reaches routes nothing and relays no status
    channel.send(Links((PeerInfo(identity(2).public_key, (("127.0.0.1", 1),)),)))
    net.settle()
    assert host.mesh.peers[key].neighbours == frozenset()


def test_the_host_admits_no_more_guests_than_its_limit_and_forgets_one_that_left() -> None:
    net, host, _seat = _table(limit=1)
    _guest(net, 9, host)
    second = _guest(net, 8, host)
    assert identity(8).public_key not in host.mesh.peers
    assert second.mesh.join_error is not None and "no room for more watchers" in str(second.mesh.join_error)
    net.add(7)  # a node that is not linked: the first guest leaves, and its record goes with it
    first_channel = host.mesh.peers[identity(9).public_key].channel
    assert first_channel is not None
    first_channel.close()
    net.settle()
    assert identity(9).public_key not in host.mesh.peers
    third = _guest(net, 6, host)  # its place is free again
    assert host.mesh.is_guest(identity(6).public_key) and third.mesh.join_error is None


def test_closing_the_mesh_while_a_guest_link_drops_at_once_is_clean() -> None:
    """A transport that reports the lost link while the mesh closes its links (the wormhole
    glue does) must not change the peers the mesh is walking through."""
    net, host, _seat = _table()
    _guest(net, 9, host)
    record = host.mesh.peers[identity(9).public_key]
    channel = record.channel
    assert channel is not None
    real_close = channel.close

    def close_and_report(abort: bool = True) -> None:
        real_close(abort)
        host.mesh.channel_lost(channel)  # at once, inside close()

    channel.close = close_and_report  # type: ignore[method-assign]
    host.mesh.close()  # raised "dictionary changed size during iteration" before
    assert host.mesh.closed

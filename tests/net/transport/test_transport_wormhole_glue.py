"""Two Fairtable links inside fake Dilation subchannels (in memory, task.Clock):
the handshake carries the pairing's binding, and closing a subchannel whose
peer never acknowledges (a dead peer) still tells the mesh at once."""

from __future__ import annotations

from typing import Any

from transport_helpers import GAME, TABLE, identity
from twisted.internet import task

from net.transport.mesh import DialTarget, Mesh, PeerStatus
from net.transport.wormhole_glue import SubchannelProtocol


class FakePairing:
    def __init__(self, binding: bytes) -> None:
        self.binding = binding
        self.label = "test"
        self.linked_keys: list[bytes] = []

    def linked(self, key: bytes) -> None:
        self.linked_keys.append(key)


class FakeSubchannel:
    """Like Dilation's SubChannel: no abortConnection, and loseConnection only
    sends a CLOSE (connectionLost would come when the peer acknowledges it)."""

    def __init__(self) -> None:
        self.peer: SubchannelProtocol | None = None
        self.closes = 0
        self.dead = False
        self.queue: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self.dead:
            self.queue.append(data)

    def flush(self) -> bool:
        sent, self.queue = self.queue, []
        for data in sent:
            assert self.peer is not None
            self.peer.dataReceived(data)
        return bool(sent)

    def loseConnection(self) -> None:
        self.closes += 1

    def getPeer(self) -> Any:
        return object()


def pair(binding_a: bytes, binding_b: bytes) -> tuple[Mesh, Mesh, SubchannelProtocol, SubchannelProtocol,
                                                      FakePairing, FakeSubchannel]:
    clock = task.Clock()
    host = Mesh(identity(1), table=TABLE, clock=clock, game=GAME)
    joiner = Mesh(identity(2), table=TABLE, clock=clock, game=GAME)
    pa, pb = FakePairing(binding_a), FakePairing(binding_b)
    target = DialTarget((("127.0.0.1", 9),), fingerprint=identity(1).fingerprint)
    joiner.host_target = target
    dialer = SubchannelProtocol(joiner, "dialer", pa, target)  # type: ignore[arg-type]
    listener = SubchannelProtocol(host, "listener", pb)  # type: ignore[arg-type]
    ta, tb = FakeSubchannel(), FakeSubchannel()
    ta.peer, tb.peer = listener, dialer
    dialer.transport, listener.transport = ta, tb  # type: ignore[assignment]
    listener.connectionMade()
    dialer.connectionMade()
    while ta.flush() | tb.flush():
        pass
    return host, joiner, dialer, listener, pa, ta


def test_link_inside_a_subchannel_comes_up_with_a_shared_binding() -> None:
    host, joiner, dialer, listener, pairing, _ = pair(b"B" * 32, b"B" * 32)
    assert dialer.link.established and listener.link.established
    assert host.status(identity(2).public_key) is PeerStatus.CONNECTED
    assert pairing.linked_keys == [identity(1).public_key]


def test_a_different_binding_is_refused() -> None:
    host, joiner, dialer, listener, pairing, _ = pair(b"B" * 32, b"C" * 32)
    assert not dialer.link.established and not listener.link.established
    assert identity(2).public_key not in host.peers or host.peers[identity(2).public_key].channel is None
    assert pairing.linked_keys == []


def test_closing_a_subchannel_to_a_dead_peer_reports_the_loss_at_once() -> None:
    host, joiner, dialer, listener, _, to_host = pair(b"B" * 32, b"B" * 32)
    record = joiner.peers[identity(1).public_key]
    assert record.channel is dialer
    to_host.dead = True  # the host died: nothing acknowledges our close
    dialer.close()
    assert to_host.closes == 1
    assert record.channel is None and dialer.link.closed
    dialer.connectionLost()  # a late notice from the library changes nothing
    assert record.channel is None

"""The Twisted adapter with StringTransport and task.Clock: bytes in and out,
handshake timeout, and the drop/keep decisions reaching the socket."""

from __future__ import annotations

import pytest
from transport_helpers import GAME, TABLE, identity
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure

from engine.core.encoding import encode
from net.transport.errors import InviteError
from net.transport.framing import encode_frame
from net.transport.handshake import Handshake
from net.transport.link import Link
from net.transport.mesh import Mesh
from net.transport.messages import Ping, Relay, parse_message
from net.transport.twisted_glue import (
    DialFactory,
    ListenFactory,
    PeerProtocol,
    TwistedMesh,
)


def listener() -> tuple[Mesh, PeerProtocol, StringTransport, Clock]:
    clock = Clock()
    mesh = Mesh(identity(1), table=TABLE, clock=clock, game=GAME)
    proto = ListenFactory(mesh).buildProtocol(None)
    transport = StringTransport()
    proto.makeConnection(transport)
    return mesh, proto, transport, clock


def test_listener_sends_hello_on_connect() -> None:
    _, _, transport, _ = listener()
    data = transport.value()
    assert parse_message(data[4:]).T == "hello"  # type: ignore[union-attr]


def test_handshake_timeout_closes_a_silent_connection() -> None:
    mesh, _, transport, clock = listener()
    clock.advance(mesh.handshake_timeout - 0.1)
    assert not transport.disconnecting
    clock.advance(0.2)
    assert transport.disconnecting


def authenticated() -> tuple[Mesh, PeerProtocol, StringTransport, Link]:
    mesh, proto, transport, _ = listener()
    peer = Link(Handshake(identity(2), "dialer", table=TABLE, game=GAME), "test")
    proto.dataReceived(peer.start())
    step = peer.data_received(transport.value())
    transport.clear()
    proto.dataReceived(step.write)
    assert proto.link.established and peer.established
    transport.clear()
    return mesh, proto, transport, peer


def test_malformed_frame_keeps_the_connection_and_later_frames_arrive() -> None:
    mesh, proto, transport, peer = authenticated()
    got: list[bytes] = []
    mesh.on_message = lambda origin, data: got.append(data)
    proto.dataReceived(encode_frame(b"\xffnot canonical") + encode_frame(encode({"t": "?"}))
                       + peer.encode(Relay(GAME, identity(2).public_key, b"still here")))
    assert not transport.disconnecting
    assert got == [b"still here"]
    assert mesh.stats["rejected"] == 2


def test_oversized_frame_closes_the_socket_with_a_reject() -> None:
    mesh, proto, transport, peer = authenticated()
    got: list[bytes] = []
    mesh.on_message = lambda origin, data: got.append(data)
    proto.dataReceived(peer.encode(Relay(GAME, identity(2).public_key, b"kept"))
                       + (2**31).to_bytes(4, "big"))
    assert got == [b"kept"]
    assert transport.disconnecting
    reply = transport.value()
    assert parse_message(reply[4:]).code == "frame-too-large"  # type: ignore[union-attr]


def test_dial_failure_is_reported_for_backoff() -> None:
    clock = Clock()
    mesh = Mesh(identity(1), table=TABLE, clock=clock, game=GAME,
                connect=lambda address, target: None)
    mesh.join((("127.0.0.1", 9),), identity(2).fingerprint)
    assert mesh.host_target is not None
    mesh.dial_failed(mesh.host_target)
    assert mesh.host_retry is not None and mesh.host_retry.active()
    assert 0.45 <= mesh.host_retry.getTime() <= 0.55  # type: ignore[attr-defined]  # +-10% jitter


def test_table_nonces_are_fresh() -> None:
    # (local_addresses() is not exercised here: resolving the host name could
    # query DNS, and tests must not send traffic off 127.0.0.1)
    from net.transport.twisted_glue import new_table_nonce

    assert len(new_table_nonce()) == 8 and new_table_nonce() != new_table_nonce()


# --- audit additions -------------------------------------------------------------


def test_connection_lost_cancels_the_handshake_timer() -> None:
    _mesh, proto, _transport, clock = listener()
    timers = len(clock.getDelayedCalls())
    proto.connectionLost()
    assert len(clock.getDelayedCalls()) == timers - 1  # only the mesh tick is left
    assert proto.link.closed


def test_nothing_is_written_after_the_channel_closed() -> None:
    _mesh, proto, transport, _peer = authenticated()
    proto.send(Ping(1))
    assert parse_message(transport.value()[4:]) == Ping(1)
    transport.clear()
    proto.close(abort=False)
    proto.send(Ping(2))
    assert transport.value() == b"" and transport.disconnecting


def test_failed_dial_is_reported_to_the_mesh() -> None:
    clock = Clock()
    mesh = Mesh(identity(1), table=TABLE, clock=clock, game=GAME, connect=lambda a, t: None)
    mesh.join((("127.0.0.1", 9),), identity(2).fingerprint)
    assert mesh.host_target is not None and mesh.host_retry is None
    DialFactory(mesh, mesh.host_target).clientConnectionFailed(None, Failure(ConnectionRefusedError()))
    assert mesh.host_retry is not None and mesh.host_retry.active()


def test_small_frames_are_not_delayed_by_nagle() -> None:
    class NoDelayTransport(StringTransport):
        nodelay: bool | None = None

        def setTcpNoDelay(self, enabled: bool) -> None:
            self.nodelay = enabled

    clock = Clock()
    mesh = Mesh(identity(1), table=TABLE, clock=clock, game=GAME)
    transport = NoDelayTransport()
    ListenFactory(mesh).buildProtocol(None).makeConnection(transport)
    assert transport.nodelay is True


def test_a_peer_that_does_not_listen_cannot_make_an_invite() -> None:
    peer = TwistedMesh(identity(1), table=TABLE, reactor=Clock())
    with pytest.raises(InviteError, match="call listen_tcp first"):
        peer.invite()
    peer.mesh.close()


def test_stop_cuts_a_connection_still_in_its_handshake_and_cancels_its_timeout() -> None:
    """Leaving the table closes every socket of ours, not only the linked peers': a
    handshake in progress would otherwise hold its socket and timeout after we left."""
    clock = Clock()
    net = TwistedMesh(identity(1), table=TABLE, reactor=clock, game=GAME)
    proto = ListenFactory(net.mesh, net.connections).buildProtocol(None)
    transport = StringTransport()
    proto.makeConnection(transport)
    assert net.connections == [proto] and not proto.link.established
    net.stop()
    assert transport.disconnecting
    proto.connectionLost(Failure(Exception("aborted")))
    assert net.connections == [] and clock.getDelayedCalls() == []


def test_a_connection_completed_after_stop_is_cut_at_once() -> None:
    clock = Clock()
    net = TwistedMesh(identity(1), table=TABLE, reactor=clock, game=GAME)
    net.stop()
    proto = ListenFactory(net.mesh, net.connections).buildProtocol(None)
    transport = StringTransport()
    proto.makeConnection(transport)
    assert transport.disconnecting and transport.value() == b""  # not even our hello
    assert clock.getDelayedCalls() == []

"""Thin Twisted adapters: TCP connections in, :class:`Link`/:class:`Mesh` logic out.

Everything that decides anything lives in the sans-I/O objects; this module
only moves bytes between sockets and them, arms the handshake timeout, and
turns reactor callbacks (connected, failed, lost) into mesh calls.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from typing import Any

from twisted.internet import protocol
from twisted.python.failure import Failure

from net.transport.discovery import TableAd
from net.transport.errors import InviteError
from net.transport.handshake import Role
from net.transport.invite import MAX_ADDRESSES, Invite
from net.transport.keys import Signer
from net.transport.link import Link
from net.transport.mesh import DelayedCall, DialTarget, Mesh
from net.transport.messages import TABLE_SIZE, Address, Message

WILDCARDS = ("", "0.0.0.0", "::")


def new_table_nonce() -> bytes:
    """A fresh random table nonce for a new table."""
    return secrets.token_bytes(TABLE_SIZE)


def local_addresses() -> tuple[str, ...]:
    """This machine's non-loopback IP addresses, for invites; 127.0.0.1 when
    there are none.

    First the address of the default route (a UDP socket "connected" to a
    documentation address: connect() on UDP only picks a route, it sends no
    packet), then whatever the host name resolves to.
    """
    candidates: list[str] = []
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                candidates.append(str(udp.getsockname()[0]))
        except OSError:
            pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP)
    except OSError:
        infos = []
    candidates += [str(info[4][0]) for info in infos]
    found: list[str] = []
    for candidate in candidates:
        host = candidate.split("%")[0]
        ip = ipaddress.ip_address(host)
        if not (ip.is_loopback or ip.is_link_local) and host not in found:
            found.append(host)
    return tuple(found[:MAX_ADDRESSES]) or ("127.0.0.1",)


class PeerProtocol(protocol.Protocol):
    """One TCP connection; a :class:`net.transport.mesh.Channel` for the mesh."""

    def __init__(self, mesh: Mesh, role: Role, target: DialTarget | None = None,
                 connections: list[PeerProtocol] | None = None) -> None:
        self.mesh = mesh
        self.role: Role = role
        self.target = target
        self.link: Link
        self._timeout: DelayedCall | None = None
        #: the open connections of our TwistedMesh (this one is in it while it is open)
        self._connections = connections

    @property
    def _tr(self) -> Any:
        # zope interfaces do not type-check without a plugin; the transport is
        # an ITCPTransport (or iosim's FakeTransport in tests)
        return self.transport

    def connectionMade(self) -> None:
        peer = self._tr.getPeer()
        address = f"{getattr(peer, 'host', '?')}:{getattr(peer, 'port', '?')}"
        self.link = self.mesh.make_link(self.role, address, self.target)
        if self._connections is not None:
            self._connections.append(self)
        if self.mesh.closed:  # dialled or accepted just as we left the table: nobody is there to talk
            self.close()
            return
        set_nodelay = getattr(self._tr, "setTcpNoDelay", None)
        if set_nodelay is not None:
            set_nodelay(True)  # small frames: do not wait for Nagle
        self._tr.write(self.link.start())
        self._timeout = self.mesh.clock.callLater(self.mesh.handshake_timeout, self._expire)

    def _expire(self) -> None:
        if not self.link.established:
            self.close()

    def dataReceived(self, data: bytes) -> None:
        step = self.link.data_received(data)
        if step.write:
            self._tr.write(step.write)
        if step.events:
            self.mesh.handle(self, step.events)
        if step.close:
            self._tr.loseConnection()

    def connectionLost(self, reason: Failure = protocol.connectionDone) -> None:
        if self._timeout is not None and self._timeout.active():
            self._timeout.cancel()
        self.link.closed = True
        if self._connections is not None and self in self._connections:
            self._connections.remove(self)
        self.mesh.channel_lost(self)

    # Channel interface -------------------------------------------------

    def send(self, message: Message) -> None:
        if not self.link.closed:
            self._tr.write(self.link.encode(message))

    def close(self, abort: bool = True) -> None:
        self.link.closed = True
        if abort:
            self._tr.abortConnection()
        else:
            self._tr.loseConnection()


class ListenFactory(protocol.Factory):
    """Accepts inbound peers for a mesh."""

    def __init__(self, mesh: Mesh, connections: list[PeerProtocol] | None = None) -> None:
        self.mesh = mesh
        self.connections = connections

    def buildProtocol(self, addr: Any) -> PeerProtocol:
        return PeerProtocol(self.mesh, "listener", connections=self.connections)


class DialFactory(protocol.ClientFactory):
    """One outbound attempt; failure is reported to the mesh for backoff."""

    def __init__(self, mesh: Mesh, target: DialTarget, connections: list[PeerProtocol] | None = None) -> None:
        self.mesh = mesh
        self.target = target
        self.connections = connections

    def buildProtocol(self, addr: Any) -> PeerProtocol:
        return PeerProtocol(self.mesh, "dialer", self.target, self.connections)

    def clientConnectionFailed(self, connector: Any, reason: Failure) -> None:
        from twisted.internet.error import ConnectionRefusedError

        self.mesh.dial_failed(self.target, refused=isinstance(reason.value, ConnectionRefusedError))


class TwistedMesh:
    """A :class:`Mesh` wired to a Twisted reactor (TCP dialing and listening)."""

    def __init__(self, identity: Signer, *, table: bytes, reactor: Any, **kw: Any) -> None:
        self.reactor = reactor
        self.mesh = Mesh(identity, table=table, clock=reactor, connect=self._connect, **kw)
        self.ports: list[Any] = []  # IListeningPort
        #: every open connection, handshaking or linked, so stop() can close the ones the mesh
        #: does not know yet (a handshake in progress)
        self.connections: list[PeerProtocol] = []

    def listen_tcp(self, port: int = 0, interface: str = "127.0.0.1",
                   advertise: tuple[str, ...] | None = None) -> Address:
        """Accept peers on ``interface:port`` (0 = any free port).

        The addresses peers are told to dial are ``advertise`` with the bound
        port; by default the interface itself, or this machine's own addresses
        when binding to all interfaces. Returns the first advertised address.
        """
        tcp: Any = self.reactor  # an IReactorTCP
        listening = tcp.listenTCP(port, ListenFactory(self.mesh, self.connections), interface=interface)
        self.ports.append(listening)
        bound = int(listening.getHost().port)
        if advertise is None:
            advertise = local_addresses() if interface in WILDCARDS else (interface,)
        addresses = tuple((host, bound) for host in advertise)
        self.mesh.listen = (*self.mesh.listen, *addresses)[:MAX_ADDRESSES]
        return addresses[0]

    def invite(self) -> Invite:
        """The invite code of this table (we must be listening)."""
        if not self.mesh.listen:
            raise InviteError("this peer does not accept connections, so it cannot invite; "
                              "call listen_tcp first")
        return Invite(self.mesh.table, self.mesh.identity.fingerprint,
                      self.mesh.listen[:MAX_ADDRESSES])

    def table_ad(self, name: str, game: str, seats_free: int) -> TableAd:
        """This table's LAN advertisement (see net.transport.discovery)."""
        invite = self.invite()
        return TableAd(name=name, game=game, seats_free=seats_free,
                       fingerprint=invite.fingerprint, table=invite.table,
                       port=invite.addresses[0][1],
                       addresses=tuple(h for h, p in invite.addresses
                                       if p == invite.addresses[0][1]))

    def join(self, invite: Invite) -> None:
        """Dial the host of ``invite``; its key is checked in the handshake."""
        self.mesh.join(invite.addresses, invite.fingerprint)

    def _connect(self, address: Address, target: DialTarget) -> None:
        tcp: Any = self.reactor
        tcp.connectTCP(address[0], address[1], DialFactory(self.mesh, target, self.connections),
                       timeout=self.mesh.handshake_timeout)

    def stop(self) -> list[Any]:
        """Close the mesh and stop listening; returns Deferreds for the ports.

        Linked peers get the mesh's goodbye; a connection still in its handshake is cut."""
        self.mesh.close()
        for connection in list(self.connections):
            if not connection.link.established:
                connection.close()
        return [port.stopListening() for port in self.ports]



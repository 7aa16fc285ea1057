"""Shared fixtures for transport tests: deterministic identities and handshakes."""

from __future__ import annotations

from net.identity import Identity
from net.transport.handshake import Handshake, Role
from net.transport.link import Link
from net.transport.messages import GameRef

TABLE = b"T" * 8
GAME = bytes(range(32))


def identity(n: int) -> Identity:
    """A fixed identity per number, so failures are reproducible."""
    return Identity.from_seed(bytes([n]) * 32)


def handshake(ident: Identity, role: Role, game: GameRef = GAME, **kw: object) -> Handshake:
    return Handshake(ident, role, table=kw.pop("table", TABLE), game=game, **kw)  # type: ignore[arg-type]


def link_pair(a: Handshake, b: Handshake) -> tuple[Link, Link]:
    return Link(a, "127.0.0.1:1001"), Link(b, "127.0.0.1:1002")


def run_handshake(a: Link, b: Link) -> None:
    """Shuttle bytes between two links until neither has anything to say."""
    to_b, to_a = a.start(), b.start()
    for _ in range(10):
        if not to_a and not to_b:
            return
        sa = b.data_received(to_b) if to_b else None
        sb = a.data_received(to_a) if to_a else None
        to_a = sa.write if sa else b""
        to_b = sb.write if sb else b""


# --------------------------------------------------------------------------
# In-memory network of meshes: iosim pumps instead of sockets, one task clock.

import dataclasses

from twisted.internet.address import IPv4Address
from twisted.internet.testing import MemoryReactorClock
from twisted.test import iosim

from net.transport.backoff import Backoff
from net.transport.mesh import DialTarget, Mesh
from net.transport.messages import Address
from net.transport.twisted_glue import PeerProtocol


@dataclasses.dataclass
class Node:
    mesh: Mesh
    address: Address
    inbox: list[tuple[bytes, bytes]]


class MemoryNet:
    """Peers on a pretend network; ``blocked`` addresses refuse connections."""

    def __init__(self) -> None:
        self.clock = MemoryReactorClock()
        self.nodes: dict[Address, Node] = {}
        self.pending: list[tuple[Mesh, Address, DialTarget]] = []
        self.pumps: list[iosim.IOPump] = []
        self.blocked: set[Address] = set()
        self.dials: list[tuple[float, Address]] = []
        self.frozen: list[iosim.IOPump] = []

    def add(self, n: int, *, listen: bool = True, **kw: object) -> Node:
        address = ("127.0.0.1", 20000 + n)
        inbox: list[tuple[bytes, bytes]] = []
        mesh = Mesh(
            identity(n), table=TABLE, clock=self.clock, game=GAME,
            listen=(address,) if listen else (), name=f"p{n}",
            on_message=lambda origin, data: inbox.append((origin, data)),
            backoff=lambda: Backoff(jitter=0.0), **kw,  # type: ignore[arg-type]
        )
        mesh.connect = lambda addr, target: self._dial(mesh, addr, target)
        node = Node(mesh, address, inbox)
        self.nodes[address] = node
        return node

    def _dial(self, mesh: Mesh, address: Address, target: DialTarget) -> None:
        self.dials.append((self.clock.seconds(), address))
        self.pending.append((mesh, address, target))

    def _open(self, src: Mesh, address: Address, target: DialTarget) -> None:
        dst = self.nodes.get(address)
        if dst is None or address in self.blocked:
            src.dial_failed(target)
            return
        src_addr = next(a for a, n in self.nodes.items() if n.mesh is src)
        client = PeerProtocol(src, "dialer", target)
        server = PeerProtocol(dst.mesh, "listener")
        c_io = iosim.FakeTransport(client, False, IPv4Address("TCP", *src_addr),
                                   IPv4Address("TCP", *address))
        s_io = iosim.FakeTransport(server, True, IPv4Address("TCP", *address),
                                   IPv4Address("TCP", *src_addr))
        self.pumps.append(iosim.connect(server, s_io, client, c_io, greet=False,
                                        clock=self.clock))  # type: ignore[arg-type]

    def settle(self) -> None:
        """Open pending connections and move bytes until nothing moves."""
        for _ in range(10_000):
            moved = False
            while self.pending:
                self._open(*self.pending.pop(0))
                moved = True
            for pump in list(self.pumps):
                if pump.pump(advanceClock=False):
                    moved = True
                if pump.serverIO.disconnected and pump.clientIO.disconnected:
                    self.pumps.remove(pump)
            for pump in list(self.frozen):  # silent links still notice an abort
                if pump.clientIO.disconnecting or pump.serverIO.disconnecting:
                    self.frozen.remove(pump)
                    for io in (pump.clientIO, pump.serverIO):
                        io.disconnected = True
                        io.reportDisconnect()
                    moved = True
            if not moved:
                return
        raise AssertionError("the network never settled")

    def advance(self, seconds: float, step: float = 0.25) -> None:
        """Let time pass in small steps, settling the network after each."""
        remaining = seconds
        while remaining > 1e-9:
            dt = min(step, remaining)
            self.clock.advance(dt)
            remaining -= dt
            self.settle()

    def cut(self, a: Node, b: Node) -> None:
        """Drop the live connection between two nodes (both ends notice)."""
        for pump in self.pumps:
            ends = {pump.clientIO.protocol.mesh, pump.serverIO.protocol.mesh}  # type: ignore[attr-defined]
            if ends == {a.mesh, b.mesh} and not pump.clientIO.disconnecting:
                pump.clientIO.loseConnection()
        self.settle()

    def freeze(self, a: Node, b: Node) -> list[iosim.IOPump]:
        """Stop moving bytes between two nodes without closing (a silent link)."""
        frozen = []
        for pump in list(self.pumps):
            ends = {pump.clientIO.protocol.mesh, pump.serverIO.protocol.mesh}  # type: ignore[attr-defined]
            if ends == {a.mesh, b.mesh}:
                self.pumps.remove(pump)
                frozen.append(pump)
        self.frozen += frozen
        return frozen

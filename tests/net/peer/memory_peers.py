"""Whole :class:`~net.peer.Peer` objects on the in-memory network of the
transport tests (iosim pumps instead of sockets, one ``MemoryReactorClock``):
lobby and game protocol tests with real meshes, links and handshakes, no
sockets and no wall-clock waits."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from net.identity import Identity
from net.games import game_named
from net.peer import Peer
from net.games import GameEntry
from net.peer.progress import Progress
from net.transport.mesh import Mesh
from net.transport.messages import Address
from tests.net.transport.transport_helpers import MemoryNet, Node


class MemoryPeers:
    """A table of peers on one in-memory network; :meth:`peer` makes one."""

    def __init__(self) -> None:
        self.net = MemoryNet()
        self.clock = self.net.clock
        self.said: dict[str, list[Progress]] = {}
        self._ports = 0
        self.spec: GameEntry = game_named("tiny")

    def factory(self, identity: Identity, *, table: bytes, reactor: Any, **kw: Any) -> _MemoryMesh:
        return _MemoryMesh(self, identity, table, kw)

    def address(self) -> Address:
        self._ports += 1
        return ("127.0.0.1", 21000 + self._ports)

    def peer(self, name: str, seed: int, *, identity: Identity | None = None, **kw: Any) -> Peer:
        said = self.said.setdefault(name, [])
        return Peer(identity or Identity.generate(), self.spec, reactor=self.clock, name=name, linger=0.2,
                    agent=game_named("tiny").bot("random", random.Random(seed)), on_progress=said.append,
                    net_factory=self.factory, **kw)

    def run(self, condition: Callable[[], bool], seconds: float = 120.0) -> None:
        """Let virtual time pass until ``condition`` (fails after ``seconds`` of it)."""
        waited = 0.0
        self.net.settle()
        while not condition():
            assert waited < seconds, "the table never got there"
            self.net.advance(0.25, step=0.25)
            waited += 0.25

    def rejected(self, name: str) -> list[str]:
        return [e.text for e in self.said.get(name, []) if e.id == "rejected"]


class _MemoryMesh:
    """What :class:`Peer` needs of ``TwistedMesh``, on the memory network."""

    def __init__(self, peers: MemoryPeers, identity: Identity, table: bytes, kw: dict[str, Any]) -> None:
        net = peers.net
        self.peers = peers
        self.mesh = Mesh(identity, table=table, clock=net.clock, **kw)
        self.mesh.connect = lambda address, target: net._dial(self.mesh, address, target)
        source = ("127.0.0.2", 21000 + len(net.nodes))  # where its own dials come from
        net.nodes[source] = Node(self.mesh, source, [])
        self.ports: list[Any] = []

    def listen_tcp(self, port: int = 0, interface: str = "127.0.0.1",
                   advertise: tuple[str, ...] | None = None) -> Address:
        address = self.peers.address()
        self.peers.net.nodes[address] = Node(self.mesh, address, [])
        self.mesh.listen = (*self.mesh.listen, address)
        return address

    def stop(self) -> list[Any]:
        self.mesh.close()
        return []

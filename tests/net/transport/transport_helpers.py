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

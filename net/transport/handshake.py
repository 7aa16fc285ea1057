"""The connection handshake as a plain state machine (no sockets, no clock).

Both sides send :class:`Hello` as soon as the connection opens: protocol
versions, identity key, table nonce, game id (or ``"lobby"``), a fresh 32-byte
nonce, where they listen, a display name. On the peer's hello each side checks
version, table, game and the expected key, then sends :class:`Auth`: an
Ed25519 signature over the *transcript* (both hellos, in dialer/listener
order, plus the signer's role). On a valid peer signature the link is up.

The transcript contains both fresh nonces, so a signature cannot be replayed
into another connection; it names the signer's role, so a peer cannot reflect
our own signature back at us; it contains both game fields and the table, so a
link for one table cannot be spliced into another.
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Callable
from typing import Literal

from engine.core.hashing import digest, short_hex
from net.transport.errors import (
    BadSignature,
    HandshakeError,
    KeyMismatch,
    VersionMismatch,
)
from net.transport.keys import Signer, key_matches, short_id, verify
from net.transport.messages import (
    LOBBY,
    NONCE_SIZE,
    Address,
    Auth,
    GameRef,
    Hello,
    Message,
    Reject,
)

#: Protocol versions this implementation speaks (newest last).
PROTOCOL_VERSIONS: tuple[int, ...] = (1,)
TRANSCRIPT_DOMAIN = "fairtable/handshake/v1"
Role = Literal["dialer", "listener"]

HOST_KEY_MISMATCH = (
    "the host's key does not match the invite code: you may be connecting to a different "
    "table. Ask the host for a fresh invite code and check the fingerprint with them"
)


class GameMismatch(HandshakeError):
    """The peer belongs to another table or another game."""

    code = "wrong-game"


class PeerRejected(HandshakeError):
    """The peer refused us and said why."""

    code = "rejected"


class State(enum.Enum):
    START = "start"
    SENT_HELLO = "sent-hello"
    SENT_AUTH = "sent-auth"  # we verified their hello and signed; awaiting their auth
    DONE = "done"
    FAILED = "failed"


def describe_game(game: GameRef) -> str:
    return LOBBY if isinstance(game, str) else f"game {short_hex(game)}"


def transcript(dialer: Hello, listener: Hello, signer: Role, binding: bytes | None = None) -> bytes:
    """The 32 bytes each side signs (see module docstring).

    ``binding`` is a secret both ends of the underlying channel share (for a
    wormhole, a key derived from its PAKE, :mod:`net.transport.wormhole`): it
    ties the signatures to this pairing, so a handshake cannot be relayed
    from one wormhole into another. Plain TCP links have none (the map then
    has no ``binding`` key, and the test vector of docs/protocol.md holds).
    """
    body: dict[str, object] = {"dialer": dialer.to_data(), "listener": listener.to_data(), "signer": signer}
    if binding is not None:
        body["binding"] = binding
    return digest(TRANSCRIPT_DOMAIN, body)


class Handshake:
    """One side of one connection's handshake.

    ``expect_fingerprint`` (from an invite) or ``expect_key`` (a known peer)
    pins who must answer; ``accept_key`` may refuse a key by returning a
    reason (for example, not a seat of this game). Methods return the messages
    to send; failures raise a :class:`HandshakeError` subclass, after which
    :meth:`reject_for` gives the frame to send before closing.
    """

    def __init__(
        self,
        identity: Signer,
        role: Role,
        *,
        table: bytes,
        game: GameRef,
        listen: tuple[Address, ...] = (),
        name: str = "",
        versions: tuple[int, ...] = PROTOCOL_VERSIONS,
        expect_fingerprint: str | None = None,
        expect_key: bytes | None = None,
        accept_key: Callable[[bytes], str | None] | None = None,
        nonce: bytes | None = None,
        binding: bytes | None = None,
    ) -> None:
        self.identity = identity
        self.binding = binding
        self.role: Role = role
        self.expect_fingerprint = expect_fingerprint
        self.expect_key = expect_key
        self.accept_key = accept_key
        self.hello = Hello(
            versions=versions, key=identity.public_key, table=table, game=game,
            nonce=nonce if nonce is not None else secrets.token_bytes(NONCE_SIZE),
            listen=listen, name=name,
        )
        self.peer: Hello | None = None
        self.version: int | None = None
        self.state = State.START

    @property
    def done(self) -> bool:
        return self.state is State.DONE

    def start(self) -> list[Message]:
        """The first frame to send when the connection opens."""
        if self.state is not State.START:
            raise HandshakeError("the handshake was already started")
        self.state = State.SENT_HELLO
        return [self.hello]

    def receive(self, message: Message) -> list[Message]:
        """Handle one message from the peer during the handshake."""
        try:
            return self._receive(message)
        except HandshakeError:
            self.state = State.FAILED
            raise

    def _receive(self, message: Message) -> list[Message]:
        if isinstance(message, Reject):
            raise PeerRejected(f"the peer refused the connection: {message.reason}")
        if self.state is State.SENT_HELLO and isinstance(message, Hello):
            self._check_hello(message)
            self.peer = message
            self.state = State.SENT_AUTH
            return [Auth(self.identity.sign(self._transcript(self.role)))]
        if self.state is State.SENT_AUTH and isinstance(message, Auth):
            other: Role = "listener" if self.role == "dialer" else "dialer"
            assert self.peer is not None
            if not verify(self.peer.key, message.sig, self._transcript(other)):
                raise BadSignature(
                    f"the peer's handshake signature does not verify under its key "
                    f"{short_id(self.peer.key)}: it does not hold that key, or the "
                    "connection was tampered with. The connection was closed"
                )
            self.state = State.DONE
            return []
        raise HandshakeError(
            f"unexpected {message.T!r} message during the handshake (state {self.state.value}); "
            "the peer does not follow the Fairtable protocol"
        )

    def _transcript(self, signer: Role) -> bytes:
        assert self.peer is not None
        if self.role == "dialer":
            return transcript(self.hello, self.peer, signer, self.binding)
        return transcript(self.peer, self.hello, signer, self.binding)

    def _check_hello(self, peer: Hello) -> None:
        common = set(self.hello.versions) & set(peer.versions)
        if not common:
            theirs = ", ".join(map(str, peer.versions))
            ours = ", ".join(map(str, self.hello.versions))
            advice = (
                "update this copy of Fairtable" if max(peer.versions) > max(self.hello.versions)
                else "the other player should update their Fairtable"
            )
            raise VersionMismatch(
                f"the peer speaks protocol version(s) {theirs}, this Fairtable speaks {ours}; "
                f"{advice} so both run the same release"
            )
        self.version = max(common)
        if peer.key == self.identity.public_key:
            raise HandshakeError("this connection leads back to ourselves (same key); "
                                 "check the address you connected to")
        if self.expect_fingerprint is not None and not key_matches(peer.key,
                                                                   self.expect_fingerprint):
            raise KeyMismatch(HOST_KEY_MISMATCH + f" (expected {self.expect_fingerprint}, "
                              f"the peer's key is {short_id(peer.key)})")
        if self.expect_key is not None and peer.key != self.expect_key:
            raise KeyMismatch(
                f"expected the player with key {short_id(self.expect_key)} at this address "
                f"but found {short_id(peer.key)}; they may have moved: wait for the table "
                "to announce their new address"
            )
        if peer.table != self.hello.table:
            raise GameMismatch(
                f"the peer is at another table (table {peer.table.hex()}, ours "
                f"{self.hello.table.hex()}); check the invite code"
            )
        if (isinstance(peer.game, bytes) and isinstance(self.hello.game, bytes)
                and peer.game != self.hello.game):
            raise GameMismatch(
                f"the peer plays {describe_game(peer.game)} but this table plays "
                f"{describe_game(self.hello.game)}; it may be a stale game: restart it from "
                "the lobby"
            )
        if self.accept_key is not None:
            refusal = self.accept_key(peer.key)
            if refusal is not None:
                raise HandshakeError(refusal)


def reject_for(error: HandshakeError | Exception, code: str | None = None) -> Reject:
    """The frame that tells the peer why we close (texts are for people)."""
    text = str(error)
    return Reject(code=code or str(getattr(error, "code", "error")), reason=text[:1000])

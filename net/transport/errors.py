"""Typed rejections of the transport layer.

Each error carries a short machine-readable ``code`` (logged and sent to the
peer in a ``reject`` frame) and a message a person can act on. ``fatal`` says
whether the connection must be dropped (the byte stream can no longer be
trusted or the peer is not who it should be) or may keep running (one bad
message was skipped).
"""

from __future__ import annotations

from net.errors import ProtocolError


class TransportError(ProtocolError):
    """Base of every rejection raised by net.transport on purpose.

    ``sender`` names the peer (address, and fingerprint once authenticated).
    """

    code = "transport"
    fatal = False

    def __init__(self, message: str, *, sender: str | None = None) -> None:
        super().__init__(message, sender=sender)
        self.message = message


class FrameTooLarge(TransportError):
    """A length prefix announced more than MAX_LENGTH bytes.

    Fatal: we will not buffer the frame, and skipping it would leave us
    reading its body as length prefixes.
    """

    code = "frame-too-large"
    fatal = True


class MalformedFrame(TransportError):
    """A frame's payload is not canonical data, or not a map with a ``t`` field
    of the right types. The frame boundary is intact, so the link survives."""

    code = "malformed"


class UnknownMessageType(TransportError):
    """The ``t`` field names a message type this version does not know."""

    code = "unknown-type"


class WrongGame(TransportError):
    """A message or hello is for another game or table."""

    code = "wrong-game"


class HandshakeError(TransportError):
    """The handshake failed; the connection is closed."""

    code = "handshake"
    fatal = True


class VersionMismatch(HandshakeError):
    """No protocol version in common."""

    code = "version"


class BadSignature(HandshakeError):
    """The peer's handshake signature does not verify under its key."""

    code = "bad-signature"


class KeyMismatch(HandshakeError):
    """The peer's key is not the one the invite code (or roster) pinned."""

    code = "key-mismatch"


class InviteError(ValueError):
    """An invite code cannot be parsed; the message says how to fix it."""

"""Key fingerprints and signature checks as the transport uses them.

Invite codes carry the host's fingerprint (net.identity: 80 bits of a
domain-separated SHA-256 of the public key) in its 10 raw bytes; a joiner
checks, during the handshake, that the peer it reached holds a key with that
fingerprint. Finding a second key with a given 80-bit fingerprint costs about
2^80 key generations, out of reach; the same string is what players see and
can read aloud, so the invite and the screen agree.
"""

from __future__ import annotations

import base64
import hmac
from typing import Protocol

from net.errors import ProtocolError
from net.identity import fingerprint_of, verify_signature

FINGERPRINT_SIZE = 10


class Signer(Protocol):
    """What the transport needs of the local identity (net.identity.Identity)."""

    public_key: bytes
    fingerprint: str

    def sign(self, data: bytes) -> bytes: ...


def fingerprint_to_bytes(fingerprint: str) -> bytes:
    """The 10 raw bytes behind a fingerprint string such as ``ABCD-EFGH-...``."""
    raw = base64.b32decode(fingerprint.replace("-", "").upper())
    if len(raw) != FINGERPRINT_SIZE:
        raise ValueError(f"a fingerprint holds {FINGERPRINT_SIZE} bytes")
    return raw


def fingerprint_from_bytes(raw: bytes) -> str:
    """Inverse of :func:`fingerprint_to_bytes`."""
    if len(raw) != FINGERPRINT_SIZE:
        raise ValueError(f"a fingerprint holds {FINGERPRINT_SIZE} bytes")
    text = base64.b32encode(raw).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))


def key_matches(public_key: bytes, fingerprint: str) -> bool:
    """Constant-time check that ``public_key`` has ``fingerprint``."""
    try:
        actual = fingerprint_of(public_key)
    except ProtocolError:
        return False
    return hmac.compare_digest(actual.encode("ascii"), fingerprint.upper().encode("ascii"))


def short_id(public_key: bytes) -> str:
    """Printable name of a key for logs and messages (its fingerprint)."""
    try:
        return fingerprint_of(public_key)
    except ProtocolError:
        return f"<invalid key {public_key[:6].hex()}...>"


def verify(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """True if ``signature`` is a valid Ed25519 signature of ``data`` by a valid key."""
    try:
        verify_signature(public_key, signature, data)
    except ProtocolError:
        return False
    return True

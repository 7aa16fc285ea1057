"""Domain-separated SHA-256 over canonical encodings.

Every hash in Fairtable names its purpose (the *domain*) so that a digest made
for one purpose can never be replayed as another. The state hash is the one
every peer compares after every step; it is pinned by literal test vectors.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.core.encoding import encode

#: Domain of the public-state hash. Bump the version if the layout changes.
STATE_DOMAIN = "fairtable/state/v1"


def digest(domain: str, value: Any) -> bytes:
    """SHA-256 of ``encode([domain, value])``: 32 bytes."""
    return hashlib.sha256(encode((domain, value))).digest()


def state_hash(public_state: Any) -> bytes:
    """Hash of a game's public state (what every seat may see)."""
    return digest(STATE_DOMAIN, public_state)


def short_hex(data: bytes, length: int = 12) -> str:
    """First ``length`` hex digits, for logs and people; never for checks."""
    return data.hex()[:length]

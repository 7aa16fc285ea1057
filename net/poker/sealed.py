"""Encrypting a decryption share to exactly one seat (showing a held card).

The holder of a privately drawn card shows it to one other seat by sending
its own decryption share (with its DLEQ proof) encrypted to that seat:
X25519 between a fresh ephemeral key and the recipient's per-game X25519 key,
HKDF-SHA256 to a one-time key, ChaCha20-Poly1305 with associated data that
binds the game, step, sender and recipient. The proof must travel inside the
ciphertext: a public proof would let anyone test every candidate card.

A tampered or misaddressed box fails to open and is blamed on the sender (its
signed envelope carried it). Should the sender dispute that, the recipient can
publish its per-game X25519 secret (checked against its announced public key)
and anyone can re-run :func:`open_share` to see who is right; that ends the
game, so it costs the recipient nothing further.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PrivateKey,
    X25519PublicKey,
)
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from engine.core.encoding import encode
from net.poker.errors import BadCardMessage, BadSealedShare

SEAL_DOMAIN = "fairtable/cards/sealed-share/v1"
_NONCE = bytes(12)  # every key is used once (fresh ephemeral), so a fixed nonce is safe


def public_bytes(key: X25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def is_usable_key(key: object) -> bool:
    """False for a wrong-sized or low-order X25519 public key (no shared secret)."""
    if not isinstance(key, bytes) or len(key) != 32:
        return False
    try:
        X25519PrivateKey.generate().exchange(X25519PublicKey.from_public_bytes(key))
    except ValueError:
        return False
    return True


def _key(shared: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(shared)


def _binding(game: bytes, step: int, sender: int, recipient: int, eph: bytes, to_key: bytes) -> bytes:
    return encode((SEAL_DOMAIN, game, step, sender, recipient, eph, to_key))


def seal_share(game: bytes, step: int, sender: int, recipient: int, recipient_key: bytes,
               payload: bytes) -> dict[str, bytes | int]:
    """Encrypt ``payload`` (canonical bytes) so only ``recipient`` can read it."""
    eph = X25519PrivateKey.generate()
    eph_pub = public_bytes(eph)
    shared = eph.exchange(X25519PublicKey.from_public_bytes(recipient_key))
    binding = _binding(game, step, sender, recipient, eph_pub, recipient_key)
    box = ChaCha20Poly1305(_key(shared, binding)).encrypt(_NONCE, payload, binding)
    return {"to": recipient, "eph": eph_pub, "box": box}


def open_share(game: bytes, step: int, sender: int, recipient: int, recipient_secret: X25519PrivateKey,
               message: object) -> bytes:
    """Decrypt a sealed share addressed to us; blame ``sender`` if it does not open."""
    if not isinstance(message, dict) or sorted(message) != ["box", "eph", "to"]:
        raise BadCardMessage("sealed share must have exactly the fields 'to', 'eph', 'box'", seat=sender)
    eph, box, to = message["eph"], message["box"], message["to"]
    if to != recipient:
        raise BadSealedShare(f"its sealed share is addressed to seat {to!r}, not seat {recipient}",
                             seat=sender)
    if not isinstance(eph, bytes) or len(eph) != 32 or not isinstance(box, bytes):
        raise BadCardMessage("sealed share fields have the wrong types or sizes", seat=sender)
    my_key = public_bytes(recipient_secret)
    try:
        shared = recipient_secret.exchange(X25519PublicKey.from_public_bytes(eph))
    except ValueError:  # all-zero shared secret: a small-order ephemeral key
        raise BadSealedShare("its sealed share uses an invalid ephemeral key", seat=sender) from None
    binding = _binding(game, step, sender, recipient, eph, my_key)
    try:
        return ChaCha20Poly1305(_key(shared, binding)).decrypt(_NONCE, box, binding)
    except InvalidTag:
        raise BadSealedShare(
            "its encrypted share does not decrypt (tampered, or made for another game, step "
            "or seat)", seat=sender) from None

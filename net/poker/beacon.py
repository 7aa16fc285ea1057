"""A public permutation of a shuffled deck, drawn from a joint beacon. Sans-I/O.

When only some seats shuffle a deck (net/session/subset_shuffle.py), a
coalition of *all* of them could choose the order it ends in. So once their
shuffles are in, every seat of the table sends its one-phase VRF part
(net.dice_vrf) over a context bound to the game, the step, the zone and the
digest of the deck as the last shuffler left it (:func:`beacon_context`).
The seed of those parts is fixed only after the deck is, and nobody can
predict an honest seat's part; :func:`permutation` expands it into a uniform
permutation that every peer applies to the ciphertexts locally
(:func:`apply`): nothing to prove, nothing secret. docs/security-cards.md
("Subset shuffles") has the argument.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from engine.core.hashing import digest
from net.dice_vrf import RollContext

#: The genesis ``shuffles`` value of games that shuffle this way (net.envelope.Genesis).
VERSION = "drawers-beacon/v1"
DECK_DOMAIN = "fairtable/shuffle-beacon/deck/v1"
PERMUTATION_DOMAIN = "fairtable/shuffle-beacon/permutation/v1"
#: The purpose text of a beacon's roll context; the zone and the deck digest follow it.
PURPOSE = "shuffle-beacon/v1"

T = TypeVar("T")


def deck_digest(deck: Sequence[tuple[bytes, bytes]]) -> bytes:
    """A domain-separated hash of a deck of ciphertexts, in order."""
    return digest(DECK_DOMAIN, tuple(tuple(c) for c in deck))


def beacon_context(game: bytes, step: int, zone: str, deck: Sequence[tuple[bytes, bytes]],
                   seats: Sequence[int]) -> RollContext:
    """The VRF context of the beacon that permutes ``deck`` of ``zone`` at ``step``.

    Binding the deck's digest means the beacon is about this very deck: a part
    cannot be made before the last shuffle is known, nor moved to another deck."""
    purpose = f"{PURPOSE} {zone} {deck_digest(deck).hex()}"
    return RollContext(game, step, purpose, (), tuple(sorted(seats)))


def permutation(seed: bytes, n: int) -> tuple[int, ...]:
    """A uniform permutation of ``range(n)`` from a 32-byte seed (Fisher-Yates with
    rejection sampling over a SHA-256 counter stream: no modulo bias)."""
    if not isinstance(seed, bytes) or len(seed) != 32:
        raise ValueError("a beacon seed is 32 bytes")
    if n < 0:
        raise ValueError("a permutation has a non-negative size")
    out = list(range(n))
    block, used, counter = b"", 0, 0

    def word() -> int:
        nonlocal block, used, counter
        if used + 4 > len(block):
            block = hashlib.sha256(PERMUTATION_DOMAIN.encode() + b"\0" + seed
                                   + counter.to_bytes(8, "big")).digest()
            used, counter = 0, counter + 1
        value = int.from_bytes(block[used:used + 4], "big")
        used += 4
        return value

    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            w = word()
            if w < limit:
                break
        j = w % bound
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def apply(perm: Sequence[int], deck: Sequence[T]) -> tuple[T, ...]:
    """The deck with position ``i`` taking the card that was at ``perm[i]``."""
    if sorted(perm) != list(range(len(deck))):
        raise ValueError("not a permutation of the deck's positions")
    return tuple(deck[p] for p in perm)

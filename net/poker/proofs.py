"""Sigma proofs made non-interactive by Fiat-Shamir, each bound to (game, step, seat).

- :func:`prove_key` / :func:`verify_key`: Schnorr proof of knowledge of the
  per-game secret ``x`` behind ``X = x*G``. Without it a seat could announce
  ``X' = Y - (sum of the others' keys)`` and decrypt every card alone.
- :func:`prove_share` / :func:`verify_share`: Chaum-Pedersen proof that a
  decryption share ``D = x*A`` uses the same ``x`` as the seat's key
  ``X = x*G`` (equal discrete logs). A wrong share, or a share for another
  card (another ``A``), fails.

Every challenge hashes a :class:`Context` (game id, step, seat) with the
whole statement, so a proof copied from another game, step, seat or card is
rejected. Proofs are sent in compact form (challenge, response); the
verifier recomputes the commitments and re-derives the challenge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from net.poker import group as g
from net.poker.errors import BadCardMessage, BadCardProof

KEY_DOMAIN = "fairtable/cards/key-proof/v1"
SHARE_DOMAIN = "fairtable/cards/share-proof/v1"


@dataclasses.dataclass(frozen=True, slots=True)
class Context:
    """Who proves what where: binds every proof to one game, step and seat."""

    game: bytes
    step: int
    seat: int

    def binding(self) -> tuple[bytes, int, int]:
        return (self.game, self.step, self.seat)


def _fields(message: object, names: tuple[str, ...], *, seat: int | None, what: str) -> Mapping[str, Any]:
    """Check a message is a map with exactly ``names``; blame ``seat`` if not."""
    if not isinstance(message, Mapping):
        raise BadCardMessage(f"{what} is not a map", seat=seat)
    keys = sorted(message.keys())
    if keys != sorted(names):
        raise BadCardMessage(f"{what} has fields {keys}, expected {sorted(names)}", seat=seat)
    return message


# --- Schnorr proof of knowledge of a per-game key -------------------------------

def key_challenge(ctx: Context, point: bytes, bound: bytes, t: bytes) -> int:
    """The key proof's Fiat-Shamir challenge: context, the key, ``bound`` and ``t``.

    Hashing the key itself matters: otherwise a prover could pick ``t``, ``e``
    and ``z`` first and solve for a key whose discrete log nobody knows.
    """
    return g.hash_to_scalar(KEY_DOMAIN, (ctx.binding(), point, bound, t))


def prove_key(ctx: Context, x: int, bound: bytes = b"") -> dict[str, bytes]:
    """Proof that the sender knows ``x`` for ``X = x*G``.

    ``bound`` is hashed into the challenge: the key announcement binds the
    seat's sealed-share (X25519) key this way, so it cannot be swapped alone.
    """
    point = g.base_mul(x)
    k = g.random_scalar()
    t = g.base_mul(k)
    e = key_challenge(ctx, point, bound, t)
    z = (k + e * x) % g.L
    return {"e": g.sb(e), "z": g.sb(z)}


def verify_key(ctx: Context, point: bytes, proof: object, bound: bytes = b"") -> None:
    """Raise :class:`BadCardProof` (blaming ``ctx.seat``) unless the proof holds.

    ``point`` must already be validated with :func:`group.decode_point`.
    """
    fields = _fields(proof, ("e", "z"), seat=ctx.seat, what="key proof")
    e = g.decode_scalar(fields["e"], seat=ctx.seat, what="key proof challenge")
    z = g.decode_scalar(fields["z"], seat=ctx.seat, what="key proof response")
    t = g.sub(g.base_mul(z), g.mul(e, point))
    if key_challenge(ctx, point, bound, t) != e:
        raise BadCardProof(
            "the proof of knowledge of its card key does not verify (a key it cannot "
            "prove it owns, or a proof made for another game or seat)",
            seat=ctx.seat, proof="key")


# --- Chaum-Pedersen proof for a decryption share --------------------------------

def share_challenge(ctx: Context, card: int, key: bytes, c1: bytes, share: bytes,
                    t1: bytes, t2: bytes) -> int:
    """The share proof's Fiat-Shamir challenge over the whole statement and both
    commitments; leaving any of them out lets a prover solve for it afterwards
    (a wrong share, or a share for a card or key of its choosing)."""
    return g.hash_to_scalar(SHARE_DOMAIN, (ctx.binding(), card, key, c1, share, t1, t2))


def make_share(ctx: Context, x: int, key: bytes, c1: bytes, card: int) -> dict[str, bytes]:
    """Decryption share ``x*c1`` for deck position ``card``, with its DLEQ proof."""
    share = g.mul(x, c1)
    k = g.random_scalar()
    t1 = g.base_mul(k)
    t2 = g.mul(k, c1)
    e = share_challenge(ctx, card, key, c1, share, t1, t2)
    z = (k + e * x) % g.L
    return {"share": share, "e": g.sb(e), "z": g.sb(z)}


def verify_share(ctx: Context, key: bytes, c1: bytes, card: int, message: object) -> bytes:
    """Check a share message for position ``card``; return the share point.

    Raises :class:`BadPoint`/:class:`BadScalar`/:class:`BadCardProof`, all
    naming ``ctx.seat``. ``key`` and ``c1`` are trusted (already validated).
    """
    fields = _fields(message, ("share", "e", "z"), seat=ctx.seat, what="decryption share")
    share = g.decode_point(fields["share"], seat=ctx.seat, what=f"decryption share for card {card}")
    e = g.decode_scalar(fields["e"], seat=ctx.seat, what="share proof challenge")
    z = g.decode_scalar(fields["z"], seat=ctx.seat, what="share proof response")
    t1 = g.sub(g.base_mul(z), g.mul(e, key))
    t2 = g.sub(g.mul(z, c1), g.mul(e, share))
    if share_challenge(ctx, card, key, c1, share, t1, t2) != e:
        raise BadCardProof(
            f"its decryption share for card {card} does not match its key (a wrong share, "
            "a share for another card, or a proof copied from another step or seat)",
            seat=ctx.seat, proof="share")
    return share

"""A proof that a privately held card is one of a public set of cards, revealing nothing more
(issue 31: Locke's claims proven at their step).

The statement. A card dealt to seat *h* is an ElGamal pair ``(c1, c2)`` under the sum of every
seat's key. The other seats' decryption shares ``x_j*c1`` are public (each with its DLEQ proof,
net/poker/proofs.py), so every peer computes ``C' = c2 - sum of the others' shares =
M + x_h*c1``: the card point ``M`` under the holder's key alone. A claim such as "my character's
ESP level is 3 or more" holds exactly when ``M`` is one of a set of card points every peer
computes from public data (the candidates; never taken from the prover). The holder proves

    for some candidate ``M_m``:  log_G X_h = log_c1 (C' - M_m)

with its secret ``x_h``, as an OR of Chaum-Pedersen proofs in the manner of Cramer, Damgård and
Schoenmakers (CRYPTO '94): for every candidate but the true one the prover simulates a
transcript from a chosen challenge and response; for the true one it commits honestly; the
challenges must sum to the Fiat-Shamir hash of the whole statement, so exactly one branch can be
answered without the secret.

What the hash binds (leaving any out lets a prover solve for it afterwards): the game, step and
seat (:class:`~net.poker.proofs.Context`), the claim's encoding, every candidate point in order,
the key, ``c1``, ``C'`` and every branch's two commitments. A proof made for another step, seat,
claim or candidate list fails.

What a verifier learns: that ``M`` is one of the candidates, nothing about which (every branch's
transcript is distributed alike; the simulated ones are exact simulations, and the real one is
a standard zero-knowledge Chaum-Pedersen proof). docs/security-cards.md, "Claims proven at their
step", has the argument.

Size and cost: two scalars per candidate (64 bytes); making or checking costs four scalar
multiplications per candidate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from net.poker import group as g
from net.poker.errors import BadCardMessage, BadCardProof
from net.poker.proofs import Context

CLAIM_DOMAIN = "fairtable/cards/claim-proof/v1"
#: The most candidates a claim proof may cover (Locke's largest measured set is 37).
MAX_CANDIDATES = 64


def _challenge(ctx: Context, claim: bytes, candidates: Sequence[bytes], key: bytes, c1: bytes, under_key: bytes,
               commitments: Sequence[tuple[bytes, bytes]]) -> int:
    return g.hash_to_scalar(CLAIM_DOMAIN, (ctx.binding(), claim, list(candidates), key, c1, under_key,
                                          [list(pair) for pair in commitments]))


def _check_statement(ctx: Context, candidates: Sequence[bytes]) -> None:
    if not 1 <= len(candidates) <= MAX_CANDIDATES:
        raise BadCardMessage(f"a claim proof covers 1 to {MAX_CANDIDATES} candidate cards, not {len(candidates)}",
                             seat=ctx.seat)
    if len(set(candidates)) != len(candidates):
        raise BadCardMessage("a claim proof's candidate cards must all differ", seat=ctx.seat)


def prove_claim(ctx: Context, claim: bytes, candidates: Sequence[bytes], x: int, c1: bytes, under_key: bytes,
                card: bytes) -> dict[str, list[bytes]]:
    """Prove that ``under_key`` (``C' = card + x*c1``) hides one of ``candidates``, ``card`` being
    the true one. ValueError when ``card`` is not a candidate or ``under_key`` is not ``card``
    under ``x``: an honest prover cannot prove a false claim, and should not try."""
    _check_statement(ctx, candidates)
    if card not in candidates:
        raise ValueError("the card held is not among the candidates: the claim is false")
    key = g.base_mul(x)
    if g.add(card, g.mul(x, c1)) != under_key:
        raise ValueError("the card is not the one under our key in this ciphertext")
    true = candidates.index(card)
    es: list[int] = [0] * len(candidates)
    zs: list[int] = [0] * len(candidates)
    commitments: list[tuple[bytes, bytes]] = []
    k = g.random_scalar()
    for i, candidate in enumerate(candidates):
        if i == true:
            commitments.append((g.base_mul(k), g.mul(k, c1)))
            continue
        es[i], zs[i] = g.random_scalar(), g.random_scalar()  # a simulated branch: challenge and response first
        target = g.sub(under_key, candidate)
        commitments.append((g.sub(g.base_mul(zs[i]), g.mul(es[i], key)),
                            g.sub(g.mul(zs[i], c1), g.mul(es[i], target))))
    e = _challenge(ctx, claim, candidates, key, c1, under_key, commitments)
    es[true] = (e - sum(es[i] for i in range(len(candidates)) if i != true)) % g.L
    zs[true] = (k + es[true] * x) % g.L
    return {"e": [g.sb(v) for v in es], "z": [g.sb(v) for v in zs]}


def verify_claim(ctx: Context, claim: bytes, candidates: Sequence[bytes], key: bytes, c1: bytes, under_key: bytes,
                 proof: object) -> None:
    """Raise :class:`BadCardProof` (or BadCardMessage/BadScalar for a malformed proof), naming
    ``ctx.seat``, unless ``proof`` shows ``under_key`` hides one of ``candidates`` under ``key``.

    ``candidates`` are the verifier's own (computed from public data); ``key``, ``c1`` and
    ``under_key`` are trusted points (validated or computed by the verifier)."""
    _check_statement(ctx, candidates)
    if not isinstance(proof, Mapping) or sorted(proof) != ["e", "z"]:
        raise BadCardMessage("a claim proof is a map {'e': [...], 'z': [...]}", seat=ctx.seat)
    raw_e, raw_z = proof["e"], proof["z"]
    n = len(candidates)
    if not isinstance(raw_e, (list, tuple)) or not isinstance(raw_z, (list, tuple)) \
            or len(raw_e) != n or len(raw_z) != n:
        raise BadCardMessage(f"a claim proof over {n} candidates has {n} challenges and {n} responses",
                             seat=ctx.seat)
    es = [g.decode_scalar(v, seat=ctx.seat, what="claim proof challenge") for v in raw_e]
    zs = [g.decode_scalar(v, seat=ctx.seat, what="claim proof response") for v in raw_z]
    commitments = []
    for e, z, candidate in zip(es, zs, candidates):
        target = g.sub(under_key, candidate)
        commitments.append((g.sub(g.base_mul(z), g.mul(e, key)), g.sub(g.mul(z, c1), g.mul(e, target))))
    if sum(es) % g.L != _challenge(ctx, claim, candidates, key, c1, under_key, commitments):
        raise BadCardProof("its proof that the card it holds makes its claim true does not verify (a false "
                           "claim, or a proof made for another step, seat, claim or set of cards)",
                           seat=ctx.seat, proof="claim")


def proof_size(proof: Mapping[str, Any]) -> int:
    """Bytes of a proof's scalars (for benchmarks and message limits)."""
    return sum(len(v) for key in ("e", "z") for v in proof[key])

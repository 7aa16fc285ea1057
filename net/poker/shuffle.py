"""Verifiable re-mask-and-permute of an ElGamal-encrypted deck (Terelius-Wikström).

A deck is a tuple of ciphertexts ``(A, B) = (r*G, M + r*H)`` under the joint
key ``H``. A shuffle by one seat outputs ``E'_i = E_{pi(i)} + rho_i*(G, H)``
for a secret permutation ``pi`` and fresh ``rho_i``, and proves in zero
knowledge that it did exactly that: no card was swapped, duplicated or
dropped, and nothing about ``pi`` leaks.

The proof is the commitment-consistent proof of a shuffle of Terelius and
Wikström (AFRICACRYPT 2010), in the form written out by Haenni, Locher,
Koenig and Dubuis ("Pseudo-code algorithms for verifiable re-encryption
mix-nets", FC 2017), translated to additive notation:

1. Pedersen commitments to the permutation matrix, one per input position:
   ``c_{pi(i)} = r_{pi(i)}*G + h_i`` with independent generators ``h_i``.
2. Challenges ``u_j`` = hash of the statement and the commitments;
   ``u'_i = u_{pi(i)}``.
3. A commitment chain ``ĉ_i = r̂_i*G + u'_i*ĉ_{i-1}`` from ``ĉ_0 = h_0``,
   showing ``prod u'_i = prod u_i`` (so the committed matrix is a permutation).
4. A Schnorr-style proof (t, challenge, responses) that the same ``u'``
   opens ``sum u_j*c_j`` and relates ``sum u'_i*E'_i`` to ``sum u_j*E_j`` by
   a re-encryption.

The Fiat-Shamir hashes cover the domain, game id, step, seat, joint key, the
whole input and output decks and every commitment, so a proof cannot be
moved to another step, seat, deck or key.

Proofs travel in compact form (challenge and responses); the verifier
recomputes the commitments. A random-linear-combination batch check of the
same equations needs the same number of variable-base multiplications here
(libsodium offers no multi-scalar multiplication, and the ``t̂_i`` would have
to be weighted one by one), so the compact form is used: it is smaller on the
wire and decodes N fewer points.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from engine.core.encoding import encode
from net.poker import group as g
from net.poker.errors import BadCardMessage, BadCardProof, BadPoint
from net.poker.proofs import Context

Cipher = tuple[bytes, bytes]
Deck = tuple[Cipher, ...]

SHUFFLE_DOMAIN = "fairtable/cards/shuffle/v1"
U_DOMAIN = "fairtable/cards/shuffle-u/v1"
#: Largest deck a shuffle message may carry (a guard against hostile sizes).
MAX_DECK = 1024


def random_permutation(n: int, randbelow: Callable[[int], int] = secrets.randbelow) -> tuple[int, ...]:
    """Uniform permutation by Fisher-Yates; ``perm[i]`` is the input index of output ``i``.

    ``randbelow`` is :func:`secrets.randbelow` in play. Tests may pass a seeded
    generator's ``randbelow`` to check uniformity through this very function.
    """
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)


def trivial_deck(points: Sequence[bytes], key: bytes) -> Deck:
    """Encrypt publicly known card points deterministically as ``(G, M + H)``.

    Everyone computes the same deck locally, so no proof is needed; the first
    shuffle re-masks it. Used for a new deck and for a discard pile returned
    to the deck (its cards are public, then every seat shuffles it).

    Every point must be a canonical prime-order point: libsodium's addition
    accepts any curve point, so a card point with a small-order component
    would make the first honest shuffler's output fail validation at every
    verifier, and that honest seat would be blamed.
    """
    for i, m in enumerate(points):
        if not g.is_valid_point(m):
            raise BadPoint(f"card point {i} of the new deck is not a canonical point of prime order "
                           "(the deck list that supplied it is invalid)", seat=None)
    return tuple((g.BASE, g.add(m, key)) for m in points)


def remask(deck: Deck, key: bytes, perm: Sequence[int], rho: Sequence[int]) -> Deck:
    """``out_i = deck[perm[i]] + rho_i*(G, key)``."""
    out = []
    for i, j in enumerate(perm):
        a, b = deck[j]
        out.append((g.add(a, g.base_mul(rho[i])), g.add(b, g.mul(rho[i], key))))
    return tuple(out)


def _statement(ctx: Context, key: bytes, deck_in: Deck, deck_out: Deck) -> tuple[Any, ...]:
    return (ctx.binding(), key, deck_in, deck_out)


def _challenges_u(statement: tuple[Any, ...], commits: Sequence[bytes]) -> list[int]:
    seed = hashlib.sha512(encode((U_DOMAIN, statement, tuple(commits)))).digest()
    out = []
    for j in range(len(commits)):
        wide = hashlib.sha512(seed + j.to_bytes(4, "little")).digest()
        out.append(int.from_bytes(wide, "little") % g.L)
    return out


def _challenge(statement: tuple[Any, ...], commits: Sequence[bytes], chain: Sequence[bytes],
               t: Sequence[bytes], t_hat: Sequence[bytes]) -> int:
    return g.hash_to_scalar(SHUFFLE_DOMAIN, (statement, tuple(commits), tuple(chain), tuple(t), tuple(t_hat)))


def prove_shuffle(ctx: Context, key: bytes, deck_in: Deck, deck_out: Deck,
                  perm: Sequence[int], rho: Sequence[int]) -> dict[str, Any]:
    """Proof that ``deck_out == remask(deck_in, key, perm, rho)``."""
    n = len(deck_in)
    hs = g.generators(n)
    h0 = g.generator(0)
    L = g.L
    rnd = g.random_scalar
    # 1. permutation commitments, indexed by input position
    r = [0] * n
    commits = [b""] * n
    for i, j in enumerate(perm):
        r[j] = rnd()
        commits[j] = g.add(g.base_mul(r[j]), hs[i])
    statement = _statement(ctx, key, deck_in, deck_out)
    u = _challenges_u(statement, commits)
    up = [u[j] for j in perm]
    # 3. commitment chain
    r_hat = [rnd() for _ in range(n)]
    chain = []
    prev = h0
    for i in range(n):
        prev = g.add(g.base_mul(r_hat[i]), g.mul(up[i], prev))
        chain.append(prev)
    # 4. commitments of the sigma protocol
    w1, w2, w3, w4 = rnd(), rnd(), rnd(), rnd()
    w_hat = [rnd() for _ in range(n)]
    w_p = [rnd() for _ in range(n)]
    t1 = g.base_mul(w1)
    t2 = g.base_mul(w2)
    t3 = g.total([g.base_mul(w3)] + [g.mul(w_p[i], hs[i]) for i in range(n)])
    t4a = g.total([g.mul(w_p[i], deck_out[i][0]) for i in range(n)] + [g.base_mul(-w4 % L)])
    t4b = g.total([g.mul(w_p[i], deck_out[i][1]) for i in range(n)] + [g.mul(-w4 % L, key)])
    t_hat = []
    prev = h0
    for i in range(n):
        t_hat.append(g.add(g.base_mul(w_hat[i]), g.mul(w_p[i], prev)))
        prev = chain[i]
    c = _challenge(statement, commits, chain, (t1, t2, t3, t4a, t4b), t_hat)
    # 5. responses
    v = [1] * n
    for i in range(n - 2, -1, -1):
        v[i] = v[i + 1] * up[i + 1] % L
    r_bar = sum(r) % L
    r_hat_sum = sum(r_hat[i] * v[i] for i in range(n)) % L
    r_u = sum(r[j] * u[j] for j in range(n)) % L
    rho_u = sum(rho[i] * up[i] for i in range(n)) % L
    s = [(w1 - c * r_bar) % L, (w2 - c * r_hat_sum) % L, (w3 - c * r_u) % L, (w4 - c * rho_u) % L]
    s_hat = [(w_hat[i] - c * r_hat[i]) % L for i in range(n)]
    s_p = [(w_p[i] - c * up[i]) % L for i in range(n)]
    return {
        "commit": tuple(commits),
        "chain": tuple(chain),
        "c": g.sb(c),
        "s": tuple(g.sb(x) for x in s),
        "s_hat": tuple(g.sb(x) for x in s_hat),
        "s_p": tuple(g.sb(x) for x in s_p),
    }


def shuffle(ctx: Context, key: bytes, deck: Deck,
            randbelow: Callable[[int], int] = secrets.randbelow) -> tuple[Deck, dict[str, Any]]:
    """Re-mask and permute ``deck``; return the new deck and its proof."""
    perm = random_permutation(len(deck), randbelow)
    rho = [g.random_scalar() for _ in perm]
    out = remask(deck, key, perm, rho)
    return out, prove_shuffle(ctx, key, deck, out, perm, rho)


# --- verification -------------------------------------------------------------

def decode_deck(data: object, *, seat: int | None, size: int | None = None) -> Deck:
    """Validate a received deck (every point checked); blame ``seat``."""
    if not isinstance(data, (list, tuple)):
        raise BadCardMessage("deck is not a list", seat=seat)
    if size is not None and len(data) != size:
        raise BadCardMessage(f"deck has {len(data)} cards, expected {size}", seat=seat)
    if len(data) > MAX_DECK:
        raise BadCardMessage(f"deck has more than {MAX_DECK} cards", seat=seat)
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise BadCardMessage(f"card {i} is not a ciphertext pair", seat=seat)
        out.append((g.decode_point(item[0], seat=seat, what=f"card {i} (first half)"),
                    g.decode_point(item[1], seat=seat, what=f"card {i} (second half)")))
    return tuple(out)


def _points(data: object, n: int, *, seat: int, what: str) -> list[bytes]:
    if not isinstance(data, (list, tuple)) or len(data) != n:
        raise BadCardMessage(f"shuffle proof field {what!r} must list {n} points", seat=seat)
    return [g.decode_point(p, seat=seat, what=f"shuffle proof {what}[{i}]") for i, p in enumerate(data)]


def _scalars(data: object, n: int, *, seat: int, what: str) -> list[int]:
    if not isinstance(data, (list, tuple)) or len(data) != n:
        raise BadCardMessage(f"shuffle proof field {what!r} must list {n} scalars", seat=seat)
    return [g.decode_scalar(x, seat=seat, what=f"shuffle proof {what}[{i}]") for i, x in enumerate(data)]


_PROOF_FIELDS = ("c", "chain", "commit", "s", "s_hat", "s_p")


def verify_shuffle(ctx: Context, key: bytes, deck_in: Deck, deck_out: Deck, proof: object) -> None:
    """Raise :class:`BadCardProof` naming ``ctx.seat`` unless ``proof`` shows that
    ``deck_out`` is a re-masked permutation of ``deck_in`` under ``key``.

    ``deck_in``, ``deck_out`` and ``key`` must already be validated.
    """
    seat = ctx.seat
    n = len(deck_in)
    if len(deck_out) != n:
        raise BadCardProof(f"its shuffled deck has {len(deck_out)} cards instead of {n}",
                           seat=seat, proof="shuffle")
    if not isinstance(proof, dict) or tuple(sorted(proof)) != _PROOF_FIELDS:
        raise BadCardMessage(f"shuffle proof must have exactly the fields {list(_PROOF_FIELDS)}", seat=seat)
    commits = _points(proof["commit"], n, seat=seat, what="commit")
    chain = _points(proof["chain"], n, seat=seat, what="chain")
    c = g.decode_scalar(proof["c"], seat=seat, what="shuffle proof challenge")
    s1, s2, s3, s4 = _scalars(proof["s"], 4, seat=seat, what="s")
    s_hat = _scalars(proof["s_hat"], n, seat=seat, what="s_hat")
    s_p = _scalars(proof["s_p"], n, seat=seat, what="s_p")
    L = g.L
    hs = g.generators(n)
    h0 = g.generator(0)
    statement = _statement(ctx, key, deck_in, deck_out)
    u = _challenges_u(statement, commits)
    cu = [c * x % L for x in u]
    u_prod = 1
    for x in u:
        u_prod = u_prod * x % L
    mul, base_mul, total = g.mul, g.base_mul, g.total
    c_bar = g.sub(total(commits), g.generators_sum(n))
    c_hat = g.sub(chain[-1], mul(u_prod, h0)) if n else g.IDENTITY
    t1 = g.add(mul(c, c_bar), base_mul(s1))
    t2 = g.add(mul(c, c_hat), base_mul(s2))
    t3 = total([mul(cu[j], commits[j]) for j in range(n)]
               + [mul(s_p[i], hs[i]) for i in range(n)] + [base_mul(s3)])
    neg_s4 = -s4 % L
    t4a = total([mul(cu[j], deck_in[j][0]) for j in range(n)]
                + [mul(s_p[i], deck_out[i][0]) for i in range(n)] + [base_mul(neg_s4)])
    t4b = total([mul(cu[j], deck_in[j][1]) for j in range(n)]
                + [mul(s_p[i], deck_out[i][1]) for i in range(n)] + [mul(neg_s4, key)])
    t_hat = []
    prev = h0
    for i in range(n):
        t_hat.append(total([mul(c, chain[i]), base_mul(s_hat[i]), mul(s_p[i], prev)]))
        prev = chain[i]
    if _challenge(statement, commits, chain, (t1, t2, t3, t4a, t4b), t_hat) != c:
        raise BadCardProof(
            "its shuffle proof does not verify: the new deck is not a re-masked permutation "
            "of the old one (a card swapped, duplicated or dropped), or the proof was made "
            "for another step, seat or deck", seat=seat, proof="shuffle")


def receive_shuffle(ctx: Context, key: bytes, deck_in: Deck, message: object) -> Deck:
    """Decode and verify a seat's shuffle message ``{"deck", "proof"}``; return the new deck."""
    if not isinstance(message, dict) or tuple(sorted(message)) != ("deck", "proof"):
        raise BadCardMessage("shuffle message must have exactly the fields 'deck' and 'proof'",
                             seat=ctx.seat)
    deck_out = decode_deck(message["deck"], seat=ctx.seat, size=len(deck_in))
    verify_shuffle(ctx, key, deck_in, deck_out, message["proof"])
    return deck_out

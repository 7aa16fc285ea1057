"""The verifiable shuffle (Terelius-Wikström): completeness and every tamper we know."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from poker_helpers import GAME

from net.poker import group as g
from net.poker.cards import card_point
from net.poker.errors import BadCardMessage, BadCardProof, BadPoint, BadScalar
from net.poker.proofs import Context
from net.poker.shuffle import (
    Deck,
    prove_shuffle,
    random_permutation,
    receive_shuffle,
    remask,
    shuffle,
    trivial_deck,
    verify_shuffle,
)

X = g.random_scalar()
KEY = g.base_mul(X)
CTX = Context(GAME, 11, 2)


def _deck(n: int) -> Deck:
    return trivial_deck([card_point(GAME, f"c{i}") for i in range(n)], KEY)


def _decrypt(deck: Deck) -> list[bytes]:
    return [g.sub(b, g.mul(X, a)) for a, b in deck]


def test_shuffle_is_a_remasked_permutation_and_verifies() -> None:
    deck = _deck(12)
    out, proof = shuffle(CTX, KEY, deck)
    verify_shuffle(CTX, KEY, deck, out, proof)
    assert sorted(_decrypt(out)) == sorted(_decrypt(deck))
    assert not set(out) & set(deck)  # every ciphertext re-masked
    assert receive_shuffle(CTX, KEY, deck, {"deck": out, "proof": proof}) == out


def test_one_card_deck_and_identity_permutation_verify() -> None:
    for n in (1, 2):
        deck = _deck(n)
        rho = [g.random_scalar() for _ in range(n)]
        out = remask(deck, KEY, tuple(range(n)), rho)
        verify_shuffle(CTX, KEY, deck, out, prove_shuffle(CTX, KEY, deck, out, tuple(range(n)), rho))


def _cheat(deck: Deck, edit: Any) -> tuple[Deck, dict[str, Any]]:
    """Shuffle honestly, then edit the output and prove as well as a cheater can
    (an honest-shaped proof over the edited deck, using the real witness)."""
    perm = random_permutation(len(deck))
    rho = [g.random_scalar() for _ in perm]
    out = edit(remask(deck, KEY, perm, rho))
    return out, prove_shuffle(CTX, KEY, deck, out, perm, rho)


def test_swapped_in_card_is_caught_and_attributed() -> None:
    deck = _deck(10)
    foreign = g.base_mul(g.random_scalar())

    def swap(out: Deck) -> Deck:
        a, b = out[3]
        return out[:3] + ((a, g.add(b, g.sub(card_point(GAME, "ace"), card_point(GAME, "c0")))),) + out[4:]

    out, proof = _cheat(deck, swap)
    with pytest.raises(BadCardProof) as info:
        verify_shuffle(CTX, KEY, deck, out, proof)
    assert info.value.seat == CTX.seat and info.value.proof == "shuffle"
    # replacing a card by a fresh encryption of something else is caught as well
    out, proof = _cheat(deck, lambda o: o[:5] + ((g.BASE, g.add(foreign, KEY)),) + o[6:])
    with pytest.raises(BadCardProof):
        verify_shuffle(CTX, KEY, deck, out, proof)


def test_duplicated_card_is_caught() -> None:
    deck = _deck(10)
    out, proof = _cheat(deck, lambda o: o[:4] + (o[0],) + o[5:])
    with pytest.raises(BadCardProof) as info:
        verify_shuffle(CTX, KEY, deck, out, proof)
    assert info.value.seat == CTX.seat


def test_dropped_card_is_caught() -> None:
    deck = _deck(10)
    out, proof = shuffle(CTX, KEY, deck)
    with pytest.raises(BadCardMessage) as info:
        receive_shuffle(CTX, KEY, deck, {"deck": out[:-1], "proof": proof})
    assert info.value.seat == CTX.seat
    with pytest.raises(BadCardProof):
        verify_shuffle(CTX, KEY, deck, out[:-1], proof)


def test_reordered_output_without_matching_proof_is_caught() -> None:
    deck = _deck(8)
    out, proof = shuffle(CTX, KEY, deck)
    with pytest.raises(BadCardProof):
        verify_shuffle(CTX, KEY, deck, out[1:] + out[:1], proof)


def test_proof_copied_from_another_step_seat_game_or_key_is_rejected() -> None:
    deck = _deck(8)
    out, proof = shuffle(CTX, KEY, deck)
    for ctx in (Context(GAME, 12, 2), Context(GAME, 11, 1), Context(bytes(32), 11, 2)):
        with pytest.raises(BadCardProof) as info:
            verify_shuffle(ctx, KEY, deck, out, proof)
        assert info.value.seat == ctx.seat
    with pytest.raises(BadCardProof):
        verify_shuffle(CTX, g.base_mul(g.random_scalar()), deck, out, proof)


def test_proof_for_another_input_deck_is_rejected() -> None:
    deck, other = _deck(8), _deck(8)
    out, proof = shuffle(CTX, KEY, deck)
    other = remask(other, KEY, tuple(range(8)), [g.random_scalar() for _ in range(8)])
    with pytest.raises(BadCardProof):
        verify_shuffle(CTX, KEY, other, out, proof)


def test_tampered_proof_fields_are_rejected() -> None:
    deck = _deck(6)
    out, proof = shuffle(CTX, KEY, deck)
    bumped = dict(proof, s_p=(g.sb((int.from_bytes(proof["s_p"][0], "little") + 1) % g.L),) + proof["s_p"][1:])
    with pytest.raises(BadCardProof):
        verify_shuffle(CTX, KEY, deck, out, bumped)
    with pytest.raises(BadPoint) as bad_point:
        verify_shuffle(CTX, KEY, deck, out, dict(proof, chain=(g.IDENTITY,) + proof["chain"][1:]))
    assert bad_point.value.seat == CTX.seat
    with pytest.raises(BadScalar):
        verify_shuffle(CTX, KEY, deck, out, dict(proof, c=g.L.to_bytes(32, "little")))
    with pytest.raises(BadCardMessage):
        verify_shuffle(CTX, KEY, deck, out, dict(proof, commit=proof["commit"][:-1]))
    with pytest.raises(BadCardMessage):
        verify_shuffle(CTX, KEY, deck, out, {k: v for k, v in proof.items() if k != "s"})


def test_small_order_point_in_shuffled_deck_is_rejected() -> None:
    deck = _deck(4)
    out, proof = shuffle(CTX, KEY, deck)
    small = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
    bad = ((out[0][0], small),) + out[1:]
    with pytest.raises(BadPoint) as info:
        receive_shuffle(CTX, KEY, deck, {"deck": bad, "proof": proof})
    assert info.value.seat == CTX.seat


def test_random_permutation_is_a_permutation() -> None:
    for n in (0, 1, 2, 24):
        assert sorted(random_permutation(n)) == list(range(n))


@settings(max_examples=15)
@given(n=st.integers(1, 7), seed=st.integers(0, 2**32), step=st.integers(0, 2**40), seat=st.integers(0, 9))
def test_every_permutation_proves_and_only_its_own_context_verifies(n: int, seed: int, step: int,
                                                                    seat: int) -> None:
    deck = _deck(n)
    ctx = Context(GAME, step, seat)
    out, proof = shuffle(ctx, KEY, deck, random.Random(seed).randrange)
    verify_shuffle(ctx, KEY, deck, out, proof)
    with pytest.raises(BadCardProof):
        verify_shuffle(Context(GAME, step + 1, seat), KEY, deck, out, proof)



def _matrix_shuffle(deck: Deck, m: list[list[int]], n_inv: list[list[int]], *,
                    committed: list[list[int]] | None = None,
                    forge_last_link: bool = False, adaptive: bool = False) -> tuple[Deck, dict[str, Any]]:
    """A cheating prover that follows the proof recipe with any matrix.

    It outputs ``n_inv * deck`` re-masked (``n_inv`` is the inverse of ``m``
    transposed), so the re-encryption equation holds with ``u' = m*u``. It
    commits to ``committed`` (default ``m``). With ``forge_last_link`` the
    last chain element is made to open to ``prod(u)`` directly, whatever
    ``u'`` is. With ``adaptive`` it takes the challenges ``u`` before
    committing, then commits to a matrix with rows summing to 1 that maps ``u``
    to ``m*u`` (possible only if ``u`` did not depend on the commitments).
    Each test below defeats every check but one.
    """
    from net.poker.shuffle import _challenge, _challenges_u, _statement

    n, L, rnd = len(deck), g.L, g.random_scalar
    committed = m if committed is None else committed
    hs, h0 = g.generators(n), g.generator(0)
    rho = [rnd() for _ in range(n)]
    out = []
    for i in range(n):
        a = g.total([g.mul(n_inv[i][j] % L, deck[j][0]) for j in range(n) if n_inv[i][j] % L])
        b = g.total([g.mul(n_inv[i][j] % L, deck[j][1]) for j in range(n) if n_inv[i][j] % L])
        out.append((g.add(a, g.base_mul(rho[i])), g.add(b, g.mul(rho[i], KEY))))
    deck_out = tuple(out)
    r = [rnd() for _ in range(n)]
    statement = _statement(CTX, KEY, deck, deck_out)

    def commit_to(matrix: list[list[int]]) -> list[bytes]:
        return [g.total([g.base_mul(r[j])] + [g.mul(matrix[i][j] % L, hs[i])
                                              for i in range(n) if matrix[i][j] % L])
                for j in range(n)]

    if adaptive:
        u = _challenges_u(statement, commit_to(IDENTITY))
        committed = [row[:] for row in IDENTITY]
        for i in range(n):  # row i: x*u_i + y*u_k = (m*u)_i with x + y = 1
            k = (i + 1) % n
            y = (sum(m[i][j] * u[j] for j in range(n)) - u[i]) * pow(u[k] - u[i], -1, L) % L
            committed[i][i], committed[i][k] = (1 - y) % L, y
        commits = commit_to(committed)
    else:
        commits = commit_to(committed)
        u = _challenges_u(statement, commits)
    up = [sum(m[i][j] * u[j] for j in range(n)) % L for i in range(n)]
    r_hat = [rnd() for _ in range(n)]
    chain, prev = [], h0
    for i in range(n):
        prev = g.add(g.base_mul(r_hat[i]), g.mul(up[i], prev))
        chain.append(prev)
    v = [1] * n
    for i in range(n - 2, -1, -1):
        v[i] = v[i + 1] * up[i + 1] % L
    r_hat_total = sum(r_hat[i] * v[i] for i in range(n)) % L
    if forge_last_link:
        u_prod = 1
        for x in u:
            u_prod = u_prod * x % L
        chain[-1] = g.add(g.base_mul(r_hat[-1]), g.mul(u_prod, h0))
        r_hat_total = r_hat[-1]
    w1, w2, w3, w4 = rnd(), rnd(), rnd(), rnd()
    w_hat, w_p = [rnd() for _ in range(n)], [rnd() for _ in range(n)]
    t = (g.base_mul(w1), g.base_mul(w2),
         g.total([g.base_mul(w3)] + [g.mul(w_p[i], hs[i]) for i in range(n)]),
         g.total([g.mul(w_p[i], deck_out[i][0]) for i in range(n)] + [g.base_mul(-w4 % L)]),
         g.total([g.mul(w_p[i], deck_out[i][1]) for i in range(n)] + [g.mul(-w4 % L, KEY)]))
    t_hat = [g.add(g.base_mul(w_hat[i]), g.mul(w_p[i], h0 if i == 0 else chain[i - 1])) for i in range(n)]
    c = _challenge(statement, commits, chain, t, t_hat)
    s = [(w1 - c * sum(r)) % L, (w2 - c * r_hat_total) % L,
         (w3 - c * sum(r[j] * u[j] for j in range(n))) % L,
         (w4 - c * sum(rho[i] * up[i] for i in range(n))) % L]
    proof = {"commit": tuple(commits), "chain": tuple(chain), "c": g.sb(c),
             "s": tuple(g.sb(x) for x in s),
             "s_hat": tuple(g.sb((w_hat[i] - c * r_hat[i]) % L) for i in range(n)),
             "s_p": tuple(g.sb((w_p[i] - c * up[i]) % L) for i in range(n))}
    return deck_out, proof


N_CHEAT = 6
IDENTITY = [[int(i == j) for j in range(N_CHEAT)] for i in range(N_CHEAT)]


def _rejected(deck: Deck, out: Deck, proof: dict[str, Any]) -> None:
    assert sorted(_decrypt(out)) != sorted(_decrypt(deck))  # the cheat is a real substitution
    with pytest.raises(BadCardProof) as info:
        verify_shuffle(CTX, KEY, deck, out, proof)
    assert info.value.seat == CTX.seat and info.value.proof == "shuffle"


def _mixing() -> tuple[list[list[int]], list[list[int]]]:
    """Rows (1+a, -a, 0...) and (0, 1, 0...): every row sums to 1 and the matrix is
    invertible, but it is no permutation (card 0 scaled, card 1 plus part of card 0)."""
    a = g.random_scalar()
    inv = pow(1 + a, -1, g.L)
    zeros = [0] * (N_CHEAT - 2)
    return ([[1 + a, -a] + zeros, IDENTITY[1]] + IDENTITY[2:],
            [[inv, 0] + zeros, [a * inv % g.L, 1] + zeros] + IDENTITY[2:])


def _scaling() -> tuple[list[list[int]], list[list[int]]]:
    """diag(a, 1/a, 1, ...): a permutation up to scalars whose product is 1."""
    a = g.random_scalar()
    m = [row[:] for row in IDENTITY]
    n_inv = [row[:] for row in IDENTITY]
    m[0][0], m[1][1] = a, pow(a, -1, g.L)
    n_inv[0][0], n_inv[1][1] = pow(a, -1, g.L), a
    return m, n_inv


def test_the_cheating_prover_is_faithful_on_a_permutation() -> None:
    deck = _deck(N_CHEAT)
    swap = [IDENTITY[1], IDENTITY[0]] + IDENTITY[2:]
    out, proof = _matrix_shuffle(deck, swap, swap)
    verify_shuffle(CTX, KEY, deck, out, proof)
    assert _decrypt(out) == [_decrypt(deck)[1], _decrypt(deck)[0]] + _decrypt(deck)[2:]


def test_non_permutation_matrix_is_caught_by_the_product_argument() -> None:
    deck = _deck(N_CHEAT)
    _rejected(deck, *_matrix_shuffle(deck, *_mixing()))


def test_scaled_permutation_is_caught_by_the_row_sum_check() -> None:
    # its u' has the right product; committing to it honestly exposes rows summing to a, 1/a
    deck = _deck(N_CHEAT)
    _rejected(deck, *_matrix_shuffle(deck, *_scaling()))


def test_responses_for_another_matrix_than_the_committed_one_are_caught() -> None:
    # commits to the identity (rows sum to 1) but answers with the scaled matrix's u'
    deck = _deck(N_CHEAT)
    _rejected(deck, *_matrix_shuffle(deck, *_scaling(), committed=IDENTITY))


def test_chain_whose_last_link_skips_the_product_is_caught() -> None:
    deck = _deck(N_CHEAT)
    _rejected(deck, *_matrix_shuffle(deck, *_mixing(), forge_last_link=True))


def test_commitments_chosen_after_the_challenges_are_caught() -> None:
    # the challenges u hash the commitments, so they cannot be adapted to u
    deck = _deck(N_CHEAT)
    _rejected(deck, *_matrix_shuffle(deck, *_scaling(), adaptive=True))


def test_tampered_first_ciphertext_half_is_caught() -> None:
    deck = _deck(N_CHEAT)

    def shift(out: Deck) -> Deck:  # (A + G, B) decrypts to the card minus H
        return ((g.add(out[0][0], g.BASE), out[0][1]),) + out[1:]

    _rejected(deck, *_cheat(deck, shift))


def test_output_deck_edited_after_the_challenges_is_caught() -> None:
    """Edit two output cards so that every equation still holds (card k gets the
    difference of two input cards: it becomes a copy of another card; card l
    absorbs ``-s'_k/s'_l`` of that). Only hashing the output deck into the
    challenges stops this."""
    deck = _deck(N_CHEAT)
    perm = random_permutation(N_CHEAT)
    rho = [g.random_scalar() for _ in perm]
    out = remask(deck, KEY, perm, rho)
    proof = prove_shuffle(CTX, KEY, deck, out, perm, rho)
    k, l_ = 0, 1
    target = perm[2]  # make output k a second copy of the card at output 2
    delta = (g.sub(deck[target][0], deck[perm[k]][0]), g.sub(deck[target][1], deck[perm[k]][1]))
    s_k, s_l = (int.from_bytes(proof["s_p"][i], "little") for i in (k, l_))
    f = -s_k * pow(s_l, -1, g.L) % g.L
    edited = list(out)
    edited[k] = (g.add(out[k][0], delta[0]), g.add(out[k][1], delta[1]))
    edited[l_] = (g.add(out[l_][0], g.mul(f, delta[0])), g.add(out[l_][1], g.mul(f, delta[1])))
    forged = tuple(edited)
    assert _decrypt(forged)[k] == _decrypt(forged)[2]  # a duplicated card
    _rejected(deck, forged, proof)

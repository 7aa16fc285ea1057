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

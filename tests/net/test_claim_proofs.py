"""net/poker/claim_proofs.py: a held card proven to be one of a public set (issue 31), with
every tampered proof refused and the seat named; honest proofs always verify."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.poker import group as g
from net.poker.cards import card_point
from net.poker.claim_proofs import MAX_CANDIDATES, proof_size, prove_claim, verify_claim
from net.poker.errors import BadCardMessage, BadCardProof, BadScalar
from net.poker.proofs import Context

GAME = b"g" * 32
CTX = Context(GAME, 41, 2)
CLAIM = b"locke.stat_now level>=3"


def dealt(card_id: str, seats: int = 4, holder: int = 2) -> tuple[list[int], bytes, bytes, bytes]:
    """A card dealt to ``holder`` under every seat's key: the keys, c1, C' (the card under the
    holder's key alone, as every peer computes it from the others' public shares) and M."""
    secrets_ = [g.random_scalar() for _ in range(seats)]
    joint = g.total([g.base_mul(x) for x in secrets_])
    m = card_point(GAME, card_id)
    r = g.random_scalar()
    c1, c2 = g.base_mul(r), g.add(m, g.mul(r, joint))
    others = g.total([g.mul(x, c1) for i, x in enumerate(secrets_) if i != holder])
    return secrets_, c1, g.sub(c2, others), m


def candidates(*ids: str) -> list[bytes]:
    return [card_point(GAME, c) for c in ids]


IDS = [f"card-{n}" for n in range(30)]


@pytest.mark.parametrize("count", [1, 2, 6, 27])
def test_an_honest_proof_verifies_for_every_position_of_the_true_card(count: int) -> None:
    ids = IDS[:count]
    for true in {0, count // 2, count - 1}:
        xs, c1, under, m = dealt(ids[true])
        proof = prove_claim(CTX, CLAIM, candidates(*ids), xs[2], c1, under, m)
        verify_claim(CTX, CLAIM, candidates(*ids), g.base_mul(xs[2]), c1, under, proof)
        assert proof_size(proof) == 64 * count


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=1, max_value=12), st.data())
def test_property_honest_proofs_always_verify(count: int, data: st.DataObject) -> None:
    true = data.draw(st.integers(min_value=0, max_value=count - 1))
    ids = IDS[:count]
    xs, c1, under, m = dealt(ids[true])
    proof = prove_claim(CTX, CLAIM, candidates(*ids), xs[2], c1, under, m)
    verify_claim(CTX, CLAIM, candidates(*ids), g.base_mul(xs[2]), c1, under, proof)


def test_an_honest_prover_refuses_a_false_claim_and_a_forged_proof_is_refused() -> None:
    xs, c1, under, m = dealt("card-9")
    key = g.base_mul(xs[2])
    with pytest.raises(ValueError, match="claim is false"):
        prove_claim(CTX, CLAIM, candidates("card-1", "card-2"), xs[2], c1, under, m)
    # a liar proves over a set that holds its card, then sends it for the claim's real set
    proof = prove_claim(CTX, CLAIM, candidates("card-1", "card-9"), xs[2], c1, under, m)
    with pytest.raises(BadCardProof) as err:
        verify_claim(CTX, CLAIM, candidates("card-1", "card-2"), key, c1, under, proof)
    assert err.value.seat == 2 and err.value.proof == "claim"


@pytest.mark.parametrize("change", ["step", "seat", "game", "claim", "superset", "order", "key", "c1"])
def test_a_proof_for_anything_else_is_refused_naming_the_seat(change: str) -> None:
    xs, c1, under, m = dealt("card-3")
    key = g.base_mul(xs[2])
    ids = ["card-1", "card-3", "card-5"]
    proof = prove_claim(CTX, CLAIM, candidates(*ids), xs[2], c1, under, m)
    ctx, claim, cands, k, c = CTX, CLAIM, candidates(*ids), key, c1
    if change == "step":
        ctx = Context(GAME, 42, 2)
    elif change == "seat":
        ctx = Context(GAME, 41, 3)
    elif change == "game":
        ctx = Context(b"h" * 32, 41, 2)
    elif change == "claim":
        claim = b"locke.stat_now level>=4"
    elif change == "superset":  # a set the prover chose, one card larger than the verifier's
        proof = prove_claim(CTX, CLAIM, candidates(*ids, "card-7"), xs[2], c1, under, m)
    elif change == "order":
        cands = candidates("card-3", "card-1", "card-5")
    elif change == "key":
        k = g.base_mul(g.random_scalar())
    elif change == "c1":
        c = g.base_mul(g.random_scalar())
    with pytest.raises((BadCardProof, BadCardMessage)) as err:
        verify_claim(ctx, claim, cands, k, c, under, proof)
    assert err.value.seat == ctx.seat


def test_malformed_truncated_and_oversized_proofs_are_refused() -> None:
    xs, c1, under, m = dealt("card-1")
    key = g.base_mul(xs[2])
    cands = candidates("card-1", "card-2", "card-3")
    proof = prove_claim(CTX, CLAIM, cands, xs[2], c1, under, m)
    bads: list[object] = [None, [], {"e": proof["e"]}, {"e": proof["e"], "z": proof["z"], "x": []},
            {"e": proof["e"][:2], "z": proof["z"]}, {"e": proof["e"], "z": proof["z"] + [proof["z"][0]]},
                {"e": "abc", "z": proof["z"]}]
    for bad in bads:
        with pytest.raises(BadCardMessage):
            verify_claim(CTX, CLAIM, cands, key, c1, under, bad)
    too_big = {"e": [bytes(32)] * 3, "z": [(g.L).to_bytes(32, "little")] * 3}
    with pytest.raises(BadScalar):
        verify_claim(CTX, CLAIM, cands, key, c1, under, too_big)
    with pytest.raises(BadScalar):
        verify_claim(CTX, CLAIM, cands, key, c1, under, {"e": [b"\x01"] * 3, "z": proof["z"]})
    many = candidates(*[f"c{n}" for n in range(MAX_CANDIDATES + 1)])
    with pytest.raises(BadCardMessage, match="1 to"):
        verify_claim(CTX, CLAIM, many, key, c1, under, proof)
    with pytest.raises(BadCardMessage, match="differ"):
        verify_claim(CTX, CLAIM, [cands[0], cands[0]], key, c1, under, proof)

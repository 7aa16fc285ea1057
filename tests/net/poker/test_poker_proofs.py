"""Key proofs (Schnorr) and decryption-share proofs (Chaum-Pedersen), with tampering."""

from __future__ import annotations

import pytest
from poker_helpers import GAME

from net.poker import group as g
from net.poker import proofs
from net.poker.errors import (
    BadCardMessage,
    BadCardProof,
    BadPoint,
    BadScalar,
    OutOfTurn,
)
from net.poker.proofs import Context
from net.poker.protocol import KeyRound, SeatSecrets

CTX = Context(GAME, 7, 1)


def test_key_proof_verifies_and_is_bound_to_game_step_and_seat() -> None:
    x = g.random_scalar()
    key = g.base_mul(x)
    proof = proofs.prove_key(CTX, x)
    proofs.verify_key(CTX, key, proof)
    for other in (Context(GAME, 8, 1), Context(GAME, 7, 2), Context(b"\x00" * 32, 7, 1)):
        with pytest.raises(BadCardProof) as info:
            proofs.verify_key(other, key, proof)
        assert info.value.seat == other.seat and info.value.proof == "key"


def test_bad_key_proof_in_a_key_round_names_the_seat() -> None:
    seats = [SeatSecrets.generate(s) for s in range(3)]
    round_ = KeyRound(GAME, 1, range(3))
    round_.receive(0, KeyRound.announce(GAME, 1, seats[0]))
    # seat 1 announces a rogue key (its own key minus seat 0's) with a proof for its real key
    honest = KeyRound.announce(GAME, 1, seats[1])
    rogue = dict(honest, key=g.sub(seats[1].key, seats[0].key))
    with pytest.raises(BadCardProof) as info:
        round_.receive(1, rogue)
    assert info.value.seat == 1
    # seat 2 copies seat 0's whole key message: the proof is bound to seat 0
    with pytest.raises(BadCardProof) as info:
        round_.receive(2, KeyRound.announce(GAME, 1, seats[0]))
    assert info.value.seat == 2
    # a key proof from another step
    with pytest.raises(BadCardProof):
        round_.receive(2, KeyRound.announce(GAME, 2, seats[2]))
    # a rejected message changed nothing: seats 1 and 2 are still awaited
    assert round_.waiting_for() == (1, 2)
    round_.receive(1, honest)
    round_.receive(2, KeyRound.announce(GAME, 1, seats[2]))
    keys = round_.result()
    assert keys.joint == g.total([s.key for s in seats])
    with pytest.raises(OutOfTurn) as turn:
        round_.receive(2, KeyRound.announce(GAME, 1, seats[2]))
    assert turn.value.seat == 2


def test_key_message_with_small_order_key_or_bad_fields_is_rejected() -> None:
    me = SeatSecrets.generate(0)
    msg = KeyRound.announce(GAME, 1, me)
    with pytest.raises(BadPoint) as info:
        KeyRound(GAME, 1, range(2)).receive(0, dict(msg, key=g.IDENTITY))
    assert info.value.seat == 0
    with pytest.raises(BadCardMessage):
        KeyRound(GAME, 1, range(2)).receive(0, dict(msg, extra=1))
    for weak in (bytes(32), b"\x01" + bytes(31), msg["box"][:31]):  # low-order or short X25519 keys
        with pytest.raises(BadCardMessage) as weak_info:
            KeyRound(GAME, 1, range(2)).receive(0, dict(msg, box=weak))
        assert weak_info.value.seat == 0
    with pytest.raises(BadScalar):
        KeyRound(GAME, 1, range(2)).receive(0, dict(msg, proof={"e": g.L.to_bytes(32, "little"),
                                                               "z": msg["proof"]["z"]}))


def _card() -> tuple[int, bytes, bytes]:
    x = g.random_scalar()
    return x, g.base_mul(x), g.base_mul(g.random_scalar())


def test_share_proof_verifies() -> None:
    x, key, c1 = _card()
    msg = proofs.make_share(CTX, x, key, c1, 4)
    assert proofs.verify_share(CTX, key, c1, 4, msg) == g.mul(x, c1)


def test_wrong_share_is_rejected() -> None:
    x, key, c1 = _card()
    msg = proofs.make_share(CTX, x, key, c1, 4)
    wrong = dict(msg, share=g.add(msg["share"], g.BASE))
    with pytest.raises(BadCardProof) as info:
        proofs.verify_share(CTX, key, c1, 4, wrong)
    assert info.value.seat == CTX.seat and info.value.proof == "share"
    # a share computed with another secret, with an honest-looking proof for it
    with pytest.raises(BadCardProof):
        proofs.verify_share(CTX, key, c1, 4, proofs.make_share(CTX, g.random_scalar(), key, c1, 4))


def test_share_for_the_wrong_card_is_rejected() -> None:
    x, key, c1 = _card()
    other_c1 = g.base_mul(g.random_scalar())
    msg = proofs.make_share(CTX, x, key, other_c1, 4)
    with pytest.raises(BadCardProof):
        proofs.verify_share(CTX, key, c1, 4, msg)
    # the right card's share offered for another position (label) is rejected too
    with pytest.raises(BadCardProof):
        proofs.verify_share(CTX, key, c1, 5, proofs.make_share(CTX, x, key, c1, 4))


def test_share_proof_copied_from_another_step_or_seat_is_rejected() -> None:
    x, key, c1 = _card()
    msg = proofs.make_share(CTX, x, key, c1, 4)
    for other in (Context(GAME, 8, 1), Context(GAME, 7, 0)):
        with pytest.raises(BadCardProof) as info:
            proofs.verify_share(other, key, c1, 4, msg)
        assert info.value.seat == other.seat


def test_share_with_small_order_point_or_out_of_range_scalar_is_rejected() -> None:
    x, key, c1 = _card()
    msg = proofs.make_share(CTX, x, key, c1, 0)
    with pytest.raises(BadPoint):
        proofs.verify_share(CTX, key, c1, 0, dict(msg, share=g.IDENTITY))
    z = int.from_bytes(msg["z"], "little")
    with pytest.raises(BadScalar):  # z + L is the same residue, but not canonical
        proofs.verify_share(CTX, key, c1, 0, dict(msg, z=(z + g.L).to_bytes(32, "little")))


def _forged_share(what: str) -> tuple[bytes, bytes, dict[str, bytes]]:
    """A seat that knows its key's secret forges a share proof, fixing one part
    of the statement only after the challenge (as a weak Fiat-Shamir would
    allow). Returns (key, c1, message) for card 4 in CTX."""
    x, key, c1 = _card()
    k = g.random_scalar()
    t1, t2 = g.base_mul(k), g.mul(k, c1)
    if what == "wrong share":  # the share is wrong; t2 is what an honest share would give
        share = g.add(g.mul(x, c1), g.BASE)
        e = proofs.share_challenge(CTX, 4, key, c1, share, t1, t2)
        return key, c1, {"share": share, "e": g.sb(e), "z": g.sb((k + e * x) % g.L)}
    placeholder = g.generator(99)
    if what == "share":  # solve for the share after the challenge
        t2 = g.add(t2, g.BASE)
        e = proofs.share_challenge(CTX, 4, key, c1, placeholder, t1, t2)
        z = (k + e * x) % g.L
        share = g.mul(pow(e, -1, g.L), g.sub(g.mul(z, c1), t2))
        return key, c1, {"share": share, "e": g.sb(e), "z": g.sb(z)}
    if what == "card":  # solve for the ciphertext after the challenge, any share
        share, t2 = g.base_mul(g.random_scalar()), g.base_mul(g.random_scalar())
        e = proofs.share_challenge(CTX, 4, key, placeholder, share, t1, t2)
        z = (k + e * x) % g.L
        c1 = g.mul(pow(z, -1, g.L), g.add(t2, g.mul(e, share)))
        return key, c1, {"share": share, "e": g.sb(e), "z": g.sb(z)}
    assert what == "key"  # solve for the key after the challenge: its share is then wrong
    d, k1 = g.random_scalar(), g.random_scalar()
    share, t1 = g.mul(d, c1), g.base_mul(k1)
    e = proofs.share_challenge(CTX, 4, placeholder, c1, share, t1, t2)
    z = (k + e * d) % g.L
    key = g.mul(pow(e, -1, g.L), g.sub(g.base_mul(z), t1))  # secret d + (k - k1)/e, not d
    return key, c1, {"share": share, "e": g.sb(e), "z": g.sb(z)}


@pytest.mark.parametrize("what", ["wrong share", "share", "card", "key"])
def test_share_proof_with_a_part_chosen_after_the_challenge_is_rejected(what: str) -> None:
    key, c1, msg = _forged_share(what)
    with pytest.raises(BadCardProof) as info:
        proofs.verify_share(CTX, key, c1, 4, msg)
    assert info.value.seat == CTX.seat


def test_key_solved_for_after_the_challenge_is_rejected() -> None:
    """Pick t, e, z first and solve for the key: a key nobody knows the secret of."""
    t, z = g.base_mul(g.random_scalar()), g.random_scalar()
    e = proofs.key_challenge(CTX, g.generator(99), b"", t)
    key = g.mul(pow(e, -1, g.L), g.sub(g.base_mul(z), t))
    with pytest.raises(BadCardProof):
        proofs.verify_key(CTX, key, {"e": g.sb(e), "z": g.sb(z)})


def test_no_joint_key_before_every_seats_key_proof_has_verified() -> None:
    """The joint key only exists once every key is in and proven: a seat that
    announces last cannot be skipped, and a rejected key leaves it owed."""
    seats = [SeatSecrets.generate(s) for s in range(3)]
    round_ = KeyRound(GAME, 1, range(3))
    round_.receive(0, KeyRound.announce(GAME, 1, seats[0]))
    bad = dict(KeyRound.announce(GAME, 1, seats[2]), key=seats[1].key)
    with pytest.raises(BadCardProof):
        round_.receive(2, bad)
    round_.receive(1, KeyRound.announce(GAME, 1, seats[1]))
    with pytest.raises(OutOfTurn) as info:
        round_.result()
    assert info.value.seat == 2 and round_.waiting_for() == (2,)

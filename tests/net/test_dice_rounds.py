"""Joint dice: literal vectors, completeness, attributable cheats and stalls."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.actions import SYSTEM
from engine.core.encoding import encode
from engine.core.pending import Chance, DiceRolled
from net.commit import (
    Commitment,
    Opening,
    SealedChoiceRound,
    commit_message,
    reveal_message,
)
from net.dice import DiceRound, check_dice, faces_from_seed, joint_seed
from net.envelope import EnvelopeChain, EnvelopeWriter, Genesis, game_id
from net.errors import (
    CommitmentMismatch,
    DiceRevealMismatch,
    MalformedMessage,
    UnexpectedMessage,
)
from net.identity import Identity

GAME = b"D" * 32


# --- faces from a seed -------------------------------------------------------------


def reference_faces(seed: bytes, dice: Sequence[int]) -> tuple[int, ...]:
    """Independent, naive restatement of the spec in docs/security.md."""
    stream = b"".join(
        hashlib.sha256(encode(["fairtable/dice-stream/v1", [seed, i]])).digest() for i in range(64))
    faces, pos = [], 0
    for sides in dice:
        width = 1
        while 256**width < sides:
            width += 1
        while True:
            x = int.from_bytes(stream[pos : pos + width], "big")
            pos += width
            if x < 256**width // sides * sides:
                faces.append(x % sides + 1)
                break
    return tuple(faces)


VECTORS = [
    (bytes(32), (6, 6), (4, 1)),
    (bytes(32), (3,), (1,)),
    (b"\xff" * 32, (6, 6, 6), (1, 5, 3)),
    (bytes(range(32)), (20, 100, 1000, 2**32), (13, 67, 824, 951489878)),
    # the first byte of this seed's stream is 0xff: rejected for a d6 and a d3
    (hashlib.sha256(b"reject125").digest(), (6,), (1,)),
    (hashlib.sha256(b"reject125").digest(), (3,), (1,)),
]


@pytest.mark.parametrize("seed, dice, faces", VECTORS)
def test_faces_literal_vectors(seed: bytes, dice: tuple[int, ...], faces: tuple[int, ...]) -> None:
    assert faces_from_seed(seed, dice) == faces
    assert reference_faces(seed, dice) == faces


@settings(max_examples=80)
@given(seed=st.binary(min_size=32, max_size=32),
       dice=st.lists(st.integers(2, 12) | st.integers(2, 2**32), min_size=1, max_size=8))
def test_faces_in_range_and_match_the_reference_for_any_seed(seed: bytes, dice: list[int]) -> None:
    faces = faces_from_seed(seed, dice)
    assert len(faces) == len(dice)
    assert all(1 <= face <= s for face, s in zip(faces, dice))
    assert faces == reference_faces(seed, dice)


def test_rejection_really_happens_in_the_vector() -> None:
    seed = hashlib.sha256(b"reject125").digest()
    first = hashlib.sha256(encode(["fairtable/dice-stream/v1", [seed, 0]])).digest()
    assert first[0] >= 252  # 252..255 would bias a d6 towards 1..4 if kept
    assert faces_from_seed(seed, (6,)) == (first[1] % 6 + 1,)


def test_faces_spanning_several_stream_blocks() -> None:
    dice = (6,) * 40 + (2**32,) * 9  # well over one 32-byte block
    faces = faces_from_seed(bytes(32), dice)
    assert faces == reference_faces(bytes(32), dice)
    assert all(1 <= f <= s for f, s in zip(faces, dice))


def test_check_dice() -> None:
    assert check_dice([6, 3]) == (6, 3)
    assert check_dice(()) == () and check_dice((1, 6)) == (1, 6)  # the engine asks for these (Locke)
    for dice in ((0,), (6, True), (2**32 + 1,), (6,) * 101):
        with pytest.raises(ValueError):
            check_dice(dice)
    with pytest.raises(ValueError):
        faces_from_seed(bytes(31), (6,))


def test_joint_seed_spec() -> None:
    contributions = (b"a" * 32, b"b" * 32)
    expected = hashlib.sha256(encode(
        ["fairtable/dice-seed/v1", [GAME, 9, "trap", [6, 6], [0, 1], list(contributions)]])).digest()
    assert joint_seed(GAME, 9, "trap", (6, 6), (0, 1), contributions) == expected
    # every part of the context changes the seed
    assert joint_seed(GAME, 10, "trap", (6, 6), (0, 1), contributions) != expected
    assert joint_seed(GAME, 9, "event", (6, 6), (0, 1), contributions) != expected
    assert joint_seed(b"E" * 32, 9, "trap", (6, 6), (0, 1), contributions) != expected
    assert joint_seed(GAME, 9, "trap", (6, 6), (0, 1), contributions[::-1]) != expected


# --- full rounds ----------------------------------------------------------------------


def play(seats: Sequence[int], dice: Sequence[int], step: int = 5) -> list[DiceRound]:
    """Every seat runs its own round and sees every message; returns all views."""
    views = [DiceRound(GAME, step, seats, "trap", dice) for _ in seats]
    secrets_ = {seat: views[i].contribute(seat) for i, seat in enumerate(seats)}
    for seat in reversed(seats):
        for view in views:
            view.handle(seat, commit_message(secrets_[seat][0]))
    for seat in seats:
        for view in views:
            view.handle(seat, reveal_message(secrets_[seat][1]))
    return views


@pytest.mark.parametrize("seats", [2, 3, 6, 10])
@pytest.mark.parametrize("dice", [(3,), (6,), (6, 6), (6, 6, 6)])
def test_every_seat_gets_the_same_fair_faces(seats: int, dice: tuple[int, ...]) -> None:
    views = play(tuple(range(seats)), dice)
    answers = {view.answer() for view in views}
    assert len(answers) == 1
    (answer,) = answers
    assert isinstance(answer, DiceRolled) and answer.seat == SYSTEM and answer.purpose == "trap"
    assert len(answer.faces) == len(dice)
    assert all(1 <= f <= s for f, s in zip(answer.faces, dice))


def test_round_from_engine_chance_request() -> None:
    round_ = DiceRound.from_pending(GAME, 3, (0, 1), Chance(purpose="locke.trap", dice=(6, 6)))
    made = {s: round_.contribute(s) for s in (0, 1)}
    for s in (0, 1):
        round_.commit(s, made[s][0])
    for s in (0, 1):
        round_.reveal(s, made[s][1])
    seed = joint_seed(GAME, 3, "locke.trap", (6, 6), (0, 1), (made[0][1].value, made[1][1].value))
    assert round_.answer().faces == faces_from_seed(seed, (6, 6))


def test_dice_over_signed_envelopes() -> None:
    ids = [Identity.from_seed(bytes([40 + s]) * 32) for s in range(3)]
    genesis = Genesis("locke", "1", b"c" * 32, tuple(i.public_key for i in ids), {}, (b"n" * 16,) * len(ids))
    gid = game_id(genesis)
    writers = [EnvelopeWriter(ident, gid, s) for s, ident in enumerate(ids)]
    chain = EnvelopeChain.from_genesis(genesis)
    round_ = DiceRound(gid, 8, (0, 1, 2), "trap", (6, 6))
    made = [round_.contribute(s) for s in range(3)]
    for s in range(3):
        env = chain.accept(writers[s].write("dice.commit", commit_message(made[s][0]), (8, bytes(32))))
        round_.handle(env.seat, env.body)
    for s in range(3):
        env = chain.accept(writers[s].write("dice.reveal", reveal_message(made[s][1]), (8, bytes(32))))
        round_.handle(env.seat, env.body)
    assert round_.complete and len(round_.faces()) == 2


# --- cheats and stalls ------------------------------------------------------------------


def committed_round(seats: int = 3) -> tuple[DiceRound, list[tuple[bytes, Opening]]]:
    round_ = DiceRound(GAME, 5, range(seats), "trap", (6, 6))
    made = [round_.contribute(s) for s in range(seats)]
    for s in range(seats):
        round_.commit(s, made[s][0])
    return round_, made


def test_reveal_not_matching_its_commitment_names_the_seat() -> None:
    round_, made = committed_round()
    round_.reveal(0, made[0][1])
    # seat 2 saw seat 0's contribution and would like a different outcome
    changed = Opening(bytes(32), made[2][1].salt)
    with pytest.raises(DiceRevealMismatch) as err:
        round_.reveal(2, changed)
    assert err.value.seat == 2
    assert isinstance(err.value, CommitmentMismatch)
    assert round_.missing() == (1, 2)


def test_reveal_of_another_seats_opening_names_the_revealer() -> None:
    round_, made = committed_round()
    round_.reveal(0, made[0][1])
    with pytest.raises(DiceRevealMismatch) as err:
        round_.reveal(1, made[0][1])
    assert err.value.seat == 1


def test_dice_contribution_from_another_step_does_not_open() -> None:
    earlier = DiceRound(GAME, 4, (0, 1), "trap", (6, 6))
    c_old, o_old = earlier.contribute(1)
    round_ = DiceRound(GAME, 5, (0, 1), "trap", (6, 6))
    c0, _ = round_.contribute(0)
    round_.commit(0, c0)
    round_.commit(1, c_old)
    with pytest.raises(DiceRevealMismatch) as err:
        round_.reveal(1, o_old)
    assert err.value.seat == 1


def test_sealed_choice_commitment_cannot_open_as_dice() -> None:
    sealed = SealedChoiceRound(GAME, 5, (0, 1), "trap")
    c1, o1 = sealed.commit_to(1, b"x" * 32)
    round_ = DiceRound(GAME, 5, (0, 1), "trap", (6,))
    round_.commit(0, round_.contribute(0)[0])
    round_.commit(1, c1)
    with pytest.raises(DiceRevealMismatch):
        round_.reveal(1, o1)


def test_contribution_of_wrong_size_is_attributed() -> None:
    round_ = DiceRound(GAME, 5, (0, 1), "trap", (6,))
    c1, o1 = Commitment.create(GAME, 5, 1, b"short", purpose=round_.commit_purpose)
    round_.commit(0, round_.contribute(0)[0])
    round_.commit(1, c1)
    with pytest.raises(MalformedMessage) as err:
        round_.reveal(1, o1)
    assert err.value.seat == 1


def test_last_revealer_who_refuses_is_named_and_no_faces_exist() -> None:
    round_, made = committed_round(3)
    round_.reveal(0, made[0][1])
    round_.reveal(2, made[2][1])
    # seat 1 could now compute the outcome and decides not to reveal
    assert round_.missing() == (1,)
    stall = round_.stalled()
    assert stall is not None
    assert stall.seats == (1,) and stall.seat == 1 and stall.phase == "reveal"
    assert "forfeit, not a re-roll" in str(stall)
    with pytest.raises(UnexpectedMessage):
        round_.faces()


def test_reveal_before_all_dice_commitments_is_rejected() -> None:
    round_ = DiceRound(GAME, 5, (0, 1), "trap", (6,))
    c0, o0 = round_.contribute(0)
    round_.commit(0, c0)
    with pytest.raises(UnexpectedMessage) as err:
        round_.reveal(0, o0)
    assert err.value.seat == 0
    assert round_.stalled() is not None and round_.stalled().seats == (1,)  # type: ignore[union-attr]


def test_transcript_records_seed_and_faces_once_complete() -> None:
    round_, made = committed_round(2)
    assert "seed" not in round_.transcript()
    for s in (0, 1):
        round_.reveal(s, made[s][1])
    record = round_.transcript()
    encode(record)
    assert record["faces"] == round_.faces() and record["dice"] == (6, 6)


def test_joint_seed_needs_one_contribution_per_seat() -> None:
    with pytest.raises(ValueError, match="one contribution per seat"):
        joint_seed(GAME, 1, "trap", (6,), (0, 1), (b"a" * 32,))

"""Commitments and sealed-choice rounds: completeness and every cheat, attributed."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from engine.core.actions import SYSTEM
from engine.core.encoding import encode
from engine.core.pending import SealedChoice, SealedChoicesRevealed
from net.commit import (
    Commitment,
    CommitRevealRound,
    Opening,
    SealedChoiceRound,
    commit_message,
    commitment_of,
    reveal_message,
    verify_opening,
)
from net.errors import (
    CommitmentMismatch,
    IllegalChoice,
    MalformedMessage,
    Replay,
    UnexpectedMessage,
    UnknownSeat,
)

GAME = b"G" * 32
OTHER_GAME = b"H" * 32
RPS = ("rock", "paper", "scissors")


# --- single commitments ---------------------------------------------------------


def test_commitment_literal_vector() -> None:
    value, salt = "rock", bytes(range(32))
    expected = hashlib.sha256(encode(["fairtable/commit/v1", [GAME, 4, 1, "sealed", value, salt]])).digest()
    assert commitment_of(GAME, 4, 1, value, salt) == expected
    assert expected.hex() == "f6ff968e843c94e72e6c308fc2d4c9d669ad73a135cb67d1141236d5a5cb218b"


def test_commitment_opens_and_hides() -> None:
    c1, o1 = Commitment.create(GAME, 3, 0, "rock")
    c2, o2 = Commitment.create(GAME, 3, 0, "rock")
    assert c1 != c2 and o1.salt != o2.salt  # fresh salt: equal choices look unrelated
    verify_opening(c1, GAME, 3, 0, o1)
    verify_opening(c2, GAME, 3, 0, o2)


def test_opened_to_another_value_is_rejected() -> None:
    c, o = Commitment.create(GAME, 3, 1, "rock")
    with pytest.raises(CommitmentMismatch) as err:
        verify_opening(c, GAME, 3, 1, Opening("paper", o.salt))
    assert err.value.seat == 1


def test_opened_with_another_salt_is_rejected() -> None:
    c, o = Commitment.create(GAME, 3, 1, "rock")
    verify_opening(c, GAME, 3, 1, o)
    with pytest.raises(CommitmentMismatch):
        verify_opening(c, GAME, 3, 1, Opening("rock", bytes(32)))


def test_opened_by_another_seat_is_rejected() -> None:
    c, o = Commitment.create(GAME, 3, 0, "rock")
    with pytest.raises(CommitmentMismatch) as err:
        verify_opening(c, GAME, 3, 1, o)  # seat 1 claims seat 0's commitment
    assert err.value.seat == 1


def test_opened_for_another_step_or_game_or_purpose_is_rejected() -> None:
    c, o = Commitment.create(GAME, 3, 0, "rock")
    with pytest.raises(CommitmentMismatch):
        verify_opening(c, GAME, 4, 0, o)
    with pytest.raises(CommitmentMismatch):
        verify_opening(c, OTHER_GAME, 3, 0, o)
    with pytest.raises(CommitmentMismatch):
        verify_opening(c, GAME, 3, 0, o, purpose="dice:trap")


def test_opening_is_strictly_parsed() -> None:
    assert Opening.from_data({"value": 1, "salt": bytes(32)}) == Opening(1, bytes(32))
    for bad in ({"value": 1}, {"value": 1, "salt": bytes(31)}, {"value": 1, "salt": bytes(32), "x": 0}, [1]):
        with pytest.raises(MalformedMessage):
            Opening.from_data(bad)
    with pytest.raises(MalformedMessage):
        Opening(1.5, bytes(32))  # floats are not canonical


# --- sealed-choice rounds -----------------------------------------------------------


def run_round(round_: SealedChoiceRound, choices: dict[int, Any]) -> dict[int, tuple[bytes, Opening]]:
    made = {seat: round_.commit_to(seat, choices[seat]) for seat in round_.seats}
    for seat in reversed(round_.seats):  # arrival order must not matter
        round_.handle(seat, commit_message(made[seat][0]))
    for seat in round_.seats:
        round_.handle(seat, reveal_message(made[seat][1]))
    return made


@pytest.mark.parametrize("seats", [2, 3, 6, 10])
def test_sealed_round_completes_in_seat_order(seats: int) -> None:
    round_ = SealedChoiceRound(GAME, 7, range(seats), "rps", [RPS] * seats)
    choices = {seat: RPS[seat % 3] for seat in range(seats)}
    assert round_.phase == "commit" and round_.missing() == tuple(range(seats))
    run_round(round_, choices)
    assert round_.complete
    assert round_.values() == tuple(RPS[s % 3] for s in range(seats))
    answer = round_.answer()
    assert answer == SealedChoicesRevealed(seat=SYSTEM, purpose="rps", choices=round_.values())


def test_round_from_engine_pending_input() -> None:
    pending = SealedChoice(seats=(0, 1), purpose="rider.first_flip", options=((10, 11), (20, 21)))
    round_ = SealedChoiceRound.from_pending(GAME, 2, pending)
    run_round(round_, {0: 11, 1: 20})
    assert round_.answer().choices == (11, 20)


def test_missing_names_the_seats_each_phase_waits_for() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 1, 2), "rps", [RPS] * 3)
    made = {s: round_.commit_to(s, "rock") for s in (0, 1, 2)}
    round_.commit(2, made[2][0])
    assert round_.missing() == (0, 1)
    stall = round_.stalled()
    assert stall is not None and stall.seats == (0, 1) and stall.phase == "commit"
    round_.commit(0, made[0][0])
    round_.commit(1, made[1][0])
    assert round_.phase == "reveal" and round_.missing() == (0, 1, 2)
    round_.reveal(0, made[0][1])
    round_.reveal(1, made[1][1])
    stall = round_.stalled()
    assert stall is not None and stall.seats == (2,) and stall.seat == 2 and stall.phase == "reveal"
    assert "forfeit" in str(stall)
    with pytest.raises(UnexpectedMessage, match="waiting for seats"):
        round_.values()
    round_.reveal(2, made[2][1])
    assert round_.stalled() is None


def test_reveal_before_all_commits_is_rejected() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 1), "rps", [RPS] * 2)
    c0, o0 = round_.commit_to(0, "rock")
    round_.commit(0, c0)
    with pytest.raises(UnexpectedMessage, match="before every commitment") as err:
        round_.reveal(0, o0)
    assert err.value.seat == 0
    assert round_.phase == "commit" and round_.missing() == (1,)


def test_copied_commitment_cannot_be_opened_by_the_copier() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 1), "rps", [RPS] * 2)
    c0, o0 = round_.commit_to(0, "rock")
    round_.commit(0, c0)
    round_.commit(1, c0)  # seat 1 copies seat 0's commitment to mirror its choice
    round_.reveal(0, o0)
    with pytest.raises(CommitmentMismatch) as err:
        round_.reveal(1, o0)  # ...and replays seat 0's opening
    assert err.value.seat == 1
    assert round_.missing() == (1,)


def test_reveal_of_another_value_in_a_round_names_the_seat() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 1, 2), "rps", [RPS] * 3)
    made = {s: round_.commit_to(s, "rock") for s in (0, 1, 2)}
    for s in (0, 1, 2):
        round_.commit(s, made[s][0])
    with pytest.raises(CommitmentMismatch) as err:
        round_.reveal(2, Opening("paper", made[2][1].salt))
    assert err.value.seat == 2
    assert round_.missing() == (0, 1, 2)


def test_commitment_from_another_step_cannot_be_opened_here() -> None:
    old = SealedChoiceRound(GAME, 1, (0, 1), "rps", [RPS] * 2)
    c_old, o_old = old.commit_to(1, "rock")
    round_ = SealedChoiceRound(GAME, 2, (0, 1), "rps", [RPS] * 2)
    c0, _ = round_.commit_to(0, "paper")
    round_.commit(0, c0)
    round_.commit(1, c_old)  # replayed from step 1
    with pytest.raises(CommitmentMismatch) as err:
        round_.reveal(1, o_old)
    assert err.value.seat == 1


def test_choice_outside_the_offered_options_is_illegal() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 1), "rps", [RPS, RPS])
    made = {0: round_.commit_to(0, "rock"), 1: round_.commit_to(1, "lizard")}
    for s in (0, 1):
        round_.commit(s, made[s][0])
    round_.reveal(0, made[0][1])
    with pytest.raises(IllegalChoice) as err:
        round_.reveal(1, made[1][1])
    assert err.value.seat == 1


def test_duplicate_and_conflicting_messages() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 1), "rps", [RPS] * 2)
    made = {s: round_.commit_to(s, "rock") for s in (0, 1)}
    round_.commit(0, made[0][0])
    with pytest.raises(Replay):
        round_.commit(0, made[0][0])
    other, _ = round_.commit_to(0, "paper")
    with pytest.raises(UnexpectedMessage, match="second, different commitment") as err:
        round_.commit(0, other)
    assert err.value.seat == 0
    round_.commit(1, made[1][0])
    round_.reveal(0, made[0][1])
    with pytest.raises(Replay):
        round_.reveal(0, made[0][1])


def test_unknown_seat_and_malformed_messages() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 2), "rps")
    with pytest.raises(UnknownSeat):
        round_.commit(1, bytes(32))
    with pytest.raises(MalformedMessage) as err:
        round_.commit(0, b"short")
    assert err.value.seat == 0
    with pytest.raises(MalformedMessage):
        round_.handle(0, {"commit": bytes(32), "reveal": {}})
    round_.commit(0, bytes(32))
    round_.commit(2, bytes(32))
    with pytest.raises(MalformedMessage) as err:
        round_.handle(2, {"reveal": {"value": 1}})
    assert err.value.seat == 2


def test_rounds_need_ascending_seats() -> None:
    with pytest.raises(ValueError):
        CommitRevealRound(GAME, 1, (1, 0), "x")
    with pytest.raises(ValueError):
        CommitRevealRound(GAME, 1, (), "x")


def test_transcript_is_canonical() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 1), "rps", [RPS] * 2)
    run_round(round_, {0: "rock", 1: "paper"})
    transcript = round_.transcript()
    encode(transcript)
    assert transcript["openings"]["1"]["value"] == "paper"


# --- audit additions -------------------------------------------------------------


def test_second_different_opening_is_named_and_the_first_stands() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 1), "rps", [RPS] * 2)
    made = {s: round_.commit_to(s, "rock") for s in (0, 1)}
    for s in (0, 1):
        round_.commit(s, made[s][0])
    round_.reveal(0, made[0][1])
    with pytest.raises(UnexpectedMessage, match="second opening") as err:
        round_.reveal(0, Opening("paper", made[0][1].salt))
    assert err.value.seat == 0
    round_.reveal(1, made[1][1])
    assert round_.values() == ("rock", "rock")


@pytest.mark.parametrize(
    "game, step, seat, purpose",
    [(b"G" * 31, 0, 0, "p"), (GAME, -1, 0, "p"), (GAME, True, 0, "p"), (GAME, 0, -1, "p"), (GAME, 0, 0, "")],
)
def test_commitment_context_is_validated(game: bytes, step: int, seat: int, purpose: str) -> None:
    with pytest.raises(ValueError):
        commitment_of(game, step, seat, "rock", bytes(32), purpose=purpose)


def test_options_must_align_with_seats() -> None:
    with pytest.raises(ValueError, match="one tuple of choices per seat"):
        SealedChoiceRound(GAME, 1, (0, 1), "rps", [RPS])


def test_transcript_and_commitments_record_what_was_received_in_seat_order() -> None:
    round_ = SealedChoiceRound(GAME, 1, (0, 1, 2), "rps", [RPS] * 3)
    made = {s: round_.commit_to(s, RPS[s]) for s in (0, 1, 2)}
    round_.commit(2, made[2][0])
    round_.commit(0, made[0][0])
    assert round_.commitments() == (made[0][0], made[2][0])
    round_.commit(1, made[1][0])
    record = round_.transcript()
    assert record["commits"] == {str(s): made[s][0] for s in (0, 1, 2)}
    assert record["openings"] == {} and record["seats"] == (0, 1, 2) and record["step"] == 1

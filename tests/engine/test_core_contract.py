"""Reducer-contract helpers of the engine core: action codec and answer checks."""

from __future__ import annotations

import dataclasses

import pytest

from engine.core import (
    SYSTEM,
    Action,
    ActionCodec,
    CardsDealt,
    CardsRevealed,
    CardsShuffled,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    IllegalAction,
    Knowledge,
    MalformedAction,
    NotYourTurn,
    SealedChoice,
    SealedChoicesRevealed,
    WrongInputKind,
    check_answer_matches,
    decode,
    encode,
)


@dataclasses.dataclass(frozen=True)
class Play(Action):
    KIND = "play"
    handle: int
    card: str
    as_level: int | None
    targets: tuple[int, ...]


CODEC = ActionCodec([Play, DiceRolled])


def test_action_round_trips_through_canonical_bytes() -> None:
    action = Play(seat=1, handle=7, card="c01", as_level=None, targets=(1, 2))
    assert CODEC.decode(decode(encode(action))) == action


@pytest.mark.parametrize(
    "data",
    [
        "play",
        {"kind": "nope", "seat": 0},
        {"kind": "play", "seat": 0, "handle": 1, "card": "x", "as_level": None},  # missing targets
        {"kind": "play", "seat": 0, "handle": 1, "card": "x", "as_level": None, "targets": (), "extra": 1},
        {"kind": "play", "seat": True, "handle": 1, "card": "x", "as_level": None, "targets": ()},
        {"kind": "play", "seat": 0, "handle": "1", "card": "x", "as_level": None, "targets": ()},
        {"kind": "play", "seat": 0, "handle": 1, "card": "x", "as_level": "2", "targets": ()},
        {"kind": "play", "seat": 0, "handle": 1, "card": "x", "as_level": None, "targets": ("a",)},
    ],
)
def test_codec_rejects_malformed_actions(data: object) -> None:
    with pytest.raises(MalformedAction):
        CODEC.decode(data)


def test_decision_accepts_only_the_waited_for_seat() -> None:
    pending = Decision(seat=0, prompt="main")
    check_answer_matches(pending, Play(0, 1, "x", None, ()))
    with pytest.raises(NotYourTurn):
        check_answer_matches(pending, Play(1, 1, "x", None, ()))
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, DiceRolled(SYSTEM, "main", (1,)))


def test_chance_checks_purpose_count_and_faces() -> None:
    pending = Chance(purpose="trap", dice=(6, 6))
    check_answer_matches(pending, DiceRolled(SYSTEM, "trap", (1, 6)))
    for bad in [DiceRolled(SYSTEM, "trap", (0, 6)), DiceRolled(SYSTEM, "trap", (7, 1)), DiceRolled(SYSTEM, "trap", (3,))]:
        with pytest.raises(IllegalAction):
            check_answer_matches(pending, bad)
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, DiceRolled(SYSTEM, "event", (1, 1)))
    with pytest.raises(WrongInputKind):
        check_answer_matches(pending, Play(0, 1, "x", None, ()))


def test_sealed_choice_checks_each_seats_options() -> None:
    pending = SealedChoice(seats=(0, 1), purpose="rps", options=(("rock", "paper"), ("rock",)))
    check_answer_matches(pending, SealedChoicesRevealed(SYSTEM, "rps", ("paper", "rock")))
    with pytest.raises(IllegalAction):
        check_answer_matches(pending, SealedChoicesRevealed(SYSTEM, "rps", ("paper", "paper")))
    with pytest.raises(IllegalAction):
        check_answer_matches(pending, SealedChoicesRevealed(SYSTEM, "rps", ("paper",)))


def test_hidden_op_checks_zone_and_handles() -> None:
    deal = HiddenOp(op="deal", zone="deck:0", handles=(4, 5), to_seat=0)
    check_answer_matches(deal, CardsDealt(SYSTEM, "deck:0", (4, 5)))
    with pytest.raises(IllegalAction):
        check_answer_matches(deal, CardsDealt(SYSTEM, "deck:0", (5, 4)))
    with pytest.raises(WrongInputKind):
        check_answer_matches(deal, CardsShuffled(SYSTEM, "deck:0"))
    reveal = HiddenOp(op="reveal", zone="col", handles=(9,))
    with pytest.raises(IllegalAction):
        check_answer_matches(reveal, CardsRevealed(SYSTEM, "col", (9,), ()))


def test_knowledge_is_immutable_and_learns_by_copy() -> None:
    empty = Knowledge(seat=0)
    known = empty.learn([(3, "c1")])
    assert empty.card(3) is None and known.card(3) == "c1" and known.knows(3)

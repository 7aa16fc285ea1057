"""The tiny game's rules (engine/tiny/game.py), one test per rule of its docstring."""

from __future__ import annotations

import pytest

from engine.core.actions import SYSTEM
from engine.core.errors import EngineError, IllegalAction
from engine.core.hashing import digest
from engine.core.pending import (
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    SealedChoice,
    SealedChoicesRevealed,
)
from engine.tiny.game import MAX_SEATS, Play, TinyGame, TinyState, card_ids, card_set_hash

GAME = TinyGame()


def _to_plays(seats: int, guesses: tuple[str, ...], faces: tuple[int, int]) -> TinyState:
    state = GAME.apply(GAME.initial_state(seats), CardsShuffled(SYSTEM, "deck"))
    for seat in range(seats):
        state = GAME.apply(state, CardsDealt(SYSTEM, "deck", state.deck[:2]))
    state = GAME.apply(state, SealedChoicesRevealed(SYSTEM, "tiny.guess", guesses))
    return GAME.apply(state, DiceRolled(SYSTEM, "tiny.roll", faces))


def test_the_flow_asks_for_every_kind_of_input_in_order() -> None:
    state = GAME.initial_state(3)
    assert GAME.pending(state) == HiddenOp("shuffle", "deck", tuple(range(10)))
    state = GAME.apply(state, CardsShuffled(SYSTEM, "deck"))
    assert state.deck == tuple(range(10, 20))  # a shuffle gives fresh handles
    pending = GAME.pending(state)
    assert isinstance(pending, HiddenOp) and (pending.op, pending.to_seat, pending.handles) == ("deal", 0, (10, 11))
    state = _to_plays(3, ("high", "low", "high"), (3, 4))
    assert GAME.pending(state) == Decision(0, "tiny.play")


def test_sealed_guess_and_dice_are_asked_of_every_seat() -> None:
    state = GAME.initial_state(2)
    state = GAME.apply(state, CardsShuffled(SYSTEM, "deck"))
    for seat in range(2):
        state = GAME.apply(state, CardsDealt(SYSTEM, "deck", state.deck[:2]))
    assert GAME.pending(state) == SealedChoice((0, 1), "tiny.guess", (("high", "low"), ("high", "low")))
    state = GAME.apply(state, SealedChoicesRevealed(SYSTEM, "tiny.guess", ("low", "high")))
    assert GAME.pending(state) == Chance("tiny.roll", (6, 6))


def test_a_play_must_be_a_hand_card_of_this_game() -> None:
    state = _to_plays(2, ("high", "high"), (1, 1))
    other_hand = state.hands[1][0]
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(state, Play(0, other_hand, "c01"))
    with pytest.raises(IllegalAction, match="no card 'c99'"):
        GAME.apply(state, Play(0, state.hands[0][0], "c99"))
    with pytest.raises(EngineError):  # out of turn
        GAME.apply(state, Play(1, other_hand, "c01"))


def test_the_highest_card_plus_dice_wins_and_a_right_guess_adds_five() -> None:
    state = _to_plays(2, ("high", "low"), (5, 6))  # 11: "high" is right
    state = GAME.apply(state, Play(0, state.hands[0][0], "c03"))
    state = GAME.apply(state, Play(1, state.hands[1][0], "c07"))
    state = GAME.apply(state, CardsRevealed(SYSTEM, "deck", state.deck[:1], ("c00",)))
    state = GAME.apply(state, CardsShownTo(SYSTEM, "hand:0", state.hands[0][:1]))
    assert GAME.outcome(state) is None
    state = GAME.apply(state, CardsShownTo(SYSTEM, "deck", state.deck[:1]))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0  # 3 + 11 + 5 beats 7 + 11


def test_seat_range_and_components_hash() -> None:
    with pytest.raises(ValueError, match="2 to 10 seats"):
        GAME.initial_state(1)
    with pytest.raises(ValueError, match="2 to 10 seats"):
        GAME.initial_state(MAX_SEATS + 1)
    assert card_set_hash() == digest("fairtable/tiny/cards/v1", list(card_ids(24)))
    assert GAME.open_cards(GAME.initial_state(2)) == dict(zip(range(8), card_ids(8)))
    assert GAME.open_cards(GAME.apply(GAME.initial_state(2), CardsShuffled(SYSTEM, "deck"))) == {}

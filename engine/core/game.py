"""The reducer contract every game implements, and helpers to check answers.

A game is a set of pure functions over an immutable state (in the style of
boardgame.io's reducers; chance arrives as explicit input as in OpenSpiel):

- ``pending(state)`` says what the state waits for, or None once it is over;
- ``legal_actions(state, seat, knowledge)`` lists what ``seat`` may do now;
  hidden facts a seat knows (its hand) come in ``knowledge``;
- ``apply(state, action)`` returns the next state or raises an
  :class:`~engine.core.errors.EngineError` and builds nothing;
- ``public(state)`` is the canonical data that :func:`state_hash` covers.

The engine trusts card identities claimed by actions (a card played from a
hand names its card id); on a networked table the session verifies the
cryptographic proof of each identity before the action reaches the engine.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Generic, Protocol, TypeVar

from engine.core.actions import SYSTEM, Action, ActionCodec
from engine.core.errors import IllegalAction, NotYourTurn, WrongInputKind
from engine.core.hashing import state_hash
from engine.core.hidden import Knowledge
from engine.core.pending import (
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    Pending,
    SealedChoice,
    SealedChoicesRevealed,
)

S = TypeVar("S")


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is a seat, or None for a draw."""

    winner: int | None
    reason: str

    def __canonical__(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason}


class Game(Protocol, Generic[S]):
    """What the drivers (local table, network session, client) rely on."""

    rules_id: str
    codec: ActionCodec

    def pending(self, state: S) -> Pending | None: ...

    def legal_actions(self, state: S, seat: int, knowledge: Knowledge | None = None) -> list[Action]: ...

    def apply(self, state: S, action: Action) -> S: ...

    def public(self, state: S) -> Any: ...

    def zone(self, state: S, name: str) -> tuple[int, ...]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def view(self, state: S, seat: int, knowledge: Knowledge) -> Any: ...


def hash_of(game: Game[S], state: S) -> bytes:
    """The state hash every peer compares after every step."""
    return state_hash(game.public(state))


_HIDDEN_ANSWERS: dict[str, type[CardsShuffled | CardsDealt | CardsShownTo | CardsRevealed]] = {
    "shuffle": CardsShuffled,
    "deal": CardsDealt,
    "show_to": CardsShownTo,
    "reveal": CardsRevealed,
}


def check_answer_matches(pending: Pending | None, action: Action) -> None:
    """Raise unless ``action`` is the right *kind* of input for ``pending``.

    Games call this first in ``apply``; it checks who may speak and that a
    driver answer corresponds to the request (purpose, zone, dice count and
    face range, handles). Game-specific checks come after it.
    """
    if pending is None:
        raise IllegalAction("the game is over")
    if isinstance(pending, Decision):
        if action.seat == SYSTEM:
            raise WrongInputKind(f"waiting for a decision by seat {pending.seat}, not a driver answer")
        if action.seat != pending.seat:
            raise NotYourTurn(f"waiting for seat {pending.seat}, seat {action.seat} acted")
        return
    if action.seat != SYSTEM:
        raise WrongInputKind(f"waiting for {type(pending).__name__}, not for an action by seat {action.seat}")
    if isinstance(pending, SealedChoice):
        if not isinstance(action, SealedChoicesRevealed) or action.purpose != pending.purpose:
            raise WrongInputKind(f"waiting for the sealed choices of {pending.purpose!r}")
        if len(action.choices) != len(pending.seats):
            raise IllegalAction(f"expected {len(pending.seats)} sealed choices, got {len(action.choices)}")
        for seat, options, choice in zip(pending.seats, pending.options, action.choices):
            if choice not in options:
                raise IllegalAction(f"seat {seat} chose {choice!r}, which is not one of {list(options)!r}")
        return
    if isinstance(pending, Chance):
        if not isinstance(action, DiceRolled) or action.purpose != pending.purpose:
            raise WrongInputKind(f"waiting for dice for {pending.purpose!r}")
        if len(action.faces) != len(pending.dice):
            raise IllegalAction(f"expected {len(pending.dice)} dice, got {len(action.faces)}")
        for sides, face in zip(pending.dice, action.faces):
            if not 1 <= face <= sides:
                raise IllegalAction(f"a d{sides} cannot show {face}")
        return
    if isinstance(pending, HiddenOp):
        expected = _HIDDEN_ANSWERS[pending.op]
        if not isinstance(action, expected) or action.zone != pending.zone:
            raise WrongInputKind(f"waiting for {pending.op} of zone {pending.zone!r}")
        if isinstance(action, (CardsDealt, CardsShownTo, CardsRevealed)) and action.handles != pending.handles:
            raise IllegalAction(f"{pending.op} answered for other cards than requested")
        if isinstance(action, CardsRevealed) and len(action.cards) != len(action.handles):
            raise IllegalAction("a reveal must name one card per handle")
        return
    raise WrongInputKind(f"unknown pending input {pending!r}")

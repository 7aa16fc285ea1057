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
from collections.abc import Iterable, Mapping
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
    CellsOpened,
    HiddenOp,
    Pending,
    Placement,
    PlacementDisclosed,
    PlacementMade,
    SealedChoice,
    SealedChoicesRevealed,
)

S = TypeVar("S")


#: Grades of a judged seat (KMC 6, victory grades; 11.8): A alive and won, B dead
#: and won, C alive and lost, D dead and lost.
GRADES = ("A", "B", "C", "D")
_WINNING_GRADES = ("A", "B")


@dataclasses.dataclass(frozen=True)
class SeatResult:
    """How one seat did: won or lost, why, and its grade when the game grades.

    ``reason`` is a stable code or text (for example a victory-condition id)
    that the client turns into words; ``grade`` is one of :data:`GRADES` or
    None for a game without grades. A grade must agree with ``won``.
    """

    seat: int
    won: bool
    reason: str
    grade: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.seat, int) or isinstance(self.seat, bool) or self.seat < 0:
            raise ValueError(f"a seat result needs a seat number, not {self.seat!r}")
        if not isinstance(self.won, bool) or not isinstance(self.reason, str):
            raise ValueError("a seat result needs won (true/false) and a reason (text)")
        if self.grade is not None:
            if self.grade not in GRADES:
                raise ValueError(f"grade {self.grade!r} is not one of {list(GRADES)}")
            if (self.grade in _WINNING_GRADES) != self.won:
                raise ValueError(f"grade {self.grade} contradicts won={self.won} for seat {self.seat}")

    @classmethod
    def graded(cls, seat: int, *, won: bool, alive: bool, reason: str) -> SeatResult:
        """The KMC grade from the two facts it depends on (A/B win, C/D loss; A/C alive)."""
        grade = ("A" if alive else "B") if won else ("C" if alive else "D")
        return cls(seat, won, reason, grade)

    def __canonical__(self) -> dict[str, Any]:
        return {"seat": self.seat, "won": self.won, "reason": self.reason, "grade": self.grade}


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a game ended.

    ``winner`` is the one winning seat, or None for a draw or when there is
    no single winner; ``reason`` says how the game ended. Games that judge
    every seat (several winners, grades) also fill ``seats``, one
    :class:`SeatResult` per seat in seat order; build those with
    :meth:`judged`, which keeps ``winner`` consistent. Read :attr:`winners`
    rather than ``winner`` when a game may have several.

    The canonical form is ``{"winner", "reason"}`` and gains ``"seats"`` only
    when there are seat results, so two-player outcomes (and the final
    records of saved Rider transcripts) encode exactly as before.
    """

    winner: int | None
    reason: str
    seats: tuple[SeatResult, ...] = ()

    def __post_init__(self) -> None:
        if self.seats:
            numbers = [r.seat for r in self.seats]
            if numbers != sorted(set(numbers)):
                raise ValueError(f"seat results must be in seat order, one per seat, not {numbers}")
            if self.winner != _sole_winner(self.seats):
                raise ValueError(f"winner {self.winner!r} contradicts the seat results (use Outcome.judged)")

    @classmethod
    def judged(cls, reason: str, seats: Iterable[SeatResult]) -> Outcome:
        """An outcome from per-seat results; ``winner`` is set when exactly one seat won."""
        results = tuple(sorted(seats, key=lambda r: r.seat))
        return cls(_sole_winner(results), reason, results)

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat that won, in seat order (empty for a draw or when nobody won)."""
        if self.seats:
            return tuple(r.seat for r in self.seats if r.won)
        return () if self.winner is None else (self.winner,)

    @property
    def is_draw(self) -> bool:
        """A draw in a game that names at most one winner (not "everybody lost")."""
        return not self.seats and self.winner is None

    def result(self, seat: int) -> SeatResult | None:
        """The judgement of ``seat``, or None when this game does not judge seats."""
        for r in self.seats:
            if r.seat == seat:
                return r
        return None

    def __canonical__(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "reason": self.reason}
        if self.seats:
            data["seats"] = [r.__canonical__() for r in self.seats]
        return data

    @classmethod
    def from_data(cls, data: Any) -> Outcome:
        """Rebuild an outcome from its canonical data (a final record); ValueError if malformed."""
        if not isinstance(data, Mapping) or not {"winner", "reason"} <= set(data) <= {"winner", "reason", "seats"}:
            raise ValueError("an outcome is a map with winner, reason and optionally seats")
        winner, reason = data["winner"], data["reason"]
        if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
            raise ValueError(f"an outcome's winner must be a seat or null, not {winner!r}")
        if not isinstance(reason, str):
            raise ValueError("an outcome's reason must be text")
        seats: list[SeatResult] = []
        for item in data.get("seats", ()):
            if not isinstance(item, Mapping) or set(item) != {"seat", "won", "reason", "grade"}:
                raise ValueError("a seat result is a map with seat, won, reason and grade")
            seats.append(SeatResult(item["seat"], item["won"], item["reason"], item["grade"]))
        if "seats" in data and not seats:
            raise ValueError("an outcome lists seats only when there are seat results")
        return cls(winner, reason, tuple(seats))


def _sole_winner(results: tuple[SeatResult, ...]) -> int | None:
    won = [r.seat for r in results if r.won]
    return won[0] if len(won) == 1 else None


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
    if isinstance(pending, Placement):
        _check_placement_answer(pending, action)
        return
    raise WrongInputKind(f"unknown pending input {pending!r}")


_PLACEMENT_ANSWERS: dict[str, type[PlacementMade | CellsOpened | PlacementDisclosed]] = {
    "place": PlacementMade,
    "open": CellsOpened,
    "disclose": PlacementDisclosed,
}


def _check_placement_answer(pending: Placement, action: Action) -> None:
    expected = _PLACEMENT_ANSWERS[pending.op]
    if not isinstance(action, expected) or action.zone != pending.zone:
        raise WrongInputKind(f"waiting for the {pending.op} of placement {pending.zone!r}")
    if isinstance(action, (CellsOpened, PlacementDisclosed)) and action.handles != pending.handles:
        raise IllegalAction(f"{pending.op} of placement {pending.zone!r} answered for other cells than requested")
    if isinstance(action, CellsOpened):
        if len(action.contents) != len(action.handles):
            raise IllegalAction("opening cells must name one content (or nothing) per cell")
    if isinstance(action, PlacementDisclosed) and action.to_seats != pending.to_seats:
        raise IllegalAction(f"placement {pending.zone!r} was disclosed to other seats than requested")

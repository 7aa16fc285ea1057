"""What a state waits for: the four kinds of pending input, and their answers.

A state always says what it needs next (:attr:`engine.core.game.Game.pending`):

1. :class:`Decision` - one seat picks one of its legal actions.
2. :class:`SealedChoice` - several seats choose at once without seeing each
   other's choice (commit, then reveal). The driver answers with one
   :class:`SealedChoicesRevealed` carrying every choice in seat order.
3. :class:`Chance` - dice. The driver answers with :class:`DiceRolled`.
4. :class:`HiddenOp` - an operation on face-down cards: shuffle a zone, deal
   cards privately to a seat, reveal a card to one seat, or reveal cards to
   all. The driver answers with :class:`CardsShuffled`, :class:`CardsDealt`,
   :class:`CardsShownTo` or :class:`CardsRevealed`.

The engine never samples: *how* the answer was produced (a seeded RNG on a
trusted local table, or joint cryptographic protocols between peers) is the
driver's business. The same answers give the same states and hashes.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from engine.core.actions import SYSTEM, Action

HiddenOpKind = Literal["shuffle", "deal", "show_to", "reveal"]


@dataclasses.dataclass(frozen=True)
class Decision:
    """One seat must act; ``prompt`` is a stable id such as ``"rider.main"``."""

    seat: int
    prompt: str

    def __canonical__(self) -> dict[str, Any]:
        return {"pending": "decision", "seat": self.seat, "prompt": self.prompt}


@dataclasses.dataclass(frozen=True)
class SealedChoice:
    """Every seat in ``seats`` picks one of its ``options`` (aligned by index)."""

    seats: tuple[int, ...]
    purpose: str
    options: tuple[tuple[Any, ...], ...]

    def options_for(self, seat: int) -> tuple[Any, ...]:
        return self.options[self.seats.index(seat)]

    def __canonical__(self) -> dict[str, Any]:
        return {"pending": "sealed", "seats": self.seats, "purpose": self.purpose, "options": self.options}


@dataclasses.dataclass(frozen=True)
class Chance:
    """Roll dice: ``dice`` lists the number of sides of each die (2d6 = (6, 6))."""

    purpose: str
    dice: tuple[int, ...]

    def __canonical__(self) -> dict[str, Any]:
        return {"pending": "chance", "purpose": self.purpose, "dice": self.dice}


@dataclasses.dataclass(frozen=True)
class HiddenOp:
    """An operation on face-down cards identified by opaque handles.

    - ``shuffle``: permute ``zone`` (its handles are listed) so nobody knows
      the order; the engine gives the zone fresh handles when answered.
    - ``deal``: let ``to_seat`` (and only it) learn ``handles``.
    - ``show_to``: the owner shows ``handles`` to ``to_seat`` only.
    - ``reveal``: everybody learns ``handles``; the answer names the cards.
    """

    op: HiddenOpKind
    zone: str
    handles: tuple[int, ...]
    to_seat: int | None = None

    def __canonical__(self) -> dict[str, Any]:
        return {"pending": "hidden", "op": self.op, "zone": self.zone, "handles": self.handles, "to_seat": self.to_seat}


Pending = Decision | SealedChoice | Chance | HiddenOp


# --- answers fed by the driver (seat = SYSTEM) -------------------------------


@dataclasses.dataclass(frozen=True)
class SealedChoicesRevealed(Action):
    """All sealed choices, in the order of :attr:`SealedChoice.seats`."""

    KIND = "sealed_revealed"
    purpose: str
    choices: tuple[Any, ...]


@dataclasses.dataclass(frozen=True)
class DiceRolled(Action):
    """Faces of the dice asked for by :class:`Chance`, each in 1..sides."""

    KIND = "dice_rolled"
    purpose: str
    faces: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class CardsShuffled(Action):
    """The zone was shuffled; the engine allocates its fresh handles."""

    KIND = "cards_shuffled"
    zone: str


@dataclasses.dataclass(frozen=True)
class CardsDealt(Action):
    """``handles`` are now known to the seat the :class:`HiddenOp` named."""

    KIND = "cards_dealt"
    zone: str
    handles: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class CardsShownTo(Action):
    """``handles`` were shown to the seat the :class:`HiddenOp` named."""

    KIND = "cards_shown_to"
    zone: str
    handles: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class CardsRevealed(Action):
    """``handles`` are public now; ``cards`` are their card ids, aligned."""

    KIND = "cards_revealed"
    zone: str
    handles: tuple[int, ...]
    cards: tuple[str, ...]


#: Every driver answer, for building a game's :class:`ActionCodec`.
DRIVER_ANSWERS: tuple[type[Action], ...] = (
    SealedChoicesRevealed,
    DiceRolled,
    CardsShuffled,
    CardsDealt,
    CardsShownTo,
    CardsRevealed,
)


def system(answer_cls: type[Action], **fields: Any) -> Action:
    """Shorthand for building a driver answer given by :data:`SYSTEM`."""
    return answer_cls(seat=SYSTEM, **fields)

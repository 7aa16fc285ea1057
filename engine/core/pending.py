"""What a state waits for: the five kinds of pending input, and their answers.

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
5. :class:`Placement` - face-down things a seat puts on board cells (an
   ambush, the key bases). Every candidate cell gets its own commitment
   slot (a handle), holding either a thing or :data:`EMPTY`, so opening one
   cell proves "something is here" as well as "nothing is here". The driver
   answers :class:`PlacementMade`, :class:`CellsOpened` or
   :class:`PlacementDisclosed`.

The engine never samples: *how* the answer was produced (a seeded RNG on a
trusted local table, or joint cryptographic protocols between peers) is the
driver's business. The same answers give the same states and hashes.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from engine.core.actions import SYSTEM, Action

HiddenOpKind = Literal["shuffle", "deal", "show_to", "reveal"]
PlacementOpKind = Literal["place", "open", "disclose"]

#: What an opened cell holds when nothing was placed on it (thing ids are never empty).
EMPTY = ""


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


@dataclasses.dataclass(frozen=True)
class Placement:
    """A hidden placement by ``seat`` on board cells, named ``zone``.

    - ``place``: the placer secretly puts each of ``things`` on a distinct
      cell of ``cells`` (every candidate cell, each of which gets a
      commitment). Answered by :class:`PlacementMade`; the game then gives
      each candidate cell a fresh handle, in ``cells`` order, and from then on
      ``game.zone(state, zone)`` returns those handles aligned with ``cells``.
      The public state holds only cell -> handle, never what is where.
    - ``open``: ``cells`` (with their ``handles``) are opened for everyone;
      :class:`CellsOpened` names each one's content, or :data:`EMPTY`.
    - ``disclose``: the placer privately tells ``to_seats`` what lies on
      ``cells``; :class:`PlacementDisclosed` confirms it (the seats' drivers
      now know it; the public state learns nothing).

    How the answer is produced is the driver's business: a trusted local
    table knows the placement; a networked one opens per-cell commitments.
    """

    op: PlacementOpKind
    zone: str
    seat: int
    cells: tuple[str, ...]
    things: tuple[str, ...] = ()
    handles: tuple[int, ...] = ()
    to_seats: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(set(self.cells)) != len(self.cells):
            raise ValueError(f"placement {self.zone!r} names a cell twice")
        if self.op == "place":
            if self.handles or self.to_seats:
                raise ValueError("a place request has no handles or seats to tell yet")
            if len(self.things) > len(self.cells) or EMPTY in self.things:
                raise ValueError(f"placement {self.zone!r}: {len(self.things)} things (none empty) need as many cells")
        else:
            if self.things or len(self.handles) != len(self.cells):
                raise ValueError(f"an {self.op} request names one handle per cell and no things")
            if (self.op == "disclose") != bool(self.to_seats):
                raise ValueError("only a disclose request names seats to tell, and it must name one")

    def __canonical__(self) -> dict[str, Any]:
        return {"pending": "placement", "op": self.op, "zone": self.zone, "seat": self.seat, "cells": self.cells,
                "things": self.things, "handles": self.handles, "to_seats": self.to_seats}


Pending = Decision | SealedChoice | Chance | HiddenOp | Placement


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


@dataclasses.dataclass(frozen=True)
class PlacementMade(Action):
    """The placer has put its things down (and, on a network, committed to every cell)."""

    KIND = "placement_made"
    zone: str


@dataclasses.dataclass(frozen=True)
class CellsOpened(Action):
    """``handles`` are open; ``contents`` holds each one's thing id or :data:`EMPTY`."""

    KIND = "cells_opened"
    zone: str
    handles: tuple[int, ...]
    contents: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class PlacementDisclosed(Action):
    """The contents of ``handles`` were told privately to ``to_seats``."""

    KIND = "placement_disclosed"
    zone: str
    handles: tuple[int, ...]
    to_seats: tuple[int, ...]


#: Every driver answer, for building a game's :class:`ActionCodec`.
DRIVER_ANSWERS: tuple[type[Action], ...] = (
    SealedChoicesRevealed,
    DiceRolled,
    CardsShuffled,
    CardsDealt,
    CardsShownTo,
    CardsRevealed,
    PlacementMade,
    CellsOpened,
    PlacementDisclosed,
)


def system(answer_cls: type[Action], **fields: Any) -> Action:
    """Shorthand for building a driver answer given by :data:`SYSTEM`."""
    return answer_cls(seat=SYSTEM, **fields)

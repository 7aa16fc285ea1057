"""The inputs a Rider seat can give (plus the driver answers from engine.core).

Every action that moves a card out of a hand names both its handle and its
card id: the engine trusts the id, and on a networked table the session checks
the cryptographic proof of it before the action reaches the engine. Columns
are named by letter ("A", "B", "C"); effect targets are column letters or card
ids, one entry per instant effect of the placed card ("" when it needs none).
"""

from __future__ import annotations

import dataclasses

from engine.core.actions import Action, ActionCodec
from engine.core.pending import DRIVER_ANSWERS


@dataclasses.dataclass(frozen=True)
class SetUp(Action):
    """Set-up: three handles from the seat's own (unshuffled) deck, face down in A, B, C."""

    KIND = "rider.setup"
    handles: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class LevelUp(Action):
    """Place a hand card on a face-up column at ``level`` (0 for a Lv.0 card)."""

    KIND = "rider.level_up"
    column: str
    handle: int
    card: str
    level: int
    targets: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Renew(Action):
    """Place a Lv.1 card from hand face up in a column that lost its Lv.1."""

    KIND = "rider.renew"
    column: str
    handle: int
    card: str


@dataclasses.dataclass(frozen=True)
class OpenColumn(Action):
    """Discard one hand card, then turn the face-down Lv.1 of ``column`` face up."""

    KIND = "rider.open"
    column: str
    handle: int
    card: str


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    """Do nothing this phase; discard one card (None only with an empty hand)."""

    KIND = "rider.pass"
    handle: int | None
    card: str | None


@dataclasses.dataclass(frozen=True)
class Discard(Action):
    """Discard one card because an opponent's effect demands it."""

    KIND = "rider.discard"
    handle: int
    card: str


@dataclasses.dataclass(frozen=True)
class Attack(Action):
    """Attack the opposing ``target`` column with ``column``."""

    KIND = "rider.attack"
    column: str
    target: str


@dataclasses.dataclass(frozen=True)
class EndAttacks(Action):
    """Finish the attack phase (and the turn)."""

    KIND = "rider.end_attacks"


MAIN_ACTIONS = (LevelUp, Renew, OpenColumn, Pass)
SEAT_ACTIONS: tuple[type[Action], ...] = (SetUp, LevelUp, Renew, OpenColumn, Pass, Discard, Attack, EndAttacks)
CODEC = ActionCodec(SEAT_ACTIONS + DRIVER_ANSWERS)


def claims(action: Action) -> tuple[tuple[int, str], ...]:
    """The (handle, card id) pairs an action claims about its seat's hidden cards.

    A networked session must verify each claim (a proof that the handle is
    that card) before handing the action to the engine, which trusts them.
    """
    if isinstance(action, (LevelUp, Renew, OpenColumn, Discard)):
        return ((action.handle, action.card),)
    if isinstance(action, Pass) and action.handle is not None and action.card is not None:
        return ((action.handle, action.card),)
    return ()

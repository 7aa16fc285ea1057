"""The game-agnostic interface between a table driver and whoever plays a seat.

An *agent* (a bot, a hot-seat human behind the client, a test script) is asked
``choose(game, state, seat, knowledge, legal)`` and returns one of ``legal``.
Sealed choices (rock-paper-scissors, which card to flip) have no engine action
of their own (the driver reveals all of them at once), so the driver offers
them as :class:`SealedPick` values and collects the picked ``choice``; hidden
placements likewise come as :class:`PlacementPick` values, one per thing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Protocol

from engine.core.actions import Action
from engine.core.hidden import Knowledge


@dataclasses.dataclass(frozen=True)
class SealedPick(Action):
    """A seat's secret pick for a sealed choice (never applied to the engine)."""

    KIND = "sealed_pick"
    purpose: str
    choice: Any


@dataclasses.dataclass(frozen=True)
class PlacementPick(Action):
    """A placer's secret pick: put ``thing`` on ``cell`` of placement ``zone``.

    Offered one thing at a time (in the order of the request's ``things``)
    so that an agent chooses among at most as many options as there are free
    cells; the driver collects the picks and never applies them to the engine.
    """

    KIND = "placement_pick"
    zone: str
    thing: str
    cell: str


class Agent(Protocol):
    """Plays one seat: picks one of the legal actions it is offered."""

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge, legal: Sequence[Action]) -> Action: ...

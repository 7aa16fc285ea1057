"""The game-agnostic interface between a table driver and whoever plays a seat.

An *agent* (a bot, a test script) is asked ``choose(game, state, seat,
knowledge, legal)`` and returns one of ``legal``: the seat inputs its driver
offers (engine/core/inputs.py: an engine action, a sealed pick or a placement
pick). An agent never needs to know which pending kind it answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.core.hidden import Knowledge
from engine.core.inputs import SeatInput


class Agent(Protocol):
    """Plays one seat: picks one of the seat inputs it is offered."""

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge,
               legal: Sequence[SeatInput]) -> SeatInput: ...

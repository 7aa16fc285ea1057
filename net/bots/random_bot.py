"""A bot that picks uniformly among the legal actions (a baseline and fuzzer)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.core.hidden import Knowledge
from engine.core.inputs import SeatInput


class RandomBot:
    """Uniform random choice; the caller injects the RNG so games are reproducible."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge, legal: Sequence[SeatInput]) -> SeatInput:
        if not legal:
            raise ValueError(f"seat {seat} was asked to act with no legal action")
        return legal[self.rng.randrange(len(legal))]

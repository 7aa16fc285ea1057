"""A one-ply greedy bot: try every legal action, keep the best-scoring result.

Game-agnostic: it applies each candidate with the game's own reducer and asks
a per-game *scorer* (given by the game's registry entry, net/games/) how good
the resulting public position is for the seat. Ties are broken by the injected RNG, so two greedy
bots still play varied, reproducible games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.core.actions import Action
from engine.core.errors import EngineError
from engine.core.hidden import Knowledge
from engine.core.inputs import SeatInput

#: How good a public position is for a seat (higher is better).
Scorer = Callable[[Any, Any, int], int]


class GreedyBot:
    """Pick the action whose immediate result scores best for this seat."""

    def __init__(self, rng: random.Random, scorer: Scorer) -> None:
        self.rng = rng
        self.scorer = scorer

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge, legal: Sequence[SeatInput]) -> SeatInput:
        if not legal:
            raise ValueError(f"seat {seat} was asked to act with no legal action")
        if len(legal) == 1 or not isinstance(legal[0], Action):  # a sealed or placement pick: no engine input
            return legal[self.rng.randrange(len(legal))]
        scorer = self.scorer
        best: list[SeatInput] = []
        best_score = 0
        for action in legal:
            try:
                after = game.apply(state, action)
            except EngineError:
                continue
            score = scorer(game, after, seat)
            if not best or score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        if not best:
            return legal[self.rng.randrange(len(legal))]
        return best[self.rng.randrange(len(best))]

"""Reconnection delays: exponential backoff with a cap and optional jitter.

A dropped link is redialled after 0.5 s, 1 s, 2 s, ... up to 30 s between
attempts, forever (a player's laptop may sleep for minutes). Jitter spreads
the redials of many peers after a shared outage; tests turn it off.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable


@dataclasses.dataclass
class Backoff:
    """Delay schedule; :meth:`next_delay` advances it, :meth:`reset` restarts it."""

    initial: float = 0.5
    factor: float = 2.0
    maximum: float = 30.0
    jitter: float = 0.1  # +-10% of each delay
    rng: Callable[[], float] = random.random
    attempts: int = 0

    def next_delay(self) -> float:
        base = min(self.maximum, self.initial * self.factor ** min(self.attempts, 64))
        self.attempts += 1
        if self.jitter:
            base *= 1 + self.jitter * (2 * self.rng() - 1)
        return base

    def reset(self) -> None:
        self.attempts = 0

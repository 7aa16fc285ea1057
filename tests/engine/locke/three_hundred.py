"""The 300 random-bot games (N = 5..10 x 50 seeds) that the acceptance tests of the
Locke issues read: played once per test process and shared, so the whole-game test
and every coverage table (cards, charts, combat) look at the same games.

Tests that read them carry ``@pytest.mark.xdist_group("locke300")`` (the suite runs
with ``--dist loadgroup``), so one worker plays them once instead of each worker
playing them again.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from net.local_table import LocalTable
from tests.engine.locke.behaviour import untraced
from tests.engine.locke.flow_helpers import bot_table

PLAYERS = range(5, 11)
SEEDS = range(50)
#: every this-many-th seed is also played recording the hash of every state
HASHED_EVERY = 25


class PlayedGame(NamedTuple):
    players: int
    seed: int
    table: LocalTable


@lru_cache(maxsize=1)
def played_games() -> tuple[PlayedGame, ...]:
    """Every game played to its end (hashing each state only for every HASHED_EVERY-th seed)."""
    games = []
    with untraced():  # recorded whole in games.json.gz (tests/engine/locke/behaviour.py)
        for players in PLAYERS:
            for seed in SEEDS:
                table = bot_table(players, seed, hashes=seed % HASHED_EVERY == 0)
                table.run(400_000)
                games.append(PlayedGame(players, seed, table))
    return tuple(games)

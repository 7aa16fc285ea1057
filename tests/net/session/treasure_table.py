"""The treasure test game (tests/engine/treasure_game.py) between three sessions on the loopback.

Its hider places a gold coin and two traps on three of nine cells, discloses
the map to its ally, and the diggers open cells one by one; a declaration
about a face-down card is a claim the audit judges. Small and quick, so
every placement message (place, cells, disclose) and its hostile variants
can be exercised in the fast lane.
"""

from __future__ import annotations

import random
from pathlib import Path

from harness import NONCE, Table_, identities

from net.bots.random_bot import RandomBot
from net.envelope import Genesis
from net.journal import Journal
from net.session import Session
from net.session.plan import TablePlan
from tests.engine.treasure_game import RULES_ID, TreasureGame

GAME = TreasureGame()


def treasure_genesis(tag: str = "treasure") -> tuple[Genesis, list]:
    ids = identities(3, tag=tag)
    genesis = Genesis(RULES_ID, "1", bytes(32), tuple(i.public_key for i in ids), {}, (NONCE,) * 3)
    return genesis, ids


def treasure_session(genesis: Genesis, ids: list, seat: int, seed: int = 1,
                     journal_dir: Path | None = None) -> Session:
    state, _, _ = GAME.new_game()
    journal = Journal(journal_dir / f"seat{seat}") if journal_dir is not None else None
    return Session(genesis, GAME, state, plan=TablePlan(public_cards=GAME.open_cards), identity=ids[seat], seat=seat,
                   agent=RandomBot(random.Random(seed * 10 + seat)), journal=journal)


def treasure_table(seed: int = 1, *, shuffle_seed: int | None = None,
                   journal_dir: Path | None = None) -> tuple[Table_, Genesis, list]:
    genesis, ids = treasure_genesis()
    sessions = [treasure_session(genesis, ids, seat, seed, journal_dir) for seat in range(3)]
    return Table_(sessions, shuffle_seed), genesis, ids

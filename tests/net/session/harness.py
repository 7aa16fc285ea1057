"""In-process table: sessions wired through an in-memory queue (a fake transport).

Delivery is deterministic (FIFO) or, with ``shuffle_seed``, in a seeded random
order per step; every payload reaches every other session (or the one seat it
is addressed to). No sockets, no clock, no sleeps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.core.hashing import digest
from net.bots.greedy import GreedyBot
from net.games.rider.evaluation import rider_score
from net.bots.random_bot import RandomBot
from net.envelope import DICE_VRF, Genesis
from net.identity import Identity
from net.journal import Journal
from net.session import Session
from net.session.loopback import Loopback
from net.games import Table, table_for
from net.games.rider import cardset as rider_cardset

NONCE = bytes(range(16))


def identities(n: int, tag: str = "seat") -> list[Identity]:
    return [Identity.from_seed(digest("fairtable/test-identity", f"{tag}-{i}")) for i in range(n)]


def rider_decks() -> tuple[tuple[str, ...], tuple[str, ...]]:
    from assets import load_json
    from engine.rider.deck import deck_from_data, expand

    out = []
    for name in ("ember-rush", "tidewall-vigil"):
        _, _, counts = deck_from_data(load_json(f"rider/decks/{name}.deck.json"))
        out.append(expand(counts))
    return out[0], out[1]


def rider_genesis(ids: Sequence[Identity], decks: Sequence[Sequence[str]], **options: Any) -> Genesis:
    opts = {"deck_sizes": [len(d) for d in decks], **options}
    return Genesis("rider/1", "1", rider_cardset().digest(), tuple(i.public_key for i in ids), opts, (NONCE,) * len(ids))


Table_ = Loopback


def rider_table(*, shuffle_seed: int | None = None, seed: int = 7, bots: str = "greedy,random",
                journal_dir: Path | None = None, **options: Any) -> tuple[Table_, Genesis, Table]:
    ids = identities(2)
    decks = rider_decks()
    genesis = rider_genesis(ids, decks, **options)
    setup = table_for(genesis)
    sessions = []
    for seat, name in enumerate(bots.split(",")):
        rng = random.Random(seed * 10 + seat)
        agent = GreedyBot(rng, rider_score) if name == "greedy" else RandomBot(rng)
        journal = Journal(journal_dir / f"seat{seat}") if journal_dir is not None else None
        sessions.append(Session(genesis, setup.game, setup.state, plan=setup.plan, identity=ids[seat],
                                seat=seat, deck=decks[seat], agent=agent, journal=journal))
    return Table_(sessions, shuffle_seed), genesis, setup


def tiny_table(seats: int, *, shuffle_seed: int | None = None, seed: int = 3,
               dice: str = DICE_VRF) -> tuple[Table_, Genesis]:
    """``dice``: the genesis record's dice protocol (DICE_COMMIT_REVEAL plays as records before issue 26)."""
    from engine.tiny.game import RULES_ID, card_set_hash

    ids = identities(seats, tag="tiny")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids), {}, (NONCE,) * len(ids),
                      dice=dice)
    table = table_for(genesis)
    sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                        agent=RandomBot(random.Random(seed * 100 + s))) for s in range(seats)]
    return Table_(sessions, shuffle_seed), genesis

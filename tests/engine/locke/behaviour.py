"""A record of what Locke's engine *does*, kept so a rebuild of its insides can show it
changed nothing a player sees (issue 24's acceptance).

Two records live in tests/engine/locke/fixtures/:

- ``games.json.gz``: every game of the 300-game coverage run (random bots, 5-10 seats
  x 50 seeds, tests/engine/locke/three_hundred.py) and 30 heuristic-bot games, each
  with its public event log line by line, how many inputs it took, a digest of those
  inputs and its outcome (winners, grades, ending);
- ``traces.json``: for every test under tests/engine/locke, a digest of the public
  events and outcomes its games produced (tests/engine/locke/conftest.py wraps the
  engine's ``apply`` to collect them).

State hashes are deliberately not recorded: the step encoding is part of the hashed
state and may change while behaviour does not.

Re-record only for an intended change of behaviour, and say why in the commit:

    python -m tests.engine.locke.behaviour games      # rewrite games.json.gz
    FAIRTABLE_LOCKE_TRACE=record python -m pytest tests/engine/locke -n 0 -q
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.core.encoding import encode
from engine.core.hashing import digest
from net.local_table import LocalTable

FIXTURES = Path(__file__).parent / "fixtures"
GAMES = FIXTURES / "games.json.gz"
TRACES = Path(os.environ.get("FAIRTABLE_LOCKE_TRACES", FIXTURES / "traces.json"))
TRACE_DOMAIN = "fairtable/tests/locke-trace/v1"
INPUTS_DOMAIN = "fairtable/tests/locke-inputs/v1"

#: heuristic-bot games recorded beside the random-bot run (seats x seeds)
HEURISTIC_SEEDS = range(5)

_paused = 0


@contextlib.contextmanager
def untraced() -> Iterator[None]:
    """Games played inside are left out of the running test's trace (the shared 300 games
    are recorded whole in games.json.gz, whichever test happens to play them first)."""
    global _paused
    _paused += 1
    try:
        yield
    finally:
        _paused -= 1


def tracing() -> bool:
    return _paused == 0


def jsonable(value: Any) -> Any:
    """Events hold tuples, lists, ints, text and bools; JSON keeps them as lists."""
    return json.loads(json.dumps(value, default=_canonical))


def _canonical(value: Any) -> Any:
    canonical = getattr(value, "__canonical__", None)
    if canonical is None:
        raise TypeError(f"cannot record {value!r}")
    return canonical()


def game_record(kind: str, players: int, seed: int, table: LocalTable) -> dict[str, Any]:
    """What a finished game showed the table: its event log, inputs and outcome."""
    outcome = table.outcome()
    inputs = [action.to_data() for action in table.log]
    return {
        "bots": kind,
        "players": players,
        "seed": seed,
        "inputs": len(inputs),
        "inputs_digest": digest(INPUTS_DOMAIN, inputs).hex(),
        "ending": table.state.ending,
        "outcome": None if outcome is None else jsonable(outcome.__canonical__()),
        "events": [jsonable(list(event)) for event in table.state.events],
    }


def heuristic_table(players: int, seed: int) -> LocalTable:
    """A seeded game of heuristic bots (net/games/locke/heuristic.py), as the benchmarks play."""
    from net.games.locke.heuristic import LockeHeuristicBot
    from tests.engine.locke.flow_helpers import game

    g = game()
    state, knowledge = g.new_game(players)
    agents = [LockeHeuristicBot(random.Random(f"{seed}/heuristic/{seat}")) for seat in range(players)]
    return LocalTable(g, state, knowledge, agents, seed)


def heuristic_games() -> list[dict[str, Any]]:
    records = []
    for players in range(5, 11):
        for seed in HEURISTIC_SEEDS:
            table = heuristic_table(players, seed)
            table.run(400_000)
            records.append(game_record("heuristic", players, seed, table))
    return records


def all_games() -> list[dict[str, Any]]:
    from tests.engine.locke.three_hundred import played_games

    records = [game_record("random", g.players, g.seed, g.table) for g in played_games()]
    return records + heuristic_games()


def write_games() -> None:
    FIXTURES.mkdir(exist_ok=True)
    data = json.dumps(all_games(), separators=(",", ":"), sort_keys=True).encode()
    with open(GAMES, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        out.write(data)


def recorded_games() -> list[dict[str, Any]]:
    with gzip.open(GAMES, "rb") as data:
        records: list[dict[str, Any]] = json.loads(data.read())
    return records


def trace_digest(trace: list[Any]) -> str:
    return digest(TRACE_DOMAIN, encode(jsonable(trace))).hex()


if __name__ == "__main__":
    if sys.argv[1:] != ["games"]:
        sys.exit("usage: python -m tests.engine.locke.behaviour games")
    write_games()
    print(f"wrote {GAMES}")

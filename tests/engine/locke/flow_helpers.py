"""Shared helpers for the Locke flow tests: the game, positions on a trusted
LocalTable, and stepping with given dice (so every rule test picks its rolls)."""

from __future__ import annotations

import random
from typing import Any

from engine.core.actions import SYSTEM, Action
from engine.core.pending import Chance, Decision, DiceRolled, SealedChoice
from engine.locke.game import LockeGame
from engine.locke.position import position_state
from net.games.locke.random_bot import LockeRandomBot
from net.local_table import LocalTable
from net.seam import place_all
from net.games.locke import components as locke_components

_GAME: LockeGame | None = None


def game() -> LockeGame:
    global _GAME
    if _GAME is None:
        _GAME = LockeGame(locke_components())
    return _GAME


def table_at(position: dict[str, Any], seed: int = 0) -> LocalTable:
    """A LocalTable (no agents) at ``position``; hidden operations are answered as they come."""
    g = game()
    state, knowledge, truth = position_state(g, position)
    table = LocalTable(g, state, knowledge, [None] * len(knowledge), seed, truth=truth)
    settle(table)
    return table


#: The combat's party questions (KMC 10.3.1 (3), 10.3.4; engine/locke/combat/talks.py).
TALKS = ("locke.cb_party", "locke.cb_leave")
#: The undeclared henchmen's sync question every seat's attack and escape get (KMC 10.3.1 note 2).
HENCH_MORE = "locke.cb_hench_more"


def settle(table: LocalTable) -> None:
    """Answer hidden-card operations and placements until a decision, dice or the end.

    A combat's party questions are declined (Nop) here, so a scenario about something else
    is not interrupted by an invitation it does not care about; a test of the party talks
    sets ``table.talks = True`` and answers them itself. So are the undeclared henchmen's syncs
    (``table.henchmen = True`` leaves them to the test)."""
    from engine.locke.actions import Nop

    while table.pending is not None:
        pending = table.pending
        if isinstance(pending, Decision) and pending.prompt in TALKS and not getattr(table, "talks", False):
            table.feed(Nop(pending.seat))
            continue
        if isinstance(pending, Decision) and pending.prompt == HENCH_MORE and not getattr(table, "henchmen", False):
            table.feed(Nop(pending.seat))
            continue
        if isinstance(pending, (Decision, Chance, SealedChoice)):
            return
        if table.step() is None:
            return


def act(table: LocalTable, action: Action) -> None:
    table.feed(action)
    settle(table)


def roll(table: LocalTable, *faces: int) -> None:
    pending = table.pending
    assert isinstance(pending, Chance), f"expected dice, the game waits for {pending!r}"
    act(table, DiceRolled(SYSTEM, pending.purpose, tuple(faces)))


def waiting(table: LocalTable) -> tuple[str, int]:
    pending = table.pending
    assert isinstance(pending, Decision), f"expected a decision, the game waits for {pending!r}"
    return pending.prompt, pending.seat


def decline_joins(table: LocalTable) -> None:
    """Answer no to every actually-there / actually-alive offer made as a combat starts (seed 002)."""
    from engine.locke.actions import TryRevive

    while isinstance(table.pending, Decision) and table.pending.prompt == "locke.try_revive":
        act(table, TryRevive(table.pending.seat, False))


def bot_table(players: int, seed: int, *, hashes: bool = False) -> LocalTable:
    g = game()
    state, knowledge = g.new_game(players)
    agents = [LockeRandomBot(random.Random(f"{seed}/bot/{seat}")) for seat in range(players)]
    return LocalTable(g, state, knowledge, agents, seed, record_hashes=hashes)


def seat(character: str, silhouette: str, place: str = "", **extra: Any) -> dict[str, Any]:
    return {"character": character, "silhouette": silhouette, "place": place, **extra}


def five(**overrides: Any) -> list[dict[str, Any]]:
    """Five seats: 0 Locke-1 (Locke face), 1 Riot (Evil face, base player), 2 Nia, 3 Yamaki-1, 4 Elmi."""
    seats = [
        seat("locke-1", "locke", "P:1:0"),
        seat("riot", "riot"),
        seat("nia", "nia", "P:2:0"),
        seat("yamaki-1", "adel", "P:3:0"),
        seat("elmi", "elmi", "P:4:0"),
    ]
    for key, value in overrides.items():
        index = int(key[1:])
        seats[index] = {**seats[index], **value}
    return seats


KEYS = {"B:1:2": "command-room", "B:3:3": "laboratory", "B:5:5": "computer-room", "B:6:6": "energy-room"}


def place(table: LocalTable, arrangement: dict[str, str] | None = None) -> None:
    """Make the pending hidden placement (the key bases by default) and go on."""
    from engine.core.pending import Placement

    pending = table.pending
    assert isinstance(pending, Placement) and pending.op == "place", f"no placement pending: {pending!r}"
    place_all(table, pending.seat, arrangement or KEYS)
    settle(table)

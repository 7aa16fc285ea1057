"""The client's side of a local Rider table: one human seat, one bot seat.

:class:`RiderSession` is the table layer's local adapter
(:class:`client.table.local.LocalSession`) with Rider's set-up: two decks,
one bot, and the registry's set-up record (the card set and both decks) for the transcript.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from client.table.local import LocalSession
from client.table.session import BOT_DELAY, SYSTEM_DELAY
from engine.rider.deck import deck_from_data, expand
from engine.rider.game import RiderGame
from engine.rider.state import RiderState
from net.games.rider import ENTRY as rider_entry


def make_bot(kind: str, rng: random.Random) -> Any:
    from net.games import game_named

    return game_named("rider").bot(kind, rng)


class RiderSession(LocalSession[RiderState]):
    """A local Rider table: the user's deck against one bot's, seat ``me`` played by the user."""

    transcript_name = "rider-{stamp}-{seed}.ft"

    def __init__(self, game: RiderGame, decks: tuple[tuple[str, ...], tuple[str, ...]], *, me: int = 0,
                 names: tuple[str, str] = ("Player", "Bot"), bot: str = "greedy", seed: int | None = None,
                 clock: Any = None, bot_delay: float = BOT_DELAY, system_delay: float = SYSTEM_DELAY) -> None:
        self.decks = decks
        seed = secrets.randbits(63) if seed is None else seed
        state, knowledge = game.new_game(decks)
        bots: list[Any] = [None, None]
        bots[1 - me] = make_bot(bot, random.Random(seed ^ 0x5EED))
        setup = rider_entry.local_record(2, decks, game.cardset)  # the card set and both decks
        super().__init__(game, state, knowledge, setup=setup, me=me, names=names, bots=bots, seed=seed,
                         clock=clock, bot_delay=bot_delay, system_delay=system_delay)


def deck_cards(deck_data: Any) -> tuple[str, ...]:
    """Card ids of a deck file, one per copy."""
    _, _, counts = deck_from_data(deck_data)
    return tuple(expand(counts))

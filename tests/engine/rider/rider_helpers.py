"""Helpers for Rider engine tests: a synthetic card set and a position driver.

The synthetic set (scenarios/testset.json) has one card per effect and
placement type with round numbers, so every rule test controls exactly which
cards are in play. Positions are built with engine.rider.position and driven
by a LocalTable without agents: hidden-card requests are answered from the
full truth, decisions come from the test.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from engine.core import Action, hash_of
from engine.rider.cards import CardSet, cardset_from_data
from engine.rider.game import RiderGame
from engine.rider.position import position_state
from engine.rider.state import RiderState
from net.local_table import LocalTable

SCENARIOS = Path(__file__).parent / "scenarios"
TESTSET = SCENARIOS / "testset.json"

#: A legal 24-card deck of the test set (4 Lv.1, 4 Lv.4, at most 2 copies, 3 for E-copies).
TEST_DECK = (
    ("F1", 1), ("F1b", 1), ("T1", 1), ("S1", 1), ("F4", 2), ("T4", 2), ("F2", 2), ("F23", 2), ("F3", 2),
    ("T2", 2), ("T3", 2), ("X2", 2), ("E-copies", 3), ("E-draw", 1),
)


def deck_list(pairs: tuple[tuple[str, int], ...] = TEST_DECK) -> tuple[str, ...]:
    return tuple(cid for cid, n in pairs for _ in range(n))


@cache
def synthetic_cardset() -> CardSet:
    return cardset_from_data(json.loads(TESTSET.read_text(encoding="utf-8")))


@cache
def synthetic_game() -> RiderGame:
    return RiderGame(synthetic_cardset())


def col(*cards: Any, zero: str | None = None) -> dict[str, Any]:
    """A face-up column: card ids (levels inferred) or [id, level] pairs."""
    data: dict[str, Any] = {"cards": [list(c) if isinstance(c, tuple) else c for c in cards]}
    if zero is not None:
        data["zero"] = zero
    return data


def down(card: str = "F1") -> dict[str, Any]:
    return {"facedown": card}


def empty(zero: str | None = None) -> dict[str, Any]:
    return {"zero": zero} if zero else {}


def seat(columns: list[dict[str, Any]] | None = None, hand: tuple[str, ...] = (), deck: tuple[str, ...] = (),
         discard: tuple[str, ...] = (), lost: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "columns": columns if columns is not None else [col("F1"), col("T1"), col("S1")],
        "hand": list(hand), "deck": list(deck), "discard": list(discard), "lost": list(lost),
    }


class Pos:
    """A position under test: apply decisions, hidden-card answers come automatically."""

    def __init__(self, s0: dict[str, Any], s1: dict[str, Any], *, phase: str = "main", active: int = 0,
                 turn: int = 1, attacks: list[int] | None = None, game: RiderGame | None = None,
                 auto: bool = True) -> None:
        self.game = game or synthetic_game()
        data = {"seats": [s0, s1], "phase": phase, "active": active, "turn": turn, "attacks": attacks or [0, 0, 0]}
        state, knowledge, truth = position_state(self.game, data)
        self.table = LocalTable(self.game, state, knowledge, [None, None], seed=0, truth=truth)
        if auto:  # answer hidden-card requests until a decision is due
            self.table.run()

    @property
    def state(self) -> RiderState:
        return self.table.state

    @property
    def hash(self) -> bytes:
        return hash_of(self.game, self.state)

    def hand(self, seat: int, card: str) -> int:
        """The handle of ``card`` in ``seat``'s hand."""
        for h in self.state.players[seat].hand:
            if self.table.truth.get(h) == card:
                return h
        raise AssertionError(f"{card} not in hand of seat {seat}")

    def hand_cards(self, seat: int) -> list[str]:
        return [self.table.truth[h] for h in self.state.players[seat].hand]

    def do(self, action: Action) -> RiderState:
        """Apply ``action`` then answer hidden-card requests until a decision is due."""
        self.table.feed(action)
        self.table.run()
        return self.state

    def legal(self, seat: int) -> list[Action]:
        return self.table.legal(seat)

    def column(self, seat: int, letter: str) -> Any:
        return self.state.players[seat].columns["ABC".index(letter)]


def random_deck(cardset: CardSet, rng: Any) -> tuple[str, ...]:
    """A random deck that passes the deck rules (so random play meets every card type)."""
    from engine.rider.deck import check_deck

    cards = list(cardset.cards.values())
    for _ in range(200):
        lv1 = [c.id for c in cards if c.levels == (1,)]
        lv4 = [c.id for c in cards if c.levels == (4,)]
        deck = rng.sample(lv1, 4) if len(lv1) >= 4 else []
        deck += [rng.choice(lv4) for _ in range(4)]
        others = [c for c in cards if c.levels not in ((1,), (4,))]
        zero_done = special_done = False
        while len(deck) < 24:
            card = rng.choice(others)
            if card.levels == (0,):
                if zero_done:
                    continue
                zero_done = True
            if card.special_placement is not None:
                if special_done:
                    continue
                special_done = True
            deck.append(card.id)
        counts: dict[str, int] = {}
        for cid in deck:
            counts[cid] = counts.get(cid, 0) + 1
        if not check_deck(cardset, counts):
            return tuple(deck)
    raise AssertionError("could not build a legal random deck")

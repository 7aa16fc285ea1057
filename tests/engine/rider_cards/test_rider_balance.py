"""The two shipped decks are roughly even between equal players.

Greedy bot against greedy bot over fixed seeds, each deck once in each seat
(so the first-seat edge cancels out). Balance is a design goal, not a rule:
the bar is that neither deck wins more than 70% (docs/rules/rider-decks.md,
"Balance"). The seeds are fixed, so the figure is exact and repeatable.
"""

from __future__ import annotations

import pytest

import random

import assets
from engine.rider.cards import cardset_from_data
from engine.rider.deck import deck_from_data, expand
from engine.rider.game import RiderGame
from net.bots import GreedyBot
from net.games.rider.evaluation import rider_score
from net.local_table import LocalTable

SEEDS = range(60)
MAX_SHARE_PERCENT = 70


def _deck(name: str) -> tuple[str, ...]:
    return expand(deck_from_data(assets.load_json(f"rider/decks/{name}.deck.json"))[2])


@pytest.mark.slow
def test_shipped_decks_are_balanced_between_greedy_bots() -> None:
    game = RiderGame(cardset_from_data(assets.load_json("rider/cardset.json")))
    ember, tide = _deck("ember-rush"), _deck("tidewall-vigil")
    wins = {"ember": 0, "tide": 0, "draw": 0}
    for seed in SEEDS:
        for decks, names in (((ember, tide), ("ember", "tide")), ((tide, ember), ("tide", "ember"))):
            state, knowledge = game.new_game(decks)
            bots = [GreedyBot(random.Random(seed * 2), rider_score), GreedyBot(random.Random(seed * 2 + 1), rider_score)]
            table = LocalTable(game, state, knowledge, bots, seed, record_hashes=False)
            outcome = table.run()
            assert outcome is not None
            wins["draw" if outcome.winner is None else names[outcome.winner]] += 1
    games = 2 * len(SEEDS)
    assert max(wins["ember"], wins["tide"]) * 100 <= MAX_SHARE_PERCENT * games, wins

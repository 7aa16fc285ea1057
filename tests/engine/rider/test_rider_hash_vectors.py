"""Pinned state-hash vectors: a change to the public-state layout, the encoding
or the rules' outcome of a seeded game must be deliberate (and bump the rules id)."""

from __future__ import annotations

import random

from rider_helpers import deck_list, synthetic_game

from engine.core import encode, hash_of
from net.bots import RandomBot
from net.local_table import LocalTable

TINY_INITIAL = (
    b"ds6:activei0es7:attacksli0ei0ei0ees5:marksls0:s0:es11:next_handlei3es10:open_cardsles7:playersl"
    b"ds7:columnslds5:cardsles8:facedownNs4:zeroNeds5:cardsles8:facedownNs4:zeroNeds5:cardsles8:facedownNs4:zeroNees"
    b"4:deckli0ei1ees7:discardles4:handles4:lostlee"
    b"ds7:columnslds5:cardsles8:facedownNs4:zeroNeds5:cardsles8:facedownNs4:zeroNeds5:cardsles8:facedownNs4:zeroNees"
    b"4:deckli2ees7:discardles4:handles4:lostleee"
    b"s5:queuells5:setupi0ei0es0:els5:setupi1ei0es0:els7:shufflei0ei0es0:els7:shufflei1ei0es0:el"
    b"s4:deali0ei5es0:els4:deali1ei5es0:els4:marki-1ei0es0:ee"
    b"s6:reasons0:s5:ruless7:rider/1s4:turni0es6:winnerNe"
)


def test_initial_public_state_encoding_is_pinned() -> None:
    game = synthetic_game()
    assert encode(game.public(game.initial_state([2, 1]))) == TINY_INITIAL
    assert hash_of(game, game.initial_state([24, 24])).hex() == (
        "3225e294787d0db3cc233037f541976be786a7ae1d9c4f0a072637016fe7e7fe"
    )


def test_seeded_random_game_final_hash_is_pinned() -> None:
    game = synthetic_game()
    state, knowledge = game.new_game([deck_list(), deck_list()])
    table = LocalTable(game, state, knowledge, [RandomBot(random.Random(1)), RandomBot(random.Random(2))], seed=3)
    outcome = table.run()
    assert outcome is not None and outcome.winner == 0 and len(table.log) == 103
    assert hash_of(game, table.state).hex() == "e9411a4f19f02ebb347fc8b5d1dcdb042eab272e46ae496527c4fc9eaccca36a"

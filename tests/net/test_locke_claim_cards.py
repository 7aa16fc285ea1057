"""Which Locke claims are proven at their step card by card (net/games/locke/claim_cards.py, issue 31).

A claim may be proven one card at a time only when it holds exactly when each card alone makes Locke's
own judgement true. These tests check the classification against that judgement itself, on the
shipped components: for a per-card kind, the claim about several cards holds exactly when it holds of
each card alone; the kinds that wait for the audit are not classified per card.
"""

from __future__ import annotations

import itertools

from engine.core.claims import Claim
from engine.locke import claims as kinds
from engine.locke.game import LockeGame
from net.games import game_named, table_for
from net.games.locke.claim_cards import PER_CARD, per_card


def _game() -> LockeGame:
    entry = game_named("locke")
    from tests.net.locke_net_runs import genesis

    game = table_for(genesis(5)[0]).game
    assert isinstance(game, LockeGame) and entry is not None
    return game


def test_a_claim_about_one_card_is_always_proven_card_by_card() -> None:
    for what in (kinds.STAT_NOW, kinds.HAS_ABILITY, kinds.KEEPS_ABILITY, "locke.cb.card", kinds.SHADOW):
        assert per_card(Claim(0, 3, what, (7,), None))


def test_claims_about_several_cards_wait_unless_they_say_the_same_of_each_card() -> None:
    for what in (kinds.SHADOW, kinds.INFO_BELOW_3, kinds.INFO_BELOW, kinds.LEON, kinds.STROHHEIM, "locke.cb.no_attack"):
        assert not per_card(Claim(0, 3, what, (7, 8), None))
    for what in PER_CARD:
        assert per_card(Claim(0, 3, what, (7, 8, 9), None))


def test_the_per_card_kinds_hold_of_several_cards_exactly_when_they_hold_of_each() -> None:
    game = _game()
    planets = sorted({p.id for p in game.components.planets})[:12]
    combat = sorted({c.id for c in game.components.combat_cards})[:12]
    cases = [(Claim(0, 3, kinds.NONE_OF, (1, 2), ["information", "clone"]), planets),
             (Claim(0, 3, kinds.NO_TELEPORT, (1, 2), None), combat)]
    seen_false = 0
    for claim, cards in cases:
        for pair in itertools.product(cards, repeat=2):
            whole = game.claim_holds(claim, pair)
            assert whole == all(game.claim_holds(claim, (c,)) for c in pair), (claim.what, pair)
            seen_false += not whole
    assert seen_false > 0  # the cases include false claims, so the equality is not trivially true

"""Decks and scripted seats that make Rider passes happen (tests of the hand audit).

Bots seldom pass, and the shuffles are truly random, so these tests build the
situation instead of hoping for it: a legal *tide trap* deck whose only
playable hand cards are six tide Lv.2 cards (its Lv.1 cards are tide and
stone; everything else is another attribute and can never be placed). Once
its three columns are face up such a seat passes whenever it holds no tide
Lv.2 card, and always once the tide columns reached Lv.2.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.rider.actions import LevelUp, OpenColumn, Pass, Renew, SetUp
from engine.rider.deck import check_deck
from net.bots.greedy import GreedyBot
from net.games.rider.evaluation import rider_score
from net.games.rider import cardset as rider_cardset

OTHER = ("flame", "gale", "spark")


def _is_tide_lv2(game: Any, card: str) -> bool:
    info = game.table[card]
    return info.attribute == "tide" and 2 in info.levels and not info.lv1


def tide_trap_deck(game: Any) -> tuple[str, ...]:
    """3 tide Lv.1 + 1 stone Lv.1, six tide Lv.2, and 14 cards of other attributes."""
    table = game.table
    ids = sorted(table)

    def pick(pred: Any, n: int) -> list[str]:
        out: list[str] = []
        for cid in ids:
            if pred(table[cid]) and not table[cid].any_attribute and not table[cid].skip_from \
                    and table[cid].min_lost < 0:
                out.extend([cid] * min(2, n - len(out)))
            if len(out) == n:
                return out
        raise AssertionError("the card set lacks cards for the tide trap deck")

    deck = (pick(lambda i: i.lv1 and i.attribute == "tide", 3)
            + pick(lambda i: i.lv1 and i.attribute == "stone", 1)
            + pick(lambda i: not i.lv1 and i.attribute == "tide" and 2 in i.levels and 4 not in i.levels, 6)
            + pick(lambda i: i.attribute in OTHER and i.levels == (4,), 4)
            + pick(lambda i: i.attribute in OTHER and not i.lv1 and 4 not in i.levels and not i.lv0, 10))
    counts: dict[str, int] = {}
    for cid in deck:
        counts[cid] = counts.get(cid, 0) + 1
    problems = check_deck(rider_cardset(), counts)
    assert not problems, problems
    return tuple(deck)


class TideTrap:
    """Honest seat for the tide trap deck: tide Lv.1 cards face down, open
    columns discarding cards it can never play, otherwise a greedy bot."""

    def __init__(self, rng: random.Random) -> None:
        self.bot = GreedyBot(rng, rider_score)

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge, legal: Sequence[Action]) -> Action:
        if legal and isinstance(legal[0], SetUp):
            tide = [a for a in legal if isinstance(a, SetUp)
                    and all(game.table[str(knowledge.card(h))].attribute == "tide" for h in a.handles)]
            return tide[0] if tide else legal[0]
        opens = [a for a in legal if isinstance(a, OpenColumn) and not _is_tide_lv2(game, a.card)]
        if opens:
            return opens[0]
        return self.bot.choose(game, state, seat, knowledge, legal)


class IllegalPasser(TideTrap):
    """Passes once while holding a card it could play (rider.3), naming an
    unplayable card, which the engine accepts: it cannot see the hand."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.cheated: tuple[int, str] | None = None

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge, legal: Sequence[Action]) -> Action:
        player = state.players[seat]
        playable = {a.handle for a in legal if isinstance(a, (LevelUp, Renew))}
        if self.cheated is None and playable and all(c.facedown is None for c in player.columns):
            for h in player.hand:
                card = knowledge.card(h)
                if card is not None and h not in playable:
                    self.cheated = (h, card)
                    return Pass(seat, h, card)
        return super().choose(game, state, seat, knowledge, legal)

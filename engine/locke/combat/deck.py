"""The combat deck's hidden-card moves (KMC 10.3.1, 5; ruling N140).

Every combat card moves through the engine's hidden-card inputs: a seat's cards are
dealt to that seat alone (:class:`DealCards`), an obstacle's are turned face up for
everyone, since the automaton reads them (:class:`FaceUpCards`). Both take the top of
``DECK`` into fighter ``fighter``'s hand; the deck itself is shuffled by the driver.
The rounds (engine/locke/combat/flow.py), the slum (engine/locke/combat/turn_cards.py) and
the 300's volley (engine/locke/combat/volley.py) queue them.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.pending import CardsDealt, CardsRevealed, HiddenOp, Pending
from engine.locke.combat.common import fight_of, put, with_fighter
from engine.locke.combat.model import DECK, DISCARD
from engine.locke.setup import fresh_zone
from engine.locke.state import LockeState, advance, with_zone, zone_of
from engine.locke.steps import LockeStep, Rules, Waiting, answers


def gathered(g: Rules, s: LockeState) -> LockeState:
    """The whole deck at a combat's start (ruling N143: all 86 cards are shuffled): made on first
    use, and the base phase's spent pile put back into it (a loop or a vortex may have spent
    every card, which would leave nothing to shuffle or deal)."""
    if not any(name == DECK for name, _ in s.zones):
        s = fresh_zone(s, DECK, g.components.deck("combat_cards"))
    spent = zone_of(s, DISCARD)
    if spent:
        s = s._replace(zones=with_zone(s, DECK, zone_of(s, DECK) + spent))
        s = s._replace(zones=with_zone(s, DISCARD, ()))
    return s


def _take(s: LockeState, index: int, count: int, faces: tuple[str, ...]) -> LockeState:
    """The top ``count`` cards of the deck go into fighter ``index``'s hand (``faces``: what
    they are, for cards dealt face up)."""
    deck = zone_of(s, DECK)
    fight = fight_of(s)
    f = fight.fighters[index]
    f = f._replace(hand=f.hand + deck[:count], faces=f.faces + faces)
    s = s._replace(zones=with_zone(s, DECK, deck[count:]))
    return advance(put(s, with_fighter(fight, index, f)))


@dataclasses.dataclass(frozen=True)
class DealCards(Waiting):
    """``count`` cards dealt to ``seat`` alone, into the hand of its fighter ``fighter``."""

    KIND: ClassVar[str] = "cb_deal"
    seat: int
    fighter: int
    count: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", DECK, zone_of(s, DECK)[: self.count], to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        return _take(s, self.fighter, self.count, ())


@dataclasses.dataclass(frozen=True)
class FaceUpCards(Waiting):
    """``count`` cards turned face up into obstacle ``fighter``'s hand (ruling N140: an obstacle's
    combat cards are dealt face up, the automaton reads them)."""

    KIND: ClassVar[str] = "cb_faceup"
    fighter: int
    count: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", DECK, zone_of(s, DECK)[: self.count])

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        s = s._replace(open_cards=s.open_cards + tuple(zip(action.handles, action.cards)))
        return _take(s, self.fighter, self.count, tuple(action.cards))


#: the deck's step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (DealCards, FaceUpCards)

"""Which Locke claims can be proven at their step, card by card.

The networked session proves a claim at its step when it holds exactly when
each card it is about, alone, makes Locke's own judgement
(``LockeGame.claim_holds``, the one the audit uses) true: then the cards that
make it true of a hidden card are computed by every peer from the claim and
the cards that handle may hold (net/session/claim_steps.py), and the claiming
seat proves its card is one of them (net/poker/claim_proofs.py).

Which claims fit (:func:`per_card`):

- a claim about one card: every kind (stats, facts, abilities, a kept planet
  card's kind or level, a combat card played, ...);
- a claim about several cards that says the same of each card
  (:data:`PER_CARD`: none of the kept cards has such an effect, none of the
  dealt combat cards is a teleport): one proof per card, all required.

The rest waits for the audit: the shadow roll (die and character together),
counts of information cards among several cards, "no card of my hand can
attack" (hand and character together), and the end-game claims about other
seats' characters (Lord Leon, Strohheim), which the claiming seat cannot
prove since it does not hold those cards.
"""

from __future__ import annotations

from engine.core.claims import Claim
from engine.locke import claims as kinds

#: Claims about several cards that hold exactly when each card alone makes them hold.
PER_CARD = frozenset({kinds.NONE_OF, kinds.NO_TELEPORT})


def per_card(claim: Claim) -> bool:
    """The table plan's ``claim_per_card`` (net/session/plan.py) for Locke."""
    return len(claim.about) == 1 or claim.what in PER_CARD

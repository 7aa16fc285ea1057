"""Which Locke claims can be proven at their step, and the cards that make each true.

The networked session proves a claim at its step when it holds exactly when
each card it is about is one of a set of cards every peer can compute
(net/session/claim_steps.py, net/poker/claim_proofs.py). For Locke that set
is read off the engine's own judgement (``LockeGame.claim_holds``, the one
the audit uses): every card id of the card's family (characters, dice,
planet cards, combat cards, as the card started in the public start cards)
for which the claim holds of that card alone.

Which claims fit:

- a claim about one card: every kind (stats, facts, abilities, a kept planet
  card's kind or level, a combat card played, ...);
- a claim about several cards that says the same of each card
  (:data:`PER_CARD`: none of the kept cards has such an effect, none of the
  dealt combat cards is a teleport): one proof per card, all required;
- the rest waits for the audit: the shadow roll (die and character together),
  counts of information cards, "no card of my hand can attack", and the end-game
  claims about other seats' characters (Lord Leon, Strohheim), which the
  claiming seat cannot prove since it does not hold those cards.

Only public data is read: the claim, the start cards and the components.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.core.claims import Claim
from engine.core.errors import EngineError
from engine.locke import claims as kinds
from engine.locke.components import ComponentSet
from engine.locke.game import LockeGame

#: Claims about several cards that hold exactly when each card alone makes them hold.
PER_CARD = frozenset({kinds.NONE_OF, kinds.NO_TELEPORT})


def family(components: ComponentSet) -> Callable[[str], str]:
    """Card id -> the family of cards a hidden card of that id is shuffled among."""
    characters = {c.id for c in components.characters}
    planets = {p.id for p in components.planets}
    combat = {c.id for c in components.combat_cards}

    def of(card: str) -> str:
        if card in characters:
            return "character"
        if card in kinds.DIE_CARDS:
            return "die"
        if card in planets:
            return "planet"
        if card in combat:
            return "combat"
        return "other"

    return of


def claim_cards(game: LockeGame) -> Callable[[Claim, int, Mapping[int, str]], tuple[str, ...] | None]:
    """The table plan's ``claim_cards`` for ``game`` (net/session/plan.py)."""
    of = family(game.components)
    universes: dict[tuple[str, int], tuple[str, ...]] = {}

    def universe(start: Mapping[int, str], name: str) -> tuple[str, ...]:
        key = (name, len(start))
        if key not in universes:
            universes[key] = tuple(sorted({card for card in start.values() if of(card) == name}))
        return universes[key]

    def cards(claim: Claim, handle: int, start: Mapping[int, str]) -> tuple[str, ...] | None:
        if len(claim.about) != 1 and claim.what not in PER_CARD:
            return None
        first = start.get(handle)
        if first is None or of(first) == "other":
            return None
        return tuple(card for card in universe(start, of(first)) if _holds(game, claim, card))

    return cards


def _holds(game: LockeGame, claim: Claim, card: str) -> bool:
    """Whether the claim holds of ``card`` alone (a card of another kind than the claim reads: no)."""
    try:
        return bool(game.claim_holds(claim, (card,)))
    except (EngineError, KeyError, ValueError, TypeError, IndexError):
        return False

"""Items in combat (KMC 2.3, 10.3.2, 10.4.2, 10.7; seed 000 3.1): what the effect families share.

Each use of a character's item is a claim that the character card carries it (the card is
secret until the end, :func:`claim_item`); the numbers are the card's own
(assets/locke/characters.json). The same code serves the kept planet cards used as items
(engine/locke/combat/kept.py). This module holds only the item tables and that claim, so every
family module can import them without importing one another; each family is its own module:

- equip.py - declarations before the first initiative and after a true self, hand trims (KMC 10.3.2, 11.4);
- jammer.py - a player's ESP jammer of hidden level (KMC 10.10);
- nike.py - Nike's check and attack, and residual thoughts' syncs (KMC 2.3.2, 10.8.2);
- specials.py - an item used on one's own turn, dispatched to its family, and the special
  attacks: ship, beam cannon, geoid bomb (KMC 10.4.2);
- escapes.py - escapes and defences by item, the rolled items (KMC 10.7.2-3, seed 000 3.1.3);
- ball.py - the energy absorb ball (seed 000 3.1.3);
- turn_cards.py - the slum, the ESP controller and the industrial district, the turn going on,
  waking up and the combat's end (seed 000 3.1.3, 3.2.4; KMC 10.4);
- suits.py - what a hit meets before the body: the ball, Nike, the suits (KMC 2.3.2).

The decisions that take these answers are engine/locke/combat/path.py's.
"""

from __future__ import annotations

from engine.locke import claims as ck
from engine.locke import kit
from engine.locke.combat import claims as cc
from engine.locke.state import LockeState, claimed

#: The special attacks (KMC 10.4.2), the items that escape (KMC 10.7.2) and that defend (KMC 10.7.3).
SPECIALS = cc.SPECIALS
ESCAPES = ("lafnor-mirror", "subspace-field")
DEFENCES = ("psycho-pod",)
#: The planet cards that give a special attack (seed 000 3.1.1, 3.1.3) and the turn's other card uses.
PLANET_SPECIAL = {"ship": "cruiser", "geoid-bomb": "geoid-bomb"}
TURN_CARDS = ("slum", "esp-controller")
PLANET_ESCAPES = {"lafnor-mirror": "lafnor-mirror", "subspace-field": "subspace-field"}
PLANET_DEFENCES = {"absorb-ball": "absorb-ball"}
#: Dice of the items that roll to work (their success and knock-out numbers are the items' own constants).
DICE = {"lafnor-mirror": (6,), "subspace-field": (6, 6), "psycho-pod": (6,), "geoid-bomb": (6, 6)}
#: The most henchmen one declaration may bring (KMC 10.3.2).
MAX_HENCHMEN = 9


def claim_item(s: LockeState, seat: int, item: str, count: int = 1) -> LockeState:
    """The claim that the seat's character card carries ``count`` of ``item`` (KMC 2.3): every
    use of a character's item is one, judged when the card opens. What Hijiri's whim gave is on
    the public ledger (engine/locke/kit.py, N275): it is counted off, and a use it covers alone
    claims nothing (the card is not asked for what it need not carry)."""
    public = kit.public_items(s.seats[seat].mods)
    if item == "specials":  # the count-th special kind of a round: the whim's kinds are public ones
        count -= sum(1 for kind in SPECIALS if kind in public)
    else:
        count -= sum(1 for x in public if x == item)
    if count <= 0:
        return s
    claim = ck.make(seat, s.step_no, cc.ITEM, (s.seats[seat].character,), [item, count], "locke.2.3")
    return s._replace(**claimed(s, claim))

"""The claims a seat makes in a combat and how each is judged (KMC 10, 5).

A played card, the ESP level and power it draws on, a declared durability
and "I stay awake" under an illusion are declarations about hidden cards.
Each is logged as an engine.core Claim and judged here once the cards open
(engine/locke/claims.py dispatches the ``locke.cb.`` kinds to :func:`holds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.claims import Claim
from engine.locke import stats
from engine.locke.combat.common import grant_int, henchmen_of, item_level
from engine.locke.components import ComponentSet

CARD = "locke.cb.card"  # the handle holds this combat card (KMC 5)
USE = "locke.cb.use"  # own ESP level and power left cover the level used (KMC 10.5.1-2)
AWAKE = "locke.cb.awake"  # level + mind reach the illusion's total (KMC 5.3.2, table 5.4)
TELEPATHY = "locke.cb.telepathy_level"  # the level declared for the contact telepathy check (KMC 5.4)

ITEM = "locke.cb.item"  # the character card carries this item (count: henchmen) (KMC 2.3)
FIELD = "locke.cb.field"  # the character's ESP field reaches this level (KMC 2.3.2)
PSUIT = "locke.cb.psuit"  # [attack level, absorbed]: the P-suit's level reaches it, or not (KMC 2.3.2)

JAMMER = "locke.cb.jammer"  # the character's ESP jammer reaches this level (KMC 10.10)
NIKE = "locke.cb.nike"  # the Nike check's value is within the card's (KMC 2.3.2)

BROKEN = "locke.cb.broken"  # [item, source, attack level, broken]: the item's level is below it, or not (KMC 10.7.3)

PLANET = "locke.cb.planet"  # the kept planet card holds this card, or a wildcard (seed 000 3.1, 3.1.5)
NO_ATTACK = "locke.cb.no_attack"  # [floor, spent, mods, proofs]: no card of the hand can attack (ordered, N212)

KINDS = (CARD, USE, AWAKE, TELEPATHY, ITEM, FIELD, PSUIT, JAMMER, NIKE, PLANET, NO_ATTACK, BROKEN)



#: Kinds about the character's stats: their value is ``[declared, mods, proofs]``, the public
#: ledger of changes (engine/locke/stats.py) at the time of the claim, so the judge reads the
#: stats the character had then (ruling N100).
STAT_KINDS = (USE, AWAKE, TELEPATHY)


def stat_value(mods: Sequence[Sequence[object]], proofs: int, declared: Any) -> list[Any]:
    """The value of a :data:`STAT_KINDS` claim made against this ledger."""
    return [declared, [list(m) for m in mods], proofs]


def holds(components: ComponentSet, claim: Claim, contents: tuple[str, ...]) -> bool:
    what, value = claim.what, claim.value
    if what == CARD:
        return bool(contents[0] == value)
    if what == BROKEN:  # over any source of the item (engine/locke/combat/breakage.py)
        from engine.locke.combat import breakage

        return breakage.holds(components, value, contents)
    if what == PLANET:
        return contents[0] in (value, "wildcard")
    if what == NO_ATTACK:
        return not can_attack(components, contents[:-1], components.character(contents[-1]), value)
    character = components.character(contents[0])
    if what in STAT_KINDS:
        value, mods, proofs = value
        character = stats.now(character, mods, int(proofs))
    if what == USE:
        level, spent = value
        return bool(character.level >= level and character.power - spent >= level)
    if what == AWAKE:
        return bool(character.level + character.mind >= int(value))
    if what == TELEPATHY:
        return bool(character.level >= int(value))
    if what == ITEM:
        item, count = value
        grants = character.items_of(item)
        if item == "henchman":
            return henchmen_of(character) >= int(count)
        return bool(grants)
    if what == FIELD:
        return item_level(character, "esp-field") >= int(value)
    if what == JAMMER:
        return item_level(character, "esp-jammer") >= int(value)
    if what == NIKE:
        return any(grant_int(g, "check_max", character.mind) >= int(value) for g in character.items_of("nike"))
    if what == PSUIT:
        level, absorbed = value
        return (item_level(character, "powered-suit") >= int(level)) == bool(absorbed)
    raise ValueError(f"unknown combat claim kind {what!r}")



def can_attack(components: ComponentSet, cards: Sequence[str], character: Any, value: Sequence[Any]) -> bool:
    """Could one of ``cards`` be played as an attack (KMC 10.4.1): an attack card (or the wildcard)
    above the jammer floor, paid by level and power or stretched by a mind of 2 or more (KMC 10.5)."""
    floor, spent, mods, proofs = value
    now = stats.now(character, mods, int(proofs))
    usable = max(0, min(now.level, now.power - int(spent)))
    for cid in cards:
        card = components.combat_card(cid)
        if card.id == "combat-wildcard":
            if int(floor) < 7:
                return True
            continue
        if card.type == "attack" and card.level > int(floor) and (card.level <= usable or now.mind >= 2):
            return True
    return False

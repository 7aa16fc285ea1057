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
from engine.locke.combat.model import CARD_SUITS, SUIT, SUITS
from engine.locke.components import ComponentError, ComponentSet, kind_of

CARD = "locke.cb.card"  # the handle holds this combat card (KMC 5)
USE = "locke.cb.use"  # own ESP level and power left cover the level used (KMC 10.5.1-2)
#: [own, spent]: a stretched play's own part is exactly what level and power left allow (KMC 10.5.1:
#: mind checks make up only the shortfall, so nobody stretches past its own level to save power)
STRETCH = "locke.cb.stretch"
AWAKE = "locke.cb.awake"  # level + mind reach the illusion's total (KMC 5.3.2, table 5.4)
TELEPATHY = "locke.cb.telepathy_level"  # the level declared for the contact telepathy check (KMC 5.4)

ITEM = "locke.cb.item"  # the character card carries this item (count: henchmen; "suit": some suit, N225) (KMC 2.3)
FIELD = "locke.cb.field"  # the ESP field (character's or card's) reaches this level (KMC 2.3.2)
PSUIT = "locke.cb.psuit"  # [attack level, absorbed]: the P-suit's level reaches it, or not (KMC 2.3.2)

JAMMER = "locke.cb.jammer"  # the ESP jammer (character's or card's) reaches this level (KMC 10.10)
JAM_PASS = "locke.cb.jam_pass"  # the ESP jammer is below this level: its owner let such a card work (KMC 10.10)
NIKE = "locke.cb.nike"  # the Nike check's value is within the card's (KMC 2.3.2)

#: [2d6 total, ship-support chart entry, effect]: a special of the character card, announced as "a ship",
#: gives this effect at this total (KMC 10.4.2 notes 1-2, N226; :func:`ship_effects`)
SHIP = "locke.cb.ship"

BROKEN = "locke.cb.broken"  # [item, source, attack level, broken]: the item's level is below it, or not (KMC 10.7.3)

#: the kept planet card holds this card (or a card of this kind; "suit": an E- or P-suit card, N225), or a wildcard
PLANET = "locke.cb.planet"
NO_ATTACK = "locke.cb.no_attack"  # [floor, spent, mods, proofs]: no card of the hand can attack (ordered, N212)

KINDS = (CARD, USE, STRETCH, AWAKE, TELEPATHY, ITEM, FIELD, PSUIT, JAMMER, JAM_PASS, NIKE, PLANET, NO_ATTACK, BROKEN, SHIP)

#: The character cards' special attacks (KMC 10.4.2), each usable once a round.
SPECIALS = ("ship", "beam-cannon", "geoid-bomb")
#: Everything a special announced as "a ship" may do (:func:`ship_effects`): the ship-support
#: chart's entries (seed 002), the geoid bomb fired or knocking its user out.
SHIP_EFFECTS = ("d-bomb", "g-bomb", "beam-cannon", "no-support", "misfire", "geoid-bomb", "knocked-out")


def ship_effects(components: ComponentSet, item: str, total: int, entry: str) -> tuple[str, ...]:
    """What ``item`` announced as "a ship" may do once its 2d6 came to ``total`` (the ship-support
    chart reads ``entry`` there), KMC 10.4.2 notes 1-2 (N226): a ship does what the chart says;
    E-Strohheim's beam cannon fires, or holds fire where the chart gives nothing (7-11); Dr.
    Wong's geoid bomb follows its own numbers (fires, nothing, or knocks him out)."""
    if item == "ship":
        return (entry,)
    if item == "beam-cannon":
        return ("beam-cannon",) + (("no-support",) if entry == "no-support" else ())
    numbers = components.catalogue.items["geoid-bomb"].constants
    best, faint = numbers.get("success_max"), numbers.get("faint_min")
    if isinstance(best, int) and total <= best:
        return ("geoid-bomb",)
    return ("knocked-out",) if isinstance(faint, int) and total >= faint else ("no-support",)



#: Kinds about the character's stats: their value is ``[declared, mods, proofs]``, the public
#: ledger of changes (engine/locke/stats.py) at the time of the claim, so the judge reads the
#: stats the character had then (ruling N100).
STAT_KINDS = (USE, STRETCH, AWAKE, TELEPATHY)


def stat_value(mods: Sequence[Sequence[object]], proofs: int, declared: Any) -> list[Any]:
    """The value of a :data:`STAT_KINDS` claim made against this ledger."""
    return [declared, [list(m) for m in mods], proofs]


#: Claims on a hidden item's level (about the character card, or the kept planet card that is
#: the item) and the item each is about (BROKEN names its own).
LEVEL_KINDS = {JAMMER: "esp-jammer", JAM_PASS: "esp-jammer", FIELD: "esp-field", PSUIT: "powered-suit", BROKEN: ""}


def level_item(claim: Claim) -> str:
    return str(claim.value[0]) if claim.what == BROKEN else LEVEL_KINDS[claim.what]


def item_levels(components: ComponentSet, content: str, item: str) -> tuple[int, ...]:
    """The levels a hidden item may have, from the opened card it is about: a character card's
    own item; a planet card's printed level (none if it is another kind); a wildcard any card
    of the kind (seed 000 3.1.5: it stands for whichever it was used as)."""
    if content == "wildcard":
        return tuple(sorted({int(p.level) for p in components.planets if kind_of(p.id) == item}))
    try:
        card = components.planet(content)
    except ComponentError:
        return (item_level(components.character(content), item),)
    return (int(card.level),) if kind_of(card.id) == item else ()


def holds_at(claim: Claim, level: int) -> bool:
    """Does a :data:`LEVEL_KINDS` claim hold for an item of ``level``?"""
    what, value = claim.what, claim.value
    if what in (JAMMER, FIELD):  # it reaches the card's level (KMC 10.10, 2.3.2)
        return level >= int(value)
    if what == JAM_PASS:  # the card got through: the jammer is below it (KMC 10.10)
        return level < int(value)
    if what == PSUIT:  # [attack level, absorbed]
        return (level >= int(value[0])) == bool(value[1])
    item, source, attack, broken = value  # BROKEN: below the attack's level, or not (KMC 10.7.3)
    return (level < int(attack)) == bool(broken)


def consistent(components: ComponentSet, claims: Sequence[Claim], content: str) -> bool:
    """Some one level of the item fits every claim made about it: the judge of a single claim,
    and of all a seat said about a wildcard that stood for the item (its level is one)."""
    if not claims:
        return True
    levels = item_levels(components, content, level_item(claims[0]))
    return any(all(holds_at(c, level) for c in claims) for level in levels)


def said_about(claims: Sequence[Claim], seat: int, handle: int) -> list[Claim]:
    """What ``seat`` has claimed about the level of the kept planet card ``handle``."""
    return [c for c in claims if c.seat == seat and c.about == (handle,) and c.what in LEVEL_KINDS]


def holds(components: ComponentSet, claim: Claim, contents: tuple[str, ...]) -> bool:
    what, value = claim.what, claim.value
    if what == CARD:
        return bool(contents[0] == value)
    if what in LEVEL_KINDS:  # over any source of the item (engine/locke/combat/breakage.py)
        return consistent(components, [claim], contents[0])
    if what == PLANET:  # a card, or a kind whose level stays hidden (seed 000 3.1.2)
        if value == SUIT:
            return contents[0] == "wildcard" or kind_of(contents[0]) in CARD_SUITS
        return contents[0] in (value, "wildcard") or kind_of(contents[0]) == value
    if what == NO_ATTACK:
        return not can_attack(components, contents[:-1], components.character(contents[-1]), value)
    character = components.character(contents[0])
    if what in STAT_KINDS:
        value, mods, proofs = value
        character = stats.now(character, mods, int(proofs))
    if what == USE:
        level, spent = value
        return bool(character.level >= level and character.power - spent >= level)
    if what == STRETCH:
        own, spent = value
        return int(own) == own_part(character, int(spent))
    if what == AWAKE:
        return bool(character.level + character.mind >= int(value))
    if what == TELEPATHY:
        return bool(character.level >= int(value))
    if what == ITEM:
        item, count = value
        grants = character.items_of(item)
        if item == "henchman":
            return henchmen_of(character) >= int(count)
        if item == SUIT:
            return any(character.items_of(kind) for kind in SUITS)
        if item == "specials":  # the count-th special of one round: that many kinds (KMC 10.4.2)
            return sum(1 for kind in SPECIALS if character.items_of(kind)) >= int(count)
        return bool(grants)
    if what == SHIP:
        total, entry, effect = value
        return any(effect in ship_effects(components, item, int(total), str(entry))
                   for item in SPECIALS if character.items_of(item))
    if what == NIKE:
        return any(grant_int(g, "check_max", character.mind) >= int(value) for g in character.items_of("nike"))
    raise ValueError(f"unknown combat claim kind {what!r}")



def own_part(character: Any, spent: int) -> int:
    """The levels a character's own ESP pays for (KMC 10.5.1-2): its level, as far as the power
    left covers it; mind checks may stretch a card only beyond this."""
    return max(0, min(int(character.level), int(character.power) - spent))


def can_attack(components: ComponentSet, cards: Sequence[str], character: Any, value: Sequence[Any]) -> bool:
    """Could one of ``cards`` be played as an attack (KMC 10.4.1): an attack card (or the wildcard)
    above the jammer floor, paid by level and power or stretched by a mind of 2 or more (KMC 10.5)."""
    floor, spent, mods, proofs = value
    now = stats.now(character, mods, int(proofs))
    usable = own_part(now, int(spent))
    for cid in cards:
        card = components.combat_card(cid)
        if card.id == "combat-wildcard":
            if int(floor) < 7:
                return True
            continue
        if card.type == "attack" and card.level > int(floor) and (card.level <= usable or now.mind >= 2):
            return True
    return False

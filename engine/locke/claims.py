"""What a Locke seat may claim about hidden data, and how each claim is judged.

The engine accepts a declaration when it fits the public record and logs it
as an :class:`engine.core.claims.Claim` (PLAN "hidden stats"). Each kind below
names what was declared; :func:`holds` judges it once the cards in
``claim.about`` are opened (at once on a trusted LocalTable, at the end-of-game
audit on a networked one). A false claim names its seat and step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.claims import Claim
from engine.locke import setup_tables, stats
from engine.locke.components import Character, ComponentSet
from engine.locke.combat import claims as combat_claims

SHADOW = "locke.shadow"  # the silhouette fits the shadow roll (KMC 7.1.7, table 7.2)
KEEPS_ABILITY = "locke.keeps_ability"  # a planet card kept face down is an ability card (KMC 9.2.2)
INFO_BELOW_3 = "locke.info_below_3"  # a base player's dealt cards hold fewer than 3 information (seed 000 3.2.2)
GOOD_NOW = "locke.good_now"  # the character is Good now (destroying a key base, KMC 9.3.1)
RELEASE = "locke.release"  # the character has the release ability (seed 000 3.2.1)
HAS_ABILITY = "locke.has_ability"  # the character has this KMC 2.2 ability (engine/locke/abilities.py)
LEON = "locke.leon_override"  # Lord Leon: every other living character is level 4 or less (KMC 11.1.3)
STROHHEIM = "locke.strohheim_override"  # S-Strohheim killed a Locke himself (KMC 11.1.3, 11.8.2)
# Every declared stat outside combat (and the combat's mind and durability) is one of these two, made
# by engine/locke/fate.py and judged on the current stats, printed card plus public ledger (N100).
STAT_NOW = "locke.stat_now"  # [stat, op, n, mods, proofs]: n stands to the current stat as op says
DURABILITY_NOW = "locke.durability_now"  # [declared, damage, mods]: current durability - damage == declared
FACT = "locke.fact"  # a yes/no fact about the character (FACTS below: male, female, hijiri)
NO_TELEPORT = "locke.no_teleport"  # none of the dealt combat cards is a teleport (KMC 4 stacked vortex)
NONE_OF = "locke.none_of"  # [effect types]: none of the kept cards has one of these effects (clone, identity cards)
INFO_BELOW = "locke.info_below"  # k: the kept cards hold fewer than k information cards (seed 000 3.2.2)

DIE_CARDS = tuple(f"die-{face}" for face in range(1, 7))

#: How a declared value ``n`` stands to the current stat in a claim of kind STAT_NOW.
STAT_OPS: dict[str, Callable[[int, int], bool]] = {
    "le": lambda n, now: n <= now,  # the stat reaches n (a check, a teleport, following a party)
    "ge": lambda n, now: now <= n,  # the stat is at most n (psycho blast: "my level is 0")
    "eq": lambda n, now: now == n,  # the stat is exactly n (hallucination, a damage check on the mind)
}

#: Yes/no facts a seat may be asked about its own character (claims of kind FACT).
FACTS: dict[str, Callable[[Character], bool]] = {
    "male": lambda c: c.sex == "male",
    "female": lambda c: c.sex == "female",
    "hijiri": lambda c: c.id == "hijiri-yuki",
}


def die_face(card: str) -> int:
    return DIE_CARDS.index(card) + 1


def make(seat: int, step: int, what: str, about: Sequence[int], value: Any, rule: str) -> Claim:
    return Claim(seat, step, what, tuple(about), value, rule)


def good_now(attribute: str, converted: bool) -> bool:
    """Is a character Good now (KMC 6.3.2)? A Good card is; an E/G card is once converted
    (KMC 2.2.1, the public mark engine/locke/abilities.py sets), until it next comes back to life."""
    return attribute == "good" or (converted and attribute == "evil-good")


def holds(components: ComponentSet, claim: Claim, contents: tuple[str, ...]) -> bool:
    """Does ``claim`` hold, given the opened contents of ``claim.about`` (aligned)?"""
    what, value = claim.what, claim.value
    if what.startswith("locke.cb."):  # combat declarations (KMC 10, 5)
        return combat_claims.holds(components, claim, contents)
    if what == KEEPS_ABILITY:
        return components.planet(contents[0]).kind == "ability"
    if what == INFO_BELOW_3:
        return sum(1 for c in contents if components.planet(c).effect.type == "information") < 3
    if what == NO_TELEPORT:
        return not any(c.startswith("teleport-") for c in contents)
    if what == NONE_OF:
        return not any(components.planet(c).effect.type in value for c in contents)
    if what == INFO_BELOW:
        return sum(1 for c in contents if components.planet(c).effect.type == "information") < int(value)
    if what == SHADOW:
        silhouette, taken = value
        face = die_face(contents[0])
        allowed = setup_tables.silhouette_choices(components, face, contents[1], {k: v for k, v in taken})
        return bool(silhouette in allowed)
    character = components.character(contents[0])
    if what == STAT_NOW:  # made by engine/locke/fate.py stat_claim
        stat, op, n, mods, proofs = value
        return STAT_OPS[str(op)](int(n), stats.current(character, mods, int(proofs), str(stat)))
    if what == DURABILITY_NOW:  # fate.durability_claim
        declared, damage, mods = value
        return int(declared) == max(0, stats.current(character, mods, 0, "durability") - int(damage))
    if what == FACT:  # fate.fact_claim
        question, answer = value
        return FACTS[str(question)](character) == bool(answer)
    if what == GOOD_NOW:  # value: the seat's public "converted" mark when it claimed (KMC 2.2.1)
        return good_now(character.attribute, value is True)
    if what == HAS_ABILITY:
        return character.has_ability(str(value))
    if what == RELEASE:
        return character.can_release
    if what == LEON:  # value: the [mods, proofs] of each other living seat, aligned with contents[1:]
        return character.id == "lord-leon" and all(
            stats.current(components.character(c), mods, int(proofs), "level") <= 4
            for c, (mods, proofs) in zip(contents[1:], value, strict=True))
    if what == STROHHEIM:
        # value: the public random characters he killed as this card (a random Locke counts, C8)
        randoms = tuple(value) if isinstance(value, (tuple, list)) else ()
        return character.id == "strohheim-s" and any(
            "locke" in components.character(c).counts_as for c in contents[1:] + tuple(str(r) for r in randoms)
        )
    raise ValueError(f"unknown Locke claim kind {what!r}")

"""What a character can use now: its card's abilities and items, changed by Hijiri's whim.

Why a module of its own: the first option of Hijiri's whim (seed 002 line 169, event 11;
rulings N78, N275) takes away every special ability the card prints and gives the rolled
ones until the character dies. Everything that asks "may this seat use X" must agree, so
the honest options (engine/locke/legal.py gives every step the card as :func:`now` makes
it), the refusals on the public record (:func:`lost`, :func:`gained`) and the claims
(a use the ledger already grants needs no claim, :func:`public_items`) read the same ledger.

The ledger is public (``Seat.mods``, written by engine/locke/traps.py): the mod
``("abilities", "set", 0, "life")`` marks the printed abilities lost, ``("ability:<name>",
"set", 1, "life")`` each rolled ability and ``("whim-henchman", "set", 1, "life")`` the
henchman its 4-6 gave. "Special abilities" are KMC 2.2's five (conversion, disintegration,
author's privilege, shape change, release); the items of KMC chapter 3 are not abilities
and stay (N275). The King editing room's win (KMC 2.2 last paragraph: "not a special
ability") stays with the card too. A mod lasting for "life" is dropped at death with the
others (engine/locke/fate.py), so a revived character has its card back.

Of the rolled abilities, the engine plays those it has a rule for: release (the prison,
engine/locke/turn.py), the henchman (an item henchman, KMC 10.3) and ship support (the
ship item, the ship-support chart). The sword (melee), the blaster and experience have no
counterpart in the engine yet: they are logged and public, and give no option.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.locke.components import Character, Grant

LOST = ("abilities", "set", 0, "life")
HENCHMAN = ("whim-henchman", "set", 1, "life")
PREFIX = "ability:"

#: The rolled abilities the engine plays as a card ability (id in the catalogue).
AS_ABILITY = {"release": "release"}
#: The rolled abilities the engine plays as an item (id in the catalogue); the henchman only
#: when its roll gave one (``HENCHMAN``).
AS_ITEM = {"ship-support": "ship"}


def _has(mods: Sequence[Sequence[object]], mod: tuple[str, str, int, str]) -> bool:
    return any(tuple(m) == mod for m in mods)


def lost(mods: Sequence[Sequence[object]]) -> bool:
    """Are the card's printed special abilities gone (Hijiri's whim, option a)?"""
    return _has(mods, LOST)


def _since_loss(mods: Sequence[Sequence[object]]) -> Sequence[Sequence[object]]:
    """The ledger after the last loss: a second whim takes the first whim's abilities too
    (they are then "the abilities it had", N275)."""
    marks = [k for k, m in enumerate(mods) if tuple(m) == LOST]
    return mods[marks[-1] + 1:] if marks else mods


def gained(mods: Sequence[Sequence[object]]) -> tuple[str, ...]:
    """The rolled whim abilities (whim-ability chart entry names) in force, in the order gained."""
    return tuple(str(m[0])[len(PREFIX):] for m in _since_loss(mods)
                 if str(m[0]).startswith(PREFIX) and int(str(m[2])) > 0)


def public_items(mods: Sequence[Sequence[object]]) -> tuple[str, ...]:
    """The items the public ledger gives (one entry each): a claim about them says nothing."""
    out = [AS_ITEM[a] for a in gained(mods) if a in AS_ITEM]
    return tuple(out) + (("henchman",) if _has(_since_loss(mods), HENCHMAN) else ())


def has_ability(character: Character | None, mods: Sequence[Sequence[object]], ability: str) -> bool:
    """May the seat use ``ability`` now? (``character`` None: its card is hidden here, so the
    public record decides: a gained one yes, a lost card's no, else maybe.)"""
    if character is not None:
        return now(character, mods).has_ability(ability)
    if ability in (AS_ABILITY[a] for a in gained(mods) if a in AS_ABILITY):
        return True
    return not lost(mods)


def granted(mods: Sequence[Sequence[object]], ability: str) -> bool:
    """Does the public ledger alone give ``ability`` (so using it claims nothing)?"""
    return ability in (AS_ABILITY[a] for a in gained(mods) if a in AS_ABILITY)


def now(character: Character, mods: Sequence[Sequence[object]]) -> Character:
    """``character`` with the abilities and items it may use now. Idempotent: the whim's
    grants are rebuilt from the ledger, never added twice."""
    if not lost(mods) and not gained(mods):
        return character
    abilities = () if lost(mods) else tuple(a for a in character.abilities if a.params.get("whim") != 1)
    abilities += tuple(Grant(AS_ABILITY[a], {"whim": 1}) for a in gained(mods) if a in AS_ABILITY)
    items = tuple(i for i in character.items if i.params.get("whim") != 1)
    items += tuple(Grant(i, {"whim": 1}) for i in public_items(mods))
    return dataclasses.replace(character, abilities=abilities, items=items)

"""A character's current stats: the printed card plus the public ledger of changes.

Why a module of its own: the claim judge (engine/locke/claims.py), the honest
legal actions (engine/locke/legal.py) and the effects (engine/locke/fate.py)
must agree on one definition of "your level now". The ledger is public (a
seat's ``mods`` and ``proofs``), the card is hidden, so a declaration is
judged as ``current(card, mods, proofs)`` once the card opens.

A mod is ``(stat, op, value, until)``: ``op`` "add" adds ``value``, "set"
replaces the stat, "zero" drops it to 0 (a disintegration, KMC 2.2.2) and
"regain" adds ``value`` but never above the stat's maximum (the printed
value plus the gains so far: a disintegrated character's recovery);
``until`` is "game" (transformation chart, kept for the rest of the game)
or "life" (until the character dies: psycho blast, Hijiri's whim,
disintegration). Mods apply in the order they were gained.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.locke.components import Character

STATS = ("level", "power", "durability", "mind")
Mod = tuple[str, str, int, str]


def printed(character: Character, stat: str) -> int:
    value: int = getattr(character, stat)
    return value


def _fold(value: int, mods: Sequence[Sequence[object]], stat: str) -> tuple[int, bool]:
    """``value`` after each mod of ``stat`` in turn, and whether the ledger alone fixes it
    (after a "set" or a "zero"; a "regain" reads the hidden maximum, so it unfixes it)."""
    fixed = False
    top = value  # the maximum: the printed value plus every gain (KMC 2.2.2 "never above the maximum")
    for mod in mods:
        name, op, amount = str(mod[0]), str(mod[1]), int(str(mod[2]))
        if name != stat:
            continue
        if op == "add":
            value += amount
            top += max(0, amount)
        elif op == "regain":
            value = min(value + amount, top)
            fixed = False
        else:  # "set", or "zero" (amount 0)
            value = amount if op == "set" else 0
            fixed = True
    return value, fixed


def current(character: Character, mods: Sequence[Sequence[object]], proofs: int, stat: str) -> int:
    """The value of ``stat`` now: the printed value, each mod in turn, then ESP proofs
    (seed 002 prison 12+: ESP level and ESP power are 0 while a proof is in)."""
    if stat not in STATS:
        raise ValueError(f"unknown stat {stat!r}")
    value, _ = _fold(printed(character, stat), mods, stat)
    if proofs > 0 and stat in ("level", "power"):
        return 0
    return max(0, value)


def public(mods: Sequence[Sequence[object]], proofs: int, stat: str) -> int | None:
    """The current value of ``stat`` when the public ledger alone fixes it, else None: after a
    "set" (later adds included) the printed value no longer matters, and an ESP proof holds
    level and power at 0. A public stat is never declared (nothing is hidden to claim)."""
    if stat not in STATS:
        raise ValueError(f"unknown stat {stat!r}")
    if proofs > 0 and stat in ("level", "power"):
        return 0
    value, fixed = _fold(0, mods, stat)
    return max(0, value) if fixed else None


def ceiling(characters: Sequence[Character], mods: Sequence[Sequence[object]], proofs: int, stat: str) -> int:
    """The highest ``stat`` a seat can have now, from the public ledger alone: the best of
    ``characters`` (every card it might hold) with the same changes. It bounds what a
    declaration may say, so an honest seat is never refused after a gain (a transformation's
    +1, Hijiri's whim) and a liar is caught by the claim rather than by a made-up limit."""
    return max(current(c, mods, proofs, stat) for c in characters)


def recovering(characters: Sequence[Character], mods: Sequence[Mod]) -> bool:
    """A disintegrated level maybe not whole again (KMC 2.2.2). The maximum is hidden, so the
    recovery rolls go on until as many levels came back as the highest printed level plus the
    public gains (N183)."""
    level = [m for m in mods if m[0] == "level"]
    zeros = [k for k, m in enumerate(level) if m[1] == "zero"]
    if not zeros:
        return False
    back = sum(1 for m in level[zeros[-1]:] if m[1] == "regain")
    top = max(c.level for c in characters) + sum(max(0, m[2]) for m in level if m[1] == "add")
    return back < top


def for_stat(mods: Sequence[Mod], stat: str) -> tuple[Mod, ...]:
    return tuple(m for m in mods if m[0] == stat)


def now(character: Character, mods: Sequence[Sequence[object]], proofs: int) -> Character:
    """``character`` with its current level, power, durability and mind (for code that reads a
    card's stats, such as the combat's honest legal actions and its claim judge)."""
    return dataclasses.replace(
        character, level=current(character, mods, proofs, "level"), power=current(character, mods, proofs, "power"),
        durability=current(character, mods, proofs, "durability"), mind=current(character, mods, proofs, "mind"))

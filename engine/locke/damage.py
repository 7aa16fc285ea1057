"""The damage table of seed 002: odds column, 2d6 roll, damage or elimination.

Odds are attack : current durability, rounded in the defender's favour: the
column is the largest k in 1..10, 20, 50 with attack >= k x durability, and an
attack below the durability reads the "1:2 or less" column. The seed folds
11:1-19:1 into 10:1 and 21:1-49:1 into 20:1. Integer arithmetic only.

A modified damage roll below 2 reads as 2 and above 12 as 12. A natural double
one or double six (the faces the dice really showed, not faces an ability or
effect set) on a damage check against a character leads to the
transformation check.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.core.errors import IllegalAction, MalformedAction
from engine.locke.chart_data import DAMAGE, DAMAGE_COLUMNS, DAMAGE_TABLE, E
from engine.locke.dice import clamp, validate_faces, validate_modifier
from engine.locke.outcomes import _Canonical

COLUMN_IDS: tuple[str, ...] = tuple(name for name, _ in DAMAGE_COLUMNS)

#: Natural damage-roll doubles that lead to the transformation check.
TRANSFORMING_DOUBLES = ((1, 1), (6, 6))


@dataclasses.dataclass(frozen=True)
class DamageResult(_Canonical):
    """One damage check: the column read, the roll, and what it did."""

    column: str
    faces: tuple[int, ...]
    modifier: int
    total: int
    row: int
    cell: str
    damage: int
    eliminated: bool
    transformation: bool


def column_for(attack: int, durability: int) -> str:
    """The damage-table column for ``attack`` against current ``durability``.

    Raises :class:`IllegalAction` for a durability below 1 (nothing is left to
    damage) and for an attack of 0 or less (a 0-firepower shot "only
    flashes": no damage check is made; docs ruling R8).
    """
    for name, value in (("attack", attack), ("durability", durability)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedAction(f"damage: {name} {value!r} is not an integer")
    if durability < 1:
        raise IllegalAction(
            f"damage: current durability {durability} leaves nothing to damage; only targets with durability 1 or more take damage checks",
            rule="locke.damage",
        )
    if attack < 1:
        raise IllegalAction(
            f"damage: an attack of firepower {attack} only flashes and makes no damage check",
            rule="locke.damage",
        )
    multiple = attack // durability  # floor = rounding in the defender's favour
    chosen = COLUMN_IDS[0]
    for name, needed in DAMAGE_COLUMNS:
        if multiple >= needed:
            chosen = name
    return chosen


def cell_id(column: str, row: int) -> str:
    """Stable id of one damage-table cell, e.g. ``"10-1@7"``."""
    return f"{column}@{row}"


def cell(column: str, row: int) -> int:
    """Raw cell value: damage points, or :data:`E` for eliminated."""
    if column not in COLUMN_IDS:
        raise MalformedAction(f"damage: unknown column {column!r}; use one of {', '.join(COLUMN_IDS)}")
    if not DAMAGE.low <= row <= DAMAGE.high:
        raise MalformedAction(f"damage: row {row} is outside {DAMAGE.low}..{DAMAGE.high}")
    return DAMAGE_TABLE[row - DAMAGE.low][COLUMN_IDS.index(column)]


def is_natural_transforming_double(faces: Sequence[int]) -> bool:
    """True for a natural double one or double six."""
    return tuple(faces) in TRANSFORMING_DOUBLES


def resolve_damage(
    faces: Sequence[int],
    modifier: int = 0,
    *,
    attack: int | None = None,
    durability: int | None = None,
    odds: str | None = None,
    faces_by_effect: bool = False,
    target_is_character: bool = True,
) -> DamageResult:
    """Resolve one damage check.

    Give either ``attack`` and ``durability`` (the column is computed) or a
    fixed ``odds`` column id (N-bomb, "a 10:1 check on your own durability").
    ``faces_by_effect`` says an ability or effect set the dice, so doubles do
    not lead to the transformation check; neither do checks against
    non-characters (``target_is_character`` False; docs ruling R9).
    """
    faces_t = validate_faces("damage", DAMAGE.dice, faces)
    modifier = validate_modifier("damage", modifier)
    if odds is not None:
        if attack is not None or durability is not None:
            raise MalformedAction("damage: give either fixed odds or attack and durability, not both")
        if odds not in COLUMN_IDS:
            raise MalformedAction(f"damage: unknown odds {odds!r}; use one of {', '.join(COLUMN_IDS)}")
        column = odds
    else:
        if attack is None or durability is None:
            raise MalformedAction("damage: give the attack's firepower and the target's current durability (or fixed odds)")
        column = column_for(attack, durability)
    total = sum(faces_t) + modifier
    row = clamp(total, DAMAGE.low, DAMAGE.high)
    value = cell(column, row)
    eliminated = value == E
    transformation = target_is_character and not faces_by_effect and is_natural_transforming_double(faces_t)
    return DamageResult(
        column=column,
        faces=faces_t,
        modifier=modifier,
        total=total,
        row=row,
        cell=cell_id(column, row),
        damage=0 if eliminated else value,
        eliminated=eliminated,
        transformation=transformation,
    )

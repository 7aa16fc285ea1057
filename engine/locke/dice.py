"""Validation of dice faces and roll modifiers fed to Locke's charts.

The engine never rolls: faces come from the driver (a seeded local table or
the networked dice protocol). Anything outside the dice asked for is rejected
with a typed error before any result is built.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import IllegalAction, MalformedAction

#: Largest roll modifier (either sign) a chart accepts. The seed's modifiers are
#: small (+1 per prison failure, +4 from the event chart); this bound only
#: keeps nonsense out.
MODIFIER_LIMIT = 20


def validate_faces(purpose: str, sides: Sequence[int], faces: Sequence[int]) -> tuple[int, ...]:
    """Return ``faces`` as a tuple after checking count and range."""
    if len(faces) != len(sides):
        raise MalformedAction(
            f"{purpose}: expected {len(sides)} dice ({'+'.join(f'd{s}' for s in sides)}), got {len(faces)}; "
            "give one face per die"
        )
    out = []
    for i, (side, face) in enumerate(zip(sides, faces, strict=True)):
        if isinstance(face, bool) or not isinstance(face, int):
            raise MalformedAction(f"{purpose}: die {i + 1} face {face!r} is not an integer")
        if not 1 <= face <= side:
            raise MalformedAction(f"{purpose}: die {i + 1} shows {face}, but a d{side} shows 1..{side}")
        out.append(face)
    return tuple(out)


def validate_modifier(purpose: str, modifier: int, *, modifiable: bool = True) -> int:
    """Check a roll modifier; charts that may not be shifted accept only 0."""
    if isinstance(modifier, bool) or not isinstance(modifier, int):
        raise MalformedAction(f"{purpose}: modifier {modifier!r} is not an integer")
    if not modifiable and modifier != 0:
        raise IllegalAction(
            f"{purpose}: this roll cannot be shifted by any effect (got modifier {modifier:+d}); roll it unmodified",
            rule=f"locke.chart.{purpose}",
        )
    if abs(modifier) > MODIFIER_LIMIT:
        raise MalformedAction(f"{purpose}: modifier {modifier:+d} is outside -{MODIFIER_LIMIT}..+{MODIFIER_LIMIT}")
    return modifier


def clamp(value: int, low: int, high: int) -> int:
    """``value`` limited to ``low``..``high``."""
    return low if value < low else min(value, high)

"""Locke's checks: ESP level check and mind check (KMC 11.2, 11.3), and the
level teleport roll (KMC 9.2.1 / 9.3.1). Pure functions; dice come in.

Declared-value rules, in our words:

- ESP level check: declare a level no higher than the level you can use now
  (0 or more), roll 2d6, succeed on a total at or below the declared level.
  A reflection check against an E-suit declares the attacking level itself;
  after attacking with your own ESP you may not declare below the level you
  used (``min_level``).
- Mind check: declare a value from 2 up to your current mind, roll 2d6,
  succeed at or below it. With a mind below 2 nothing can be declared and the
  check fails (docs ruling R10).
- Level teleport: declare a level from 1 to your ESP level, roll 1d6; a face at
  or below the declared level succeeds and moves exactly that many squares,
  a higher face fails and you stay.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.core.errors import IllegalAction, MalformedAction
from engine.locke.dice import validate_faces
from engine.locke.outcomes import _Canonical

TWO_D6 = (6, 6)
D6 = (6,)

#: Lowest mind value that can be declared for a mind check (KMC 11.3).
MIN_MIND_DECLARATION = 2


@dataclasses.dataclass(frozen=True)
class CheckResult(_Canonical):
    """A 2d6 check: ``success`` when ``total`` <= ``declared``."""

    kind: str
    declared: int | None
    faces: tuple[int, ...]
    total: int
    success: bool


@dataclasses.dataclass(frozen=True)
class TeleportResult(_Canonical):
    """A level teleport: on success the mover goes exactly ``distance`` squares."""

    declared: int
    face: int
    success: bool
    distance: int


@dataclasses.dataclass(frozen=True)
class PartyTeleportResult(_Canonical):
    """A party teleport (KMC 9.2.1, parties).

    ``whole_party`` is True when the declared level is within every member's
    level: everyone goes together. Otherwise ``may_follow`` (aligned with the
    partners given) says which partners have at least the declared level and
    so may choose to follow; the rest leave the party and stay.
    """

    teleport: TeleportResult
    whole_party: bool
    may_follow: tuple[bool, ...]


def _int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(f"{name} {value!r} is not an integer")
    return value


def legal_level_declarations(esp_level: int, min_level: int = 0) -> range:
    """Levels that may be declared for an ESP level check."""
    return range(max(0, min_level), _int("ESP level", esp_level) + 1)


def esp_level_check(faces: Sequence[int], declared: int, *, esp_level: int, min_level: int = 0) -> CheckResult:
    """ESP level check (KMC 11.2): 2d6 at or below the declared level succeeds."""
    faces_t = validate_faces("esp-level check", TWO_D6, faces)
    declared = _int("declared level", declared)
    if declared not in legal_level_declarations(esp_level, min_level):
        low = max(0, min_level)
        raise IllegalAction(
            f"ESP level check: declared level {declared} is not allowed; declare {low}..{esp_level} "
            "(no higher than the level you can use now"
            + (f", no lower than the {min_level} you used" if min_level > 0 else "")
            + ")",
            rule="locke.11.2",
        )
    total = sum(faces_t)
    return CheckResult("esp-level", declared, faces_t, total, total <= declared)


def reflection_check(faces: Sequence[int], attack_level: int) -> CheckResult:
    """E-suit reflection check: the attack's own level is declared (KMC 11.2)."""
    attack_level = _int("attack level", attack_level)
    return esp_level_check(faces, attack_level, esp_level=attack_level, min_level=attack_level)


def legal_mind_declarations(mind: int) -> range:
    """Values that may be declared for a mind check: 2..mind (maybe empty)."""
    return range(MIN_MIND_DECLARATION, _int("mind", mind) + 1)


def mind_check(faces: Sequence[int], declared: int | None, *, mind: int) -> CheckResult:
    """Mind check (KMC 11.3): 2d6 at or below the declared mind succeeds.

    ``declared`` must be in 2..mind. When the mind is below 2 there is no legal
    value: pass ``None`` and the check fails (ruling R10).
    """
    faces_t = validate_faces("mind check", TWO_D6, faces)
    legal = legal_mind_declarations(mind)
    total = sum(faces_t)
    if declared is None:
        if len(legal) > 0:
            raise IllegalAction(
                f"mind check: declare a mind value from 2 to {mind}", rule="locke.11.3"
            )
        return CheckResult("mind", None, faces_t, total, False)
    declared = _int("declared mind", declared)
    if declared not in legal:
        hint = f"declare 2..{mind}" if len(legal) else "with a mind below 2 nothing can be declared: pass no value; the check fails"
        raise IllegalAction(f"mind check: declared mind {declared} is not allowed; {hint}", rule="locke.11.3")
    return CheckResult("mind", declared, faces_t, total, total <= declared)


def level_teleport(face: int, declared: int, *, esp_level: int) -> TeleportResult:
    """Level teleport (KMC 9.2.1): 1d6 at or below the declared level moves that far."""
    (face,) = validate_faces("level teleport", D6, (face,))
    declared = _int("declared level", declared)
    esp_level = _int("ESP level", esp_level)
    if not 1 <= declared <= esp_level:
        hint = f"declare 1..{esp_level}" if esp_level >= 1 else "a character with ESP level 0 cannot teleport"
        raise IllegalAction(f"level teleport: declared level {declared} is not allowed; {hint}", rule="locke.9.2.1")
    success = face <= declared
    return TeleportResult(declared, face, success, face if success else 0)


def party_teleport(face: int, declared: int, *, leader_level: int, partner_levels: Sequence[int]) -> PartyTeleportResult:
    """A party leader's level teleport (KMC 9.2.1, forming parties).

    The leader declares at most its own level. Declaring no more than every
    partner's level moves the whole party; otherwise only partners whose level
    is at least the declared level may follow (each decides).
    """
    levels = tuple(_int("partner level", p) for p in partner_levels)
    result = level_teleport(face, declared, esp_level=leader_level)
    may_follow = tuple(level >= declared for level in levels)
    return PartyTeleportResult(result, all(may_follow), may_follow)

"""Structured results of Locke's dice charts (seed 002).

Every chart result is data, never prose: who you fight (:class:`Opponent`),
what hits whom (:class:`Attack`), which lasting or one-off effect applies
(:class:`Effect`) and which roll comes next (:class:`Request`). The later
turn and combat rules read these fields; the ids are stable English names
listed in docs/rules/locke-charts.md.

All values are integers, text, booleans, ``None`` or tuples of these, so every
object has a canonical form (:meth:`to_data`) that engine.core can encode and
hash.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.core.pending import Chance

#: Param values are ints or short ids; kept as sorted (key, value) pairs.
Params = tuple[tuple[str, int | str], ...]


def to_data(value: Any) -> Any:
    """Plain canonical data (dicts, lists, ints, text) of an outcome object.

    ``params`` fields (sorted key/value pairs) become maps; other tuples lists.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: {k: v for k, v in getattr(value, f.name)} if f.name == "params" else to_data(getattr(value, f.name))
            for f in dataclasses.fields(value)
        }
    if isinstance(value, tuple):
        return [to_data(v) for v in value]
    return value


class _Canonical:
    """Mixin: ``__canonical__`` and ``to_data`` for frozen dataclasses."""

    def to_data(self) -> Any:
        return to_data(self)

    def __canonical__(self) -> Any:
        return to_data(self)


@dataclasses.dataclass(frozen=True)
class Duration(_Canonical):
    """How long an effect lasts.

    ``turns`` is a fixed number of the affected character's turns; ``dice``
    means the number of turns is rolled (each affected character rolls its
    own); ``until`` names the ending event (``"death"``, ``"end-of-combat"``,
    ``"end-of-game"``, ``"mind-check-success"``, ``"harvest"``, ...).
    """

    turns: int | None = None
    dice: tuple[int, ...] = ()
    until: str | None = None


@dataclasses.dataclass(frozen=True)
class Attack(_Canonical):
    """One attack.

    ``firepower`` is ``None`` when it is rolled on the weapon-firepower chart
    for every use (``firepower_chart`` names the column). ``odds`` fixes the
    damage-table column regardless of durability (N-bomb, "10:1 check on
    yourself"). ``target`` says who is hit: ``"all-in-combat"``, ``"self"``,
    ``"one"``, ``"all-living"``, ``"all-present"``. ``stat`` is the stat the
    attack hits: ``"durability"`` or ``"mind"``. ``count`` > 1 is a
    simultaneous attack (one attack resolved as ``count`` damage checks).
    """

    id: str
    level: int | None
    firepower: int | None
    target: str = "one"
    stat: str = "durability"
    tags: tuple[str, ...] = ()
    firepower_chart: str | None = None
    odds: str | None = None
    count: int = 1
    timing: str | None = None


@dataclasses.dataclass(frozen=True)
class Opponent(_Canonical):
    """An obstacle or non-player combatant a chart puts into a combat.

    ``count`` members, each with ``durability``; ``count_chart`` names the
    chart that rolls the count when it is not fixed (golems). ``esp_power`` is
    ``None`` when not applicable; ``esp_power_infinite`` marks the espers of
    the random-combat chart. ``mind`` is ``None`` where the seed gives a dash.
    ``weapon_chart`` names the chart rolled once at combat start to arm them.
    ``traits`` are stable ids of special rules (listed in the docs).
    ``random_characters`` > 0 means unused character cards drawn at random.
    """

    id: str
    count: int = 1
    durability: int | None = None
    esp_level: int | None = None
    esp_power: int | None = None
    esp_power_infinite: bool = False
    mind: int | None = None
    weapon: Attack | None = None
    weapon_chart: str | None = None
    melee: int | None = None
    esp_jammer: int | None = None
    esp_barrier: int | None = None
    count_chart: str | None = None
    random_characters: int = 0
    traits: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Effect(_Canonical):
    """A non-combat consequence: ``id`` names the rule, ``target`` who it hits.

    ``check`` names a check the affected character makes (``"esp-level"``,
    ``"mind"``); ``on_fail`` / ``on_success`` name what follows. ``params``
    holds the numbers (sorted key/value pairs).
    """

    id: str
    target: str = "self"
    duration: Duration | None = None
    check: str | None = None
    on_fail: str | None = None
    on_success: str | None = None
    params: Params = ()
    tags: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Context(_Canonical):
    """Facts a chart needs besides the dice.

    ``weapon``: column of the weapon-firepower chart. ``attack`` and
    ``durability`` (or ``odds``): the damage table. ``esp_level``: the
    hallucination attack. ``forest``: the random-combat roll is for the
    resonance-tree forest (espers are re-rolled with +1). ``carry``: firepower
    accumulated by earlier rolls of a hallucination attack. ``faces_by_effect``:
    the damage dice were set by an ability or effect (no transformation).
    ``target_is_character``: the damage target is a character (only
    characters take the transformation check).
    """

    weapon: str | None = None
    attack: int | None = None
    durability: int | None = None
    odds: str | None = None
    esp_level: int | None = None
    forest: bool = False
    carry: int = 0
    faces_by_effect: bool = False
    target_is_character: bool = True


#: The empty context (a shared immutable default).
NO_CONTEXT = Context()


@dataclasses.dataclass(frozen=True)
class Request(_Canonical):
    """A Chance-like request: roll ``dice`` for ``chart`` and add ``modifier``."""

    chart: str
    dice: tuple[int, ...]
    modifier: int = 0
    context: Context = NO_CONTEXT

    def to_chance(self) -> Chance:
        """The engine-core pending input a driver answers with DiceRolled."""
        return Chance(purpose=f"locke.chart.{self.chart}", dice=self.dice)


@dataclasses.dataclass(frozen=True)
class Outcome(_Canonical):
    """The result of one chart roll.

    ``total`` is the dice sum plus the modifier; ``row`` the row actually read
    after the chart's clamps; ``entry`` the stable id of that row. ``value``
    is the chart's number where it has one (firepower, damage, a count,
    turns, a round). ``eliminated`` is the damage table's E. ``next`` is the
    chained roll, if any.
    """

    chart: str
    faces: tuple[int, ...]
    modifier: int
    total: int
    row: int
    entry: str
    opponents: tuple[Opponent, ...] = ()
    attacks: tuple[Attack, ...] = ()
    effects: tuple[Effect, ...] = ()
    value: int | None = None
    eliminated: bool = False
    next: Request | None = None

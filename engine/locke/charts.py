"""One resolver for every Locke dice chart (seed 002), plus a step API for chains.

Step API: :func:`request` says which dice a chart needs (a :class:`Request`,
convertible to an engine-core :class:`~engine.core.pending.Chance`);
:func:`resolve_request` turns the faces into an :class:`Outcome` whose
``next`` is the chained request, if any. A driver (local table or networked
dice) feeds one roll at a time. :func:`run_chain` runs a whole chain from an
iterator of faces, for tests, bots and the ``tools.chart`` command.

Chart-specific rules the data cannot express live here, each short:

- prison: a natural sum of 5 or less escapes whatever the modifier;
- random combat in the resonance-tree forest: an esper result is re-rolled
  with one more +1 each time (docs ruling R5);
- weapon firepower: the column comes from ``context.weapon``;
- hallucination attack: compared with ``context.esp_level``; doubles roll again
  and add (ruling R6);
- damage: delegated to :mod:`engine.locke.damage`;
- golem count, random cell, whim stats: built from the faces.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from engine.core.errors import MalformedAction
from engine.locke import chart_data as data
from engine.locke.chart_data import CHARTS, Chart, Entry
from engine.locke.damage import COLUMN_IDS, cell_id, resolve_damage
from engine.locke.dice import MODIFIER_LIMIT, clamp, validate_faces, validate_modifier
from engine.locke.outcomes import (
    NO_CONTEXT,
    Attack,
    Context,
    Duration,
    Effect,
    Outcome,
    Request,
)

#: Entry id of a forest random-combat roll that hit an esper and is re-rolled.
FOREST_REROLL = "forest-esper-reroll"

#: Level of each weapon column of the firepower chart.
WEAPON_LEVELS: dict[str, int] = {"raygun": 1, "blaster": 2, "bazooka": 3, "beam-cannon": 4}

#: Longest chain :func:`run_chain` follows before giving up (chains end with
#: probability 1, but event 12 -> trap +4 -> event could in theory repeat).
MAX_CHAIN = 64


def _rows(chart: Chart) -> dict[int, Entry]:
    table: dict[int, Entry] = {}
    for entry in chart.entries:
        for row in entry.rows:
            table[row] = entry
    return table


_ROW_TABLES: dict[str, dict[int, Entry]] = {cid: _rows(c) for cid, c in CHARTS.items()}
_GOLEM = data.TRAP.entries[[e.id for e in data.TRAP.entries].index("golems")].opponents[0]


def chart(chart_id: str) -> Chart:
    """The chart with ``chart_id``; a clear error for an unknown id."""
    try:
        return CHARTS[chart_id]
    except KeyError:
        raise MalformedAction(f"unknown chart {chart_id!r}; known charts: {', '.join(CHARTS)}") from None


def chart_ids() -> tuple[str, ...]:
    """Every chart id, in the seed's order (sub-rolls after their chart)."""
    return tuple(CHARTS)


def entry_ids(chart_id: str) -> tuple[str, ...]:
    """Every entry id a chart can resolve to (generated ones included)."""
    c = chart(chart_id)
    if chart_id == "weapon-firepower":
        return tuple(f"{w}-{f}" for w in data.FIREPOWER for f in range(1, 7))
    if chart_id == "damage":
        return tuple(cell_id(col, row) for col in COLUMN_IDS for row in range(c.low, c.high + 1))
    ids = tuple(e.id for e in c.entries)
    if chart_id == "random-combat":
        ids += (FOREST_REROLL,)
    return ids


def request(chart_id: str, modifier: int = 0, context: Context = NO_CONTEXT) -> Request:
    """The dice request for one roll on ``chart_id``."""
    c = chart(chart_id)
    validate_modifier(chart_id, modifier, modifiable=c.modifiable)
    return Request(chart_id, c.dice, modifier, context)


def prison_modifier(failures: int) -> int:
    """Prison roll modifier: +1 per earlier failed escape (seed: prison), capped at the
    modifier limit: from +10 on every roll but a natural 2-5 reads the top row anyway."""
    if isinstance(failures, bool) or not isinstance(failures, int) or failures < 0:
        raise MalformedAction(f"prison: failures must be a whole number 0 or more, got {failures!r}")
    return min(failures, MODIFIER_LIMIT)


def prison_may_escape(outcome: Outcome, esp_level: int) -> bool:
    """Whether a prison result lets a character of ``esp_level`` escape now.

    True for the escape rows (including "escape into a trap"), and for the
    rows 6-8 when the level reaches their threshold (escaping there is the
    prisoner's option).
    """
    if outcome.chart != "prison":
        raise MalformedAction(f"prison_may_escape needs a prison outcome, got {outcome.chart!r}")
    for effect in outcome.effects:
        if effect.id == "escape":
            return True
        if effect.id == "may-escape":
            return esp_level >= int(dict(effect.params)["min_esp_level"])
    return False


def _next(chain: data.Chain | None, context: Context) -> Request | None:
    """The chained request. Only the roller's ESP level carries over (the
    hallucination attack may come after several chained rolls); the chain's
    own context (weapon column, forest) is set on top."""
    if chain is None:
        return None
    overrides = {
        f.name: getattr(chain.context, f.name)
        for f in dataclasses.fields(Context)
        if getattr(chain.context, f.name) != f.default
    }
    next_context = dataclasses.replace(Context(esp_level=context.esp_level), **overrides)
    return Request(chain.chart, chart(chain.chart).dice, chain.modifier, next_context)


def _from_entry(
    c: Chart, faces: tuple[int, ...], modifier: int, total: int, row: int, entry: Entry, context: Context
) -> Outcome:
    return Outcome(
        chart=c.id,
        faces=faces,
        modifier=modifier,
        total=total,
        row=row,
        entry=entry.id,
        opponents=entry.opponents,
        attacks=entry.attacks,
        effects=entry.effects,
        value=entry.value,
        next=_next(entry.chain, context),
    )


def resolve(chart_id: str, dice: Sequence[int], modifier: int = 0, context: Context = NO_CONTEXT) -> Outcome:
    """Resolve one roll of ``chart_id`` with the given faces.

    ``modifier`` is added to the dice sum; the total is then read on the
    chart's rows with its clamps. Illegal input raises a typed error.
    """
    c = chart(chart_id)
    faces = validate_faces(chart_id, c.dice, dice)
    modifier = validate_modifier(chart_id, modifier, modifiable=c.modifiable)
    total = sum(faces) + modifier
    row = clamp(total, c.low, c.high)

    if chart_id == "damage":
        return _damage(faces, modifier, context)
    if chart_id == "weapon-firepower":
        return _firepower(c, faces, modifier, total, row, context)
    if chart_id == "hallucination":
        return _hallucination(c, faces, modifier, total, row, context)
    if chart_id == "random-cell":
        effect = Effect("cell", target="random-cell", params=(("column", faces[1]), ("row", faces[0])))
        return Outcome(c.id, faces, modifier, total, total, "cell", effects=(effect,))
    if chart_id == "whim-stats":
        return _whim_stats(c, faces, modifier, total)
    if chart_id == "prison" and sum(faces) <= data.PRISON_NATURAL_ESCAPE_MAX:
        row = sum(faces)  # natural 2-5 escapes whatever the modifier
    if chart_id == "random-combat" and context.forest and row in data.ESPER_ROWS:
        return Outcome(
            c.id,
            faces,
            modifier,
            total,
            row,
            FOREST_REROLL,
            effects=(Effect("forest-esper-reroll", params=(("next_modifier", modifier + 1),)),),
            next=Request(c.id, c.dice, modifier + 1, context),
        )
    outcome = _from_entry(c, faces, modifier, total, row, _ROW_TABLES[chart_id][row], context)
    if chart_id == "golem-count":
        golems = dataclasses.replace(_GOLEM, count=row, count_chart=None)
        outcome = dataclasses.replace(outcome, opponents=(golems,))
    return outcome


def resolve_request(req: Request, dice: Sequence[int]) -> Outcome:
    """Resolve a :class:`Request` (from :func:`request` or an ``Outcome.next``)."""
    return resolve(req.chart, dice, req.modifier, req.context)


def run_chain(
    chart_id: str,
    dice: Iterable[int],
    modifier: int = 0,
    context: Context = NO_CONTEXT,
    *,
    max_steps: int = MAX_CHAIN,
) -> tuple[Outcome, ...]:
    """Resolve ``chart_id`` and every chained roll, taking faces from ``dice``.

    Each request takes as many faces as it has dice, in order. Raises
    :class:`MalformedAction` if the faces run out before the chain ends or it
    runs longer than ``max_steps``.
    """
    faces_iter = iter(dice)
    outcomes: list[Outcome] = []
    req: Request | None = request(chart_id, modifier, context)
    while req is not None:
        if len(outcomes) >= max_steps:
            raise MalformedAction(f"chart chain from {chart_id!r} ran longer than {max_steps} rolls; stopped")
        faces: list[int] = []
        for _ in req.dice:
            try:
                faces.append(next(faces_iter))
            except StopIteration:
                raise MalformedAction(
                    f"chart chain from {chart_id!r}: ran out of dice for {req.chart!r} after {len(outcomes)} rolls; "
                    f"give {len(req.dice)} more face(s)"
                ) from None
        out = resolve_request(req, faces)
        outcomes.append(out)
        req = out.next
    return tuple(outcomes)


# --- chart-specific resolution -------------------------------------------------


def _damage(faces: tuple[int, ...], modifier: int, context: Context) -> Outcome:
    result = resolve_damage(
        faces,
        modifier,
        attack=context.attack,
        durability=context.durability,
        odds=context.odds,
        faces_by_effect=context.faces_by_effect,
        target_is_character=context.target_is_character,
    )
    effects: tuple[Effect, ...] = ()
    if result.eliminated:
        effects = (Effect("eliminated"),)
    return Outcome(
        chart="damage",
        faces=result.faces,
        modifier=result.modifier,
        total=result.total,
        row=result.row,
        entry=result.cell,
        effects=effects,
        value=result.damage,
        eliminated=result.eliminated,
        next=request("transformation") if result.transformation else None,
    )


def _firepower(c: Chart, faces: tuple[int, ...], modifier: int, total: int, row: int, context: Context) -> Outcome:
    weapon = context.weapon
    if weapon not in data.FIREPOWER:
        raise MalformedAction(
            f"weapon-firepower: name the weapon column ({', '.join(data.FIREPOWER)}), got {weapon!r}"
        )
    firepower = data.FIREPOWER[weapon][row - 1]
    effects = (Effect("flash-only"),) if firepower == 0 else ()
    return Outcome(
        c.id,
        faces,
        modifier,
        total,
        row,
        f"{weapon}-{row}",
        attacks=(Attack(weapon, WEAPON_LEVELS[weapon], firepower),),
        effects=effects,
        value=firepower,
    )


def _hallucination(c: Chart, faces: tuple[int, ...], modifier: int, total: int, row: int, context: Context) -> Outcome:
    doubles = faces[0] == faces[1]
    if context.carry == 0:
        if context.esp_level is None:
            raise MalformedAction("hallucination: give the ESP level of the character under attack")
        if row <= context.esp_level:
            return Outcome(c.id, faces, modifier, total, row, "miss")
    firepower = context.carry + row
    if doubles:
        again = Request(c.id, c.dice, 0, dataclasses.replace(context, carry=firepower))
        return Outcome(c.id, faces, modifier, total, row, "hit-doubles-roll-again", value=firepower, next=again)
    attack = Attack("hallucination", None, firepower, target="self")
    return Outcome(c.id, faces, modifier, total, row, "hit", attacks=(attack,), value=firepower)


def _whim_stats(c: Chart, faces: tuple[int, ...], modifier: int, total: int) -> Outcome:
    level, power, durability, mind = faces
    effect = Effect(
        "whim-stats",
        duration=Duration(until="death"),
        params=(
            ("durability", max(durability, 2)),
            ("esp_level", level),
            ("esp_power", power * 10),
            ("mind", mind + 2),
        ),
    )
    return Outcome(c.id, faces, modifier, total, total, "stats", effects=(effect,))

"""Every Locke step kind, registered once (engine/core/flow.py StepTable).

Each family module lists its step classes in ``STEPS`` (engine/locke/steps.py says
what a step class carries); this module is the one place they are put together, in
the layer order of docs/rules/locke.md. A kind defined twice, or two classes with
one wire name, is refused here, when the engine is imported.

While the rebuild of issue 24 is under way some kinds still live in the older
string-keyed tables (``PENDING``/``HANDLERS``/``AUTO``/``MAKERS`` of each module);
:func:`merged` joins those with the same refusal of a second definition.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from engine.core.flow import StepDefinitionError, StepTable
from engine.core.pending import DiceRolled
from engine.locke import abilities, base_cards, combat, control, declare, fate, planet_cards, setup, traps, turn
from engine.locke.state import LockeState
from engine.locke.steps import Automatic, LockeStep, Waiting, answer_methods

Answer = Callable[..., LockeState]
Run = Callable[..., LockeState]

#: the step families, lowest layer first (docs/rules/locke.md "Where things live")
FAMILIES: tuple[tuple[str, tuple[type[LockeStep], ...]], ...] = (
    ("fate", fate.STEPS),
    ("setup", setup.STEPS),
    ("abilities", abilities.STEPS),
    ("planet cards", planet_cards.STEPS),
    ("base cards", base_cards.STEPS),
    ("traps and charts", traps.STEPS),
    ("combat", combat.STEPS),
    ("control", control.STEPS),
    ("declarations", declare.STEPS),
    ("turn", turn.STEPS),
)


def build(families: Iterable[tuple[str, Iterable[type[LockeStep]]]]) -> StepTable[type[LockeStep], Answer, Run]:
    """The table of typed kinds; StepDefinitionError on a repeated class or wire name."""
    table: StepTable[type[LockeStep], Answer, Run] = StepTable("locke")
    names: dict[str, str] = {}
    for family, classes in families:
        for cls in classes:
            if not cls.KIND or cls.KIND in names:
                raise StepDefinitionError(
                    f"locke: step {cls.__name__} ({family}) has an empty wire name or one already used by "
                    f"{names.get(cls.KIND)}")
            names[cls.KIND] = f"{cls.__name__} ({family})"
            if issubclass(cls, Waiting):
                answers = dict(answer_methods(cls))
                if cls.REROLL:
                    if DiceRolled not in answers:
                        raise StepDefinitionError(f"locke: {cls.__name__} may be re-rolled but takes no dice")
                    answers[DiceRolled] = planet_cards.rerollable_step(answers[DiceRolled])
                table.waits(cls, answers)
            elif issubclass(cls, Automatic):
                table.runs(cls, cls.run)
            else:
                raise StepDefinitionError(f"locke: step {cls.__name__} neither waits nor runs")
    return table


STEPS = build(FAMILIES)
TYPED_KINDS = frozenset(cls.KIND for _, classes in FAMILIES for cls in classes)

K = TypeVar("K")
V = TypeVar("V")


def merged(tables: Iterable[Mapping[K, V]], what: str) -> dict[K, V]:
    """Older string-keyed tables joined into one; a key in two of them is refused."""
    out: dict[K, V] = {}
    for table in tables:
        for key, value in table.items():
            kind = key[0] if isinstance(key, tuple) else key
            if key in out or kind in TYPED_KINDS:
                raise StepDefinitionError(f"locke: {what} of step kind {key!r} is defined twice")
            out[key] = value
    return out


def legacy(modules: Iterable[Any], name: str) -> list[Mapping[Any, Any]]:
    return [getattr(m, name) for m in modules]

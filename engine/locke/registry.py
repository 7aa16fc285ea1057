"""Every Locke step kind, registered once (engine/core/flow.py StepTable).

Each family module lists its step classes in ``STEPS`` (engine/locke/steps.py says
what a step class carries); this module is the one place they are put together, in
the layer order of docs/rules/locke.md. A kind defined twice, or two classes with
one wire name, is refused here, when the engine is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.core.flow import StepDefinitionError, StepTable
from engine.core.pending import DiceRolled
from engine.locke import abilities, base_cards, control, declare, ending, fate, planet_cards, setup, traps, turn
from engine.locke.combat import (
    auto, ball, breakage, deck, disintegration, ebuster, equip, escapes, flow, followup, jammer, kept, nike, path,
    randoms, specials, suits, talks, turn_cards, volley,
)
from engine.locke.state import LockeState
from engine.locke.steps import Automatic, LockeStep, Waiting, answer_methods

Answer = Callable[..., LockeState]
Run = Callable[..., LockeState]

#: the step families, lowest layer first (docs/rules/locke.md "Where things live")
FAMILIES: tuple[tuple[str, tuple[type[LockeStep], ...]], ...] = (
    ("fate", fate.STEPS),
    ("ending", ending.STEPS),
    ("setup", setup.STEPS),
    ("abilities", abilities.STEPS),
    ("planet cards", planet_cards.STEPS),
    ("base cards", base_cards.STEPS),
    ("traps and charts", traps.STEPS),
    ("combat", (*flow.STEPS, *deck.STEPS, *path.STEPS, *auto.STEPS, *equip.STEPS, *jammer.STEPS, *nike.STEPS,
                *specials.STEPS, *escapes.STEPS, *ball.STEPS, *turn_cards.STEPS, *suits.STEPS, *kept.STEPS,
                *breakage.STEPS, *disintegration.STEPS, *ebuster.STEPS, *followup.STEPS, *talks.STEPS,
                *randoms.STEPS, *volley.STEPS)),
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
                for method in answers.values():  # a subclass overriding an answer must mark it again
                    if getattr(cls, method.__name__) is not method:
                        raise StepDefinitionError(f"locke: {cls.__name__}.{method.__name__} overrides an answer "
                                                  "without @answers")
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

"""Locke's step kinds are registered once (engine/locke/registry.py): a repeated wire name,
a waiting step nothing answers, a re-rollable step without dice, or a step that neither waits
nor runs is refused when the table is built."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest

from engine.core.flow import StepDefinitionError
from engine.core.pending import CardsRevealed, DiceRolled
from engine.locke import registry
from engine.locke.state import LockeState
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, Waiting, answers


@dataclasses.dataclass(frozen=True)
class _Ask(SeatDecision):
    KIND: ClassVar[str] = "test_ask"

    @answers(CardsRevealed)
    def shown(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        return s


@dataclasses.dataclass(frozen=True)
class _SameName(Automatic):
    KIND: ClassVar[str] = "test_ask"


@dataclasses.dataclass(frozen=True)
class _Unanswered(SeatDecision):
    KIND: ClassVar[str] = "test_unanswered"


@dataclasses.dataclass(frozen=True)
class _RerollWithoutDice(_Ask):
    KIND: ClassVar[str] = "test_reroll"
    REROLL: ClassVar[bool] = True


@dataclasses.dataclass(frozen=True)
class _Neither(LockeStep):
    KIND: ClassVar[str] = "test_neither"


@pytest.mark.parametrize("classes, words", [
    ((_Ask, _SameName), "already used by _Ask"),
    ((_Ask, _Ask), "already used by _Ask"),
    ((_Unanswered,), "names no action"),
    ((_RerollWithoutDice,), "takes no dice"),
    ((_Neither,), "neither waits nor runs"),
])
def test_a_bad_family_is_refused_when_the_table_is_built(classes: tuple[type[LockeStep], ...], words: str) -> None:
    with pytest.raises(StepDefinitionError, match=words):
        registry.build([("test", classes)])


def test_a_waiting_step_is_answered_by_its_marked_methods() -> None:
    table = registry.build([("test", (_Ask,))])
    assert table.handler(_Ask, CardsRevealed) is _Ask.shown
    assert table.handler(_Ask, DiceRolled) is None


def test_every_step_class_of_the_engine_is_registered() -> None:
    """A step class defined in engine/locke but left out of its family's STEPS would never run."""
    registered = set(registry.STEPS.kinds())
    bases = {LockeStep, Automatic, Waiting, SeatDecision}

    def subclasses(cls: type[LockeStep]) -> list[type[LockeStep]]:
        out = []
        for sub in cls.__subclasses__():
            out += [sub, *subclasses(sub)]
        return out

    engine_steps = {c for c in subclasses(LockeStep) if c.__module__.startswith("engine.locke.") and c not in bases
                    and c.KIND}
    assert engine_steps and engine_steps <= registered, sorted(c.__name__ for c in engine_steps - registered)


def test_every_continuation_has_its_own_wire_name() -> None:
    """A typed continuation (steps.Then) is hashed as its KIND and fields: two with one KIND
    would make two different states hash alike."""
    import engine.locke.game  # noqa: F401  (every family loaded)
    from engine.locke.steps import Then

    def subclasses(cls: type[Then]) -> list[type[Then]]:
        out = []
        for sub in cls.__subclasses__():
            out += [sub, *subclasses(sub)]
        return out

    kinds = [c.KIND for c in subclasses(Then) if c.__module__.startswith("engine.locke.")]
    assert len(kinds) >= 15 and all(kinds) and len(kinds) == len(set(kinds)), sorted(kinds)


@dataclasses.dataclass(frozen=True)
class _Overrides(_Ask):
    KIND: ClassVar[str] = "test_overrides"

    def shown(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:  # not marked again
        return s


def test_an_answer_overridden_without_its_mark_is_refused() -> None:
    """A subclass replacing an answer method must mark it again, or the base's would run unseen."""
    with pytest.raises(StepDefinitionError, match="overrides an answer"):
        registry.build([("test", (_Overrides,))])

"""The step queue that Rider and Locke run on: one table of what each step kind does,
and one settle loop.

A game's state carries a *queue* of steps. The head either waits (for a seat's
decision, a sealed choice, dice, a hidden-card operation, a hidden placement) or is
run by the engine itself. After every input the reducer *settles*: it runs
automatic steps until the head waits again, so ``pending(state)`` is a pure function
of the queue head and a log of inputs replays to the same states everywhere.

:class:`StepTable` maps each step kind (a game chooses what a kind is: Rider uses
text, Locke a step class, engine/locke/steps.py) to the code that answers it or runs
it. A kind is defined once: a second definition is refused when the table is built,
so two modules can never silently overwrite each other's steps. :func:`settle` is the
one loop that runs automatic steps, with a bound that turns an engine fault (a chain
of automatic steps that never waits) into a typed error instead of a hang.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction

K = TypeVar("K")
H = TypeVar("H")
A = TypeVar("A")
S = TypeVar("S")

#: No chain of automatic steps in a real game is this long; reaching it is an engine fault.
MAX_AUTO_STEPS = 10_000


class StepDefinitionError(Exception):
    """A step kind was defined twice, or defined as both waiting and automatic."""


class StepTable(Generic[K, H, A]):
    """What each step kind does: the handlers that answer a waiting kind, one per action
    type, or the one function that runs an automatic kind (``H`` and ``A`` are the
    game's handler and automatic-step signatures)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._answers: dict[K, dict[type[Action], H]] = {}
        self._automatic: dict[K, A] = {}

    def waits(self, kind: K, answers: Mapping[type[Action], H]) -> None:
        """Define a kind that waits for input, and how each action type answers it."""
        self._fresh(kind)
        if not answers:
            raise StepDefinitionError(f"{self.game}: waiting step {kind!r} names no action that answers it")
        self._answers[kind] = dict(answers)

    def runs(self, kind: K, automatic: A) -> None:
        """Define a kind the engine runs by itself."""
        self._fresh(kind)
        self._automatic[kind] = automatic

    def _fresh(self, kind: K) -> None:
        if kind in self._answers or kind in self._automatic:
            raise StepDefinitionError(f"{self.game}: step kind {kind!r} is defined twice")

    def handler(self, kind: K, action: type[Action]) -> H | None:
        """The code answering ``kind`` with an ``action`` of this type, or None if it may not."""
        answers = self._answers.get(kind)
        return None if answers is None else answers.get(action)

    def automatic(self, kind: K) -> A | None:
        """The code running ``kind``, or None when the kind waits for input."""
        return self._automatic.get(kind)

    def answered_by(self, kind: K) -> tuple[type[Action], ...]:
        """The action types that may answer ``kind`` (for error messages and checks)."""
        return tuple(self._answers.get(kind, ()))

    def defines(self, kind: K) -> bool:
        """Whether ``kind`` is defined at all (waiting or automatic)."""
        return kind in self._answers or kind in self._automatic

    def kinds(self) -> tuple[K, ...]:
        return tuple(self._answers) + tuple(self._automatic)


def settle(state: S, run_next: Callable[[S], S | None], *, rule: str, limit: int = MAX_AUTO_STEPS) -> S:
    """Run automatic steps until ``run_next`` says the state waits (returns None).

    ``run_next`` runs the head of the queue when it is automatic and returns the new
    state. Raises :class:`~engine.core.errors.IllegalAction` (citing ``rule``) after
    ``limit`` steps in a row: no rule makes a game loop without input, so that is a
    fault in the engine, reported instead of hanging every peer.
    """
    for _ in range(limit):
        new = run_next(state)
        if new is None:
            return state
        state = new
    raise IllegalAction("the game ran too many automatic steps in a row (an engine fault)", rule=rule)

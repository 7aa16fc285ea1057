"""Tiny with three extra rolls in which nothing (or not everything) is random.

Before Tiny's own 2d6 the game asks for a roll of no dice (as Locke's
initiative does when no fighter is left to roll), a roll of two one-sided
dice (Locke's "pick one of the targets" with one target), and a mixed roll
(a one-sided die and a d6), and records every answer, so a test can check
what each peer applied.
"""

from __future__ import annotations

import dataclasses

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.game import check_answer_matches
from engine.core.pending import Chance, DiceRolled, Pending
from engine.tiny.game import TinyGame, TinyState

#: Queue kind -> the dice each extra roll asks for.
EXTRA_ROLLS = {"none": (), "ones": (1, 1), "mixed": (1, 6)}


@dataclasses.dataclass(frozen=True)
class SettledState(TinyState):
    extra: tuple[tuple[str, tuple[int, ...]], ...] = ()


class SettledDiceGame(TinyGame):
    """Tiny, with the extra rolls of :data:`EXTRA_ROLLS` right before its own roll."""

    def initial_state(self, seats: int) -> SettledState:
        base = super().initial_state(seats)
        roll = next(i for i, q in enumerate(base.queue) if q[0] == "roll")
        extra = tuple((kind, -1) for kind in EXTRA_ROLLS)
        fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(TinyState)}
        return SettledState(**{**fields, "queue": base.queue[:roll] + extra + base.queue[roll:]})

    def pending(self, state: TinyState) -> Pending | None:
        if state.queue and state.queue[0][0] in EXTRA_ROLLS:
            kind = state.queue[0][0]
            return Chance(f"test.{kind}", EXTRA_ROLLS[kind])
        return super().pending(state)

    def apply(self, state: TinyState, action: Action) -> TinyState:
        assert isinstance(state, SettledState)
        if state.queue and state.queue[0][0] in EXTRA_ROLLS:
            check_answer_matches(self.pending(state), action)
            kind = state.queue[0][0]
            if not isinstance(action, DiceRolled) or len(action.faces) != len(EXTRA_ROLLS[kind]) or not all(
                    1 <= f <= sides for f, sides in zip(action.faces, EXTRA_ROLLS[kind])):
                raise IllegalAction(f"roll {kind} needs faces for {EXTRA_ROLLS[kind]}", rule="test.roll")
            return dataclasses.replace(state, queue=state.queue[1:], extra=state.extra + ((kind, action.faces),))
        return super().apply(state, action)

    def public(self, state: TinyState) -> object:
        assert isinstance(state, SettledState)
        public = super().public(state)
        assert isinstance(public, dict)
        return {**public, "extra": [[k, list(f)] for k, f in state.extra]}

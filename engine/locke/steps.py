"""Typed Locke steps: each step kind is a frozen dataclass that carries its own code.

The flow is engine/core/flow.py's (a queue of steps, settled after every input). A
Locke step kind is one class here, with named, typed fields instead of packed text,
and next to them what the kind does:

- an :class:`Automatic` step defines ``run``: the engine does it by itself;
- a :class:`Waiting` step defines ``pending`` (what it waits for; a decision of its
  own ``seat`` by default), ``legal`` (the honest actions of the deciding seat, for
  decisions) and one method per action type that answers it, marked with
  :func:`answers` and typed with that action.

Every step's code receives the game as :class:`Rules` (its component set and what
the state waits for), never an untyped object. The classes are registered once, per
family, in engine/locke/registry.py; a kind defined twice is refused there.

A step's ``KIND`` is its wire name: decisions ask ``"locke." + KIND`` and dice name
it as their purpose, so the prompts bots, clients and word catalogues know stay the
same whatever the class is called. The state hash covers a step as ``[KIND, field
values...]`` (:meth:`LockeStep.data`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Protocol, TypeVar

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.core.pending import Chance, Decision, Pending
from engine.locke.components import Character, ComponentSet
from engine.locke.state import NO_SEAT, Combat, LockeState


class AttackPath(Protocol):
    """The steps of a combat's attack path (engine/locke/combat/path.py) that the items, the
    obstacles' automaton and a random character's items queue when they are done: the path asks
    those modules first, so they reach its steps through the rules object (``g.attack``)."""

    def AttackStands(self) -> LockeStep:
        """The attack goes on to its target."""
        ...

    def BlockStands(self, fighter: int, level: int, handle: int, own: int) -> LockeStep:
        """A block was played and goes on to be judged."""
        ...

    def Hit(self) -> LockeStep:
        """The attack hits its target."""
        ...

    def DamageRoll(self) -> LockeStep:
        """The damage chart is rolled for the hit."""
        ...

    def DurabilityQuestion(self, seat: int) -> LockeStep:
        """The hit seat declares its durability."""
        ...

    def FleeRoll(self, seat: int, fighter: int) -> LockeStep:
        """The escaper's roll."""
        ...

    def TurnAction(self, seat: int, fighter: int) -> LockeStep:
        """A seat's combat turn is asked anew."""
        ...

    def forest_steps(self, s: LockeState) -> tuple[LockeState, tuple[LockeStep, ...]]:
        """The resonance forest's checks still due."""
        ...


class Rules(Protocol):
    """What a step's code may ask of the game (engine/locke/game.py LockeGame): the component
    set, what a state waits for, and the turn's own steps.

    Why the turn's steps come through here: a combat, a planet card or a chart entry hands
    control back to the turn (the escaper obeys its new cell, a dead seat's turn ends, the
    planet phase ends), while the turn is what starts them. Asking the game for those steps
    keeps every import pointing down (docs/rules/locke.md "How the engine is built").
    """

    @property
    def components(self) -> ComponentSet: ...

    def pending(self, state: LockeState) -> Pending | None: ...

    @property
    def attack(self) -> AttackPath:
        """The attack path's steps (engine/locke/combat/path.py)."""
        ...

    def begin_combat(self, s: LockeState, combat: Combat) -> LockeState:
        """Start ``combat`` (engine/locke/combat/flow.py ``begin``): a follow-up combat does."""
        ...

    def instruct(self, seat: int) -> LockeStep:
        """KMC 9.2.2, 9.3.2: ``seat`` obeys the card of the cell it stands on."""
        ...

    def end_turn(self, seat: int) -> LockeStep:
        """The end of ``seat``'s turn (KMC 9.1)."""
        ...

    def revived_turn(self, seat: int) -> tuple[LockeStep, ...]:
        """KMC 8 (ruling N66): a seat a clone brought back goes on from the instruction phase:
        the cell's card, then the combat phase and (base phase) the destruction phase."""
        ...

    def expose(self, seat: int) -> LockeStep:
        """``seat`` turns its own character card face up for good (seed 000 3.2.3)."""
        ...

    def show_character(self, seat: int, target: int) -> LockeStep:
        """``target``'s character card is shown to ``seat`` alone (seed 000 3.2.3)."""
        ...

    def no_searchers(self) -> LockeStep:
        """The phase change when no searcher is left alive (KMC 7.2.2)."""
        ...

    def information_found(self, seat: int) -> LockeStep:
        """The planet phase ends if ``seat``'s party holds three information cards (seed 000 3.2.2)."""
        ...

    def random_combat(self, seat: int) -> LockeStep:
        """The random-combat chart for ``seat``'s party, from the resonance forest (seed 002)."""
        ...

    def freed(self, s: LockeState, seat: int, how: str) -> LockeState:
        """``seat`` leaves prison (KMC 8); a base player off the board enters at random."""
        ...

    def trap_steps(self, seat: int, cell: str) -> tuple[LockeStep, ...]:
        """``seat`` rolls on the trap chart (seed 002), ``cell`` being where."""
        ...


@dataclasses.dataclass(frozen=True)
class LockeStep:
    """Base of every typed step. Subclasses are frozen dataclasses with a ``KIND``."""

    KIND: ClassVar[str] = ""

    @property
    def kind(self) -> str:
        return self.KIND

    def data(self) -> list[Any]:
        """What the state hash covers: the kind, then each field's value in order."""
        return [self.KIND, *(getattr(self, f.name) for f in dataclasses.fields(self))]

    def __canonical__(self) -> list[Any]:
        return self.data()


@dataclasses.dataclass(frozen=True)
class Automatic(LockeStep):
    """A step the engine runs by itself when it reaches the head of the queue."""

    def run(self, g: Rules, s: LockeState) -> LockeState:
        raise NotImplementedError(f"{type(self).__name__} does not say how it runs")


@dataclasses.dataclass(frozen=True)
class Waiting(LockeStep):
    """A step that waits for input; answered by its :func:`answers` methods.

    A roll a seat makes with its own dice sets ``REROLL``: its roller may re-roll it
    first with a kept residential district (seed 000 3.2.4, ruling N62; the offer is
    engine/locke/planet_cards.py's, wrapped around the roll's answer in registry.py).
    """

    REROLL: ClassVar[bool] = False

    def pending(self, g: Rules, s: LockeState) -> Pending:
        raise NotImplementedError(f"{type(self).__name__} does not say what it waits for")

    def decider(self) -> int:
        """The seat whose decision this is, before control (engine/locke/control.py) says
        who makes it; NO_SEAT for a step no seat decides (dice, hidden operations)."""
        return NO_SEAT

    def roller(self, s: LockeState) -> int:
        """Whose dice a ``REROLL`` step waits for (the deciding seat unless the step says)."""
        return self.decider()

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        """The actions the deciding seat may take (honest when ``me`` and ``knowledge`` are
        given); driver answers (dice, hidden operations) are not listed here."""
        return []


@dataclasses.dataclass(frozen=True)
class SeatDecision(Waiting):
    """A step its own ``seat`` decides; it asks ``"locke." + KIND``."""

    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Decision(self.seat, "locke." + self.KIND)

    def decider(self) -> int:
        return self.seat


@dataclasses.dataclass(frozen=True)
class Ordered(SeatDecision):
    """A decision a controlling seat may order (KMC 4, engine/locke/control.py orders):
    ``order`` is empty until the controller has given one."""

    fighter: int  # the seat's place in the fight (engine/locke/combat/model.py Fight.fighters)
    order: str = dataclasses.field(default="", kw_only=True)


@dataclasses.dataclass(frozen=True)
class SeatRoll(Waiting):
    """Dice rolled for ``seat`` (a chart, a check, a release): the step waits for the
    driver's roll of ``DICE`` named ``PURPOSE`` (override :meth:`pending` for a purpose or
    dice that depend on the step). When ``REROLL`` is set the roll is the seat's own, so
    it is the seat that may re-roll it."""

    PURPOSE: ClassVar[str] = ""
    DICE: ClassVar[tuple[int, ...]] = (6, 6)
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance(self.PURPOSE, self.DICE)

    def roller(self, s: LockeState) -> int:
        return self.seat


@dataclasses.dataclass(frozen=True)
class Then:
    """What happens after a check, a hit or another of fate's services (engine/locke/fate.py)
    has settled: a typed value carried by fate's step, so fate never looks up or imports
    the module that asked. Subclasses are frozen dataclasses with a ``KIND``; the state
    hash covers them as ``[KIND, field values...]``."""

    KIND: ClassVar[str] = ""

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        """The state once ``seat``'s check has passed (``success``) or failed; the finished
        step is still the head, so return ``advance(s, ...)`` like a handler."""
        raise NotImplementedError(f"{type(self).__name__} does not say what follows")

    def data(self) -> list[Any]:
        return [self.KIND, *(getattr(self, f.name) for f in dataclasses.fields(self))]

    def __canonical__(self) -> list[Any]:
        return self.data()


F = TypeVar("F", bound=Callable[..., LockeState])


def answers(*actions: type[Action]) -> Callable[[F], F]:
    """Mark a method of a :class:`Waiting` step as the answer to these action types.

    The method's signature is ``(self, g: Rules, s: LockeState, action: TheAction)``.
    """

    def mark(method: F) -> F:
        setattr(method, "_answers", actions)
        return method

    return mark


def answer_methods(cls: type[Waiting]) -> Iterator[tuple[type[Action], Callable[..., LockeState]]]:
    """Each action type a waiting step class answers and the method that answers it."""
    for klass in reversed(cls.__mro__):
        for member in vars(klass).values():
            for action in getattr(member, "_answers", ()):
                yield action, member

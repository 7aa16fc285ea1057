"""What a Locke scenario file may state beyond engine/locke/position.py: a combat already
called, and the cards a zone will hold on top once shuffled (docs/scenarios.md, "Locke
scenarios").

A combat is stated the way the rules start one: the position is built, then the
combat is called on it (engine/locke/combat/flow.py ``begin``) with its cause, cell,
sides, obstacles and henchmen, so every check the rules make as a combat starts
(the police's weapon check, the actually-there offers, the declarations of items)
still happens, answered by the file's own inputs. The cards dealt are fixed the way a
file fixes dice: ``stack`` names the cards a zone holds on top after its first shuffle
(a permutation of what the shuffle made; the trusted table's truth stays a deck of the
same cards).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.actions import Action
from engine.core.pending import HiddenOp
from engine.locke.combat.flow import begin
from engine.locke.combat.model import Obstacle
from engine.locke.game import LockeGame
from engine.locke.state import Combat, LockeState
from net.local_table import LocalTable
from net.problems import InputProblem

#: A stacked position left as the shuffle made it.
ANY = "*"

CAUSES = ("declared", "ambush", "random-combat", "prison", "barracks")

_OBSTACLE_FIELDS = frozenset(Obstacle._fields)


class StackedTable(LocalTable):
    """A trusted table whose named zones, once shuffled, hold the file's cards on top.

    Each zone is stacked at its first shuffle only: a later reshuffle is left to the seed,
    as a table's would be."""

    def __init__(self, *args: Any, stack: Mapping[str, Sequence[str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._stack = {zone: list(cards) for zone, cards in (stack or {}).items()}

    def _hidden(self, op: HiddenOp) -> Action:
        action = super()._hidden(op)
        cards = self._stack.pop(op.zone, None) if op.op == "shuffle" else None
        if cards is not None:
            self._put_on_top(op.zone, cards)
        return action

    def _put_on_top(self, zone: str, cards: Sequence[str]) -> None:
        handles = self.game.zone(self.state, zone)
        if len(cards) > len(handles):
            raise InputProblem(f"stack: zone {zone} holds {len(handles)} cards, the file names {len(cards)}")
        fixed: list[int] = []
        for k, card in enumerate(cards):
            if card == ANY:
                continue
            j = next((j for j in range(len(handles)) if j not in fixed and self.truth[handles[j]] == card), None)
            if j is None:
                raise InputProblem(f"stack: zone {zone} has no card {card!r} left to put at position {k + 1}")
            a, b = handles[k], handles[j]
            self.truth[a], self.truth[b] = self.truth[b], self.truth[a]
            fixed.append(k)


def stack_of(position: Mapping[str, Any]) -> dict[str, list[str]]:
    """The position's ``stack``: zone name -> card ids on top (``"*"``: as shuffled)."""
    raw = position.get("stack", {})
    if not isinstance(raw, Mapping) or not all(isinstance(v, list) for v in raw.values()):
        raise InputProblem("'stack' maps a zone (e.g. 'combat:deck') to the card ids on its top, '*' for any")
    return {str(zone): [str(c) for c in cards] for zone, cards in raw.items()}


def _obstacle(raw: Any, index: int) -> Obstacle:
    if not isinstance(raw, Mapping) or not {"id", "level", "firepower", "durability"} <= set(raw):
        raise InputProblem(f"combat obstacle {index + 1}: an object with at least id, level, firepower, durability")
    unknown = set(raw) - _OBSTACLE_FIELDS
    if unknown:
        raise InputProblem(f"combat obstacle {index + 1}: unknown fields {sorted(unknown)}; "
                           f"the fields are {sorted(_OBSTACLE_FIELDS)}")
    fields: dict[str, Any] = {k: (tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list)
                                  else v) for k, v in raw.items()}
    return Obstacle(**fields)


def combat_of(raw: Any, seats: int) -> Combat:
    """The combat a position calls: ``cause``, ``cell``, ``sides`` (two seat lists),
    ``obstacles`` (fields of engine/locke/combat/model.py Obstacle) and ``henchmen``."""
    if not isinstance(raw, Mapping):
        raise InputProblem("'combat' is an object: cause, cell, sides, and optionally obstacles and henchmen")
    cause = str(raw.get("cause", "declared"))
    if cause not in CAUSES:
        raise InputProblem(f"combat cause {cause!r}; one of {', '.join(CAUSES)}")
    sides = raw.get("sides")
    if (not isinstance(sides, list) or len(sides) != 2
            or not all(isinstance(side, list) and all(isinstance(x, int) and 0 <= x < seats for x in side)
                       for side in sides)):
        raise InputProblem(f"combat 'sides' is two lists of seat numbers (0 to {seats - 1})")
    obstacles = tuple(_obstacle(o, i) for i, o in enumerate(raw.get("obstacles", [])))
    return Combat(cause, str(raw.get("cell", "")), (tuple(sides[0]), tuple(sides[1])),
                  obstacles=obstacles, henchmen=int(raw.get("henchmen", 0)))


def with_combat(game: LockeGame, state: LockeState, raw: Any) -> LockeState:
    """``state`` with the position's combat called (the turn goes on after it)."""
    return game.settle(begin(state, combat_of(raw, state.n)))

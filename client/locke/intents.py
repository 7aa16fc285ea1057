"""The player's possible inputs, made only from the legal list: board targets and button groups.

Why: the scene must never offer an input the table would refuse, and a
Locke decision can have dozens of legal inputs (every cell a teleport can
land on, every card, target and stretch of a combat play). So the legal
list (``session.legal()``: engine actions, sealed picks, placement picks)
is split once, here, into

- *board targets*: a cell -> the inputs that go there (walk, land, fly,
  a hidden placement); the board lights exactly these cells, and a click
  on one submits its only input (or asks which, when several go there);
- *groups*: one button each. A group holds the inputs of one kind (the
  teleport's levels, the combat card played for one use), so a decision
  with many inputs still fits the bar; a group of one input submits it at
  once, a larger one opens its members (the second click).

Nothing here builds an input: every one is an element of the list given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from engine.core.inputs import PlacementPick, SealedPick

#: Input kinds whose ``to`` field is a cell (lit on the board).
CELL_KINDS = ("locke.walk", "locke.land", "locke.fly")
#: Input kinds whose variants make one button (the declared level or value, the target ...).
GROUPED = ("locke.walk", "locke.land", "locke.fly", "locke.teleport", "locke.enter_base", "locke.nova",
           "locke.check_value", "locke.stat", "locke.durability", "locke.cb.durability", "locke.propose",
           "locke.identify", "locke.cb.equip", "locke.order", "locke.choose", "locke.switch", "locke.info_check",
           "locke.play_teleport", "locke.cb.trim", "locke.cb.ship_effect", "locke.cb.suit_kind", "locke.fight",
           "locke.king_room")


@dataclasses.dataclass(frozen=True)
class Group:
    """One button's worth of inputs: ``key`` names the group (for words and tests), ``inputs`` its members."""

    key: tuple[Any, ...]
    inputs: tuple[Any, ...]

    @property
    def single(self) -> bool:
        return len(self.inputs) == 1


def kind_of(choice: Any) -> str:
    """An input's kind: the action's KIND, or "sealed" / "place" for a driver pick."""
    if isinstance(choice, PlacementPick):
        return "place"
    if isinstance(choice, SealedPick):
        return "sealed"
    return str(getattr(choice, "KIND", type(choice).__name__))


def cell_of(choice: Any) -> str | None:
    """The board cell an input goes to, if it is a board target."""
    if isinstance(choice, PlacementPick):
        return choice.cell
    if kind_of(choice) in CELL_KINDS:
        return str(getattr(choice, "to"))
    return None


def board_targets(legal: Sequence[Any]) -> dict[str, list[Any]]:
    """Cell -> the legal inputs that go there, in the legal list's order."""
    out: dict[str, list[Any]] = {}
    for choice in legal:
        cell = cell_of(choice)
        if cell is not None:
            out.setdefault(cell, []).append(choice)
    return out


def group_key(choice: Any) -> tuple[Any, ...]:
    """What makes two inputs one button."""
    kind = kind_of(choice)
    if kind == "place":
        return (kind, choice.thing)
    if kind == "locke.cb.play":
        return (kind, choice.use, choice.card, choice.acts_as)
    if kind == "locke.cb.item":
        return (kind, choice.item)
    if kind == "locke.use_card":
        return (kind, choice.handle, choice.card)
    if kind == "locke.use_ability":
        return (kind, choice.ability)
    if kind in GROUPED:
        return (kind,)
    return (kind, repr(choice))


def groups(legal: Sequence[Any]) -> list[Group]:
    """The legal list as buttons, in the order their first member appears."""
    order: list[tuple[Any, ...]] = []
    members: dict[tuple[Any, ...], list[Any]] = {}
    for choice in legal:
        key = group_key(choice)
        if key not in members:
            order.append(key)
            members[key] = []
        members[key].append(choice)
    return [Group(key, tuple(members[key])) for key in order]


def placing(legal: Sequence[Any]) -> PlacementPick | None:
    """The first placement pick offered (what is being placed now), or None."""
    return next((c for c in legal if isinstance(c, PlacementPick)), None)

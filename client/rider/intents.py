"""From clicks to engine actions, only through the legal list.

Every legal action has a *source* (where the player starts the gesture: a
hand card, one of their columns, or a button) and an optional *target* (a
column). The scene asks :class:`Intents` what a click on something offers;
it never builds an action itself, so it cannot offer an illegal one. When
several legal actions share a source and target (a Lv.2-3 card, effect
targets, which card to discard) the player picks among exactly those.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.actions import Action
from engine.rider.actions import (
    Attack,
    Discard,
    EndAttacks,
    LevelUp,
    OpenColumn,
    Pass,
    Renew,
    SetUp,
)
from engine.core.inputs import SealedPick, SeatInput
from client.table.controls import Key



def source_of(action: SeatInput) -> Key:
    if isinstance(action, (LevelUp, Renew, OpenColumn, Discard)):
        return ("hand", action.handle)
    if isinstance(action, Attack):
        return ("mine", action.column)
    if isinstance(action, Pass):
        return ("button", "pass")
    if isinstance(action, EndAttacks):
        return ("button", "end")
    if isinstance(action, SetUp):
        return ("button", "setup")
    if isinstance(action, SealedPick):
        return ("button", "sealed")
    return ("button", action.KIND if isinstance(action, Action) else "place")


def target_of(action: SeatInput) -> Key | None:
    if isinstance(action, (LevelUp, Renew, OpenColumn)):
        return ("mine", action.column)
    if isinstance(action, Attack):
        return ("theirs", action.target)
    return None


def needs_confirm(action: SeatInput) -> bool:
    """Moves that throw a card away or destroy cards get a confirmation."""
    return isinstance(action, (OpenColumn, Discard, Attack)) or (isinstance(action, Pass) and action.card is not None)


class Intents:
    """The legal actions indexed by source and target."""

    def __init__(self, legal: Sequence[SeatInput]) -> None:
        self.legal = list(legal)

    def sources(self) -> set[Key]:
        return {source_of(a) for a in self.legal}

    def from_source(self, source: Key) -> list[SeatInput]:
        return [a for a in self.legal if source_of(a) == source]

    def targets(self, source: Key) -> set[Key]:
        return {t for a in self.from_source(source) if (t := target_of(a)) is not None}

    def between(self, source: Key, target: Key | None) -> list[SeatInput]:
        return [a for a in self.from_source(source) if target_of(a) == target]

    def buttons(self) -> list[str]:
        order = ["setup", "sealed", "pass", "end"]
        present = {s[1] for s in self.sources() if s[0] == "button"}
        return [b for b in order if b in present] + sorted(str(b) for b in present if b not in order)

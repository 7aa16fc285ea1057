"""Honest legal actions for the decisions of engine/locke/base_cards.py not yet typed (fate's
are on its typed steps, engine/locke/fate.py).

Merged into engine/locke/legal.py's table. With the seat's knowledge each
declaration is offered only with its true value (so bots never make a false
claim); without it, every value the public record allows.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.locke import base_cards, stats
from engine.locke.actions import Fact, PlayTeleport
from engine.locke.claims import FACTS
from engine.locke.components import Character
from engine.locke.state import LockeState, Step, zone_of


def _now(s: LockeState, step: Step, me: Character, stat: str) -> int:
    p = s.seats[step.seat]
    return stats.current(me, p.mods, p.proofs, stat)


def _fact(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    question = step.arg.split("|", 1)[0]
    if me is None:
        return [Fact(step.seat, True), Fact(step.seat, False)]
    return [Fact(step.seat, FACTS[question](me))]


def _level_above(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    """Illusion room: "my level is above n" (step.n)."""
    if me is None:
        return [Fact(step.seat, True), Fact(step.seat, False)]
    return [Fact(step.seat, _now(s, step, me, "level") > step.n)]


def _level_reaches(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    """Card loop: "this attack's level (step.n) is within mine"."""
    if me is None:
        return [Fact(step.seat, True), Fact(step.seat, False)]
    return [Fact(step.seat, step.n <= _now(s, step, me, "level"))]


def _vortex_play(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    hand = zone_of(s, "vortex:" + str(step.seat))
    if k is None:
        out: list[Action] = [PlayTeleport(step.seat, -1)]
        return out + [PlayTeleport(step.seat, h) for h in hand]
    teleports = [h for h in hand if (c := k.card(h)) and base_cards.is_teleport(c)]
    if teleports:  # KMC 4: try to play a teleport if there is one
        return [PlayTeleport(step.seat, teleports[0])]
    return [PlayTeleport(step.seat, -1)]


MAKERS: dict[str, Any] = {
    "fact": _fact, "above": _level_above,
    "loop_hit": _level_reaches,
    "vortex_play": _vortex_play,
}

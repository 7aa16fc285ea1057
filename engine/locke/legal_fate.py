"""Honest legal actions for the decisions of engine/locke/fate.py.

Merged into engine/locke/legal.py's table. With the seat's knowledge each
declaration is offered only with its true value (so bots never make a false
claim); without it, every value the public record allows.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.locke import fate, stats
from engine.locke.actions import CheckValue, DeclareDurability, TryRevive
from engine.locke.components import Character
from engine.locke.state import LockeState, Step


def _now(s: LockeState, step: Step, me: Character, stat: str) -> int:
    p = s.seats[step.seat]
    return stats.current(me, p.mods, p.proofs, stat)


def _check_value(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    stat = step.arg.split("|", 1)[0]
    accepted = fate.check_range(g, s, step.seat, stat)
    top = _now(s, step, me, stat) if me is not None else accepted.stop - 1
    out: list[Action] = [CheckValue(step.seat, v) for v in accepted if v <= top]
    return out + [CheckValue(step.seat, -1)]


def _hit_value(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return _hit_declarations(g, s, step, me, step.arg.split("|")[2])


def _redeclare(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    """After a true self: the new character declares (its damage and changes start afresh)."""
    return _hit_declarations(g, s, step, me, step.arg.split("|")[3])


def _hit_declarations(g: Any, s: LockeState, step: Step, me: Character | None, stat: str) -> list[Action]:
    accepted = fate.hit_range(g, s, step.seat, stat)
    if me is not None:
        value = _now(s, step, me, stat) - (s.seats[step.seat].damage if stat == "durability" else 0)
        return [DeclareDurability(step.seat, max(accepted.start, value))]
    return [DeclareDurability(step.seat, v) for v in accepted]


def _try_revive(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [TryRevive(step.seat, True), TryRevive(step.seat, False)]


MAKERS: dict[str, Any] = {
    "try_revive": _try_revive,
    "check_value": _check_value, "hit_value": _hit_value, "hit_redeclare": _redeclare,
}

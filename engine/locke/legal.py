"""Legal actions of a Locke seat, from the public state and the seat's own knowledge.

With ``knowledge`` the list is *honest*: declarations about the seat's own
hidden cards (its level, durability, what a drawn card is) are offered only
with their true values, so bots never make false claims. Without knowledge
every value the public record allows is listed (what the engine accepts).

A typed step (engine/locke/steps.py) lists its own honest actions in its ``legal``
method; the older string-keyed makers of engine/locke/legal_fate.py,
legal_effects.py and combat/legal.py serve the kinds not yet rebuilt.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.core.pending import Decision
from engine.locke import control, legal_effects, legal_fate
from engine.locke.components import Character
from engine.locke.state import LockeState
from engine.locke.steps import Waiting


def _character(g: Any, s: LockeState, seat: int, knowledge: Knowledge | None) -> Character | None:
    if knowledge is None:
        return None
    card = knowledge.card(s.seats[seat].character)
    return g.components.character(card) if card else None


def legal_actions(g: Any, s: LockeState, seat: int, knowledge: Knowledge | None) -> list[Action]:
    pending = g.pending(s)
    if not isinstance(pending, Decision) or pending.seat != seat:
        return []
    step = s.queue[0]
    if control.decider(step) != seat:  # a controller decides for the seat it controls, from public data only (N212)
        return control.legal_for_controller(g, s, step, seat, _MAKERS)
    me = _character(g, s, seat, knowledge)
    if isinstance(step, Waiting):
        return control.obeying(step, step.legal(g, s, me, knowledge))
    actions: list[Action] = _MAKERS[step.kind](g, s, step, me, knowledge)
    return control.obeying(step, actions)


_MAKERS: dict[str, Any] = {}
_MAKERS.update(legal_fate.MAKERS)  # fate's checks, hits and revival (engine/locke/legal_fate.py)
_MAKERS.update(legal_effects.MAKERS)  # planet cards, trap and event charts (engine/locke/legal_effects.py)

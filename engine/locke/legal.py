"""Legal actions of a Locke seat, from the public state and the seat's own knowledge.

With ``knowledge`` the list is *honest*: declarations about the seat's own
hidden cards (its level, durability, what a drawn card is) are offered only
with their true values, so bots never make false claims. Without knowledge
every value the public record allows is listed (what the engine accepts).

Each waiting step lists its own honest actions in its ``legal`` method
(engine/locke/steps.py); here only who decides is settled: the seat itself, or
the seat controlling it, from public data alone (engine/locke/control.py).
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.core.pending import Decision
from engine.locke import control, kit
from engine.locke.components import Character
from engine.locke.state import LockeState
from engine.locke.steps import Rules, Waiting


def _character(g: Rules, s: LockeState, seat: int, knowledge: Knowledge | None) -> Character | None:
    """The seat's card as the seat knows it, with the abilities and items it may use now
    (Hijiri's whim, engine/locke/kit.py, ruling N275): every step's honest options read it."""
    if knowledge is None:
        return None
    card = knowledge.card(s.seats[seat].character)
    return kit.now(g.components.character(card), s.seats[seat].mods) if card else None


def legal_actions(g: Rules, s: LockeState, seat: int, knowledge: Knowledge | None) -> list[Action]:
    pending = g.pending(s)
    if not isinstance(pending, Decision) or pending.seat != seat:
        return []
    step = s.queue[0]
    if control.decider(step) != seat:  # a controller decides for the seat it controls, from public data only (N212)
        return control.legal_for_controller(g, s, step, seat)
    if not isinstance(step, Waiting):
        return []
    return control.obeying(step, step.legal(g, s, _character(g, s, seat, knowledge), knowledge))

"""Decisions: one seat's action, with proofs for the hidden cards it uses.

An action message carries the action and the card claims the table plan
asks for (which hidden card is played); the claims are verified before the
action reaches the engine (a decision the hand audit must re-judge later is
remembered by the play phase, :meth:`net.session.play.Play.applied`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.actions import Action
from engine.core.pending import DRIVER_ANSWERS, Decision
from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.session.cards import make_claims, verify_claims

if TYPE_CHECKING:
    from net.session.core import Session

DRIVER_ANSWER_TYPES = tuple(DRIVER_ANSWERS)


def send_action(s: Session, action: Action) -> None:
    """Sign our action with proofs for the hidden cards it names."""
    assert s.book is not None
    parts = make_claims(s.book, s.step, s.plan.claims(action), s.caps.open_cards(s.state))
    s._send("action", {"action": action.to_data(), "cards": parts})


def emit_decision(s: Session, pending: Decision) -> bool:
    """Let our agent decide, when the decision is ours and not yet sent."""
    me = s.seat
    if me is None or pending.seat != me or (s.step, "action") in s._sent or s.agent is None:
        return False
    chosen = s.agent.choose(s.game, s.state, me, s.knowledge, s.legal(me))
    if not isinstance(chosen, Action):
        raise TypeError(f"our agent answered a decision with {chosen!r}, which it was not offered")
    send_action(s, chosen)
    return True


def on_action(s: Session, env: Envelope) -> None:
    """The deciding seat's action: verify its card proofs, then apply it."""
    body = env.body
    seat = env.seat
    if not isinstance(body, Mapping) or set(body) != {"action", "cards"}:
        raise MalformedMessage("an action message is {'action': action, 'cards': proofs}", seat=seat)
    action = s.game.codec.decode(body["action"])
    if isinstance(action, DRIVER_ANSWER_TYPES):
        raise UnexpectedMessage(f"sent a driver answer ({action.KIND}) as its decision; outcomes of dice "
                                "and cards come only from the joint protocols", seat=seat)
    if action.seat != seat:
        raise UnexpectedMessage(f"signed an action in the name of seat {action.seat}", seat=seat)
    assert s.book is not None
    opened = s.caps.open_cards(s.state)
    proven = verify_claims(s.book, s.step, seat, s.plan.claims(action), opened, body["cards"])
    s._apply(action)
    for handle, point, card in proven:
        s.book.opened[point] = card
        s.book.held.pop(handle, None)
        s.book.identified[handle] = card

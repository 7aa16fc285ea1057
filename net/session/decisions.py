"""Decisions: one seat's action, with proofs for the hidden cards it uses.

An action message carries the action and the card claims the table plan
asks for (which hidden card is played); the claims are verified before the
action reaches the engine (a decision the hand audit must re-judge later is
remembered by the play phase, :meth:`net.session.play.Play.applied`).

On a table that proves claims at their step (genesis ``claims``
:data:`~net.envelope.CLAIMS_AT_STEP`) the message also carries ``claims``:
the proofs for the claims the action makes about the sender's own cards
(net/session/claim_steps.py); an action that owes none leaves it out. A missing or failed one stops the game naming
the seat at that step; the message is kept on record as the evidence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.actions import Action
from engine.core.pending import DRIVER_ANSWERS, Decision
from net.envelope import CLAIMS_AT_STEP, Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.session import claim_steps
from net.session.cards import make_claims, verify_claims
from net.session.events import Cheat

if TYPE_CHECKING:
    from net.session.core import Session

DRIVER_ANSWER_TYPES = tuple(DRIVER_ANSWERS)


def send_action(s: Session, action: Action) -> None:
    """Sign our action with proofs for the hidden cards it names."""
    assert s.book is not None
    parts = make_claims(s.book, s.step, s.plan.claims(action), s.caps.open_cards(s.state))
    body: dict[str, object] = {"action": action.to_data(), "cards": parts}
    if s.genesis.claims == CLAIMS_AT_STEP:
        owes = claim_steps.owed(s, action.seat, s.state, s.game.apply(s.state, action))
        if owes.statements:
            body["claims"] = claim_steps.make(s, owes.statements)
    s._send("action", body)


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
    at_step = s.genesis.claims == CLAIMS_AT_STEP
    if not isinstance(body, Mapping) or not {"action", "cards"} <= set(body) <= (
            {"action", "cards", "claims"} if at_step else {"action", "cards"}):
        raise MalformedMessage("an action message is {'action': action, 'cards': proofs"
                               + (", 'claims': claim proofs (when it makes claims)}" if at_step else "}"), seat=seat)
    action = s.game.codec.decode(body["action"])
    if isinstance(action, DRIVER_ANSWER_TYPES):
        raise UnexpectedMessage(f"sent a driver answer ({action.KIND}) as its decision; outcomes of dice "
                                "and cards come only from the joint protocols", seat=seat)
    if action.seat != seat:
        raise UnexpectedMessage(f"signed an action in the name of seat {action.seat}", seat=seat)
    assert s.book is not None
    opened = s.caps.open_cards(s.state)
    proven = verify_claims(s.book, s.step, seat, s.plan.claims(action), opened, body["cards"])
    after = s.game.apply(s.state, action)
    if at_step:
        owes = claim_steps.owed(s, seat, s.state, after)
        try:
            claim_steps.check(s, seat, owes, body.get("claims", ()), mine=env.digest() in s._made)
        except claim_steps.ClaimProofFailed as exc:
            s._halt(Cheat(seat, s.step, exc.detail))  # accepted on record: the signed action is the evidence
            return
        claim_steps.record(s, owes)
    s._apply(action, after)
    for handle, point, card in proven:
        s.book.opened[point] = card
        s.book.held.pop(handle, None)
        s.book.identified[handle] = card

"""The ``play`` phase: one step at a time, a decision or one joint round.

:class:`Play` owns what only play needs: the current step's
:class:`~net.session.rounds.Round` (None while a seat decides) and the
checkpoints the hand audit will re-judge (:class:`~net.session.audit.Checkpoint`).
The card book it plays with was built by the opening and is handed on to the
audit. Each step's pending input comes from the engine; a round completes
when every part is in and its answer is applied in seat order, so every peer
feeds the engine the same input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action
from engine.core.pending import Chance, Decision, HiddenOp, Placement, SealedChoice
from net.envelope import DICE_VRF, Envelope
from net.errors import UnexpectedMessage
from net.session import decisions, leave
from net.session.leave import TOO_FEW
from net.session.decisions import DRIVER_ANSWER_TYPES
from net.session.audit import Checkpoint
from net.session.cards import CardBook
from net.session.endgame import Audit
from net.session.dice_rounds import settled_round
from net.session.phases import Phase, Wait, refuse_second_hello
from net.session.rounds import NOTHING, CommitReveal, Round, make_round

if TYPE_CHECKING:
    from net.session.core import Session


class Play:
    """Phase ``play`` (see the module docstring)."""

    name = "play"

    def __init__(self, s: Session, book: CardBook) -> None:
        self.s = s
        self.book = book
        #: The joint round of the current step (None for a decision, or before it is made).
        self.round: Round | None = None
        #: Decisions the audit re-judges with the opened hand (plan.hand_audit).
        self.checkpoints: list[Checkpoint] = []

    # --- the phase questions

    def take(self, env: Envelope) -> None:
        s = self.s
        kind, k = env.kind, env.seen.step
        refuse_second_hello(env)
        if kind == "final":
            if k < s.step and not (len(s.seats) > 2 and len(s.seats) - len(s.left) == 2 and _too_few(env)):
                raise UnexpectedMessage(f"signed a final record at step {k}, but the game went on from there (a "
                                        "forfeit it claimed was voided by the answer on record)", seat=env.seat)
            # a final record may come before the forfeit or resignation that ended the game here
            # (and a transcript orders envelopes by seat): it waits; it only ever counts in phase "final".
            # With two seats still playing at a table of more, one more leave ends the game at the
            # latest step a leave was signed at (net.session.leave.end_for_too_few), which a reader of the
            # record may have passed meanwhile (the leaver had given its part of that step): such a record
            # (its outcome says so) waits too; any other final record of a past step is refused as above
            raise Wait
        if kind == "audit":
            raise Wait if s.game.pending(s.state) is None else \
                UnexpectedMessage(f"sent a {kind!r} message before the game ended", seat=env.seat)
        if k < s.step:
            then = s.game.pending(s.states[k])
            settled = settled_round(then) if isinstance(then, Chance) else None
            if settled is not None:  # applied at once, with no round: no message ever belonged to that step
                settled.take(s, env)
            raise UnexpectedMessage(f"its {kind!r} message is for step {k}, which is already complete",
                                    seat=env.seat)
        self._step_part(env)

    def owe(self) -> bool:
        """Send our part of the current decision or round, if we owe one."""
        s = self.s
        pending = s.game.pending(s.state)
        if isinstance(pending, Decision):
            return decisions.emit_decision(s, pending)
        return self.round.make_ours(s) if self.round is not None else False

    def waiting_for(self) -> tuple[int, ...]:
        pending = self.s.game.pending(self.s.state)
        if isinstance(pending, Decision):
            return (pending.seat,)
        return self.round.waiting_for() if self.round is not None else ()

    def describe(self) -> str:
        pending = self.s.game.pending(self.s.state)
        if isinstance(pending, Decision):
            return f"decide ({pending.prompt})"
        if isinstance(pending, SealedChoice):
            return f"commit or reveal its sealed choice ({pending.purpose})"
        if isinstance(pending, Chance):
            return (f"send its part of the roll ({pending.purpose})" if self.s.genesis.dice == DICE_VRF
                    else f"commit or reveal its dice contribution ({pending.purpose})")
        if isinstance(pending, HiddenOp):
            return f"do its part of the {pending.op} of {pending.zone}"
        if isinstance(pending, Placement):
            return f"{pending.op} the hidden cells of {pending.zone}"
        return "act"

    def successor(self) -> Phase | None:
        """The audit once the engine has no pending input; until then open each
        step's round (and apply it at once when it needs nobody's part)."""
        s = self.s
        while s.halted is None:
            pending = s.game.pending(s.state)
            if pending is None:
                return Audit(s, self.book, self.checkpoints)
            if isinstance(pending, Decision) and pending.seat in s.left:
                leave.apply_stand_in(s, pending)  # a seat that left: its stand-in's move, the same everywhere
                continue
            if self.round is None:
                self.round = make_round(s, pending)
            if self.round is None or not self.round.done:
                return None
            self.round.finish(s)  # complete without a message: nobody's part, or a seat that left
        return None

    # --- our local choices and the engine

    def pick(self, choice: Any) -> None:
        """Our seat's sealed choice for the current round (committed when we next owe our part)."""
        if not isinstance(self.round, CommitReveal):
            raise ValueError("this seat has no sealed choice to make now")
        self.round.choose(choice)

    def my_pick(self) -> Any:
        """Our seat's sealed choice in the current round, or NOTHING before we picked."""
        return self.round.chosen if isinstance(self.round, CommitReveal) else NOTHING

    def applied(self, before: Any, step: int, action: Action) -> None:
        """One input reached the engine at ``step``: the round is over; remember a checkpoint."""
        self.round = None
        audit = self.s.plan.hand_audit
        if audit is None or isinstance(action, DRIVER_ANSWER_TYPES):
            return
        selected = audit.select(before, action)
        if selected is None:
            return
        seat, zone = selected
        handles = tuple(self.s.game.zone(before, zone))
        opened = self.s.caps.open_cards(before)
        public = {h: opened[h] for h in handles if h in opened}
        self.checkpoints.append(Checkpoint(step, seat, zone, handles, public))

    def _step_part(self, env: Envelope) -> None:
        """A play envelope for the current step: feed it to the decision or the round."""
        s = self.s
        pending = s.game.pending(s.state)
        seat, kind = env.seat, env.kind
        if pending is None:
            raise Wait  # the game just ended: the audit takes it
        if isinstance(pending, Decision):
            if kind != "action":
                raise UnexpectedMessage(f"sent a {kind!r} message while the table waits for a decision by "
                                        f"seat {pending.seat}", seat=seat)
            if seat != pending.seat:
                raise UnexpectedMessage(f"acted out of turn: the table waits for seat {pending.seat}",
                                        seat=seat)
            decisions.on_action(s, env)
            return
        if kind == "action":
            raise UnexpectedMessage(f"acted out of turn: the table waits for {s.waiting_what()}", seat=seat)
        if self.round is None:
            raise UnexpectedMessage(f"sent a {kind!r} message that fits no pending input", seat=seat)
        self.round.take(s, env)
        if self.round is not None and self.round.done:
            self.round.finish(s)


def _too_few(env: Envelope) -> bool:
    """Whether a final record claims the end :func:`net.session.leave.end_for_too_few` writes."""
    body = env.body
    outcome = body.get("outcome") if isinstance(body, Mapping) else None
    reason = outcome.get("reason") if isinstance(outcome, Mapping) else None
    return isinstance(reason, str) and reason.startswith(TOO_FEW)

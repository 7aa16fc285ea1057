"""Resigning: a seat signs that it gives the game up (it concedes, or leaves).

A forfeit claim says "that seat went silent", which nobody can prove offline;
a resignation is the loser's own signed word, so it ends the game at once
with no deadline to wait for: the other seat wins (with two seats; with more
there is no single winner) and the table goes straight to the final record,
unaudited, like a forfeit. The transcript keeps the signed envelope as the
proof. A client sends it when its player concedes or leaves a running game
(then it closes its links).

With more than two seats the resignation can overtake another seat's part
of the step it was signed at (a commitment, a reveal, even the decision
that completes the step): that seat took its part into its own chain, and
its final record is chained after it. So the game ends *at the step the
resignation was signed at* on every peer (the final record names that
step and its state hash, also on a peer that completed the step
meanwhile), and a part signed at that step or later, arriving once the game
is over, is taken into the signer's chain without effect
(:meth:`net.session.endgame.Final.late_part`) instead of being refused,
which would leave the signer's final record unlinkable and every peer
waiting for it for ever. Those late parts are bounded by what a seat can
have in flight (:mod:`net.session.late`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.session import late
from net.session.endgame import Final
from net.session.events import Resigned

if TYPE_CHECKING:
    from net.session.core import Session


def body(s: Session) -> dict[str, int]:
    """What our resignation says: the step at which we give up."""
    return {"step": s.step}


def can_resign(s: Session) -> bool:
    """True while there is a game to give up (not after its end, not once stopped)."""
    return s.phase in ("hello", "play") and s.halted is None and s.forfeited is None


def on_resign(s: Session, env: Envelope) -> None:
    """A seat's signed resignation: it forfeits now, and the table signs the final record.

    In phase ``final`` (another seat's resignation or a forfeit ended the game first on this
    peer, or the game reached its end) a resignation of a seat that has not signed the final
    record only excuses that seat from signing it: one more seat gone, the record unchanged.
    That rule does not depend on which resignation a peer saw first, so two seats resigning
    at one step end every peer with the same final record (:func:`early_end`)."""
    data = env.body
    if not isinstance(data, Mapping) or set(data) != {"step"} or data["step"] != env.seen.step:
        raise MalformedMessage("a resignation is {'step': the step it was signed at}", seat=env.seat)
    seat = env.seat
    phase = s.current_phase
    if isinstance(phase, Final) and s.halted is None:
        if seat in s.gone or seat in phase.finals:
            raise UnexpectedMessage("resigned after it had left the game or signed its final record",
                                    seat=seat)
        s.gone.add(seat)
        s._event(Resigned(seat, s.names[seat], env.seen.step))
        if phase.outcome.get("winner") in s.gone and not phase.finals and s.seat in s.gone | {None}:
            # the winner resigned too (two seats conceding at once): nobody signed a record naming
            # it, and nobody is left to; every peer ends with no winner, whichever it saw first
            phase.outcome = {"winner": None, "reason": "every seat that could win resigned: no winner"}
            phase.verdict = "not audited: every seat resigned"
            s.outcome, s.verdict = phase.outcome, phase.verdict
        s._advance()  # every remaining signer's record may be in already
        return
    if not can_resign(s):
        raise UnexpectedMessage("resigned when there was no running game to give up", seat=seat)
    horizon = late.horizon(s, seat)  # before the phase changes: did the table wait for this seat?
    s.forfeited = seat
    s.resigned = seat
    s.gone.add(seat)
    s._event(Resigned(seat, s.names[seat], s.step))
    step = env.seen.step  # where the game ends for every peer, whichever got further meanwhile
    outcome, verdict = early_end(s, seat, step)
    s._end_early(outcome, verdict, resigned_at=step, horizon=horizon)


def early_end(s: Session, seat: int, step: int) -> tuple[dict[str, Any], str]:
    """The outcome and verdict a resignation at ``step`` ends the game with.

    With two seats the other seat wins. With more there is no single winner, and the words
    name the step, not the seat: a second seat may resign at the same step, and a peer that
    saw that one first must sign the very same final record (the signed resignations in the
    record say who left)."""
    others = [other for other in s.seats if other != seat]
    if len(others) == 1:
        return ({"winner": others[0],
                 "reason": f"seat {seat} resigned: it gave the game up with a signed message (step {step})"},
                f"not audited: seat {seat} resigned")
    return ({"winner": None,
             "reason": f"a seat resigned at step {step}: the game ended early with no single winner (the signed "
                       "resignations in the record name who left)"},
            "not audited: a seat resigned")

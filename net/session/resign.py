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
from typing import TYPE_CHECKING

from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.session import late
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
    """A seat's signed resignation: it forfeits now, and the table signs the final record."""
    data = env.body
    if not isinstance(data, Mapping) or set(data) != {"step"} or data["step"] != env.seen.step:
        raise MalformedMessage("a resignation is {'step': the step it was signed at}", seat=env.seat)
    if not can_resign(s):
        raise UnexpectedMessage("resigned when there was no running game to give up", seat=env.seat)
    seat = env.seat
    others = [other for other in s.seats if other != seat]
    horizon = late.horizon(s, seat)  # before the phase changes: did the table wait for this seat?
    s.forfeited = seat
    s.resigned = seat
    s._event(Resigned(seat, s.names[seat], s.step))
    step = env.seen.step  # where the game ends for every peer, whichever got further meanwhile
    s._end_early({"winner": others[0] if len(others) == 1 else None,
                  "reason": f"seat {seat} resigned: it gave the game up with a signed message (step {step})"},
                 f"not audited: seat {seat} resigned", resigned_at=step, horizon=horizon)

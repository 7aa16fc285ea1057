"""Deadlines, stalls and forfeits: who the table waits for, and for how long.

The session reads no clock; its owner passes the time to tick(). A seat
that misses the deadline is named in a Stalling event (once per step); the
other seats may then each sign a forfeit claim, and when all of them have,
the staller forfeits and the table goes straight to the final record.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.pending import Chance, Decision, HiddenOp, SealedChoice
from net.commit import SealedChoiceRound
from net.dice import DiceRound
from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.poker.protocol import ShuffleRound
from net.session import catchup, endgame
from net.session.events import Stalling

if TYPE_CHECKING:
    from net.session.core import Session


def tick(s: Session, now: float) -> None:
    """Ask for missed envelopes while waiting; name seats past the deadline."""
    s._now = now
    if s.halted is None and s.phase != "done" and now - max(s._since, s._asked) >= catchup.CATCH_UP_EVERY:
        s._asked = now
        s._out.append(catchup.request(s))
    if s.halted is None and s.phase != "done" and now - s._since > s.timeout \
            and s._stall_reported != s.step:
        owing = waiting_for(s)
        if owing:
            s._stall_reported = s.step
            s.events.append(Stalling(owing, tuple(s.names[seat] for seat in owing), s.step,
                                     waiting_what(s)))


def waiting_for(s: Session) -> tuple[int, ...]:
    """Seats whose message the table waits for now."""
    if s.halted is not None or s.phase == "done":
        return ()
    if s.phase == "hello":
        return tuple(s._keyround.waiting_for())
    if s.phase == "audit":
        return tuple(seat for seat in s.seats if seat not in s._audits)
    if s.phase == "final":
        return tuple(seat for seat in endgame.final_seats(s) if seat not in s._finals)
    pending = s.pending
    rnd = s._round
    if isinstance(pending, Decision):
        return (pending.seat,)
    if rnd is None:
        return ()
    if isinstance(rnd, (SealedChoiceRound, DiceRound)):
        return rnd.missing()
    if isinstance(rnd, ShuffleRound):
        nxt = rnd.waiting_for()
        return () if nxt is None else (nxt,)
    return tuple(rnd.owing())


def waiting_what(s: Session) -> str:
    """What the awaited seats must do, in words (for stall messages)."""
    if s.phase == "hello":
        return "send its card key and deck points"
    if s.phase in ("audit", "final"):
        return "open its deck list and hand cards and sign the final record"
    pending = s.pending
    if isinstance(pending, Decision):
        return f"decide ({pending.prompt})"
    if isinstance(pending, SealedChoice):
        return f"commit or reveal its sealed choice ({pending.purpose})"
    if isinstance(pending, Chance):
        return f"commit or reveal its dice contribution ({pending.purpose})"
    if isinstance(pending, HiddenOp):
        return f"do its part of the {pending.op} of {pending.zone}"
    return "act"


def on_forfeit(s: Session, env: Envelope) -> None:
    """A forfeit claim; once every other seat claimed, the staller forfeits."""
    body = env.body
    if not isinstance(body, Mapping) or set(body) != {"staller", "step"}:
        raise MalformedMessage("a forfeit claim is {'staller': seat, 'step': step}", seat=env.seat)
    staller, step = body["staller"], body["step"]
    if s.phase not in ("hello", "play") or step != s.step or staller not in waiting_for(s) \
            or staller == env.seat:
        raise UnexpectedMessage(f"claimed a forfeit by seat {staller!r} at step {step!r}, but that seat "
                                "owes nothing here", seat=env.seat)
    claims = s._forfeit_claims.setdefault((staller, step), set())
    claims.add(env.seat)
    if all(seat in claims for seat in s.seats if seat != staller):
        s.forfeited = staller
        others = [seat for seat in s.seats if seat != staller]
        winner = others[0] if len(others) == 1 else None
        s.outcome = {"winner": winner, "reason": f"seat {staller} forfeited: it did not "
                                                 f"{waiting_what(s)} in time (step {step})"}
        s.verdict = f"not audited: seat {staller} forfeited"
        s.phase = "final"

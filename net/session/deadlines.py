"""Deadlines, forfeit claims and forfeits: who the table waits for, and what a claim may do.

There is no trusted clock, so nothing here lets one seat's clock decide for
another. The rules (docs/security.md, "Forfeits and timeouts", gives the
reasoning):

- A claim ``{"staller", "step", "part"}`` is accepted into its signer's chain
  by a rule every peer applies alike (well-formed, ``step`` is the step the
  claimer had reached, and the staller takes part in that part of that
  step); how we *judge* it is local and never changes the record.
- A claim counts only while the staller still owes its part and has not
  answered anything since the claim: an answer in the record voids every
  earlier claim against that part, whatever the arrival order.
- A claim made before our own deadline for that seat (less ``grace``, the
  allowance for clock skew and delivery), or against a seat whose answer we
  have held for longer than ``grace``, is premature: it is named as
  misconduct of its signer (:class:`~net.session.events.Misconduct`). It can
  never make a forfeit come sooner: a forfeit still needs our own claim
  (which we sign only after our own deadline) or, for the accused, its own
  deadline to pass.
- A forfeit needs the claims of every other seat, and it takes effect only
  ``grace`` seconds after we saw the last one, so an answer in flight still
  voids it. The accused itself concedes only once its own deadline passed;
  before that it simply answers.
- An observer (tools.verify) has no clock: it lets standing claims take
  effect only at the end of the record (:func:`close_record`), so any answer
  anywhere in the record voids them.

Deadlines run in every phase, audit and final record included, so a loser
who never opens its secrets or signs the final record cannot hold the table
hostage. The final record's duties come from the final phase itself (its
signers: every seat not yet excused), not from the engine, so after an early
end (a resignation, a forfeit) a seat that withholds its final record can be
claimed against like any other; and a claim about the final record names
the step the final phase ends at (:func:`here`), whichever step each peer
had reached when the game ended. When a forfeit cannot come because two or
more seats stay silent together, or one never co-signs the claim, the
longer abandonment deadline ends the game instead (:mod:`net.session.abandon`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.pending import Decision
from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.session import catchup
from net.session.endgame import Final
from net.session.events import Misconduct, Stalling
from net.session.phases import Wait

if TYPE_CHECKING:
    from net.session.core import Session

#: The parts of a step a claim can be about, in the order a step goes through them.
PARTS = ("hello", "play", "audit", "final")
#: Kinds of envelope that answer what the table waits for (chat, claims and reports do not).
ANSWERS = frozenset({"hello", "action", "commit", "reveal", "roll", "shuffle", "shares", "open", "audit", "final",
                     "place", "cells", "disclose"})
#: Default grace as a share of the deadline, and its bounds in seconds.
GRACE_SHARE = 0.25
GRACE_MIN = 0.5
GRACE_MAX = 10.0


class Waits:
    """Our own clock's record of the table's waits (owned here; the session restarts it).

    ``since`` is when the current wait began (a phase, a step or an answer),
    ``asked`` when we last asked for missed envelopes; the rest is what
    forfeit claims are judged against: which stalls were reported, the claims
    seen per (staller, step, part), answers per seat and when the latest came,
    and when each recent (step, part) began.
    """

    def __init__(self, seats: tuple[int, ...], now: float) -> None:
        self.since = now
        self.asked = now
        self.stall_reported: set[tuple[int, tuple[int, str, float]]] = set()
        #: (staller, step, part) -> claimer -> (when we saw it, staller's answers then).
        self.claims: dict[tuple[int, int, str], dict[int, tuple[float, int]]] = {}
        #: Answers consumed per seat, and when (our clock) the latest one was.
        self.answers: list[int] = [0 for _ in seats]
        self.answered_at: dict[int, float] = {}
        #: When (our clock) the table reached each recent (step, part): claims are judged against it.
        self.part_starts: dict[tuple[int, str], float] = {(0, "hello"): now}
        #: Abandonment claims per (step, part): signer -> (when we saw it, answers consumed then).
        self.abandons: dict[tuple[int, str], dict[int, tuple[float, tuple[int, ...]]]] = {}
        #: The latest (step, part index) each seat signed an abandonment at: one per wait, in order.
        self.abandon_signed: dict[int, tuple[int, int]] = {}
        #: Waits already reported as abandonable ((step, part, since)).
        self.abandon_reported: set[tuple[int, str, float]] = set()
        #: Seconds each seat answered past our deadline, summed over the game (net.session.abandon:
        #: a seat's lateness uses up one budget for the whole game, not one per wait).
        self.overdue: list[float] = [0.0 for _ in seats]

    def restart(self, now: float) -> None:
        """A new wait begins now (a new step or phase, an answer, a forfeit at the final record)."""
        self.since = now


def default_grace(timeout: float) -> float:
    """The allowance for clock skew and delivery when the genesis names none."""
    return min(GRACE_MAX, max(GRACE_MIN, timeout * GRACE_SHARE))


def here(s: Session) -> tuple[int, str]:
    """Where the table waits: (step, part). In phase ``final`` the step is the one the final
    record names (after a resignation it can be below ours: peers that had completed the
    resignation's step meanwhile end at the same step as the others)."""
    phase = s.current_phase
    return (phase.step if isinstance(phase, Final) else s.step), s.phase


def _rank(s: Session) -> tuple[int, int]:
    """Where the table is: (step, part), comparable with a claim's."""
    step, part = here(s)
    return (step, PARTS.index(part) if part in PARTS else len(PARTS))


def normal_step(s: Session, step: int, part: str) -> int:
    """The step a claim about ``part`` is judged at: a claim about the final record, signed at
    or after the step the final phase ends at, is about that final record."""
    phase = s.current_phase
    if part == "final" and isinstance(phase, Final) and step >= phase.step:
        return phase.step
    return step


def overtaken(s: Session, step: int, part: str) -> bool:
    """A claim about a step part signed past the step the final record names: its signer got there
    before it saw the end (a resignation). Kept in its chain without effect, never waited for."""
    return part != "final" and s.phase in ("final", "done") and step > here(s)[0]


def later(s: Session, step: int, part: str) -> bool:
    """Whether (step, part) lies ahead of the table (judge it when we get there). A claim about
    the final record waits until we reach the final phase: an early end (a resignation) that
    we have not seen yet may have brought the claimer there at our step."""
    if part == "final" and s.phase not in ("final", "done"):
        return True
    return (normal_step(s, step, part), PARTS.index(part)) > _rank(s)


def deadline(s: Session) -> float:
    """When the current wait runs out on our clock (it restarts on every answer)."""
    return s.waits.since + s.timeout


def tick(s: Session, now: float) -> None:
    """Ask for missed envelopes while waiting; name seats past the deadline once per wait."""
    if s.halted is None and s.phase != "done" and now - max(s.waits.since, s.waits.asked) >= catchup.CATCH_UP_EVERY:
        s.waits.asked = now
        s._queue(catchup.request(s))
    if s.halted is None and s.phase != "done" and now > deadline(s):
        key = (s.step, s.phase, s.waits.since)
        owing = tuple(seat for seat in s.waiting_for() if (seat, key) not in s.waits.stall_reported)
        if owing:
            s.waits.stall_reported |= {(seat, key) for seat in owing}
            s._event(Stalling(owing, tuple(s.names[seat] for seat in owing), s.step,
                                     s.waiting_what()))


def claimable(s: Session) -> tuple[int, ...]:
    """Seats we may sign a claim against now: they owe their part and our deadline passed."""
    if s.seat is None or s._now <= deadline(s):
        return ()
    step, part = here(s)
    return tuple(seat for seat in s.waiting_for() if seat != s.seat
                 and s.seat not in s.waits.claims.get((seat, step, part), {}))


def claim_body(s: Session, staller: int) -> dict[str, Any]:
    """What our signed claim says: against whom, at which step, for which part."""
    return {"staller": staller, "step": s.step, "part": s.phase}


def takes_part(s: Session, seat: int, step: int, part: str) -> bool:
    """Whether ``seat`` can owe anything in ``part`` of ``step`` (from the record alone).

    The final record's duties are the final phase's (every seat not excused signs it), not
    the engine's: after an early end the engine never reaches its end, yet the record is owed."""
    if part == "hello":
        return step == 0
    if part == "final" and s.phase in ("final", "done"):
        phase = s.current_phase
        return not isinstance(phase, Final) or (step == phase.step and seat not in s.gone)
    state = s.states[step]
    pending = s.game.pending(state)
    if part == "play":
        return pending is not None and (not isinstance(pending, Decision) or pending.seat == seat)
    return pending is None  # the audit: every seat, once the game is over


def parse_claim(s: Session, env: Envelope) -> tuple[int, int, str]:
    """(staller, step, part) of a claim, checked by rules that do not depend on timing."""
    body = env.body
    if not isinstance(body, Mapping) or set(body) != {"staller", "step", "part"}:
        raise MalformedMessage("a forfeit claim is {'staller': seat, 'step': step, 'part': 'hello', 'play', "
                               "'audit' or 'final'}", seat=env.seat)
    staller, step, part = body["staller"], body["step"], body["part"]
    if not isinstance(staller, int) or isinstance(staller, bool) or staller not in s.seats \
            or staller == env.seat or step != env.seen.step or part not in PARTS:
        raise UnexpectedMessage(f"claimed a forfeit by seat {staller!r} at step {step!r} ({part!r}), but that "
                                "seat owes nothing there", seat=env.seat)
    if part == "final" and s.phase not in ("final", "done"):
        raise Wait  # the claimer reached the final record first: judge it when we get there
    if overtaken(s, step, part):
        return staller, step, part  # signed before its signer saw the end: without effect (on_forfeit)
    step = normal_step(s, step, part)
    if not takes_part(s, staller, step, part):
        raise UnexpectedMessage(f"claimed a forfeit by seat {staller} at step {step} ({part}), but that "
                                "seat owes nothing there", seat=env.seat)
    return staller, step, part


def on_forfeit(s: Session, env: Envelope) -> None:
    """A forfeit claim: keep it in the chain; count it, void it or name it as premature."""
    staller, step, part = parse_claim(s, env)
    if overtaken(s, step, part):
        return  # signed past the step the game ended at, before its signer saw the end: without effect
    at = _rank(s)
    if (step, PARTS.index(part)) > at:
        raise Wait  # the claimer is ahead of us: judge it when we get there
    claimer = env.seat
    s.claims_seen.append((claimer, staller, step, part))
    owes = (step, PARTS.index(part)) == at and staller in s.waiting_for()
    if not owes:
        if s.seat is None or claimer == s.seat:
            return
        left = _premature(s, step, part)
        answered = s.waits.answered_at.get(staller)
        if left is not None:
            _misconduct(s, claimer, step, f"claimed a forfeit by seat {staller} at step {step} with "
                                          f"{left + s.grace:.1f} s of our deadline for it still to run: a premature "
                                          "claim (that seat's answer is on record; the claim is void)")
        elif answered is not None and s._now - answered > s.grace:
            _misconduct(s, claimer, step, f"claimed a forfeit by seat {staller} at step {step}, but that seat's "
                                          "answer had been on record here for longer than the grace period "
                                          "(the claim is void)")
        return
    s.waits.claims.setdefault((staller, step, part), {})[claimer] = (s._now, s.waits.answers[staller])
    left = _premature(s, step, part)
    if s.seat is not None and claimer != s.seat and left is not None:
        _misconduct(s, claimer, step, f"claimed a forfeit by seat {staller} at step {step} with "
                                      f"{left + s.grace:.1f} s of our deadline still to run: a premature claim")


def void_claims(s: Session) -> list[tuple[int, int, int, str]]:
    """Claims (claimer, staller, step, part) that did not make the forfeit: an answer voided them."""
    effective: set[tuple[int, int, int, str]] = set()
    if s.forfeit is not None:
        f = s.forfeit
        effective = {(c, f["staller"], f["step"], f["part"]) for c in f["claimers"]}
    return [c for c in s.claims_seen if c not in effective]


def _misconduct(s: Session, seat: int, step: int, what: str) -> None:
    event = Misconduct(seat, s.names[seat], step, what)
    s.misconduct.append(event)
    s._event(event)


def on_answer(s: Session, env: Envelope) -> None:
    """A seat's answer was consumed: its wait is over, and earlier claims against it are void."""
    if env.kind in ANSWERS:
        late = s._now - deadline(s)
        if late > 0:
            s.waits.overdue[env.seat] += late
        s.waits.answers[env.seat] += 1
        s.waits.answered_at[env.seat] = s._now
        s.waits.restart(s._now)
    note_part(s)


#: How many recent (step, part) start times a session keeps for judging late-arriving claims.
PART_MEMORY = 16


def note_part(s: Session) -> None:
    """Remember when the table reached its current (step, part) on our clock."""
    key = here(s)
    if key not in s.waits.part_starts:
        s.waits.part_starts[key] = s._now
        while len(s.waits.part_starts) > PART_MEMORY:
            del s.waits.part_starts[next(iter(s.waits.part_starts))]


def _premature(s: Session, step: int, part: str) -> float | None:
    """Seconds our earliest deadline for that part still had to run (less grace), if any."""
    began = s.waits.part_starts.get((step, part))
    if began is None:
        return None
    left = began + s.timeout - s.grace - s._now
    return left if left > 0 else None


def _standing(s: Session, staller: int) -> dict[int, float]:
    """Claimer -> when we saw its claim, for claims against ``staller`` that still count."""
    claims = s.waits.claims.get((staller, *here(s)), {})
    return {claimer: seen for claimer, (seen, answers) in claims.items() if answers == s.waits.answers[staller]}


def settle(s: Session) -> bool:
    """Let a forfeit take effect when every other seat's standing claim is in and the grace
    period passed (or, for the accused, once its own deadline passed). True when one did."""
    if s.seat is None or s.halted is not None or s.phase == "done":
        return False
    for staller in s.waiting_for():
        standing = _standing(s, staller)
        others = [seat for seat in s.seats if seat != staller and seat not in s.gone]
        if not others or any(seat not in standing for seat in others):
            continue
        if staller == s.seat:
            if s._now <= deadline(s):
                continue  # our own deadline has not passed: we answer instead of conceding
        elif s._now < max(standing.values()) + s.grace:
            continue  # an answer may still be on its way
        forfeit(s, staller, sorted(standing))
        return True
    return False


def close_record(s: Session) -> bool:
    """Observer only: the record is complete, so claims that still stand take effect."""
    if s.seat is not None or s.halted is not None or s.phase == "done":
        return False
    for staller in s.waiting_for():
        standing = _standing(s, staller)
        if all(seat in standing for seat in s.seats if seat != staller and seat not in s.gone):
            forfeit(s, staller, sorted(standing))
            return True
    return False


def forfeit(s: Session, staller: int, claimers: list[int]) -> None:
    """``staller`` forfeits the current part: the table goes to the final record.

    Before the final record the staller loses (its secrets were never
    checked: not audited). At the final record the audited outcome stands
    and the staller is only excused from signing it.
    """
    what = s.waiting_what()
    if s.forfeited is None:
        s.forfeited = staller
    s.gone.add(staller)
    step, part = here(s)
    s.forfeit = {"staller": staller, "claimers": claimers, "step": step, "part": part, "owed": what}
    if s.phase != "final":
        others = [seat for seat in s.seats if seat != staller]
        winner = others[0] if len(others) == 1 else None
        s._end_early({"winner": winner, "reason": f"seat {staller} forfeited: it did not {what} in time "
                                                  f"(step {s.step})"}, f"not audited: seat {staller} forfeited")
    s.waits.restart(s._now)
    s._advance()  # at the final record: the others' may all be in already

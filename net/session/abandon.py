"""Abandonment: the longer deadline that ends a game no forfeit can end.

A forfeit needs the standing claim of every other seat (docs/security.md,
"Forfeits and timeouts"), so that one impatient seat cannot end a game of
three. The price is a hostage: when two seats work together, one stalls and
the other never signs the claim, or when two seats fall silent at once, the
quorum never forms and the seats that did answer wait for ever. Nothing can
make the silent seats lose (a silence cannot be proven, and a colluder would
gladly lose to free its partner's result), but nothing may let silence hold
a seat for ever either. So a second, longer deadline, ``abandon_s`` (genesis
option; default :data:`ABANDON_SHARE` times ``timeout_s``), lets the seats that
owe nothing end the game as **abandoned**:

- A claim is the signed envelope ``abandon {"step", "part"}``, accepted into
  its signer's chain by record-only rules (well-formed, ``step`` the step the
  signer had reached, and ``part`` the part it was in), judged when the table
  is there (a claim about the final record is about the final phase's step,
  as for forfeits: :func:`net.session.deadlines.normal_step`).
- It counts while its signer owes nothing there and none of the seats the
  table still waits for has answered since it was consumed (an answer of a
  silent seat voids it: that seat is not silent; other seats' answers, such
  as the others' final records, change nothing).
- The abandonment deadline of a wait is the forfeit deadline plus what is
  left of the silent seats' *lateness budget*, ``abandon_s - timeout_s`` for
  the whole game, used up by every second a seat answered past our forfeit
  deadline (:func:`deadline`): a seat whose partner shields it from forfeits
  can be late by that much in all, not that much at every wait.
- It takes effect on a peer only once that peer's *own* abandonment deadline
  passed (since the wait began) and ``grace_s`` after the claim: one claim is
  enough, because every honest peer's own clock gates it. A hostile claimer
  can therefore not end a game sooner than every honest peer's deadline.
  An honest session signs one only after its own abandonment deadline
  (:func:`claimable`); an earlier one is named as the signer's misconduct.
- Before the final record the game ends at once (phase ``done``, no final
  record) with no winner: verdict ``not audited: abandoned``. In phase
  ``final`` the outcome already there stands (an audited result, or an early
  end's) and the silent seats are only excused from signing it.
- An observer (tools.verify) has no clock: standing claims take effect at the
  end of the record (:func:`close_record`), and the verifier reports the
  result as resting on an unprovable claim.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.session import deadlines
from net.session.events import Abandonable, Misconduct
from net.session.phases import Done, Wait

if TYPE_CHECKING:
    from net.session.core import Session

#: Default abandonment deadline as a multiple of the forfeit deadline (``timeout_s``).
ABANDON_SHARE = 3.0


def default_abandon(timeout: float) -> float:
    """The abandonment deadline when the genesis names none: longer than a forfeit's."""
    return timeout * ABANDON_SHARE


def deadline(s: Session) -> float:
    """When, on our clock, the current wait becomes long enough to abandon the game.

    The forfeit deadline plus what is left of the silent seats' lateness budget: ``abandon_s``
    less ``timeout_s``, less every second those seats already answered past our deadline in this
    game (the most-used budget counts). So a pair that takes turns answering just before the
    abandonment deadline, where a forfeit would have come at the forfeit deadline, uses the
    budget up once for the game, not once per wait (docs/security.md, "Three to ten seats")."""
    budget = s.abandon_after - s.timeout
    owing = s.waiting_for()
    if owing:
        budget -= max(s.waits.overdue[seat] for seat in owing)
    return s.waits.since + s.timeout + max(0.0, budget)


def _answers(s: Session) -> tuple[int, ...]:
    """Answers consumed so far, per seat."""
    return tuple(s.waits.answers)


def claimable(s: Session) -> bool:
    """Whether we may sign an abandonment now: the table waits for seats other than us, our own
    abandonment deadline passed, and we have not signed one for this wait yet."""
    if s.seat is None or s.halted is not None or s.phase == "done" or s._now <= deadline(s):
        return False
    owing = s.waiting_for()
    if not owing or s.seat in owing or s.seat in s.gone:
        return False
    return s.seat not in s.waits.abandons.get(deadlines.here(s), {})


def body(s: Session) -> dict[str, Any]:
    """What our signed abandonment says: where the table was waiting."""
    return {"step": s.step, "part": s.phase}


def on_abandon(s: Session, env: Envelope) -> None:
    """An abandonment claim: kept in the signer's chain; counted while it stands."""
    data = env.body
    if not isinstance(data, Mapping) or set(data) != {"step", "part"} or data["step"] != env.seen.step \
            or data["part"] not in deadlines.PARTS:
        raise MalformedMessage("an abandonment is {'step': the step it was signed at, 'part': 'hello', 'play', "
                               "'audit' or 'final'}", seat=env.seat)
    step, part = int(data["step"]), str(data["part"])
    seat = env.seat
    last = s.waits.abandon_signed.get(seat)
    if last is not None and (step, deadlines.PARTS.index(part)) <= last:
        raise UnexpectedMessage(f"signed a second abandonment at step {step} ({part}); a seat signs one per "
                                "wait", seat=seat)
    if deadlines.later(s, step, part) and not deadlines.overtaken(s, step, part):
        raise Wait  # the signer is ahead of us: judge it when we get there
    s.waits.abandon_signed[seat] = (step, deadlines.PARTS.index(part))
    if deadlines.overtaken(s, step, part):
        return  # signed past the step the game ended at: kept in its chain, without effect
    step = deadlines.normal_step(s, step, part)
    if s.phase == "done" or (step, part) != deadlines.here(s) or seat in s.waiting_for() or seat in s.gone:
        return  # the game moved on, or the signer itself owes: kept in its chain, without effect
    if (step, part) not in s.waits.abandons:
        s.waits.abandons = {(step, part): {}}  # only the current wait's claims are kept
    s.waits.abandons[(step, part)][seat] = (s._now, _answers(s))
    left = deadline(s) - s.grace - s._now
    if s.seat is not None and seat != s.seat and left > 0:
        event = Misconduct(seat, s.names[seat], step, f"signed that the game is abandoned with {left + s.grace:.1f} "
                                                      "s of our abandonment deadline still to run: a premature "
                                                      "claim (it takes effect only when our own deadline passes)")
        s.misconduct.append(event)
        s._event(event)


def _standing(s: Session) -> dict[int, float]:
    """Signer -> when we saw its claim, for claims at the current wait that still count."""
    owing = s.waiting_for()
    now = _answers(s)
    claims = s.waits.abandons.get(deadlines.here(s), {})
    return {seat: seen for seat, (seen, then) in claims.items()
            if all(then[o] == now[o] for o in owing) and seat not in owing and seat not in s.gone}


def settle(s: Session) -> bool:
    """Abandon the game when a standing claim is in, our own deadline passed and the grace
    period after the claim ran out. True when it did."""
    if s.seat is None or s.halted is not None or s.phase == "done" or not s.waiting_for():
        return False
    standing = _standing(s)
    if not standing or s._now <= deadline(s) or s._now < max(standing.values()) + s.grace:
        return False
    abandon(s, sorted(standing))
    return True


def close_record(s: Session) -> bool:
    """Observer only: the record is complete, so a claim that still stands takes effect."""
    if s.seat is not None or s.halted is not None or s.phase == "done" or not s.waiting_for():
        return False
    standing = _standing(s)
    if not standing:
        return False
    abandon(s, sorted(standing))
    return True


def abandon(s: Session, claimers: list[int]) -> None:
    """End the wait: the silent seats are excused; before the final record nobody wins."""
    silent = list(s.waiting_for())
    step, part = deadlines.here(s)
    what = s.waiting_what()
    s.abandoned = {"claimers": claimers, "silent": silent, "step": step, "part": part, "owed": what}
    s.gone.update(silent)
    if s.phase == "final":
        s.waits.restart(s._now)
        s._advance()  # every remaining signer's record is in: done
        return
    who = ", ".join(f"seat {seat}" for seat in silent)
    s.outcome = {"winner": None, "reason": f"abandoned at step {step}: {who} did not {what} within the "
                                           "abandonment deadline, and the waiting seats ended the game; "
                                           "nobody wins"}
    s.verdict = "not audited: abandoned"
    s._enter(Done())


def tick(s: Session, now: float) -> None:
    """Tell the owner once per wait when the abandonment deadline passed (an :class:`Abandonable`)."""
    if s.halted is not None or s.phase == "done" or now <= deadline(s):
        return
    owing = s.waiting_for()
    key = (*deadlines.here(s), s.waits.since)
    if owing and key not in s.waits.abandon_reported:
        s.waits.abandon_reported.add(key)
        s._event(Abandonable(owing, tuple(s.names[seat] for seat in owing), s.step, s.waiting_what(),
                             s.abandon_after))

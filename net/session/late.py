"""Late parts after a resignation: what a seat can still have in flight, and no more.

With three or more seats a resignation can overtake another seat's step
parts (:mod:`net.session.resign`): that seat took them into its own chain
before it saw the end, so phase ``final`` keeps them in its chain without
effect (:meth:`net.session.endgame.Final.late_part`). Kept without a count
they were a flood nobody was named for: a hostile seat could sign such parts
until the deadline and every one was written to the transcript.

The bound follows from what an honest seat can sign before it sees the
resignation (docs/protocol.md, "resign"; docs/security.md, "Resource limits"):

- once it has seen the end it signs only its final record, so nothing is late
  after that seat's own ``final``;
- it signs at most one part of each kind per step (``Session._sent`` is keyed
  by step and kind), so a second late part of one kind at one step is refused;
- the resigner signs no step part after its resignation, and its parts signed
  before it are earlier in its chain, so they were all taken before the
  resignation was. If the table was waiting for the resigner's part when the
  resignation was taken, that part never comes and no seat can get past that
  step: a late part signed at a later step is refused (the *horizon*);
- when the table was not waiting for the resigner (it had given its part of
  the step and others had not), the steps a seat can still pass depend on
  the game; then the seat's late parts get the budget a seat has for
  envelopes held ahead of the game in play (``limits.MAX_BUFFERED``
  envelopes, ``limits.MAX_BUFFER_BYTES`` bytes): late parts are exactly
  such envelopes, overtaken by the end.

Over any of these the part is refused (an ``UnexpectedMessage``) and goes the
session's one refusal path (``Session._reject``: a ``Rejected`` event naming
the seat and the link it came from, counted by
:func:`net.session.limits.note_refusal`, which names a flooder once in a
``Flooding`` event): the refused part is not kept, the game goes on. A kept
late part is no answer to the final phase either: it does not restart the
wait for the seat's final record (:func:`net.session.pump.consume`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.envelope import Envelope
from net.errors import UnexpectedMessage
from net.session import limits

if TYPE_CHECKING:
    from net.session.core import Session


class LateParts:
    """The late parts taken so far per seat, and the bound they must stay within."""

    def __init__(self, resigned_at: int, horizon: int | None) -> None:
        #: The step the resignation was signed at (the first step a part can be late at).
        self.resigned_at = resigned_at
        #: The last step any seat could have reached (None: not known, the budget alone bounds it).
        self.horizon = horizon
        #: Seat -> (step, kind) of each late part taken.
        self.taken: dict[int, set[tuple[int, str]]] = {}
        #: Seat -> encoded bytes of its late parts taken.
        self.size: dict[int, int] = {}

    def admit(self, env: Envelope, *, signed_final: bool) -> None:
        """Take one late part of ``env.seat`` into the count, or refuse it (nothing is counted then)."""
        seat, kind, step = env.seat, env.kind, env.seen.step
        taken = self.taken.setdefault(seat, set())
        size = len(env.to_bytes())
        problem = None
        if signed_final:
            problem = (f"signed a {kind!r} message (step {step}) after its own final record; once a seat has "
                       "seen the end it signs nothing but that record")
        elif self.horizon is not None and step > self.horizon:
            problem = (f"signed a {kind!r} message at step {step}, but no seat could get past step "
                       f"{self.horizon}: the table was waiting there for the seat that resigned")
        elif (step, kind) in taken:
            problem = (f"signed a second {kind!r} message at step {step} after the game ended; a seat signs "
                       "one of each kind per step")
        elif len(taken) >= limits.MAX_BUFFERED or self.size.get(seat, 0) + size > limits.MAX_BUFFER_BYTES:
            problem = (f"sent more step parts after the game ended than a seat can have in flight (at most "
                       f"{limits.MAX_BUFFERED} messages or {limits.MAX_BUFFER_BYTES} bytes)")
        if problem is not None:
            raise UnexpectedMessage(problem, seat=seat)  # counted and named by the session's refusal path
        taken.add((step, kind))
        self.size[seat] = self.size.get(seat, 0) + size

    def count(self, seat: int) -> int:
        """How many late parts of ``seat`` were taken."""
        return len(self.taken.get(seat, ()))


def horizon(s: Session, resigner: int) -> int | None:
    """The last step any seat can reach after ``resigner`` resigned: our step when the table
    waits for the resigner's part there (it never comes), else None (not known here).
    Called while the resignation is taken, before the phase changes."""
    return s.step if resigner in s.current_phase.waiting_for() else None

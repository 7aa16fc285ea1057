"""Resource limits of a session: what one hostile seat can make us hold.

Every number a flood runs into lives here (docs/security.md, "Resource
limits", lists them with the measured effect of each flood). The limits are
far above what an honest game needs (measured: the largest honest envelope
of a Rider game is a ~5 KiB shuffle; a whole Rider game is ~40 KiB per
seat) and each is checked before anything is stored:

- per-kind envelope sizes, checked at intake after the signature;
- bytes (and count) held back per seat for later steps; when full, the
  envelopes farthest ahead are dropped first, so the seat's next genuine
  envelope always fits (the dropped ones come back through catch-up);
- chat lines per seat and step, a rule of the signed record, so every peer
  refuses the same lines;
- catch-up answers per requesting link (a token bucket in session time);
- refusals per seat: after ``FLOOD_AFTER`` the seat is named once in a
  :class:`~net.session.events.Flooding` event and further refusals are
  counted, not listed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.session.events import Flooding

if TYPE_CHECKING:
    from net.session.core import Session

KIB = 1024
#: Largest encoded envelope per kind, in bytes (an unknown kind is refused outright).
MAX_KIND_BYTES = {
    "hello": 64 * KIB, "action": 64 * KIB, "commit": 4 * KIB, "reveal": 4 * KIB, "roll": 4 * KIB,
    "shuffle": 512 * KIB, "shares": 128 * KIB, "open": 64 * KIB, "audit": 128 * KIB,
    "final": 16 * KIB, "chat": 4 * KIB, "forfeit": 16 * KIB, "resign": 4 * KIB, "abandon": 4 * KIB, "desync": 64 * KIB,
    "dispute": 192 * KIB, "place": 32 * KIB, "cells": 48 * KIB, "disclose": 192 * KIB, "leave": 64 * KIB,
}
#: Most bytes of one seat's envelopes held back for later steps.
MAX_BUFFER_BYTES = 2 * 1024 * KIB
#: Most envelopes of one seat held back for later steps.
MAX_BUFFERED = 1024
#: Other versions kept beside one waiting envelope of a seat (see intake.keep_alternate).
MAX_ALTERNATES = 8
#: Most chat lines one seat may sign at one step (its chain's seen.step).
CHAT_PER_STEP = 20
#: Catch-up answers per requesting link: a burst, then one per CATCH_UP_REFILL seconds.
CATCH_UP_BURST = 8
CATCH_UP_REFILL = 0.5
#: Refusals of one seat's messages before it is reported as flooding.
FLOOD_AFTER = 32


def note_refusal(s: Session, seat: int | None, what: str) -> bool:
    """Count one refused message of ``seat``; False once the seat floods (then
    the caller records no event of its own). Names the seat once per ``what``."""
    count = s.refused.get(seat, 0) + 1
    s.refused[seat] = count
    if count <= FLOOD_AFTER:
        return True
    if (seat, what) not in s.flood_named:
        s.flood_named.add((seat, what))
        event = Flooding(seat, what, count)
        s._event(event)
        s._log_flood(event)
    return False

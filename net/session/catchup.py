"""Catch-up: how a peer gets the envelopes it missed, from any other peer.

Needed after a restart (the journal holds only what we saw) and after a
dropped link (the sender does not resend). The request names how many
envelopes of each seat we hold; any peer answers with the rest, in chunks
that stay well inside one network frame.

A request is not signed, so it is answered only to the seat whose own
authenticated link delivered it (``via``), never to the seat it names (no
reflecting a large reply onto someone else), and at most
``CATCH_UP_BURST`` times in a row, then once per ``CATCH_UP_REFILL`` seconds
of session time per requesting seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.encoding import encode
from net.session import limits
from net.session.messages import Outgoing

if TYPE_CHECKING:
    from net.session.core import Session

#: Seconds without progress before tick() asks the table for missed envelopes.
CATCH_UP_EVERY = 5.0
#: Largest catch-up reply payload in bytes (frames may carry 1 MiB).
CATCH_UP_CHUNK = 256 * 1024


class Budget:
    """What catch-up keeps between calls: our requests so far (each request's bytes
    differ) and each requesting seat's token bucket (tokens, session time of the refill)."""

    def __init__(self) -> None:
        self.requests = 0
        self.tokens: dict[int, tuple[float, float]] = {}


def request(s: Session) -> Outgoing:
    """Ask any peer for envelopes we lack (after a restart or a link drop).

    ``n`` counts our requests: the transport drops a payload whose bytes it
    has seen before, so a repeated request while nothing changed must not
    repeat its bytes, or nobody would answer it a second time.
    """
    have = tuple(log.next_seq for log in s._logs)
    s.catch_up_budget.requests += 1
    n = s.catch_up_budget.requests
    return Outgoing(encode({"catch_up": {"game": s.gid, "have": have, "n": n, "seat": s.seat}}))


def answer(s: Session, req: Any, via: int | None) -> None:
    """Queue every accepted envelope the requester lacks, to the requester's
    own link only; ignore odd, relayed and too frequent requests."""
    if not isinstance(req, Mapping) or req.get("game") != s.gid:
        return
    have = req.get("have")
    if not isinstance(have, tuple) or len(have) != len(s.seats):
        return
    if via is None or via not in s.seats or via == s.seat or not take_token(s, via):
        return
    s._queue(*replies(s, have, via))


def replies(s: Session, have: tuple[Any, ...], to: int | None) -> list[Outgoing]:
    """Every accepted envelope beyond ``have`` (per seat), in chunks inside one frame."""
    out: list[Outgoing] = []
    chunk: list[Any] = []
    size = 0
    for seat_, n in zip(s.seats, have):
        if not isinstance(n, int) or n < 0:
            continue
        for env in s._logs[seat_].since(n):
            raw = env.to_bytes()
            if chunk and size + len(raw) > CATCH_UP_CHUNK:  # stay well inside one frame
                out.append(Outgoing(encode({"envelopes": tuple(chunk), "game": s.gid}), to))
                chunk, size = [], 0
            chunk.append(env.to_data())
            size += len(raw)
    if chunk:
        out.append(Outgoing(encode({"envelopes": tuple(chunk), "game": s.gid}), to))
    return out

def take_token(s: Session, seat: int) -> bool:
    """One catch-up answer for ``seat`` if its bucket has a token (refilled in session time)."""
    tokens, since = s.catch_up_budget.tokens.get(seat, (float(limits.CATCH_UP_BURST), s._now))
    tokens = min(float(limits.CATCH_UP_BURST), tokens + (s._now - since) / limits.CATCH_UP_REFILL)
    if tokens < 1.0:
        s.catch_up_budget.tokens[seat] = (tokens, s._now)
        limits.note_refusal(s, seat, "catch-up requests")
        return False
    s.catch_up_budget.tokens[seat] = (tokens - 1.0, s._now)
    return True


def held(s: Session) -> tuple[int, ...]:
    """How many envelopes of each seat we accepted (a catch-up request's ``have``; what a
    watcher was sent so far, net/peer/watching.py)."""
    return tuple(log.next_seq for log in s._logs)

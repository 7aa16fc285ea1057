"""Message intake: decode, verify, deduplicate and buffer received envelopes.

Nothing here judges whether a message fits the game: that waits until the
envelope is next in its seat's chain (:mod:`net.session.pump`). Intake only
makes sure that what is buffered is signed by its seat for this game, that
one seq never carries two different envelopes (equivocation, kept as proof),
and what it holds is bounded. Journalling waits for the verdict
(:func:`net.session.pump.consume`): only accepted envelopes are written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.encoding import decode
from engine.core.errors import EncodingError
from net.envelope import Envelope, EquivocationProof
from net.errors import (
    Equivocation,
    MalformedMessage,
    ProtocolError,
    UnexpectedMessage,
    UnknownSeat,
    WrongGame,
)
from net.session import catchup
from net.session.desync import remember_sections

if TYPE_CHECKING:
    from net.session.core import Session

#: Most envelopes held back per seat (a flood ahead of the game is refused).
MAX_BUFFERED = 4096


def intake_bytes(s: Session, data: bytes, sender: str | None, *, from_journal: bool) -> None:
    """One payload: an envelope, a catch-up request or a catch-up reply."""
    try:
        value = decode(data)
    except EncodingError as exc:
        s._reject(None, sender, s.step, "?", MalformedMessage(f"not canonical data: {exc}"))
        return
    if isinstance(value, Mapping) and set(value) == {"catch_up"}:
        catchup.answer(s, value["catch_up"])
        return
    if isinstance(value, Mapping) and set(value) == {"envelopes", "game"}:
        if value["game"] != s.gid or not isinstance(value["envelopes"], tuple):
            s._reject(None, sender, s.step, "catch-up", WrongGame("catch-up reply for another game"))
            return
        for item in value["envelopes"]:
            intake_value(s, item, sender, from_journal=False)
        return
    intake_value(s, value, sender, from_journal=from_journal)


def intake_value(s: Session, value: Any, sender: str | None, *, from_journal: bool) -> None:
    """Parse one envelope; a malformed one is rejected naming its seat if it has one."""
    try:
        env = Envelope.from_data(value)
    except ProtocolError as exc:
        seat = value.get("seat") if isinstance(value, Mapping) else None
        s._reject(seat if isinstance(seat, int) else None, sender, s.step,
                  str(value.get("kind", "?")) if isinstance(value, Mapping) else "?", exc)
        return
    intake(s, env, sender, from_journal=from_journal)


def intake(s: Session, env: Envelope, sender: str | None, *, from_journal: bool) -> None:
    """Check signature and game; buffer by (seat, seq). Journal new ones."""
    try:
        if env.game != s.gid:
            raise WrongGame("the message was signed for another game (a replay from elsewhere?)",
                            seat=env.seat)
        if env.seat not in s.seats:
            raise UnknownSeat(f"there is no seat {env.seat} at this table of {len(s.seats)}",
                              seat=env.seat)
        env.verify(s.genesis.seat_keys[env.seat], sender=sender)
        log = s._logs[env.seat]
        if env.seq < len(log):
            if log[env.seq].digest() != env.digest():
                raise Equivocation(EquivocationProof(log[env.seq], env), sender=sender)
            return  # a harmless repeat
        held = s._buffer[env.seat].get(env.seq)
        if held is not None:
            if held.digest() != env.digest():
                raise Equivocation(EquivocationProof(held, env), sender=sender)
            return
        if len(s._buffer[env.seat]) >= MAX_BUFFERED:
            raise UnexpectedMessage("sent too many messages ahead of the game", seat=env.seat)
    except ProtocolError as exc:
        if isinstance(exc, Equivocation):
            s.equivocations.append(exc.proof)
        s._reject(env.seat, sender, env.seen.step, env.kind, exc)
        return
    if env.kind == "desync":
        remember_sections(s, env)
    if from_journal:
        s._journaled.add(env.digest())  # accepted (or ours) in the first run: never journalled twice
    s._buffer[env.seat][env.seq] = env
    s._senders[(env.seat, env.seq)] = sender
    if env.seat == s.seat and s._writer is not None:
        s._sent.add((env.seen.step, env.kind))
        if env.seq >= s._writer.next_seq:
            s._writer.next_seq = env.seq + 1
            s._writer.head = env.digest()

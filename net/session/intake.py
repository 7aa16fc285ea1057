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
from net.envelope import Envelope, EquivocationProof, verify_equivocation_proof
from net.errors import (
    Equivocation,
    InvalidProof,
    MalformedMessage,
    ProtocolError,
    UnexpectedMessage,
    UnknownSeat,
    WrongGame,
)
from net.session import catchup, chat, conviction, limits
from net.session.desync import remember_sections
from net.session.messages import KINDS

if TYPE_CHECKING:
    from net.session.core import Session


def intake_bytes(s: Session, data: bytes, sender: str | None, *, from_journal: bool,
                 via: int | None = None) -> None:
    """One payload: an envelope, a catch-up request or a catch-up reply."""
    try:
        value = decode(data)
    except EncodingError as exc:
        s._reject(None, sender, s.step, "?", MalformedMessage(f"not canonical data: {exc}"))
        return
    if isinstance(value, Mapping) and set(value) == {"catch_up"}:
        catchup.answer(s, value["catch_up"], via)
        return
    if isinstance(value, Mapping) and set(value) == {"equivocation", "game"}:
        if value["game"] == s.gid:
            on_evidence(s, value["equivocation"], sender)
        return
    if isinstance(value, Mapping) and set(value) == {"envelopes", "game"}:
        if value["game"] != s.gid or not isinstance(value["envelopes"], tuple):
            s._reject(None, sender, s.step, "catch-up", WrongGame("catch-up reply for another game"))
            return
        for item in value["envelopes"]:
            intake_value(s, item, sender, from_journal=False)
        return
    intake_value(s, value, sender, from_journal=from_journal)


def on_evidence(s: Session, data: Any, sender: str | None) -> None:
    """A forwarded equivocation proof: check it from scratch, then act on it."""
    try:
        parsed = EquivocationProof.from_data(data)
        if parsed.seat not in s.seats:
            raise InvalidProof(f"an equivocation proof names seat {parsed.seat}, not at this table")
        verify_equivocation_proof(parsed, s.genesis.seat_keys[parsed.seat], game=s.gid)
    except ProtocolError as exc:
        s._reject(None, sender, s.step, "equivocation proof", exc)
        return
    log = s._logs[parsed.seat]
    if parsed.seq < len(log) and log[parsed.seq].digest() in (parsed.first.digest(), parsed.second.digest()):
        conviction.on_equivocation(s, parsed)  # one version is in our record: the other is a fork of it
        return
    for env in (parsed.first, parsed.second):  # not judged here yet: both go through intake like any envelope
        intake(s, env, sender, from_journal=False)


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
    """Check before storing anything: game, seat, signature, kind and size, the
    chain where it can be checked now, and the seat's buffer budget; then
    buffer by (seat, seq). Nothing is journalled here (see the pump)."""
    try:
        if env.game != s.gid:
            raise WrongGame("the message was signed for another game (a replay from elsewhere?)",
                            seat=env.seat)
        if env.seat not in s.seats:
            raise UnknownSeat(f"there is no seat {env.seat} at this table of {len(s.seats)}",
                              seat=env.seat)
        if (env.seat, "messages refused") in s.flood_named and env.kind == "chat":
            chat.check_rate(s, env, now=True)  # a known flooder's excess costs no signature check
        log = s._logs[env.seat]
        log.verify(env, sender=sender)
        if log.known(env, sender=sender):  # an Equivocation when it differs from the accepted one
            return  # a harmless repeat
        held = s.inbox.get(env.seat, env.seq)
        if held is not None:
            if held.digest() != env.digest():
                keep_alternate(s, env)
            return
        check_shape(s, env)
        if not from_journal:
            make_room(s, env)
    except ProtocolError as exc:
        s._reject(env.seat, sender, env.seen.step, env.kind, exc)
        if isinstance(exc, Equivocation):
            conviction.on_equivocation(s, exc.proof)
        return
    if env.kind == "desync":
        remember_sections(s, env)
    if from_journal:
        s._note_journaled(env)  # accepted (or ours) in the first run: never journalled twice
    s.inbox.hold(env, sender)
    if env.seat == s.seat:
        s._note_own(env)


def check_shape(s: Session, env: Envelope) -> None:
    """Refuse what can never fit, whatever comes later: an unknown kind, an
    envelope too large for its kind, a next envelope that does not chain on."""
    if env.kind not in KINDS:
        raise UnexpectedMessage(f"unknown message kind {env.kind!r}", seat=env.seat)
    size, most = len(env.to_bytes()), limits.MAX_KIND_BYTES[env.kind]
    if size > most:
        raise MalformedMessage(f"a {env.kind!r} message of {size} bytes is larger than any honest one "
                               f"(at most {most})", seat=env.seat)
    s._logs[env.seat].check_link(env)


def make_room(s: Session, env: Envelope) -> None:
    """Keep the seat's held-back envelopes within budget: drop those farthest
    ahead for one that comes sooner (they come back through catch-up), or
    refuse this one when it is itself the farthest ahead."""
    seat, inbox = env.seat, s.inbox
    size = len(env.to_bytes())
    while inbox.count(seat) and (inbox.count(seat) >= limits.MAX_BUFFERED
                                 or inbox.size(seat) + size > limits.MAX_BUFFER_BYTES):
        if inbox.farthest(seat) < env.seq or seat == s.seat:
            limits.note_refusal(s, seat, "messages far ahead of the game")
            raise UnexpectedMessage(f"sent too many messages ahead of the game (more than "
                                    f"{limits.MAX_BUFFER_BYTES} bytes or {limits.MAX_BUFFERED} messages "
                                    "waiting)", seat=seat)
        inbox.drop_farthest(seat)
        limits.note_refusal(s, seat, "messages far ahead of the game")


def keep_alternate(s: Session, env: Envelope) -> None:
    """Another version of an envelope that is still waiting, not yet judged.

    Not yet proof of anything: an honest seat whose envelope every peer
    refuses (its own session included) reuses the seq, and a peer that was
    behind may hold the refused one still. So the other version waits beside
    it: if the held one is refused it takes its place, if the held one is
    accepted the pair is an equivocation (:func:`net.session.pump.consume`).
    """
    if any(v.digest() == env.digest() for v in s.inbox.alternates(env.seat, env.seq)):
        return
    if s.inbox.size(env.seat) + len(env.to_bytes()) > limits.MAX_BUFFER_BYTES:
        limits.note_refusal(s, env.seat, "conflicting versions of one message")
        return
    if s.inbox.add_alternate(env, limits.MAX_ALTERNATES):  # the oldest went: a genuine message comes last
        limits.note_refusal(s, env.seat, "conflicting versions of one message")

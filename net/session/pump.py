"""The pump: consume buffered envelopes in chain order, then send what we owe.

Only the engine's pending input decides who may speak, so an envelope is
judged when it is next in its seat's chain and the table has reached its
step: it is consumed when it fits, held back (:class:`Wait`) while it
belongs to a later step or phase, and rejected with a specific reason when
it can never fit. Every envelope's ``seen`` is compared with our own hash
history first; a difference convicts the signer (a signed lie, see
:mod:`net.session.conviction`), never a rejection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.errors import CheatDetected, EngineError
from net.envelope import Envelope, EquivocationProof
from net.errors import ProtocolError, UnexpectedMessage
from net.session import abandon, chat, conviction, deadlines, desync, dispute, leave, resign, subset_shuffle
from net.session.events import Cheat
from net.session.messages import KINDS
from net.session.endgame import Final
from net.session.phases import Wait

if TYPE_CHECKING:
    from net.session.core import Session


def pump(s: Session) -> None:
    """Consume whatever fits, send what we owe, until nothing moves."""
    # our own envelopes first: a round counts our part when we make it, so another seat's part
    # buffered meanwhile could complete the step before our envelope joined our chain, which
    # would then refuse it as late and sign the next one with the same sequence number
    order = s.seats if s.seat is None else (s.seat, *(x for x in s.seats if x != s.seat))
    while s.halted is None:
        progressed = False
        for seat in order:
            while s.halted is None:
                env = s.inbox.get(seat, s._logs[seat].next_seq)
                if env is None or not (consume(s, env) or try_alternates(s, env)):
                    break
                progressed = True
        if s.halted is not None:
            break
        s._advance()  # a completed phase hands over; play opens the next step's round
        deadlines.note_part(s)
        if progressed or deadlines.settle(s) or abandon.settle(s):
            continue
        if not emit_due(s):
            break


def consume(s: Session, env: Envelope, *, forks: bool = True) -> bool:
    """True when the envelope was accepted or rejected (leaves the buffer).

    ``forks``: once it is accepted, another valid version of it is proof of
    equivocation (not when the other versions were only waiting, see
    :func:`try_alternates`)."""
    seat = env.seat
    try:
        s._logs[seat].check_link(env)
        k = env.seen.step
        if k <= s.step and k < len(s.hashes) and (s.hashes[k] != env.seen.state_hash or (
                env.seen.inputs is not None and env.seen.inputs != s.inputs[k])):
            desync.desync(s, env)  # another state, or the same reached by other inputs (a fork somewhere)
            return True
        if not dispatch(s, env):
            return False
    except Wait:
        return False
    except (ProtocolError, EngineError, KeyError, IndexError, TypeError, ValueError) as exc:
        # KeyError & co: hostile data of a shape no check foresaw; still only a rejection
        sender = s.inbox.release(env)
        s.inbox.promote_alternate(env)
        if isinstance(exc, CheatDetected) and env.kind not in ("action",):
            s._halt(Cheat(exc.seat, s.step, str(exc)))
        elif dispute.is_bad_share_for_us(s, env, exc):
            dispute.dispute(s, env, exc)
        else:
            s._reject(seat, sender, env.seen.step, env.kind, exc)
            s._forget_refused(env)
        return True
    s.inbox.release(env)
    s._logs[seat].append(env)
    s._journal_accepted(env)
    others = s.inbox.drop_alternates(env)
    if others and forks:  # a second valid version of an accepted envelope: the seat forked its history
        conviction.on_equivocation(s, EquivocationProof(env, others[0]))
    phase = s.current_phase
    if isinstance(phase, Final) and phase.late_part(env):
        deadlines.note_part(s)  # without effect: not the final record the table waits for, so no new wait
    else:
        deadlines.on_answer(s, env)
    return True


def try_alternates(s: Session, held: Envelope) -> bool:
    """The held envelope waits for a later phase: let another version of it go
    first if that one can be judged now (a seat's genuine message must not be
    stuck behind a version of it that may never fit). Every peer holding the
    same versions in the same state chooses alike; the versions passed over
    are dropped, since none of them was ever accepted."""
    for alt in s.inbox.alternates(held.seat, held.seq):
        s.inbox.swap(held, alt)
        if consume(s, alt, forks=False):
            return True
        s.inbox.swap(alt, held)  # it waits too: put things back
    return False


def dispatch(s: Session, env: Envelope) -> bool:
    """Hand the envelope to the part of the session its kind calls for: the kinds
    that belong to no phase here, the rest to the current phase object."""
    kind, k = env.kind, env.seen.step
    if env.digest() not in s._made and subset_shuffle.put_off(s.current_round):
        # a shuffle step we built on before checking it (Session.work) is checked before anything
        # else of another seat counts: a resignation, a leave or a claim that ended the game first
        # would leave this peer's verdict on a bad step unlike every other peer's
        subset_shuffle.check_put_off(s, s.current_round)
        if s.halted is not None:
            return False
    if k > s.step:
        phase = s.current_phase
        if not (isinstance(phase, Final) and phase.takes_ahead(env)):
            raise Wait  # every envelope's seen is compared once we reach its step
        # else: a seat got past the resignation's step before it saw the resignation; judged below
    if env.seat in s.left:  # its leave was its last word: no chat, claim, dispute, move or second leave counts
        raise UnexpectedMessage(f"sent a {kind!r} message after it left the game (a second leave or anything "
                                "else): a seat that left signs nothing more", seat=env.seat)
    if kind == "chat":
        line = chat.line_of(env)
        chat.check_rate(s, env)
        s._chat_line(env.seat, line)
        return True
    if kind == "desync":
        desync.check_message(env)
        return True  # its sections were noted on intake; kept in the chain
    if kind not in KINDS:
        raise UnexpectedMessage(f"unknown message kind {kind!r}", seat=env.seat)
    if kind == "dispute":
        dispute.on_dispute(s, env)
        return True
    if kind == "forfeit":
        deadlines.on_forfeit(s, env)
        return True
    if kind == "resign":
        resign.on_resign(s, env)
        return True
    if kind == "leave":
        leave.on_leave(s, env)
        s._advance()
        return True
    if kind == "abandon":
        abandon.on_abandon(s, env)
        return True
    s.current_phase.take(env)
    s._advance()
    return True


def emit_due(s: Session) -> bool:
    """Send the one message we owe now, if any; True when something was sent."""
    if s._writer is None or s.halted is not None or s.seat is None:
        return False
    return s.current_phase.owe()

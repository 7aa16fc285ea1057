"""Chat lines: signed and chained like every envelope, but never game input.

One rule for both directions (our line, a peer's envelope) so that a line we
may send is exactly a line every peer accepts. The rate limit is a rule of
the signed record, not of anyone's clock: at most ``CHAT_PER_STEP`` lines
per seat with one ``seen.step``, and a chat line may not claim an older step
than the seat's previous envelope. Every peer counts the same chain, so
every peer refuses the same lines (a refused line leaves its seq free, as
any refused envelope does).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.session.limits import CHAT_PER_STEP

if TYPE_CHECKING:
    from net.session.core import Session

MAX_CHAT = 500


def check_line(text: object) -> str:
    """Our own chat line, checked before it is signed."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_CHAT:
        raise ValueError(f"a chat line has 1 to {MAX_CHAT} characters")
    return text


def lines_at(s: Session, seat: int, step: int, *, mine: bool = False) -> int:
    """Chat lines of ``seat`` in its accepted chain (and, for ``mine``, our own
    sent but not yet consumed) that claim ``step``."""
    count = 0
    for env in s._logs[seat].newest_first():
        if env.seen.step != step:
            break  # seen.step never decreases along a chain
        count += env.kind == "chat"
    if mine:
        count += sum(1 for e in s.inbox.waiting(seat) if e.kind == "chat" and e.seen.step == step)
    return count


def check_rate(s: Session, env: Envelope, *, now: bool = False) -> None:
    """Refuse a chat line over the seat's budget at its step (deterministic).

    ``now``: judge only if the line is the seat's next envelope and chains on
    (its verdict when consumed would be the same); otherwise leave it to the pump.
    """
    log = s._logs[env.seat]
    if now and (env.seq != log.next_seq or env.prev != log.head):
        return
    if log and env.seen.step < log[-1].seen.step:
        raise UnexpectedMessage(f"a chat line claims step {env.seen.step}, before the seat's previous "
                                f"message (step {log[-1].seen.step})", seat=env.seat)
    if lines_at(s, env.seat, env.seen.step) >= CHAT_PER_STEP:
        raise UnexpectedMessage(f"sent more than {CHAT_PER_STEP} chat lines at step {env.seen.step}; "
                                "the excess is refused", seat=env.seat)


def line_of(env: Envelope) -> str:
    """The text of a peer's chat envelope; a bad shape is a rejection."""
    text = env.body.get("text") if isinstance(env.body, Mapping) and set(env.body) == {"text"} else None
    if not isinstance(text, str) or not 0 < len(text) <= MAX_CHAT:
        raise MalformedMessage(f"a chat message is {{'text': 1 to {MAX_CHAT} characters}}", seat=env.seat)
    return text

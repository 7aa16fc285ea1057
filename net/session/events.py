"""What a session reports to its owner (UI, tools, logs): plain values.

Every event names the seat concerned and says, in words, what happened and
what the players can do next. Nothing here changes the game. Events are
listed in ``Session.events``; a subscriber (:meth:`Session.subscribe`) also
hears the notices :class:`Applied`, :class:`PhaseChanged` and
:class:`ChatLine`, so a display never has to poll the session's attributes.
"""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class Rejected:
    """An incoming message was refused; the session goes on without it."""

    seat: int | None
    sender: str | None
    step: int
    kind: str
    reason: str
    error: str

    def __str__(self) -> str:
        who = f"seat {self.seat}" if self.seat is not None else \
            f"link {self.sender}" if self.sender else "an unknown sender"
        via = f" (received from {self.sender})" if self.sender and self.seat is not None else ""
        return (f"rejected a {self.kind!r} message from {who}{via} at step {self.step} "
                f"[{self.reason}]: {self.error}; it was ignored and the game goes on")


@dataclasses.dataclass(frozen=True)
class Stalling:
    """A deadline passed while ``seats`` still owed their part."""

    seats: tuple[int, ...]
    names: tuple[str, ...]
    step: int
    waiting_for: str

    def __str__(self) -> str:
        who = ", ".join(f"{n} (seat {s})" for s, n in zip(self.seats, self.names))
        return (f"{who} did not {self.waiting_for} in time at step {self.step}; you may wait "
                "longer or end the game as their forfeit")


@dataclasses.dataclass(frozen=True)
class Abandonable:
    """The longer abandonment deadline passed while ``seats`` still owed their part
    (net.session.abandon): no forfeit came, so the waiting seats may end the game."""

    seats: tuple[int, ...]
    names: tuple[str, ...]
    step: int
    waiting_for: str
    after: float

    def __str__(self) -> str:
        who = ", ".join(f"{n} (seat {s})" for s, n in zip(self.seats, self.names))
        return (f"{who} still did not {self.waiting_for} after {self.after:.0f} s at step {self.step} and no "
                "forfeit could be agreed; you may end the game as abandoned (nobody wins) or wait longer")


@dataclasses.dataclass(frozen=True)
class Misconduct:
    """A seat signed something our own view of the table contradicts, such as a
    forfeit claim before our deadline for the accused had passed. A local
    judgement (our clock), not a proof; the game goes on."""

    seat: int
    name: str
    step: int
    what: str

    def __str__(self) -> str:
        return (f"{self.name} (seat {self.seat}) {self.what} (step {self.step}); this is recorded as its "
                "misconduct and the game goes on")


@dataclasses.dataclass(frozen=True)
class Cheat:
    """A seat's signed message proves it broke the rules; the game stops."""

    seat: int | None
    step: int
    error: str

    def __str__(self) -> str:
        return (f"seat {self.seat} was caught cheating at step {self.step}: {self.error}. The game "
                "is stopped; keep the transcript as evidence")


@dataclasses.dataclass(frozen=True)
class Resigned:
    """A seat signed that it gives the game up (it conceded, or left the table)."""

    seat: int
    name: str
    step: int

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat}) resigned at step {self.step} with a signed message"


@dataclasses.dataclass(frozen=True)
class Left:
    """A seat left a running game for good and the others play on (net/session/leave.py): its
    character is played by the table's stand-in from now on."""

    seat: int
    name: str
    step: int

    def __str__(self) -> str:
        return (f"{self.name} (seat {self.seat}) left the game at step {self.step}; the others play on and a "
                "stand-in plays its character")


@dataclasses.dataclass(frozen=True)
class Flooding:
    """A seat sends far more than the game needs; its excess is refused.

    Reported once per seat and kind of excess (``what``); from then on its
    refused messages are counted (``Session.refused``) rather than listed one
    by one, so the flood cannot fill the event list or the log either.
    """

    seat: int | None
    what: str
    count: int

    def __str__(self) -> str:
        who = f"seat {self.seat}" if self.seat is not None else "an unknown sender"
        return (f"{who} is flooding the table ({self.what}; {self.count} refused so far). Its excess "
                "messages are dropped and counted; the game goes on. If it keeps stalling the game, claim a "
                "forfeit when its deadline passes")


@dataclasses.dataclass(frozen=True)
class Finished:
    """The game ended and every seat's final record is in."""

    outcome: dict[str, Any]
    audit: str

    def __str__(self) -> str:
        return f"game over: {self.outcome.get('reason', '')}; audit: {self.audit}"


Event = Rejected | Stalling | Abandonable | Misconduct | Cheat | Flooding | Resigned | Left | Finished


# --- notices: what a subscriber hears (Session.subscribe) -------------------------------


@dataclasses.dataclass(frozen=True)
class Applied:
    """One engine input was applied: ``action`` took ``before`` (at ``step``) to ``after``."""

    step: int
    before: Any
    action: Any
    after: Any


@dataclasses.dataclass(frozen=True)
class PhaseChanged:
    """The session went from phase ``old`` to phase ``new`` at ``step``."""

    old: str
    new: str
    step: int


@dataclasses.dataclass(frozen=True)
class ChatLine:
    """A signed chat line of ``seat`` was accepted (the text as signed; a display cleans it)."""

    seat: int
    text: str


#: Everything a subscriber is told, in the order it happened: each input, each change of
#: phase, each chat line, and every :data:`Event` (the same values as ``Session.events``).
Notice = Applied | PhaseChanged | ChatLine | Event

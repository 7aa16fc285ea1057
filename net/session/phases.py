"""The session's phases: one object per phase, owning that phase's state.

A session is in exactly one phase at a time (docs/architecture.md, "The
session's phases", draws the diagram):

- ``hello`` (:class:`~net.session.opening.Opening`): card keys and secret deck points;
- ``play`` (:class:`~net.session.play.Play`): decisions and joint rounds, step by step;
- ``audit`` (:class:`~net.session.endgame.Audit`): deck lists and owed hand cards opened;
- ``final`` (:class:`~net.session.endgame.Final`): every seat signs the same final record;
- ``done`` (:class:`Done`): nothing is owed any more.

Every phase answers the same questions, so the session has no ladder over
phase names: :meth:`Phase.take` (consume one envelope that is for this
phase, raise :class:`Wait` when it belongs to a later one, a
:class:`~net.errors.UnexpectedMessage` when it can never fit),
:meth:`Phase.owe` (send our own part if we owe one now),
:meth:`Phase.waiting_for`, :meth:`Phase.describe` (what the awaited seats
must do, in words) and :meth:`Phase.successor` (the phase its own work
leads to, once it is complete). The session makes every change of phase in
one place (``Session._enter``), checked against :data:`TRANSITIONS`; a
forfeit, a resignation or a conviction ends the game early through the
session too, never by writing another module's fields.

Envelope kinds that belong to no phase (chat, forfeit claims, resignations,
desync reports, disputes) are handled by the session before the phase is asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from net.envelope import Envelope
from net.errors import UnexpectedMessage

#: Phase names in the order a game goes through them.
PHASES = ("hello", "play", "audit", "final", "done")

#: Which phase may follow which. ``hello``/``play`` -> ``final`` is the early end
#: (a forfeit or a resignation: unaudited); ``audit`` -> ``final`` is the audited end;
#: ``hello``/``play``/``audit`` -> ``done`` is an abandonment (net.session.abandon: the
#: silent seats sign nothing, so there is no final record to wait for).
TRANSITIONS: Mapping[str, frozenset[str]] = {
    "hello": frozenset({"play", "final", "done"}),
    "play": frozenset({"audit", "final", "done"}),
    "audit": frozenset({"final", "done"}),
    "final": frozenset({"done"}),
    "done": frozenset(),
}


class Wait(Exception):
    """The envelope belongs to a later step or phase: keep it buffered."""


class PhaseError(RuntimeError):
    """A change of phase the table does not allow (a defect of the session, never bad input)."""


def check_transition(old: str, new: str) -> None:
    """Raise :class:`PhaseError` unless ``new`` may follow ``old``."""
    if new not in TRANSITIONS.get(old, frozenset()):
        raise PhaseError(f"the session cannot go from phase {old!r} to phase {new!r}")


class Phase(Protocol):
    """One phase of a session (see the module docstring)."""

    @property
    def name(self) -> str:
        """One of :data:`PHASES`."""
        ...

    def take(self, env: Envelope) -> None:
        """Consume one envelope of the current step; :class:`Wait` when it is for a later phase."""
        ...

    def owe(self) -> bool:
        """Send our own part if we owe one now; True when something was sent."""
        ...

    def waiting_for(self) -> tuple[int, ...]:
        """Seats whose message this phase waits for now, in seat order."""
        ...

    def describe(self) -> str:
        """What the awaited seats must do, in words (stall messages, forfeit records)."""
        ...

    def successor(self) -> Phase | None:
        """The phase this one's completed work leads to, or None while it is not complete."""
        ...


def refuse_second_hello(env: Envelope) -> None:
    """Every phase after the opening refuses another opening message."""
    if env.kind == "hello":
        raise UnexpectedMessage("sent a second opening message", seat=env.seat)


def refuse_after_end(env: Envelope) -> UnexpectedMessage:
    """The error for a game message that comes after the game ended."""
    return UnexpectedMessage(f"sent a {env.kind!r} message after the game ended", seat=env.seat)


class Done:
    """Every final record is in: the game is over and nothing is owed."""

    name = "done"

    def take(self, env: Envelope) -> None:
        refuse_second_hello(env)
        raise refuse_after_end(env)

    def owe(self) -> bool:
        return False

    def waiting_for(self) -> tuple[int, ...]:
        return ()

    def describe(self) -> str:
        return "nothing (the game is over)"

    def successor(self) -> Phase | None:
        return None

"""The seam between a seat and a game: one driver protocol, one refusal, one dry run.

Whoever plays a seat (a person behind the client, a bot, a test) asks a
*driver* what it may give now and gives one of those inputs back:

- :meth:`TableDriver.legal` lists the seat's :data:`~engine.core.inputs.SeatInput`
  values: engine actions for a Decision, sealed picks for a SealedChoice,
  placement picks for the placer of a hidden Placement (engine/core/inputs.py);
- :meth:`TableDriver.submit` takes one of them. Only the driver branches on
  what kind of input it is: it applies an action (local) or signs and sends
  it (networked), seals a pick until every seat has picked, or collects a
  placement until every thing has its cell.

Two drivers implement it: the trusted :class:`net.local_table.LocalTable`
and the networked :class:`net.session.core.Session`. Everything above them
(net/peer/driver.py's ``Peer``, the client's table sessions in client/table/)
forwards a seat's input unchanged, so one click takes one road whichever
table it lands on (docs/architecture.md, "The seam").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from engine.core.actions import Action
from engine.core.capabilities import Capabilities
from engine.core.errors import EngineError
from engine.core.game import Game
from engine.core.hidden import Knowledge
from engine.core.inputs import PlacementPick, SealedPick, SeatInput
from engine.core.pending import Pending, Placement


class InputRefused(ValueError):
    """A driver refused a seat's input; the text says why and what to do instead.

    ``seat`` is the seat that gave it, when known. Nothing changed: the
    driver's state is as it was before the call. The client raises it too for
    what its table cannot do (a local table has no chat).
    """

    def __init__(self, text: str, *, seat: int | None = None) -> None:
        super().__init__(text)
        self.seat = seat


class TableDriver(Protocol):
    """What a seat sees of a table (see the module docstring)."""

    @property
    def pending(self) -> Pending | None:
        """What the game waits for now (engine/core/pending.py), None when it is over."""
        ...

    def legal(self, seat: int) -> list[SeatInput]:
        """What ``seat`` may give now (empty while the table waits for others)."""
        ...

    def submit(self, seat: int, chosen: SeatInput) -> object:
        """Take ``seat``'s input, one of :meth:`legal`; :class:`InputRefused` otherwise."""
        ...

    def picked(self, seat: int) -> SealedPick | None:
        """The sealed pick ``seat`` has made for the sealed choice now pending, if any."""
        ...


def vet(game: Game[Any], caps: Capabilities, state: Any, knowledge: Knowledge, action: Action) -> Any:
    """The one dry run of a seat's action: the checks only its own knowledge allows
    (ChecksPrivate), then the pure reducer. Returns the state after it; raises the
    engine's error and changes nothing."""
    if caps.check_private is not None:
        caps.check_private(state, action, knowledge)
    return game.apply(state, action)


def refusal(game: Game[Any], caps: Capabilities, state: Any, knowledge: Knowledge, seat: int,
            chosen: SeatInput) -> InputRefused:
    """Why ``chosen`` is not among what ``seat`` is offered, in words (the engine's own
    reason for an action, with its error as the cause); for a driver to raise."""
    if isinstance(chosen, Action):
        try:
            vet(game, caps, state, knowledge, chosen)
        except EngineError as exc:
            refused = InputRefused(f"that move is not allowed now: {exc}; pick one of the moves you are "
                                   "offered", seat=seat)
            refused.__cause__ = exc
            return refused
        return InputRefused("that move is not offered to you now; pick one of the moves you are offered",
                            seat=seat)
    what = "sealed choice" if isinstance(chosen, SealedPick) else "placement"
    return InputRefused(f"you have no such {what} to make now; pick one of the options you are offered",
                        seat=seat)


def place_all(driver: TableDriver, seat: int, arrangement: Mapping[str, str]) -> None:
    """Make ``seat``'s whole pending placement at once (``cell -> thing``) through the
    placement picks the driver offers, one thing at a time in the order it asks.

    The arrangement is checked whole first (every thing placed once, only on
    candidate cells), so a wrong one is refused with :class:`InputRefused`
    before any pick is given and nothing changes."""
    pending = driver.pending
    if not isinstance(pending, Placement) or pending.op != "place" or pending.seat != seat:
        raise InputRefused(f"seat {seat + 1} has no placement to make now", seat=seat)
    if sorted(arrangement.values()) != sorted(pending.things):
        raise InputRefused(f"place exactly these things, each once: {', '.join(pending.things)}", seat=seat)
    outside = sorted(c for c in arrangement if c not in pending.cells)
    if outside:
        raise InputRefused(f"cells {', '.join(outside)} are not among the cells you may use for {pending.zone}",
                           seat=seat)
    remaining = dict(arrangement)
    while remaining:
        offered = [p for p in driver.legal(seat) if isinstance(p, PlacementPick)]
        thing = offered[0].thing if offered else None
        cell = next((c for c, t in remaining.items() if t == thing), None)
        pick = next((p for p in offered if p.cell == cell), None)
        if cell is None or pick is None:
            raise InputRefused(f"this table does not take the placement of {pending.zone} now", seat=seat)
        del remaining[cell]
        driver.submit(seat, pick)

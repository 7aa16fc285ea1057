"""A local Locke table: the table layer's LocalSession with the player at seat 0 and bots elsewhere.

Why a module: the lobby's picker (seat count, bot level) and the test
helpers build the same table. Until the one seat driver of issue 23
(``LocalSession.submit`` taking a :class:`~engine.core.inputs.PlacementPick`)
reaches this branch, :class:`LockeLocalSession` carries the player's hidden
placements itself: it offers one pick per thing from the table's pending
placement and hands the finished arrangement to
``LocalTable.submit_placement`` (net/local_table.py), the trusted table's
own entry for a human placer. Every other input goes through the layer's
``submit`` unchanged.

Pacing (the issue's "bots that do not concern you run fast"): the session
keeps two paces; :meth:`LockeLocalSession.concerns_me` says whether the
next automatic input touches our seat (our turn, a combat we are in, a
question put to us), and only then the player's bot speed applies.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from client.table.local import LocalSession
from client.table.session import IllegalIntent, system_delay
from engine.core.inputs import PlacementPick
from engine.core.pending import Decision, Placement
from engine.locke.state import LockeState

#: Seconds per automatic input that does not concern the player (bots elsewhere, system steps).
FAST_DELAY = 0.0
#: The part of the player's bot speed used for inputs that do concern the player.
NEAR_FACTOR = 0.5


class LockeLocalSession(LocalSession[LockeState]):
    """LocalSession for Locke: our hidden placements, and two paces (see the module docstring)."""

    def __init__(self, *args: Any, near_delay: float = 0.35, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Our picks of the placement being made (cell -> thing), until every thing has a cell.
        self.placing: dict[str, str] = {}
        self.near_delay = near_delay

    def my_placement(self) -> Placement | None:
        """The hidden placement we must make now, if any."""
        pending = self.pending
        if isinstance(pending, Placement) and pending.op == "place" and pending.seat == self.me \
                and not self.problem and not self.conceded:
            return pending
        return None

    def legal(self) -> list[Any]:
        placement = self.my_placement()
        if placement is None:
            return list(super().legal())
        thing = placement.things[len(self.placing)]
        return [PlacementPick(self.me, placement.zone, thing, c) for c in placement.cells if c not in self.placing]

    def submit(self, action: Any) -> None:
        if not isinstance(action, PlacementPick):
            super().submit(action)
            return
        placement = self.my_placement()
        if placement is None or action not in self.legal():
            raise IllegalIntent(f"{action!r} is not a legal input now")
        self.placing[action.cell] = action.thing
        if len(self.placing) < len(placement.things):
            for listener in list(self.change_listeners):
                listener()
            return
        arrangement, self.placing = self.placing, {}
        pre = self.state
        made = self.table.submit_placement(self.me, arrangement)
        self._emit(pre, made)
        self._schedule()

    def concerns_me(self) -> bool:
        """Whether the next automatic input touches our seat: our turn, our combat, a question to us."""
        state = self.table.state
        if state.current == self.me:
            return True
        combat = state.combat
        if combat is not None and any(self.me in side for side in combat.sides):
            return True
        pending = self.table.pending
        return isinstance(pending, Decision) and pending.seat == self.me

    def _schedule(self, now: bool = False) -> None:
        if self.my_placement() is not None:
            self.stop()
            self.waiting_human = True
            return
        near = self.concerns_me()
        self.bot_delay = self.near_delay if near else FAST_DELAY
        self.system_delay = system_delay(self.near_delay) if near else FAST_DELAY
        super()._schedule(now)


def local_session(app: Any, entry: Any, seats: int, *, name: str = "Player", bot: str = "",
                  seed: int | None = None) -> LockeLocalSession:
    """A local Locke table of ``seats``: we hold seat 0, bot ``bot`` (the entry's first when
    empty or unknown) every other seat, paced by the player's bot speed near us."""
    from client.i18n import tr

    seed = secrets.randbits(63) if seed is None else seed
    setup = entry.local(entry.local_record(seats, None, None), None)
    kind = bot if bot in entry.bots else entry.default_bots[0]
    bots: list[Any] = [None] + [entry.bot(kind, random.Random(seed * 31 + s)) for s in range(1, seats)]
    names = [name.strip() or "Player"] + [tr(app.lang, f"bot_{kind}")] * (seats - 1)
    near = app.prefs.bot_delay * NEAR_FACTOR
    return LockeLocalSession(setup.game, setup.state, setup.knowledge, setup=setup.record, me=0, names=names,
                             bots=bots, seed=seed, clock=app.clock, bot_delay=near, system_delay=system_delay(near),
                             near_delay=near)

"""A local Locke table: the table layer's LocalSession with the player at seat 0 and bots elsewhere.

Why a module: the lobby's picker (seat count, bot level), the demo and
the test helpers build the same table. Every input of ours (an action, a
sealed pick, a placement pick) goes through the layer's one ``submit``.

Pacing (the issue's "bots that do not concern you run fast"): the session
keeps two paces; :meth:`LockeLocalSession.concerns_me` says whether the
next automatic input touches our seat (our turn, a combat we are in, a
question put to us), and only then the player's bot speed applies.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from client.table.local import LocalSession
from client.table.session import system_delay
from engine.core.pending import Decision
from engine.locke.state import LockeState

#: Seconds per automatic input that does not concern the player (bots elsewhere, system steps).
FAST_DELAY = 0.0
#: The part of the player's bot speed used for inputs that do concern the player.
NEAR_FACTOR = 0.5


class LockeLocalSession(LocalSession[LockeState]):
    """LocalSession for Locke with two paces (see the module docstring)."""

    def __init__(self, *args: Any, near_delay: float = 0.35, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.near_delay = near_delay

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
        near = self.concerns_me()
        self.bot_delay = self.near_delay if near else FAST_DELAY
        self.system_delay = system_delay(self.near_delay) if near else FAST_DELAY
        super()._schedule(now)


def local_session(app: Any, entry: Any, seats: int, *, name: str = "Player", bot: str = "",
                  bots: Sequence[str] = (), seed: int | None = None) -> LockeLocalSession:
    """A local Locke table of ``seats``: we hold seat 0, and every other seat plays the bot
    ``bots`` names for it in seat order (else ``bot``; the entry's first when empty or unknown),
    paced by the player's bot speed near us."""
    from client.i18n import tr

    seed = secrets.randbits(63) if seed is None else seed
    setup = entry.local(entry.local_record(seats, None, None), None)
    fallback = bot if bot in entry.bots else entry.default_bots[0]
    kinds = [bots[s - 1] if s - 1 < len(bots) and bots[s - 1] in entry.bots else fallback for s in range(1, seats)]
    agents: list[Any] = [None] + [entry.bot(kind, random.Random(seed * 31 + s)) for s, kind in enumerate(kinds, 1)]
    names = [name.strip() or "Player"] + [tr(app.lang, f"bot_{kind}") for kind in kinds]
    near = app.prefs.bot_delay * NEAR_FACTOR
    return LockeLocalSession(setup.game, setup.state, setup.knowledge, setup=setup.record, me=0, names=names,
                             bots=agents, seed=seed, clock=app.clock, bot_delay=near, system_delay=system_delay(near),
                             near_delay=near)

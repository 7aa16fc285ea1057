"""The local adapter of the table layer: any game on a trusted local table.

:class:`LocalSession` wraps :class:`net.local_table.LocalTable` (the trusted
local driver) for seat ``me`` and paces it with the reactor clock: bot
decisions come after a short delay and hidden-card operations after a
shorter one, so the player can follow what happens. Every applied input is
reported to listeners as (state before, input, state after); the game's
scene turns those into animations and log lines. The human seat acts only
through :meth:`LocalSession.submit`, which accepts nothing but an element of
the table's current legal list.

The table's record is the one local game-record format
(net/transcript.py ``fairtable-local-transcript/1``, unsigned: the table is
trusted), and the end-of-game audit is the one replayer, ``net.verifier``:
it rebuilds the first state from the registry's local set-up record
(``setup``), replays every input through a fresh engine and compares every
state hash with the one recorded during play. A game's own session
(``client.rider.session.RiderSession``) only builds the table and its
set-up record.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from client.table.session import BOT_DELAY, SYSTEM_DELAY, Listener
from engine.core.actions import Action
from engine.core.errors import CheatDetected, EngineError
from engine.core.game import Outcome, hash_of
from engine.core.hashing import short_hex
from engine.core.hidden import Knowledge
from engine.core.pending import Decision
from engine.core.inputs import SealedPick, SeatInput
from net.games import game_for_rules
from net.local_table import LocalTable, TableError
from net.seam import InputRefused
from net.seats import for_people
from net.transcript import make_local_transcript, save

S = TypeVar("S")


class LocalSession(Generic[S]):
    """A LocalTable with seat ``me`` played by the user, bots in the others, paced on ``clock``."""

    #: Log tag of dice, shuffles and reveals: this computer's seeded generator.
    proof = "local"
    networked = False

    def __init__(self, game: Any, state: S, knowledge: Sequence[Knowledge], *, setup: Mapping[str, Any],
                 me: int = 0, names: Sequence[str], bots: Sequence[Any], seed: int | None = None, clock: Any = None,
                 bot_delay: float = BOT_DELAY, system_delay: float = SYSTEM_DELAY) -> None:
        """``setup`` is the game registry's local record that rebuilds ``state`` (``entry.local_record``;
        the transcript carries it); ``bots`` has one agent per seat (None for ours, ``me``); ``seed``
        drives the table's chance and hidden-card answers (a fresh random one when None)."""
        if len(bots) != len(names) or bots[me] is not None:
            raise ValueError("one bot per seat but ours, and one name per seat")
        entry = game_for_rules(game.rules_id)
        if entry is None:
            raise ValueError(f"the game {game.rules_id!r} is not registered (net/games/)")
        self.entry = entry
        self.setup = dict(setup)
        self.game = game
        self.me = me
        self.names: tuple[str, ...] = tuple(names)
        self.seed = secrets.randbits(63) if seed is None else seed
        self.table = LocalTable(game, state, list(knowledge), list(bots), self.seed)
        if clock is None:
            from twisted.internet import reactor as clock
        self.clock = clock
        self.bot_delay = bot_delay
        self.system_delay = system_delay
        self.listeners: list[Listener] = []
        self.waiting_human = False
        self._call: Any = None
        self.started_at = datetime.datetime.now(datetime.UTC)
        #: Set when the table had to stop (what happened, and which seat if known).
        self.problem = ""
        self.problem_seat: int | None = None
        self.cheat = False
        self.problem_listeners: list[Callable[[str], None]] = []
        #: Called when something shown changes without an input (a concession).
        self.change_listeners: list[Callable[[], None]] = []
        #: The player gave the game up (Concede): it ends now in the bot's favour.
        self.conceded = False
        #: A local table refuses no network message and has no chat.
        self.warnings: list[str] = []
        self.chat: list[tuple[int, str]] = []
        self.notices_dropped = 0
        self.catching_up = False

    # -- queries ----------------------------------------------------------------
    @property
    def state(self) -> S:
        return self.table.state  # type: ignore[no-any-return]

    @property
    def knowledge(self) -> Knowledge:
        """What the local seat knows (the only private view the client ever reads)."""
        return self.table.knowledge[self.me]

    @property
    def over(self) -> bool:
        return self.table.pending is None or self.conceded

    @property
    def pending(self) -> Any:
        """The engine's pending input (None once the game is over)."""
        return None if self.conceded else self.table.pending

    @property
    def moves(self) -> int:
        return len(self.table.log)

    def outcome(self) -> Outcome | None:
        """The engine's outcome (``winner``, ``reason``), or None while playing; a
        concession ends the game outside the engine, in the other seat's favour at a
        two-seat table (with more seats nobody single wins). The reason is recorded
        text: it counts seats from 0 (net/seats.py)."""
        if self.conceded and self.table.outcome() is None:
            winner = 1 - self.me if len(self.names) == 2 else None
            return Outcome(winner, f"seat {self.me} conceded")
        found: Outcome | None = self.table.outcome()
        return found

    def silence(self) -> None:
        """No seat of a local table goes silent."""
        return None

    def forfeit_seat(self) -> None:
        """No seat of a local table misses a deadline."""
        return None

    def claim_forfeit(self) -> None:
        raise InputRefused("a local table has no deadlines: nobody can forfeit")

    def say(self, text: str) -> None:
        raise InputRefused("a local table has no chat")

    def can_resign(self) -> bool:
        """True while there is a game to give up."""
        return not self.over and not self.problem

    def can_step_out(self) -> bool:
        """A local table's other seats are bots of this program: leaving ends the table."""
        return False

    def step_out(self) -> None:
        raise InputRefused("a local table ends when you leave it")

    def concede(self) -> None:
        """Give the game up now: the bot wins (the recorded inputs still replay for the audit)."""
        if not self.can_resign():
            raise InputRefused("there is no running game to concede")
        self.conceded = True
        self.stop()
        self.waiting_human = False
        for listener in list(self.change_listeners):
            listener()

    @property
    def my_pick(self) -> SealedPick | None:
        """Our sealed pick for the sealed choice now pending, until every pick is revealed."""
        return self.table.picked(self.me)

    def legal(self) -> list[SeatInput]:
        """The local seat's inputs now (net/seam.py: actions, sealed picks, placement picks)."""
        if self.conceded or self.problem or (self._call is not None and self._call.active()):
            return []  # stopped, or an input is already scheduled: wait for it to land
        return self.table.legal(self.me)

    def peer_status(self, seat: int) -> str:
        """A seat's status for the players panel, as a catalogue key (``peer_*``; its
        colour is client/table/status.py's): a local table only ever shows these."""
        if self.problem and (self.problem_seat is None or self.problem_seat == seat):
            return "peer_cheat" if self.cheat else "peer_stopped"
        if seat == self.me:
            if self.waiting_human and self.table.pending is not None:
                return "peer_you_turn"
            return "peer_you_local"
        if self.bot_thinking():
            return "peer_bot_thinking"
        return "peer_bot_local"

    def table_note(self, lang: str) -> str:
        """What the table does outside the engine's steps: nothing on a local table."""
        return ""

    def bot_thinking(self) -> bool:
        pending = self.table.pending
        return isinstance(pending, Decision) and pending.seat != self.me and self._call is not None

    # -- driving ----------------------------------------------------------------
    def start(self) -> None:
        self._schedule()

    def stop(self) -> None:
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None

    def leave(self) -> None:
        """The player left the table: nothing runs on after the scene is gone."""
        self.stop()

    def submit(self, chosen: SeatInput) -> None:
        """Give the player's input to the table (net/seam.py: it must be one of :meth:`legal`;
        the driver refuses anything else with InputRefused and changes nothing)."""
        if not self.legal():
            raise InputRefused("the table is not waiting for you now; wait for your turn", seat=self.me)
        pre = self.state
        applied = self.table.submit(self.me, chosen)
        if applied is not None:
            self._emit(pre, applied)
        self._schedule(now=applied is None)  # a pick: the bots' picks and the reveal follow at once

    def _emit(self, pre: S, action: Action) -> None:
        for listener in list(self.listeners):
            listener(pre, action, self.state)

    def _schedule(self, now: bool = False) -> None:
        """Arrange the next automatic input (bot, table operation), if any."""
        if self._call is not None and self._call.active():
            return
        self._call = None
        if self.problem:
            return
        pending = self.table.pending
        if pending is None:
            self.waiting_human = False
            return
        if self.me in self.table.waiting_for():  # our decision, sealed pick or placement
            self.waiting_human = True
            return
        if isinstance(pending, Decision):
            delay = self.bot_delay
        else:
            delay = 0.0 if now else self.system_delay
        self.waiting_human = False
        self._call = self.clock.callLater(delay, self._step)

    def _step(self) -> None:
        self._call = None
        pre = self.state
        try:
            action = self.table.step()
        except (EngineError, TableError) as exc:
            # The table cannot go on (a claimed card contradicts the rules, a
            # broken driver). Stop here, say who, never skip or repair it.
            self.problem = str(exc)
            self.problem_seat = getattr(exc, "seat", None)
            self.cheat = isinstance(exc, CheatDetected)
            self.waiting_human = False
            for listener in list(self.problem_listeners):
                listener(self.problem)
            return
        if action is not None:
            self._emit(pre, action)
        self._schedule()

    # -- after the game ------------------------------------------------------------
    def early_end(self) -> tuple[str, int] | None:
        """A local table always replays to its end for the audit: no early end to word."""
        return None

    def audit(self) -> tuple[bool, str]:
        """Check the record by the one replayer (net.verifier; a game that stopped early too):
        (True, the last state hash's short form) or (False, what failed, for people)."""
        from net.verifier import verify_local

        verdict = verify_local(self.transcript(), require_end=False)
        if verdict.ok:
            return True, short_hex(hash_of(self.game, self.state), 16)
        return False, for_people(f"step {verdict.step}: {verdict.detail}")

    def transcript(self) -> dict[str, Any]:
        """The game's record (net/transcript.py ``LOCAL_FORMAT``): its set-up, every input with the
        state hash after it, the end; ``python -m tools.verify`` replays it."""
        table = self.table
        return make_local_transcript(
            rules_id=self.entry.rules_id, rules_version=self.entry.rules_version,
            card_set_hash=self.entry.card_set_hash(), names=self.names, seed=self.seed, setup=self.setup,
            initial_hash=table.initial_hash, inputs=[a.to_data() for a in table.log], hashes=table.hashes,
            outcome=self.outcome(), final_hash=hash_of(self.game, self.state),
            conceded=self.me if self.conceded and table.outcome() is None else None)

    #: The transcript's file name (``{stamp}`` and ``{seed}`` are filled in).
    transcript_name = "game-{stamp}-{seed}.ft"

    def save_transcript(self, folder: Path | None = None) -> Path:
        """Write :meth:`transcript` under the user data dir; return the path."""
        from client.settings import transcript_path

        name = self.transcript_name.replace("{seed}", f"{self.seed % 100000:05d}")
        path = transcript_path(folder, name)
        save(path, self.transcript())
        return path

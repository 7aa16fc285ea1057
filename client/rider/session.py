"""The client's side of a local Rider table: one human seat, one bot seat.

:class:`RiderSession` wraps :class:`net.local_table.LocalTable` (the trusted
local driver) and paces it with the reactor clock: bot decisions come after
a short delay and hidden-card operations after a shorter one, so the player
can follow what happens. Every applied input is reported to listeners as
(state before, input, state after); the table scene turns those into
animations and log lines. The human seat acts only through :meth:`submit`,
which accepts nothing but an element of the table's current legal list.

The end-of-game audit replays the whole input log through a fresh engine and
checks every state hash against the ones recorded during play.
"""

from __future__ import annotations

import datetime
import json
import random
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from engine.core.actions import Action
from engine.core.encoding import encode
from engine.core.errors import CheatDetected, EngineError
from engine.core.game import Outcome, hash_of
from engine.core.hashing import short_hex
from engine.core.hidden import Knowledge
from engine.core.pending import Decision, SealedChoice
from engine.rider.deck import deck_from_data, expand
from engine.rider.game import RiderGame
from engine.rider.state import RiderState
from net.bots.base import SealedPick
from net.local_table import LocalTable, TableError

Listener = Callable[[RiderState, Action, RiderState], None]

#: Seconds before a bot's decision is applied (so a human can follow it).
BOT_DELAY = 0.7
#: Seconds before a table operation (deal, shuffle, reveal) is applied.
SYSTEM_DELAY = 0.2


def system_delay(bot_delay: float) -> float:
    """A table operation's pause for a bot speed (the same proportion as the defaults)."""
    return bot_delay * SYSTEM_DELAY / BOT_DELAY


class TableSession(Protocol):
    """What the table and end scenes read from a session, local or networked
    (:class:`RiderSession` here, ``client.rider.net_session.NetRiderSession``)."""

    me: int
    names: tuple[str, ...]
    game: RiderGame
    proof: str
    networked: bool
    problem: str
    problem_seat: int | None
    cheat: bool
    my_sealed: Any
    listeners: list[Listener]
    problem_listeners: list[Callable[[str], None]]
    change_listeners: list[Callable[[], None]]

    @property
    def state(self) -> RiderState: ...
    @property
    def knowledge(self) -> Knowledge: ...
    @property
    def over(self) -> bool: ...
    @property
    def pending(self) -> Any: ...
    @property
    def moves(self) -> int: ...
    def outcome(self) -> Any: ...
    def legal(self) -> list[Action]: ...
    def peer_status(self, seat: int) -> tuple[str, tuple[int, int, int]]: ...
    def table_note(self, lang: str) -> str: ...
    def submit(self, action: Action) -> None: ...
    def start(self) -> None: ...
    def stop(self) -> None: ...
    def can_resign(self) -> bool: ...
    def concede(self) -> None: ...
    def audit(self) -> tuple[bool, str]: ...
    def save_transcript(self, folder: Path | None = None) -> Path: ...


class IllegalIntent(ValueError):
    """The client tried to submit something that is not in the legal list."""


def make_bot(kind: str, rng: random.Random) -> Any:
    from net.games import game_named

    return game_named("rider").bot(kind, rng)


class RiderSession:
    """A LocalTable with seat ``me`` played by the user, paced on ``clock``."""

    #: Log tag of dice, shuffles and reveals: this computer's seeded generator.
    proof = "local"
    networked = False

    def __init__(self, game: RiderGame, decks: tuple[tuple[str, ...], tuple[str, ...]], *, me: int = 0,
                 names: tuple[str, str] = ("Player", "Bot"), bot: str = "greedy", seed: int | None = None,
                 clock: Any = None, bot_delay: float = BOT_DELAY, system_delay: float = SYSTEM_DELAY,
                 deck_names: tuple[str, str] = ("", "")) -> None:
        self.game = game
        self.me = me
        self.names: tuple[str, ...] = names
        self.deck_names = deck_names
        self.decks = decks
        self.seed = secrets.randbits(63) if seed is None else seed
        self.bot_kind = bot
        state, knowledge = game.new_game(decks)
        self.initial_state = state
        agents: list[Any] = [None, None]
        agents[1 - me] = make_bot(bot, random.Random(self.seed ^ 0x5EED))
        self.table = LocalTable(game, state, knowledge, agents, self.seed)
        if clock is None:
            from twisted.internet import reactor as clock
        self.clock = clock
        self.bot_delay = bot_delay
        self.system_delay = system_delay
        self.listeners: list[Listener] = []
        self.waiting_human = False
        self._call: Any = None
        self.started_at = datetime.datetime.now(datetime.UTC)
        self.my_sealed: Any = None
        #: Set when the table had to stop (what happened, and which seat if known).
        self.problem = ""
        self.problem_seat: int | None = None
        self.cheat = False
        self.problem_listeners: list[Callable[[str], None]] = []
        #: Called when something shown changes without an input (a concession).
        self.change_listeners: list[Callable[[], None]] = []
        #: The player gave the game up (Concede): it ends now in the bot's favour.
        self.conceded = False

    # -- queries ----------------------------------------------------------------
    @property
    def state(self) -> RiderState:
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

    def outcome(self) -> Any:
        """The engine's outcome (``winner``, ``reason``), or None while playing; a
        concession ends the game outside the engine, in the other seat's favour."""
        if self.conceded and self.table.outcome() is None:
            return Outcome(1 - self.me, f"seat {self.me} conceded")
        return self.table.outcome()

    def can_resign(self) -> bool:
        """True while there is a game to give up."""
        return not self.over and not self.problem

    def concede(self) -> None:
        """Give the game up now: the bot wins (the recorded inputs still replay for the audit)."""
        if not self.can_resign():
            raise IllegalIntent("there is no running game to concede")
        self.conceded = True
        self.stop()
        self.waiting_human = False
        for listener in list(self.change_listeners):
            listener()

    def legal(self) -> list[Action]:
        """The local seat's legal inputs now (sealed picks included)."""
        if self.conceded or self.problem or (self._call is not None and self._call.active()):
            return []  # stopped, or an input is already scheduled: wait for it to land
        return self.table.legal(self.me)

    def peer_status(self, seat: int) -> tuple[str, tuple[int, int, int]]:
        """(i18n key, colour) of a seat's status for the players panel.

        A local table only ever shows these; the networked session will
        report connected / waiting / stalling / desynced / cheat detected
        (keys ``peer_*`` in client.i18n) through the same call.
        """
        from client import theme

        if self.problem and (self.problem_seat is None or self.problem_seat == seat):
            return ("peer_cheat" if self.cheat else "peer_stopped"), theme.BAD
        if seat == self.me:
            if self.waiting_human and self.table.pending is not None:
                return "peer_you_turn", theme.ACCENT
            return "peer_you_local", theme.GOOD
        if self.bot_thinking():
            return "peer_bot_thinking", theme.WARN
        return "peer_bot_local", theme.GOOD

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

    def submit(self, action: Action) -> None:
        """Apply the user's choice; it must be one of :meth:`legal` exactly."""
        legal = self.legal()
        if action not in legal:
            raise IllegalIntent(f"{action!r} is not a legal input now")
        if isinstance(action, SealedPick):
            self.table.submit_sealed(self.me, action.choice)
            self.my_sealed = action.choice
            self._schedule(now=True)
            return
        pre = self.state
        self.table.submit(action)
        self._emit(pre, action)
        self._schedule()

    def _emit(self, pre: RiderState, action: Action) -> None:
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
        waiting = self.table.waiting_for()
        if isinstance(pending, Decision):
            if pending.seat == self.me:
                self.waiting_human = True
                return
            delay = self.bot_delay
        elif isinstance(pending, SealedChoice):
            if waiting:
                self.waiting_human = True
                return
            delay = 0.0 if now else self.system_delay
        else:
            delay = self.system_delay
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
            if not isinstance(self.table.pending, SealedChoice):
                self.my_sealed = None
            self._emit(pre, action)
        self._schedule()

    # -- after the game ------------------------------------------------------------
    def audit(self) -> tuple[bool, str]:
        """Replay the log from the initial state; compare every state hash."""
        state = self.initial_state
        if hash_of(self.game, state) != self.table.initial_hash:
            return False, "the initial state does not match its recorded hash"
        for step, action in enumerate(self.table.log):
            try:
                state = self.game.apply(state, action)
            except EngineError as exc:
                return False, f"input {step + 1} ({action.KIND}) does not replay: {exc}"
            if hash_of(self.game, state) != self.table.hashes[step]:
                return False, f"the state after input {step + 1} ({action.KIND}) differs from the recorded one"
        return True, short_hex(hash_of(self.game, state), 16)

    def transcript(self) -> dict[str, Any]:
        """Everything needed to replay and check the game, as JSON-ready data."""
        outcome = self.outcome()
        return {
            "format": "fairtable.transcript/1",
            "rules": self.game.rules_id,
            "table": "local (trusted seeded generator; not a fair-play protocol)",
            "cardset": self.game.cardset.id,
            "cardset_digest": self.game.cardset.digest().hex(),
            "seed": self.seed,
            "seats": [{"name": n, "deck": list(d)} for n, d in zip(self.names, self.decks)],
            "local_seat": self.me,
            "started": self.started_at.isoformat(timespec="seconds"),
            "initial_hash": self.table.initial_hash.hex(),
            "inputs": [
                {"input": json.loads(json.dumps(a.to_data(), default=_jsonable)), "canonical": encode(a.to_data()).hex(),
                 "state_hash": h.hex()}
                for a, h in zip(self.table.log, self.table.hashes)
            ],
            "outcome": None if outcome is None else outcome.__canonical__(),
        }

    def save_transcript(self, folder: Path | None = None) -> Path:
        """Write :meth:`transcript` under the user data dir; return the path."""
        from client.settings import transcript_path

        path = transcript_path(folder, f"rider-{{stamp}}-{self.seed % 100000:05d}.json")
        path.write_text(json.dumps(self.transcript(), ensure_ascii=False, indent=1), encoding="utf-8")
        return path


def _jsonable(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(f"cannot write {type(value).__name__} to a transcript")


def deck_cards(deck_data: Any) -> tuple[str, ...]:
    """Card ids of a deck file, one per copy."""
    _, _, counts = deck_from_data(deck_data)
    return tuple(expand(counts))

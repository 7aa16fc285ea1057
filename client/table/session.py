"""What a game's table scene reads from a table, whoever drives it.

:class:`TableSession` is generic over the game's state type. Two adapters
implement it for every game: :class:`client.table.local.LocalSession` (a
trusted :class:`net.local_table.LocalTable` paced on the reactor clock, bots
in the other seats) and :class:`client.table.net_session.NetSession` (our
seat of a networked table over a :class:`net.peer.Peer`). Both forward a seat's input to
their driver unchanged (net/seam.py). A scene never
asks which one it has, except through :attr:`TableSession.networked` for the
words it shows. Adapters report facts only: a seat's status is a catalogue
key (``peer_*``), and its colour is the scene's business
(:mod:`client.table.status`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from engine.core.actions import Action
from engine.core.game import Outcome
from engine.core.hidden import Knowledge
from engine.core.inputs import SealedPick, SeatInput

S = TypeVar("S", covariant=True)

#: (state before, input, state after) for each input the table applied, in order.
Listener = Callable[[Any, Action, Any], None]

#: Seconds before a bot's decision is applied (so a human can follow it).
BOT_DELAY = 0.7
#: Seconds before a table operation (deal, shuffle, reveal) is applied.
SYSTEM_DELAY = 0.2


def system_delay(bot_delay: float) -> float:
    """A table operation's pause for a bot speed (the same proportion as the defaults)."""
    return bot_delay * SYSTEM_DELAY / BOT_DELAY


class TableSession(Protocol[S]):
    """A table seen from our seat ``me``: the state shown, our knowledge, our legal
    inputs, every seat's status, and the end-of-game audit and transcript."""

    me: int
    names: tuple[str, ...]
    game: Any
    #: Log tag of dice, shuffles and reveals: "local" (this computer's generator) or "verified".
    proof: str
    networked: bool
    #: Set when the table had to stop: what happened, the seat at fault if known, and whether it cheated.
    problem: str
    problem_seat: int | None
    cheat: bool
    #: Refused network messages, as the session recorded them (networked tables; empty on a local one).
    warnings: list[str]
    #: Signed chat lines as (seat, text), oldest first (networked tables; empty on a local one).
    chat: list[tuple[int, str]]
    #: Notices left out because too many came between two looks (client/table/notices.py; 0 on a local table).
    notices_dropped: int
    #: True while a burst of inputs is reported at once (a resumed game catching up): not animated.
    catching_up: bool
    listeners: list[Listener]
    problem_listeners: list[Callable[[str], None]]
    #: Called when something shown changes without an input (a concession, a status).
    change_listeners: list[Callable[[], None]]

    @property
    def state(self) -> S: ...
    @property
    def knowledge(self) -> Knowledge: ...
    @property
    def over(self) -> bool: ...
    @property
    def pending(self) -> Any: ...
    @property
    def moves(self) -> int: ...
    def outcome(self) -> Outcome | None: ...
    @property
    def my_pick(self) -> SealedPick | None: ...
    def legal(self) -> list[SeatInput]: ...
    def peer_status(self, seat: int) -> str: ...
    def table_note(self, lang: str) -> str: ...
    def submit(self, chosen: SeatInput) -> None: ...
    def start(self) -> None: ...
    def stop(self) -> None: ...
    def leave(self) -> None: ...
    def silence(self) -> tuple[int, float, float] | None: ...
    def forfeit_seat(self) -> int | None: ...
    def claim_forfeit(self) -> None: ...
    def say(self, text: str) -> None: ...
    def can_resign(self) -> bool: ...
    def concede(self) -> None: ...
    def can_step_out(self) -> bool: ...
    def step_out(self) -> None: ...
    def audit(self) -> tuple[bool, str]: ...
    def early_end(self) -> tuple[str, int] | None: ...
    def save_transcript(self, folder: Path | None = None) -> Path: ...

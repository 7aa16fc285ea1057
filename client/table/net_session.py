"""The networked adapter of the table layer: our seat at a networked table of any game.

:class:`NetSession` gives a game's scene the same interface as the local
:class:`client.table.local.LocalSession`, but everything goes
through the real networked path: a :class:`net.peer.Peer` (the Twisted
driver that joins a sans-I/O :class:`net.session.Session` to the mesh). The
human acts with :meth:`submit` -> ``Peer.act`` -> ``Session.act``/``pick``;
remote inputs arrive as signed envelopes that the session verifies (dice
by commit-reveal, shuffles and deals by the mental-poker proofs) before it
applies them. Nothing here touches a socket or an engine input directly.

The adapter subscribes to the session (``Session.subscribe``): each applied
input, event and chat line arrives as a notice, queued here and handled on
the reactor at the next :meth:`poll`, so the scene still sees each input as
(state before, input, state after) at its own pace, and each session event
becomes a peer status. Polling reads only what the notices cannot say (who
is waited for, deadlines, link statuses) for the change listeners.

The adapter reads only the session's state (public: hidden cards are
handles), the session's legal list and our own seat's ``Knowledge``; the
opponent's cards cannot be drawn because they are never here.

A *watcher's* peer (net/peer/watching.py) has no seat: the adapter then shows
the table from seat 1's side with an empty ``Knowledge`` (the public view, as
the replay viewer does), offers no input, and nobody is "you" in the names.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

from twisted.internet.task import LoopingCall

from client.table.notices import NoticeQueue
from client.table.session import Listener
from client.table.words import WatchedNames, clock_text, display_name, display_text, forfeit_key, player_label
from engine.core.game import Outcome
from engine.core.hashing import short_hex
from engine.core.hidden import Knowledge
from engine.core.pending import Decision
from engine.core.inputs import SealedPick, SeatInput
from net.peer import Peer
from net.seats import for_people, seat_label
from net.seam import InputRefused
from net.session import Cheat, Finished, Left, Rejected, Resigned, Stalling
from net.transport.mesh import PeerStatus
from net.session.events import Applied, ChatLine, PhaseChanged

#: How often (seconds) the adapter looks for new inputs and events.
POLL = 1 / 30
#: Seconds without an answer before the bar says a seat is silent and counts down to the deadline.
SILENT_AFTER = 8.0
#: More inputs than this applied between two looks is a catch-up (a resumed game): shown at once, not animated.
CATCH_UP = 3

S = TypeVar("S")


class NetSession(Generic[S]):
    """A networked table of any game seen from our seat (see the module docstring)."""

    #: Log tag of dice, shuffles and reveals: checked by the fair-play protocols.
    proof = "verified"
    networked = True

    def __init__(self, peer: Peer, *, clock: Any) -> None:
        session = peer.session
        if session is None or (peer.seat is None and not peer.watch) or peer.genesis is None:
            raise ValueError("the peer has no running game yet; wait for the host's 'go'")
        self.peer = peer
        #: A watcher: no seat, the public view only, no input (see the module docstring).
        self.watching = peer.seat is None
        self.me: int = peer.seat if peer.seat is not None else 0
        self.clock = clock
        names = tuple(display_name(n, i) for i, n in enumerate(session.names))
        self.names: tuple[str, ...] = WatchedNames(names) if self.watching else names
        #: Watchers' chat lines seen so far as (name, text) (the table passes them on; Peer.watch_lines).
        self.watch_chat: list[tuple[str, str]] = []
        self._watch_seen = 0
        self.game: Any = session.game
        self.listeners: list[Listener] = []
        self.problem_listeners: list[Callable[[str], None]] = []
        #: Called when something shown changes without an input (phase, statuses, our turn).
        self.change_listeners: list[Callable[[], None]] = []
        self._signature: tuple[Any, ...] = ()
        self.problem = ""
        self.problem_seat: int | None = None
        self.cheat = False
        #: Refused network messages, in words as the session recorded them (the log shows each once).
        self.warnings: list[str] = []
        self.stalling: set[int] = set()
        #: A seat that gave the game up with a signed resignation (it conceded or left).
        self.resigned: int | None = None
        #: Chat lines of the table as (seat, text), oldest first (signed by their seat).
        self.chat: list[tuple[int, str]] = []
        self.waiting_human = False
        self.ended: dict[str, Any] | None = None  # the peer's result once it has closed the mesh
        self.started_at = datetime.datetime.now(datetime.UTC)
        self._seen = 0
        #: Notices of the session not handled yet (poll), capped (client/table/notices.py); the backlog
        #: first: what happened before we looked.
        self._notices = NoticeQueue()
        for notice in (*(Applied(k, session.states[k], session.applied[k], session.states[k + 1])
                         for k in range(session.step)),
                       *session.events, *(ChatLine(seat, text) for seat, text in session.chat_log)):
            self._notices.push(notice)
        session.subscribe(self._notices.push)
        #: Notices left out because too many came between two polls (the scene says how many, once).
        self.notices_dropped = 0
        #: True while a burst of inputs is being reported (see CATCH_UP).
        self.catching_up = False
        self._loop: LoopingCall | None = None
        self._previous_end = peer.on_end
        peer.on_end = self._on_end

    # -- queries (the same as LocalSession) ---------------------------------------------
    @property
    def session(self) -> Any:
        return self.peer.session

    @property
    def state(self) -> S:
        return self.session.states[self._seen]  # type: ignore[no-any-return]

    @property
    def knowledge(self) -> Knowledge:
        """What our seat knows (the only private view the client ever reads); a watcher knows no card."""
        if self.watching:
            return Knowledge(self.me)
        return self.session.knowledge  # type: ignore[no-any-return]

    def watchers(self) -> list[str]:
        """Who watches the table without a seat, as far as we know: the host knows every watcher;
        a watcher knows itself (its own name first)."""
        desk = self.peer.desk
        names = [display_name(n, 0) for n in desk.names()] if desk is not None else []
        if self.watching:
            names.insert(0, display_name(self.peer.name, 0))
        return names

    @property
    def pending(self) -> Any:
        """The engine's pending input at the position shown (None once it is over)."""
        return self.game.pending(self.state)

    @property
    def over(self) -> bool:
        """The game is over *and* its end-of-game audit and final records are in."""
        return bool(self.session.finished) and self._seen == self.session.step

    @property
    def moves(self) -> int:
        return self._seen

    def outcome(self) -> Outcome | None:
        found: Outcome | None = self.game.outcome(self.state)
        if found is not None:
            return found
        out = self.session.outcome
        if out:  # a forfeit ends the game outside the engine
            return Outcome.from_data(out)
        return None

    @property
    def my_pick(self) -> SealedPick | None:
        """Our sealed pick for the sealed choice now pending, until every pick is revealed."""
        pick: SealedPick | None = self.session.picked(self.me)
        return pick

    def legal(self) -> list[SeatInput]:
        """Our seat's inputs now (net/seam.py); none while older inputs are still being shown."""
        if self.problem or self.ended is not None or self._seen != self.session.step:
            return []
        return list(self.peer.legal())

    def peer_status(self, seat: int) -> str:
        """A seat's status for the players panel, as a catalogue key (``peer_*``; its
        colour is client/table/status.py's)."""
        session = self.session
        if self.problem and (self.problem_seat is None or self.problem_seat == seat):
            return "peer_cheat" if self.cheat else "peer_stopped"
        if self.watching:  # we link to the host only: the table's own progress says how each seat is
            if self.ended is not None or session.finished:
                return "peer_done"
            if seat in session.left:  # it stepped out: a stand-in plays it (the players' rails say so too)
                return "peer_stand_in"
            return "peer_waiting" if seat in session.waiting_for() else "peer_connected"
        if seat == self.me:
            return "peer_you_turn" if self.legal() else "peer_you_net"
        link = self._link(seat)
        if seat in session.left:
            return "peer_stand_in"
        if seat == self.resigned:
            return "peer_left" if link is PeerStatus.LEFT or link is None else "peer_resigned"
        if self.ended is not None or session.finished:
            return "peer_done"
        if link is PeerStatus.RECONNECTING:
            return "peer_reconnecting"
        if link is PeerStatus.LEFT:
            return "peer_left"
        if seat in self.stalling or link is PeerStatus.STALLING:
            return "peer_stalling"
        if seat in session.waiting_for():
            return "peer_waiting"
        return "peer_connected"

    def table_note(self, lang: str) -> str:
        """What the table does outside the engine's own steps, in words ("" if nothing)."""
        from client.i18n import tr

        session = self.session
        if self.watching and not self.problem and self.ended is None and session.phase == "hello":
            return tr(lang, "watch_note_hello")
        if self.resigned is not None and (self.resigned != self.me or self.watching):
            who = player_label(self.resigned, self.names, self.me, lang)
            left = self._link(self.resigned) in (PeerStatus.LEFT, None)
            return tr(lang, "net_left" if left else "net_resigned", who=who)
        if self.problem or self.ended is not None:
            return ""
        if self.stalling:  # before who left: it is what the forfeit button is about (the log names who left)
            who = tr(lang, "list_sep").join(player_label(s, self.names, self.me, lang) for s in sorted(self.stalling))
            return tr(lang, forfeit_key("net_stalling", len(self.names)), who=who)
        gone = [s for s in sorted(session.left) if s != self.me]
        if gone and session.phase == "play":
            who = tr(lang, "list_sep").join(player_label(s, self.names, self.me, lang) for s in gone)
            return tr(lang, "net_stand_in", who=who)
        if session.forfeited is not None and not session.finished:
            return tr(lang, "net_forfeit", who=player_label(session.forfeited, self.names, self.me, lang))
        silent = self.silence()
        if silent is not None:
            seat, quiet, remaining = silent
            return tr(lang, forfeit_key("net_silent", len(self.names)), who=player_label(seat, self.names, self.me, lang), quiet=clock_text(quiet),
                      left=clock_text(remaining))
        if session.phase == "hello":
            return tr(lang, "net_phase_hello")
        if session.phase in ("audit", "final") and self._seen == session.step:
            return tr(lang, "net_phase_audit")
        return ""

    def silence(self) -> tuple[int, float, float] | None:
        """(seat, seconds silent, seconds until a forfeit may be claimed) while the
        table has waited more than SILENT_AFTER seconds for another seat, from the
        session's own deadline; None otherwise (or once the deadline passed: then
        the seat is stalling and the claim is offered)."""
        session = self.session
        if self.problem or self.ended is not None or self.stalling or self._seen != session.step or self.watching:
            return None
        deadline = session.deadline()
        owing = [s for s in session.waiting_for() if s != self.me]
        if deadline is None or not owing:
            return None
        now = self.clock.seconds()
        quiet = now - (deadline - session.timeout)
        if quiet < min(SILENT_AFTER, session.timeout / 2):
            return None
        return owing[0], quiet, max(0.0, deadline - now)

    def _link(self, seat: int) -> PeerStatus | None:
        genesis = self.peer.genesis
        if self.peer.net is None or genesis is None:
            return None
        try:
            return self.peer.mesh.status(genesis.seat_keys[seat])
        except KeyError:
            return PeerStatus.RECONNECTING  # not linked yet

    def bot_thinking(self) -> bool:
        return False

    # -- driving ---------------------------------------------------------------------------
    def start(self) -> None:
        if self._loop is None:
            self._loop = LoopingCall(self.poll)
            self._loop.clock = self.clock
            self._loop.start(POLL, now=True)

    def stop(self) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._loop = None

    def leave(self) -> None:
        """Stop showing the game and close our peer (the others see us leave): at a table that can
        go on without us we leave it to the others, else we give the game up."""
        self.stop()
        if self.peer.result is None and not self.peer.relaying:  # a peer that left relays on, then ends itself
            if self.can_step_out():
                self.peer.step_out()  # the others play on; a stand-in plays our character
                return
            if self.can_resign():
                self.peer.resign()  # the others win at once: our signed goodbye is the proof
            self.peer.leave("left the table from the client")

    def can_resign(self) -> bool:
        """True while there is a running game to give up (concede)."""
        from net.session.resign import can_resign

        return not self.watching and self.peer.result is None and can_resign(self.session)

    def can_step_out(self) -> bool:
        """True while we may leave and let the others play on (three or more seats still playing)."""
        return self.peer.can_step_out()

    def step_out(self) -> None:
        """Leave the running game for good; the others play on and a stand-in plays our character."""
        if not self.can_step_out():
            raise InputRefused("the game cannot go on without you; concede instead")
        self.stop()
        self.peer.step_out()

    def concede(self) -> None:
        """Give the game up now with a signed resignation (the others win at once)."""
        if not self.can_resign():
            raise InputRefused("there is no running game to concede")
        self.peer.resign()
        self.poll()

    def say(self, text: str) -> None:
        """Send a signed chat line to the table (a watcher's goes through the host, if it allows)."""
        from net.session.chat import check_line

        try:
            self.peer.chat(check_line(text))
        except ValueError as exc:
            if not self.watching:
                raise
            raise InputRefused(str(exc)) from None
        self.poll()

    def forfeit_seat(self) -> int | None:
        """The seat we may claim a forfeit against now (it missed the session's
        deadline and still owes its part), or None."""
        session = self.session
        if self.problem or self.ended is not None or session.finished or self._seen != session.step \
                or self.watching:
            return None
        owing = session.waiting_for()
        return next((s for s in sorted(self.stalling) if s in owing and s != self.me), None)

    def claim_forfeit(self) -> None:
        """Sign that the stalling seat forfeits (net.session checks the claim;
        with two seats it ends the game, unaudited, in our favour)."""
        seat = self.forfeit_seat()
        if seat is None:
            raise InputRefused("no seat has missed its deadline now")
        # the driver's public claim (what tools.peer --claim-forfeits does), asked by the player here
        try:
            self.peer.claim_forfeit(seat)
        except ValueError as exc:
            raise InputRefused(str(exc)) from None
        self.poll()

    def submit(self, chosen: SeatInput) -> None:
        """Give the player's input to our seat's driver (net/seam.py: one of :meth:`legal`;
        anything else is refused with InputRefused and nothing is sent)."""
        if not self.legal():
            raise InputRefused("the table is not waiting for you now; wait for your turn", seat=self.me)
        self.peer.submit(chosen)  # the session checks, signs and sends it
        self.poll()

    def poll(self) -> None:
        """Report the inputs the session applied since the last look, then its events and chat lines."""
        session = self.session
        notices, dropped = self._notices.take()
        if dropped:
            self.notices_dropped += dropped
            self._changed()
        applied = [n for n in notices if isinstance(n, Applied)]
        # many inputs at once (a resumed game catching up): the table shows where it stands, unanimated
        self.catching_up = len(applied) > CATCH_UP
        for step in applied:
            self._seen = step.step + 1
            self.stalling.clear()
            for listener in list(self.listeners):
                listener(step.before, step.action, step.after)
        self.catching_up = False
        for notice in notices:
            if not isinstance(notice, (Applied, PhaseChanged, ChatLine)):
                self._on_session_event(notice)
        lines = [(n.seat, display_text(n.text)) for n in notices if isinstance(n, ChatLine)]
        if lines:
            self.chat.extend(lines)
            self._changed()
        count = self.peer.watch_count
        if count > self._watch_seen:  # watchers' lines (the peer keeps the newest; a flood loses the oldest)
            fresh = self.peer.watch_lines[-min(count - self._watch_seen, len(self.peer.watch_lines)):]
            self.watch_chat.extend((display_name(who, 0), display_text(text)) for who, text in fresh)
            self._watch_seen = count
            self._changed()
        pending = self.pending
        legal = self.legal()
        self.waiting_human = bool(legal) or (isinstance(pending, Decision) and pending.seat == self.me)
        signature = (session.step, session.phase, len(legal), session.waiting_for(), tuple(sorted(self.stalling)),
                     self.forfeit_seat(), self.resigned,
                     None if (quiet := self.silence()) is None else int(quiet[2]),
                     tuple(self.peer_status(s) for s in range(len(self.names))), self.ended is None)
        if signature != self._signature:
            self._signature = signature
            self._changed()

    def _on_session_event(self, event: Any) -> None:
        if isinstance(event, Stalling):
            if event.step == self.session.step:  # an old stall is over once the game moved on
                self.stalling = set(event.seats)
                self._changed()
        elif isinstance(event, Resigned):
            self.resigned = event.seat
            self._changed()
        elif isinstance(event, Left):  # the game goes on: a stand-in plays that seat (net/session/leave.py)
            self._changed()
        elif isinstance(event, Rejected):
            self.warnings.append(str(event))
            self._changed()
        elif isinstance(event, Cheat) and not self.problem:
            # the scene names the seat itself (counted from one): keep only what happened
            self.problem = event.error
            self.problem_seat = event.seat
            self.cheat = True
            for listener in list(self.problem_listeners):
                listener(self.problem)
        elif isinstance(event, Finished):
            self._changed()

    def _changed(self) -> None:
        for listener in list(self.change_listeners):
            listener()

    def _on_end(self, result: dict[str, Any]) -> None:
        self.ended = result
        error = result.get("error")
        if error and not self.session.finished and not self.problem:
            # the table is gone before the end (we left, a link never came back, a timeout)
            self.problem = str(error)
            for listener in list(self.problem_listeners):
                listener(self.problem)
        self._previous_end(result)

    # -- after the game ----------------------------------------------------------------------
    def early_end(self) -> tuple[str, int] | None:
        """How a game that ended before its audit ended: ("resigned" | "forfeited", the seat), else None."""
        if self.session.verdict == "ok":
            return None
        if self.session.resigned is not None:
            return "resigned", int(self.session.resigned)
        if self.session.forfeited is not None:
            return "forfeited", int(self.session.forfeited)
        return None

    def audit(self) -> tuple[bool, str]:
        """The session's own end-of-game audit (every seat's deck list opened and
        checked against the cards it played, every hash agreed)."""
        verdict = self.session.verdict
        if verdict == "ok":
            return True, short_hex(self.session.hashes[-1], 16)
        abandoned = getattr(self.session, "abandoned", None)
        if abandoned is not None and verdict != "ok":
            silent = ", ".join(seat_label(s) for s in abandoned["silent"])
            return False, (f"not audited: the game was abandoned ({silent} stayed silent past the abandonment "
                           "deadline; nobody wins)")
        if self.session.resigned is not None:
            return False, f"not audited: {seat_label(self.session.resigned)} gave the game up (signed resignation)"
        if self.session.forfeited is not None:
            return False, f"not audited: {seat_label(self.session.forfeited)} forfeited (it missed its deadline)"
        problems = "; ".join(f"{seat_label(s)}: {for_people(p)}" for s, p in self.session.audit_problems)
        return False, problems or f"audit verdict {verdict!r}"

    def transcript(self) -> dict[str, Any]:
        return self.session.transcript()  # type: ignore[no-any-return]

    def save_transcript(self, folder: Path | None = None) -> Path:
        """Write the signed transcript (check it with ``python -m tools.verify``)."""
        from client.settings import transcript_path
        from net.transcript import save

        path = transcript_path(folder, f"{self.peer.entry.name}-net-{{stamp}}-{self.session.gid.hex()[:10]}.ft")
        save(path, self.transcript())
        return path


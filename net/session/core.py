"""Session: one peer's sans-I/O driver of a networked game.

A session turns signed envelopes into engine inputs and back. It never
touches a socket, a clock or a thread: the owner feeds it bytes
(:meth:`Session.receive`), the time (:meth:`Session.tick`) and local choices
(:meth:`Session.act`, :meth:`Session.pick`), and sends the
:class:`Outgoing` payloads each call returns. See docs/protocol.md
("Sessions") for the message kinds and their order.

How it stays in step with every other peer without a coordinator:

- Only the engine's pending input decides who may speak. An envelope is
  held back while it belongs to a later step or phase (delivery order does not
  matter), rejected with a specific reason when it can never fit, and
  consumed when it does. Each seat's envelopes are consumed in ``seq`` order.
- Multi-seat steps (commits, reveals, shuffles, decryption shares) complete
  only when every part is in; the answer is built in seat order, so every
  peer feeds the engine the same input.
- Every envelope's ``seen`` (step, state hash) is compared with our own
  history. A difference stops the session with a desync report; it never
  heals itself.
- With a :class:`~net.journal.Journal`, our own envelopes and secrets are
  written and fsynced before they are sent or used, and others' envelopes
  when they are accepted (a refused one is never journalled, so a replay
  repeats the first run's verdicts); a restarted peer replays the journal,
  then catches up from any peer (:meth:`Session.catch_up_request`).

This module holds the session's shared state, its public API, the few steps
every part shares (send, apply, reject, halt) and the one place the phase
changes (:meth:`Session._enter`). Each phase is an object that owns its own
state and answers take / owe / waiting_for / describe / successor
(:mod:`~net.session.phases`): :class:`~net.session.opening.Opening`,
:class:`~net.session.play.Play` (with the rounds of :mod:`~net.session.rounds`
and :mod:`~net.session.decisions`), :class:`~net.session.endgame.Audit`,
:class:`~net.session.endgame.Final` and :class:`~net.session.phases.Done`.
The parts that cut across phases are functions of the session in sibling
modules: :mod:`~net.session.intake`, :mod:`~net.session.pump`,
:mod:`~net.session.deadlines`, :mod:`~net.session.dispute`,
:mod:`~net.session.desync`, :mod:`~net.session.conviction`,
:mod:`~net.session.resign`, :mod:`~net.session.catchup` and
:mod:`~net.session.chat`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from engine.core.actions import Action
from engine.core.encoding import decode
from engine.core.errors import EngineError
from engine.core.game import Game, hash_of
from engine.core.hidden import Knowledge
from engine.core.pending import Decision, Pending, Placement, SealedChoice
from engine.core.capabilities import capabilities
from engine.core.inputs import PlacementPick, SealedPick, SeatInput
from net.bots.base import Agent
from net.envelope import (
    Envelope,
    EnvelopeWriter,
    EquivocationProof,
    Genesis,
    SeatLog,
    game_id,
)
from net.errors import BadSignature
from net.identity import Identity
from net.journal import Journal
from net.session import (abandon, catchup, chat, conviction, deadlines, decisions, inputs, intake, leave, limits, pump,
                         resign, subset_shuffle)
from net.session.cards import CardBook
from net.session.catchup import CATCH_UP_CHUNK, CATCH_UP_EVERY
from net.session.chat import MAX_CHAT
from net.session.desync import SECTION_DOMAIN, section_hashes
from net.session.inbox import Inbox
from net.session.events import (Applied, ChatLine, Event, Finished, Flooding, Left, Misconduct, Notice, PhaseChanged,
                                 Rejected)
from net.session.limits import MAX_BUFFERED
from net.session.endgame import Audit, Final, Finding
from net.session.messages import KINDS, Outgoing
from net.session.opening import Opening, load_secrets
from net.session.phases import Done, Phase, check_transition
from net.session.plan import TablePlan
from net.session.placement import PlacementBook, PlacementRound, audit_cells
from net.session.play import Play
from net.session.rounds import NOTHING, CommitReveal, Round
from net.seam import InputRefused, refusal, vet
from net.transcript import make_transcript

__all__ = [
    "CATCH_UP_CHUNK",
    "CATCH_UP_EVERY",
    "DEFAULT_TIMEOUT",
    "KINDS",
    "MAX_BUFFERED",
    "MAX_CHAT",
    "SECTION_DOMAIN",
    "Outgoing",
    "Session",
    "section_hashes",
]

LOG = logging.getLogger("fairtable.session")
DEFAULT_TIMEOUT = 120.0


class Session:
    """One seat's (or an observer's) view of one networked game.

    ``seat``/``identity`` None makes a read-only observer: it verifies and
    replays everything it is given (tools.verify uses that).
    """

    def __init__(self, genesis: Genesis, game: Game[Any], state: Any, *, plan: TablePlan | None = None,
                 identity: Identity | None = None, seat: int | None = None,
                 deck: Sequence[str] | None = None, agent: Agent | None = None,
                 journal: Journal | None = None, now: float = 0.0, timeout: float | None = None,
                 grace: float | None = None) -> None:
        self.genesis = genesis
        self.game = game
        self.plan = plan or TablePlan()
        self.gid = game_id(genesis)
        self.seats = tuple(range(len(genesis.seat_keys)))
        self.seat = seat
        self.identity = identity
        self.agent = agent
        self.journal = journal
        if (seat is None) != (identity is None):
            raise ValueError("give both seat and identity, or neither (observer)")
        if identity is not None and seat is not None and genesis.seat_keys[seat] != identity.public_key:
            raise ValueError(f"this identity does not hold seat {seat} in the genesis record")
        options = genesis.options
        self.timeout = float(timeout if timeout is not None else options.get("timeout_s", DEFAULT_TIMEOUT))
        #: Allowance for clock skew and delivery between peers (docs/security.md, "Forfeits and timeouts").
        self.grace = float(grace if grace is not None else options.get("grace_s", deadlines.default_grace(self.timeout)))
        #: The longer wait after which the waiting seats may abandon the game (net.session.abandon):
        #: the genesis option when it is a number, never below the forfeit deadline.
        given = options.get("abandon_s")
        chosen = given if isinstance(given, int) and not isinstance(given, bool) else None
        self.abandon_after = max(self.timeout, float(chosen if chosen is not None
                                                     else abandon.default_abandon(self.timeout)))
        names = options.get("names")
        self.names = tuple(names) if isinstance(names, (list, tuple)) and len(names) == len(self.seats) \
            else tuple(f"seat {s}" for s in self.seats)
        # engine
        self.state = state
        self.step = 0
        self.states: list[Any] = [state]
        self.hashes: list[bytes] = [hash_of(game, state)]
        #: The inputs digest at each step (net.session.inputs), signed in every ``seen``.
        self.inputs: list[bytes] = [inputs.first(self.gid)]
        self.applied: list[Action] = []
        self.knowledge = Knowledge(seat if seat is not None else -1)
        self.caps = capabilities(game)
        # envelopes
        #: Each seat's accepted chain (net.envelope.SeatLog: the one implementation of the chain rules).
        self._logs = tuple(SeatLog(self.gid, seat, key) for seat, key in enumerate(genesis.seat_keys))
        #: Envelopes received (or sent) but not consumed yet (net.session.inbox).
        self.inbox = Inbox(self.seats)
        self._writer = EnvelopeWriter(identity, self.gid, seat) if identity is not None and seat is not None \
            else None
        self._made: set[bytes] = set()
        #: Digests of envelopes already in the journal (ours when sent, others' once accepted).
        self._journaled: set[bytes] = set()
        self._sent: set[tuple[int, str]] = set()
        self._out: list[Outgoing] = []
        #: Set by a driver that calls :meth:`work` whenever :attr:`has_work` holds after it sent
        #: what a call returned (net/peer/driver.py, net/session/loopback.py): only then is a
        #: pipelined shuffle's check put off past the call that made our part (a driver that
        #: never calls it could leave the table waiting on a check nothing triggers).
        self.driver_calls_work = False
        #: Catch-up requests made and answer tokens per requesting seat (net.session.catchup).
        self.catch_up_budget = catchup.Budget()
        self.events: list[Event] = []
        #: Subscribers (subscribe) and the notices not yet delivered to them.
        self._listeners: list[Callable[[Notice], None]] = []
        self._notices: list[Notice] = []
        self._delivering = False
        #: Refused messages per seat (None: no seat could be named), flood or not.
        self.refused: dict[int | None, int] = {}
        #: (seat, what) already named in a Flooding event (net.session.limits).
        self.flood_named: set[tuple[int | None, str]] = set()
        self.chat_log: list[tuple[int, str]] = []
        #: Signed proofs that a seat sent two different envelopes with one seq (one per seat).
        self.equivocations: list[EquivocationProof] = []
        self.halted: Event | None = None
        #: The proven cheat that stopped the game: {"kind", "seat", "seq" or "step"} (net.session.conviction).
        self.conviction: dict[str, Any] | None = None
        #: The signed record that proves the conviction (net.session.conviction.proof_file).
        self.proof_envelopes: list[Envelope] = []
        self.desync_report: dict[str, Any] | None = None
        #: Section hashes from peers' desync messages, by seat (for our own desync report).
        self.peer_sections: dict[str, Any] = {}
        self._now = now
        #: Our clock's record of the table's waits (net.session.deadlines).
        self.waits = deadlines.Waits(self.seats, now)
        #: Commitment openings by name (also journalled when there is a journal).
        self._secret_store: dict[str, Any] = {}
        # cards: our own secrets (from the journal after a restart); the book once every key is in
        self._secrets, self._my_list = load_secrets(self.gid, seat, self.plan, journal, deck)
        self.book: CardBook | None = None
        #: Every seat's checked dice key (net.dice_vrf), once the opening is complete; empty for
        #: commit-reveal dice (a record made before issue 26).
        self.dice_keys: dict[int, bytes] = {}
        #: Every hidden placement on record, its cells' commitments and openings (net.session.placement).
        self.placements = PlacementBook()
        #: Claim log position -> the step it was proven at (net.session.claim_steps); the rest wait for the audit.
        self.claims_proven: dict[int, int] = {}
        #: The audit phase once the game reached it (kept after it: its openings and judgement).
        self.audit: Audit | None = None
        # end of game (recorded when the final phase begins, or by a conviction)
        self.verdict: str | None = None
        self.audit_problems: list[tuple[int, str]] = []
        #: The same problems as (seat, step or None, problem), earliest step first.
        self.audit_findings: list[Finding] = []
        #: Hand cards opened at the audit (handle -> card id), every seat's.
        self.opened_hands: dict[int, str] = {}
        self.outcome: dict[str, Any] | None = None
        #: Every forfeit claim consumed, as (claimer, staller, step, part).
        self.claims_seen: list[tuple[int, int, int, str]] = []
        #: Premature claims and the like, as we judged them (Misconduct events).
        self.misconduct: list[Misconduct] = []
        #: The forfeit that ended the game: staller, claimers, step, part, owed (words).
        self.forfeit: dict[str, Any] | None = None
        self.forfeited: int | None = None
        #: The seat that resigned (net.session.resign), also in ``forfeited``.
        self.resigned: int | None = None
        #: Every seat excused from the final record: resigned, forfeited or silent at an abandonment
        #: (``forfeited`` is the first of them; net.session.endgame.Final.signers).
        self.gone: set[int] = set()
        #: Seats that left a running game (net.session.leave): seat -> its published card secret.
        self.left: dict[int, int] = {}
        #: The dice secrets the seats that left published (one-phase dice: their roll parts are
        #: computed from them, so leaving changes no roll; net.session.leave).
        self.left_dice: dict[int, int] = {}
        #: Seat that left -> the step its leave was signed at (net.session.leave.end_for_too_few).
        self.left_at: dict[int, int] = {}
        #: When leaves left one seat playing: the step the game ended at (net.session.leave), else None.
        self.ended_by_leaves: int | None = None
        #: The abandonment that ended the game (net.session.abandon): claimers, stallers, step, part.
        self.abandoned: dict[str, Any] | None = None
        #: The current phase (net.session.phases); only :meth:`_enter` changes it.
        self._phase: Phase = Opening(self)
        self._resumed = False
        if journal is not None:
            for data in journal.envelopes():
                intake.intake_bytes(self, data, None, from_journal=True)
                self._resumed = True

    # ------------------------------------------------------------------ public API

    def start(self) -> list[Outgoing]:
        """Send our opening message (card key, deck points) and play on.

        After a restart from a journal this also re-sends our own envelopes
        (the crash may have come before some went out; peers drop repeats)
        and asks the table for whatever we missed.
        """
        pump.pump(self)
        if self._resumed and self.seat is not None:
            mine = list(self._logs[self.seat]) + self.inbox.waiting(self.seat)
            self._out.extend(Outgoing(e.to_bytes()) for e in mine)  # repeats are dropped by receivers
            self._out.append(self.catch_up_request())
            self._resumed = False
        return self._flush()

    def receive(self, data: bytes, sender: str | None = None, *, via: int | None = None) -> list[Outgoing]:
        """Take one payload from the network; return what to send in reply.

        ``via`` is the seat whose own authenticated link delivered the payload
        directly (None when it was relayed or the link is unknown): catch-up
        requests are answered only to that seat, never to a seat the request
        names, so nobody can make us send a large reply to someone else.
        """
        intake.intake_bytes(self, data, sender, from_journal=False, via=via)
        pump.pump(self)
        return self._flush()

    @property
    def has_work(self) -> bool:
        """Whether :meth:`work` has something to do: a proof check put off so that what the last
        call returned could be sent first. A driver sends what it got, lets its transport write
        it, then calls :meth:`work` (net/peer/driver.py); the next payload received would do the
        check too, but the table may be waiting for a part of ours that needs it."""
        return self.halted is None and subset_shuffle.put_off(self.current_round)

    def work(self) -> list[Outgoing]:
        """Do the put-off checks, then play on as :meth:`receive` does; return what to send."""
        subset_shuffle.check_put_off(self, self.current_round)
        pump.pump(self)
        return self._flush()

    def tick(self, now: float) -> list[Outgoing]:
        """Advance the clock: report seats that missed the current deadline.

        While the table waits, a catch-up request goes out every
        ``CATCH_UP_EVERY`` seconds without progress (a message lost on a dropped
        link is then resent by any peer that has it).
        """
        self._now = now
        deadlines.tick(self, now)
        abandon.tick(self, now)
        pump.pump(self)  # a forfeit whose grace period ran out takes effect now
        return self._flush()

    def submit(self, seat: int, chosen: SeatInput) -> list[Outgoing]:
        """Our seat's input (net/seam.py), one of :meth:`legal`: an action is checked by the
        one dry run and signed; a sealed pick is committed at once and revealed with the
        others'. :class:`~net.seam.InputRefused` (nothing sent, nothing changed) otherwise."""
        if self.seat is None or seat != self.seat:
            raise InputRefused(f"this table plays seat {self._seat_word()}, not seat {seat + 1}", seat=seat)
        if chosen not in self.legal(seat):
            raise refusal(self.game, self.caps, self.state, self.knowledge, seat, chosen)
        if isinstance(chosen, SealedPick):
            play = self._phase
            assert isinstance(play, Play)  # legal() offers sealed picks only while a round waits for ours
            play.pick(chosen.choice)
        elif isinstance(chosen, PlacementPick):
            play = self._phase
            assert isinstance(play, Play) and isinstance(play.round, PlacementRound)  # legal() offers them then
            play.round.pick(chosen)
        elif isinstance(chosen, Action):
            try:
                vet(self.game, self.caps, self.state, self.knowledge, chosen)  # what only our own cards show
            except EngineError:
                raise refusal(self.game, self.caps, self.state, self.knowledge, seat, chosen) from None
            decisions.send_action(self, chosen)
        pump.pump(self)
        return self._flush()

    def picked(self, seat: int) -> SealedPick | None:
        """Our sealed pick for the sealed choice now pending, until every pick is revealed."""
        pending = self.pending
        if seat != self.seat or not isinstance(pending, SealedChoice):
            return None
        play = self._phase
        choice = play.my_pick() if isinstance(play, Play) else NOTHING
        return None if choice is NOTHING else SealedPick(seat, pending.purpose, choice)

    def _seat_word(self) -> str:
        return "none (an observer)" if self.seat is None else str(self.seat + 1)

    def chat(self, text: str) -> list[Outgoing]:
        """A signed chat line; it never touches the game state."""
        text = chat.check_line(text)
        if self.seat is not None and chat.lines_at(self, self.seat, self.step, mine=True) >= limits.CHAT_PER_STEP:
            raise ValueError(f"at most {limits.CHAT_PER_STEP} chat lines per move; wait for the next move")
        self._send("chat", {"text": text})
        pump.pump(self)
        return self._flush()

    def resign(self) -> list[Outgoing]:
        """Give the game up with a signed message (concede, or before leaving):
        every seat ends the game at once in the others' favour (net.session.resign)."""
        if self.seat is None or not resign.can_resign(self):
            raise ValueError("there is no running game to resign from")
        self._send("resign", resign.body(self))
        pump.pump(self)
        return self._flush()

    def deadline(self) -> float | None:
        """When (on the clock passed to :meth:`tick`) the seats we wait for miss
        the current deadline, or None when nobody is waited for."""
        if self.halted is not None or self.phase == "done" or not self.waiting_for():
            return None
        return deadlines.deadline(self)

    def claim_forfeit(self, staller: int) -> list[Outgoing]:
        """Sign that ``staller`` missed its deadline (on our clock) at the current step.

        The claim alone ends nothing: the forfeit needs every other seat's
        claim and a grace period in which the staller's answer still voids
        it (docs/security.md, "Forfeits and timeouts").
        """
        if staller == self.seat or staller not in self.waiting_for():
            raise ValueError(f"seat {staller} does not owe anything now")
        if staller not in deadlines.claimable(self):
            left = deadlines.deadline(self) - self._now
            raise ValueError(f"seat {staller}'s deadline has not passed yet ({max(left, 0.0):.1f} s left) or "
                             "we already claimed; wait until the table reports it as stalling")
        self._send("forfeit", deadlines.claim_body(self, staller))
        pump.pump(self)
        return self._flush()

    def leave(self) -> list[Outgoing]:
        """Leave this running game for good and let the others play on (net.session.leave): our card
        secret and our placements' openings are published, our character is played on by the
        table's stand-in, and we sign nothing more. At a table of two, resign instead."""
        if self.seat is None or self.phase != "play" or self.halted is not None:
            raise ValueError("only a seat in a running game can leave it")
        if len(self.seats) - len(self.left) <= 2:
            raise ValueError("with one seat left the game cannot go on; resign instead")
        pump.pump(self)  # first the parts we owe now, so nothing of ours is missing
        current = self.current_round
        if isinstance(current, CommitReveal):
            current.reveal_to_leave(self)  # a commitment of ours is revealed before we go (refuse_leave)
        self._send("leave", leave.body(self, audit_cells(self)))
        self._halt(Left(self.seat, self.names[self.seat], self.step))
        return self._flush()

    def leave_blocked(self) -> str | None:
        """Why :meth:`leave` must wait a moment (our committed part of an old-style roll cannot be
        shown before every seat committed), else None."""
        current = self.current_round
        return current.leave_blocked(self) if isinstance(current, CommitReveal) else None

    def claimable(self) -> tuple[int, ...]:
        """Seats we may claim a forfeit against now (they missed our deadline)."""
        return deadlines.claimable(self)

    def abandonable(self) -> bool:
        """Whether we may sign that the game is abandoned now (net.session.abandon): the table
        waits for other seats and our abandonment deadline passed."""
        return abandon.claimable(self)

    def claim_abandon(self) -> list[Outgoing]:
        """Sign that the game is abandoned: the seats we wait for stayed silent past the longer
        deadline, and no forfeit could be agreed. It takes effect on each peer once that peer's
        own abandonment deadline passed (net.session.abandon)."""
        if not abandon.claimable(self):
            left = abandon.deadline(self) - self._now
            raise ValueError(f"the game cannot be abandoned now ({max(left, 0.0):.1f} s of the abandonment "
                             "deadline left, nobody owed, or we already signed); wait until the table reports it")
        self._send("abandon", abandon.body(self))
        pump.pump(self)
        return self._flush()

    def close_record(self) -> list[Outgoing]:
        """Observer only: every envelope of the record is in, so forfeit claims that
        still stand (no answer anywhere in the record voids them) take effect."""
        if self.seat is not None:
            raise ValueError("only an observer closes a record; a seat's forfeits follow its clock")
        for _ in range(len(self.seats) + 1):  # a forfeit can lead to the final record, where another stands
            if not (deadlines.close_record(self) or abandon.close_record(self)):
                break
            pump.pump(self)
        return self._flush()

    def catch_up_request(self) -> Outgoing:
        """Ask any peer for envelopes we lack (after a restart or a link drop)."""
        return catchup.request(self)

    def subscribe(self, listener: Callable[[Notice], None]) -> Callable[[], None]:
        """Tell ``listener`` every notice from now on (net.session.events.Notice): each
        applied input, change of phase, chat line and event, in the order they happened.

        Notices are delivered when a call to the session (receive, tick, act...)
        has finished its work, never in the middle of a step, so a listener may
        call the session again. A listener that raises is logged and skipped:
        a broken display cannot stop the table. Returns the unsubscribe function.
        """
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    # ------------------------------------------------------------------ queries

    @property
    def phase(self) -> str:
        """The current phase's name: ``hello``, ``play``, ``audit``, ``final`` or ``done``."""
        return self._phase.name

    @property
    def current_phase(self) -> Phase:
        """The current phase object (read it; only the session changes phase)."""
        return self._phase

    @property
    def current_round(self) -> Round | None:
        """The joint round the table is in now (play only; None at a decision or outside play)."""
        return self._phase.round if isinstance(self._phase, Play) else None

    @property
    def pending(self) -> Pending | None:
        return self.game.pending(self.state) if self.phase == "play" else None

    @property
    def finished(self) -> bool:
        return self.phase == "done"

    def legal(self, seat: int) -> list[SeatInput]:
        """What ``seat`` may give now (net/seam.py): only our own seat ever may; its
        actions at its Decision, its sealed picks at a SealedChoice not yet committed,
        the placer's picks for its next thing at a hidden placement (net.session.placement)."""
        pending = self.pending
        if self.seat is None or seat != self.seat or self.halted is not None:
            return []  # a stopped session (we resigned or left, or a cheat halted it) takes nothing more
        if isinstance(pending, Placement):
            play = self._phase
            if not isinstance(play, Play) or not isinstance(play.round, PlacementRound) \
                    or (self.step, "place") in self._sent:
                return []
            return list(play.round.offered(seat))
        if isinstance(pending, SealedChoice):
            if self.seat not in pending.seats or (self.step, "commit") in self._sent:
                return []
            honest = self.caps.honest_options(self.state, self.seat, self.knowledge, pending.options_for(self.seat))
            return [SealedPick(self.seat, pending.purpose, o) for o in honest]
        if isinstance(pending, Decision) and pending.seat == self.seat and (self.step, "action") not in self._sent:
            return list(self.game.legal_actions(self.state, self.seat, self.knowledge))
        return []

    def waiting_for(self) -> tuple[int, ...]:
        """Seats whose message the table waits for now."""
        return () if self.halted is not None else self._phase.waiting_for()

    def waiting_what(self) -> str:
        """What the awaited seats must do, in words."""
        return self._phase.describe()

    def envelopes(self) -> list[Envelope]:
        """Every accepted envelope, and our own sent but not yet consumed (a
        halted session's desync or dispute), in transcript order (step, seat, seq)."""
        every = [env for log in self._logs for env in log]
        if self.seat is not None:
            every.extend(self.inbox.waiting(self.seat))
        every.sort(key=lambda e: (e.seen.step, e.seat, e.seq))
        return every

    def buffered(self, seat: int) -> list[Envelope]:
        """A seat's envelopes received but not consumed yet (they wait for their step), by sequence number."""
        return self.inbox.waiting(seat)

    def proof_file(self) -> dict[str, Any] | None:
        """After a conviction: the signed proof to save (``python -m tools.verify`` checks it)."""
        return conviction.proof_file(self)

    def transcript(self) -> dict[str, Any]:
        """The game record (docs/protocol.md, "Transcript")."""
        return make_transcript(self.genesis, self.envelopes())

    # ------------------------------------------------------------------ shared steps

    def _flush(self) -> list[Outgoing]:
        out, self._out = self._out, []
        self._deliver()
        return out

    # ------------------------------------------------------------------ our own chain and the journal

    def _journal_accepted(self, env: Envelope) -> None:
        """Write an accepted envelope before anything we send can depend on it (once)."""
        if self.journal is not None and env.digest() not in self._journaled:
            self.journal.append_envelope(env.to_bytes())
            self._journaled.add(env.digest())

    def _note_journaled(self, env: Envelope) -> None:
        """``env`` came from our journal: it is written already."""
        self._journaled.add(env.digest())

    def _note_own(self, env: Envelope) -> None:
        """One of our own envelopes came back (journal replay, catch-up): we sent it, and
        our writer continues after it."""
        if self._writer is None:
            return
        self._sent.add((env.seen.step, env.kind))
        if env.seq >= self._writer.next_seq:
            self._writer.next_seq = env.seq + 1
            self._writer.head = env.digest()

    def _forget_refused(self, env: Envelope) -> None:
        """A refused envelope: a replay of the journal must refuse it too, so it leaves the
        journal; our own refused message (every peer refuses it alike) gives its seq back."""
        if self.journal is not None and env.digest() in self._journaled:
            self.journal.mark_rejected(env.digest())
            self._journaled.discard(env.digest())
        if env.seat == self.seat and self._writer is not None and env.seq < self._writer.next_seq:
            self._writer.next_seq, self._writer.head = env.seq, self._logs[env.seat].head
            self._sent.discard((env.seen.step, env.kind))

    def _queue(self, *out: Outgoing) -> None:
        """Payloads to send when the current call returns."""
        self._out.extend(out)

    def _notify(self, notice: Notice) -> None:
        """Queue a notice for the subscribers (delivered by :meth:`_flush`)."""
        if self._listeners:
            self._notices.append(notice)

    def _deliver(self) -> None:
        if self._delivering:
            return  # a listener called us back: the outer delivery keeps the order
        self._delivering = True
        try:
            while self._notices:
                notice = self._notices.pop(0)
                for listener in list(self._listeners):
                    try:
                        listener(notice)
                    except Exception:  # noqa: BLE001 - a display's bug must not stop the table
                        LOG.exception("a session listener failed on %r", notice)
        finally:
            self._delivering = False

    def _event(self, event: Event) -> None:
        """Record an event (Session.events) and tell the subscribers."""
        self.events.append(event)
        self._notify(event)

    def _chat_line(self, seat: int, text: str) -> None:
        """An accepted chat line."""
        self.chat_log.append((seat, text))
        self._notify(ChatLine(seat, text))

    def _reject(self, seat: int | None, sender: str | None, step: int, kind: str, exc: Exception) -> None:
        """Record a refused message (the game goes on without it)."""
        reason = type(exc).__name__
        text = getattr(exc, "detail", None) or str(exc)
        blamed = getattr(exc, "seat", None)
        who = blamed if isinstance(blamed, int) else seat
        if isinstance(exc, BadSignature):  # a forgery names the link it came from, never the seat it imitates
            text = (f"it claims to come from seat {who}, but that seat's key did not sign it ({text}): a forgery by "
                    f"{sender or 'an unknown link'} or a peer that forwarded it; seat {who} is not blamed")
            who = None
        if not limits.note_refusal(self, who, "messages refused"):
            return  # a flood: counted in self.refused, named once by a Flooding event
        event = Rejected(who, sender, step, kind, reason, str(text))
        self._event(event)
        LOG.warning("%s", event)

    def _log_flood(self, event: Flooding) -> None:
        LOG.warning("%s", event)

    def _halt(self, event: Event) -> None:
        """Stop for good (cheat, desync); the first reason wins."""
        if self.halted is None:
            self.halted = event
            self._event(event)
            LOG.error("%s", event)

    def _send(self, kind: str, body: Any) -> Envelope:
        """Sign, journal (before it leaves), buffer and queue one envelope of ours."""
        assert self._writer is not None
        at = min(self.step, len(self.hashes) - 1)
        seen = (self.step, self.hashes[at], self.inputs[at])
        data = self._writer.write(kind, body, seen).to_bytes()
        env = Envelope.from_data(decode(data))  # the exact form every peer will see
        if self.journal is not None:
            self.journal.append_envelope(data)
            self._journaled.add(env.digest())
        self._made.add(env.digest())
        self._sent.add((self.step, kind))
        self.inbox.hold_own(env)
        self._out.append(Outgoing(data))
        return env

    def _apply(self, action: Action, after: Any = None) -> None:
        """Feed one input to the engine and advance the step (play phase only); ``after``: the
        state ``action`` leads to, when the caller already applied it (apply is pure)."""
        play = self._phase
        assert isinstance(play, Play)
        before, step = self.state, self.step
        state = self.game.apply(self.state, action) if after is None else after
        play.applied(before, step, action)
        self.state = state
        self.step += 1
        self.states.append(state)
        self.hashes.append(hash_of(self.game, state))
        self.inputs.append(inputs.after(self.gid, step, self.inputs[step], action))
        self.applied.append(action)
        self.waits.restart(self._now)
        self._notify(Applied(step, before, action, state))

    # ------------------------------------------------------------------ phases

    def _advance(self) -> None:
        """Let the current phase hand over to its successor while its work is complete."""
        while self.halted is None:
            nxt = self._phase.successor()
            if nxt is None:
                return
            self._enter(nxt)

    def _enter(self, phase: Phase) -> None:
        """The one place the phase changes (checked against phases.TRANSITIONS)."""
        check_transition(self._phase.name, phase.name)
        old, self._phase = self._phase.name, phase
        self._notify(PhaseChanged(old, phase.name, self.step))
        if isinstance(phase, Play):
            self.book = phase.book
        if isinstance(phase, Audit):
            self.audit = phase
        if isinstance(phase, Final):
            self.outcome, self.verdict = phase.outcome, phase.verdict
            self.audit_findings = list(phase.findings)
            self.audit_problems = [(seat, p) for seat, _, p in phase.findings]
        if isinstance(phase, Done):
            if self.outcome is None or self.verdict is None:
                raise RuntimeError("the session reached the end without an outcome (a defect, not bad input)")
            self._event(Finished(self.outcome, self.verdict))
        self.waits.restart(self._now)  # the new phase has its own deadline

    def _end_early(self, outcome: dict[str, Any], verdict: str, *, resigned_at: int | None = None,
                   horizon: int | None = None) -> None:
        """A forfeit or a resignation: straight to the final record, unaudited. ``resigned_at``:
        the step a resignation was signed at, where the game ends for every peer; ``horizon``: the
        last step a seat can have signed a late part at, when known (endgame.Final, session.late)."""
        self._enter(Final(self, outcome, verdict, resigned_at=resigned_at, horizon=horizon))

    def _keep_secret(self, name: str, value: Any) -> None:
        """Keep a commitment opening: journalled (fsynced) before the commit is sent."""
        if self.journal is not None:
            self.journal.put_secret(name, value)
        self._secret_store[name] = value

    def _saved_secret(self, name: str) -> Any:
        """A kept opening: from memory, else from the journal after a restart."""
        if name in self._secret_store:
            return self._secret_store[name]
        return self.journal.secret(name) if self.journal is not None else None

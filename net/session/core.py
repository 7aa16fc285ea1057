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
- With a :class:`~net.journal.Journal`, every envelope and secret is written
  and fsynced before it is used; a restarted peer replays the journal, then
  catches up from any peer (:meth:`Session.catch_up_request`).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
)

from engine.core.actions import Action
from engine.core.encoding import decode, encode
from engine.core.errors import CheatDetected, EncodingError, EngineError
from engine.core.game import Game, hash_of
from engine.core.hashing import digest
from engine.core.hidden import Knowledge
from engine.core.pending import DRIVER_ANSWERS, Chance, Decision, HiddenOp, SealedChoice
from net.bots.base import Agent, SealedPick
from net.commit import Opening, SealedChoiceRound
from net.dice import DiceRound
from net.envelope import (
    ZERO32,
    Envelope,
    EnvelopeWriter,
    EquivocationProof,
    Genesis,
    game_id,
)
from net.errors import (
    BrokenChain,
    Equivocation,
    MalformedMessage,
    ProtocolError,
    UnexpectedMessage,
    UnknownSeat,
    WrongGame,
)
from net.identity import Identity
from net.poker import group as g
from net.poker.cards import SecretDeckList
from net.poker.errors import BadCardMessage, CardProtocolError
from net.poker.protocol import HeldCard, KeyRound, SeatSecrets, ShuffleRound, judge_show
from net.session.audit import (
    Checkpoint,
    find_problems,
    hand_problems,
    make_hand_opening,
    open_deck_list,
    open_hand,
    owed_hand_cards,
)
from net.session.audit import verdict as audit_verdict
from net.session.cards import CardBook, CardOp, make_claims, verify_claims
from net.session.events import Cheat, Desync, Event, Finished, Rejected, Stalling
from net.session.plan import TablePlan

LOG = logging.getLogger("fairtable.session")
DRIVER_ANSWER_TYPES = tuple(DRIVER_ANSWERS)
SECTION_DOMAIN = "fairtable/state-section/v1"
MAX_CHAT = 500
MAX_BUFFERED = 4096
DEFAULT_TIMEOUT = 120.0
#: Seconds without progress before tick() asks the table for missed envelopes.
CATCH_UP_EVERY = 5.0
#: Largest catch-up reply payload in bytes (frames may carry 1 MiB).
CATCH_UP_CHUNK = 256 * 1024

#: Kinds of envelope a session sends (see docs/protocol.md).
KINDS = ("hello", "action", "commit", "reveal", "shuffle", "shares", "open", "audit", "final",
         "chat", "forfeit", "desync", "dispute")


class Outgoing(NamedTuple):
    """A payload to send: to every peer (``to`` None) or to one seat."""

    data: bytes
    to: int | None = None


class _Wait(Exception):
    """The envelope belongs to a later phase: keep it buffered."""


def section_hashes(public: Any) -> dict[str, bytes]:
    """Hash of each top-level section of a public state (for desync reports)."""
    if isinstance(public, Mapping):
        return {str(k): digest(SECTION_DOMAIN, (str(k), v)) for k, v in public.items()}
    return {"": digest(SECTION_DOMAIN, ("", public))}


class Session:
    """One seat's (or an observer's) view of one networked game.

    ``seat``/``identity`` None makes a read-only observer: it verifies and
    replays everything it is given (tools.verify uses that).
    """

    def __init__(self, genesis: Genesis, game: Game[Any], state: Any, *, plan: TablePlan | None = None,
                 identity: Identity | None = None, seat: int | None = None,
                 deck: Sequence[str] | None = None, agent: Agent | None = None,
                 journal: Any = None, now: float = 0.0, timeout: float | None = None) -> None:
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
        names = options.get("names")
        self.names = tuple(names) if isinstance(names, (list, tuple)) and len(names) == len(self.seats) \
            else tuple(f"seat {s}" for s in self.seats)
        # engine
        self.state = state
        self.step = 0
        self.states: list[Any] = [state]
        self.hashes: list[bytes] = [hash_of(game, state)]
        self.applied: list[Action] = []
        self.knowledge = Knowledge(seat if seat is not None else -1)
        # envelopes
        self._logs: list[list[Envelope]] = [[] for _ in self.seats]
        self._heads: list[bytes] = [ZERO32 for _ in self.seats]
        self._buffer: list[dict[int, Envelope]] = [{} for _ in self.seats]
        self._senders: dict[tuple[int, int], str | None] = {}
        self._writer = EnvelopeWriter(identity, self.gid, seat) if identity is not None and seat is not None \
            else None
        self._made: set[bytes] = set()
        self._sent: set[tuple[int, str]] = set()
        self._out: list[Outgoing] = []
        self.events: list[Event] = []
        self.chat_log: list[tuple[int, str]] = []
        #: Signed proofs that a seat sent two different envelopes with one seq.
        self.equivocations: list[EquivocationProof] = []
        self.phase = "hello"
        self.halted: Event | None = None
        self.desync_report: dict[str, Any] | None = None
        self._their_sections: dict[str, Any] = {}
        self._now = now
        self._since = now
        self._stall_reported = -1
        self._asked = now
        self._round: Any = None
        self._picked: Any = None
        self._pending_choice = False
        # cards
        self._secrets: SeatSecrets | None = None
        self._my_list: SecretDeckList | None = None
        self._keyround = KeyRound(self.gid, 0, self.seats)
        self._deck_points: dict[int, tuple[bytes, ...]] = {}
        self.book: CardBook | None = None
        # end of game
        self._audits: dict[int, tuple[str, ...] | None] = {}
        self._audit_points: dict[bytes, str] = {}
        self._finals: dict[int, Mapping[str, Any]] = {}
        self.verdict: str | None = None
        self.audit_problems: list[tuple[int, str]] = []
        #: The same problems as (seat, step or None, problem), earliest step first.
        self.audit_findings: list[tuple[int, int | None, str]] = []
        #: Decisions the audit re-judges with the opened hand (plan.hand_audit).
        self._checkpoints: list[Checkpoint] = []
        #: Hidden handles whose card became public through a proof (plays, reveals).
        self._identified: dict[int, str] = {}
        self._owed: dict[int, tuple[int, ...]] | None = None
        #: Hand cards opened at the audit (handle -> card id), every seat's.
        self.opened_hands: dict[int, str] = {}
        self.outcome: dict[str, Any] | None = None
        self._forfeit_claims: dict[tuple[int, int], set[int]] = {}
        #: Sealed shows by step: (held cards, recipient), to judge disputes.
        self._shows: dict[int, tuple[tuple[HeldCard, ...], int]] = {}
        self.forfeited: int | None = None
        self._load_secrets(deck)
        self._resumed = False
        if journal is not None:
            for data in journal.envelopes():
                self._intake_bytes(data, None, from_journal=True)
                self._resumed = True

    # ------------------------------------------------------------------ public API

    def start(self) -> list[Outgoing]:
        """Send our opening message (card key, deck points) and play on.

        After a restart from a journal this also re-sends our own envelopes
        (the crash may have come before some went out; peers drop repeats)
        and asks the table for whatever we missed.
        """
        self._pump()
        if self._resumed and self.seat is not None:
            mine = list(self._logs[self.seat]) + [self._buffer[self.seat][q] for q in sorted(self._buffer[self.seat])]
            self._out.extend(Outgoing(e.to_bytes()) for e in mine)  # repeats are dropped by receivers
            self._out.append(self.catch_up_request())
            self._resumed = False
        return self._flush()

    def receive(self, data: bytes, sender: str | None = None) -> list[Outgoing]:
        """Take one payload from the network; return what to send in reply."""
        self._intake_bytes(data, sender, from_journal=False)
        self._pump()
        return self._flush()

    def tick(self, now: float) -> list[Outgoing]:
        """Advance the clock: report seats that missed the current deadline.

        While the table waits, a catch-up request goes out every
        ``CATCH_UP_EVERY`` seconds without progress (a message lost on a dropped
        link is then resent by any peer that has it).
        """
        self._now = now
        if self.halted is None and self.phase != "done" and now - max(self._since, self._asked) >= CATCH_UP_EVERY:
            self._asked = now
            self._out.append(self.catch_up_request())
        if self.halted is None and self.phase != "done" and now - self._since > self.timeout \
                and self._stall_reported != self.step:
            owing = self.waiting_for()
            if owing:
                self._stall_reported = self.step
                self.events.append(Stalling(owing, tuple(self.names[s] for s in owing), self.step,
                                            self.waiting_what()))
        return self._flush()

    def act(self, action: Action) -> list[Outgoing]:
        """Our seat's decision (for seats without an agent, such as a human)."""
        pending = self.pending
        if self.seat is None or not isinstance(pending, Decision) or pending.seat != self.seat:
            raise ValueError("it is not this seat's decision now")
        if (self.step, "action") in self._sent:
            raise ValueError("this seat already acted at this step")
        try:
            self.game.apply(self.state, action)  # pure: only checks
        except EngineError as exc:
            raise ValueError(f"that action is not allowed now: {exc}; pick one of legal()") from None
        self._send_action(action)
        self._pump()
        return self._flush()

    def pick(self, choice: Any) -> list[Outgoing]:
        """Our seat's sealed choice (it is committed at once and revealed later)."""
        pending = self.pending
        if self.seat is None or not isinstance(pending, SealedChoice) or self.seat not in pending.seats:
            raise ValueError("this seat has no sealed choice to make now")
        if choice not in pending.options_for(self.seat):
            raise ValueError(f"{choice!r} is not one of {list(pending.options_for(self.seat))}")
        self._picked = (self.step, choice)
        self._pump()
        return self._flush()

    def chat(self, text: str) -> list[Outgoing]:
        """A signed chat line; it never touches the game state."""
        if not isinstance(text, str) or not 0 < len(text) <= MAX_CHAT:
            raise ValueError(f"a chat line has 1 to {MAX_CHAT} characters")
        self._send("chat", {"text": text})
        self._pump()
        return self._flush()

    def claim_forfeit(self, staller: int) -> list[Outgoing]:
        """Sign that ``staller`` missed its deadline at the current step."""
        if staller not in self.waiting_for() or staller == self.seat:
            raise ValueError(f"seat {staller} does not owe anything now")
        self._send("forfeit", {"staller": staller, "step": self.step})
        self._pump()
        return self._flush()

    def catch_up_request(self) -> Outgoing:
        """Ask any peer for envelopes we lack (after a restart or a link drop)."""
        have = tuple(len(log) for log in self._logs)
        return Outgoing(encode({"catch_up": {"game": self.gid, "have": have, "seat": self.seat}}))

    # ------------------------------------------------------------------ queries

    @property
    def pending(self) -> Any:
        return self.game.pending(self.state) if self.phase == "play" else None

    @property
    def finished(self) -> bool:
        return self.phase == "done"

    def legal(self) -> list[Action]:
        """What our seat may do now (sealed picks as :class:`SealedPick`)."""
        pending = self.pending
        if self.seat is None:
            return []
        if isinstance(pending, SealedChoice):
            if self.seat not in pending.seats or (self.step, "commit") in self._sent:
                return []
            return [SealedPick(self.seat, pending.purpose, o) for o in pending.options_for(self.seat)]
        if isinstance(pending, Decision) and pending.seat == self.seat and (self.step, "action") not in self._sent:
            return self.game.legal_actions(self.state, self.seat, self.knowledge)
        return []

    def waiting_for(self) -> tuple[int, ...]:
        """Seats whose message the table waits for now."""
        if self.halted is not None or self.phase == "done":
            return ()
        if self.phase == "hello":
            return tuple(self._keyround.waiting_for())
        if self.phase == "audit":
            return tuple(s for s in self.seats if s not in self._audits)
        if self.phase == "final":
            return tuple(s for s in self._final_seats() if s not in self._finals)
        pending = self.pending
        rnd = self._round
        if isinstance(pending, Decision):
            return (pending.seat,)
        if rnd is None:
            return ()
        if isinstance(rnd, (SealedChoiceRound, DiceRound)):
            return rnd.missing()
        if isinstance(rnd, ShuffleRound):
            nxt = rnd.waiting_for()
            return () if nxt is None else (nxt,)
        return tuple(rnd.owing())

    def waiting_what(self) -> str:
        if self.phase == "hello":
            return "send its card key and deck points"
        if self.phase in ("audit", "final"):
            return "open its deck list and hand cards and sign the final record"
        pending = self.pending
        if isinstance(pending, Decision):
            return f"decide ({pending.prompt})"
        if isinstance(pending, SealedChoice):
            return f"commit or reveal its sealed choice ({pending.purpose})"
        if isinstance(pending, Chance):
            return f"commit or reveal its dice contribution ({pending.purpose})"
        if isinstance(pending, HiddenOp):
            return f"do its part of the {pending.op} of {pending.zone}"
        return "act"

    def envelopes(self) -> list[Envelope]:
        """Every accepted envelope, and our own sent but not yet consumed (a
        halted session's desync or dispute), in transcript order (step, seat, seq)."""
        every = [env for log in self._logs for env in log]
        if self.seat is not None:
            every.extend(self._buffer[self.seat].values())
        every.sort(key=lambda e: (e.seen.step, e.seat, e.seq))
        return every

    def transcript(self) -> dict[str, Any]:
        """The game record (docs/protocol.md, "Transcript")."""
        from net.transcript import make_transcript

        return make_transcript(self.genesis, self.envelopes())

    # ------------------------------------------------------------------ secrets

    def _load_secrets(self, deck: Sequence[str] | None) -> None:
        if self.seat is None:
            return
        j = self.journal
        card = j.secret("card") if j is not None else None
        if card is not None:
            x, box = card
            self._secrets = SeatSecrets(self.seat, int(x), X25519PrivateKey.from_private_bytes(box))
        else:
            self._secrets = SeatSecrets.generate(self.seat)
            if j is not None:
                box = self._secrets.box.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
                j.put_secret("card", (self._secrets.x, box))
        if self.seat in self.plan.secret_zones:
            saved = j.secret("deck") if j is not None else None
            if saved is not None:
                self._my_list = SecretDeckList(self.gid, self.seat, tuple((c, s) for c, s in saved))
            else:
                if deck is None:
                    raise ValueError(f"seat {self.seat} needs its deck list (card ids)")
                self._my_list = SecretDeckList.create(self.gid, self.seat, deck)
                if j is not None:
                    j.put_secret("deck", self._my_list.entries)

    def _put_secret(self, name: str, value: Any) -> None:
        if self.journal is not None:
            self.journal.put_secret(name, value)
        self._mem_secrets[name] = value

    def _get_secret(self, name: str) -> Any:
        if name in self._mem_secrets:
            return self._mem_secrets[name]
        return self.journal.secret(name) if self.journal is not None else None

    @property
    def _mem_secrets(self) -> dict[str, Any]:
        store: dict[str, Any] | None = self.__dict__.get("_secret_store")
        if store is None:
            store = self.__dict__["_secret_store"] = {}
        return store

    # ------------------------------------------------------------------ intake

    def _flush(self) -> list[Outgoing]:
        out, self._out = self._out, []
        return out

    def _reject(self, seat: int | None, sender: str | None, step: int, kind: str, exc: Exception) -> None:
        reason = type(exc).__name__
        text = getattr(exc, "detail", None) or str(exc)
        blamed = getattr(exc, "seat", None)
        event = Rejected(blamed if isinstance(blamed, int) else seat, sender, step, kind, reason, str(text))
        self.events.append(event)
        LOG.warning("%s", event)

    def _intake_bytes(self, data: bytes, sender: str | None, *, from_journal: bool) -> None:
        try:
            value = decode(data)
        except EncodingError as exc:
            self._reject(None, sender, self.step, "?", MalformedMessage(f"not canonical data: {exc}"))
            return
        if isinstance(value, Mapping) and set(value) == {"catch_up"}:
            self._answer_catch_up(value["catch_up"], sender)
            return
        if isinstance(value, Mapping) and set(value) == {"envelopes", "game"}:
            if value["game"] != self.gid or not isinstance(value["envelopes"], tuple):
                self._reject(None, sender, self.step, "catch-up", WrongGame("catch-up reply for another game"))
                return
            for item in value["envelopes"]:
                self._intake_value(item, sender, from_journal=False)
            return
        self._intake_value(value, sender, from_journal=from_journal)

    def _intake_value(self, value: Any, sender: str | None, *, from_journal: bool) -> None:
        try:
            env = Envelope.from_data(value)
        except ProtocolError as exc:
            seat = value.get("seat") if isinstance(value, Mapping) else None
            self._reject(seat if isinstance(seat, int) else None, sender, self.step,
                         str(value.get("kind", "?")) if isinstance(value, Mapping) else "?", exc)
            return
        self._intake(env, sender, from_journal=from_journal)

    def _intake(self, env: Envelope, sender: str | None, *, from_journal: bool) -> None:
        """Check signature and game; buffer by (seat, seq). Journal new ones."""
        try:
            if env.game != self.gid:
                raise WrongGame("the message was signed for another game (a replay from elsewhere?)",
                                seat=env.seat)
            if env.seat not in self.seats:
                raise UnknownSeat(f"there is no seat {env.seat} at this table of {len(self.seats)}",
                                  seat=env.seat)
            env.verify(self.genesis.seat_keys[env.seat], sender=sender)
            log = self._logs[env.seat]
            if env.seq < len(log):
                if log[env.seq].digest() != env.digest():
                    raise Equivocation(EquivocationProof(log[env.seq], env), sender=sender)
                return  # a harmless repeat
            held = self._buffer[env.seat].get(env.seq)
            if held is not None:
                if held.digest() != env.digest():
                    raise Equivocation(EquivocationProof(held, env), sender=sender)
                return
            if len(self._buffer[env.seat]) >= MAX_BUFFERED:
                raise UnexpectedMessage("sent too many messages ahead of the game", seat=env.seat)
        except ProtocolError as exc:
            if isinstance(exc, Equivocation):
                self.equivocations.append(exc.proof)
            self._reject(env.seat, sender, env.seen.step, env.kind, exc)
            return
        if env.kind == "desync":
            self._on_desync_message(env)
        if not from_journal and self.journal is not None:
            self.journal.append_envelope(env.to_bytes())
        self._buffer[env.seat][env.seq] = env
        self._senders[(env.seat, env.seq)] = sender
        if env.seat == self.seat and self._writer is not None:
            self._sent.add((env.seen.step, env.kind))
            if env.seq >= self._writer.next_seq:
                self._writer.next_seq = env.seq + 1
                self._writer.head = env.digest()

    def _answer_catch_up(self, request: Any, sender: str | None) -> None:
        if not isinstance(request, Mapping) or request.get("game") != self.gid:
            return
        have = request.get("have")
        seat = request.get("seat")
        if not isinstance(have, tuple) or len(have) != len(self.seats):
            return
        to = seat if isinstance(seat, int) and seat in self.seats else None
        chunk: list[Any] = []
        size = 0
        for s, n in zip(self.seats, have):
            if not isinstance(n, int) or n < 0:
                continue
            for env in self._logs[s][n:]:
                raw = env.to_bytes()
                if chunk and size + len(raw) > CATCH_UP_CHUNK:  # stay well inside one frame
                    self._out.append(Outgoing(encode({"envelopes": tuple(chunk), "game": self.gid}), to))
                    chunk, size = [], 0
                chunk.append(env.to_data())
                size += len(raw)
        if chunk:
            self._out.append(Outgoing(encode({"envelopes": tuple(chunk), "game": self.gid}), to))

    # ------------------------------------------------------------------ the pump

    def _pump(self) -> None:
        """Consume whatever fits, send what we owe, until nothing moves."""
        while self.halted is None:
            progressed = False
            for seat in self.seats:
                while self.halted is None:
                    env = self._buffer[seat].get(len(self._logs[seat]))
                    if env is None or not self._consume(env):
                        break
                    progressed = True
            if self.halted is not None:
                break
            self._enter_phase()
            if progressed:
                continue
            if not self._emit_due():
                break

    def _consume(self, env: Envelope) -> bool:
        """True when the envelope was accepted or rejected (leaves the buffer)."""
        seat = env.seat
        try:
            if env.prev != self._heads[seat]:
                raise BrokenChain(f"envelope #{env.seq} does not chain onto its previous envelope",
                                  seat=seat)
            k = env.seen.step
            if k <= self.step and k < len(self.hashes) and self.hashes[k] != env.seen.state_hash:
                self._desync(env)
                return True
            if not self._dispatch(env):
                return False
        except _Wait:
            return False
        except (ProtocolError, EngineError, KeyError, IndexError, TypeError, ValueError) as exc:
            # KeyError & co: hostile data of a shape no check foresaw; still only a rejection
            del self._buffer[seat][env.seq]
            sender = self._senders.pop((seat, env.seq), None)
            if isinstance(exc, CheatDetected) and env.kind not in ("action",):
                self._halt(Cheat(exc.seat, self.step, str(exc)))
            elif self._is_bad_share_for_us(env, exc):
                self._dispute(env, exc)
            else:
                self._reject(seat, sender, env.seen.step, env.kind, exc)
                if seat == self.seat and self._writer is not None and env.seq < self._writer.next_seq:
                    # our own message was refused (everyone refuses it alike): reuse its seq
                    self._writer.next_seq, self._writer.head = env.seq, self._heads[seat]
                    self._sent.discard((env.seen.step, env.kind))
            return True
        del self._buffer[seat][env.seq]
        self._senders.pop((seat, env.seq), None)
        self._logs[seat].append(env)
        self._heads[seat] = env.digest()
        return True

    def _dispatch(self, env: Envelope) -> bool:
        kind, k = env.kind, env.seen.step
        if k > self.step:
            raise _Wait  # every envelope's seen is compared once we reach its step
        if kind == "chat":
            text = env.body.get("text") if isinstance(env.body, Mapping) and set(env.body) == {"text"} else None
            if not isinstance(text, str) or not 0 < len(text) <= MAX_CHAT:
                raise MalformedMessage(f"a chat message is {{'text': 1 to {MAX_CHAT} characters}}", seat=env.seat)
            self.chat_log.append((env.seat, text))
            return True
        if kind == "desync":
            return True  # handled on intake; kept in the chain
        if kind not in KINDS:
            raise UnexpectedMessage(f"unknown message kind {kind!r}", seat=env.seat)
        if kind == "dispute":
            self._on_dispute(env)
            return True
        if kind == "forfeit":
            self._on_forfeit(env)
            return True
        if self.phase == "hello":
            if kind != "hello":
                raise _Wait
            self._on_hello(env)
            return True
        if kind == "hello":
            raise UnexpectedMessage("sent a second opening message", seat=env.seat)
        if self.phase in ("audit", "final"):
            if kind == "audit" and self.phase == "audit":
                self._on_audit(env)
                return True
            if kind == "final":
                if self.phase == "audit":
                    raise _Wait
                self._on_final(env)
                return True
            raise UnexpectedMessage(f"sent a {kind!r} message after the game ended", seat=env.seat)
        if self.phase != "play":
            raise UnexpectedMessage(f"sent a {kind!r} message after the game ended", seat=env.seat)
        if kind in ("audit", "final"):
            raise _Wait if self.game.pending(self.state) is None else \
                UnexpectedMessage(f"sent a {kind!r} message before the game ended", seat=env.seat)
        if k < self.step:
            raise UnexpectedMessage(f"its {kind!r} message is for step {k}, which is already complete",
                                    seat=env.seat)
        self._play(env)
        return True

    # ------------------------------------------------------------------ phases

    def _enter_phase(self) -> None:
        if self.phase == "play" and self.halted is None:
            if self.game.pending(self.state) is None:
                self.phase = "audit"
                self._since = self._now
            elif self._round is None:
                self._round = self._make_round(self.game.pending(self.state))
                self._finish_if_complete()

    def _make_round(self, pending: Any) -> Any:
        assert self.book is not None
        if isinstance(pending, Decision):
            return None
        if isinstance(pending, SealedChoice):
            return SealedChoiceRound.from_pending(self.gid, self.step, pending)
        if isinstance(pending, Chance):
            return DiceRound.from_pending(self.gid, self.step, self.seats, pending)
        if isinstance(pending, HiddenOp):
            opened = self._open_cards()
            for h in pending.handles:
                if h not in self.book.cipher:
                    card = opened.get(h)
                    if card is None:
                        raise RuntimeError(f"no ciphertext for card handle {h} in zone {pending.zone}")
                    self.book.cipher[h] = self.book.public_cipher(card)
            if pending.op == "shuffle":
                deck = tuple(self.book.cipher[h] for h in pending.handles)
                return ShuffleRound(self.book.keys, self.step, deck, self.seats)
            op = CardOp(self.book, self.step, pending, self.seats)
            if op.rounds and op.rounds[0].sealed_to_recipient and pending.to_seat is not None:
                held = tuple(self.book.held[h] for h in pending.handles)
                self._shows[self.step] = (held, pending.to_seat)
            return op
        raise RuntimeError(f"unknown pending input {pending!r}")

    def _open_cards(self) -> Mapping[int, str]:
        return self._open_cards_of(self.state)

    def _open_cards_of(self, state: Any) -> Mapping[int, str]:
        opener = getattr(self.game, "open_cards", None)
        return opener(state) if opener is not None else {}

    def _owed_hands(self) -> dict[int, tuple[int, ...]]:
        """Holder -> hand cards it must open at the audit (same on every peer)."""
        if self._owed is None:
            assert self.book is not None
            self._owed = owed_hand_cards(self._checkpoints, self._identified, self.book)
        return self._owed

    def _finish_if_complete(self) -> None:
        """Apply the driver answer once a round has every part."""
        rnd = self._round
        if isinstance(rnd, (SealedChoiceRound, DiceRound)) and rnd.complete:
            self._apply(rnd.answer())
        elif isinstance(rnd, ShuffleRound) and rnd.done:
            from engine.core.pending import CardsShuffled

            pending = self.game.pending(self.state)
            assert isinstance(pending, HiddenOp) and self.book is not None
            self._apply(CardsShuffled(-1, pending.zone))
            fresh = self.game.zone(self.state, pending.zone)
            result = rnd.result()
            if len(fresh) != len(result):
                raise RuntimeError(f"zone {pending.zone} changed size during its shuffle")
            for h, c in zip(fresh, result):
                self.book.cipher[h] = c
        elif isinstance(rnd, CardOp) and rnd.done:
            learned = rnd.learned() if rnd.op.op in ("deal", "show_to") else []
            try:
                self._apply(rnd.answer())
            except CheatDetected as exc:
                self._halt(Cheat(exc.seat, self.step, str(exc)))
                return
            if rnd.op.op == "reveal":
                self._identified.update(rnd.cards)
            if learned and self.seat == rnd.op.to_seat:
                self.knowledge = self.knowledge.learn(learned)

    def _apply(self, action: Action) -> None:
        before, step = self.state, self.step
        state = self.game.apply(self.state, action)
        self._checkpoint(before, step, action)
        self.state = state
        self.step += 1
        self.states.append(state)
        self.hashes.append(hash_of(self.game, state))
        self.applied.append(action)
        self._round = None
        self._since = self._now
        self._picked = None

    def _checkpoint(self, state: Any, step: int, action: Action) -> None:
        """Remember a seat decision the audit must re-judge with the opened hand."""
        audit = self.plan.hand_audit
        if audit is None or isinstance(action, DRIVER_ANSWER_TYPES):
            return
        selected = audit.select(state, action)
        if selected is None:
            return
        seat, zone = selected
        handles = tuple(self.game.zone(state, zone))
        opened = self._open_cards_of(state)
        public = {h: opened[h] for h in handles if h in opened}
        self._checkpoints.append(Checkpoint(step, seat, zone, handles, public))

    # ------------------------------------------------------------------ handlers

    def _on_hello(self, env: Envelope) -> None:
        body = env.body
        if not isinstance(body, Mapping) or set(body) != {"card", "deck"}:
            raise MalformedMessage("an opening message is {'card': key message, 'deck': points}", seat=env.seat)
        seat = env.seat
        zone = self.plan.secret_zones.get(seat)
        size = len(self.game.zone(self.state, zone)) if zone is not None else 0
        points = body["deck"]
        if not isinstance(points, tuple) or len(points) != size:
            raise BadCardMessage(f"its deck must have {size} card points", seat=seat)
        for p in points:
            g.decode_point(p, seat=seat, what="deck card point")
        if any(b <= a for a, b in itertools.pairwise(points)):
            raise BadCardMessage("its deck points must be distinct and in ascending order", seat=seat)
        if env.seq != 0:
            raise UnexpectedMessage("the opening message must be its first message", seat=seat)
        for other, theirs in self._deck_points.items():
            if set(points) & set(theirs):
                raise BadCardMessage(f"its deck points repeat points of seat {other}'s deck", seat=seat)
        self._keyround.receive(seat, dict(body["card"]) if isinstance(body["card"], Mapping) else body["card"])
        self._deck_points[seat] = points
        if self._keyround.done:
            self._start_play()

    def _start_play(self) -> None:
        keys = self._keyround.result()
        book = CardBook(self.gid, keys, self._secrets, self._my_list)
        for seat, zone in sorted(self.plan.secret_zones.items()):
            points = self._deck_points[seat]
            book.bind_trivial(self.game.zone(self.state, zone), points)
            for p in points:
                book.salted_owner[p] = seat
        for handle, card in sorted(self.plan.public_cards(self.state).items()):
            book.cipher[handle] = book.public_cipher(card)
        self.book = book
        if self.seat is not None and self.seat in self.plan.secret_zones:
            handles = self.game.zone(self.state, self.plan.secret_zones[self.seat])
            pairs = [(h, book.my_points[p]) for h, p in zip(handles, self._deck_points[self.seat])]
            self.knowledge = self.knowledge.learn(pairs)
            for h, p in zip(handles, self._deck_points[self.seat]):
                book.known_point[h] = p
        self.phase = "play"
        self._since = self._now

    def _play(self, env: Envelope) -> None:
        if self._round is None:
            self._enter_phase()  # the step may have just advanced
            if self.phase != "play" or self.halted is not None:
                raise _Wait
        pending = self.game.pending(self.state)
        rnd = self._round
        seat, kind, body = env.seat, env.kind, env.body
        if isinstance(pending, Decision):
            if kind != "action":
                raise UnexpectedMessage(f"sent a {kind!r} message while the table waits for a decision by "
                                        f"seat {pending.seat}", seat=seat)
            if seat != pending.seat:
                raise UnexpectedMessage(f"acted out of turn: the table waits for seat {pending.seat}",
                                        seat=seat)
            self._on_action(env)
            return
        if kind == "action":
            raise UnexpectedMessage(f"acted out of turn: the table waits for {self.waiting_what()}", seat=seat)
        if isinstance(rnd, (SealedChoiceRound, DiceRound)):
            if kind == "commit":
                if not isinstance(body, Mapping) or set(body) != {"commit"}:
                    raise MalformedMessage("a commit message is {'commit': 32 bytes}", seat=seat)
                rnd.commit(seat, body["commit"])
            elif kind == "reveal":
                if not isinstance(body, Mapping) or set(body) != {"reveal"}:
                    raise MalformedMessage("a reveal message is {'reveal': {'value', 'salt'}}", seat=seat)
                if seat in rnd.seats and rnd.phase == "commit" and seat not in rnd.missing():
                    raise _Wait
                rnd.reveal(seat, body["reveal"])
            else:
                raise UnexpectedMessage(f"sent a {kind!r} message during a commit-reveal round", seat=seat)
        elif isinstance(rnd, ShuffleRound):
            if kind != "shuffle":
                raise UnexpectedMessage(f"sent a {kind!r} message during a shuffle", seat=seat)
            if env.digest() in self._made:
                pass  # our own shuffle: make() already advanced the round
            else:
                if seat not in rnd.order[rnd._next:]:
                    raise UnexpectedMessage("sent a second shuffle for this deck", seat=seat)
                if rnd.waiting_for() != seat:
                    raise _Wait
                rnd.receive(seat, dict(body) if isinstance(body, Mapping) else body)
        elif isinstance(rnd, CardOp):
            if kind not in ("shares", "open"):
                raise UnexpectedMessage(f"sent a {kind!r} message during a {rnd.op.op} of cards", seat=seat)
            if kind == "open" and rnd.phase == "shares":
                raise _Wait
            rnd.consume(seat, kind, body, mine=env.digest() in self._made)
        else:
            raise UnexpectedMessage(f"sent a {kind!r} message that fits no pending input", seat=seat)
        self._finish_if_complete()

    def _on_action(self, env: Envelope) -> None:
        body = env.body
        seat = env.seat
        if not isinstance(body, Mapping) or set(body) != {"action", "cards"}:
            raise MalformedMessage("an action message is {'action': action, 'cards': proofs}", seat=seat)
        action = self.game.codec.decode(body["action"])
        if isinstance(action, DRIVER_ANSWER_TYPES):
            raise UnexpectedMessage(f"sent a driver answer ({action.KIND}) as its decision; outcomes of dice "
                                    "and cards come only from the joint protocols", seat=seat)
        if action.seat != seat:
            raise UnexpectedMessage(f"signed an action in the name of seat {action.seat}", seat=seat)
        assert self.book is not None
        opened = self._open_cards()
        proven = verify_claims(self.book, self.step, seat, self.plan.claims(action), opened, body["cards"])
        self._apply(action)
        for handle, point, card in proven:
            self.book.opened[point] = card
            self.book.held.pop(handle, None)
            self._identified[handle] = card

    def _on_audit(self, env: Envelope) -> None:
        seat = env.seat
        body = env.body
        if not isinstance(body, Mapping) or set(body) != {"deck", "hands"}:
            raise MalformedMessage("an audit message is {'deck': opening or null, 'hands': [[handle, card, "
                                   "share], ...]}", seat=seat)
        if seat in self._audits:
            raise UnexpectedMessage("sent a second audit message", seat=seat)
        cards: tuple[str, ...] | None = None
        opened: dict[bytes, str] = {}
        if seat in self.plan.secret_zones:
            cards, opened = open_deck_list(self.gid, seat, self._deck_points[seat], body["deck"])
        elif body["deck"] is not None:
            raise MalformedMessage("this seat has no secret deck list to open", seat=seat)
        assert self.book is not None
        hand = open_hand(self.book, self.step, seat, self._owed_hands().get(seat, ()), body["hands"], opened)
        self._audit_points.update(opened)
        self._audits[seat] = cards
        self.opened_hands.update(hand)
        if len(self._audits) == len(self.seats):
            self._finish_audit()

    def _finish_audit(self) -> None:
        findings: list[tuple[int, int | None, str]] = [
            (seat, None, p) for seat, p in find_problems(self.plan, self.state, self.seats, self._audits,
                                                         self._resolve)]
        if self.plan.hand_audit is not None:
            known = {**self._identified, **self.opened_hands}
            findings.extend(hand_problems(self.plan.hand_audit, self.states, self._checkpoints, known,
                                          self._resolve))
        findings.sort(key=lambda f: self.step if f[1] is None else f[1])
        self.audit_findings = findings
        self.audit_problems = [(seat, p) for seat, _, p in findings]
        self.verdict = audit_verdict(self.audit_problems)
        outcome = self.game.outcome(self.state)
        self.outcome = outcome.__canonical__() if outcome is not None else {"winner": None, "reason": "ended"}
        self.phase = "final"

    def _resolve(self, handle: int) -> str | None:
        assert self.book is not None
        if handle not in self.book.cipher:
            return self._open_cards().get(handle)
        point = self.book.trivial_point(handle)
        if point is None:
            return None
        return self.book.identify(point) or self._audit_points.get(point)

    def _final_record(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "step": self.step, "state": self.hashes[-1], "audit": self.verdict}

    def _final_seats(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s != self.forfeited)

    def _on_final(self, env: Envelope) -> None:
        if env.seat in self._finals or env.seat == self.forfeited:
            raise UnexpectedMessage("sent a second final record", seat=env.seat)
        mine = self._final_record()
        if not isinstance(env.body, Mapping) or encode(env.body) != encode(mine):
            raise UnexpectedMessage(f"signed a final record that differs from ours ({env.body!r:.200} vs "
                                    f"{mine!r:.200})", seat=env.seat)
        self._finals[env.seat] = env.body
        if all(s in self._finals for s in self._final_seats()):
            self.phase = "done"
            assert self.outcome is not None and self.verdict is not None
            self.events.append(Finished(self.outcome, self.verdict))

    def _on_forfeit(self, env: Envelope) -> None:
        body = env.body
        if not isinstance(body, Mapping) or set(body) != {"staller", "step"}:
            raise MalformedMessage("a forfeit claim is {'staller': seat, 'step': step}", seat=env.seat)
        staller, step = body["staller"], body["step"]
        if self.phase not in ("hello", "play") or step != self.step or staller not in self.waiting_for() \
                or staller == env.seat:
            raise UnexpectedMessage(f"claimed a forfeit by seat {staller!r} at step {step!r}, but that seat "
                                    "owes nothing here", seat=env.seat)
        claims = self._forfeit_claims.setdefault((staller, step), set())
        claims.add(env.seat)
        if all(s in claims for s in self.seats if s != staller):
            self.forfeited = staller
            others = [s for s in self.seats if s != staller]
            winner = others[0] if len(others) == 1 else None
            self.outcome = {"winner": winner, "reason": f"seat {staller} forfeited: it did not "
                                                         f"{self.waiting_what()} in time (step {step})"}
            self.verdict = f"not audited: seat {staller} forfeited"
            self.phase = "final"

    def _on_desync_message(self, env: Envelope) -> None:
        body = env.body
        if not isinstance(body, Mapping) or set(body) != {"step", "sections", "hash"}:
            return
        self._their_sections[str(env.seat)] = body["sections"]

    # ------------------------------------------------------------------ disputes

    def _is_bad_share_for_us(self, env: Envelope, exc: Exception) -> bool:
        """A sealed share to us that does not open or verify: only we can tell."""
        show = self._shows.get(env.seen.step)
        return (env.kind == "shares" and show is not None and show[1] == self.seat and env.seen.step == self.step
                and isinstance(exc, CardProtocolError) and exc.seat == env.seat and self._secrets is not None)

    def _dispute(self, env: Envelope, exc: Exception) -> None:
        """Publish our sealed-share key so everyone can judge the share (net.poker.judge_show)."""
        assert self._secrets is not None
        secret = self._secrets.box.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        self._send("dispute", {"against": env.to_data(), "secret": secret})
        self._halt(Cheat(env.seat, env.seen.step, f"its sealed share to seat {self.seat} is bad "
                                                   f"({getattr(exc, 'detail', exc)}); the dispute is published"))

    def _on_dispute(self, env: Envelope) -> None:
        body = env.body
        if not isinstance(body, Mapping) or set(body) != {"against", "secret"}:
            raise MalformedMessage("a dispute is {'against': envelope, 'secret': 32 bytes}", seat=env.seat)
        against = Envelope.from_data(body["against"])
        if against.game != self.gid or against.seat not in self.seats:
            raise UnexpectedMessage("disputed a message of another game or seat", seat=env.seat)
        against.verify(self.genesis.seat_keys[against.seat])
        k = against.seen.step
        show = self._shows.get(k)
        if show is None or show[1] != env.seat or against.kind != "shares":
            raise UnexpectedMessage(f"disputed a message that is not a sealed share to it (step {k})",
                                    seat=env.seat)
        held, recipient = show
        parts = against.body.get("parts") if isinstance(against.body, Mapping) else None
        message = parts[0][1] if isinstance(parts, tuple) and len(parts) == 1 and isinstance(parts[0], tuple) \
            and len(parts[0]) == 2 else None
        if message is None or against.seat != held[0].holder:
            fault = against.seat if message is None else env.seat
        else:
            assert self.book is not None
            fault = judge_show(self.book.keys, k, held, recipient, body["secret"],
                               dict(message) if isinstance(message, Mapping) else message)
        verdict = ("its sealed share was bad" if fault != env.seat
                   else f"it complained falsely about seat {against.seat}'s sealed share")
        self._halt(Cheat(fault, k, f"{verdict} (dispute judged with the recipient's published key)"))

    # ------------------------------------------------------------------ desync

    def _desync(self, env: Envelope) -> None:
        k = env.seen.step
        first = k
        report: dict[str, Any] = {
            "game": self.gid, "seat": self.seat, "peer": env.seat, "step": first,
            "ours": self.hashes[first], "theirs": env.seen.state_hash,
            "our_sections": section_hashes(self.game.public(self.states[first])),
            "their_sections": self._their_sections,
            "input": self.applied[first - 1].to_data() if first > 0 else None,
            "offending": env.to_data(),
            "logs": [e.to_data() for e in self.envelopes()],
        }
        self.desync_report = report
        if self._writer is not None:
            body = {"step": first, "hash": self.hashes[first], "sections": report["our_sections"]}
            self._send("desync", body)
        self._halt(Desync(env.seat, first, report))

    def _halt(self, event: Event) -> None:
        if self.halted is None:
            self.halted = event
            self.events.append(event)
            LOG.error("%s", event)

    # ------------------------------------------------------------------ sending

    def _send(self, kind: str, body: Any) -> Envelope:
        assert self._writer is not None
        seen = (self.step, self.hashes[self.step]) if self.step < len(self.hashes) else (self.step, self.hashes[-1])
        data = self._writer.write(kind, body, seen).to_bytes()
        env = Envelope.from_data(decode(data))  # the exact form every peer will see
        if self.journal is not None:
            self.journal.append_envelope(data)
        self._made.add(env.digest())
        self._sent.add((self.step, kind))
        self._buffer[env.seat][env.seq] = env
        self._out.append(Outgoing(data))
        return env

    def _send_action(self, action: Action) -> None:
        assert self.book is not None
        parts = make_claims(self.book, self.step, self.plan.claims(action), self._open_cards())
        self._send("action", {"action": action.to_data(), "cards": parts})

    def _emit_due(self) -> bool:
        """Send the one message we owe now, if any; True when something was sent."""
        if self._writer is None or self.halted is not None or self.seat is None:
            return False
        me = self.seat
        step = self.step
        if self.phase == "hello":
            if (0, "hello") in self._sent or self._secrets is None:
                return False
            points = self._my_list.points() if self._my_list is not None else ()
            self._send("hello", {"card": KeyRound.announce(self.gid, 0, self._secrets), "deck": points})
            return True
        if self.phase == "audit":
            if (step, "audit") in self._sent:
                return False
            deck = tuple(list(e) for e in self._my_list.opening()) if self._my_list is not None else None
            assert self.book is not None
            hands = make_hand_opening(self.book, step, self._owed_hands().get(me, ()))
            self._send("audit", {"deck": deck, "hands": hands})
            return True
        if self.phase == "final":
            if (step, "final") in self._sent or me == self.forfeited:
                return False
            self._send("final", self._final_record())
            return True
        if self.phase != "play":
            return False
        pending = self.game.pending(self.state)
        rnd = self._round
        if isinstance(pending, Decision):
            if pending.seat != me or (step, "action") in self._sent or self.agent is None:
                return False
            legal = self.game.legal_actions(self.state, me, self.knowledge)
            self._send_action(self.agent.choose(self.game, self.state, me, self.knowledge, legal))
            return True
        if isinstance(rnd, (SealedChoiceRound, DiceRound)):
            if me not in rnd.seats:
                return False
            name = f"opening:{step}"
            if (step, "commit") not in self._sent:
                if isinstance(rnd, DiceRound):
                    commitment, opening = rnd.contribute(me)
                else:
                    assert isinstance(pending, SealedChoice)
                    value = self._choose_sealed(pending)
                    if value is _NOTHING:
                        return False
                    commitment, opening = rnd.commit_to(me, value)
                self._put_secret(name, opening.to_data())
                self._send("commit", {"commit": commitment})
                return True
            if rnd.phase == "reveal" and me in rnd.missing() and (step, "reveal") not in self._sent:
                saved = self._get_secret(name)
                if saved is None:
                    raise RuntimeError(f"the opening of our commitment at step {step} is lost")
                self._send("reveal", {"reveal": Opening.from_data(saved).to_data()})
                return True
            return False
        if isinstance(rnd, ShuffleRound):
            if rnd.waiting_for() != me or (step, "shuffle") in self._sent:
                return False
            self._send("shuffle", rnd.make(me))
            return True
        if isinstance(rnd, CardOp):
            if self._secrets is None:
                return False
            kind = "shares" if rnd.phase == "shares" else "open"
            if (step, kind) in self._sent:
                return False
            made = rnd.make(self._secrets)
            if made is None:
                return False
            self._send(made[0], made[1])
            return True
        return False

    def _choose_sealed(self, pending: SealedChoice) -> Any:
        assert self.seat is not None
        if self._picked is not None and self._picked[0] == self.step:
            return self._picked[1]
        if self.agent is None:
            return _NOTHING
        options = [SealedPick(self.seat, pending.purpose, o) for o in pending.options_for(self.seat)]
        chosen = self.agent.choose(self.game, self.state, self.seat, self.knowledge, options)
        if not isinstance(chosen, SealedPick):
            raise TypeError("the agent answered a sealed choice with something else")
        return chosen.choice


_NOTHING = object()

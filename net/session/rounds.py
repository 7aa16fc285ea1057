"""Joint rounds: the engine's pending input -> one :class:`Round` -> its answer.

Each pending input that needs more than one seat (sealed choices, dice,
shuffles, card deals/shows/reveals) becomes one :class:`Round` for its step:
a thin adapter over the protocol object of net.commit, net.dice or
net.poker. The session asks every round the same four things: whom it
waits for (:meth:`Round.waiting_for`), to take one seat's envelope
(:meth:`Round.take`), to send our own part when we owe one
(:meth:`Round.make_ours`), and, once it is :attr:`Round.done`, to apply its
answer (:meth:`Round.finish`), in seat order, so every peer feeds the engine
the same input. Only the adapters speak each protocol's own vocabulary
(``complete``/``missing``, ``owing``...); the session has no ladder over
round kinds. The play phase (:mod:`net.session.play`) owns the current round;
decisions (one seat, one action) are in :mod:`net.session.decisions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from engine.core.errors import CheatDetected
from engine.core.actions import SYSTEM
from engine.core.pending import CardsShuffled, Chance, Decision, HiddenOp, Placement, SealedChoice, SealedChoicesRevealed
from engine.core.inputs import SealedPick
from net.commit import Opening, SealedChoiceRound
from net.dice import DiceRound
from net.envelope import Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.poker.protocol import ShuffleRound
from net.session.cards import CardOp
from net.session import leave, subset_shuffle
from net.session.dice_rounds import dice_round
from net.session.events import Cheat
from net.session.placement import PlacementRound
from net.session.phases import Wait

#: choose_sealed's answer when no choice is known yet (None may be a real option).
NOTHING = object()

__all__ = ["NOTHING", "Cards", "CommitReveal", "Round", "Shuffle", "Wait", "make_round"]

if TYPE_CHECKING:
    from net.session.core import Session


class Round(Protocol):
    """A joint step of the table (see the module docstring)."""

    def waiting_for(self) -> tuple[int, ...]:
        """Seats whose part the round waits for now, in seat order."""
        ...

    def take(self, s: Session, env: Envelope) -> None:
        """Consume one seat's envelope for this step; :class:`Wait` when it is early."""
        ...

    def make_ours(self, s: Session) -> bool:
        """Send our part if we owe one now; True when something was sent."""
        ...

    @property
    def done(self) -> bool:
        """Every part is in."""
        ...

    def finish(self, s: Session) -> None:
        """Apply the round's answer to the engine (once :attr:`done`)."""
        ...

    def excuse(self, s: Session, seat: int) -> None:
        """``seat`` left the game (net.session.leave): the round goes on without its part."""
        ...

    def refuse_leave(self, seat: int) -> str | None:
        """Why ``seat`` may not leave now (leaving would let it pick an outcome), else None."""
        ...


def make_round(s: Session, pending: Any) -> Round | None:
    """The round for a pending input (None for a decision)."""
    assert s.book is not None
    if isinstance(pending, Decision):
        return None
    if isinstance(pending, SealedChoice):
        rnd: Round = CommitReveal(SealedChoiceRound.from_pending(s.gid, s.step, pending), pending)
    elif isinstance(pending, Chance):
        # settled or one-phase dice (net.session.dice_rounds), else commit-reveal as older records roll
        rnd = dice_round(s, pending) or CommitReveal(DiceRound.from_pending(s.gid, s.step, s.seats, pending), pending)
    else:
        return _hidden_round(s, pending)
    for seat in s.left:
        rnd.excuse(s, seat)
    return rnd


def _hidden_round(s: Session, pending: Any) -> Round:
    """The round of a hidden-card operation or a placement."""
    assert s.book is not None
    if isinstance(pending, HiddenOp):
        opened = s.caps.open_cards(s.state)
        for h in pending.handles:
            if h not in s.book.cipher:
                card = opened.get(h)
                if card is None:
                    raise RuntimeError(f"no ciphertext for card handle {h} in zone {pending.zone}")
                s.book.cipher[h] = s.book.public_cipher(card)
        if pending.op == "shuffle":
            drawers = subset_shuffle.shuffle_round(s, pending)
            if drawers is not None:  # genesis drawers-beacon/v1 and the plan names the drawers
                for seat in s.left:
                    drawers.excuse(s, seat)
                return drawers
            deck = tuple(s.book.cipher[h] for h in pending.handles)
            shuffle = Shuffle(ShuffleRound(s.book.keys, s.step, deck, s.seats), pending.zone)
            for seat in s.left:
                shuffle.excuse(s, seat)
            return shuffle
        if subset_shuffle.needs_reshuffle(s, pending):  # dealt by a seat that did not shuffle the zone
            first = subset_shuffle.ReshuffleFirst(s, pending, lambda: _cards_round(s, pending))
            for seat in s.left:
                first.excuse(s, seat)
            return first
        return _cards_round(s, pending)
    if isinstance(pending, Placement):
        return PlacementRound(s, pending)
    raise RuntimeError(f"unknown pending input {pending!r}")


def _cards_round(s: Session, pending: HiddenOp) -> Round:
    """The round of a deal, show or reveal (its ciphertexts as the book holds them now)."""
    assert s.book is not None
    op = CardOp(s.book, s.step, pending, s.seats)
    if s.left:
        Cards(op).excuse(s, -1)
    if op.rounds and op.rounds[0].sealed_to_recipient and pending.to_seat is not None:
        held = tuple(s.book.held[h] for h in pending.handles)
        s.book.shows[s.step] = (held, pending.to_seat)
    return Cards(op)


class CommitReveal:
    """A sealed choice (net.commit) or a dice roll (net.dice): every seat commits, then reveals."""

    def __init__(self, rnd: SealedChoiceRound | DiceRound, pending: Any) -> None:
        self.rnd = rnd
        self.pending = pending
        #: Our own sealed choice once picked (by hand through Session.submit, or by our agent), else NOTHING.
        self.chosen: Any = NOTHING

    def choose(self, value: Any) -> None:
        """Our seat's sealed choice, picked by hand; it is committed when we next owe our part."""
        self.chosen = value

    def excuse(self, s: Session, seat: int) -> None:
        """``seat`` left (net.session.leave): the round goes on without it. It had not committed
        (a seat that committed must reveal before it leaves: :meth:`refuse_leave`), so a roll is
        made of the other seats' contributions alone, and a sealed choice gets the stand-in's pick
        for it when the others' picks are revealed."""
        rnd = self.rnd
        if seat not in rnd.seats or seat in rnd._openings:
            return  # not in this round, or its part is complete already
        rnd.seats = tuple(x for x in rnd.seats if x != seat)

    def refuse_leave(self, seat: int) -> str | None:
        """A seat that committed must reveal before it leaves, whatever the phase. Once every seat
        committed the others' reveals are public: dropping its commitment then would let it choose
        between its value (reveal) and the roll without it or the stand-in's pick (leave). And
        whether every seat had committed when a peer reads the leave depends on the order the
        messages reached that peer: a rule on the phase had one peer drop the commitment and
        another refuse the leave (two histories). Its reveal precedes its leave in its own chain,
        so this rule reads the same on every peer."""
        rnd = self.rnd
        if seat in rnd._commits and seat not in rnd._openings:
            return (f"left after committing to {self.pending.purpose} without revealing its commitment: "
                    "it must reveal first, then it may leave")
        return None

    def leave_blocked(self, s: Session) -> str | None:
        """Why our seat cannot leave at this moment, else None (see :meth:`reveal_to_leave`)."""
        if s.seat is None or (s.step, "commit") not in s._sent or (s.step, "reveal") in s._sent:
            return None
        if isinstance(self.rnd, DiceRound) and self.rnd.phase == "commit":
            return ("your part of this roll is committed but cannot be shown before every seat has "
                    "committed (it would let them pick the roll); leave once the roll is made")
        return None

    def reveal_to_leave(self, s: Session) -> None:
        """Our seat leaves after committing: reveal now, before the ``leave`` (refuse_leave). With a
        sealed choice the others may still be committing and hold the reveal until they have; what
        it tells them early is no more than a stand-in's pick would (that is computed from public
        data alone, net/session/leave.py). A commit-reveal roll cannot be shown early (the last to
        commit could pick the roll): leave_blocked says to wait, only at tables of the old dice."""
        blocked = self.leave_blocked(s)
        if blocked is not None:
            raise ValueError(blocked)
        if s.seat is None or (s.step, "commit") not in s._sent or (s.step, "reveal") in s._sent:
            return
        saved = s._saved_secret(f"opening:{s.step}")
        if saved is None:
            raise RuntimeError(f"the opening of our commitment at step {s.step} is lost")
        s._send("reveal", {"reveal": Opening.from_data(saved).to_data()})

    def waiting_for(self) -> tuple[int, ...]:
        return self.rnd.missing()

    @property
    def done(self) -> bool:
        return self.rnd.complete

    def take(self, s: Session, env: Envelope) -> None:
        seat, kind, body, rnd = env.seat, env.kind, env.body, self.rnd
        if kind == "commit":
            if not isinstance(body, Mapping) or set(body) != {"commit"}:
                raise MalformedMessage("a commit message is {'commit': 32 bytes}", seat=seat)
            rnd.commit(seat, body["commit"])
        elif kind == "reveal":
            if not isinstance(body, Mapping) or set(body) != {"reveal"}:
                raise MalformedMessage("a reveal message is {'reveal': {'value', 'salt'}}", seat=seat)
            if seat in rnd.seats and rnd.phase == "commit" and seat not in rnd.missing():
                raise Wait
            rnd.reveal(seat, body["reveal"])
        else:
            raise UnexpectedMessage(f"sent a {kind!r} message during a commit-reveal round", seat=seat)

    def make_ours(self, s: Session) -> bool:
        assert s.seat is not None
        me, step, rnd = s.seat, s.step, self.rnd
        if me not in rnd.seats:
            return False
        name = f"opening:{step}"
        if (step, "commit") not in s._sent:
            if isinstance(rnd, DiceRound):
                commitment, opening = rnd.contribute(me)
            else:
                assert isinstance(self.pending, SealedChoice)
                if self.chosen is NOTHING:
                    self.chosen = choose_sealed(s)
                value = self.chosen
                if value is NOTHING:
                    return False
                commitment, opening = rnd.commit_to(me, value)
            s._keep_secret(name, opening.to_data())
            s._send("commit", {"commit": commitment})
            return True
        if rnd.phase == "reveal" and me in rnd.missing() and (step, "reveal") not in s._sent:
            saved = s._saved_secret(name)
            if saved is None:
                raise RuntimeError(f"the opening of our commitment at step {step} is lost")
            s._send("reveal", {"reveal": Opening.from_data(saved).to_data()})
            return True
        return False

    def finish(self, s: Session) -> None:
        pending = self.pending
        if isinstance(pending, SealedChoice) and len(self.rnd.seats) < len(pending.seats):
            values = dict(zip(self.rnd.seats, self.rnd.values()))
            choices = tuple(values[seat] if seat in values else leave.sealed_value(s, pending, seat)
                            for seat in pending.seats)
            s._apply(SealedChoicesRevealed(SYSTEM, pending.purpose, choices))
            return
        s._apply(self.rnd.answer())


class Shuffle:
    """A shuffle (net.poker): every seat in turn re-masks and permutes the deck, with a proof."""

    def __init__(self, rnd: ShuffleRound, zone: str) -> None:
        self.rnd = rnd
        self.zone = zone

    def waiting_for(self) -> tuple[int, ...]:
        nxt = self.rnd.waiting_for()
        return () if nxt is None else (nxt,)

    @property
    def done(self) -> bool:
        return self.rnd.done

    def take(self, s: Session, env: Envelope) -> None:
        seat, body = env.seat, env.body
        if env.kind != "shuffle":
            raise UnexpectedMessage(f"sent a {env.kind!r} message during a shuffle", seat=seat)
        if env.digest() in s._made:
            return  # our own shuffle: make_ours already advanced the round
        if not self.rnd.yet_to_shuffle(seat):
            raise UnexpectedMessage("sent a second shuffle for this deck", seat=seat)
        if self.rnd.waiting_for() != seat:
            raise Wait
        self.rnd.receive(seat, dict(body) if isinstance(body, Mapping) else body)

    def excuse(self, s: Session, seat: int) -> None:
        """``seat`` left (net.session.leave): if its shuffle is still to come, the others shuffle without it."""
        rnd = self.rnd
        if rnd.yet_to_shuffle(seat):
            rnd.order = rnd.order[:rnd._next] + tuple(x for x in rnd.order[rnd._next:] if x != seat)

    def refuse_leave(self, seat: int) -> str | None:
        """A shuffle shows nothing before it ends: leaving picks no outcome."""
        return None

    def make_ours(self, s: Session) -> bool:
        if s.seat is None or self.rnd.waiting_for() != s.seat or (s.step, "shuffle") in s._sent:
            return False
        s._send("shuffle", self.rnd.make(s.seat))
        return True

    def finish(self, s: Session) -> None:
        assert s.book is not None
        s._apply(CardsShuffled(-1, self.zone))
        fresh = s.game.zone(s.state, self.zone)
        result = self.rnd.result()
        if len(fresh) != len(result):
            raise RuntimeError(f"zone {self.zone} changed size during its shuffle")
        for h, c in zip(fresh, result):
            s.book.cipher[h] = c


class Cards:
    """A deal, show or reveal of hidden cards: net.poker decryption shares, through :class:`CardOp`."""

    def __init__(self, op: CardOp) -> None:
        self.op = op

    def waiting_for(self) -> tuple[int, ...]:
        return self.op.owing()

    def excuse(self, s: Session, seat: int) -> None:
        """Seats that left (net.session.leave): their shares are computed from their published keys."""
        for rnd in self.op.rounds:
            leave.excuse_reveal(s, rnd)
        self.op._advance()

    def refuse_leave(self, seat: int) -> str | None:
        """Decryption shares are proven and fixed: leaving picks no outcome."""
        return None

    @property
    def done(self) -> bool:
        return self.op.done

    def take(self, s: Session, env: Envelope) -> None:
        if env.kind not in ("shares", "open"):
            raise UnexpectedMessage(f"sent a {env.kind!r} message during a {self.op.op.op} of cards",
                                    seat=env.seat)
        if env.kind == "open" and self.op.phase == "shares":
            raise Wait
        self.op.consume(env.seat, env.kind, env.body, mine=env.digest() in s._made)

    def make_ours(self, s: Session) -> bool:
        if s._secrets is None:
            return False
        kind = "shares" if self.op.phase == "shares" else "open"
        if (s.step, kind) in s._sent:
            return False
        made = self.op.make(s._secrets)
        if made is None:
            return False
        s._send(made[0], made[1])
        return True

    def finish(self, s: Session) -> None:
        op = self.op
        learned = op.learned() if op.op.op in ("deal", "show_to") else []
        try:
            s._apply(op.answer())
        except CheatDetected as exc:
            s._halt(Cheat(exc.seat, s.step, str(exc)))
            return
        if op.op.op == "reveal":
            op.book.identified.update(op.cards)
        if learned and s.seat == op.op.to_seat:
            s.knowledge = s.knowledge.learn(learned)
            if op.op.op == "show_to":  # what the client's private panel lists as "shown at step n"
                s.knowledge = s.knowledge.noted(s.step - 1, f"shown:{op.op.zone}", tuple(learned))


def choose_sealed(s: Session) -> Any:
    """Our agent's sealed choice among the picks our seat is offered, or NOTHING without
    an agent (a person picks by hand, through Session.submit)."""
    assert s.seat is not None
    if s.agent is None:
        return NOTHING
    options = s.legal(s.seat)
    chosen = s.agent.choose(s.game, s.state, s.seat, s.knowledge, options)
    if chosen not in options:
        raise TypeError("the agent answered a sealed choice with something it was not offered")
    return chosen.choice if isinstance(chosen, SealedPick) else NOTHING

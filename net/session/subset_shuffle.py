"""Shuffles by the seats that draw, then a joint public permutation (genesis ``drawers-beacon/v1``).

Under the older rule every seat shuffles every deck in turn (net.session.rounds
``Shuffle``): ten sequential proven shuffles of the ~86-card combat deck at
every Locke combat. Here the table plan names the seats that will be dealt
privately from the zone (``TablePlan.drawers``, net/games/locke/table.py);
only they shuffle it (:func:`shufflers_for`: at least two seats, so no single
seat knows an undealt order), then every seat sends its one-phase VRF part
over the finished deck (net/poker/beacon.py) and all peers apply the same
public permutation to the ciphertexts locally (:class:`DrawersShuffle`).
A zone the plan names nobody for is shuffled by every seat, with no beacon.
Either way the shuffles are pipelined: a seat builds on a step before
checking its proof, and a step that fails its check halts the game naming
its seat (:meth:`DrawersShuffle._check`).

The rule that keeps a hand private: a seat is dealt privately from a zone
only if it shuffled the zone since the zone was last shuffled. The book
records each zone's shufflers (``CardBook.shufflers``); a deal or a peek from
the deck to a seat that is not among them is preceded, at the same step, by
a net-only reshuffle of the zone's cards by that seat and a fresh beacon
(:class:`ReshuffleFirst`): the engine's handles stay, only the ciphertexts
behind them move, so the engine never notices. Face-up reveals need no
shuffler. docs/security-cards.md ("Subset shuffles") has the argument.

A shuffler that leaves before its turn is replaced by the next seat when
fewer than two would be left (:meth:`DrawersShuffle.excuse`).

On the wire there is nothing new: the shuffles are ``shuffle`` messages and
the beacon parts ``roll`` messages of the same step, in that order. A
shuffle from a seat that is not a shuffler of this step (once the deck's
shuffles are complete: until then it may be a replacement), a second shuffle,
a bad proof, a beacon part with a bad proof, or decryption shares made on
the deck as it was before the reshuffle are refused with that seat named.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from engine.core.pending import CardsShuffled, HiddenOp
from net.dice_vrf import VrfDiceRound
from net.envelope import DICE_VRF, SHUFFLES_DRAWERS, Envelope
from net.errors import UnexpectedMessage
from net.poker import beacon
from net.poker.errors import CardProtocolError
from net.poker.protocol import ShuffleRound
from net.poker.shuffle import Cipher, Deck
from net.session.dice_rounds import OnePhase
from net.session.events import Cheat
from net.session.phases import Wait

if TYPE_CHECKING:
    from net.session.core import Session
    from net.session.rounds import Round

__all__ = ["DrawersShuffle", "ReshuffleFirst", "applies", "check_put_off", "needs_reshuffle", "put_off",
           "shufflers_for"]

#: No single seat may know an undealt order: a lone drawer is joined by this many seats in all.
MIN_SHUFFLERS = 2


def applies(s: Session) -> bool:
    """Whether this table shuffles by the drawers' rule (the genesis says so)."""
    return s.genesis.shuffles == SHUFFLES_DRAWERS and s.genesis.dice == DICE_VRF


def shufflers_for(drawers: Sequence[int], seats: Sequence[int], left: Sequence[int]) -> tuple[int, ...]:
    """The seats that shuffle: the drawers still at the table, and if they are fewer than
    :data:`MIN_SHUFFLERS`, the next seats after them in seat order (cyclic) that are still here."""
    present = [x for x in seats if x not in left]
    chosen = sorted({d for d in drawers if d in present})
    want = min(MIN_SHUFFLERS, len(present))
    start = present.index(chosen[0]) if chosen else len(present) - 1
    i = start
    while len(chosen) < want:
        i = (i + 1) % len(present)
        if present[i] not in chosen:
            chosen.append(present[i])
    return tuple(sorted(chosen))


def _ciphers(s: Session, handles: Sequence[int], zone: str) -> tuple[Cipher, ...]:
    """The ciphertexts behind ``handles``, binding never-seen public cards as net.session.rounds does."""
    assert s.book is not None
    opened = s.caps.open_cards(s.state)
    for h in handles:
        if h not in s.book.cipher:
            card = opened.get(h)
            if card is None:
                raise RuntimeError(f"no ciphertext for card handle {h} in zone {zone}")
            s.book.cipher[h] = s.book.public_cipher(card)
    return tuple(s.book.cipher[h] for h in handles)


class DrawersShuffle:
    """Shuffles by ``order`` (proven, one after another, pipelined), then every seat's beacon part.

    ``with_beacon`` False: a zone every seat shuffles (nobody named as its drawers) needs no
    beacon, since nobody outside the shufflers is left to protect; it is still pipelined."""

    def __init__(self, s: Session, zone: str, handles: Sequence[int], order: Sequence[int], *,
                 engine_shuffle: bool, with_beacon: bool = True) -> None:
        assert s.book is not None
        self.zone, self.handles, self.engine_shuffle = zone, tuple(handles), engine_shuffle
        self.with_beacon = with_beacon
        self.rnd = ShuffleRound(s.book.keys, s.step, _ciphers(s, handles, zone), order)
        #: The order the round began with, and the seats of it that left before their turn: the
        #: order now follows from these alone (:meth:`_order_now`), whatever order leaves arrive in.
        self._initial = tuple(order)
        self._skipped: set[int] = set()
        self.beacon: OnePhase | None = None
        self._left: list[int] = []
        #: Shuffle steps taken but not yet verified (pipelining): (seat, deck in, deck out, proof).
        self._unchecked: list[tuple[int, Deck, Deck, object]] = []

    @property
    def _replaces_leavers(self) -> bool:
        """A shuffler that leaves before its turn is replaced when fewer than two would be left:
        only where the shuffle is followed by a beacon (a lone shuffler would know the whole order).
        A reshuffle by one dealt seat is lone on purpose (:class:`ReshuffleFirst`)."""
        return self.with_beacon and self.engine_shuffle

    # -- the two phases

    def _open_beacon(self, s: Session) -> OnePhase:
        if self.beacon is None:
            ctx = beacon.beacon_context(s.gid, s.step, self.zone, self.rnd.result(), s.seats)
            self.beacon = OnePhase(VrfDiceRound(ctx, s.dice_keys))
            for seat in self._left:
                self.beacon.excuse(s, seat)
        return self.beacon

    def waiting_for(self) -> tuple[int, ...]:
        if not self.rnd.done:
            nxt = self.rnd.waiting_for()
            return () if nxt is None else (nxt,)
        return self.beacon.waiting_for() if self.beacon is not None else ()

    @property
    def done(self) -> bool:
        if not self.rnd.done or self._unchecked:
            return False
        return not self.with_beacon or (self.beacon is not None and self.beacon.done)

    # -- pipelining: build on a step first, verify it right after our own part has gone out

    def _may_defer(self, s: Session) -> bool:
        """Whether the step being taken may wait for its proof check: when our own next part (our
        shuffle, or our beacon part after the last shuffle) can go out first. An observer (the
        verifier) and a seat with nothing to send check at once."""
        me = s.seat
        if me is None or me in s.left:
            return False
        after = self.rnd._next + 1
        if after < len(self.rnd.order):
            return self.rnd.order[after] == me and (s.step, "shuffle") not in s._sent
        return self.with_beacon and (s.step, "roll") not in s._sent

    def _check(self, s: Session) -> None:
        """Verify the deferred steps, oldest first. A bad one halts the table naming its seat: the
        seats after it may have built on it already, so it cannot simply be refused and resent (and
        every peer halts alike, whether it checked the step at once or later)."""
        while self._unchecked and s.halted is None:
            seat, deck_in, deck_out, proof = self._unchecked[0]
            try:
                self.rnd.check(seat, deck_in, deck_out, proof)
            except CardProtocolError as exc:
                s._halt(Cheat(seat, s.step, f"its shuffle of {self.zone} does not verify: {exc}"))
                return
            self._unchecked.pop(0)

    def take(self, s: Session, env: Envelope) -> None:
        seat = env.seat
        own = env.digest() in s._made
        # Another seat's part finds every put-off step checked (net/session/pump.py dispatch). Our
        # own part (our shuffle, or our beacon part) leaves only when the session call returns, so
        # checking while taking it would hold it back by a whole verification: a driver that calls
        # Session.work once it has sent gets the check then (Session.driver_calls_work); for any
        # other driver, check now
        if own and not s.driver_calls_work:
            self._check(s)
            if s.halted is not None:
                return
        if env.kind == "shuffle":
            if own:
                return  # make_ours already advanced the round
            if seat not in self.rnd.order:
                if self._replaces_leavers and not self.rnd.done and seat not in s.left:
                    # it may be a replacement named by a leave we have not read yet (the leaver's
                    # chain can arrive later than the replacement's, and the verifier reads a step's
                    # envelopes in seat order): judge it once this deck's shuffles are complete
                    raise Wait
                raise UnexpectedMessage(f"sent a shuffle of {self.zone}, which only seats "
                                        f"{list(self.rnd.order)} shuffle at this step", seat=seat)
            if not self.rnd.yet_to_shuffle(seat):
                raise UnexpectedMessage("sent a second shuffle for this deck", seat=seat)
            if self.rnd.waiting_for() != seat:
                raise Wait
            defer = self._may_defer(s)
            step = self.rnd.accept(seat, dict(env.body) if isinstance(env.body, Mapping) else env.body)
            self._unchecked.append((seat, *step))
            if not defer:
                self._check(s)
            if self.rnd.done and s.halted is None and self.with_beacon:
                self._open_beacon(s)
        elif env.kind == "roll" and self.with_beacon:
            if not self.rnd.done:
                raise Wait  # a beacon part is made over the finished deck only
            self._open_beacon(s).take(s, env)
        else:
            raise UnexpectedMessage(f"sent a {env.kind!r} message during a shuffle of {self.zone} "
                                    "(shuffles by its drawers, then one 'roll' beacon part per seat)", seat=seat)

    def make_ours(self, s: Session) -> bool:
        if s.seat is None:
            return False
        if not self.rnd.done:
            if self.rnd.waiting_for() != s.seat or (s.step, "shuffle") in s._sent:
                return self._check_when_idle(s)
            s._send("shuffle", self.rnd.make(s.seat))
            if self.rnd.done and self.with_beacon:
                self._open_beacon(s)
            return True
        if self.with_beacon and self._open_beacon(s).make_ours(s):
            return True
        return self._check_when_idle(s)

    def _check_when_idle(self, s: Session) -> bool:
        """Check deferred steps now if nothing of ours waits to go out in this call (checking first
        would hold our part back by a whole verification). True when it checked: the round may be
        complete now, so the session must look again (as after a message sent), not wait for an
        envelope that may never come (the others may be waiting for our next part)."""
        if self._unchecked and not s._out:
            self._check(s)
            return True
        return False

    def _order_now(self, s: Session, leaving: int) -> tuple[int, ...]:
        """The shufflers: the first order without the seats that left before their turn, and,
        where shuffles are followed by a beacon and fewer than two would be left, the next seats
        after the first order's last (cyclic) that have not left, as :func:`shufflers_for` picks
        (a lone shuffler would know the whole order). A seat that already shuffled keeps its
        place. It depends only on who left, never on which leave a peer read first, so every peer
        and the verifier reach the same order (two shufflers leaving at one step included); a
        shuffle from a seat not in it yet waits (:meth:`take`)."""
        kept = [x for x in self._initial if x not in self._skipped]
        if not self._replaces_leavers or len(kept) >= MIN_SHUFFLERS:
            return tuple(kept)
        shuffled = set(self.rnd.order[:self.rnd._next])
        gone = self._skipped | ({*s.left, leaving} - shuffled)
        n, last = len(s.seats), self._initial[-1]
        for k in range(1, n):
            x = s.seats[(s.seats.index(last) + k) % n]
            if len(kept) >= MIN_SHUFFLERS:
                break
            if x not in gone and x not in kept:
                kept.append(x)
        return tuple(kept)

    def excuse(self, s: Session, seat: int) -> None:
        """``seat`` left (net.session.leave): its shuffle, if still to come, is skipped; its beacon
        part is computed from the dice secret it published, as for a roll."""
        rnd = self.rnd
        if rnd.yet_to_shuffle(seat):
            self._skipped.add(seat)
        if not rnd.done:
            rnd.order = self._order_now(s, seat)
        if seat not in self._left:
            self._left.append(seat)
        if self.beacon is not None:
            self.beacon.excuse(s, seat)
        elif rnd.done and self.with_beacon:
            self._open_beacon(s)

    def refuse_leave(self, seat: int) -> str | None:
        """Neither a shuffle nor a beacon part shows anything a leaver could pick by leaving (its
        part is computed from its published secret)."""
        return None

    # -- the result

    def result(self) -> tuple[Cipher, ...]:
        """The shuffled deck with the beacon's public permutation applied (if it has one)."""
        assert self.done
        if not self.with_beacon:
            return self.rnd.result()
        assert self.beacon is not None
        perm = beacon.permutation(self.beacon.rnd.seed(), len(self.handles))
        return beacon.apply(perm, self.rnd.result())

    def shuffled_by(self) -> frozenset[int]:
        """The seats whose shuffle is in the deck (a seat that left before its turn is not)."""
        return frozenset(self.rnd.order[:self.rnd._next])

    def finish(self, s: Session) -> None:
        assert s.book is not None
        result = self.result()
        if self.engine_shuffle:
            s._apply(CardsShuffled(-1, self.zone))
            fresh = tuple(s.game.zone(s.state, self.zone))
            if len(fresh) != len(result):
                raise RuntimeError(f"zone {self.zone} changed size during its shuffle")
            if self.with_beacon:
                s.book.shufflers[self.zone] = (frozenset(fresh), self.shuffled_by())
            else:
                s.book.shufflers.pop(self.zone, None)
        else:
            fresh = self.handles
            before = s.book.shufflers.get(self.zone, (frozenset(), frozenset()))
            # the earlier shufflers stay protected only if every reshuffled card was under their
            # permutations; otherwise only this reshuffle's seats count as having shuffled the zone
            seats = before[1] | self.shuffled_by() if frozenset(fresh) <= before[0] else self.shuffled_by()
            s.book.shufflers[self.zone] = (before[0] | frozenset(fresh), seats)
        for h, c in zip(fresh, result):
            s.book.cipher[h] = c


def needs_reshuffle(s: Session, pending: HiddenOp) -> bool:
    """Whether ``pending`` deals (or shows) deck cards privately to a seat that did not shuffle them."""
    assert s.book is not None
    if not applies(s) or pending.op not in ("deal", "show_to") or pending.to_seat is None:
        return False
    if pending.to_seat in s.left:
        return False  # its card secret is public: whatever it is dealt, everyone can read
    record = s.book.shufflers.get(pending.zone)
    if record is None:
        return False
    handles, seats = record
    if pending.to_seat in seats:
        return False
    return any(h in handles and h not in s.book.held for h in pending.handles)


class ReshuffleFirst:
    """A private deal to a seat that did not shuffle the zone: it reshuffles the zone's cards
    (net-only, the handles stay), a beacon permutes them, then the deal's round runs."""

    def __init__(self, s: Session, pending: HiddenOp, then: Callable[[], Round]) -> None:
        assert pending.to_seat is not None
        self.pending = pending
        assert s.book is not None
        public = s.caps.open_cards(s.state)
        # only the cards whose place nobody knows: a card dealt privately, face up or identified by a
        # play keeps its handle (game.zone may still list it after an engine shuffle); a reshuffler
        # that moved a card of public identity would learn where it went (review of issue 26 item 3)
        handles = tuple(h for h in s.game.zone(s.state, pending.zone)
                        if h not in s.book.held and h not in s.book.identified and h not in public)
        self.first = DrawersShuffle(s, pending.zone, handles, (pending.to_seat,), engine_shuffle=False)
        self.then = then
        self.after: Round | None = None

    def _second(self, s: Session) -> Round | None:
        if self.after is None and self.first.done:
            self.first.finish(s)
            self.after = self.then()
        return self.after

    def waiting_for(self) -> tuple[int, ...]:
        return self.after.waiting_for() if self.after is not None else self.first.waiting_for()

    @property
    def done(self) -> bool:
        return self.after is not None and self.after.done

    def take(self, s: Session, env: Envelope) -> None:
        if self.after is None:
            if env.kind in ("shares", "open"):
                raise Wait  # the deal's shares are made on the reshuffled deck
            self.first.take(s, env)
            self._second(s)
            return
        self.after.take(s, env)

    def make_ours(self, s: Session) -> bool:
        if self.after is None:
            sent = self.first.make_ours(s)
            after = self._second(s)
            return sent or (after is not None and after.make_ours(s))
        return self.after.make_ours(s)

    def excuse(self, s: Session, seat: int) -> None:
        if self.after is None:
            self.first.excuse(s, seat)
            self._second(s)
        if self.after is not None:
            self.after.excuse(s, seat)

    def refuse_leave(self, seat: int) -> str | None:
        return None if self.after is None else self.after.refuse_leave(seat)

    def finish(self, s: Session) -> None:
        assert self.after is not None
        self.after.finish(s)


def _put_off_in(rnd: object) -> DrawersShuffle | None:
    if isinstance(rnd, ReshuffleFirst):
        rnd = rnd.first if rnd.after is None else rnd.after
    return rnd if isinstance(rnd, DrawersShuffle) and rnd._unchecked else None


def put_off(rnd: object) -> bool:
    """Whether ``rnd`` (the session's current round) holds shuffle steps whose check waits until
    our own part has been sent (Session.has_work)."""
    return _put_off_in(rnd) is not None


def check_put_off(s: Session, rnd: object) -> None:
    """Check the steps :func:`put_off` reports, oldest first (Session.work)."""
    shuffle = _put_off_in(rnd)
    if shuffle is not None:
        shuffle._check(s)


def shuffle_round(s: Session, pending: HiddenOp) -> DrawersShuffle | None:
    """The shuffle of ``pending`` under the genesis rule ``drawers-beacon/v1``: by the drawers the
    plan names and a beacon, or, when it names nobody, by every seat still here without one (both
    pipelined; a zone every seat shuffled loses its record of shufflers). None under the rule of
    earlier records (net.session.rounds ``Shuffle``)."""
    assert s.book is not None
    if not applies(s):
        s.book.shufflers.pop(pending.zone, None)
        return None
    named = s.plan.drawers(s.state, pending.zone)
    if named is None:
        everyone = tuple(x for x in s.seats if x not in s.left)
        return DrawersShuffle(s, pending.zone, pending.handles, everyone, engine_shuffle=True, with_beacon=False)
    order = shufflers_for(named, s.seats, tuple(s.left))
    return DrawersShuffle(s, pending.zone, pending.handles, order, engine_shuffle=True)


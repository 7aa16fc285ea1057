"""Hidden cards on a networked table: engine handles <-> mental-poker ciphertexts.

:class:`CardBook` keeps, for one session, the ciphertext behind every engine
handle, who holds which privately drawn card (with the other seats' verified
decryption shares), which points are public card points and which are salted
points of whose secret deck list, and which points have been opened.

:class:`CardOp` runs one ``deal``, ``show_to`` or ``reveal`` request of the
engine as net.poker rounds: first decryption shares from the seats that owe
them, then (for a public reveal of a salted card) the owner's opening.
:func:`verify_claims` checks a card played from a hand: the holder's
decryption share with its proof, and the opening of a salted point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.pending import CardsDealt, CardsRevealed, CardsShownTo, HiddenOp
from net.errors import UnexpectedMessage
from net.poker import group as g
from net.poker.cards import SecretDeckList, card_point, salted_card_point
from net.poker.errors import (
    BadCardMessage,
    CardOutsideDeck,
    DeckListMismatch,
    OutOfTurn,
)
from net.poker.protocol import CardKeys, HeldCard, RevealRound, SeatSecrets
from net.poker.shuffle import Cipher

SYSTEM = -1


class CardBook:
    """Everything one session knows about the table's encrypted cards."""

    def __init__(self, game: bytes, keys: CardKeys, me: SeatSecrets | None,
                 my_list: SecretDeckList | None) -> None:
        self.game = game
        self.keys = keys
        self.me = me
        self.my_list = my_list
        self.cipher: dict[int, Cipher] = {}
        self.held: dict[int, HeldCard] = {}
        self.public_points: dict[bytes, str] = {}
        self.salted_owner: dict[bytes, int] = {}
        self.opened: dict[bytes, str] = {}
        self.my_points: dict[bytes, str] = {} if my_list is None else {
            salted_card_point(game, my_list.owner, cid, salt): cid for cid, salt in my_list.entries}
        #: Points this seat has decrypted for handles (its hand, peeked cards).
        self.known_point: dict[int, bytes] = {}
        #: Seat -> the salted points of its secret deck list, as published in its opening message.
        self.deck_points: dict[int, tuple[bytes, ...]] = {}
        #: Hidden handles whose card became public through a proof (plays, reveals).
        self.identified: dict[int, str] = {}
        #: Sealed shows by step: (held cards, recipient), to judge disputes (net.session.dispute).
        self.shows: dict[int, tuple[tuple[HeldCard, ...], int]] = {}
        #: Zone -> (its handles, the seats that shuffled them) after a shuffle by its drawers only
        #: (net/session/subset_shuffle.py); a zone every seat shuffled has no entry.
        self.shufflers: dict[str, tuple[frozenset[int], frozenset[int]]] = {}

    # --- building decks -----------------------------------------------------

    def public_cipher(self, card: str) -> Cipher:
        point = card_point(self.game, card)
        self.public_points[point] = card
        return (g.BASE, g.add(point, self.keys.joint))

    def bind_trivial(self, handles: Sequence[int], points: Sequence[bytes]) -> None:
        for handle, point in zip(handles, points):
            self.cipher[handle] = (g.BASE, g.add(point, self.keys.joint))

    def trivial_point(self, handle: int) -> bytes | None:
        """The point of a never-shuffled (publicly encrypted) card, else None."""
        c1, c2 = self.cipher[handle]
        return g.sub(c2, self.keys.joint) if c1 == g.BASE else None

    def identify(self, point: bytes) -> str | None:
        """Card id of a point when it is public here (or our own salted card)."""
        card = self.public_points.get(point) or self.opened.get(point) or self.my_points.get(point)
        return card

    def check_in_deck(self, point: bytes, seat: int | None) -> None:
        if point not in self.public_points and point not in self.salted_owner and point not in self.opened:
            raise CardOutsideDeck("the card decrypts to a point outside every deck", seat=seat)

    def my_opening(self, point: bytes) -> tuple[str, bytes] | None:
        if self.my_list is None or point not in self.my_points:
            return None
        return self.my_list.opening_for(point)


# --- one deal / show / reveal -------------------------------------------------------


class CardOp:
    """Shares, then openings, for one HiddenOp other than a shuffle."""

    def __init__(self, book: CardBook, step: int, op: HiddenOp, seats: Sequence[int]) -> None:
        self.book, self.step, self.op, self.seats = book, step, op, tuple(seats)
        keys = book.keys
        self.rounds: list[RevealRound] = []
        self.direct: dict[int, bytes] = {}  # handle -> point known without shares
        self.handle_round: dict[int, tuple[int, int]] = {}  # handle -> (round, index)
        self.points: dict[int, bytes] = {}
        self.owed_openings: dict[int, list[int]] = {}  # owner -> handles
        self.cards: dict[int, str] = {}
        self._opened_by: set[int] = set()
        handles = op.handles
        if op.op == "deal":
            assert op.to_seat is not None
            self._add(RevealRound.draw(keys, step, [book.cipher[h] for h in handles], handles, op.to_seat),
                      handles)
        elif op.op == "show_to":
            assert op.to_seat is not None
            holders = {book.held[h].holder if h in book.held else None for h in handles}
            if len(holders) != 1:
                raise ValueError("show_to mixes cards held by different seats; not supported")
            holder = holders.pop()
            if holder is None:
                self._add(RevealRound.draw(keys, step, [book.cipher[h] for h in handles], handles, op.to_seat),
                          handles)
            elif holder != op.to_seat:
                self._add(RevealRound.show(keys, step, [book.held[h] for h in handles], op.to_seat), handles)
        else:
            public: list[int] = []
            by_holder: dict[int, list[int]] = {}
            for h in handles:
                if h in book.held:
                    by_holder.setdefault(book.held[h].holder, []).append(h)
                    continue
                point = book.trivial_point(h)
                if point is not None:
                    self.direct[h] = point
                else:
                    public.append(h)
            if public:
                self._add(RevealRound.public(keys, step, [book.cipher[h] for h in public], public), public)
            for holder in sorted(by_holder):
                hs = by_holder[holder]
                self._add(RevealRound.reveal_held(keys, step, [book.held[h] for h in hs]), hs)
        self.phase = "shares"
        self._advance()

    def _add(self, rnd: RevealRound, handles: Sequence[int]) -> None:
        index = len(self.rounds)
        self.rounds.append(rnd)
        for i, h in enumerate(handles):
            self.handle_round[h] = (index, i)

    # --- who owes what

    def owing(self) -> tuple[int, ...]:
        if self.phase == "shares":
            return tuple(s for s in self.seats if any(s in r.waiting_for() for r in self.rounds))
        if self.phase == "open":
            return tuple(s for s in sorted(self.owed_openings) if s not in self._opened_by)
        return ()

    @property
    def done(self) -> bool:
        return self.phase == "done"

    # --- our part

    def make(self, me: SeatSecrets) -> tuple[str, dict[str, Any]] | None:
        """Our message for the current phase, if we owe one."""
        if me.seat not in self.owing():
            return None
        if self.phase == "shares":
            parts = [[i, r.make(me)] for i, r in enumerate(self.rounds) if me.seat in r.waiting_for()]
            # make() recorded our shares; undo by rebuilding is not needed: consume() skips us.
            return "shares", {"parts": parts}
        openings = []
        for h in self.owed_openings[me.seat]:
            opening = self.book.my_opening(self.points[h])
            if opening is None:
                raise RuntimeError(f"cannot open card {h}: it is not in this seat's deck list")
            openings.append([h, opening[0], opening[1]])
        return "open", {"openings": openings}

    # --- their parts

    def consume(self, seat: int, kind: str, body: Any, *, mine: bool) -> None:
        if kind == "shares":
            self._shares(seat, body, mine=mine)
        elif kind == "open":
            self._open(seat, body)
        else:
            raise UnexpectedMessage(f"a {kind!r} message does not answer a {self.op.op} of cards", seat=seat)
        self._advance()

    def _shares(self, seat: int, body: Any, *, mine: bool) -> None:
        if mine:
            return  # made and recorded by make() in this process; nothing to verify
        if self.phase != "shares" or seat not in self.owing():
            raise OutOfTurn(f"no decryption shares are expected from it for this {self.op.op}", seat=seat)
        if not isinstance(body, Mapping) or set(body) != {"parts"} or not isinstance(body["parts"], tuple):
            raise BadCardMessage("a shares message is {'parts': [[round, message], ...]}", seat=seat)
        expected = [i for i, r in enumerate(self.rounds) if seat in r.waiting_for()]
        parts = body["parts"]
        if [p[0] if isinstance(p, tuple) and len(p) == 2 else None for p in parts] != expected:
            raise BadCardMessage(f"its shares must cover exactly the rounds {expected}", seat=seat)
        me = self.book.me
        # verify every part before recording any (a bad part changes nothing)
        trial = [self.rounds[i].copy() for i in expected]
        for rnd, (_, message) in zip(trial, parts):
            rnd.receive(seat, _plain(message), me)
        for i, rnd in zip(expected, trial):
            self.rounds[i] = rnd

    def _open(self, seat: int, body: Any) -> None:
        if self.phase != "open" or seat not in self.owing():
            raise OutOfTurn(f"no card openings are expected from it for this {self.op.op}", seat=seat)
        if not isinstance(body, Mapping) or set(body) != {"openings"} or not isinstance(body["openings"], tuple):
            raise BadCardMessage("an open message is {'openings': [[handle, card, salt], ...]}", seat=seat)
        owed = self.owed_openings[seat]
        items = body["openings"]
        if len(items) != len(owed) or any(not isinstance(i, tuple) or len(i) != 3 or i[0] != h
                                          for i, h in zip(items, owed)):
            raise BadCardMessage(f"must open exactly the cards {owed}, in that order", seat=seat)
        found = {}
        for h, cid, salt in items:
            point = self.points[h]
            if self.book.salted_owner.get(point) != seat:
                raise DeckListMismatch("opened a card that is not in its own deck list", seat=seat)
            if salted_card_point(self.book.game, seat, cid, salt) != point:
                raise DeckListMismatch(f"opened revealed card {h} as {cid!r}, which does not match it",
                                       seat=seat)
            found[h] = (point, cid)
        for h, (point, cid) in found.items():
            self.book.opened[point] = cid
            self.cards[h] = cid
        self._opened_by.add(seat)

    # --- progress

    def _advance(self) -> None:
        if self.phase == "shares" and not self.owing():
            self._finish_shares()
        if self.phase == "open" and not self.owing():
            self.phase = "done"

    def _finish_shares(self) -> None:
        book, op = self.book, self.op
        me = book.me
        private = op.op in ("deal", "show_to")
        if private:
            if me is not None and me.seat == op.to_seat:
                for h in op.handles:
                    if h in self.handle_round:
                        ri, i = self.handle_round[h]
                        point = self.rounds[ri].points(me)[i]
                        book.check_in_deck(point, self.rounds[ri].holder)
                        book.known_point[h] = point
                    elif h in book.known_point:
                        point = book.known_point[h]
                    else:
                        continue
                    card = book.identify(point)
                    if card is not None:
                        self.cards[h] = card
            if op.op == "deal":
                for rnd in self.rounds:
                    for held in rnd.held():
                        book.held[held.label] = held
            self.phase = "done"
            return
        for h in op.handles:
            if h in self.direct:
                point = self.direct[h]
            else:
                ri, i = self.handle_round[h]
                point = self.rounds[ri].points()[i]
            blame = self.book.held[h].holder if h in self.book.held else None
            book.check_in_deck(point, blame)
            self.points[h] = point
            card = book.public_points.get(point) or book.opened.get(point)
            if card is not None:
                self.cards[h] = card
            else:
                self.owed_openings.setdefault(book.salted_owner[point], []).append(h)
        for h in op.handles:  # revealed cards are no longer privately held
            book.held.pop(h, None)
        self.phase = "open"

    # --- the engine input

    def answer(self) -> CardsDealt | CardsShownTo | CardsRevealed:
        op = self.op
        if op.op == "deal":
            return CardsDealt(SYSTEM, op.zone, op.handles)
        if op.op == "show_to":
            return CardsShownTo(SYSTEM, op.zone, op.handles)
        return CardsRevealed(SYSTEM, op.zone, op.handles, tuple(self.cards[h] for h in op.handles))

    def learned(self) -> list[tuple[int, str]]:
        """What the recipient of a deal/show learned (empty for other seats)."""
        return sorted(self.cards.items())


def _plain(message: Any) -> Any:
    """Decoded maps are dicts already; sealed-share parsing wants a dict."""
    if isinstance(message, Mapping):
        return dict(message)
    return message


# --- cards played from a hand ----------------------------------------------------------


def make_claims(book: CardBook, step: int, claims: Sequence[tuple[int, str]],
                open_handles: Mapping[int, str]) -> list[list[Any]]:
    """Our proof parts for the cards an action of ours reveals from a hand."""
    me = book.me
    assert me is not None
    parts: list[list[Any]] = []
    for handle, _card in claims:
        if handle in open_handles or handle not in book.held:
            continue
        rnd = RevealRound.reveal_held(book.keys, step, [book.held[handle]])
        message = rnd.make(me)
        point = book.known_point.get(handle)
        opening = book.my_opening(point) if point is not None else None
        parts.append([handle, message, list(opening) if opening is not None else None])
    return parts


def verify_claims(book: CardBook, step: int, seat: int, claims: Sequence[tuple[int, str]],
                  open_handles: Mapping[int, str], parts: Any) -> list[tuple[int, bytes, str]]:
    """Check the proof of every claimed card; return (handle, point, card) to remember.

    Nothing in ``book`` changes here; the caller records the result once the
    engine accepted the action.
    """
    needed = [(h, c) for h, c in claims if h not in open_handles]
    if not isinstance(parts, tuple) or len(parts) != len(needed):
        raise BadCardMessage(f"must prove exactly {len(needed)} played card(s)", seat=seat)
    out = []
    for (handle, card), part in zip(needed, parts):
        if not isinstance(part, tuple) or len(part) != 3 or part[0] != handle:
            raise BadCardMessage(f"card proof for handle {handle} is not [handle, shares, opening]", seat=seat)
        held = book.held.get(handle)
        if held is None or held.holder != seat:
            raise OutOfTurn(f"played card {handle}, which it does not hold", seat=seat)
        rnd = RevealRound.reveal_held(book.keys, step, [held])
        rnd.receive(seat, _plain(part[1]))
        point = rnd.points()[0]
        known = book.public_points.get(point) or book.opened.get(point)
        if known is None:
            if book.salted_owner.get(point) is None:
                raise CardOutsideDeck("played a card whose point is outside every deck", seat=seat)
            if part[2] is None:
                raise BadCardMessage(f"played card {handle} without opening its deck-list entry", seat=seat)
            opening = part[2]
            if not isinstance(opening, tuple) or len(opening) != 2:
                raise BadCardMessage("a card opening is [card id, salt]", seat=seat)
            if book.salted_owner[point] != seat:
                raise DeckListMismatch("played a card from another seat's secret deck list", seat=seat)
            if salted_card_point(book.game, seat, opening[0], opening[1]) != point:
                raise DeckListMismatch(f"its opening of card {handle} does not match the card", seat=seat)
            known = opening[0]
        if known != card:
            raise DeckListMismatch(f"claimed card {handle} is {card!r} but its proof shows {known!r}", seat=seat)
        out.append((handle, point, card))
    return out

"""Sans-I/O card protocol rounds: keys, shuffles, draws and reveals.

Each round is a small state machine. The caller (the session) feeds it the
``body`` of every card message with the seat that signed it, and asks it for
the local seat's own message; a round never touches the network, the clock
or a file. Every rejection raises a :class:`~net.poker.errors.CardProtocolError`
whose ``seat`` is the seat at fault; the round is unchanged by a rejected
message, so the session can report, stop and forfeit.

Flow of a game (Barnett-Smart):

1. :class:`KeyRound`: every seat announces ``X_i = x_i*G`` with a Schnorr
   proof bound to (game, step, seat) and an X25519 key for sealed shares;
   the joint key is ``H = sum X_i``.
2. :class:`ShuffleRound`: the deck (card points trivially encrypted, or an
   earlier deck) is re-masked and permuted by every seat in turn, each with a
   shuffle proof every other seat verifies.
3. :class:`RevealRound`:
   - ``draw``: every seat but the drawer publishes decryption shares with
     DLEQ proofs; the drawer removes its own share locally (only it learns
     the card); everyone records a :class:`HeldCard`;
   - ``show``: the holder seals its share to one seat;
   - ``reveal_held`` / ``public``: shares published, everyone learns the card.
4. A discard pile returns to play by :meth:`ShuffleRound.fresh` over its
   (public) card points: trivially re-encrypted, then shuffled by every seat.

Resuming from a journal: :meth:`SeatSecrets.export` / :meth:`SeatSecrets.load`
keep the local secrets; rebuild a round and feed it every journaled message
with :meth:`receive`, the local seat's own messages included (``make`` draws
fresh randomness, so it must not be called again for a step already sent).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from net.poker import group as g
from net.poker import proofs, sealed
from net.poker.cards import CardTable
from net.poker.errors import (
    BadCardMessage,
    BadSealedShare,
    CardProtocolError,
    OutOfTurn,
)
from net.poker.proofs import Context
from net.poker.shuffle import Cipher, Deck, decode_deck, receive_shuffle, shuffle, trivial_deck, verify_shuffle

Message = dict[str, Any]


def _need_fields(message: object, names: Sequence[str], *, seat: int, what: str) -> Mapping[str, Any]:
    if not isinstance(message, Mapping) or sorted(message) != sorted(names):
        raise BadCardMessage(f"{what} must have exactly the fields {sorted(names)}", seat=seat)
    return message


# --- keys -----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class SeatSecrets:
    """One seat's per-game card secrets. Never sent; journal them locally."""

    seat: int
    x: int
    box: X25519PrivateKey

    @classmethod
    def generate(cls, seat: int) -> SeatSecrets:
        return cls(seat, g.random_scalar(), X25519PrivateKey.generate())

    @property
    def key(self) -> bytes:
        return g.base_mul(self.x)

    def export(self) -> dict[str, bytes | int]:
        """Canonical data for the seat's local journal (never send it)."""
        return {"seat": self.seat, "x": g.sb(self.x), "box": self.box.private_bytes_raw()}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> SeatSecrets:
        """Inverse of :meth:`export`; raises ValueError on a damaged journal entry."""
        if sorted(data) != ["box", "seat", "x"]:
            raise ValueError("card secrets in the journal have unexpected fields; the journal is damaged")
        x = g.decode_scalar(data["x"], seat=None, what="journaled card secret")
        box = data["box"]
        if not isinstance(box, bytes) or len(box) != 32 or not isinstance(data["seat"], int) or x == 0:
            raise ValueError("card secrets in the journal are malformed; the journal is damaged")
        return cls(data["seat"], x, X25519PrivateKey.from_private_bytes(box))

    def __repr__(self) -> str:
        return f"SeatSecrets(seat={self.seat}, <secret>)"


@dataclasses.dataclass(frozen=True)
class CardKeys:
    """The table's verified card keys: per seat, sealed-share keys, joint key."""

    game: bytes
    seats: tuple[int, ...]
    keys: Mapping[int, bytes]
    boxes: Mapping[int, bytes]
    joint: bytes


class KeyRound:
    """Collect every seat's per-game key with its proof of knowledge."""

    def __init__(self, game: bytes, step: int, seats: Sequence[int]) -> None:
        if len(set(seats)) != len(seats) or len(seats) < 2:
            raise ValueError("a key round needs two or more distinct seats")
        self.game, self.step, self.seats = game, step, tuple(seats)
        self._keys: dict[int, bytes] = {}
        self._boxes: dict[int, bytes] = {}

    @staticmethod
    def announce(game: bytes, step: int, secrets: SeatSecrets) -> Message:
        """The local seat's key message."""
        ctx = Context(game, step, secrets.seat)
        box = sealed.public_bytes(secrets.box)
        return {"key": secrets.key, "proof": proofs.prove_key(ctx, secrets.x, box), "box": box}

    def waiting_for(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s not in self._keys)

    @property
    def done(self) -> bool:
        return not self.waiting_for()

    def receive(self, seat: int, message: object) -> None:
        if seat not in self.waiting_for():
            raise OutOfTurn("sent a card key that is not expected from it", seat=seat)
        fields = _need_fields(message, ("box", "key", "proof"), seat=seat, what="card key message")
        key = g.decode_point(fields["key"], seat=seat, what="card key")
        box = fields["box"]
        if not sealed.is_usable_key(box):
            raise BadCardMessage("its sealed-share key is not a usable X25519 key (wrong size or "
                                 "low order)", seat=seat)
        proofs.verify_key(Context(self.game, self.step, seat), key, fields["proof"], box)
        self._keys[seat] = key
        self._boxes[seat] = box

    def result(self) -> CardKeys:
        if not self.done:
            raise OutOfTurn(f"card keys still missing from seats {list(self.waiting_for())}",
                            seat=self.waiting_for()[0])
        joint = g.total([self._keys[s] for s in self.seats])
        if joint == g.IDENTITY:  # impossible with proofs of knowledge; never continue
            raise CardProtocolError("the joint card key is the identity", seat=None)
        return CardKeys(self.game, self.seats, MappingProxyType(dict(self._keys)),
                        MappingProxyType(dict(self._boxes)), joint)


# --- shuffles -------------------------------------------------------------------

class ShuffleRound:
    """Every seat in ``order`` re-masks and permutes the deck, with a proof.

    ``order`` defaults to every seat. A shorter order (some seats of the table,
    each once) is private only to the seats in it: the session uses one only
    with the drawers' rule and a beacon after it (net/session/subset_shuffle.py).
    """

    def __init__(self, keys: CardKeys, step: int, deck: Deck, order: Sequence[int] | None = None) -> None:
        self.keys, self.step = keys, step
        self.order = tuple(order) if order is not None else keys.seats
        if len(set(self.order)) != len(self.order) or not set(self.order) <= set(keys.seats):
            raise ValueError("each shuffler is a seat of the table and shuffles once")
        if not deck:
            raise ValueError("there is no card to shuffle")
        self.deck = deck
        self._next = 0

    @classmethod
    def fresh(cls, keys: CardKeys, step: int, points: Sequence[bytes],
              order: Sequence[int] | None = None) -> ShuffleRound:
        """A new deck of known card points (a new game, or the discard pile)."""
        return cls(keys, step, trivial_deck(points, keys.joint), order)

    def waiting_for(self) -> int | None:
        return self.order[self._next] if self._next < len(self.order) else None

    def yet_to_shuffle(self, seat: int) -> bool:
        """Whether ``seat`` still has its shuffle of this deck to make (now or later)."""
        return seat in self.order[self._next:]

    @property
    def done(self) -> bool:
        return self._next == len(self.order)

    def make(self, seat: int) -> Message:
        """The local seat's shuffle (when it is its turn); advances the round."""
        if seat != self.waiting_for():
            raise OutOfTurn(f"it is not seat {seat}'s turn to shuffle", seat=seat)
        out, proof = shuffle(Context(self.keys.game, self.step, seat), self.keys.joint, self.deck)
        self.deck = out
        self._next += 1
        return {"deck": out, "proof": proof}

    def receive(self, seat: int, message: object) -> None:
        if seat != self.waiting_for():
            raise OutOfTurn("sent a shuffle out of turn", seat=seat)
        ctx = Context(self.keys.game, self.step, seat)
        self.deck = receive_shuffle(ctx, self.keys.joint, self.deck, message)
        self._next += 1

    def accept(self, seat: int, message: object) -> tuple[Deck, Deck, object]:
        """Take ``seat``'s shuffle with its deck decoded (every point checked) but its proof not yet
        verified, and advance: the next shuffler may build on it at once (pipelining). Return
        (deck in, deck out, proof) for :meth:`check`; the caller must check it before the deck
        is used for anything but another shuffle (net/session/subset_shuffle.py)."""
        if seat != self.waiting_for():
            raise OutOfTurn("sent a shuffle out of turn", seat=seat)
        if not isinstance(message, dict) or tuple(sorted(message)) != ("deck", "proof"):
            raise BadCardMessage("shuffle message must have exactly the fields 'deck' and 'proof'", seat=seat)
        deck_in = self.deck
        deck_out = decode_deck(message["deck"], seat=seat, size=len(deck_in))
        self.deck = deck_out
        self._next += 1
        return deck_in, deck_out, message["proof"]

    def check(self, seat: int, deck_in: Deck, deck_out: Deck, proof: object) -> None:
        """Verify a step taken by :meth:`accept`; raises naming ``seat`` when it is bad."""
        verify_shuffle(Context(self.keys.game, self.step, seat), self.keys.joint, deck_in, deck_out, proof)

    def result(self) -> Deck:
        if not self.done:
            raise OutOfTurn("the shuffle is not finished", seat=self.waiting_for())
        return self.deck


# --- draws and reveals ------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class HeldCard:
    """A card drawn privately: its ciphertext and the other seats' verified shares."""

    label: int
    cipher: Cipher
    holder: int
    shares: tuple[tuple[int, bytes], ...]


class RevealRound:
    """Decryption shares for a batch of cards, verified as they arrive.

    Use the constructors :meth:`draw`, :meth:`show`, :meth:`reveal_held` and
    :meth:`public`. ``labels`` are the cards' handles (deck positions); they
    are bound into every share proof next to (game, step, seat).
    """

    def __init__(self, keys: CardKeys, step: int, cards: Sequence[Cipher], labels: Sequence[int], *,
                 sharers: Sequence[int], recipient: int | None, sealed_to_recipient: bool,
                 known: Sequence[Mapping[int, bytes]] | None = None, holder: int | None = None) -> None:
        if len(cards) != len(labels) or not cards:
            raise ValueError("give one label per card, and at least one card")
        self.keys, self.step = keys, step
        self.cards, self.labels = tuple(cards), tuple(labels)
        self.sharers = tuple(sharers)
        self.recipient = recipient
        self.sealed_to_recipient = sealed_to_recipient
        self.holder = holder
        self._shares: list[dict[int, bytes]] = [dict(k) for k in known] if known else [{} for _ in cards]
        self._received: set[int] = set()

    @classmethod
    def draw(cls, keys: CardKeys, step: int, cards: Sequence[Cipher], labels: Sequence[int],
             drawer: int) -> RevealRound:
        """Private draw: every other seat publishes its shares; only the drawer can finish."""
        if drawer not in keys.seats:
            raise ValueError(f"seat {drawer} is not at this table")
        others = [s for s in keys.seats if s != drawer]
        return cls(keys, step, cards, labels, sharers=others, recipient=drawer,
                   sealed_to_recipient=False, holder=drawer)

    @classmethod
    def show(cls, keys: CardKeys, step: int, held: Sequence[HeldCard], to: int) -> RevealRound:
        """The holder shows held cards to exactly one seat ``to``."""
        holder = _one_holder(held)
        if to == holder or to not in keys.seats:
            raise ValueError("show a card to another seat at the table")
        return cls(keys, step, [h.cipher for h in held], [h.label for h in held], sharers=[holder],
                   recipient=to, sealed_to_recipient=True, known=[dict(h.shares) for h in held],
                   holder=holder)

    @classmethod
    def reveal_held(cls, keys: CardKeys, step: int, held: Sequence[HeldCard]) -> RevealRound:
        """The holder reveals held cards to everyone."""
        holder = _one_holder(held)
        return cls(keys, step, [h.cipher for h in held], [h.label for h in held], sharers=[holder],
                   recipient=None, sealed_to_recipient=False, known=[dict(h.shares) for h in held],
                   holder=holder)

    @classmethod
    def public(cls, keys: CardKeys, step: int, cards: Sequence[Cipher], labels: Sequence[int]) -> RevealRound:
        """Turn cards from the deck face up: every seat publishes its shares."""
        return cls(keys, step, cards, labels, sharers=keys.seats, recipient=None, sealed_to_recipient=False)

    # -- progress

    def waiting_for(self) -> tuple[int, ...]:
        return tuple(s for s in self.sharers if s not in self._received)

    def copy(self) -> RevealRound:
        """A copy that takes messages without changing this round: try a message on it, keep it if it verifies."""
        clone = copy.copy(self)
        clone._shares = [dict(s) for s in self._shares]
        clone._received = set(self._received)
        return clone

    @property
    def done(self) -> bool:
        return not self.waiting_for()

    # -- the local seat's part

    def make(self, me: SeatSecrets) -> Message:
        seat = me.seat
        if seat not in self.waiting_for():
            raise OutOfTurn("no decryption shares are expected from it now", seat=seat)
        ctx = Context(self.keys.game, self.step, seat)
        key = self.keys.keys[seat]
        shares = [proofs.make_share(ctx, me.x, key, c[0], label) for c, label in zip(self.cards, self.labels)]
        for i, s in enumerate(shares):
            self._shares[i][seat] = s["share"]
        self._received.add(seat)
        if self.sealed_to_recipient and self.recipient is not None:
            return dict(sealed.seal_share(self.keys.game, self.step, seat, self.recipient,
                                          self.keys.boxes[self.recipient], encode(shares)))
        return {"shares": tuple(shares)}

    # -- other seats' parts

    def receive(self, seat: int, message: object, me: SeatSecrets | None = None) -> None:
        """Take ``seat``'s shares. For a sealed show, pass ``me`` if we are the recipient."""
        if seat not in self.waiting_for():
            raise OutOfTurn("sent decryption shares that are not expected from it", seat=seat)
        if self.sealed_to_recipient and self.recipient is not None:
            if me is not None and me.seat == self.recipient:
                payload = sealed.open_share(self.keys.game, self.step, seat, self.recipient, me.box, message)
                try:
                    share_list: object = decode(payload)
                except EncodingError:
                    raise BadCardMessage("its sealed share payload is not canonical data", seat=seat) from None
                points = self._verify_shares(seat, share_list)
            else:  # not for us: we can only check the envelope is addressed as agreed
                fields = _need_fields(message, ("box", "eph", "to"), seat=seat, what="sealed share")
                if fields["to"] != self.recipient:
                    raise BadSealedShare(f"sealed its share to seat {fields['to']!r} instead of seat "
                                    f"{self.recipient}", seat=seat)
                self._received.add(seat)
                return
        else:
            fields = _need_fields(message, ("shares",), seat=seat, what="decryption shares message")
            points = self._verify_shares(seat, fields["shares"])
        for i, p in enumerate(points):
            self._shares[i][seat] = p
        self._received.add(seat)

    def _verify_shares(self, seat: int, share_list: object) -> list[bytes]:
        if not isinstance(share_list, (list, tuple)) or len(share_list) != len(self.cards):
            raise BadCardMessage(f"must send exactly {len(self.cards)} decryption shares", seat=seat)
        ctx = Context(self.keys.game, self.step, seat)
        key = self.keys.keys[seat]
        return [proofs.verify_share(ctx, key, c[0], label, m)
                for c, label, m in zip(self.cards, self.labels, share_list)]

    # -- results

    def points(self, me: SeatSecrets | None = None) -> tuple[bytes, ...]:
        """The decrypted card points, once every seat's share is known here.

        The recipient of a draw or show passes ``me`` to add its own share.
        """
        if not self.done:
            raise OutOfTurn(f"decryption shares still missing from seats {list(self.waiting_for())}",
                            seat=self.waiting_for()[0])
        out = []
        for cipher, shares in zip(self.cards, self._shares):
            parts = []
            for s in self.keys.seats:
                if s in shares:
                    parts.append(shares[s])
                elif me is not None and me.seat == s:
                    parts.append(g.mul(me.x, cipher[0]))
                else:
                    raise OutOfTurn(f"the share of seat {s} is not known here (the card is not "
                                    "revealed to this seat)", seat=None)
            out.append(g.sub(cipher[1], g.total(parts)))
        return tuple(out)

    def identify(self, table: CardTable, me: SeatSecrets | None = None) -> tuple[str | None, ...]:
        """Look the decrypted points up; a point outside the deck is rejected.

        Every share was proven, so a point outside the deck means the deck
        itself was not the agreed one: the seat that supplied the last
        unproven input (the holder) is named when there is one.
        """
        return tuple(table.lookup(p, seat=self.holder) for p in self.points(me))

    def held(self) -> tuple[HeldCard, ...]:
        """After a draw: what every seat records about the drawn cards."""
        if self.recipient is None or self.sealed_to_recipient or not self.done:
            raise ValueError("held cards come from a finished draw")
        return tuple(HeldCard(label, cipher, self.recipient,
                              tuple(sorted((s, p) for s, p in shares.items() if s != self.recipient)))
                     for label, cipher, shares in zip(self.labels, self.cards, self._shares))


def _one_holder(held: Sequence[HeldCard]) -> int:
    holders = {h.holder for h in held}
    if len(holders) != 1:
        raise ValueError("reveal cards of one holder at a time")
    return next(iter(holders))


def judge_show(keys: CardKeys, step: int, held: Sequence[HeldCard], recipient: int,
               recipient_secret: bytes, message: object) -> int:
    """Settle a dispute over a sealed share: return the seat at fault.

    The recipient claims the holder's sealed share was bad; to back that it
    publishes its per-game X25519 secret. Anyone can then check: a secret
    that does not match the key the recipient announced (and bound into its
    key proof) convicts the recipient; a box that does not open, or a share
    inside it that fails its proof, convicts the holder; a good share means
    the recipient complained falsely.
    """
    holder = _one_holder(held)
    try:
        secret = X25519PrivateKey.from_private_bytes(recipient_secret)
    except (ValueError, TypeError):
        return recipient
    if sealed.public_bytes(secret) != keys.boxes[recipient]:
        return recipient
    me = SeatSecrets(recipient, 1, secret)  # only the box key is used to open
    try:
        RevealRound.show(keys, step, held, to=recipient).receive(holder, message, me)
    except CardProtocolError as exc:
        return exc.seat if exc.seat is not None else holder
    return recipient

"""The opening (``hello``) phase: card keys and secret deck points.

Play cannot start until every seat has announced its card key (the joint
key round), its dice key when the genesis record rolls one-phase dice
(net.dice_vrf), and, for seats with a secret deck list, the committed points of
that deck; the card book is then built the same way on every peer. Our own
seat secrets are created here once and journalled before first use, so a
restarted peer announces the same key and deck.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
)

from net import dice_vrf
from net.envelope import DICE_VRF, Envelope
from net.errors import MalformedMessage, UnexpectedMessage
from net.poker import group as g
from net.poker.cards import SecretDeckList
from net.poker.errors import BadCardMessage
from net.poker.protocol import KeyRound, SeatSecrets
from net.journal import Journal
from net.session.cards import CardBook
from net.session.dice_rounds import DICE_SECRET
from net.session.phases import Phase, Wait
from net.session.play import Play
from net.session.plan import TablePlan

if TYPE_CHECKING:
    from net.session.core import Session


def load_secrets(gid: bytes, seat: int | None, plan: TablePlan, journal: Journal | None,
                 deck: Sequence[str] | None) -> tuple[SeatSecrets | None, SecretDeckList | None]:
    """Our card key and deck list: from the journal if saved, else new (and saved)."""
    if seat is None:
        return None, None
    j = journal
    card = j.secret("card") if j is not None else None
    if card is not None:
        x, box = card
        secrets = SeatSecrets(seat, int(x), X25519PrivateKey.from_private_bytes(box))
    else:
        secrets = SeatSecrets.generate(seat)
        if j is not None:
            box = secrets.box.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
            j.put_secret("card", (secrets.x, box))
    my_list: SecretDeckList | None = None
    if seat in plan.secret_zones:
        saved = j.secret("deck") if j is not None else None
        if saved is not None:
            my_list = SecretDeckList(gid, seat, tuple((c, p) for c, p in saved))
        else:
            if deck is None:
                raise ValueError(f"seat {seat} needs its deck list (card ids)")
            my_list = SecretDeckList.create(gid, seat, deck)
            if j is not None:
                j.put_secret("deck", my_list.entries)
    return secrets, my_list


def our_dice_secret(s: Session) -> int:
    """Our dice secret (net.dice_vrf): the journalled one after a restart, else a new one,
    journalled before the opening message that announces its key is sent."""
    saved = s._saved_secret(DICE_SECRET)
    if saved is not None:
        return int(saved)
    secret = dice_vrf.new_secret()
    s._keep_secret(DICE_SECRET, secret)
    return secret


class Opening:
    """Phase ``hello``: owns the joint key round and the seats' published deck points."""

    name = "hello"

    def __init__(self, s: Session) -> None:
        self.s = s
        self.keyround = KeyRound(s.gid, 0, s.seats)
        #: Seat -> the salted card points it published for its secret deck list.
        self.deck_points: dict[int, tuple[bytes, ...]] = {}
        #: Seat -> its checked dice key (one-phase dice, net.dice_vrf).
        self.dice_keys: dict[int, bytes] = {}

    def take(self, env: Envelope) -> None:
        if env.kind != "hello":
            raise Wait  # play messages wait until every key is in
        self._on_hello(env)

    def owe(self) -> bool:
        """Send our opening message once."""
        s = self.s
        if (0, "hello") in s._sent or s._secrets is None:
            return False
        points = s._my_list.points() if s._my_list is not None else ()
        body = {"card": KeyRound.announce(s.gid, 0, s._secrets), "deck": points}
        if s.genesis.dice == DICE_VRF:
            body["dice"] = dice_vrf.announce_key(s.gid, s._secrets.seat, our_dice_secret(s))
        s._send("hello", body)
        return True

    def waiting_for(self) -> tuple[int, ...]:
        return tuple(self.keyround.waiting_for())

    def describe(self) -> str:
        if self.s.genesis.dice == DICE_VRF:
            return "send its card key, dice key and deck points"
        return "send its card key and deck points"

    def successor(self) -> Phase | None:
        """Every key is in: play, with the card book built the same way on every peer."""
        if not self.keyround.done:
            return None
        self.s.dice_keys = dict(self.dice_keys)
        return Play(self.s, self._card_book())

    def _on_hello(self, env: Envelope) -> None:
        """A seat's opening message: check its deck points, feed the key round."""
        s = self.s
        body = env.body
        one_phase = s.genesis.dice == DICE_VRF
        fields = {"card", "deck", "dice"} if one_phase else {"card", "deck"}
        if not isinstance(body, Mapping) or set(body) != fields:
            raise MalformedMessage("an opening message is {'card': key message, 'deck': points"
                                   + (", 'dice': dice key message}" if one_phase else "}"), seat=env.seat)
        seat = env.seat
        dice_key = dice_vrf.check_key(s.gid, seat, body["dice"]) if one_phase else None
        zone = s.plan.secret_zones.get(seat)
        size = len(s.game.zone(s.state, zone)) if zone is not None else 0
        points = body["deck"]
        if not isinstance(points, tuple) or len(points) != size:
            raise BadCardMessage(f"its deck must have {size} card points", seat=seat)
        for p in points:
            g.decode_point(p, seat=seat, what="deck card point")
        if any(b <= a for a, b in itertools.pairwise(points)):
            raise BadCardMessage("its deck points must be distinct and in ascending order", seat=seat)
        if env.seq != 0:
            raise UnexpectedMessage("the opening message must be its first message", seat=seat)
        for other, theirs in self.deck_points.items():
            if set(points) & set(theirs):
                raise BadCardMessage(f"its deck points repeat points of seat {other}'s deck", seat=seat)
        self.keyround.receive(seat, dict(body["card"]) if isinstance(body["card"], Mapping) else body["card"])
        self.deck_points[seat] = points
        if dice_key is not None:
            self.dice_keys[seat] = dice_key

    def _card_book(self) -> CardBook:
        """The card book (same on every peer); our own deck's cards become our knowledge."""
        s = self.s
        keys = self.keyround.result()
        book = CardBook(s.gid, keys, s._secrets, s._my_list)
        for seat, zone in sorted(s.plan.secret_zones.items()):
            points = self.deck_points[seat]
            book.bind_trivial(s.game.zone(s.state, zone), points)
            book.deck_points[seat] = points
            for p in points:
                book.salted_owner[p] = seat
        for handle, card in sorted(s.plan.public_cards(s.state).items()):
            book.cipher[handle] = book.public_cipher(card)
        if s.seat is not None and s.seat in s.plan.secret_zones:
            handles = s.game.zone(s.state, s.plan.secret_zones[s.seat])
            pairs = [(h, book.my_points[p]) for h, p in zip(handles, self.deck_points[s.seat])]
            s.knowledge = s.knowledge.learn(pairs)
            for h, p in zip(handles, self.deck_points[s.seat]):
                book.known_point[h] = p
        return book

"""Card points, secret deck lists and looking a decrypted point up in a deck.

A card is encrypted as a curve point. Card points come from hashing to the
curve, never from ``i*G``: with known discrete-log relations between card
points a seat could combine ciphertexts into forbidden ones.

- Public card sets: ``card_point(game, card_id)``; everyone can build the table.
- Secret deck lists (a player's own deck the others must not learn): each
  copy gets a fresh 32-byte salt and its point is
  ``hash_to_point(game, owner, card_id, salt)``. The sorted list of points is
  public from the start (it forms the deck) and its hash is the commitment;
  the owner keeps the (card id, salt) pairs. A revealed card is identified by
  opening its one pair; the end-of-game audit opens all of them, and
  :func:`verify_deck_list` rejects an opening to any other list.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from engine.core.hashing import digest
from net.poker import group as g
from net.poker.errors import BadCardMessage, CardOutsideDeck, DeckListMismatch

CARD_DOMAIN = "fairtable/cards/card-point/v1"
SALTED_DOMAIN = "fairtable/cards/salted-card-point/v1"
DECK_LIST_DOMAIN = "fairtable/cards/deck-list/v1"
SALT_BYTES = 32


def card_point(game: bytes, card_id: str) -> bytes:
    """The public point of ``card_id`` in ``game``."""
    return g.hash_to_point(CARD_DOMAIN, (game, card_id))


def salted_card_point(game: bytes, owner: int, card_id: str, salt: bytes) -> bytes:
    """The hiding point of one copy of ``card_id`` in ``owner``'s secret deck list."""
    return g.hash_to_point(SALTED_DOMAIN, (game, owner, card_id, salt))


def deck_list_commitment(game: bytes, owner: int, points: Sequence[bytes]) -> bytes:
    """Commitment to a secret deck list: the hash of its sorted salted points."""
    return digest(DECK_LIST_DOMAIN, (game, owner, tuple(sorted(points))))


@dataclasses.dataclass(frozen=True)
class SecretDeckList:
    """The owner's private side of a secret deck list (keep it in the journal)."""

    game: bytes
    owner: int
    entries: tuple[tuple[str, bytes], ...]  # (card id, salt), in the owner's order

    @classmethod
    def create(cls, game: bytes, owner: int, card_ids: Iterable[str]) -> SecretDeckList:
        return cls(game, owner, tuple((cid, secrets.token_bytes(SALT_BYTES)) for cid in card_ids))

    def points(self) -> tuple[bytes, ...]:
        """The public salted points, sorted (the order must not leak the list)."""
        return tuple(sorted(salted_card_point(self.game, self.owner, cid, salt)
                            for cid, salt in self.entries))

    def commitment(self) -> bytes:
        return deck_list_commitment(self.game, self.owner, self.points())

    def opening(self) -> tuple[tuple[str, bytes], ...]:
        """What the owner publishes at the end-of-game audit."""
        return self.entries

    def opening_for(self, point: bytes) -> tuple[str, bytes]:
        """The (card id, salt) pair to publish when the card at ``point`` is revealed."""
        for cid, salt in self.entries:
            if salted_card_point(self.game, self.owner, cid, salt) == point:
                return cid, salt
        raise KeyError("that point is not in this deck list")

    def table(self) -> CardTable:
        """The owner's lookup table: every point with its card id."""
        return CardTable({salted_card_point(self.game, self.owner, cid, salt): cid
                          for cid, salt in self.entries})


def _opening_pairs(opening: object, *, owner: int) -> list[tuple[str, bytes]]:
    if not isinstance(opening, (list, tuple)):
        raise BadCardMessage("deck list opening is not a list", seat=owner)
    pairs = []
    for i, item in enumerate(opening):
        if (not isinstance(item, (list, tuple)) or len(item) != 2 or not isinstance(item[0], str)
                or not isinstance(item[1], bytes) or len(item[1]) != SALT_BYTES):
            raise BadCardMessage(f"deck list opening entry {i} is not (card id, 32-byte salt)", seat=owner)
        pairs.append((item[0], item[1]))
    return pairs


def verify_deck_list(game: bytes, owner: int, commitment: bytes, points: Sequence[bytes],
                     opening: object) -> tuple[str, ...]:
    """Check an end-of-game opening against the commitment and the public points.

    Returns the card ids (in the opening's order) for the rules' deck check.
    Raises :class:`DeckListMismatch` naming ``owner`` if anything differs.
    """
    if deck_list_commitment(game, owner, points) != commitment:
        raise DeckListMismatch("its published deck points do not match its deck-list commitment",
                               seat=owner)
    pairs = _opening_pairs(opening, owner=owner)
    opened = sorted(salted_card_point(game, owner, cid, salt) for cid, salt in pairs)
    if opened != sorted(points):
        raise DeckListMismatch(
            "opened its secret deck list to a different list than it committed to at the start",
            seat=owner)
    return tuple(cid for cid, _ in pairs)


class CardTable:
    """Point -> card id for one deck; ``None`` marks a salted card not yet opened.

    Looking up a point that is not in the deck raises :class:`CardOutsideDeck`.
    """

    def __init__(self, entries: Mapping[bytes, str | None]) -> None:
        self._entries: dict[bytes, str | None] = dict(entries)

    @classmethod
    def public(cls, game: bytes, card_ids: Iterable[str]) -> CardTable:
        return cls({card_point(game, cid): cid for cid in card_ids})

    @classmethod
    def sealed(cls, points: Iterable[bytes]) -> CardTable:
        """Another seat's secret deck list: points known, identities not."""
        return cls({p: None for p in points})

    def merged(self, other: CardTable) -> CardTable:
        return CardTable({**self._entries, **other._entries})

    @property
    def entries(self) -> Mapping[bytes, str | None]:
        return MappingProxyType(self._entries)

    def __contains__(self, point: object) -> bool:
        return point in self._entries

    def lookup(self, point: bytes, *, seat: int | None) -> str | None:
        """The card id at ``point``; ``seat`` is blamed if it is outside the deck."""
        try:
            return self._entries[point]
        except KeyError:
            raise CardOutsideDeck(
                "the card it revealed decrypts to a point outside the deck", seat=seat) from None

    def learn(self, game: bytes, owner: int, point: bytes, opening: object) -> str:
        """Identify a revealed salted card from its owner's (card id, salt)."""
        pairs = _opening_pairs((opening,), owner=owner)
        cid, salt = pairs[0]
        if point not in self._entries:
            raise CardOutsideDeck("the revealed card is not in its deck", seat=owner)
        if salted_card_point(game, owner, cid, salt) != point:
            raise DeckListMismatch(f"opened a revealed card as {cid!r}, which does not match it",
                                   seat=owner)
        self._entries[point] = cid
        return cid

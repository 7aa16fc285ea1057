"""Which held cards the end-of-game audit must open so that every claim is judged.

A game that makes claims (engine/core/claims.py, Super Human Locke's
declarations) logs what a seat declared about hidden cards; a networked
table judges them at the audit. A claim whose cards all became public
(played, revealed) is judged from the record alone. For the rest, every
card a claim is about that a seat still holds privately (it drew it, so
every other seat's decryption share is on record) becomes an owed hand
opening of its holder (net/session/audit.py ``open_hand``): the holder adds
its own proven share, anyone decrypts the card and the claim is judged.

Every peer derives the same list from the public record only (the claim
log, the cards identified in play, the public card points), never from
what it alone knows, so every peer expects the same openings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.core.claims import Claim
from net.session.cards import CardBook


def publicly_known(book: CardBook, open_cards: Mapping[int, str], handle: int) -> bool:
    """Whether every peer knows the card behind ``handle`` from the record alone."""
    if handle in book.identified or handle in open_cards:
        return True
    if handle not in book.cipher:
        return False
    point = book.trivial_point(handle)
    return point is not None and (point in book.public_points or point in book.opened)


def claimed_hand_cards(claims: Iterable[Claim], book: CardBook,
                       open_cards: Mapping[int, str]) -> dict[int, tuple[int, ...]]:
    """Holder -> the privately held handles (ascending) that claims are about and the record does not name."""
    owed: dict[int, set[int]] = {}
    for claim in claims:
        for h in claim.about:
            held = book.held.get(h)
            if held is None or publicly_known(book, open_cards, h):
                continue
            owed.setdefault(held.holder, set()).add(h)
    return {seat: tuple(sorted(hs)) for seat, hs in sorted(owed.items())}

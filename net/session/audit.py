"""End-of-game audit: open every secret deck list and check it against the rules.

Each seat's ``audit`` message opens its secret deck list: the (card id, salt)
pairs must hash to exactly the salted points it published in its ``hello``
(so nobody can claim another list afterwards). The rules then judge the
opened lists (``TablePlan.check_deck``: deck construction) and the cards that
stayed hidden on the table (``TablePlan.audit_hidden``, which can now name
never-shuffled cards through the opened points: Rider's face-down cards must
be Lv.1). The verdict goes into every seat's signed ``final`` record.

Hand openings (``TablePlan.hand_audit``): some decisions can only be judged
with the deciding seat's whole hidden hand (Rider: a pass, rider.14). The
session records a :class:`Checkpoint` for each; at the end every hand card of
a checkpoint that never became public is owed by its holder. The holder drew
it privately (``RevealRound.draw``), so every other seat's decryption share,
with its proof, is already in the transcript; the audit message adds the
holder's own share with a fresh DLEQ proof bound to (game, audit step, seat,
handle). Anyone then decrypts the card point and names the card through the
public card points or the opened (salted) deck lists; nobody needs a secret.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from net.poker.cards import deck_list_commitment, salted_card_point, verify_deck_list
from net.poker.errors import BadCardMessage, CardOutsideDeck, DeckListMismatch
from net.poker.protocol import RevealRound
from net.session.cards import CardBook
from net.session.plan import HandAudit, Resolve, TablePlan


def open_deck_list(game: bytes, seat: int, points: Sequence[bytes],
                   opening: Any) -> tuple[tuple[str, ...], dict[bytes, str]]:
    """Check ``seat``'s opening against its published points; return its cards
    (opening order) and point -> card id. Raises a seat-attributed error."""
    cards = verify_deck_list(game, seat, deck_list_commitment(game, seat, points), points, opening)
    return cards, {salted_card_point(game, seat, cid, salt): cid for cid, salt in opening}


def find_problems(plan: TablePlan, state: Any, seats: Sequence[int],
                  decks: Mapping[int, tuple[str, ...] | None], resolve: Resolve) -> list[tuple[int, str]]:
    """Every rule the opened decks or the still-hidden cards break, by seat."""
    found: list[tuple[int, str]] = []
    for seat in seats:
        cards = decks.get(seat)
        if cards is not None:
            found.extend((seat, p) for p in plan.check_deck(seat, cards))
        found.extend((seat, p) for p in plan.audit_hidden(state, seat, resolve))
    return found


# --- hands opened at the audit ----------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Checkpoint:
    """A decision the audit re-judges: seat ``seat`` decided at ``step`` holding
    ``handles`` in ``zone``; ``public`` are those whose card everyone knew then."""

    step: int
    seat: int
    zone: str
    handles: tuple[int, ...]
    public: Mapping[int, str]


def owed_hand_cards(checkpoints: Sequence[Checkpoint], identified: Mapping[int, str],
                    book: CardBook) -> dict[int, tuple[int, ...]]:
    """Holder -> handles (ascending) it must open at the audit.

    A card is owed when it was in a checkpoint's zone, was not public there,
    never became public later (``identified``: proven plays and reveals) and
    is still privately held. Every peer derives the same answer from the
    transcript alone.
    """
    owed: dict[int, set[int]] = {}
    for cp in checkpoints:
        for h in cp.handles:
            held = book.held.get(h)
            if h in cp.public or h in identified or held is None:
                continue
            owed.setdefault(held.holder, set()).add(h)
    return {seat: tuple(sorted(hs)) for seat, hs in sorted(owed.items())}


def make_hand_opening(book: CardBook, step: int, handles: Sequence[int]) -> tuple[list[Any], ...]:
    """Our ``hands`` entries ``[handle, card id, share message]`` for the audit message."""
    if not handles:
        return ()
    me = book.me
    assert me is not None
    rnd = RevealRound.reveal_held(book.keys, step, [book.held[h] for h in handles])
    shares = rnd.make(me)["shares"]
    out = []
    for h, point, share in zip(handles, rnd.points(), shares):
        card = book.identify(point)
        if card is None:
            raise RuntimeError(f"cannot name our own hand card {h}: its point is in no deck known here")
        out.append([h, card, share])
    return tuple(out)


def open_hand(book: CardBook, step: int, seat: int, owed: Sequence[int], items: Any,
              own_points: Mapping[bytes, str]) -> dict[int, str]:
    """Check ``seat``'s hand opening; return handle -> card id.

    Every share proof is verified against the seat's card key and the card's
    ciphertext, bound to (game, ``step``, seat, handle); the decrypted point
    must be a public card, a card opened during the game, or one of the seat's
    own opened deck list (``own_points``), and equal the card it names.
    Raises a card-protocol error naming ``seat``; nothing changes on failure.
    """
    owed = tuple(owed)
    if not isinstance(items, tuple) or len(items) != len(owed) or any(
            not isinstance(i, tuple) or len(i) != 3 or i[0] != h or not isinstance(i[1], str)
            for i, h in zip(items, owed)):
        raise BadCardMessage(f"its audit must open exactly its hand cards {list(owed)} as "
                             "[handle, card, share], in that order", seat=seat)
    if not owed:
        return {}
    held = [book.held[h] for h in owed]
    if any(x.holder != seat for x in held):
        raise BadCardMessage("opened hand cards that another seat holds", seat=seat)
    rnd = RevealRound.reveal_held(book.keys, step, held)
    rnd.receive(seat, {"shares": tuple(i[2] for i in items)})
    found: dict[int, str] = {}
    for (h, card, _), point in zip(items, rnd.points()):
        known = book.public_points.get(point) or book.opened.get(point) or own_points.get(point)
        if known is None:
            raise CardOutsideDeck(f"its hand card {h} decrypts to a point outside every opened deck", seat=seat)
        if known != card:
            raise DeckListMismatch(f"opened hand card {h} as {card!r} but its share shows {known!r}", seat=seat)
        found[h] = card
    return found


def hand_problems(audit: HandAudit, states: Sequence[Any], checkpoints: Sequence[Checkpoint],
                  cards: Mapping[int, str], resolve: Resolve) -> list[tuple[int, int, str]]:
    """(seat, step, problem) for every checkpoint whose opened hand breaks a rule."""
    found: list[tuple[int, int, str]] = []
    for cp in checkpoints:
        hand: dict[int, str] = {}
        missing = []
        for h in cp.handles:
            card = cp.public.get(h) or cards.get(h) or resolve(h)
            if card is None:
                missing.append(h)
            else:
                hand[h] = card
        if missing:
            text = (f"step {cp.step}: its cards {missing} in {cp.zone} cannot be identified, so its "
                    "decision there cannot be checked")
            found.append((cp.seat, cp.step, text))
            continue
        problem = audit.check(states[cp.step], cp.seat, hand)
        if problem:
            found.append((cp.seat, cp.step, f"step {cp.step}: {problem}"))
    return found


def verdict(problems: Sequence[tuple[int, str]]) -> str:
    """``"ok"`` or ``"failed: seat S: problem; ..."`` (goes into the final record)."""
    if not problems:
        return "ok"
    return "failed: " + "; ".join(f"seat {s}: {p}" for s, p in problems)

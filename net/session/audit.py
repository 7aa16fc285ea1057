"""End-of-game audit: open every secret deck list and check it against the rules.

Each seat's ``audit`` message opens its secret deck list: the (card id, salt)
pairs must hash to exactly the salted points it published in its ``hello``
(so nobody can claim another list afterwards). The rules then judge the
opened lists (``TablePlan.check_deck``: deck construction) and the cards that
stayed hidden on the table (``TablePlan.audit_hidden``, which can now name
never-shuffled cards through the opened points: Rider's face-down cards must
be Lv.1). The verdict goes into every seat's signed ``final`` record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from net.poker.cards import deck_list_commitment, salted_card_point, verify_deck_list
from net.session.plan import Resolve, TablePlan


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


def verdict(problems: Sequence[tuple[int, str]]) -> str:
    """``"ok"`` or ``"failed: seat S: problem; ..."`` (goes into the final record)."""
    if not problems:
        return "ok"
    return "failed: " + "; ".join(f"seat {s}: {p}" for s, p in problems)

"""What a networked table must know about a game beyond the engine contract.

The engine speaks in opaque handles; the session must know which handles start
as which (encrypted) cards, which action fields claim a card's identity, and
what the end-of-game audit checks. A :class:`TablePlan` says that for one game
so the session itself stays game-agnostic.

- ``secret_zones``: per seat, the zone holding that seat's secret deck list at
  the start (Rider: ``deck:S``). Its handles, in zone order, are bound to the
  seat's salted card points in ascending point order, so the order reveals
  nothing; the owner's knowledge follows from its own list.
- ``public_cards(state)``: handles whose card is public at the start (a shared
  deck of a known composition), as handle -> card id.
- ``claims(action)``: the (handle, card id) pairs an action reveals from a
  hidden zone; the default reads ``handle``/``card`` fields.
- ``check_deck(seat, cards)``: deck-construction problems of an opened list.
- ``audit_hidden(state, seat, resolve)``: problems with cards that stayed
  hidden (Rider: a face-down card that is not a Lv.1).
- ``stand_in(rng)``: the agent that plays on for a seat that left the game
  (net/session/leave.py): every peer runs it with the same public seed and
  the seat's public knowledge, so all derive the same input; the default
  picks uniformly among the legal inputs.
- ``drawers(state, zone)``: under the genesis shuffle rule ``drawers-beacon/v1``,
  the seats that will be dealt privately from ``zone`` after the shuffle the
  engine asks for now, read from the public state (Locke: a combat's
  fighters); None (the default) lets every seat shuffle, as before. Only
  they (and, for a lone drawer, one more seat) shuffle the zone; a seat
  dealt from it later reshuffles it first (net/session/subset_shuffle.py).
- ``hand_audit``: a :class:`HandAudit`, for rules that judge a decision by
  the whole hidden hand it was taken with (Rider: a pass is legal only when no
  hand card could be played, rider.3/rider.14). At the end of the game every
  seat opens, verifiably, the hidden cards of the zones it names, and its
  ``check`` judges each such decision (net/session/audit.py).
- ``claim_per_card(claim)``: whether a claim (engine/core/claims.py) holds
  exactly when each card it is about, alone, makes the game's
  ``claim_holds(claim, (card,))`` true. Such a claim is proven by its maker
  at its step (net/session/claim_steps.py), card by card, over the cards
  each handle may hold; the default proves nothing and every claim waits for
  the audit.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core.actions import Action
from engine.core.claims import Claim

Resolve = Callable[[int], "str | None"]


def default_claims(action: Action) -> tuple[tuple[int, str], ...]:
    """An action with an int ``handle`` and a text ``card`` claims that card."""
    handle = getattr(action, "handle", None)
    card = getattr(action, "card", None)
    if isinstance(handle, int) and not isinstance(handle, bool) and isinstance(card, str):
        return ((handle, card),)
    return ()


HandCheck = Callable[[Any, int, Mapping[int, str]], "str | None"]


@dataclasses.dataclass(frozen=True)
class HandAudit:
    """Decisions the end-of-game audit re-judges with the hidden cards opened.

    - ``select(state, action)``: for a seat decision ``action`` taken in
      ``state``, the (seat, zone) whose cards the judgement needs (Rider:
      ``(S, "hand:S")`` for a pass by seat S), or None for most decisions.
    - ``check(state, seat, cards)``: ``cards`` is every card of that zone in
      ``state`` (handle -> card id); return the rule broken, or None.

    Only seats' own decisions are selected (never driver answers), so the
    zone's hidden cards are ones the seat itself holds: it alone can open them.
    """

    select: Callable[[Any, Action], tuple[int, str] | None]
    check: HandCheck


def _no_problems(seat: int, cards: Sequence[str]) -> list[str]:
    return []


def _no_hidden_problems(state: Any, seat: int, resolve: Resolve) -> list[str]:
    return []


def every_seat_shuffles(state: Any, zone: str) -> tuple[int, ...] | None:
    """The default ``drawers``: nobody is named, so every seat shuffles every zone."""
    return None


def _no_public_cards(state: Any) -> Mapping[int, str]:
    return {}


def _never(claim: Claim) -> bool:
    return False


def _random_stand_in(rng: random.Random) -> Any:
    from net.bots.random_bot import RandomBot

    return RandomBot(rng)


@dataclasses.dataclass(frozen=True)
class TablePlan:
    """Game-specific facts the session needs (see the module docstring)."""

    secret_zones: Mapping[int, str] = dataclasses.field(default_factory=dict)
    public_cards: Callable[[Any], Mapping[int, str]] = _no_public_cards
    claims: Callable[[Action], tuple[tuple[int, str], ...]] = default_claims
    check_deck: Callable[[int, Sequence[str]], list[str]] = _no_problems
    audit_hidden: Callable[[Any, int, Resolve], list[str]] = _no_hidden_problems
    hand_audit: HandAudit | None = None
    stand_in: Callable[[random.Random], Any] = _random_stand_in
    drawers: Callable[[Any, str], tuple[int, ...] | None] = every_seat_shuffles
    claim_per_card: Callable[[Claim], bool] = _never


"""A synthetic table that does nothing but start Locke combats, for ``tools.bench combat``.

The process benchmark (:mod:`tools.bench._combat_seat`) runs the real
``net.session.Session`` on this game so that what it times is exactly what a
networked Locke table runs at a combat start (net/session/subset_shuffle.py:
the fighters' pipelined shuffle of the combat deck, every seat's beacon part,
then the private deals with every other seat's decryption shares), without
the rest of a Locke game around it.

A round of the game:

1. seat 0 declares the combat (:class:`Begin`, a Decision: the attack
   declaration of a real game, and the benchmark's clock origin); every
   fighter's hand goes back into the deck (public moves of handles, as a
   combat's cards go back to its deck);
2. the deck is shuffled (a HiddenOp ``shuffle``); the table plan names the
   fighters as its drawers (``TablePlan.drawers``), so under the genesis rule
   ``drawers-beacon/v1`` only they (a lone one joined by the next seat)
   shuffle it, then every seat sends its beacon part;
3. each fighter in seat order is dealt ``hand`` cards privately (a HiddenOp
   ``deal`` each).

Then seat 0 may declare the next combat. The game never ends (the benchmark
stops its processes), so no end-of-game audit runs. The deck's cards are
public in data order before the first shuffle (like Locke's decks,
net/games/locke/table.py), so the plan names them (``public_cards``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.core.actions import Action, ActionCodec
from engine.core.errors import IllegalAction
from engine.core.game import Outcome, check_answer_matches
from engine.core.hashing import digest
from engine.core.hidden import Knowledge
from engine.core.pending import DRIVER_ANSWERS, CardsDealt, CardsShuffled, Decision, HiddenOp, Pending
from net.envelope import DICE_VRF, SHUFFLES_DRAWERS, Genesis
from net.session.plan import TablePlan

RULES_ID = "bench/combat"
ZONE = "deck"


@dataclasses.dataclass(frozen=True)
class Begin(Action):
    """Seat 0 declares the next combat."""

    KIND = "bench.begin"


@dataclasses.dataclass(frozen=True)
class CombatState:
    """``stage``: "begin" (waiting for seat 0), "shuffle", or "deal" (``dealt`` fighters dealt so far)."""

    seats: int
    fighters: tuple[int, ...]
    hand: int
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    next_handle: int
    stage: str = "begin"
    dealt: int = 0
    combats: int = 0


def card_ids(cards: int) -> tuple[str, ...]:
    return tuple(f"b{i:03d}" for i in range(cards))


def card_set_hash(cards: int) -> bytes:
    return digest("fairtable/bench-combat/cards/v1", list(card_ids(cards)))


class CombatGame:
    """The reducer (engine/core/game.py's contract) of the benchmark's combats."""

    rules_id = RULES_ID
    codec = ActionCodec((Begin, *DRIVER_ANSWERS))

    def __init__(self, cards: int) -> None:
        self.cards = cards

    def initial_state(self, seats: int, fighters: tuple[int, ...], hand: int) -> CombatState:
        if not fighters or len(set(fighters)) != len(fighters) or not all(0 <= f < seats for f in fighters):
            raise ValueError(f"fighters {fighters} must be distinct seats of {seats}")
        if hand * len(fighters) > self.cards:
            raise ValueError(f"{len(fighters)} hands of {hand} do not fit in a deck of {self.cards}")
        return CombatState(seats, tuple(sorted(fighters)), hand, tuple(range(self.cards)),
                           tuple(() for _ in range(seats)), self.cards)

    def open_cards(self, state: CombatState) -> dict[int, str]:
        """The deck's cards before its first shuffle: public, in data order."""
        if state.combats == 0 and state.stage in ("begin", "shuffle"):
            return dict(zip(state.deck, card_ids(self.cards)))
        return {}

    def pending(self, state: CombatState) -> Pending | None:
        if state.stage == "begin":
            return Decision(0, "bench.begin")
        if state.stage == "shuffle":
            return HiddenOp("shuffle", ZONE, state.deck)
        return HiddenOp("deal", ZONE, state.deck[:state.hand], to_seat=state.fighters[state.dealt])

    def legal_actions(self, state: CombatState, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        return [Begin(0)] if state.stage == "begin" and seat == 0 else []

    def apply(self, state: CombatState, action: Action) -> CombatState:
        check_answer_matches(self.pending(state), action)
        if state.stage == "begin" and isinstance(action, Begin):
            back = state.deck + tuple(h for hand in state.hands for h in hand)
            return dataclasses.replace(state, deck=back, hands=tuple(() for _ in state.hands), stage="shuffle")
        if state.stage == "shuffle" and isinstance(action, CardsShuffled):
            fresh = tuple(range(state.next_handle, state.next_handle + len(state.deck)))
            return dataclasses.replace(state, deck=fresh, next_handle=state.next_handle + len(fresh), stage="deal",
                                       dealt=0)
        if state.stage == "deal" and isinstance(action, CardsDealt):
            hands = list(state.hands)
            hands[state.fighters[state.dealt]] = state.deck[:state.hand]
            dealt = state.dealt + 1
            last = dealt == len(state.fighters)
            return dataclasses.replace(state, deck=state.deck[state.hand:], hands=tuple(hands), dealt=dealt,
                                       stage="begin" if last else "deal",
                                       combats=state.combats + 1 if last else state.combats)
        raise IllegalAction(f"{type(action).__name__} does not answer the benchmark's {state.stage} step")

    def public(self, state: CombatState) -> Any:
        return {"rules": RULES_ID, "seats": state.seats, "fighters": list(state.fighters), "hand": state.hand,
                "deck": list(state.deck), "hands": [list(h) for h in state.hands], "next_handle": state.next_handle,
                "stage": state.stage, "dealt": state.dealt, "combats": state.combats}

    def zone(self, state: CombatState, name: str) -> tuple[int, ...]:
        if name == ZONE:
            return state.deck
        return state.hands[int(name.split(":")[1])]

    def outcome(self, state: CombatState) -> Outcome | None:
        return None

    def view(self, state: CombatState, seat: int, knowledge: Knowledge) -> Any:
        return self.public(state)


def plan_for(game: CombatGame) -> TablePlan:
    """The deck's cards are public before its first shuffle; its drawers are the fighters."""

    def drawers(state: Any, zone: str) -> tuple[int, ...] | None:
        return state.fighters if zone == ZONE else None

    return TablePlan(public_cards=game.open_cards, drawers=drawers)


def genesis(seat_keys: tuple[bytes, ...], cards: int, nonce: bytes) -> Genesis:
    """The benchmark table's record: one-phase dice and the drawers' shuffle rule, as new Locke tables."""
    return Genesis(RULES_ID, "1", card_set_hash(cards), seat_keys, {}, (nonce,) * len(seat_keys),
                   dice=DICE_VRF, shuffles=SHUFFLES_DRAWERS)

"""Tiny, the smallest game that asks for every kind of pending input (2-10 seats).

Flow: shuffle the shared public deck; deal two cards to every seat; a sealed
guess ("high"/"low") by every seat; roll 2d6; every seat in turn plays one
hand card face up (the play names the card, so the session must prove it);
reveal the deck's top card to all; seat 0 shows its last hand card to seat 1;
the last seat peeks at the deck's top card; then the game ends. The winner is
the seat whose played card number plus the dice total is highest (ties to the
lower seat), a guess matching the dice ("high" = 7 or more) adds 5.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.core.actions import Action, ActionCodec
from engine.core.errors import IllegalAction
from engine.core.game import Outcome, check_answer_matches
from engine.core.hidden import Knowledge
from engine.core.pending import (
    DRIVER_ANSWERS,
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    Pending,
    SealedChoice,
    SealedChoicesRevealed,
)
from engine.core.hashing import digest

RULES_ID = "tiny/1"
MIN_SEATS = 2
MAX_SEATS = 10


@dataclasses.dataclass(frozen=True)
class Play(Action):
    KIND = "tiny.play"
    handle: int
    card: str


@dataclasses.dataclass(frozen=True)
class TinyState:
    seats: int
    queue: tuple[tuple[str, int], ...]
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    played: tuple[str, ...]  # one per seat, "" before playing
    guesses: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    revealed: tuple[str, ...] = ()
    next_handle: int = 0
    winner: int | None = None


def card_ids(n: int) -> tuple[str, ...]:
    """The first ``n`` cards: "c00", "c01", ... (a game of S seats uses 2S + 4)."""
    return tuple(f"c{i:02d}" for i in range(n))


def card_number(card: str) -> int:
    """The number on a card ("c13" is 13): what a play scores."""
    return int(card[1:])


def score_parts(state: TinyState) -> tuple[tuple[int, int, int], ...]:
    """Each seat's score once every card is played, in parts: (card number, dice total, guess
    bonus: 5 when its guess matches the dice, "high" being 7 or more); the sum decides."""
    total = sum(state.dice)
    right = "high" if total >= 7 else "low"
    return tuple((card_number(state.played[seat]), total, 5 if state.guesses[seat] == right else 0)
                 for seat in range(state.seats))


def card_set_hash() -> bytes:
    """The components hash a genesis record names: every card a table can use."""
    return digest("fairtable/tiny/cards/v1", list(card_ids(2 * MAX_SEATS + 4)))


class TinyGame:
    rules_id = RULES_ID
    codec = ActionCodec((Play, *DRIVER_ANSWERS))

    def initial_state(self, seats: int) -> TinyState:
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise ValueError(f"tiny is played by {MIN_SEATS} to {MAX_SEATS} seats, not {seats}")
        size = 2 * seats + 4
        queue = (("shuffle", -1), *(("deal", s) for s in range(seats)), ("guess", -1), ("roll", -1),
                 *(("play", s) for s in range(seats)), ("reveal", -1), ("show", 0), ("peek", seats - 1))
        return TinyState(seats, queue, tuple(range(size)), tuple(() for _ in range(seats)),
                         tuple("" for _ in range(seats)), next_handle=size)

    def open_cards(self, state: TinyState) -> dict[int, str]:
        """The deck's cards before its shuffle: public, in order (the local table reads them too)."""
        if state.queue and state.queue[0][0] == "shuffle":
            return dict(zip(state.deck, card_ids(len(state.deck))))
        return {}

    def pending(self, state: TinyState) -> Pending | None:
        if not state.queue:
            return None
        kind, seat = state.queue[0]
        if kind == "shuffle":
            return HiddenOp("shuffle", "deck", state.deck)
        if kind == "deal":
            return HiddenOp("deal", "deck", state.deck[:2], to_seat=seat)
        if kind == "guess":
            return SealedChoice(tuple(range(state.seats)), "tiny.guess", tuple(("high", "low") for _ in range(state.seats)))
        if kind == "roll":
            return Chance("tiny.roll", (6, 6))
        if kind == "play":
            return Decision(seat, "tiny.play")
        if kind == "reveal":
            return HiddenOp("reveal", "deck", state.deck[:1])
        if kind == "show":
            return HiddenOp("show_to", "hand:0", state.hands[0][:1], to_seat=1)
        return HiddenOp("show_to", "deck", state.deck[:1], to_seat=seat)

    def legal_actions(self, state: TinyState, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        pending = self.pending(state)
        if not isinstance(pending, Decision) or pending.seat != seat or knowledge is None:
            return []
        return [Play(seat, h, c) for h in state.hands[seat] if (c := knowledge.card(h)) is not None]

    def apply(self, state: TinyState, action: Action) -> TinyState:
        pending = self.pending(state)
        check_answer_matches(pending, action)
        kind, seat = state.queue[0]
        rest = state.queue[1:]
        answers = {"shuffle": CardsShuffled, "deal": CardsDealt, "guess": SealedChoicesRevealed, "roll": DiceRolled,
                   "play": Play, "reveal": CardsRevealed, "show": CardsShownTo, "peek": CardsShownTo}
        if not isinstance(action, answers[kind]):
            raise IllegalAction(f"{type(action).__name__} does not answer {kind}")
        if isinstance(action, CardsShuffled):
            fresh = tuple(range(state.next_handle, state.next_handle + len(state.deck)))
            return dataclasses.replace(state, deck=fresh, next_handle=state.next_handle + len(fresh), queue=rest)
        if isinstance(action, CardsDealt):
            hands = list(state.hands)
            hands[seat] = hands[seat] + state.deck[:2]
            return dataclasses.replace(state, deck=state.deck[2:], hands=tuple(hands), queue=rest)
        if isinstance(action, SealedChoicesRevealed):
            return dataclasses.replace(state, guesses=tuple(action.choices), queue=rest)
        if isinstance(action, DiceRolled):
            return dataclasses.replace(state, dice=action.faces, queue=rest)
        if isinstance(action, Play):
            if action.handle not in state.hands[seat]:
                raise IllegalAction(f"card {action.handle} is not in your hand", rule="tiny.play")
            if action.card not in card_ids(2 * state.seats + 4):
                raise IllegalAction(f"no card {action.card!r} in this game", rule="tiny.play")
            hands = list(state.hands)
            hands[seat] = tuple(h for h in hands[seat] if h != action.handle)
            played = list(state.played)
            played[seat] = action.card
            return dataclasses.replace(state, hands=tuple(hands), played=tuple(played), queue=rest)
        if isinstance(action, CardsRevealed):
            return dataclasses.replace(state, deck=state.deck[1:], revealed=state.revealed + action.cards, queue=rest)
        if isinstance(action, CardsShownTo):
            after = dataclasses.replace(state, queue=rest)
            return after if rest else dataclasses.replace(after, winner=self._winner(after))
        raise IllegalAction(f"{type(action).__name__} does not answer {kind}")

    def _winner(self, state: TinyState) -> int:
        totals = [sum(parts) for parts in score_parts(state)]
        return totals.index(max(totals))

    def public(self, state: TinyState) -> Any:
        return {"rules": RULES_ID, "queue": [list(q) for q in state.queue], "deck": list(state.deck),
                "hands": [list(h) for h in state.hands], "played": list(state.played),
                "guesses": list(state.guesses), "dice": list(state.dice), "revealed": list(state.revealed),
                "next_handle": state.next_handle, "winner": state.winner}

    def zone(self, state: TinyState, name: str) -> tuple[int, ...]:
        if name == "deck":
            return state.deck
        return state.hands[int(name.split(":")[1])]

    def outcome(self, state: TinyState) -> Outcome | None:
        return Outcome(state.winner, f"seat {state.winner} scored highest") if not state.queue else None

    def view(self, state: TinyState, seat: int, knowledge: Knowledge) -> Any:
        return self.public(state)


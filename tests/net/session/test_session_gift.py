"""A held card passed to another seat (a gift: Locke's entertainment district, a deal from ``kept:S``
to another seat), between peers: only the new holder and the giver know it, nobody else, and the
card revealed later is the one given.

The gift game is the smallest that asks for it: a public four-card deck is shuffled, seat 0 draws
one card into ``kept:0`` and decides to give it to seat 1 or to seat 2 (a ``deal`` of its held card
to that seat, as engine/locke/planet_cards.py asks), then the card is revealed to everyone.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from harness import NONCE, Table_, identities

from engine.core import (
    DRIVER_ANSWERS,
    Action,
    ActionCodec,
    CardsDealt,
    CardsRevealed,
    CardsShuffled,
    Decision,
    HiddenOp,
    IllegalAction,
    Knowledge,
    Outcome,
    Pending,
    check_answer_matches,
)
from net.bots.random_bot import RandomBot
from net.envelope import Genesis
from net.session import Session
from net.session.plan import TablePlan

DECK = ("ace", "two", "three", "four")


@dataclasses.dataclass(frozen=True)
class Give(Action):
    KIND = "gift.give"
    to: int


@dataclasses.dataclass(frozen=True)
class State:
    queue: tuple[str, ...]
    deck: tuple[int, ...]
    kept: tuple[tuple[int, int], ...]  # (seat, handle)
    revealed: tuple[tuple[int, str], ...]
    next_handle: int


class GiftGame:
    rules_id = "gift/test"
    codec = ActionCodec((Give, *DRIVER_ANSWERS))

    def initial_state(self) -> State:
        return State(("shuffle", "draw", "give", "pass", "reveal"), (0, 1, 2, 3), (), (), 4)

    def pending(self, s: State) -> Pending | None:
        if not s.queue:
            return None
        head = s.queue[0]
        if head == "shuffle":
            return HiddenOp("shuffle", "deck", s.deck)
        if head == "draw":
            return HiddenOp("deal", "deck", s.deck[:1], to_seat=0)
        if head == "give":
            return Decision(0, "gift.give")
        if head.startswith("pass:"):
            return HiddenOp("deal", "kept:0", (s.kept[0][1],), to_seat=int(head[5:]))
        return HiddenOp("reveal", f"kept:{s.kept[0][0]}", (s.kept[0][1],))

    def legal_actions(self, s: State, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        p = self.pending(s)
        return [Give(0, 1), Give(0, 2)] if isinstance(p, Decision) and seat == 0 else []

    def apply(self, s: State, action: Action) -> State:
        check_answer_matches(self.pending(s), action)
        head, rest = s.queue[0], s.queue[1:]
        if isinstance(action, CardsShuffled):
            fresh = tuple(range(s.next_handle, s.next_handle + len(s.deck)))
            return dataclasses.replace(s, deck=fresh, next_handle=s.next_handle + len(fresh), queue=rest)
        if isinstance(action, CardsDealt) and head == "draw":
            return dataclasses.replace(s, deck=s.deck[1:], kept=((0, s.deck[0]),), queue=rest)
        if isinstance(action, Give):
            if action.to not in (1, 2):
                raise IllegalAction("give the card to seat 1 or 2")
            return dataclasses.replace(s, queue=(f"pass:{action.to}", *rest[1:]))
        if isinstance(action, CardsDealt):
            return dataclasses.replace(s, kept=((int(head[5:]), s.kept[0][1]),), queue=rest)
        if isinstance(action, CardsRevealed):
            return dataclasses.replace(s, revealed=tuple(zip(action.handles, action.cards)), queue=rest)
        raise IllegalAction(f"{type(action).__name__} does not answer {head!r}")

    def open_cards(self, s: State) -> dict[int, str]:
        return dict(zip((0, 1, 2, 3), DECK))

    def public(self, s: State) -> Any:
        return dataclasses.asdict(s)

    def zone(self, s: State, name: str) -> tuple[int, ...]:
        if name == "deck":
            return s.deck
        return tuple(h for seat, h in s.kept if name == f"kept:{seat}")

    def outcome(self, s: State) -> Outcome | None:
        return None if s.queue else Outcome(None, "the gift is open")

    def view(self, s: State, seat: int, knowledge: Knowledge) -> Any:
        return self.public(s)


def test_a_card_given_to_another_seat_is_known_to_it_and_its_giver_only() -> None:
    game = GiftGame()
    ids = identities(3, tag="gift")
    genesis = Genesis(game.rules_id, "1", bytes(32), tuple(i.public_key for i in ids), {}, (NONCE,) * 3)
    sessions = [Session(genesis, game, game.initial_state(), plan=TablePlan(public_cards=game.open_cards),
                        identity=ids[s], seat=s, agent=RandomBot(random.Random(s))) for s in range(3)]
    table = Table_(sessions)
    table.start()
    table.run()
    # a public reveal adds to no seat's private knowledge: what each knows now is what it was dealt or given
    seen = {s.seat or 0: dict(s.knowledge.cards) for s in sessions}
    giver, *takers = sessions
    for s in sessions:
        assert s.finished and s.verdict == "ok", (s.seat, s.phase, s.halted)
    (handle, card), = giver.state.revealed
    to = giver.state.kept[0][0]
    other = 3 - to
    assert seen[to].get(handle) == card  # the new holder decrypted the card it was given
    assert seen[0].get(handle) == card  # the giver keeps what it knew, as at a real table
    assert handle not in seen[other]  # the third seat learned nothing before the reveal
    assert giver.book is not None and handle not in giver.book.held  # revealed: held by nobody now
    assert len({s.hashes[-1] for s in sessions}) == 1

"""net.local_table.LocalTable with a toy card game: every hidden-card answer.

The Rider tests (tests/engine/rider/test_rider_local_table.py) cover hot-seat
play, dice and determinism of whole games; here a five-card toy game drives
each HiddenOp kind once, so a wrong card, a leaked handle or a skipped
knowledge update shows directly.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

import pytest

from engine.core import (
    Action,
    ActionCodec,
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Decision,
    HiddenOp,
    Knowledge,
    Outcome,
    Pending,
    SealedChoice,
    SealedChoicesRevealed,
    check_answer_matches,
    hash_of,
)
from engine.core.inputs import SealedPick
from net.bots import RandomBot
from net.seam import InputRefused
from net.local_table import LocalTable, TableError

CARDS = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five"}


@dataclasses.dataclass(frozen=True)
class End(Action):
    KIND = "end"


@dataclasses.dataclass(frozen=True)
class State:
    phase: int = 0
    deck: tuple[int, ...] = (1, 2, 3, 4, 5)
    next_handle: int = 100
    hand0: tuple[int, ...] = ()
    revealed: tuple[str, ...] = ()


class ToyCards:
    """Shuffle the deck, deal two to seat 0, seat 0 shows one to seat 1,
    reveal the top of the deck, then seat 1 ends the game."""

    rules_id = "toy-cards/1"
    codec = ActionCodec([End, CardsShuffled, CardsDealt, CardsShownTo, CardsRevealed])
    shrink_on_shuffle = False
    with_legal_end = True

    def pending(self, s: State) -> Pending | None:
        return [
            HiddenOp("shuffle", "deck", s.deck),
            HiddenOp("deal", "deck", s.deck[:2], to_seat=0),
            HiddenOp("show_to", "hand:0", s.hand0[:1], to_seat=1),
            HiddenOp("reveal", "deck", s.deck[:1]),
            Decision(1, "toy.end"),
            None,
        ][s.phase]

    def legal_actions(self, s: State, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        return [End(1)] if s.phase == 4 and seat == 1 and self.with_legal_end else []

    def apply(self, s: State, action: Action) -> State:
        check_answer_matches(self.pending(s), action)
        nxt = dataclasses.replace(s, phase=s.phase + 1)
        if isinstance(action, CardsShuffled):
            size = len(s.deck) - (1 if self.shrink_on_shuffle else 0)
            fresh = tuple(range(s.next_handle, s.next_handle + size))
            return dataclasses.replace(nxt, deck=fresh, next_handle=s.next_handle + size)
        if isinstance(action, CardsDealt):
            return dataclasses.replace(nxt, hand0=s.deck[:2], deck=s.deck[2:])
        if isinstance(action, CardsRevealed):
            return dataclasses.replace(nxt, revealed=action.cards)
        return nxt

    def public(self, s: State) -> Any:
        return {"phase": s.phase, "deck": s.deck, "hand0": s.hand0, "revealed": s.revealed}

    def zone(self, s: State, name: str) -> tuple[int, ...]:
        return s.deck if name == "deck" else s.hand0

    def outcome(self, s: State) -> Outcome | None:
        return Outcome(None, "done") if s.phase == 5 else None

    def view(self, s: State, seat: int, knowledge: Knowledge) -> Any:
        return self.public(s)


def table(seed: int = 1, game: ToyCards | None = None, **kw: Any) -> LocalTable:
    return LocalTable(game or ToyCards(), State(), [Knowledge(0), Knowledge(1)],
                      [None, RandomBot(random.Random(0))], seed, truth=CARDS, **kw)


def test_every_hidden_operation_is_answered_from_the_truth() -> None:
    t = table()
    assert t.run() == Outcome(None, "done")
    shuffled, dealt, shown, revealed, end = t.log
    assert isinstance(shuffled, CardsShuffled) and isinstance(end, End)
    # the shuffle gave fresh handles; the table knows which card each one is
    fresh = tuple(range(100, 105))
    assert sorted(t.card(h) for h in fresh) == sorted(CARDS.values())
    # the deal told seat 0 exactly its two cards, and nobody else anything
    assert dealt == CardsDealt(-1, "deck", fresh[:2])
    assert dict(t.knowledge[0].cards) == {h: t.card(h) for h in fresh[:2]}
    # showing taught seat 1 exactly the one shown card
    assert shown == CardsShownTo(-1, "hand:0", fresh[:1])
    assert dict(t.knowledge[1].cards) == {fresh[0]: t.card(fresh[0])}
    # the reveal names the true card of the top handle
    assert revealed == CardsRevealed(-1, "deck", fresh[2:3], (t.card(fresh[2]),))
    assert t.state.revealed == (t.card(fresh[2]),)
    # a hash after every applied input, starting from the initial state's
    assert t.initial_hash == hash_of(t.game, State())
    assert len(t.hashes) == len(t.log) == 5 and t.hashes[-1] == hash_of(t.game, t.state)


def test_shuffle_order_comes_from_the_seed_only() -> None:
    def order(seed: int) -> tuple[str, ...]:
        t = table(seed)
        t.step()
        return tuple(t.card(h) for h in t.state.deck)

    assert order(3) == order(3)
    assert len({order(seed) for seed in range(8)}) > 1  # the seed matters


def test_hashes_can_be_switched_off() -> None:
    t = table(record_hashes=False)
    t.run()
    assert t.hashes == [] and t.initial_hash == b"" and len(t.log) == 5


def test_unknown_handle_is_a_table_error_unless_the_game_says_it_is_open() -> None:
    t = LocalTable(ToyCards(), State(), [Knowledge(0), Knowledge(1)], [None, None], 1,
                   truth={1: "ace"})
    with pytest.raises(TableError, match="does not know card handle 2"):
        t.step()

    class OpenDeck(ToyCards):
        def open_cards(self, s: State) -> Mapping[int, str]:
            return CARDS

    t = LocalTable(OpenDeck(), State(), [Knowledge(0), Knowledge(1)], [None, RandomBot(random.Random(0))], 1)
    assert t.run() == Outcome(None, "done")


def test_a_zone_that_changes_size_during_its_shuffle_is_refused() -> None:
    game = ToyCards()
    game.shrink_on_shuffle = True
    with pytest.raises(TableError, match="changed size"):
        table(game=game).step()


def test_decision_with_no_legal_action_and_endless_games_are_table_errors() -> None:
    game = ToyCards()
    game.with_legal_end = False
    t = table(game=game)
    with pytest.raises(TableError, match="no legal action at toy.end"):
        t.run()
    with pytest.raises(TableError, match="no end after 2 steps"):
        table().run(max_steps=2)


def test_sealed_pick_outside_a_sealed_choice_is_refused() -> None:
    t = table()
    with pytest.raises(InputRefused, match="no such sealed choice") as refused:
        t.submit(0, SealedPick(0, "toy.rps", "A"))
    assert refused.value.seat == 0 and t.log == []


def test_the_human_seat_is_waited_for_and_its_action_applied() -> None:
    t = LocalTable(ToyCards(), State(), [Knowledge(0), Knowledge(1)], [None, None], 1, truth=CARDS)
    assert t.run() is None and t.waiting_for() == (1,)
    assert t.step() is None and len(t.log) == 4
    t.feed(t.legal(1)[0])
    assert t.outcome() == Outcome(None, "done") and t.waiting_for() == ()


@dataclasses.dataclass(frozen=True)
class Picks:
    rounds: tuple[tuple[Any, ...], ...] = ()


class TwoSealedRounds:
    """Two sealed choices in a row (like a tied rock-paper-scissors replayed)."""

    rules_id = "toy-sealed/1"
    codec = ActionCodec([SealedChoicesRevealed])

    def pending(self, s: Picks) -> Pending | None:
        if len(s.rounds) == 2:
            return None
        return SealedChoice((0, 1), f"round{len(s.rounds)}", (("r", "p"), ("r", "p")))

    def legal_actions(self, s: Picks, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        return []

    def apply(self, s: Picks, action: Action) -> Picks:
        check_answer_matches(self.pending(s), action)
        assert isinstance(action, SealedChoicesRevealed)
        return Picks((*s.rounds, action.choices))

    def public(self, s: Picks) -> Any:
        return {"rounds": s.rounds}

    def zone(self, s: Picks, name: str) -> tuple[int, ...]:
        return ()

    def outcome(self, s: Picks) -> Outcome | None:
        return Outcome(None, "done") if len(s.rounds) == 2 else None

    def view(self, s: Picks, seat: int, knowledge: Knowledge) -> Any:
        return self.public(s)


def test_each_sealed_choice_asks_every_seat_afresh() -> None:
    t = LocalTable(TwoSealedRounds(), Picks(), [Knowledge(0), Knowledge(1)],
                   [None, RandomBot(random.Random(0))], 1)
    assert t.run() is None and t.waiting_for() == (0,)
    t.submit(0, next(p for p in t.legal(0) if isinstance(p, SealedPick) and p.choice == "p"))
    assert t.run() is None and t.waiting_for() == (0,)  # round 2: the human picks again
    assert t.state.rounds[0][0] == "p" and len(t.state.rounds) == 1
    t.submit(0, next(p for p in t.legal(0) if isinstance(p, SealedPick) and p.choice == "r"))
    assert t.run() == Outcome(None, "done")
    assert [r[0] for r in t.state.rounds] == ["p", "r"]

"""Property tests: random legal playouts end without errors and replay to the
same hashes; every illegal input raises a typed error and changes nothing."""

from __future__ import annotations

import pytest

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rider_helpers import deck_list, random_deck, synthetic_game

import assets
from engine.core import (
    SYSTEM,
    Action,
    CardsDealt,
    CardsRevealed,
    CardsShuffled,
    Decision,
    EngineError,
    HiddenOp,
    hash_of,
)
from engine.rider.actions import (
    CODEC,
    Attack,
    Discard,
    EndAttacks,
    LevelUp,
    OpenColumn,
    Pass,
    Renew,
    SetUp,
)
from engine.rider.cards import cardset_from_data
from engine.rider.deck import deck_from_data, expand
from engine.rider.game import TURN_LIMIT, RiderGame
from net.bots import GreedyBot, RandomBot
from net.games.rider.evaluation import rider_score
from net.local_table import LocalTable

_SHIPPED = RiderGame(cardset_from_data(assets.load_json("rider/cardset.json")))
_DECKS = [expand(deck_from_data(assets.load_json(f"rider/decks/{n}.deck.json"))[2]) for n in ("ember-rush", "tidewall-vigil")]


def _table(seed: int, shipped: bool, greedy: bool = False, random_decks: bool = False) -> LocalTable:
    game = _SHIPPED if shipped else synthetic_game()
    decks = _DECKS if shipped else [deck_list(), deck_list()]
    if random_decks:  # every card type of the set shows up in random play
        rng = random.Random(seed)
        decks = [random_deck(game.cardset, rng), random_deck(game.cardset, rng)]
    state, knowledge = game.new_game(decks)
    first = GreedyBot(random.Random(seed), rider_score) if greedy else RandomBot(random.Random(seed))
    return LocalTable(game, state, knowledge, [first, RandomBot(random.Random(seed + 1))], seed)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), shipped=st.booleans(), random_decks=st.booleans())
def test_random_playouts_end_and_replay_to_the_same_hashes(seed: int, shipped: bool, random_decks: bool) -> None:
    table = _table(seed, shipped, random_decks=random_decks)
    start = table.state
    outcome = table.run(max_steps=20_000)
    assert outcome is not None and table.state.turn <= TURN_LIMIT
    game = table.game
    state = start
    for action, expected in zip(table.log, table.hashes, strict=True):
        # through the canonical codec, as a log file or the network would carry it
        state = game.apply(state, CODEC.decode(action.to_data()))
        assert hash_of(game, state) == expected
    assert state == table.state


def _candidates(rng: random.Random, table: LocalTable, seat: int) -> list[Action]:
    """Random (mostly illegal) inputs with truthful card claims for hand handles."""
    state = table.state
    game = table.game
    ids = sorted(game.table)  # type: ignore[attr-defined]
    hand = list(state.players[seat].hand)
    pool = hand + [rng.randrange(0, state.next_handle + 3)]
    letters = ["A", "B", "C", "D"]

    def hc() -> tuple[int, str]:
        h = rng.choice(pool)
        return h, (table.card(h) if h in hand else rng.choice(ids))

    out: list[Action] = []
    for _ in range(12):
        h, c = hc()
        kind = rng.randrange(7)
        if kind == 0:
            target = rng.choice(["", "", "A", "B", "C", rng.choice(ids)])
            out.append(LevelUp(seat, rng.choice(letters), h, c, rng.randrange(0, 6), (target,) * rng.randrange(0, 3)))
        elif kind == 1:
            out.append(Renew(seat, rng.choice(letters), h, c))
        elif kind == 2:
            out.append(OpenColumn(seat, rng.choice(letters), h, c))
        elif kind == 3:
            out.append(Pass(seat, h, c) if rng.random() < 0.7 else Pass(seat, None, None))
        elif kind == 4:
            out.append(Attack(seat, rng.choice(letters), rng.choice(letters)))
        elif kind == 5:
            out.append(Discard(seat, h, c))
        else:
            out.append(EndAttacks(rng.choice([seat, 1 - seat])))
    return out


def _driver_candidates(pending: HiddenOp) -> list[Action]:
    other = "deck:1" if pending.zone != "deck:1" else "deck:0"
    return [
        CardsShuffled(SYSTEM, other),
        CardsDealt(SYSTEM, pending.zone, pending.handles + (10_000,)),
        CardsDealt(SYSTEM, other, pending.handles),
        CardsRevealed(SYSTEM, pending.zone, pending.handles, ()),
    ]


@pytest.mark.slow
@settings(max_examples=20)
@given(seed=st.integers(0, 2**32 - 1), shipped=st.booleans(), random_decks=st.booleans())
def test_illegal_inputs_raise_typed_errors_and_change_nothing(seed: int, shipped: bool, random_decks: bool) -> None:
    table = _table(seed, shipped, random_decks=random_decks)
    rng = random.Random(seed)
    game = table.game
    for _ in range(400):
        pending = table.pending
        if pending is None:
            break
        state = table.state
        before = hash_of(game, state)
        if isinstance(pending, Decision):
            legal = set(game.legal_actions(state, pending.seat, table.knowledge[pending.seat]))
            assert legal, "a decision always has a legal action"
            for action in _candidates(rng, table, pending.seat):
                try:
                    game.apply(state, action)
                except EngineError:
                    assert action not in legal, action
                else:
                    # The engine cannot see hidden hands: a pass while another hidden card
                    # was playable is only caught by the audit (rider.14).
                    assert action in legal or (isinstance(action, (Pass, SetUp)) and not any(
                        isinstance(x, Pass) for x in legal)), action
                assert hash_of(game, state) == before
            for action in list(legal)[:20]:
                game.apply(state, action)  # every listed action is accepted
        elif isinstance(pending, HiddenOp) and pending.op != "shuffle":
            for action in _driver_candidates(pending):
                try:
                    game.apply(state, action)
                except EngineError:
                    pass
                else:
                    raise AssertionError(f"accepted a wrong answer {action}")
                assert hash_of(game, state) == before
        table.step()


@settings(max_examples=5)
@given(seed=st.integers(0, 2**32 - 1))
def test_greedy_playouts_end(seed: int) -> None:
    table = _table(seed, True, greedy=True)
    assert table.run(max_steps=20_000) is not None

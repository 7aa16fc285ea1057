"""Placement, claims, notes and a graded multi-winner outcome end to end on a LocalTable (treasure_game)."""

from __future__ import annotations

import random

import pytest
from treasure_game import ALLY, CELLS, HIDER, RIVAL, THINGS, Declare, Dig, TreasureGame

from engine.core import (
    EMPTY,
    SYSTEM,
    CardsRevealed,
    CellsOpened,
    Claim,
    Decision,
    FalseClaim,
    HiddenOp,
    IllegalAction,
    Placement,
    decode,
    encode,
    false_claims,
    hash_of,
)
from engine.core.inputs import PlacementPick
from net.bots import RandomBot
from net.seam import InputRefused, place_all
from net.local_table import LocalTable

GAME = TreasureGame()


def table(seed: int, humans: tuple[int, ...] = ()) -> LocalTable:
    state, knowledge, truth = GAME.new_game()
    agents = [None if s in humans else RandomBot(random.Random(seed * 7 + s)) for s in range(3)]
    return LocalTable(GAME, state, knowledge, agents, seed, truth=truth)


def run_to_placement_made(t: LocalTable) -> None:
    while not t.game.zone(t.state, "treasure"):
        assert t.step() is not None


@pytest.mark.parametrize("seed", range(40))
def test_random_games_end_judged_and_replay_to_the_same_hashes(seed: int) -> None:
    t = table(seed)
    out = t.run()
    assert out is not None and len(out.seats) == 3
    finder = t.state.finder
    expected = {None: (HIDER,), ALLY: (HIDER, ALLY), RIVAL: (RIVAL,)}[finder]
    assert out.winners == expected
    for r in out.seats:  # KMC 6 grades: dead = knocked out by a trap
        assert r.grade == ("A" if r.won else "C") if r.seat not in t.state.out else r.grade == ("B" if r.won else "D")
    # the log alone (it holds no placement secret) replays to the same hashes
    state, _, _ = GAME.new_game()
    for action, expected_hash in zip(t.log, t.hashes):
        state = GAME.apply(state, GAME.codec.decode(decode(encode(action))))
        assert hash_of(GAME, state) == expected_hash
    assert GAME.outcome(state) == out


@pytest.mark.parametrize("seed", range(40))
def test_the_public_state_never_holds_what_lies_under_an_unopened_cell(seed: int) -> None:
    t = table(seed)
    while t.pending is not None:
        public = encode(GAME.public(t.state)) + encode(t.log[-1] if t.log else None)
        opened = [content for _, content in t.state.opened]
        for thing in set(THINGS):
            assert (thing.encode() in public) == (thing in opened), (thing, opened)
        t.step()


def test_the_placer_and_the_ally_know_the_map_the_rival_does_not() -> None:
    t = table(3)
    run_to_placement_made(t)
    handles = GAME.zone(t.state, "treasure")
    assert len(handles) == len(CELLS)
    placed = t.knowledge[HIDER].notes_on("placed:treasure")[0].data
    assert sorted(thing for _, thing in placed) == sorted(THINGS)
    assert [t.knowledge[HIDER].card(h) for h in handles].count(EMPTY) == len(CELLS) - len(THINGS)
    assert not any(t.knowledge[ALLY].knows(h) for h in handles)  # not yet disclosed
    t.step()  # the disclosure
    told = t.knowledge[ALLY].notes_on("disclosed:treasure")[0]
    assert told.step == len(t.log) - 1
    assert dict(told.data) == {c: t.knowledge[HIDER].card(h) for c, h in zip(CELLS, handles)}
    assert all(t.knowledge[ALLY].card(h) == t.knowledge[HIDER].card(h) for h in handles)
    assert not any(t.knowledge[RIVAL].knows(h) for h in handles) and t.knowledge[RIVAL].notes == ()


def test_an_opened_cell_proves_something_or_nothing() -> None:
    t = table(5)
    while t.pending is not None:
        t.step()
    truth = {c: t.card(h) for c, h in t.state.cells}
    assert t.state.opened and all(truth[c] == content for c, content in t.state.opened)


def test_a_human_places_through_the_seam_and_bad_arrangements_are_refused() -> None:
    t = table(1, humans=(HIDER,))
    t.run()
    assert t.waiting_for() == (HIDER,) and isinstance(t.pending, Placement)
    assert {p.cell for p in t.legal(HIDER)} == set(CELLS) and t.legal(ALLY) == []
    assert all(isinstance(p, PlacementPick) and p.thing == THINGS[0] for p in t.legal(HIDER))
    before = t.log[-1:]
    with pytest.raises(InputRefused, match="exactly these things"):
        place_all(t, HIDER, {"a1": "gold", "a2": "trap"})
    with pytest.raises(InputRefused, match="not among the cells"):
        place_all(t, HIDER, {"a1": "gold", "a2": "trap", "z9": "trap"})
    with pytest.raises(InputRefused, match="no placement"):
        place_all(t, ALLY, {"a1": "gold", "a2": "trap", "a3": "trap"})
    with pytest.raises(InputRefused, match="no such placement"):
        t.submit(HIDER, PlacementPick(HIDER, t.pending.zone, "gold", "z9"))  # type: ignore[union-attr]
    assert t.legal(HIDER)[0].thing == THINGS[0] and t.log[-1:] == before  # type: ignore[union-attr]
    place_all(t, HIDER, {"b2": "gold", "c1": "trap", "a3": "trap"})
    handle = dict(t.state.cells)
    assert t.card(handle["b2"]) == "gold" and t.card(handle["a1"]) == EMPTY
    assert t.run() is not None


def _to_turn_of(seat: int, seed: int) -> LocalTable:
    t = table(seed, humans=(ALLY, RIVAL))
    t.run()
    assert t.waiting_for() == (ALLY,)  # diggers start with seat 1
    if seat == RIVAL:
        empty = next(c for c, h in t.state.cells if t.card(h) == EMPTY)
        t.feed(Dig(ALLY, empty))
        t.run()
        assert t.waiting_for() == (RIVAL,)
    return t


@pytest.mark.parametrize("seat", [ALLY, RIVAL])
def test_a_true_claim_is_accepted_logged_and_judged_at_once(seat: int) -> None:
    t = _to_turn_of(seat, 2)
    hand = dict(t.state.hands)[seat]
    offered = [a for a in t.legal(seat) if isinstance(a, Declare)]
    assert offered == [Declare(seat, t.card(hand))]  # legal actions offer only the truth
    step = len(t.log)
    t.feed(offered[0])
    assert t.claims_judged == [Claim(seat, step, "treasure.suit", (hand,), t.card(hand), "treasure.declare")]
    assert GAME.claims(t.state) == tuple(t.claims_judged)


@pytest.mark.parametrize("seat", [ALLY, RIVAL])
def test_a_false_claim_is_caught_at_once_naming_seat_and_step(seat: int) -> None:
    t = _to_turn_of(seat, 4)
    true_suit = t.card(dict(t.state.hands)[seat])
    lie = "spade" if true_suit == "heart" else "heart"
    before, log_length = t.state, len(t.log)
    with pytest.raises(FalseClaim) as caught:
        t.feed(Declare(seat, lie))
    assert caught.value.seat == seat and caught.value.step == log_length
    assert caught.value.rule == "treasure.declare" and f"seat {seat}" in str(caught.value)
    assert t.state is before and len(t.log) == log_length and t.claims_judged == []  # nothing changed
    t.feed(Declare(seat, true_suit))  # the truth still may be told
    assert len(t.claims_judged) == 1


def test_a_claim_the_public_record_contradicts_is_refused_by_the_engine() -> None:
    t = _to_turn_of(ALLY, 6)
    with pytest.raises(IllegalAction, match="not a suit"):
        t.feed(Declare(ALLY, "club"))


def test_without_a_trusted_table_the_same_judgement_catches_the_lie_at_the_end() -> None:
    """A networked table cannot see the card when the claim is made: the engine accepts it and
    the end-of-game audit judges it with engine.core.false_claims once the hands are open."""
    t = _to_turn_of(ALLY, 8)
    hand = dict(t.state.hands)[ALLY]
    lie = "spade" if t.card(hand) == "heart" else "heart"
    step = len(t.log)
    state = GAME.apply(t.state, Declare(ALLY, lie))  # the engine alone: consistent with the public record
    while (pending := GAME.pending(state)) is not None:  # play on, answering from the truth
        if isinstance(pending, Decision):
            cell = next(c for c in CELLS if c not in dict(state.opened))
            state = GAME.apply(state, Dig(pending.seat, cell))
        elif isinstance(pending, Placement):
            state = GAME.apply(state, CellsOpened(SYSTEM, pending.zone, pending.handles,
                                                  tuple(t.card(h) for h in pending.handles)))
        else:
            assert isinstance(pending, HiddenOp) and pending.op == "reveal"
            state = GAME.apply(state, CardsRevealed(SYSTEM, pending.zone, pending.handles,
                                                    tuple(t.card(h) for h in pending.handles)))
    assert false_claims(GAME.claims(state), {}.get, GAME.claim_holds) == ()  # nothing opened: nothing judged
    found = false_claims(GAME.claims(state), dict(state.revealed).get, GAME.claim_holds)
    assert [(f.seat, f.step) for f in found] == [(ALLY, step)]


def test_a_greedy_bot_places_without_a_scorer_because_picks_are_no_engine_input() -> None:
    from net.bots import GreedyBot

    t = table(2, humans=(HIDER,))
    t.run()
    picks = t.legal(HIDER)
    chosen = GreedyBot(random.Random(1), lambda game, state, seat: 1 // 0).choose(GAME, t.state, HIDER, t.knowledge[HIDER], picks)
    assert chosen in picks  # picks are never scored: a scored pick would raise ZeroDivisionError

"""Game flow: set-up (rider.0), first player (rider.1), draws (rider.2), the
win (rider.9) and the turn limit (rider.10). Rule ids: docs/rules/rider.md."""

from __future__ import annotations

import pytest
from rider_helpers import Pos, col, deck_list, seat, synthetic_game

from engine.core import (
    SYSTEM,
    CardsDealt,
    CardsRevealed,
    CardsShuffled,
    CheatDetected,
    Decision,
    DeckError,
    GameOver,
    HiddenOp,
    IllegalAction,
    SealedChoice,
    SealedChoicesRevealed,
    hash_of,
)
from engine.rider.actions import Attack, EndAttacks, LevelUp, Pass, SetUp
from engine.rider.game import TURN_LIMIT, RiderGame
from engine.rider.state import RiderState
from net.local_table import LocalTable


def _lv1_handles(game: RiderGame, state: RiderState, knowledge: object, seat: int) -> tuple[int, ...]:
    return tuple(h for h in state.players[seat].deck if game.table[knowledge.card(h)].lv1)  # type: ignore[attr-defined]


def _set_up(marks: tuple[str, str] = ("F1", "T1")) -> tuple[RiderGame, LocalTable]:
    """Both seats set up with the given card in column A; stops at the battle-mark choice."""
    game = synthetic_game()
    state, knowledge = game.new_game([deck_list(), deck_list()])
    table = LocalTable(game, state, knowledge, [None, None], seed=3)
    for s in (0, 1):
        handles = _lv1_handles(game, table.state, knowledge[s], s)
        first = next(h for h in handles if knowledge[s].card(h) == marks[s])
        others = [h for h in handles if h != first][:2]
        table.feed(SetUp(s, (first, *others)))
    table.run()
    return game, table


def test_rule_0_setup_three_facedown_lv1_shuffle_and_deal_five() -> None:
    game, table = _set_up()
    state = table.state
    assert isinstance(game.pending(state), SealedChoice)
    for s in (0, 1):
        p = state.players[s]
        assert all(c.facedown is not None and not c.cards for c in p.columns)
        assert len(p.hand) == 5 and len(p.deck) == 24 - 3 - 5
        # the seat knows its hand (dealt privately) but not its shuffled deck
        assert all(table.knowledge[s].knows(h) for h in p.hand)
        assert not any(table.knowledge[s].knows(h) for h in p.deck)
    # the opponent learns nothing about the other hand
    assert not any(table.knowledge[1].knows(h) for h in state.players[0].hand)
    kinds = [a.KIND for a in table.log]
    assert kinds == ["rider.setup", "rider.setup", "cards_shuffled", "cards_shuffled", "cards_dealt", "cards_dealt"]


def test_rule_0_setup_rejects_foreign_or_repeated_handles() -> None:
    game = synthetic_game()
    state, knowledge = game.new_game([deck_list(), deck_list()])
    own = state.players[0].deck
    foreign = state.players[1].deck[0]
    for handles in [(own[0], own[0], own[1]), (own[0], own[1], foreign), (own[0], own[1])]:
        with pytest.raises(IllegalAction) as err:
            game.apply(state, SetUp(0, handles))
        assert err.value.rule == "rider.0"
    assert len(game.legal_actions(state, 0, knowledge[0])) == 24  # 4 Lv.1 cards, ordered triples


def test_rule_0_new_game_checks_decks() -> None:
    game = synthetic_game()
    with pytest.raises(DeckError):
        game.new_game([deck_list()[:-1], deck_list()])
    with pytest.raises(DeckError):
        game.new_game([deck_list(), ("nope",) * 24])


def test_rule_0_facedown_card_that_is_not_lv1_is_cheating() -> None:
    game = synthetic_game()
    state, knowledge = game.new_game([deck_list(), deck_list()])
    table = LocalTable(game, state, knowledge, [None, None], seed=1)
    deck0 = state.players[0].deck
    table.feed(SetUp(0, (deck0[-1], deck0[-2], deck0[-3])))  # not Lv.1 cards: hidden for now
    lv1 = _lv1_handles(game, table.state, knowledge[1], 1)
    table.feed(SetUp(1, lv1[:3]))
    table.run()
    table.state = game.apply(table.state, SealedChoicesRevealed(SYSTEM, "rider.battle_mark", ("A", "A")))
    pending = game.pending(table.state)
    assert isinstance(pending, HiddenOp) and pending.op == "reveal"
    before = hash_of(game, table.state)
    with pytest.raises(CheatDetected) as err:
        game.apply(table.state, CardsRevealed(SYSTEM, pending.zone, pending.handles, (table.truth[pending.handles[0]],)))
    assert err.value.seat == 0 and err.value.rule == "rider.0"
    assert hash_of(game, table.state) == before


@pytest.mark.parametrize(
    ("marks", "first"),
    [(("F1", "T1"), 0), (("T1", "F1"), 1), (("S1", "F1"), 0), (("T1", "S1"), 0), (("S1", "T1"), 1)],
)
def test_ruling_1_battle_marks_decide_first_player(marks: tuple[str, str], first: int) -> None:
    # F1 sword (scissors), T1 feather (paper), S1 rock (rock)
    game, table = _set_up(marks)
    table.feed(SealedChoicesRevealed(SYSTEM, "rider.battle_mark", ("A", "A")))
    table.run()
    state = table.state
    assert state.active == first and state.turn == 1
    assert game.pending(state) == Decision(first, "rider.main")
    for s in (0, 1):  # the flipped cards stay face up
        assert state.players[s].columns[0].cards == ((marks[s], 1),)
    # rider.2: the first player drew on the first turn
    assert len(state.players[first].hand) == 6 and len(state.players[1 - first].hand) == 5


def test_ruling_1_tied_marks_go_to_plain_rock_paper_scissors_until_a_winner() -> None:
    game, table = _set_up(("F1", "F1"))
    table.feed(SealedChoicesRevealed(SYSTEM, "rider.battle_mark", ("A", "A")))
    table.run()
    pending = game.pending(table.state)
    assert isinstance(pending, SealedChoice) and pending.purpose == "rider.rps"
    table.feed(SealedChoicesRevealed(SYSTEM, "rider.rps", ("rock", "rock")))
    assert game.pending(table.state) == pending  # tie again: choose again
    with pytest.raises(IllegalAction):
        game.apply(table.state, SealedChoicesRevealed(SYSTEM, "rider.rps", ("rock", "lizard")))
    table.feed(SealedChoicesRevealed(SYSTEM, "rider.rps", ("rock", "paper")))
    table.run()
    assert table.state.active == 1 and table.state.turn == 1


def test_ruling_2_draw_starts_every_turn() -> None:
    pos = Pos(seat(hand=("X2",), deck=("T2",)), seat(deck=("F2", "F3")), phase="attack")
    # seat 0 cannot attack, so its turn ends and seat 1's turn starts with a draw
    assert pos.state.active == 1 and pos.state.turn == 2 and pos.hand_cards(1) == ["F2"]


def test_ruling_2_empty_deck_reshuffles_discard_with_a_real_shuffle() -> None:
    pos = Pos(seat(), seat(deck=(), discard=("F2", "F3", "T2")), phase="attack", auto=False)
    game = pos.game
    state = pos.state  # seat 0 has no attack: its turn ended, seat 1 must draw
    pending = game.pending(state)
    assert isinstance(pending, HiddenOp) and pending.op == "shuffle" and pending.zone == "deck:1"
    assert state.players[1].discard == () and len(pending.handles) == 3
    assert sorted(game.open_cards(state)[h] for h in pending.handles) == ["F2", "F3", "T2"]
    after = game.apply(state, CardsShuffled(SYSTEM, "deck:1"))
    assert not set(after.players[1].deck) & set(pending.handles)  # fresh handles
    assert game.open_cards(after) == {}  # nobody knows the new order
    deal = game.pending(after)
    assert isinstance(deal, HiddenOp) and deal.op == "deal" and deal.handles == after.players[1].deck[:1]
    drawn = game.apply(after, CardsDealt(SYSTEM, "deck:1", deal.handles))
    assert len(drawn.players[1].hand) == 1 and len(drawn.players[1].deck) == 2


def test_ruling_2_no_draw_when_deck_and_discard_are_empty() -> None:
    pos = Pos(seat(), seat(hand=("X2",)), phase="attack")
    assert pos.state.active == 1 and pos.game.pending(pos.state) == Decision(1, "rider.main")
    assert pos.hand_cards(1) == ["X2"]


def test_ruling_9_third_lost_lv1_wins_at_once() -> None:
    pos = Pos(
        seat([col("F1", "F2", "F3", "F4"), col("T1"), col("S1")]),
        seat([col("T1"), col("S1"), col("X1")], lost=("F1", "T1")),
        phase="attack",
    )
    pos.do(Attack(0, "A", "A"))
    outcome = pos.game.outcome(pos.state)
    assert outcome is not None and outcome.winner == 0 and "rider.9" in outcome.reason
    assert pos.game.pending(pos.state) is None and pos.game.legal_actions(pos.state, 0) == []
    with pytest.raises(GameOver):
        pos.game.apply(pos.state, EndAttacks(0))


def test_ruling_10_turn_limit_is_a_draw() -> None:
    pos = Pos(seat(), seat(), phase="attack", turn=TURN_LIMIT)
    outcome = pos.game.outcome(pos.state)
    assert outcome is not None and outcome.winner is None and "rider.10" in outcome.reason
    assert pos.state.turn == TURN_LIMIT
    earlier = Pos(seat(), seat(), phase="attack", turn=TURN_LIMIT - 1)
    assert earlier.game.outcome(earlier.state) is None and earlier.state.turn == TURN_LIMIT


def test_decision_from_wrong_seat_or_wrong_kind_is_rejected() -> None:
    pos = Pos(seat(hand=("X2",)), seat())
    before = pos.hash
    with pytest.raises(IllegalAction):
        pos.game.apply(pos.state, Pass(1, None, None))
    with pytest.raises(IllegalAction):
        pos.game.apply(pos.state, EndAttacks(0))
    with pytest.raises(IllegalAction):
        pos.game.apply(pos.state, CardsDealt(SYSTEM, "deck:0", ()))
    assert pos.hash == before
    # a legal level up does go through
    pos.do(LevelUp(0, "C", pos.hand(0, "X2"), "X2", 2, ()))
    assert pos.column(0, "C").cards == (("S1", 1), ("X2", 2))


def test_rule_0_public_state_holds_no_hidden_card_ids() -> None:
    game = synthetic_game()
    decks = [deck_list(), deck_list()]
    state, knowledge = game.new_game(decks)
    assert game.initial_state(decks) == state == game.initial_state([24, 24])
    table = LocalTable(game, state, knowledge, [None, None], seed=5)
    for s in (0, 1):
        table.feed(game.legal_actions(table.state, s, table.knowledge[s])[0])
    table.run()  # shuffled and dealt: hands, decks and face-down cards are all hidden
    from engine.core import encode

    public = encode(game.public(table.state))
    for cid in set(deck_list()):
        assert f"{len(cid)}:{cid}".encode() not in public
    view = game.view(table.state, 0, table.knowledge[0])
    assert all(card is not None for _, card in view["hand_cards"])
    assert all(card is not None for card in view["facedown_cards"])
    assert game.view(table.state, 1, table.knowledge[1])["hand_cards"] != view["hand_cards"]


def test_ruling_23_public_state_does_not_depend_on_the_private_deck_order() -> None:
    game = synthetic_game()
    deck = deck_list()
    state_a, knowledge_a = game.new_game([deck, deck])
    state_b, knowledge_b = game.new_game([deck[::-1], deck])
    assert hash_of(game, state_a) == hash_of(game, state_b)
    first = state_a.players[0].deck[0]
    assert knowledge_a[0].card(first) == deck[0] and knowledge_b[0].card(first) == deck[-1]
    assert not knowledge_a[1].knows(first)  # the other seat knows nothing of it


def test_position_builder_rejects_impossible_columns() -> None:
    from engine.rider.position import PositionError, position_state

    game = synthetic_game()
    for column in ({"cards": ["F2"]}, {"cards": ["F1", ["F4", 2]]}, {"cards": ["F1", "F3", ["F2", 2]]},
                   {"cards": ["F1"], "facedown": "T1"}, {"zero": "F1"}, {"bogus": 1}):
        data = {"seats": [{"columns": [column, {}, {}]}, {}]}
        with pytest.raises(PositionError):
            position_state(game, data)


def test_ruling_1_position_can_start_at_the_battle_mark_contest() -> None:
    from engine.rider.position import PositionError, position_state

    game = synthetic_game()
    seats = [{"columns": [{"facedown": "F1"}, {"facedown": "S1"}, {"cards": ["T1"]}], "deck": ["X2"]},
             {"columns": [{"facedown": "F1b"}, {"facedown": "X1"}, {}], "deck": ["X2"]}]
    state, knowledge, truth = position_state(game, {"phase": "battle_mark", "seats": seats})
    assert game.pending(state) == SealedChoice((0, 1), "rider.battle_mark", (("A", "B"), ("A", "B")))
    assert state.turn == 0
    # sword (F1) beats feather (F1b): seat 0 takes turn 1
    table = LocalTable(game, state, knowledge, [None, None], seed=0, truth=truth)
    table.feed(SealedChoicesRevealed(SYSTEM, "rider.battle_mark", ("A", "A")))
    table.run()
    assert table.state.turn == 1 and table.state.active == 0
    no_facedown = [seats[0], {"columns": [{"cards": ["T1"]}, {}, {}]}]
    for data in ({"phase": "battle_mark", "seats": no_facedown}, {"phase": "battle_mark", "turn": 3, "seats": seats}):
        with pytest.raises(PositionError):
            position_state(game, data)


def test_rule_0_the_second_seat_sees_its_setups_while_the_first_places() -> None:
    """upcoming_setups: what seat 1 will be offered, known while seat 0 still places (its deck
    alone decides), so a person can arrange early; nothing for the seat that places now or has placed."""
    game = synthetic_game()
    state, knowledge = game.new_game([deck_list(), deck_list()])
    early = game.upcoming_setups(state, 1, knowledge[1])
    assert len(early) == 24 and game.legal_actions(state, 1, knowledge[1]) == []
    assert game.upcoming_setups(state, 0, knowledge[0]) == []  # its turn: legal_actions says
    placed = game.apply(state, game.legal_actions(state, 0, knowledge[0])[5])
    assert game.legal_actions(placed, 1, knowledge[1]) == early  # exactly what was shown early
    assert game.upcoming_setups(placed, 1, knowledge[1]) == []
    after = game.apply(placed, early[0])
    assert game.upcoming_setups(after, 0, knowledge[0]) == game.upcoming_setups(after, 1, knowledge[1]) == []

"""Every effect type and special placement of docs/rider-cardset-format.md,
with target rules rider.13 and rider.18-20, 24. Rule ids: docs/rules/rider.md."""

from __future__ import annotations

import pytest
from rider_helpers import Pos, col, deck_list, down, empty, seat, synthetic_game

from engine.core import (
    SYSTEM,
    CardsShownTo,
    CheatDetected,
    Decision,
    DeckError,
    HiddenOp,
    IllegalAction,
    NotYourTurn,
)
from engine.rider.actions import Attack, Discard, LevelUp
from engine.rider.rules import column_power
from engine.rider.state import Column


def _rejects(pos: Pos, action: LevelUp, rule: str) -> None:
    before = pos.hash
    with pytest.raises(IllegalAction) as err:
        pos.game.apply(pos.state, action)
    assert err.value.rule == rule, str(err.value)
    assert pos.hash == before


def _up(pos: Pos, card: str, column: str = "A", level: int = 2, targets: tuple[str, ...] = ("",)) -> LevelUp:
    return LevelUp(0, column, pos.hand(0, card), card, level, targets)


def test_effect_draw_draws_count_cards_reshuffling_when_needed() -> None:
    pos = Pos(seat(hand=("E-draw",), deck=("T2",), discard=("T3", "T4")), seat(deck=("X2",)))
    pos.do(_up(pos, "E-draw"))
    hand = sorted(pos.hand_cards(0))
    assert len(hand) == 2 and "T2" in hand and set(hand) <= {"T2", "T3", "T4"}
    assert len(pos.state.players[0].deck) == 1 and pos.state.players[0].discard == ()
    kinds = [a.KIND for a in pos.table.log]
    assert kinds[:4] == ["rider.level_up", "cards_dealt", "cards_shuffled", "cards_dealt"]


def test_effect_destroy_top_destroys_a_low_top_card() -> None:
    pos = Pos(seat(hand=("E-destroy",)), seat([col("T1", "T2"), col("S1", "X2", "T3"), col("X1")], deck=("X2",)))
    legal = {a.targets for a in pos.legal(0) if isinstance(a, LevelUp) and a.card == "E-destroy"}
    assert legal == {("A",), ("C",)}  # B's top is Lv.3 > 2
    _rejects(pos, _up(pos, "E-destroy", targets=("B",)), "rider.13")
    _rejects(pos, _up(pos, "E-destroy", targets=("",)), "rider.13")  # a valid target exists: must choose
    with pytest.raises(IllegalAction, match=r"E-destroy's destroy_top must target one of \['A'"):
        pos.game.apply(pos.state, _up(pos, "E-destroy", targets=("",)))
    pos.do(_up(pos, "E-destroy", targets=("A",)))
    them = pos.state.players[1]
    assert them.columns[0].cards == (("T1", 1),) and them.discard == ("T2",)


def test_ruling_24_destroy_top_on_a_lone_lv1_sends_it_to_lost_and_can_win() -> None:
    pos = Pos(seat(hand=("E-destroy",)), seat([col("T1"), col("S1"), col("X1")], lost=("F1", "T1")))
    pos.do(_up(pos, "E-destroy", targets=("B",)))
    assert pos.state.players[1].lost == ("F1", "T1", "S1")
    outcome = pos.game.outcome(pos.state)
    assert outcome is not None and outcome.winner == 0


def test_effect_destroy_level0_hits_a_lv0_even_in_a_column_without_lv1() -> None:
    pos = Pos(seat(hand=("E-zero",)), seat([col("T1", zero="Z0"), empty(zero="Z0"), col("X1")], deck=("X2",)))
    assert {a.targets for a in pos.legal(0) if isinstance(a, LevelUp)} == {("A",), ("B",)}
    pos.do(_up(pos, "E-zero", targets=("B",)))
    them = pos.state.players[1]
    assert them.columns[1] == Column() and them.discard == ("Z0",) and them.columns[0].zero == "Z0"


def test_effect_without_valid_target_fizzles_with_empty_target() -> None:
    pos = Pos(seat(hand=("E-zero",)), seat(deck=("X2",)))
    assert {a.targets for a in pos.legal(0) if isinstance(a, LevelUp)} == {("",)}
    _rejects(pos, _up(pos, "E-zero", targets=("A",)), "rider.13")
    pos.do(_up(pos, "E-zero"))
    assert pos.column(0, "A").top_level == 2


def test_effect_recover_returns_a_low_card_as_a_publicly_known_hand_card() -> None:
    pos = Pos(seat(hand=("E-recover",), discard=("F2", "F3", "X2")), seat(deck=("X2",)))
    assert {a.targets for a in pos.legal(0) if isinstance(a, LevelUp)} == {("F2",), ("X2",)}  # F3 is Lv.3
    _rejects(pos, _up(pos, "E-recover", targets=("F3",)), "rider.13")
    pos.do(_up(pos, "E-recover", targets=("F2",)))
    me = pos.state.players[0]
    assert me.discard == ("F3", "X2") and len(me.hand) == 1
    handle = me.hand[0]
    assert pos.game.open_cards(pos.state) == {handle: "F2"}  # rider.18: everyone saw it
    # the opponent's view names it too, and a false claim about it is cheating
    assert pos.game.view(pos.state, 1, pos.table.knowledge[1])["players"][0]["hand"] == [handle]


def test_ruling_18_recover_counts_a_level_2_3_card_as_level_3() -> None:
    # E-recover takes Lv.2 or lower: a "Lv.2-3" card in the discard pile is too high
    pos = Pos(seat(hand=("E-recover",), discard=("F23", "F2")), seat(deck=("X2",)))
    assert {a.targets for a in pos.legal(0) if isinstance(a, LevelUp)} == {("F2",)}
    _rejects(pos, _up(pos, "E-recover", targets=("F23",)), "rider.13")


def test_ruling_18_false_claim_about_a_public_hand_card_is_cheating() -> None:
    pos = Pos(seat([col("F1"), col("F1b"), col("S1")], hand=("E-recover",), discard=("F2",)), seat(deck=("X2",)))
    pos.do(_up(pos, "E-recover", targets=("F2",)))
    pos.do(pos.legal(1)[0])  # seat 1 plays something, back to seat 0
    while pos.state.active != 0:
        pos.do(pos.legal(pos.game.pending(pos.state).seat)[0])  # type: ignore[union-attr]
    handle = next(h for h, c in pos.state.open_cards if c == "F2")
    with pytest.raises(CheatDetected):
        pos.game.apply(pos.state, LevelUp(0, "B", handle, "X2", 2, ()))  # X2 would fit B
    assert any(isinstance(a, LevelUp) and a.handle == handle and a.card == "F2" for a in pos.legal(0))


def test_effect_opponent_discards_is_a_decision_for_the_opponent() -> None:
    pos = Pos(seat(hand=("E-discard",)), seat(hand=("T2", "T3", "T4"), deck=("X2",)))
    pos.do(_up(pos, "E-discard"))
    assert pos.game.pending(pos.state) == Decision(1, "rider.discard")
    legal = pos.legal(1)
    assert {a.card for a in legal if isinstance(a, Discard)} == {"T2", "T3", "T4"}
    with pytest.raises(NotYourTurn):
        pos.game.apply(pos.state, Discard(0, 0, "F2"))
    pos.do(Discard(1, pos.hand(1, "T4"), "T4"))
    assert pos.game.pending(pos.state) == Decision(1, "rider.discard")
    pos.do(Discard(1, pos.hand(1, "T2"), "T2"))
    assert pos.state.players[1].discard == ("T4", "T2")
    assert pos.state.active == 1 and pos.hand_cards(1) == ["T3", "X2"]  # then seat 1's turn: it drew X2


def test_ruling_19_opponent_with_fewer_cards_discards_what_it_has() -> None:
    pos = Pos(seat(hand=("E-discard",)), seat(hand=("T2",), deck=("X2",)))
    pos.do(_up(pos, "E-discard"))
    pos.do(Discard(1, pos.hand(1, "T2"), "T2"))
    assert pos.state.active == 1 and pos.game.pending(pos.state) == Decision(1, "rider.main")


def test_effect_peek_shows_top_cards_to_owner_only_in_order() -> None:
    pos = Pos(seat(hand=("E-peek",), deck=("T2", "T3", "T4")), seat(deck=("X2",)), auto=False)
    state = pos.game.apply(pos.state, _up(pos, "E-peek"))
    pending = pos.game.pending(state)
    deck = state.players[0].deck
    assert pending == HiddenOp("show_to", "deck:0", deck[:2], to_seat=0)
    after = pos.game.apply(state, CardsShownTo(SYSTEM, "deck:0", deck[:2]))
    assert after.players[0].deck == deck  # order unchanged
    pos.do(_up(pos, "E-peek"))
    assert [pos.table.knowledge[0].card(h) for h in pos.state.players[0].deck[:2]] == ["T2", "T3"]
    assert not pos.table.knowledge[1].knows(pos.state.players[0].deck[0])


def test_ruling_20_peek_on_an_empty_deck_does_nothing() -> None:
    pos = Pos(seat(hand=("E-peek",), discard=("T2",)), seat(deck=("X2",)))
    pos.do(_up(pos, "E-peek"))
    assert pos.state.players[0].discard == ("T2",) and pos.state.active == 1


def test_ruling_20_peek_counts_the_deck_when_it_resolves() -> None:
    # draw first (the empty deck is refilled from the discard pile), then peek at the new deck
    pos = Pos(seat(hand=("E-drawpeek",), discard=("T2", "T3", "T4")), seat(deck=("X2",)))
    pos.do(_up(pos, "E-drawpeek", targets=("", "")))
    deck = pos.state.players[0].deck
    assert len(deck) == 2 and all(pos.table.knowledge[0].knows(h) for h in deck)


def test_effect_flip_facedown_opens_an_own_column_for_free() -> None:
    pos = Pos(seat([col("F1"), down("T1"), down("S1")], hand=("E-flip",)), seat(deck=("X2",)))
    assert {a.targets for a in pos.legal(0) if isinstance(a, LevelUp)} == {("B",), ("C",)}
    pos.do(_up(pos, "E-flip", targets=("C",)))
    assert pos.column(0, "C").cards == (("S1", 1),) and pos.state.players[0].discard == ()


def test_effect_flip_facedown_targets_only_face_down_columns() -> None:
    # a fallen column (its Lv.1 destroyed) has nothing face down to turn over
    pos = Pos(seat([col("F1"), empty("Z0"), down("S1")], hand=("E-flip",)), seat(deck=("X2",)))
    assert {a.targets for a in pos.legal(0) if isinstance(a, LevelUp)} == {("C",)}
    _rejects(pos, _up(pos, "E-flip", targets=("B",)), "rider.13")


def test_effect_flip_facedown_of_a_non_lv1_is_cheating() -> None:
    pos = Pos(seat([col("F1"), down("T4"), col("S1")], hand=("E-flip",)), seat(deck=("X2",)))
    with pytest.raises(CheatDetected) as err:
        pos.do(_up(pos, "E-flip", targets=("B",)))
    assert err.value.seat == 0


def test_effect_rescue_lost_moves_a_lv1_from_lost_to_discard() -> None:
    pos = Pos(seat(hand=("E-rescue",), lost=("T1", "S1")), seat(deck=("X2",)))
    assert {a.targets for a in pos.legal(0) if isinstance(a, LevelUp)} == {("S1",), ("T1",)}
    pos.do(_up(pos, "E-rescue", targets=("T1",)))
    assert pos.state.players[0].lost == ("S1",) and pos.state.players[0].discard == ("T1",)


def test_ruling_13_several_instant_effects_resolve_in_card_order() -> None:
    # E-two: destroy_top (max Lv.1) then draw 1
    pos = Pos(seat([col("F1", "F2"), col("T1"), col("S1")], hand=("E-two",), deck=("T2",)),
              seat([col("T1"), col("S1", "X2"), col("X1")], deck=("X2",)))
    legal = {a.targets for a in pos.legal(0) if isinstance(a, LevelUp)}
    assert legal == {("A", ""), ("C", "")}
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "E-two"), "E-two", 3, ("A",)), "rider.13")  # one per effect
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "E-two"), "E-two", 3, ("A", "B")), "rider.13")
    pos.do(LevelUp(0, "A", pos.hand(0, "E-two"), "E-two", 3, ("C", "")))
    assert pos.state.players[1].lost == ("X1",) and pos.hand_cards(0) == ["T2"]


def test_effect_can_attack_lets_a_column_without_lv4_attack() -> None:
    pos = Pos(seat([col("F1", "E-attack"), col("T1"), col("S1")]), seat(), phase="attack")
    assert {a.column for a in pos.legal(0) if isinstance(a, Attack)} == {"A"}


def test_effect_full_power_counts_full_power_on_its_side() -> None:
    table = synthetic_game().table
    assert column_power(table, Column(None, (("F1", 1), ("E-full", 2))), "attack") == 4
    assert column_power(table, Column(None, (("F1", 1), ("E-full", 2))), "defend") == 2


def test_effect_power_bonus_adds_on_its_side() -> None:
    table = synthetic_game().table
    assert column_power(table, Column(None, (("F1", 1), ("E-bonus", 2))), "attack") == 4
    assert column_power(table, Column(None, (("F1", 1), ("E-bonus", 2))), "defend") == 2
    assert column_power(table, Column(None, (("T1", 1), ("E-bonusdef", 2)), "Z0"), "defend") == 5


def test_effect_power_bonus_does_not_count_as_destroyed_power() -> None:
    # defence 1 + 1 + 2 bonus = 4 against attack 4 (F1 + E-bonus + can attack via E-zeroattack):
    # destroying E-bonusdef (1) and T1 (1) reaches only 2, so both go (rider.16)
    pos = Pos(seat([col("F1", "E-bonus", zero="E-zeroattack"), col("T1"), col("S1")]),
              seat([col("T1", "E-bonusdef"), col("S1"), col("X1")], deck=("X2",)), phase="attack")
    pos.do(Attack(0, "A", "A"))
    assert pos.state.players[1].columns[0].cards == () and pos.state.players[1].lost == ("T1",)


def test_effect_guard_blocks_attacks_below_min_attack() -> None:
    table = synthetic_game().table
    from engine.rider.rules import guard_of

    assert guard_of(table, Column(None, (("T1", 1), ("E-guard", 2)))) == 5
    assert guard_of(table, Column(None, (("T1", 1),))) == 0


def test_effect_double_attack_allows_two_attacks() -> None:
    from engine.rider.rules import attacks_allowed

    table = synthetic_game().table
    assert attacks_allowed(table, Column(None, (("E-double", 1),))) == 2
    assert attacks_allowed(table, Column(None, (("F1", 1),))) == 1


def test_effect_extra_copies_raises_the_copy_limit_in_deck_checks() -> None:
    game = synthetic_game()
    game.new_game([deck_list(), deck_list()])  # 3 copies of E-copies are fine
    too_many = tuple(c if c != "E-draw" else "F2" for c in deck_list())  # a third F2
    with pytest.raises(DeckError):
        game.new_game([too_many, deck_list()])


def test_placement_skip_from_level_2_places_lv4_on_lv2() -> None:
    pos = Pos(seat([col("F1", "F2"), col("F1b"), col("S1")], hand=("P-skip",)), seat(deck=("X2",)))
    legal = {(a.column, a.level) for a in pos.legal(0) if isinstance(a, LevelUp)}
    assert legal == {("A", 4)}  # not onto B (Lv.1), attribute still applies
    pos.do(LevelUp(0, "A", pos.hand(0, "P-skip"), "P-skip", 4, ()))
    assert pos.column(0, "A").top_level == 4


def test_placement_skip_from_level_1_places_lv3_on_lv1() -> None:
    pos = Pos(seat([col("F1", "F2"), col("F1b"), col("T1")], hand=("P-skip1",)), seat(deck=("X2",)))
    legal = {(a.column, a.level) for a in pos.legal(0) if isinstance(a, LevelUp)}
    assert legal == {("A", 3), ("B", 3)}  # normal +1 on A, skip on B; not tide C


def test_placement_any_attribute_ignores_the_attribute_rule() -> None:
    pos = Pos(seat([col("F1"), col("S1"), col("T1", "T2")], hand=("P-any",)), seat(deck=("X2",)))
    legal = {(a.column, a.level) for a in pos.legal(0) if isinstance(a, LevelUp)}
    assert legal == {("A", 2), ("B", 2)}


def test_placement_onto_opponent_lost_needs_enough_opposing_lost_lv1() -> None:
    pos = Pos(seat(hand=("P-lost",)), seat(lost=("T1",), deck=("X2",)))
    assert not any(isinstance(a, LevelUp) for a in pos.legal(0))
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "P-lost"), "P-lost", 2, ()), "rider.4")
    pos = Pos(seat(hand=("P-lost",)), seat(lost=("T1", "S1"), deck=("X2",)))
    assert LevelUp(0, "A", pos.hand(0, "P-lost"), "P-lost", 2, ()) in pos.legal(0)

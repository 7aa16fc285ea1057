"""The level-up phase: one of level up / renew / open / pass (rider.3-5) and
our own rulings about it (rider.12, rider.14, rider.17). Rule ids: docs/rules/rider.md."""

from __future__ import annotations

import pytest
from rider_helpers import Pos, col, down, empty, seat

from engine.core import CheatDetected, Decision, HiddenOp, IllegalAction
from engine.rider.actions import LevelUp, OpenColumn, Pass, Renew


def _rejects(pos: Pos, action: object, rule: str) -> None:
    before = pos.hash
    with pytest.raises(IllegalAction) as err:
        pos.game.apply(pos.state, action)  # type: ignore[arg-type]
    assert err.value.rule == rule, str(err.value)
    assert pos.hash == before


def test_ruling_3_exactly_one_main_action_then_attacks() -> None:
    pos = Pos(seat(hand=("F2", "T2")), seat())
    pos.do(LevelUp(0, "A", pos.hand(0, "F2"), "F2", 2, ()))
    # no Lv.4 anywhere: the attack phase is skipped (rider.22) and seat 1 plays
    assert pos.game.pending(pos.state) == Decision(1, "rider.main")
    assert pos.hand_cards(0) == ["T2"]


def test_ruling_3_open_column_discards_then_reveals() -> None:
    pos = Pos(seat([col("F1"), down("T1"), down("S1")], hand=("F3",)), seat(), auto=False)
    state = pos.game.apply(pos.state, OpenColumn(0, "B", pos.hand(0, "F3"), "F3"))
    pending = pos.game.pending(state)
    assert isinstance(pending, HiddenOp) and pending.op == "reveal" and pending.zone == "columns:0"
    assert state.players[0].discard == ("F3",) and state.players[0].hand == ()
    pos.do(OpenColumn(0, "B", pos.hand(0, "F3"), "F3"))
    assert pos.column(0, "B").cards == (("T1", 1),) and pos.column(0, "B").facedown is None


def test_ruling_3_open_column_needs_a_card_and_a_facedown_column() -> None:
    pos = Pos(seat([col("F1"), down("T1"), down("S1")], hand=("F3",)), seat())
    _rejects(pos, OpenColumn(0, "A", pos.hand(0, "F3"), "F3"), "rider.3")
    _rejects(pos, OpenColumn(0, "B", 999, "F3"), "rider.3")
    empty_hand = Pos(seat([col("F1"), down("T1"), down("S1")]), seat())
    assert empty_hand.legal(0) == [Pass(0, None, None)]


def test_ruling_3_open_column_reveal_of_non_lv1_is_cheating() -> None:
    pos = Pos(seat([col("F1"), down("F4"), down("S1")], hand=("F3",)), seat())
    with pytest.raises(CheatDetected) as err:
        pos.do(OpenColumn(0, "B", pos.hand(0, "F3"), "F3"))
    assert err.value.seat == 0


def test_ruling_3_pass_only_when_nothing_else_is_legal() -> None:
    # a face-down column can be opened: no pass
    pos = Pos(seat([col("F1"), down("T1"), col("S1")], hand=("T4",)), seat())
    assert not any(isinstance(a, Pass) for a in pos.legal(0))
    _rejects(pos, Pass(0, pos.hand(0, "T4"), "T4"), "rider.3")
    # the named card itself is playable: no pass
    pos = Pos(seat(hand=("F2",)), seat())
    _rejects(pos, Pass(0, pos.hand(0, "F2"), "F2"), "rider.3")
    # nothing playable: pass discards a card
    pos = Pos(seat(hand=("T4",)), seat())
    assert pos.legal(0) == [Pass(0, pos.hand(0, "T4"), "T4")]
    _rejects(pos, Pass(0, None, None), "rider.3")
    pos.do(Pass(0, pos.hand(0, "T4"), "T4"))
    assert pos.state.players[0].discard == ("T4",)


def test_ruling_3_pass_with_empty_hand_discards_nothing() -> None:
    pos = Pos(seat(), seat())
    assert pos.legal(0) == [Pass(0, None, None)]
    _rejects(pos, Pass(0, 5, "F2"), "rider.3")
    pos.do(Pass(0, None, None))
    assert pos.state.active == 1


def test_ruling_4_level_up_needs_next_level_and_same_attribute() -> None:
    pos = Pos(seat([col("F1"), col("T1"), down("S1")], hand=("F2", "F3", "T2", "X2")), seat())
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "F3"), "F3", 3, ()), "rider.4")  # skips a level
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "F3"), "F3", 2, ()), "rider.4")  # not its level
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "T2"), "T2", 2, ()), "rider.4")  # tide onto flame
    _rejects(pos, LevelUp(0, "C", pos.hand(0, "F2"), "F2", 2, ()), "rider.4")  # face down
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "F2"), "F2", 2, ("A",)), "rider.13")
    legal = {(a.column, a.card, a.level) for a in pos.legal(0) if isinstance(a, LevelUp)}
    assert legal == {("A", "F2", 2), ("A", "X2", 2), ("B", "T2", 2), ("B", "X2", 2)}


def test_ruling_4_refused_level_up_says_why_and_what_would_fit() -> None:
    pos = Pos(seat([col("F1"), col("F1", "F2"), col("F1", "F2", "F3", "F4")], hand=("F3", "T2", "F23", "X2", "P-skip")),
              seat())

    def message(column: str, card: str, level: int) -> str:
        with pytest.raises(IllegalAction) as err:
            pos.game.apply(pos.state, LevelUp(0, column, pos.hand(0, card), card, level, ()))
        assert err.value.rule == "rider.4"
        return str(err.value)

    assert "needs a card of Lv.2" in message("A", "F3", 3)
    assert "attributes must match" in message("A", "T2", 2) and "top card is tide or free" in message("A", "T2", 2)
    assert "only as Lv.3, not Lv.2" in message("B", "F23", 2)
    assert "the top" in message("C", "X2", 2)
    assert "whose top is Lv.2" in message("A", "P-skip", 4)


def test_rule_3_card_not_in_hand_is_named_in_the_error() -> None:
    pos = Pos(seat(hand=("F2",)), seat())
    with pytest.raises(IllegalAction) as err:
        pos.game.apply(pos.state, LevelUp(0, "A", 999, "F2", 2, ()))
    assert "F2 (card handle 999) is not in your hand" in str(err.value)


def test_ruling_4_free_top_card_accepts_any_attribute() -> None:
    pos = Pos(seat([col("X1"), col("T1"), col("S1")], hand=("F2",)), seat())
    pos.do(LevelUp(0, "A", pos.hand(0, "F2"), "F2", 2, ()))
    assert pos.column(0, "A").cards == (("X1", 1), ("F2", 2))


def test_ruling_4_level_2_3_card_is_placed_as_either_and_recorded() -> None:
    pos = Pos(seat([col("F1", "F2"), col("F1b"), col("S1")], hand=("F23",)), seat())
    legal = {(a.column, a.level) for a in pos.legal(0) if isinstance(a, LevelUp)}
    assert legal == {("A", 3), ("B", 2)}
    pos.do(LevelUp(0, "A", pos.hand(0, "F23"), "F23", 3, ()))
    assert pos.column(0, "A").cards[-1] == ("F23", 3)


def test_ruling_4_level_4_is_the_top() -> None:
    pos = Pos(seat([col("F1", "F2", "F3", "F4"), col("T1"), col("S1")], hand=("X4",)), seat())
    assert not any(isinstance(a, LevelUp) and a.column == "A" for a in pos.legal(0))
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "X4"), "X4", 4, ()), "rider.4")


def test_ruling_5_instant_effects_only_on_level_up() -> None:
    # E-l1draw is a Lv.1 card with "draw 1": renewing a column with it draws nothing
    pos = Pos(seat([empty(), col("T1"), col("S1")], hand=("E-l1draw",), deck=("F2", "F3")), seat())
    pos.do(Renew(0, "A", pos.hand(0, "E-l1draw"), "E-l1draw"))
    assert len(pos.state.players[0].deck) == 2 and pos.state.players[0].hand == ()
    # ... and neither does revealing it from face down
    pos = Pos(seat([down("E-l1draw"), col("T1"), col("S1")], hand=("F3",), deck=("F2",)), seat())
    pos.do(OpenColumn(0, "A", pos.hand(0, "F3"), "F3"))
    assert len(pos.state.players[0].deck) == 1
    # a level up does fire it (E-draw draws 2)
    pos = Pos(seat(hand=("E-draw",), deck=("F2", "F3", "T2")), seat())
    pos.do(LevelUp(0, "A", pos.hand(0, "E-draw"), "E-draw", 2, ("",)))
    assert sorted(pos.hand_cards(0)) == ["F2", "F3"]


def test_ruling_3_renew_needs_a_column_without_its_lv1_and_a_lv1_card() -> None:
    pos = Pos(seat([empty(), col("T1"), down("S1")], hand=("F1", "F2")), seat())
    _rejects(pos, Renew(0, "B", pos.hand(0, "F1"), "F1"), "rider.3")
    _rejects(pos, Renew(0, "C", pos.hand(0, "F1"), "F1"), "rider.3")
    _rejects(pos, Renew(0, "A", pos.hand(0, "F2"), "F2"), "rider.3")
    assert Renew(0, "A", pos.hand(0, "F1"), "F1") in pos.legal(0)
    pos.do(Renew(0, "A", pos.hand(0, "F1"), "F1"))
    assert pos.column(0, "A").cards == (("F1", 1),)


def test_ruling_12_column_without_lv1_cannot_level_up_but_keeps_its_lv0() -> None:
    pos = Pos(seat([empty(zero="Z0"), col("T1"), col("S1")], hand=("F2", "F1")), seat())
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "F2"), "F2", 2, ()), "rider.12")
    pos.do(Renew(0, "A", pos.hand(0, "F1"), "F1"))
    assert pos.column(0, "A").zero == "Z0" and pos.column(0, "A").cards == (("F1", 1),)


def test_ruling_17_lv0_card_joins_a_standing_column_once() -> None:
    pos = Pos(seat([col("F1", "F2", "F3", "F4"), col("T1", zero="Z0"), empty()], hand=("Z0",)), seat())
    legal = {(a.column, a.level) for a in pos.legal(0) if isinstance(a, LevelUp)}
    assert legal == {("A", 0)}  # not B (already has a Lv.0), not C (no Lv.1)
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "Z0"), "Z0", 1, ()), "rider.4")
    pos.do(LevelUp(0, "A", pos.hand(0, "Z0"), "Z0", 0, ()))
    assert pos.column(0, "A").zero == "Z0" and pos.column(0, "A").top_level == 4


def test_ruling_17_lv0_instant_effect_fires_when_placed() -> None:
    pos = Pos(seat(hand=("E-zerodraw",), deck=("F2",)), seat())
    pos.do(LevelUp(0, "A", pos.hand(0, "E-zerodraw"), "E-zerodraw", 0, ("",)))
    assert pos.hand_cards(0) == ["F2"]


def test_ruling_14_engine_checks_claimed_hand_cards_publicly() -> None:
    pos = Pos(seat(hand=("F2",)), seat(hand=("T2",)))
    _rejects(pos, LevelUp(0, "A", pos.hand(1, "T2"), "F2", 2, ()), "rider.4")  # not in own hand
    _rejects(pos, LevelUp(0, "A", pos.hand(0, "F2"), "nope", 2, ()), "rider.4")
    _rejects(pos, LevelUp(0, "D", pos.hand(0, "F2"), "F2", 2, ()), "rider.4")


def test_ruling_14_audit_finds_a_pass_that_was_not_forced() -> None:
    # F3 fits nowhere, but F2 fits column A: the engine, seeing only F3 named, accepts the pass
    pos = Pos(seat(hand=("F2", "F3")), seat())
    hand = {h: pos.table.truth[h] for h in pos.state.players[0].hand}
    pos.game.apply(pos.state, Pass(0, pos.hand(0, "F3"), "F3"))
    problem = pos.game.pass_problem(pos.state, 0, hand)
    assert problem is not None and "level_up with F2" in problem and "rider.3" in problem
    forced = Pos(seat(hand=("F3",)), seat())
    assert forced.game.pass_problem(forced.state, 0, {forced.hand(0, "F3"): "F3"}) is None


def test_ruling_14_every_card_leaving_a_hand_is_a_claim_to_prove() -> None:
    from engine.rider.actions import Attack, Discard, EndAttacks, SetUp, claims

    assert claims(LevelUp(0, "A", 7, "F2", 2, ())) == ((7, "F2"),)
    assert claims(Renew(0, "A", 8, "F1")) == ((8, "F1"),)
    assert claims(OpenColumn(0, "B", 9, "T4")) == ((9, "T4"),)
    assert claims(Discard(1, 3, "T2")) == ((3, "T2"),)
    assert claims(Pass(0, 4, "T4")) == ((4, "T4"),) and claims(Pass(0, None, None)) == ()
    assert claims(Attack(0, "A", "B")) == claims(EndAttacks(0)) == claims(SetUp(0, (1, 2, 3))) == ()

"""Attacks: eligibility (rider.6), resolution (rider.7, rider.11, rider.16),
destination of destroyed cards (rider.8), columns without their Lv.1
(rider.12), double attacks (rider.15), guard (rider.21), skipping (rider.22).

Powers in the synthetic set: F1 1, F2 2, F3 3, F4 4; T1 1, T2 2, T3 3, T4 4; Z0 1.
"""

from __future__ import annotations

import pytest
from rider_helpers import Pos, col, down, empty, seat

from engine.core import Decision, IllegalAction
from engine.rider.actions import Attack, EndAttacks
from engine.rider.rules import column_power
from engine.rider.state import Column


def _attack_pos(attacker: dict[str, object], defender: dict[str, object], **kw: object) -> Pos:
    return Pos(
        seat([attacker, col("T1"), col("S1")], **kw),  # type: ignore[arg-type]
        seat([defender, col("S1"), col("X1")], deck=("X2", "X2")),  # a deck, so no reshuffle of the discard
        phase="attack",
    )


def _rejects(pos: Pos, action: Attack, rule: str) -> None:
    before = pos.hash
    with pytest.raises(IllegalAction) as err:
        pos.game.apply(pos.state, action)
    assert err.value.rule == rule, str(err.value)
    assert pos.hash == before


def test_ruling_7_attack_above_defence_destroys_the_whole_column() -> None:
    pos = _attack_pos(col("F1", "F2", "F3", "F4"), col("T1", "T2", "T3"))  # 10 vs 6
    pos.do(Attack(0, "A", "A"))
    me, them = pos.state.players
    assert them.columns[0] == Column()
    assert them.lost == ("T1",) and them.discard == ("T3", "T2")  # ruling 8
    assert me.columns[0].cards == (("F1", 1),) and me.discard == ("F2", "F3", "F4")


def test_ruling_7_tie_destroys_until_destroyed_power_reaches_the_attack() -> None:
    pos = _attack_pos(col("F1", "F2", "F3", "F4"), col("T1", "T2", "T3", "T4"))  # 10 vs 10
    pos.do(Attack(0, "A", "A"))
    them = pos.state.players[1]
    assert them.columns[0].cards == () and them.lost == ("T1",)


def test_ruling_7_partial_destruction_rounds_up() -> None:
    # attack 5 (F1 + F4) against 10: T4 (4) is not enough, so T3 goes too, whole
    pos = _attack_pos(col("F1", ("F4", 4)), col("T1", "T2", "T3", "T4"))
    pos.do(Attack(0, "A", "A"))
    me, them = pos.state.players
    assert them.columns[0].cards == (("T1", 1), ("T2", 2))
    assert them.discard == ("T4", "T3") and them.lost == ()
    assert me.columns[0].cards == (("F1", 1),) and me.discard == ("F4",)


def test_ruling_7_partial_destruction_stops_when_attack_is_reached() -> None:
    # E-attack (Lv.2, can attack) + F1: attack 2 destroys only T4
    pos = _attack_pos(col("F1", "E-attack"), col("T1", "T2", "T3", "T4"))
    pos.do(Attack(0, "A", "A"))
    assert pos.state.players[1].columns[0].cards == (("T1", 1), ("T2", 2), ("T3", 3))


def test_ruling_7_partial_destruction_stops_when_destroyed_power_equals_the_attack() -> None:
    # attack 4 (F1 1 + E-attack 1 + F23 as Lv.3 2) against T1-T4: T4 (4) reaches 4 exactly, T3 stays
    pos = _attack_pos(col("F1", "E-attack", ("F23", 3)), col("T1", "T2", "T3", "T4"))
    assert column_power(pos.game.table, pos.column(0, "A"), "attack") == 4
    pos.do(Attack(0, "A", "A"))
    them = pos.state.players[1]
    assert them.columns[0].cards == (("T1", 1), ("T2", 2), ("T3", 3)) and them.discard == ("T4",)


def test_ruling_7_lv0_in_defending_column_is_never_destroyed() -> None:
    pos = _attack_pos(col("F1", "F2", "F3", "F4"), col("T1", "T2", zero="Z0"))  # 10 vs 4
    pos.do(Attack(0, "A", "A"))
    them = pos.state.players[1]
    assert them.columns[0] == Column(None, (), "Z0") and them.lost == ("T1",)


def test_ruling_7_tie_with_lv0_destroys_every_destroyable_card() -> None:
    # 5 vs 5 where the Lv.0 supplies 1: T3 and T1 fall (4 < 5), the Lv.0 stays
    pos = _attack_pos(col("F1", ("F4", 4)), col("T1", ("T3", 3), zero="Z0"))
    pos.do(Attack(0, "A", "A"))
    assert pos.state.players[1].columns[0] == Column(None, (), "Z0")


def test_ruling_7_attacker_keeps_its_lv1_and_lv0() -> None:
    pos = _attack_pos(col("F1", "F2", "F3", "F4", zero="Z0"), col("T1"))
    pos.do(Attack(0, "A", "A"))
    me = pos.state.players[0]
    assert me.columns[0] == Column(None, (("F1", 1),), "Z0") and me.discard == ("F2", "F3", "F4")


def test_ruling_11_attacker_pays_even_when_it_loses() -> None:
    # attack 5 against 12: the defender loses T4 and T3; the attacker loses F4 anyway
    pos = _attack_pos(col("F1", ("F4", 4)), col("T1", "T2", "T3", "T4", zero="Z0"))
    pos.do(Attack(0, "A", "A"))
    me, them = pos.state.players
    assert me.columns[0].cards == (("F1", 1),) and me.discard == ("F4",)
    assert them.columns[0].cards == (("T1", 1), ("T2", 2))


def test_ruling_7_full_power_only_where_an_effect_says_so() -> None:
    game = Pos(seat(), seat()).game
    plain = Column(None, (("F1", 1), ("F2", 2)))  # F1 and F2 have full power 2 and 3, unused
    assert column_power(game.table, plain, "attack") == 3 == column_power(game.table, plain, "defend")
    full = Column(None, (("F1", 1), ("E-full", 2)))  # E-full: power 1, full 3 when attacking
    assert column_power(game.table, full, "attack") == 4 and column_power(game.table, full, "defend") == 2
    fulldef = Column(None, (("T1", 1), ("E-fulldef", 2)))
    assert column_power(game.table, fulldef, "attack") == 2 and column_power(game.table, fulldef, "defend") == 4


def test_ruling_16_destroyed_power_counts_defending_full_power() -> None:
    # E-fulldef defends with 3: attack 2 (F1 + E-attack) is met by destroying it alone
    pos = _attack_pos(col("F1", "E-attack"), col("T1", "E-fulldef"))
    pos.do(Attack(0, "A", "A"))
    assert pos.state.players[1].columns[0].cards == (("T1", 1),)


def test_ruling_6_only_columns_with_lv4_or_can_attack_may_attack() -> None:
    pos = Pos(seat([col("F1", "F2", "F3"), col("T1", "T2", "T3", "T4"), col("S1")]), seat(), phase="attack")
    options = {(a.column, a.target) for a in pos.legal(0) if isinstance(a, Attack)}
    assert options == {("B", "A"), ("B", "B"), ("B", "C")}
    assert EndAttacks(0) in pos.legal(0)
    _rejects(pos, Attack(0, "A", "A"), "rider.6")
    _rejects(pos, Attack(0, "C", "A"), "rider.6")
    _rejects(pos, Attack(0, "Q", "A"), "rider.6")


def test_ruling_6_each_column_attacks_at_most_once_then_explicit_end() -> None:
    # E-zeroattack is a Lv.0 that lets its column attack; it survives the attack
    pos = Pos(
        seat([col("F1", zero="E-zeroattack"), col("T1", "T2", "T3", "T4"), col("S1")]),
        seat([col("T1", "T2", "T3", "T4"), col("S1"), col("X1")]),
        phase="attack",
    )
    pos.do(Attack(0, "A", "A"))
    assert pos.game.pending(pos.state) == Decision(0, "rider.attack")  # B may still attack
    _rejects(pos, Attack(0, "A", "B"), "rider.6")
    assert all(a.column != "A" for a in pos.legal(0) if isinstance(a, Attack))
    pos.do(EndAttacks(0))
    assert pos.state.active == 1


def test_ruling_6_target_must_be_a_face_up_column() -> None:
    pos = Pos(seat([col("F1", "F2", "F3", "F4"), col("T1"), col("S1")]), seat([down("T1"), col("S1"), col("X1")]),
              phase="attack")
    _rejects(pos, Attack(0, "A", "A"), "rider.6")


def test_ruling_12_defending_column_without_its_lv1_cannot_be_attacked() -> None:
    pos = Pos(seat([col("F1", "F2", "F3", "F4"), col("T1"), col("S1")]),
              seat([empty(zero="Z0"), empty(), col("X1")]), phase="attack")
    assert {a.target for a in pos.legal(0) if isinstance(a, Attack)} == {"C"}
    _rejects(pos, Attack(0, "A", "A"), "rider.6")
    _rejects(pos, Attack(0, "A", "B"), "rider.6")


def test_ruling_12_column_without_lv1_cannot_attack_even_with_can_attack_lv0() -> None:
    pos = Pos(seat([empty(zero="E-zeroattack"), col("T1"), col("S1")]), seat(), phase="attack")
    assert pos.state.active == 1  # nothing could attack: seat 0's turn ended (rider.22)


def test_ruling_22_attack_phase_skipped_when_no_attack_is_possible() -> None:
    pos = Pos(seat([col("F1", "F2", "F3", "F4"), col("T1"), col("S1")]), seat([empty(), empty(), down("X1")]),
              phase="attack")
    assert pos.state.active == 1 and pos.game.pending(pos.state) == Decision(1, "rider.main")


def test_ruling_15_double_attack_attacks_twice() -> None:
    pos = Pos(
        seat([col("E-double"), col("T1"), col("S1")]),
        seat([col("T1", "T2", "T3", "T4"), col("S1"), col("X1")]),
        phase="attack",
    )
    pos.do(Attack(0, "A", "A"))
    pos.do(Attack(0, "A", "A"))
    assert pos.state.players[1].columns[0].cards == (("T1", 1), ("T2", 2))
    assert pos.state.active == 1  # no third attack: the turn ended


def test_ruling_15_double_attack_column_pays_after_its_second_attack() -> None:
    pos = Pos(
        seat([col("F1", "F2", "F3", "E-double4"), col("T1"), col("S1")]),
        seat([col("T1", "T2", "T3", "T4"), col("S1", "X2"), col("X1")]),
        phase="attack",
    )
    pos.do(Attack(0, "A", "C"))  # 10 vs 1: X1 lost; the attacker keeps its cards for now
    assert pos.column(0, "A").top_level == 4
    pos.do(Attack(0, "A", "B"))
    assert pos.column(0, "A").cards == (("F1", 1),)
    assert pos.state.players[0].discard == ("F2", "F3", "E-double4")


def test_ruling_15_double_attack_column_that_attacks_once_pays_at_end_of_turn() -> None:
    pos = Pos(
        seat([col("F1", "F2", "F3", "E-double4"), col("T1"), col("S1")]),
        seat([col("T1", "T2", "T3", "T4"), col("S1"), col("X1")]),
        phase="attack",
    )
    pos.do(Attack(0, "A", "C"))
    pos.do(EndAttacks(0))
    assert pos.column(0, "A").cards == (("F1", 1),) and pos.state.players[0].discard == ("F2", "F3", "E-double4")


def test_ruling_21_guard_stops_weak_attacks() -> None:
    # E-guard: not attackable by less than 5 power
    pos = Pos(
        seat([col("F1", "E-attack"), col("T1", "T2", "T3", "T4"), col("S1")]),
        seat([col("T1", "E-guard"), col("S1"), col("X1")]),
        phase="attack",
    )
    options = {(a.column, a.target) for a in pos.legal(0) if isinstance(a, Attack)}
    assert ("A", "A") not in options and ("B", "A") in options  # 2 < 5 <= 10
    _rejects(pos, Attack(0, "A", "A"), "rider.6")


def test_ruling_8_destroyed_lv1_goes_to_lost_everything_else_to_discard() -> None:
    # attack 10 into a T1, T2 column: T1 is Lost, T2 and the attacker's F2-F4 are discarded
    pos = _attack_pos(col("F1", "F2", "F3", "F4"), col("T1", "T2"))
    pos.do(Attack(0, "A", "A"))
    me, them = pos.state.players
    assert them.lost == ("T1",) and them.discard == ("T2",)
    assert me.lost == () and me.discard == ("F2", "F3", "F4")


def test_ruling_7_lv0_in_both_columns_counts_for_power_and_survives() -> None:
    # 11 vs 11 with a Lv.0 on each side: the tie destroys T4, T3, T2 and T1 (10 < 11);
    # both Lv.0 cards stay, and the attacker keeps F1 and its Lv.0
    pos = _attack_pos(col("F1", "F2", "F3", "F4", zero="Z0"), col("T1", "T2", "T3", "T4", zero="Z0"))
    pos.do(Attack(0, "A", "A"))
    me, them = pos.state.players
    assert them.columns[0] == Column(None, (), "Z0") and them.lost == ("T1",)
    assert me.columns[0] == Column(None, (("F1", 1),), "Z0")

"""Why-not reasons as data (engine.rider.why) and the private pass check (rider.3, rider.14).

Seed 003 allows a pass only when no other main action is possible; the seat
knows its whole hand, so its own table refuses a pass that the public
reducer alone would have to let through (rider.14)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.rider.actions import Attack, Pass
from engine.rider.why import MESSAGES, Why, message
from tests.engine.rider.rider_helpers import Pos, col, down, empty, seat


def why(pos: Pos, **gesture: object) -> Why | None:
    return pos.game.why_not(pos.state, 0, pos.table.knowledge[0], **gesture)  # type: ignore[arg-type]


def test_ruling_4_a_card_two_levels_up_names_the_next_level() -> None:
    pos = Pos(seat([col("F1"), col("F1", "F2"), col("F1", "F2", "F3", "F4")], hand=("F3", "T2", "P-lost")), seat())
    refused = why(pos, card="F3", column=0)
    assert refused is not None and refused.key == "next_level" and refused.rule == "rider.4"
    assert refused.fields()["top"] == 1 and refused.fields()["next"] == 2
    assert "next level" in message(refused) and "rider" not in message(refused)
    assert why(pos, card="F3", column=1) is None  # F3 fits on the Lv.2 column
    attribute = why(pos, card="T2", column=0)
    assert attribute is not None and attribute.key == "attribute" and attribute.fields()["top_attribute"] == "flame"
    top = why(pos, card="T2", column=2)
    assert top is not None and top.key in ("attribute", "top_level")
    lost = why(pos, card="P-lost", column=0)
    assert lost is not None and lost.key == "needs_lost"


def test_ruling_4_the_reducer_refuses_with_the_same_reason() -> None:
    from engine.rider.actions import LevelUp

    pos = Pos(seat([col("F1"), col("T1"), col("S1")], hand=("F3",)), seat())
    refused = why(pos, card="F3", column=0)
    assert refused is not None
    with pytest.raises(IllegalAction) as err:
        pos.game.apply(pos.state, LevelUp(0, "A", pos.hand(0, "F3"), "F3", 3, ()))
    assert message(refused) in str(err.value)


def test_ruling_3_renewing_needs_a_lv1_and_a_face_down_column_can_always_be_opened() -> None:
    pos = Pos(seat([empty(), down("F1"), col("S1")], hand=("F2", "T1")), seat())
    renew = why(pos, card="F2", column=0)
    assert renew is not None and renew.key == "renew_lv1" and renew.rule == "rider.3"
    assert why(pos, card="T1", column=0) is None
    assert why(pos, card="F2", column=1) is None  # open column B discarding F2


def test_ruling_6_and_21_attack_reasons() -> None:
    pos = Pos(seat([col("F1"), col("F1", "E-attack"), col("F1", "F2", "F3", "F4")]),
              seat([empty(), col("T1", "E-guard"), col("S1")]), phase="attack")
    no = why(pos, column=0)
    assert no is not None and no.key == "no_attacker" and no.rule == "rider.6"
    target = why(pos, column=2, target=0)
    assert target is not None and target.key == "no_target"
    guarded = why(pos, column=1, target=1)
    assert guarded is not None and guarded.key == "guarded" and guarded.fields()["guard"] == 5
    assert why(pos, column=2, target=2) is None
    pos.do(Attack(0, "C", "C"))
    spent = Pos(seat([col("F1"), col("F1", "E-attack"), col("F1", "F2", "F3", "F4")]), seat(), phase="attack",
                attacks=[0, 0, 1])
    again = why(spent, column=2, target=2)
    assert again is not None and again.key == "attacked"


def test_a_gesture_out_of_turn_or_phase_says_so() -> None:
    pos = Pos(seat(hand=("F2",)), seat(), phase="main")
    assert why(pos, column=0) == Why("attack_later", "rider.6")
    other = pos.game.why_not(pos.state, 1, pos.table.knowledge[1], card="F2", column=0)
    assert other is not None and other.key == "not_your_turn"


def test_ruling_3_14_a_pass_with_a_playable_card_is_never_offered_and_refused_at_once() -> None:
    # F3 fits nowhere but F2 fits column A (seed 003: pass only when nothing else is possible)
    pos = Pos(seat(hand=("F2", "F3")), seat())
    assert not any(isinstance(a, Pass) for a in pos.legal(0))
    refused = why(pos, passing=True)
    assert refused is not None and refused.key == "pass_playable" and refused.fields()["card"] == "F2"
    before = pos.state
    illegal = Pass(0, pos.hand(0, "F3"), "F3")
    pos.game.apply(pos.state, illegal)  # the public reducer cannot see F2 ...
    with pytest.raises(IllegalAction) as err:  # ... but the seat's own table refuses at once
        pos.table.feed(illegal)
    assert err.value.rule == "rider.3" and "F2" in str(err.value)
    assert pos.state is before and not pos.table.log


def test_ruling_3_a_forced_pass_is_offered_and_accepted() -> None:
    pos = Pos(seat(hand=("F3",)), seat())
    assert why(pos, passing=True) is None
    passes = [a for a in pos.legal(0) if isinstance(a, Pass)]
    assert passes
    pos.do(passes[0])
    assert pos.state.players[0].discard[-1] == "F3"


def test_ruling_3_a_face_down_column_forbids_passing() -> None:
    pos = Pos(seat([col("F1"), down("T1"), col("S1")], hand=("F3",)), seat())
    refused = why(pos, passing=True)
    assert refused is not None and refused.key == "pass_open"


def test_every_reason_key_has_an_english_message_and_a_client_wording() -> None:
    from tests.client.words import all_words

    words = all_words()

    for key in MESSAGES:
        assert f"why_{key}" in words, key
        en, ja = words[f"why_{key}"]
        assert en and ja and "rider." not in en and "rider." not in ja

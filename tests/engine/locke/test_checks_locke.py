"""ESP level check (KMC 11.2), mind check (KMC 11.3) and level teleport
(KMC 9.2.1) with their declared-value rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction, MalformedAction
from engine.locke.checks import (
    esp_level_check,
    legal_level_declarations,
    legal_mind_declarations,
    level_teleport,
    mind_check,
    party_teleport,
    reflection_check,
)

# --- ESP level check (locke.11.2) -------------------------------------------------


@pytest.mark.parametrize(("faces", "declared", "success"), [((2, 3), 5, True), ((3, 3), 5, False), ((1, 1), 2, True), ((1, 1), 1, False), ((6, 6), 12, True)])
def test_level_check_succeeds_at_or_below_declared(faces: tuple[int, int], declared: int, success: bool) -> None:
    result = esp_level_check(faces, declared, esp_level=12)
    assert (result.total, result.success, result.kind) == (sum(faces), success, "esp-level")


def test_level_check_cannot_exceed_usable_level() -> None:
    with pytest.raises(IllegalAction, match="declare 0..4"):
        esp_level_check((1, 1), 5, esp_level=4)


def test_level_check_lower_declaration_allowed_unless_bound() -> None:
    assert esp_level_check((1, 2), 3, esp_level=6).success
    with pytest.raises(IllegalAction, match="no lower than the 4"):
        esp_level_check((1, 2), 3, esp_level=6, min_level=4)  # attacked with level 4 ESP


def test_level_zero_always_fails() -> None:
    assert not esp_level_check((1, 1), 0, esp_level=0).success
    with pytest.raises(IllegalAction):
        esp_level_check((1, 1), -1, esp_level=3)


def test_reflection_check_declares_the_attack_level() -> None:
    assert reflection_check((2, 2), 4).declared == 4 and reflection_check((2, 2), 4).success
    assert not reflection_check((2, 3), 4).success


def test_legal_level_declarations() -> None:
    assert list(legal_level_declarations(3)) == [0, 1, 2, 3]
    assert list(legal_level_declarations(5, 4)) == [4, 5]


# --- mind check (locke.11.3) ------------------------------------------------------


@pytest.mark.parametrize(("faces", "declared", "success"), [((2, 2), 4, True), ((2, 3), 4, False), ((1, 1), 2, True)])
def test_mind_check_succeeds_at_or_below_declared(faces: tuple[int, int], declared: int, success: bool) -> None:
    assert mind_check(faces, declared, mind=6).success is success


@pytest.mark.parametrize("declared", [0, 1, 7])
def test_mind_declaration_range_is_2_to_mind(declared: int) -> None:
    with pytest.raises(IllegalAction, match="declare 2..6"):
        mind_check((1, 1), declared, mind=6)


def test_mind_below_2_fails_without_a_declaration() -> None:
    assert list(legal_mind_declarations(1)) == []
    assert not mind_check((1, 1), None, mind=1).success
    with pytest.raises(IllegalAction, match="nothing can be declared"):
        mind_check((1, 1), 1, mind=1)
    with pytest.raises(IllegalAction, match="declare a mind value"):
        mind_check((1, 1), None, mind=3)


def test_checks_reject_bad_dice() -> None:
    with pytest.raises(MalformedAction):
        mind_check((1,), 2, mind=3)
    with pytest.raises(MalformedAction):
        esp_level_check((1, 7), 2, esp_level=3)


# --- level teleport (locke.9.2.1) ----------------------------------------------------


@pytest.mark.parametrize(("face", "declared", "success", "distance"), [(3, 4, True, 3), (4, 4, True, 4), (5, 4, False, 0), (1, 1, True, 1), (2, 1, False, 0)])
def test_level_teleport(face: int, declared: int, success: bool, distance: int) -> None:
    result = level_teleport(face, declared, esp_level=6)
    assert (result.success, result.distance) == (success, distance)


@pytest.mark.parametrize(("declared", "level"), [(0, 3), (4, 3), (1, 0)])
def test_level_teleport_declaration_is_1_to_level(declared: int, level: int) -> None:
    with pytest.raises(IllegalAction):
        level_teleport(1, declared, esp_level=level)


def test_party_teleport() -> None:
    whole = party_teleport(2, 2, leader_level=5, partner_levels=(2, 4))
    assert whole.whole_party and whole.teleport.success and whole.may_follow == (True, True)
    partial = party_teleport(3, 3, leader_level=5, partner_levels=(2, 4))
    assert not partial.whole_party and partial.may_follow == (False, True)


@settings(max_examples=100)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 12))
def test_level_check_matches_definition(a: int, b: int, declared: int) -> None:
    result = esp_level_check((a, b), declared, esp_level=12)
    assert result.success == (a + b <= declared)
    assert result == esp_level_check((a, b), declared, esp_level=12)

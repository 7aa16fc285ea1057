"""The damage table of seed 002 (損害判定表): every cell, the odds columns and
their boundaries, E results, clamps and the transformation trigger
(rule id ``locke.damage``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction, MalformedAction
from engine.locke import charts
from engine.locke.damage import COLUMN_IDS, column_for, resolve_damage
from engine.locke.outcomes import Context

# Seed 002's table as printed: one line per roll 2..12, 13 columns
# (1:2-or-less, 1:1 .. 10:1, 20:1, 50:1-and-over); "-" = no damage, E = eliminated.
SEED_TABLE = """
2  2 2 2 3 3 3 3 4 4 4 5 E E
3  1 2 2 2 2 3 3 3 4 4 4 5 E
4  - 1 1 1 2 2 3 3 3 4 4 5 E
5  - 1 1 1 1 2 2 2 3 3 4 4 5
6  - - 1 1 1 1 2 2 2 3 3 4 5
7  - - - 1 1 1 1 2 2 2 3 4 4
8  - - - - 1 1 1 1 2 2 3 3 4
9  - - - - - 1 1 1 1 2 2 3 3
10 - - - - - - 1 1 1 1 2 3 3
11 - - - - - - - 1 1 1 2 2 3
12 - - - - - - - - 1 1 1 2 2
"""
SEED_COLUMNS = ("1-2-or-less", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1", "20-1", "50-1-or-more")


def seed_cells() -> list[object]:
    params = []
    for line in SEED_TABLE.strip().splitlines():
        roll, *cells = line.split()
        assert len(cells) == 13
        for column, cell in zip(SEED_COLUMNS, cells, strict=True):
            params.append(pytest.param(column, int(roll), cell, id=f"{column}@{roll}"))
    return params


def faces_for(total: int) -> tuple[int, int]:
    """Non-double faces summing to ``total`` where possible (so no transformation)."""
    for a in range(1, 7):
        b = total - a
        if 1 <= b <= 6 and a != b:
            return (a, b)
    return (total // 2, total // 2)


def test_thirteen_columns_in_seed_order() -> None:
    assert COLUMN_IDS == SEED_COLUMNS


@pytest.mark.parametrize(("column", "roll", "cell"), seed_cells())
def test_every_cell(column: str, roll: int, cell: str) -> None:
    result = resolve_damage(faces_for(roll), odds=column)
    assert result.row == roll and result.cell == f"{column}@{roll}"
    if cell == "E":
        assert result.eliminated and result.damage == 0
    else:
        assert not result.eliminated
        assert result.damage == (0 if cell == "-" else int(cell))


# --- odds columns: attack >= k x durability, rounded in the defender's favour ----

MULTIPLES = [(k, f"{k}-1") for k in range(1, 11)] + [(20, "20-1"), (50, "50-1-or-more")]
PREVIOUS = {"1-1": "1-2-or-less", **{f"{k}-1": f"{k - 1}-1" for k in range(2, 11)}, "20-1": "10-1", "50-1-or-more": "20-1"}


@pytest.mark.parametrize("durability", [1, 2, 3, 7, 10])
@pytest.mark.parametrize(("k", "column"), MULTIPLES)
def test_exact_multiple_selects_column_and_one_less_falls_back(durability: int, k: int, column: str) -> None:
    assert column_for(k * durability, durability) == column
    if durability > 1 or k > 1:  # 1 x 1 minus one is 0, which is no attack
        assert column_for(k * durability - 1, durability) == PREVIOUS[column]


@pytest.mark.parametrize(("attack", "durability", "column"), [
    (1, 2, "1-2-or-less"), (1, 3, "1-2-or-less"), (3, 4, "1-2-or-less"), (11, 10, "1-1"),
    (15, 1, "10-1"), (19, 1, "10-1"), (21, 1, "20-1"), (49, 1, "20-1"), (50, 1, "50-1-or-more"), (1000, 1, "50-1-or-more"),
    (50, 5, "10-1"), (99, 5, "10-1"), (100, 5, "20-1"), (249, 5, "20-1"), (250, 5, "50-1-or-more"),
])  # fmt: skip
def test_odds_examples(attack: int, durability: int, column: str) -> None:
    assert column_for(attack, durability) == column


@pytest.mark.parametrize(("attack", "durability"), [(5, 0), (5, -2), (0, 3), (-1, 3)])
def test_no_damage_check_without_durability_or_firepower(attack: int, durability: int) -> None:
    with pytest.raises(IllegalAction):
        column_for(attack, durability)


def test_bad_arguments() -> None:
    with pytest.raises(MalformedAction, match="not both"):
        resolve_damage((3, 4), attack=5, durability=1, odds="10-1")
    with pytest.raises(MalformedAction, match="unknown odds"):
        resolve_damage((3, 4), odds="11-1")
    with pytest.raises(MalformedAction, match="current durability"):
        resolve_damage((3, 4), attack=5)
    with pytest.raises(MalformedAction, match="shows 0"):
        resolve_damage((0, 4), attack=5, durability=1)


# --- E and clamps -----------------------------------------------------------------


def test_eliminated_regardless_of_durability() -> None:
    result = resolve_damage((1, 2), attack=500, durability=10)  # 50:1, roll 3
    assert result.eliminated and result.cell == "50-1-or-more@3"
    out = charts.resolve("damage", (1, 2), 0, Context(attack=500, durability=10))
    assert out.eliminated and [e.id for e in out.effects] == ["eliminated"]


@pytest.mark.parametrize(("faces", "modifier", "row"), [((1, 2), -1, 2), ((1, 2), -5, 2), ((1, 1), -20, 2), ((6, 5), 1, 12), ((6, 5), 9, 12), ((3, 4), 2, 9)])
def test_rolls_below_2_read_2_and_above_12_read_12(faces: tuple[int, int], modifier: int, row: int) -> None:
    result = resolve_damage(faces, modifier, odds="10-1")
    assert result.total == sum(faces) + modifier and result.row == row


# --- transformation trigger ---------------------------------------------------------


@pytest.mark.parametrize("faces", [(1, 1), (6, 6)])
def test_natural_double_one_or_six_transforms(faces: tuple[int, int]) -> None:
    assert resolve_damage(faces, attack=4, durability=2).transformation
    out = charts.resolve("damage", faces, 0, Context(attack=4, durability=2))
    assert out.next is not None and out.next.chart == "transformation" and out.next.modifier == 0


@pytest.mark.parametrize("faces", [(2, 2), (3, 3), (4, 4), (5, 5), (1, 2), (5, 6), (6, 1)])
def test_other_faces_do_not_transform(faces: tuple[int, int]) -> None:
    assert not resolve_damage(faces, attack=4, durability=2).transformation
    assert charts.resolve("damage", faces, 0, Context(attack=4, durability=2)).next is None


def test_modified_totals_do_not_make_doubles() -> None:
    # (1, 2) - 1 reads row 2 like a double one, but the dice were not a natural double
    assert not resolve_damage((1, 2), -1, attack=4, durability=2).transformation
    # a natural double six still transforms when a modifier moves the total
    assert resolve_damage((6, 6), -3, attack=4, durability=2).transformation


def test_doubles_set_by_an_effect_do_not_transform() -> None:
    assert not resolve_damage((1, 1), attack=4, durability=2, faces_by_effect=True).transformation
    out = charts.resolve("damage", (6, 6), 0, Context(attack=4, durability=2, faces_by_effect=True))
    assert out.next is None


def test_only_characters_transform() -> None:
    assert not resolve_damage((1, 1), attack=4, durability=2, target_is_character=False).transformation


def test_eliminating_double_one_still_transforms() -> None:
    result = resolve_damage((1, 1), attack=100, durability=2)  # 50:1, roll 2 = E
    assert result.eliminated and result.transformation


@settings(max_examples=200)
@given(st.integers(1, 5000), st.integers(1, 200))
def test_column_is_the_largest_multiple_reached(attack: int, durability: int) -> None:
    column = column_for(attack, durability)
    needed = dict(zip(SEED_COLUMNS, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 50), strict=True))
    assert attack >= needed[column] * durability
    later = SEED_COLUMNS[SEED_COLUMNS.index(column) + 1 :]
    assert all(attack < needed[c] * durability for c in later)

"""The Locke boards and movement (engine/locke/board.py).

Rule references: KMC 9.2.1 (planet rings, walking, teleport in one direction,
spaceport flights, fig. 9.1), KMC 3.2.1 (spaceport planet cards), KMC 9.3.1
(base grid, no wrap, teleport paths that never revisit, fig. 9.2), KMC 7.3.1
(outer cells, random cell by two dice), ruling N9 (no Rafnor; a random planet
cell is never a spaceport).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.encoding import encode
from engine.core.errors import IllegalAction, MalformedAction
from engine.locke import board
from engine.locke.board import (
    BASE_CELLS,
    OUTER_CELLS,
    PLANET_CARD_CELLS,
    PLANET_POSITIONS,
    PLANETS,
    PRINTED_SPACEPORTS,
    BaseCell,
    Move,
    PlanetCell,
    base_teleport_path,
    cell_from_key,
    cell_sort_key,
    destinations,
)

base_cells = st.sampled_from(BASE_CELLS)
planet_positions = st.sampled_from(PLANET_POSITIONS)
distances = st.integers(1, board.MAX_TELEPORT)


# ---------------------------------------------------------------- an independent oracle for base teleports

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def brute_force_ends(start: BaseCell, d: int) -> set[BaseCell]:
    """Every sequence of d orthogonal steps, kept when it stays on the grid and
    never enters a cell twice (KMC 9.3.1): 4**d sequences, no search pruning."""
    ends = set()
    for seq in itertools.product(STEPS, repeat=d):
        r, c = start.row, start.col
        seen = {(r, c)}
        ok = True
        for dr, dc in seq:
            r, c = r + dr, c + dc
            if not (1 <= r <= 6 and 1 <= c <= 6) or (r, c) in seen:
                ok = False
                break
            seen.add((r, c))
        if ok:
            ends.add(BaseCell(r, c))
    return ends


# ---------------------------------------------------------------- board data


def test_planets_are_the_six_of_fig_9_1() -> None:
    """KMC fig. 9.1 lists Earth, Ronwall, Selen, Toa, Dinar, Maia; no Rafnor (N9)."""
    assert [p.name_ja for p in PLANETS] == ["地球", "ロンウォール", "セレン", "トア", "ディナール", "マイア"]
    assert [p.number for p in PLANETS] == [1, 2, 3, 4, 5, 6]
    assert not any("ラフノール" in p.name_ja or p.id == "rafnor" for p in PLANETS)


def test_cell_counts() -> None:
    """36 planet-card cells (7.1.1), 6 printed spaceports, 42 positions; 36 base
    cells of which 20 are outer (7.3.1)."""
    assert len(PLANET_CARD_CELLS) == 36 and len(set(PLANET_CARD_CELLS)) == 36
    assert all(c.index != 0 for c in PLANET_CARD_CELLS)
    assert PRINTED_SPACEPORTS == tuple(PlanetCell(p, 0) for p in range(1, 7))
    assert len(PLANET_POSITIONS) == 42
    assert len(BASE_CELLS) == 36
    assert len(OUTER_CELLS) == 20
    inner = [c for c in BASE_CELLS if c not in OUTER_CELLS]
    assert inner == [BaseCell(r, c) for r in range(2, 6) for c in range(2, 6)]


def test_cell_keys_round_trip_and_encode_as_text() -> None:
    """Cells are hashed as their short text key."""
    for cell in PLANET_POSITIONS + BASE_CELLS:
        assert cell_from_key(cell.key) == cell
        assert encode(cell) == encode(cell.key)
    assert PlanetCell(3, 0).key == "P:3:0"
    assert BaseCell(2, 5).key == "B:2:5"


@pytest.mark.parametrize("bad", ["", "P:0:1", "P:7:1", "P:1:7", "B:0:1", "B:1:7", "B:1", "X:1:1", "P:1:01",
                                 "P:-1:1", "B: 1:1", 3, None, "P:1:1:1"])
def test_bad_cell_keys_are_refused(bad: object) -> None:
    with pytest.raises(MalformedAction):
        cell_from_key(bad)


def test_cell_constructors_refuse_nonsense() -> None:
    with pytest.raises(MalformedAction):
        PlanetCell(True, 1)
    with pytest.raises(MalformedAction):
        BaseCell(1, 0)


def test_sort_order_is_board_order() -> None:
    cells = list(BASE_CELLS + PLANET_POSITIONS)
    assert sorted(cells, key=cell_sort_key) == list(PLANET_POSITIONS + BASE_CELLS)


# ---------------------------------------------------------------- planet side


def test_planet_walk_joins_the_ends() -> None:
    """KMC 9.2.1: left of the spaceport is cell 6, right of cell 6 the spaceport."""
    assert destinations(PlanetCell(2, 0), Move.walk()) == (PlanetCell(2, 1), PlanetCell(2, 6))
    assert destinations(PlanetCell(2, 6), Move.walk()) == (PlanetCell(2, 0), PlanetCell(2, 5))
    assert destinations(PlanetCell(4, 3), Move.walk()) == (PlanetCell(4, 2), PlanetCell(4, 4))


def test_fig_9_1_teleport_of_three_from_selen_spaceport() -> None:
    """KMC fig. 9.1: from Selen's spaceport a teleport of 3 reaches cells 3 and 4 only."""
    assert destinations(PlanetCell(3, 0), Move.teleport(3)) == (PlanetCell(3, 3), PlanetCell(3, 4))


@pytest.mark.parametrize("d", range(1, 7))
def test_planet_teleport_every_distance_from_every_position(d: int) -> None:
    """Exactly the two positions d away on the same ring (never turning, never
    another planet, never the start: 7 positions, so +d and -d differ)."""
    for cell in PLANET_POSITIONS:
        want = {PlanetCell(cell.planet, (cell.index + d) % 7), PlanetCell(cell.planet, (cell.index - d) % 7)}
        got = destinations(cell, Move.teleport(d))
        assert set(got) == want and len(got) == 2 and cell not in got


@given(planet_positions, distances)
def test_planet_teleport_is_symmetric_and_stays_on_its_planet(cell: PlanetCell, d: int) -> None:
    for dest in destinations(cell, Move.teleport(d)):
        assert isinstance(dest, PlanetCell) and dest.planet == cell.planet
        assert cell in destinations(dest, Move.teleport(d))


def test_flight_goes_to_every_other_printed_spaceport() -> None:
    """KMC 9.2.1: from a spaceport, a whole move goes to another spaceport."""
    assert destinations(PlanetCell(1, 0), Move.flight()) == PRINTED_SPACEPORTS[1:]


def test_flight_uses_face_up_spaceport_cards_both_ways() -> None:
    """KMC 3.2.1: a spaceport planet card works like a printed spaceport: you
    can leave from it and land on it."""
    cards = (PlanetCell(5, 3), PlanetCell(1, 2))
    from_card = destinations(PlanetCell(5, 3), Move.flight(), spaceports=cards)
    assert from_card == (PlanetCell(1, 0), PlanetCell(1, 2)) + PRINTED_SPACEPORTS[1:]
    to_card = destinations(PlanetCell(2, 0), Move.flight(), spaceports=cards)
    assert PlanetCell(5, 3) in to_card and PlanetCell(1, 2) in to_card and PlanetCell(2, 0) not in to_card
    assert len(to_card) == 7


def test_flight_needs_a_spaceport() -> None:
    """KMC 9.2.1: stop on a spaceport first; flying from a plain cell is refused."""
    with pytest.raises(IllegalAction) as err:
        destinations(PlanetCell(1, 2), Move.flight())
    assert err.value.rule == "locke.9.2.1"
    with pytest.raises(IllegalAction, match="secret base"):
        destinations(BaseCell(1, 1), Move.flight())
    with pytest.raises(MalformedAction):
        destinations(PlanetCell(1, 0), Move.flight(), spaceports=(PlanetCell(2, 0),))


@pytest.mark.parametrize("d", [0, 7, -1])
def test_teleport_distance_outside_a_die_is_refused(d: int) -> None:
    with pytest.raises(IllegalAction) as err:
        destinations(PlanetCell(1, 1), Move.teleport(d))
    assert err.value.rule == "locke.9.2.1"
    with pytest.raises(IllegalAction) as err2:
        destinations(BaseCell(1, 1), Move.teleport(d))
    assert err2.value.rule == "locke.9.3.1"


def test_bad_moves_are_malformed() -> None:
    with pytest.raises(MalformedAction):
        destinations(BaseCell(1, 1), Move("swim"))  # type: ignore[arg-type]
    with pytest.raises(MalformedAction):
        destinations("B:1:1", Move.walk())  # type: ignore[arg-type]
    with pytest.raises(MalformedAction):
        destinations(BaseCell(1, 1), Move.teleport(True))


# ---------------------------------------------------------------- base side


def test_base_walk_is_orthogonal_without_wrap() -> None:
    """KMC 9.3.1: up, down, left, right; the edges do not join."""
    assert destinations(BaseCell(1, 1), Move.walk()) == (BaseCell(1, 2), BaseCell(2, 1))
    assert destinations(BaseCell(6, 3), Move.walk()) == (BaseCell(5, 3), BaseCell(6, 2), BaseCell(6, 4))
    assert destinations(BaseCell(3, 4), Move.walk()) == (
        BaseCell(2, 4), BaseCell(3, 3), BaseCell(3, 5), BaseCell(4, 4))


def test_fig_9_2_teleport_of_three_from_row_2_column_2() -> None:
    """KMC fig. 9.2: the ten cells marked reachable by a teleport of 3 from (2, 2)."""
    marked = {(1, 2), (1, 4), (2, 1), (2, 3), (2, 5), (3, 2), (3, 4), (4, 1), (4, 3), (5, 2)}
    assert set(destinations(BaseCell(2, 2), Move.teleport(3))) == {BaseCell(r, c) for r, c in marked}


@pytest.mark.parametrize("d", range(1, 7))
def test_base_teleport_matches_brute_force_everywhere(d: int) -> None:
    """Every reachable cell and no other, for every start and distance."""
    for cell in BASE_CELLS:
        got = destinations(cell, Move.teleport(d))
        assert set(got) == brute_force_ends(cell, d), (cell, d)
        assert list(got) == sorted(got, key=cell_sort_key)


def test_base_teleport_can_end_next_to_the_start_but_never_on_it() -> None:
    """A teleport of 3 may come back beside its start by going round a square
    (fig. 9.2 marks (1, 2)); no path of any length ends on its start."""
    assert BaseCell(1, 2) in destinations(BaseCell(2, 2), Move.teleport(3))
    for cell in BASE_CELLS:
        for d in range(1, 7):
            assert cell not in destinations(cell, Move.teleport(d))


def test_corner_teleport_of_two() -> None:
    """From a corner, two steps reach only the three cells at distance 2."""
    assert destinations(BaseCell(1, 1), Move.teleport(2)) == (BaseCell(1, 3), BaseCell(2, 2), BaseCell(3, 1))


@given(base_cells, distances)
def test_base_teleport_witness_paths(start: BaseCell, d: int) -> None:
    """Each destination has a path of exactly d orthogonal steps with no cell
    twice; each other cell has none."""
    reachable = set(destinations(start, Move.teleport(d)))
    for end in BASE_CELLS:
        path = base_teleport_path(start, end, d)
        if end in reachable:
            assert path is not None and path[0] == start and path[-1] == end
            assert len(path) == d + 1 and len(set(path)) == d + 1
            for a, b in itertools.pairwise(path):
                assert abs(a.row - b.row) + abs(a.col - b.col) == 1
        else:
            assert path is None


@given(base_cells, distances)
def test_base_teleport_is_symmetric_and_keeps_parity(start: BaseCell, d: int) -> None:
    """Reversing a path is a path (symmetry); every step changes the colour of
    a chequered board, so the Manhattan distance has d's parity and is <= d."""
    for end in destinations(start, Move.teleport(d)):
        assert isinstance(end, BaseCell)
        assert start in destinations(end, Move.teleport(d))
        m = abs(start.row - end.row) + abs(start.col - end.col)
        assert m <= d and m % 2 == d % 2


@given(base_cells)
def test_base_walk_is_symmetric(start: BaseCell) -> None:
    for end in destinations(start, Move.walk()):
        assert start in destinations(end, Move.walk())


def test_base_teleport_of_one_is_a_walk() -> None:
    for cell in BASE_CELLS + PLANET_POSITIONS:
        assert destinations(cell, Move.teleport(1)) == destinations(cell, Move.walk())


# ---------------------------------------------------------------- entry and random cells


def test_entry_cells() -> None:
    """KMC 9.2.1: enter on a left-hand spaceport; KMC 7.3.1/9.3.1: any outer cell."""
    assert board.entry_cells("planet") == PRINTED_SPACEPORTS
    assert board.entry_cells("base") == OUTER_CELLS
    with pytest.raises(MalformedAction):
        board.entry_cells("moon")  # type: ignore[arg-type]


def test_random_base_cell_reads_row_then_column() -> None:
    """KMC 7.3.1 note: red declared as the row, red 3 white 4 = row 3, column 4."""
    assert board.random_base_cell(3, 4) == BaseCell(3, 4)
    assert {board.random_base_cell(r, c) for r in range(1, 7) for c in range(1, 7)} == set(BASE_CELLS)
    for bad in (0, 7, True):
        with pytest.raises(MalformedAction):
            board.random_base_cell(bad, 1)


def test_random_planet_cell_never_picks_a_spaceport() -> None:
    """Ruling N9: planet die and cell die; all 36 card cells, never a spaceport."""
    picks = {board.random_planet_cell(p, c) for p in range(1, 7) for c in range(1, 7)}
    assert picks == set(PLANET_CARD_CELLS)
    with pytest.raises(MalformedAction):
        board.random_planet_cell(1, 0)


def test_is_spaceport() -> None:
    assert board.is_spaceport(PlanetCell(4, 0))
    assert not board.is_spaceport(PlanetCell(4, 1))
    assert board.is_spaceport(PlanetCell(4, 1), (PlanetCell(4, 1),))
    assert not board.is_spaceport(BaseCell(1, 1))

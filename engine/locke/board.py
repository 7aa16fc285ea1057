"""The two Locke boards as data, and where a move can take a piece.

Planet side (KMC 9.2.1, fig. 9.1): six separate planets. Each is a ring of
seven positions: the printed spaceport (ring index 0) and the six planet-card
cells 1..6. The ends join, so going left from the spaceport reaches cell 6.
A walk moves one position either way; a level teleport moves *exactly* d
positions in one chosen direction without turning. Planets connect only by
flights: a piece standing on a spaceport may spend its move going to any
other spaceport - the six printed ones plus any planet cell whose spaceport
planet card lies face up there (KMC 3.2.1).

Base side (KMC 9.3.1, 7.3.1, fig. 9.2): a 6x6 grid, rows and columns 1..6.
A walk goes to an orthogonal neighbour, with no wrap-around at the edges. A
level teleport follows a path of exactly d orthogonal steps that may turn but
never enters a cell twice (its start included); the piece lands on the path's
end. The 20 outer cells are where pieces enter; a random cell is two dice
read as row and column.

Why a module of its own: the reducer's ``legal_actions`` must offer exactly
the reachable cells, and the random bots, the scenario runner and the client
all need the same answer. Everything here is a pure function of its
arguments, returns tuples in one fixed order (:func:`cell_sort_key`), and
refuses an impossible move with a typed error naming the rule.

Cells are small value objects whose canonical form is a short text key
(``"P:3:4"``, ``"B:2:5"``), so they can sit in hashed game state directly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Literal, TypeGuard

from engine.core.errors import IllegalAction, MalformedAction

#: Ring index of the printed spaceport on every planet; cells are 1..6.
SPACEPORT = 0
#: Positions on one planet ring: the spaceport plus six cells.
RING = 7
#: Side length of the secret base grid.
BASE_SIZE = 6
#: Longest teleport: the distance is the face of one d6 (KMC 9.2.1).
MAX_TELEPORT = 6

RULE_PLANET_MOVE = "locke.9.2.1"
RULE_BASE_MOVE = "locke.9.3.1"
RULE_RANDOM_CELL = "locke.7.3.1"

MoveKind = Literal["walk", "teleport", "flight"]
Phase = Literal["planet", "base"]


@dataclasses.dataclass(frozen=True)
class Planet:
    """One planet of the board, numbered 1..6 from the top of KMC fig. 9.1."""

    number: int
    id: str
    name_ja: str
    name_en: str


#: The six planets of the KMC board, top to bottom (fig. 9.1). There is no
#: planet Rafnor on this board (ruling N9).
PLANETS: tuple[Planet, ...] = (
    Planet(1, "earth", "地球", "Earth"),
    Planet(2, "ronwall", "ロンウォール", "Ronwall"),
    Planet(3, "selen", "セレン", "Selen"),
    Planet(4, "toa", "トア", "Toa"),
    Planet(5, "dinar", "ディナール", "Dinar"),
    Planet(6, "maia", "マイア", "Maia"),
)


def _small_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclasses.dataclass(frozen=True, order=True)
class PlanetCell:
    """A position on a planet ring: ``index`` 0 is the printed spaceport."""

    planet: int
    index: int

    def __post_init__(self) -> None:
        if not (_small_int(self.planet) and 1 <= self.planet <= len(PLANETS)):
            raise MalformedAction(f"planet {self.planet!r} does not exist; planets are numbered 1..{len(PLANETS)}")
        if not (_small_int(self.index) and 0 <= self.index < RING):
            raise MalformedAction(f"planet cell {self.index!r} does not exist; use 0 (spaceport) or 1..{RING - 1}")

    @property
    def key(self) -> str:
        return f"P:{self.planet}:{self.index}"

    @property
    def is_printed_spaceport(self) -> bool:
        return self.index == SPACEPORT

    def __canonical__(self) -> str:
        return self.key

    def __str__(self) -> str:
        name = PLANETS[self.planet - 1].name_en
        return f"{name} spaceport" if self.index == SPACEPORT else f"{name} {self.index}"


@dataclasses.dataclass(frozen=True, order=True)
class BaseCell:
    """A secret-base cell: ``row`` from the top, ``col`` from the left, both 1..6."""

    row: int
    col: int

    def __post_init__(self) -> None:
        for name, value in (("row", self.row), ("column", self.col)):
            if not (_small_int(value) and 1 <= value <= BASE_SIZE):
                raise MalformedAction(f"secret-base {name} {value!r} does not exist; use 1..{BASE_SIZE}")

    @property
    def key(self) -> str:
        return f"B:{self.row}:{self.col}"

    @property
    def is_outer(self) -> bool:
        return self.row in (1, BASE_SIZE) or self.col in (1, BASE_SIZE)

    def __canonical__(self) -> str:
        return self.key

    def __str__(self) -> str:
        return f"base row {self.row} column {self.col}"


Cell = PlanetCell | BaseCell


def cell_sort_key(cell: Cell) -> tuple[int, int, int]:
    """The one order of every tuple of cells here: planet cells (by planet,
    then ring index) before base cells (row-major)."""
    if isinstance(cell, PlanetCell):
        return (0, cell.planet, cell.index)
    return (1, cell.row, cell.col)


def cell_from_key(key: object) -> Cell:
    """Parse a cell's text key (the inverse of ``.key``); refuses anything else."""
    if not isinstance(key, str):
        raise MalformedAction(f"cell key {key!r} is not text; write 'P:<planet>:<0..6>' or 'B:<row>:<col>'")
    parts = key.split(":")
    if len(parts) == 3 and parts[0] in ("P", "B") and all(p.isdigit() and len(p) == 1 for p in parts[1:]):
        a, b = int(parts[1]), int(parts[2])
        return PlanetCell(a, b) if parts[0] == "P" else BaseCell(a, b)
    raise MalformedAction(f"cell key {key!r} is not of the form 'P:<planet>:<0..6>' or 'B:<row>:<col>'")


#: The six printed spaceports, where pieces enter the planet side (KMC 9.2.1).
PRINTED_SPACEPORTS: tuple[PlanetCell, ...] = tuple(PlanetCell(p.number, SPACEPORT) for p in PLANETS)
#: The 36 planet-card cells (KMC 7.1.1): where planet cards and ambushes lie.
PLANET_CARD_CELLS: tuple[PlanetCell, ...] = tuple(
    PlanetCell(p.number, i) for p in PLANETS for i in range(1, RING)
)
#: Every position of the planet side (42).
PLANET_POSITIONS: tuple[PlanetCell, ...] = tuple(PlanetCell(p.number, i) for p in PLANETS for i in range(RING))
#: The 36 secret-base cells, row-major.
BASE_CELLS: tuple[BaseCell, ...] = tuple(
    BaseCell(r, c) for r in range(1, BASE_SIZE + 1) for c in range(1, BASE_SIZE + 1)
)
#: The 20 outer cells, where pieces enter the base (KMC 7.3.1, 9.3.1).
OUTER_CELLS: tuple[BaseCell, ...] = tuple(c for c in BASE_CELLS if c.is_outer)


@dataclasses.dataclass(frozen=True)
class Move:
    """What a piece tries: a walk, a teleport of ``distance`` cells (the face
    of a successful level teleport), or a flight between spaceports."""

    kind: MoveKind
    distance: int = 0

    @classmethod
    def walk(cls) -> Move:
        return cls("walk")

    @classmethod
    def teleport(cls, distance: int) -> Move:
        return cls("teleport", distance)

    @classmethod
    def flight(cls) -> Move:
        return cls("flight")

    def __canonical__(self) -> dict[str, object]:
        return {"kind": self.kind, "distance": self.distance}


def _sorted(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    return tuple(sorted(set(cells), key=cell_sort_key))


def _distance(distance: object, rule: str) -> int:
    if not _small_int(distance):
        raise MalformedAction(f"teleport distance {distance!r} is not an integer")
    if not 1 <= distance <= MAX_TELEPORT:
        raise IllegalAction(
            f"a teleport moves exactly the face of one die, 1..{MAX_TELEPORT} cells; {distance} is not possible",
            rule=rule,
        )
    return distance


def _base_neighbours(cell: BaseCell) -> tuple[BaseCell, ...]:
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        r, c = cell.row + dr, cell.col + dc
        if 1 <= r <= BASE_SIZE and 1 <= c <= BASE_SIZE:
            out.append(BaseCell(r, c))
    return tuple(out)


_NEIGHBOURS: dict[BaseCell, tuple[BaseCell, ...]] = {c: _base_neighbours(c) for c in BASE_CELLS}


def _path_ends(start: BaseCell, distance: int) -> frozenset[BaseCell]:
    """Ends of every self-avoiding orthogonal path of exactly ``distance`` steps."""
    ends: set[BaseCell] = set()

    def walk(cell: BaseCell, left: int, seen: frozenset[BaseCell]) -> None:
        if left == 0:
            ends.add(cell)
            return
        for nxt in _NEIGHBOURS[cell]:
            if nxt not in seen:
                walk(nxt, left - 1, seen | {nxt})

    walk(start, distance, frozenset((start,)))
    return frozenset(ends)


#: Base teleport ends, precomputed for every start and distance (36 x 6 small sets):
#: legal_actions asks this on every base-phase turn.
_BASE_TELEPORT: dict[tuple[BaseCell, int], tuple[Cell, ...]] = {
    (cell, d): _sorted(_path_ends(cell, d)) for cell in BASE_CELLS for d in range(1, MAX_TELEPORT + 1)
}


def is_spaceport(cell: Cell, spaceports: Iterable[PlanetCell] = ()) -> bool:
    """Printed spaceport, or a cell in ``spaceports`` (face-up spaceport planet cards)."""
    return isinstance(cell, PlanetCell) and (cell.is_printed_spaceport or cell in set(spaceports))


def walk_neighbours(cell: Cell) -> tuple[Cell, ...]:
    """Where one walking step goes: the two ring neighbours on a planet
    (KMC 9.2.1, the ends join), the orthogonal neighbours in the base with no
    wrap-around (KMC 9.3.1)."""
    if isinstance(cell, PlanetCell):
        return _sorted(PlanetCell(cell.planet, (cell.index + step) % RING) for step in (-1, 1))
    return _sorted(_NEIGHBOURS[cell])


def teleport_destinations(cell: Cell, distance: int) -> tuple[Cell, ...]:
    """Where a successful teleport of exactly ``distance`` cells can land.

    Planet: the two positions ``distance`` away on the ring, one each way; a
    teleport never changes direction and never leaves its planet (KMC 9.2.1,
    fig. 9.1). Base: the ends of every path of exactly ``distance`` orthogonal
    steps that never revisits a cell (KMC 9.3.1, fig. 9.2).
    """
    if isinstance(cell, PlanetCell):
        d = _distance(distance, RULE_PLANET_MOVE)
        return _sorted(PlanetCell(cell.planet, (cell.index + s * d) % RING) for s in (-1, 1))
    return _BASE_TELEPORT[(cell, _distance(distance, RULE_BASE_MOVE))]


def flight_destinations(cell: Cell, spaceports: Iterable[PlanetCell] = ()) -> tuple[Cell, ...]:
    """Every other spaceport, reached from a spaceport in one move phase.

    ``spaceports`` are the planet cells where a spaceport planet card lies face
    up; they count as spaceports both ways (KMC 3.2.1: you may leave from one
    and land on one). Flights exist only on the planet side.
    """
    extra = tuple(spaceports)
    for sp in extra:
        if not isinstance(sp, PlanetCell) or sp.is_printed_spaceport:
            raise MalformedAction(f"{sp!r} is not a planet-card cell that can hold a spaceport card")
    if isinstance(cell, BaseCell):
        raise IllegalAction("there are no flights inside the secret base; walk or teleport", rule=RULE_BASE_MOVE)
    if not is_spaceport(cell, extra):
        raise IllegalAction(
            f"{cell} is not a spaceport: stop on a spaceport first, then fly on your next turn", rule=RULE_PLANET_MOVE
        )
    return _sorted(sp for sp in PRINTED_SPACEPORTS + extra if sp != cell)


def destinations(position: Cell, move: Move, *, spaceports: Iterable[PlanetCell] = ()) -> tuple[Cell, ...]:
    """Exactly the cells ``move`` can reach from ``position``, in board order.

    The start itself is never among them (no move of the board ends where it
    began). ``spaceports`` only matters for flights (see
    :func:`flight_destinations`).
    """
    if not isinstance(position, (PlanetCell, BaseCell)):
        raise MalformedAction(f"{position!r} is not a board cell")
    if not isinstance(move, Move):
        raise MalformedAction(f"{move!r} is not a move")
    if move.kind == "walk":
        return walk_neighbours(position)
    if move.kind == "teleport":
        return teleport_destinations(position, move.distance)
    if move.kind == "flight":
        return flight_destinations(position, spaceports)
    raise MalformedAction(f"unknown move kind {move.kind!r}; use walk, teleport or flight")


def base_teleport_path(start: BaseCell, end: BaseCell, distance: int) -> tuple[BaseCell, ...] | None:
    """One path of exactly ``distance`` steps from ``start`` to ``end`` that
    never revisits a cell (``distance`` + 1 cells), or None if there is none.
    For logs and the client: the piece lands on ``end`` whichever path it took."""
    d = _distance(distance, RULE_BASE_MOVE)

    def search(path: tuple[BaseCell, ...]) -> tuple[BaseCell, ...] | None:
        here = path[-1]
        left = d + 1 - len(path)
        if left == 0:
            return path if here == end else None
        if abs(here.row - end.row) + abs(here.col - end.col) > left:
            return None
        for nxt in _NEIGHBOURS[here]:
            if nxt not in path:
                found = search(path + (nxt,))
                if found is not None:
                    return found
        return None

    return search((start,))


def entry_cells(phase: Phase) -> tuple[Cell, ...]:
    """Where a piece not yet on the board enters: any printed spaceport on the
    planet side (KMC 9.2.1), any outer cell of the base (KMC 7.3.1, 9.3.1)."""
    if phase == "planet":
        return PRINTED_SPACEPORTS
    if phase == "base":
        return OUTER_CELLS
    raise MalformedAction(f"unknown phase {phase!r}; use 'planet' or 'base'")


def _face(purpose: str, face: object) -> int:
    if not _small_int(face):
        raise MalformedAction(f"{purpose}: die face {face!r} is not an integer")
    if not 1 <= face <= 6:
        raise MalformedAction(f"{purpose}: a d6 shows 1..6, not {face}")
    return face


def random_base_cell(row_face: int, col_face: int) -> BaseCell:
    """The base cell two dice name: the die declared as the row first, then the
    column (KMC 7.3.1 note; random teleport, D-bomb misfire)."""
    return BaseCell(_face("random base cell (row)", row_face), _face("random base cell (column)", col_face))


def random_planet_cell(planet_face: int, cell_face: int) -> PlanetCell:
    """The planet-card cell two dice name: planet, then cell 1..6. It is never
    a spaceport (ruling N9), as the D-bomb misfire (seed 002) requires."""
    return PlanetCell(_face("random planet cell (planet)", planet_face), _face("random planet cell (cell)", cell_face))


def teleport_targets(key: str, distance: int) -> tuple[str, ...]:
    """The cells a teleport of ``distance`` from cell ``key`` may land on (KMC 9.2.1)."""
    return tuple(c.key for c in teleport_destinations(cell_from_key(key), distance))

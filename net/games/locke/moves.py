"""Where a Locke seat wants to go, and which offered move brings it closest.

Why a module of its own: purposeful movement is most of what separates a player from a
random walk. A seat picks *goal cells* for its side and phase (engine/locke/board.py
keys, "P:planet:pos" and "B:row:col"), then scores each offered move by the distance
it leaves to the nearest goal:

- planet phase (KMC 7.2, 9.2): the face-down planet cards, since three information
  cards found by one player or party end the search (seed 000 3.2.2); a seat hunting an
  enemy goes to that enemy's cell instead;
- base phase (KMC 7.3, 9.3): Good goes to face-up key bases (to destroy them) and to
  face-down base cards (to find them); Evil guards the key bases it placed or was shown
  and hunts Good; Yuki Hijiri makes for the King editorial room (KMC ch. 4).

Distances are counted on the board's own geometry: a planet ring of seven positions,
flights between spaceports as one move, the base grid by rows and columns.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from engine.locke import board

#: Distance given to an unreachable or unknown cell.
FAR = 99


def parse(key: str) -> tuple[str, int, int]:
    """("P", planet, position) or ("B", row, column); ("", 0, 0) off the board."""
    parts = key.split(":")
    if len(parts) != 3:
        return ("", 0, 0)
    return (parts[0], int(parts[1]), int(parts[2]))


def _ring(a: int, b: int) -> int:
    d = abs(a - b) % board.RING
    return min(d, board.RING - d)


@functools.lru_cache(maxsize=16384)
def distance(a: str, b: str, ports: tuple[str, ...] = ()) -> int:
    """Moves from ``a`` to ``b``: walks on a ring or the grid, one flight between spaceports
    (the printed ones and ``ports``, planet cells showing a spaceport card, KMC 3.2.1)."""
    pa, pb = parse(a), parse(b)
    if not pa[0] or not pb[0]:
        return FAR if not pa[0] else 1 + (0 if pb[0] != "B" else min(pb[1] - 1, 6 - pb[1], pb[2] - 1, 6 - pb[2]))
    if pa[0] != pb[0]:
        return FAR
    if pa[0] == "B":
        return abs(pa[1] - pb[1]) + abs(pa[2] - pb[2])
    direct = _ring(pa[2], pb[2]) if pa[1] == pb[1] else FAR
    leave = min([_ring(pa[2], board.SPACEPORT)] + [_ring(pa[2], parse(p)[2]) for p in ports if parse(p)[1] == pa[1]])
    arrive = min([_ring(board.SPACEPORT, pb[2])] + [_ring(parse(p)[2], pb[2]) for p in ports if parse(p)[1] == pb[1]])
    return min(direct, leave + 1 + arrive)


def nearest(cell: str, goals: Sequence[str], ports: tuple[str, ...] = ()) -> int:
    """Distance from ``cell`` to the closest goal (FAR when there is none)."""
    return min((distance(cell, g, ports) for g in goals), default=FAR)


def teleport_value(cell: str, level: int, goals: Sequence[str], ports: tuple[str, ...] = ()) -> int:
    """Expected distance left (times six) after declaring a teleport at ``level`` (KMC 9.2.1:
    a d6 at or under the level succeeds and moves exactly that far)."""
    here = nearest(cell, goals, ports)
    if not parse(cell)[0]:
        return here * 6  # off the board: a teleport is not offered there anyway
    total = 0
    for face in range(1, 7):
        if face > level:
            total += here
            continue
        total += min((nearest(end, goals, ports) for end in teleport_ends(cell, face)), default=here)
    return total


@functools.lru_cache(maxsize=1024)
def teleport_ends(cell: str, face: int) -> tuple[str, ...]:
    """The keys of the cells a teleport of exactly ``face`` from ``cell`` can end on (board.py)."""
    return tuple(str(c.key) for c in board.teleport_destinations(board.cell_from_key(cell), face))


def face_down_cells(state: Any) -> list[str]:
    """Cells whose card is still face down (not yet turned)."""
    return [key for key, cell in state.cells if cell.handle is not None]


def spaceports(state: Any) -> tuple[str, ...]:
    """Planet cells showing a spaceport card: spaceports both ways (KMC 3.2.1)."""
    return tuple(face_up(state, ("spaceport",)))


def face_up(state: Any, cards: Sequence[str]) -> list[str]:
    """Cells showing one of ``cards`` face up."""
    return [key for key, cell in state.cells if cell.face_up in cards]

"""The Locke board drawn from the public state: six planet rings, or the 6x6 base grid.

Why our own drawing: there is no board art, and the board must show only
public facts (a face-down card is a back, a face-up one its name from the
card data) plus what our own seat knows (where we hid our ambush or key
bases: client/locke/scene.py passes our knowledge's placements). The
layout is a pure function of the area and the phase, so a click can be
mapped back to a cell (``BoardLayout.cell_at``) and tests can click the
rectangle of any cell.

Planet side (engine/locke/board.py): each planet is a ring of seven
positions, the printed spaceport on top and cells 1..6 clockwise. Base
side: rows and columns 1..6, the outer ring (where pieces enter) drawn
with a stronger edge; a destroyed key base is crossed out.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

import pygame

from client import theme
from client.i18n import pick
from client.locke.words import Namer
from client.text import draw_text, draw_wrapped, fit_size
from engine.locke.board import BASE_SIZE, PLANETS, RING
from engine.locke.state import Cell, LockeState

#: One colour per seat (pieces, the rail's discs), distinct on the felt.
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (240, 190, 70), (110, 170, 240), (230, 90, 80), (96, 200, 120), (200, 120, 230),
    (250, 140, 60), (80, 210, 210), (235, 235, 235), (170, 140, 90), (250, 120, 170),
)
FACE_UP = (232, 222, 196)
FACE_UP_TEXT = (30, 30, 36)
EMPTY = (60, 86, 78)
PORT = (150, 200, 230)
MINE = (255, 120, 200)


@dataclasses.dataclass(frozen=True)
class BoardLayout:
    """Where each cell of the shown side is (``cells``: key -> rectangle), and that side."""

    side: str  # "planet" or "base"
    area: pygame.Rect
    cells: Mapping[str, pygame.Rect]
    rings: tuple[tuple[int, tuple[int, int], int], ...] = ()  # (planet number, centre, radius)

    def cell_at(self, pos: tuple[int, int]) -> str | None:
        """The cell under a screen point, or None."""
        for key, rect in self.cells.items():
            if rect.collidepoint(pos):
                return key
        return None


def side_of(state: LockeState) -> str:
    """Which side of the board is in play: the base grid once the base phase began."""
    if state.phase == "base":
        return "base"
    if state.phase in ("reveal", "over") and any(s.place.startswith("B:") for s in state.seats):
        return "base"
    return "planet"


def layout(area: pygame.Rect, side: str) -> BoardLayout:
    """The cells' rectangles for ``side`` inside ``area``."""
    cells: dict[str, pygame.Rect] = {}
    if side == "base":
        size = min(area.width, area.height) // BASE_SIZE
        left = area.centerx - size * BASE_SIZE // 2
        top = area.centery - size * BASE_SIZE // 2
        for r in range(1, BASE_SIZE + 1):
            for c in range(1, BASE_SIZE + 1):
                cells[f"B:{r}:{c}"] = pygame.Rect(left + (c - 1) * size + 2, top + (r - 1) * size + 2,
                                                  size - 4, size - 4)
        return BoardLayout("base", area, cells)
    cols = 3 if area.width >= area.height else 2
    rows = math.ceil(len(PLANETS) / cols)
    w, h = area.width // cols, area.height // rows
    rings = []
    for i, planet in enumerate(PLANETS):
        cx = area.left + (i % cols) * w + w // 2
        cy = area.top + (i // cols) * h + h // 2
        radius = int(min(w, h) * 0.34)
        card_h = max(18, int(min(w, h) * 0.22))
        card_w = max(14, int(card_h * 0.78))
        rings.append((planet.number, (cx, cy + card_h // 8), radius))
        for index in range(RING):
            angle = -math.pi / 2 + index * 2 * math.pi / RING
            x = cx + int(radius * math.cos(angle))
            y = cy + card_h // 8 + int(radius * math.sin(angle))
            cells[f"P:{planet.number}:{index}"] = pygame.Rect(x - card_w // 2, y - card_h // 2, card_w, card_h)
    return BoardLayout("planet", area, cells, tuple(rings))


@dataclasses.dataclass(frozen=True)
class BoardMarks:
    """What lights up or is marked besides the public state: legal targets, our own hidden
    placements (cell -> thing), destroyed key bases, the deciding seat."""

    targets: frozenset[str] = frozenset()
    mine: Mapping[str, str] = dataclasses.field(default_factory=dict)
    destroyed: frozenset[str] = frozenset()
    active: int = -1


def draw_board(surface: pygame.Surface, board: BoardLayout, state: LockeState, namer: Namer,
               marks: BoardMarks, text_size: int = 12) -> None:
    """Draw the shown side: cards, spaceports, pieces, lit targets, our own markers."""
    cells = dict(state.cells)
    if board.side == "planet":
        for number, centre, radius in board.rings:
            pygame.draw.circle(surface, theme.BG_FELT_DARK, centre, radius, width=max(2, radius // 10))
            planet = PLANETS[number - 1]
            draw_text(surface, pick(namer.lang, planet.name_en, planet.name_ja), centre, text_size + 2, theme.TEXT,
                      bold=True, anchor="center", max_width=int(radius * 1.4))
    for key, rect in board.cells.items():
        _draw_cell(surface, key, rect, cells.get(key), namer, marks, text_size)
    _draw_pieces(surface, board, state, marks, namer)


def _draw_cell(surface: pygame.Surface, key: str, rect: pygame.Rect, cell: Cell | None, namer: Namer,
               marks: BoardMarks, size: int) -> None:
    is_port = key.startswith("P:") and key.endswith(":0")
    if is_port:
        pygame.draw.ellipse(surface, PORT, rect)
        pygame.draw.ellipse(surface, theme.TEXT_DARK, rect.inflate(-rect.width // 2, -rect.height // 2), width=2)
    elif cell is not None and cell.face_up:
        pygame.draw.rect(surface, FACE_UP, rect, border_radius=4)
        name, box = namer.card(cell.face_up), rect.inflate(-4, -4)
        draw_wrapped(surface, name, box, fit_size(name, box.width, box.height, max(9, size - 2), 7), FACE_UP_TEXT,
                     centre=True)
    elif cell is not None and cell.handle is not None:
        pygame.draw.rect(surface, theme.CARD_BACK, rect, border_radius=4)
        pygame.draw.rect(surface, theme.CARD_BACK_EDGE, rect.inflate(-6, -6), width=1, border_radius=3)
    else:
        pygame.draw.rect(surface, EMPTY, rect, width=1, border_radius=4)
    if key.startswith("B:"):
        row, col = (int(p) for p in key.split(":")[1:])
        if row in (1, BASE_SIZE) or col in (1, BASE_SIZE):
            pygame.draw.rect(surface, theme.PANEL_EDGE, rect.inflate(4, 4), width=2, border_radius=5)
    if key in marks.destroyed:
        pygame.draw.line(surface, theme.BAD, rect.topleft, rect.bottomright, 3)
        pygame.draw.line(surface, theme.BAD, rect.topright, rect.bottomleft, 3)
    thing = marks.mine.get(key)
    if thing is not None:  # only our own hidden markers (our knowledge): a frame and the name inside
        pygame.draw.rect(surface, MINE, rect, width=3, border_radius=4)
        label = pygame.Rect(rect.left + 3, rect.top + 3, rect.width - 6, min(rect.height - 6, size + 6))
        pygame.draw.rect(surface, theme.SHADOW, label)
        draw_text(surface, namer.thing(thing), label.center, max(8, size - 3), MINE, anchor="center",
                  max_width=label.width - 2)
    if key in marks.targets:
        pygame.draw.rect(surface, theme.TARGET, rect.inflate(8, 8), width=3, border_radius=7)


def _draw_pieces(surface: pygame.Surface, board: BoardLayout, state: LockeState, marks: BoardMarks,
                 namer: Namer) -> None:
    """Each seat on the board as a standing figure of its silhouette in its colour with its number,
    parties stacked."""
    at: dict[str, list[int]] = {}
    for seat, s in enumerate(state.seats):
        if s.place and s.place in board.cells:
            at.setdefault(s.place, []).append(seat)
    for key, seats in at.items():
        rect = board.cells[key]
        leaders = [s for s in seats if state.seats[s].leader < 0 or state.seats[s].leader not in seats]
        cols = min(len(leaders), 2 if rect.width < rect.height * 1.2 else 3)
        rows = math.ceil(len(leaders) / cols)
        cw, ch = rect.width // cols, rect.height // rows
        radius = max(5, min(ch // 2 - 2, cw * 2 // 3 - 1))  # a figure is 3/2 radius wide, 2 radii tall
        for i, leader in enumerate(leaders):  # every stack inside its own cell: none spills onto a neighbour
            stack = [leader] + [s for s in seats if state.seats[s].leader == leader and s != leader]
            x = rect.left + (i % cols) * cw + cw // 2
            y = rect.top + (i // cols) * ch + ch // 2
            for depth, seat in enumerate(reversed(stack)):
                offset = (len(stack) - 1 - depth) * 2
                shape = namer.components.silhouette(state.seats[seat].silhouette)
                figure(surface, (x + offset, y - offset), radius, seat, shape.sex, shape.attribute,
                       state.seats[seat].alive, seat == marks.active)


#: The plinth under a figure: the silhouette's printed alignment (public, like the silhouette).
PLINTH = {"good": (236, 232, 220), "evil": (200, 60, 60), "special": (110, 170, 240)}


def figure(surface: pygame.Surface, centre: tuple[int, int], radius: int, seat: int, sex: str, attribute: str,
           alive: bool = True, active: bool = False) -> None:
    """One seat's piece on the board, drawn as the rulebook's stand-up silhouettes are used: a
    figure in the seat's colour (broad shoulders for a male silhouette, a flared dress for a
    female one), its number on the body, and a plinth in the silhouette's alignment colour. A
    dead one is hollow; the one deciding now is outlined. Everything drawn is public."""
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    cx, cy = centre
    head = max(3, radius * 2 // 5)
    top = cy - radius
    neck = top + 2 * head
    bottom = cy + radius - 2
    half = radius * 3 // 4
    if sex == "female":  # narrow shoulders, a dress widening to the plinth
        body = [(cx - half // 2, neck), (cx + half // 2, neck), (cx + half, bottom), (cx - half, bottom)]
    else:  # broad shoulders, narrowing to the plinth
        body = [(cx - half, neck), (cx + half, neck), (cx + half * 2 // 3, bottom), (cx - half * 2 // 3, bottom)]
    shadow = [(x + 1, y + 2) for x, y in body]
    pygame.draw.polygon(surface, theme.SHADOW, shadow)
    pygame.draw.circle(surface, theme.SHADOW, (cx + 1, top + head + 2), head)
    edge = theme.HILITE if active else theme.TEXT_DARK
    for shape_fill, width in ((colour if alive else theme.BG_FELT_DARK, 0), (edge if alive else colour, 2 if active else 1)):
        pygame.draw.polygon(surface, shape_fill, body, width)
        pygame.draw.circle(surface, shape_fill, (cx, top + head), head, width)
    if active:
        pygame.draw.polygon(surface, edge, body, 2)
        pygame.draw.circle(surface, edge, (cx, top + head), head, 2)
    plinth = pygame.Rect(0, 0, half * 2 + 4, max(3, radius // 4))
    plinth.midtop = (cx, bottom)
    pygame.draw.rect(surface, PLINTH.get(attribute, theme.TEXT_DIM), plinth, border_radius=2)
    draw_text(surface, str(seat + 1), (cx, (neck + bottom) // 2), max(8, radius), theme.TEXT_DARK if alive else colour,
              bold=True, anchor="center")


def piece(surface: pygame.Surface, centre: tuple[int, int], radius: int, seat: int, alive: bool = True,
          active: bool = False) -> None:
    """One seat's piece: a disc of its colour with its number (a dead one hollow)."""
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    pygame.draw.circle(surface, theme.SHADOW, (centre[0], centre[1] + 2), radius)
    if alive:
        pygame.draw.circle(surface, colour, centre, radius)
    else:
        pygame.draw.circle(surface, theme.BG_FELT_DARK, centre, radius)
        pygame.draw.circle(surface, colour, centre, radius, width=2)
    pygame.draw.circle(surface, theme.HILITE if active else theme.TEXT_DARK, centre, radius, width=2 if active else 1)
    draw_text(surface, str(seat + 1), centre, max(9, radius + 2), theme.TEXT_DARK if alive else colour, bold=True,
              anchor="center")


def destroyed_cells(events: Sequence[Sequence[object]]) -> frozenset[str]:
    """Cells whose key base was destroyed (public: the event log)."""
    return frozenset(str(e[3]) for e in events if e and e[0] == "key-base-destroyed" and len(e) > 3)

"""Where N seats sit around a table on the screen.

A game's scene asks :func:`seat_ring` for one rectangle per seat and the
table's middle (shared cards, dice, a board). Our own seat is always at the
bottom, nearest the player; the others follow clockwise in seat order, as
turns go round a real table: with two seats the opponent sits opposite,
with more they fill the left side, the top and the right side.

The seats lie on an ellipse inside the board. Their size is the largest
(down to :data:`MIN_SEAT`, up to what the game asks for) for which no two
seats overlap, none overlaps the middle, and every one stays on the board;
the middle is the largest box left between them. The rectangles depend on
the seat count and the board alone, so a resize is one new call.
"""

from __future__ import annotations

import dataclasses
import math

import pygame

#: The smallest seat rectangle (width, height) a scene can draw a name, a status and a few cards in.
MIN_SEAT = (96, 56)
#: The widest a seat gets (a row of cards); seats never take more than this.
MAX_SEAT = (420, 220)
#: Gap kept between two seats, and between a seat and the middle or the board's edge.
GAP = 8


@dataclasses.dataclass(frozen=True)
class Ring:
    """One rectangle per seat (indexed by seat) and the table's middle."""

    seats: tuple[pygame.Rect, ...]
    middle: pygame.Rect

    def of(self, seat: int) -> pygame.Rect:
        return self.seats[seat]


def seat_order(me: int, count: int) -> list[int]:
    """Seats in the order they sit, from ours clockwise: ``[me, me + 1, ...]`` around the table."""
    if not 0 <= me < count:
        raise ValueError(f"seat index {me} is not at a table of {count}")
    return [(me + k) % count for k in range(count)]


def _place(count: int, me: int, board: pygame.Rect, size: tuple[int, int]) -> list[pygame.Rect]:
    w, h = size
    a = max(0.0, (board.width - w) / 2 - GAP)
    b = max(0.0, (board.height - h) / 2 - GAP)
    rects: list[pygame.Rect] = [pygame.Rect(0, 0, 0, 0)] * count
    for k, seat in enumerate(seat_order(me, count)):
        # screen angles (y down): 90 degrees is the bottom; increasing angles go clockwise
        angle = math.radians(90 + 360 * k / count)
        cx = board.centerx + a * math.cos(angle)
        cy = board.centery + b * math.sin(angle)
        rect = pygame.Rect(0, 0, w, h)
        rect.center = (round(cx), round(cy))
        rects[seat] = rect.clamp(board.inflate(-2 * GAP, -2 * GAP))
    return rects


#: The middle is at most this many times as wide as it is tall (a band across the whole board
#: reads badly): a wider free area gives a centred box of this shape.
MIDDLE_ASPECT = 2.5


def _middle(board: pygame.Rect, seats: list[pygame.Rect]) -> pygame.Rect:
    """The largest rectangle, centred left to right, that keeps clear of every seat.

    Its top and bottom are tried at every seat edge (and the board's), not
    only around the board's centre: with three seats the free band between
    the upper seats and ours is below the centre, and a box centred on the
    board would be squeezed by the upper seats for nothing.
    """
    inner = board.inflate(-2 * GAP, -2 * GAP)
    cx = inner.centerx
    edges = {inner.top, inner.bottom}
    for s in seats:
        edges |= {min(inner.bottom, max(inner.top, s.top - GAP)), min(inner.bottom, max(inner.top, s.bottom + GAP))}
    ys = sorted(edges)
    best, best_area = pygame.Rect(cx, inner.centery, 0, 0), -1
    for i, top in enumerate(ys):
        for bottom in ys[i + 1:]:
            half = inner.width // 2
            for s in seats:
                if s.bottom + GAP <= top or s.top - GAP >= bottom:
                    continue  # not beside this band
                if s.left - GAP < cx < s.right + GAP:
                    half = 0  # the seat is in the way right in the middle
                    break
                half = min(half, s.left - GAP - cx if s.left > cx else cx - s.right - GAP)
            height = bottom - top
            width = min(2 * half, int(height * MIDDLE_ASPECT))
            if width > 0 and width * height > best_area:
                best, best_area = pygame.Rect(cx - width // 2, top, width, height), width * height
    return best


def _clear(rects: list[pygame.Rect]) -> bool:
    return not any(r.inflate(GAP, GAP).colliderect(s) for i, r in enumerate(rects) for s in rects[i + 1:])


def seat_ring(count: int, board: pygame.Rect, me: int = 0, largest: tuple[int, int] = MAX_SEAT) -> Ring:
    """Rectangles for ``count`` seats around ``board`` (ours, ``me``, at the bottom) and the middle.

    ``largest``: the most a seat needs (a game whose seats hold a few lines
    of text leaves the rest of the board to the middle); never above
    :data:`MAX_SEAT`. Raises ValueError when even :data:`MIN_SEAT` seats
    cannot sit apart on this board (a board far smaller than the smallest window).
    """
    if count < 1:
        raise ValueError("a table needs at least one seat")
    # start large (a third of the board each way, at most `largest`) and shrink until every seat is clear
    w = max(MIN_SEAT[0], min(largest[0], MAX_SEAT[0], board.width // 3 if count > 2 else board.width // 2))
    h = max(MIN_SEAT[1], min(largest[1], MAX_SEAT[1], board.height // 3))
    while True:
        seats = _place(count, me, board, (w, h))
        if _clear(seats):
            middle = _middle(board, seats)
            if middle.width >= MIN_SEAT[0] and middle.height >= MIN_SEAT[1]:
                return Ring(tuple(seats), middle)
        if w <= MIN_SEAT[0] and h <= MIN_SEAT[1]:
            raise ValueError(f"{count} seats do not fit apart on a {board.width}x{board.height} board")
        w = max(MIN_SEAT[0], int(w * 0.93))
        h = max(MIN_SEAT[1], int(h * 0.93))

"""Where the Locke table's parts go in a window of any size from 960x600 up.

Why apart from the scene: the scene, the screenshot tool and the layout
tests need the same rectangles, and they are a pure function of the window
size and of whether a combat is shown. Left: the seat rail (5-10 rows).
Middle: the banner (who decides what), the board (split with the combat
overlay during a combat), the bar (the instruction line and our choices).
Right: our private panel above the log, the table's buttons at the bottom.
"""

from __future__ import annotations

import dataclasses

import pygame

#: Text sizes at the reference window (1280x800); larger windows scale them up to MAX_SCALE.
BASE_TEXT = 13
MAX_SCALE = 1.5


@dataclasses.dataclass(frozen=True)
class TableLayout:
    """The rectangles of one window size (see the module docstring)."""

    rail: pygame.Rect
    banner: pygame.Rect
    board: pygame.Rect
    combat: pygame.Rect | None
    bar: pygame.Rect
    side: pygame.Rect
    private: pygame.Rect
    log: pygame.Rect
    scale: float

    def text(self, base: int = BASE_TEXT) -> int:
        """A reference text size at this window's scale."""
        return round(base * self.scale)


def table_layout(size: tuple[int, int], combat: bool) -> TableLayout:
    """The layout of a window of ``size``; ``combat`` splits the board with the combat overlay."""
    w, h = size
    scale = max(1.0, min(MAX_SCALE, w / 1280, h / 800))
    side_w = max(250, min(460, int(w * 0.25)))
    rail_w = max(176, min(330, int(w * 0.17)))
    middle_left, middle_right = rail_w + 8, w - side_w - 8
    banner = pygame.Rect(middle_left, 8, middle_right - middle_left, round(46 * scale))
    bar_h = max(140, min(260, int(h * 0.23)))
    bar = pygame.Rect(middle_left, h - bar_h - 8, banner.width, bar_h)
    board = pygame.Rect(middle_left, banner.bottom + 6, banner.width, bar.top - banner.bottom - 12)
    fight = None
    if combat:
        split = int(board.width * 0.56)
        fight = pygame.Rect(board.left + split + 6, board.top, board.width - split - 6, board.height)
        board = pygame.Rect(board.left, board.top, split, board.height)
    side = pygame.Rect(w - side_w, 0, side_w, h)
    private_h = int((h - 110) * 0.38)
    private = pygame.Rect(side.left + 12, 48, side_w - 24, private_h)
    log = pygame.Rect(side.left + 16, private.bottom + 40, side_w - 32, h - 70 - private.bottom - 40)
    return TableLayout(pygame.Rect(8, 8, rail_w - 8, h - 16), banner, board, fight, bar, side, private, log, scale)

"""What a player can click on a table now, and what a refused gesture says.

A scene rebuilds its :class:`Control` list whenever what is legal changes
(each control is a rectangle and a key naming what it is: a hand card, a
column, a button, a prompt option); a click goes to the topmost control
under the pointer (:func:`control_at`). Glowing outlines (:func:`glow`)
mark what can be clicked. A gesture the rules refuse gets a *notice*: one or
two lines saying why and a details line (the rule id), drawn just above the
scene's bar (:func:`notice_rect`, :func:`draw_notice`). Nothing here knows
a game; the keys are the scene's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pygame

from client import theme
from client.text import draw_text, line_height, wrap
from client.widgets import panel

#: What a control is, as the scene names it: ("hand", handle), ("mine", "A"), ("button", "pass"), ...
Key = tuple[object, ...]


@dataclasses.dataclass
class Control:
    """Something clickable now: ``key`` says what (hand card, column, button)."""

    rect: pygame.Rect
    key: Key
    label: str = ""


def control_at(controls: Sequence[Control], pos: tuple[int, int]) -> Control | None:
    """The topmost control under ``pos`` (the last built is on top, e.g. a raised hand card)."""
    for control in reversed(controls):
        if control.rect.collidepoint(pos):
            return control
    return None


def glow(surface: pygame.Surface, rect: pygame.Rect, colour: theme.Colour, width: int = 3) -> None:
    """The outline that marks a clickable (or selected) thing."""
    pygame.draw.rect(surface, colour, rect.inflate(6, 6), width=width, border_radius=12)


def notice_rect(board: pygame.Rect, bar: pygame.Rect, text: str = "", details: str = "") -> pygame.Rect:
    """Where a why-not notice goes: just above the bar, across the board's middle,
    as tall as its (at most two) lines and the details line."""
    w = min(board.width - 40, 760)
    lines = max(1, min(2, len(wrap(text, 15, w - 24, True)))) if text else 1
    h = 12 + lines * line_height(15) + (line_height(12) if details else 0)
    return pygame.Rect(bar.centerx - w // 2, bar.top - h - 4, w, h)


def draw_notice(surface: pygame.Surface, rect: pygame.Rect, text: str, details: str) -> None:
    """A why-not notice: what happened in words (two lines at most), then the details line."""
    panel(surface, rect, fill=(48, 30, 30), edge=theme.WARN, radius=10, alpha=240)
    inner = rect.inflate(-24, -12)
    y = inner.top
    for line in wrap(text, 15, inner.width, True)[:2]:
        draw_text(surface, line, (inner.left, y), 15, theme.TEXT, bold=True, max_width=inner.width)
        y += line_height(15)
    if details:
        draw_text(surface, details, (inner.left, y), 12, theme.TEXT_DIM, max_width=inner.width)

"""Modal prompts every game's table asks: a title, some lines, option buttons, card faces.

A scene builds a :class:`Prompt` (a choice among legal inputs, a
confirmation, a pile to look at), lays it out over its board with
:func:`layout_prompt` whenever the controls are rebuilt, and draws it last
with :func:`draw_prompt`; its buttons are the only controls while it is
up. Nothing here knows a game: card faces come from the scene's renderer
(``face(card_id, size)``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pygame

from client import theme
from client.text import draw_text, draw_wrapped, line_height, wrap
from client.widgets import Button, panel

#: (label, what a click does, primary) for each option of a prompt.
Option = tuple[str, Callable[[], None], bool]
#: Renders a card face at a size: ``face(card_id, (width, height))``.
Face = Callable[[str, tuple[int, int]], pygame.Surface]


@dataclasses.dataclass
class Prompt:
    """A modal question: a title, some lines, option buttons (and card faces).

    ``kind`` says what it is for ("choice", "confirm", "pile", "forfeit",
    or a game's own kind): a pile shows more faces per row and no hover
    preview; ``accent`` draws the edge in the accent colour (a question
    that weighs more, Rider's attack preview). The layout fields are filled
    by :func:`layout_prompt`."""

    title: str
    lines: list[str]
    options: list[Option]
    cards: list[str] = dataclasses.field(default_factory=list)
    kind: str = "choice"
    accent: bool = False
    buttons: list[Button] = dataclasses.field(default_factory=list)
    rect: pygame.Rect = dataclasses.field(default_factory=pygame.Rect)
    cards_rect: pygame.Rect = dataclasses.field(default_factory=pygame.Rect)
    card_w: int = 0


def layout_prompt(prompt: Prompt, board: pygame.Rect, cancel: Callable[[], None] | None = None) -> None:
    """Size and centre ``prompt`` on ``board`` and make its buttons (the primary
    option answers Enter, ``cancel``'s answers Esc)."""
    n = len(prompt.options)
    cols = 1 if n <= 7 else 2
    if prompt.kind == "choice" and n > 7 and all(len(o[0]) > 40 for o in prompt.options[:-1]):
        cols = 1
    rows = (n + cols - 1) // cols
    width = min(board.width - 60, 760 if cols == 2 or prompt.cards else 560)
    card_w = 0
    card_rows = 0
    if prompt.cards:
        per_row = min(len(prompt.cards), 6 if prompt.kind == "pile" else 5)
        card_w = min(120, (width - 40) // max(1, per_row) - 10)
        card_rows = min(3, (len(prompt.cards) + per_row - 1) // per_row)
    card_h = int(card_w * 7 / 5)
    text_h = sum(len(wrap(line, 16, width - 40)) for line in prompt.lines) * line_height(16)
    fixed = 70 + text_h + rows * 46 + 20
    room = board.height - 40
    if prompt.cards and fixed + card_rows * (card_h + 10) + 10 > room:
        # a small window: smaller faces, never faces under the buttons
        card_h = max(28, (room - fixed - 10) // card_rows - 10)
        card_w = int(card_h * 5 / 7)
    height = min(fixed + (card_rows * (card_h + 10) + 10 if prompt.cards else 0), room)
    rect = pygame.Rect(0, 0, width, height)
    rect.center = board.center
    prompt.rect = rect
    prompt.buttons = []
    bw = (width - 40 - (cols - 1) * 10) // cols
    y0 = rect.bottom - 16 - rows * 46
    for i, (label, callback, primary) in enumerate(prompt.options):
        r, c = divmod(i, cols)
        brect = pygame.Rect(rect.left + 20 + c * (bw + 10), y0 + r * 46, bw, 38)
        hotkey = "Enter" if primary else ("Esc" if cancel is not None and callback == cancel else "")
        prompt.buttons.append(Button(brect, label, callback, primary=primary, size=15, hotkey=hotkey))
    prompt.cards_rect = pygame.Rect(rect.left + 20, rect.top + 60 + text_h, width - 40, card_rows * (card_h + 10))
    prompt.card_w = card_w


def draw_prompt(surface: pygame.Surface, prompt: Prompt, face: Face) -> None:
    """The prompt over a shaded table: title, lines, up to three rows of faces, buttons."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 130))
    surface.blit(shade, (0, 0))
    rect = prompt.rect
    panel(surface, rect, fill=(30, 36, 46), edge=theme.ACCENT if prompt.accent else theme.PANEL_EDGE, radius=14)
    draw_text(surface, prompt.title, (rect.left + 20, rect.top + 16), 20, theme.TEXT, bold=True,
              max_width=rect.width - 40)
    y = rect.top + 54
    for line in prompt.lines:
        y += draw_wrapped(surface, line, pygame.Rect(rect.left + 20, y, rect.width - 40, 200), 16, theme.TEXT)
    if prompt.cards:
        area = prompt.cards_rect
        cw = prompt.card_w
        ch = int(cw * 7 / 5)
        per_row = max(1, area.width // (cw + 10))
        for i, card in enumerate(prompt.cards[: per_row * 3]):
            r, c = divmod(i, per_row)
            surface.blit(face(card, (cw, ch)), (area.left + c * (cw + 10), area.top + r * (ch + 10)))
    for b in prompt.buttons:
        b.draw(surface)

"""The help overlay (F1 or ?): a legend of every icon and badge, the rules in
a page, the keys.

The overlay is generic: a game gives it its pages (:class:`HelpPage`): a
*legend* page is a list of entries, each an icon drawn by the game's own
drawing code (so the legend shows exactly what the table shows) beside a line
of words; a *text* page is a list of paragraphs. Every word comes from the
catalogue (:mod:`client.i18n`) by key, so the overlay re-words itself when
the language changes. It lays itself out from the window size in
:meth:`HelpOverlay.layout` and draws without changing anything.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import pygame

from client import theme
from client.i18n import tr
from client.text import draw_text, draw_wrapped, line_height, wrap
from client.widgets import Button, panel

#: Draws one legend icon inside the given rectangle (read-only: it only paints).
IconPainter = Callable[[pygame.Surface, pygame.Rect, str], None]

#: Width and height of a legend icon cell.
ICON_W = 84
ROW_H = 50
TEXT_SIZE = 14


@dataclasses.dataclass(frozen=True)
class LegendEntry:
    """One icon and the catalogue key of the words beside it."""

    icon: IconPainter
    text_key: str


@dataclasses.dataclass(frozen=True)
class HelpPage:
    """A tab of the overlay: a legend (``entries``) or paragraphs (``paragraphs``, catalogue keys).
    ``fields``: (name, value) pairs filled into the paragraphs' words (a game's title, a file)."""

    title_key: str
    entries: tuple[LegendEntry, ...] = ()
    paragraphs: tuple[str, ...] = ()
    fields: tuple[tuple[str, str], ...] = ()


def is_help_key(event: pygame.event.Event) -> bool:
    """F1, or the key that types "?" (on any layout: the event's own character)."""
    if event.type != pygame.KEYDOWN:
        return False
    return bool(event.key == pygame.K_F1 or getattr(event, "unicode", "") == "?"
                or (event.key == pygame.K_SLASH and event.mod & pygame.KMOD_SHIFT))


class HelpOverlay:
    """A modal panel over a scene with one tab per page; Esc, F1, ? or Close shut it."""

    def __init__(self, pages: Sequence[HelpPage], on_close: Callable[[], None], lang: str) -> None:
        self.pages = list(pages)
        self.on_close = on_close
        self.lang = lang
        self.page = 0
        self.scroll = 0  # text pages: lines scrolled
        self.rect = pygame.Rect(0, 0, 10, 10)
        self.body = pygame.Rect(0, 0, 10, 10)
        self.tabs: list[Button] = []
        self.close_button = Button(pygame.Rect(0, 0, 10, 10), "", on_close)
        #: Where each legend entry of the current page sits: (icon cell, text cell).
        self.cells: list[tuple[pygame.Rect, pygame.Rect]] = []

    # -- layout -----------------------------------------------------------------------
    def layout(self, size: tuple[int, int], lang: str) -> None:
        """Every rectangle for this window size and language (never in draw)."""
        self.lang = lang
        w, h = size
        self.rect = pygame.Rect(0, 0, min(w - 40, 1200), min(h - 40, 900))
        self.rect.center = (w // 2, h // 2)
        r = self.rect
        close_w = 130
        self.close_button = Button(pygame.Rect(r.right - close_w - 16, r.top + 14, close_w, 36), tr(lang, "close"),
                                   self.on_close, hotkey="Esc", size=15)
        self.tabs = []
        x = r.left + 16
        room = self.close_button.rect.left - 12 - x
        tab_w = min(190, (room - 8 * (len(self.pages) - 1)) // max(1, len(self.pages)))
        for i, page in enumerate(self.pages):
            tab = Button(pygame.Rect(x, r.top + 14, tab_w, 36), tr(lang, page.title_key), self._tab(i), size=15,
                         hotkey=str(i + 1), payload=("help_tab", i))
            tab.selected = i == self.page
            self.tabs.append(tab)
            x += tab_w + 8
        self.body = pygame.Rect(r.left + 20, r.top + 64, r.width - 40, r.height - 64 - 16)
        self._layout_cells()

    def _layout_cells(self) -> None:
        self.cells = []
        page = self.pages[self.page]
        if not page.entries:
            return
        cols = 2 if self.body.width >= 700 else 1
        rows = (len(page.entries) + cols - 1) // cols
        col_w = (self.body.width - 20 * (cols - 1)) // cols
        row_h = max(34, min(ROW_H + 14, self.body.height // max(1, rows)))
        for i in range(len(page.entries)):
            c, rrow = divmod(i, rows)
            x = self.body.left + c * (col_w + 20)
            y = self.body.top + rrow * row_h
            icon = pygame.Rect(x, y + 3, ICON_W, row_h - 6)
            text = pygame.Rect(icon.right + 12, y, col_w - ICON_W - 12, row_h - 2)
            self.cells.append((icon, text))

    def widget_rects(self) -> list[tuple[str, pygame.Rect]]:
        """Named rectangles of what the player clicks or reads (overlap tests)."""
        rects = [(f"help_tab:{i}", t.rect) for i, t in enumerate(self.tabs)] + [("help_close", self.close_button.rect)]
        for i, (icon, text) in enumerate(self.cells):
            rects += [(f"help_icon:{i}", icon), (f"help_text:{i}", text)]
        return rects

    def _tab(self, index: int) -> Callable[[], None]:
        return lambda: self.show(index)

    def show(self, index: int) -> None:
        self.page = max(0, min(len(self.pages) - 1, index))
        self.scroll = 0
        for i, tab in enumerate(self.tabs):
            tab.selected = i == self.page
        self._layout_cells()

    # -- input ---------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        """Everything goes to the overlay while it is open (it is modal)."""
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE or is_help_key(event):
                self.on_close()
            elif pygame.K_1 <= event.key < pygame.K_1 + len(self.pages):
                self.show(event.key - pygame.K_1)
            elif event.key in (pygame.K_TAB, pygame.K_RIGHT):
                self.show((self.page + 1) % len(self.pages))
            elif event.key == pygame.K_LEFT:
                self.show((self.page - 1) % len(self.pages))
            elif event.key in (pygame.K_DOWN, pygame.K_PAGEDOWN):
                self.scroll_by(3 if event.key == pygame.K_DOWN else 12)
            elif event.key in (pygame.K_UP, pygame.K_PAGEUP):
                self.scroll_by(-3 if event.key == pygame.K_UP else -12)
            return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-3 * event.y)
            return
        for button in [*self.tabs, self.close_button]:
            if button.handle(event):
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self.on_close()

    def text_lines(self) -> list[tuple[str, bool]]:
        """The current text page wrapped to the body: (line, is a heading). Each
        paragraph key has a heading (``<key>_t``) and a body (``<key>``)."""
        page = self.pages[self.page]
        fields = dict(page.fields)
        lines: list[tuple[str, bool]] = []
        for key in page.paragraphs:
            lines.append((tr(self.lang, f"{key}_t", **fields), True))
            lines += [(line, False) for line in wrap(tr(self.lang, key, **fields), TEXT_SIZE + 1, self.body.width - 8)]
            lines.append(("", False))
        return lines

    def max_scroll(self) -> int:
        if not self.pages[self.page].paragraphs:
            return 0
        fit = self.body.height // line_height(TEXT_SIZE + 1)
        return max(0, len(self.text_lines()) - fit)

    def scroll_by(self, lines: int) -> None:
        self.scroll = max(0, min(self.max_scroll(), self.scroll + lines))

    # -- drawing (read-only) --------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        panel(surface, self.rect, fill=(28, 34, 44), edge=theme.ACCENT, radius=14)
        for tab in self.tabs:
            tab.draw(surface)
        self.close_button.draw(surface)
        page = self.pages[self.page]
        if page.entries:
            for entry, (icon, text) in zip(page.entries, self.cells):
                pygame.draw.rect(surface, (40, 74, 64), icon, border_radius=8)
                clip = surface.get_clip()
                surface.set_clip(icon)
                entry.icon(surface, icon, self.lang)
                surface.set_clip(clip)
                draw_wrapped(surface, tr(self.lang, entry.text_key), text, TEXT_SIZE, theme.TEXT)
        else:
            step = line_height(TEXT_SIZE + 1)
            y = self.body.top
            clip = surface.get_clip()
            surface.set_clip(self.body)
            for line, heading in self.text_lines()[self.scroll:]:
                if y > self.body.bottom:
                    break
                if line:
                    draw_text(surface, line, (self.body.left, y), TEXT_SIZE + 1, theme.ACCENT if heading else theme.TEXT,
                              bold=heading, max_width=self.body.width)
                y += step
            surface.set_clip(clip)
            if self.max_scroll():
                hint = tr(self.lang, "help_scroll")
                draw_text(surface, hint, (self.rect.right - 20, self.rect.bottom - 6), 12, theme.TEXT_DIM,
                          anchor="bottomright")

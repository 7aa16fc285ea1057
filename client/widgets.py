"""Small retained widgets: buttons, text fields, option pickers, panels.

Widgets know their rectangle, draw themselves and turn mouse/keyboard
events into callbacks. Hover state comes from MOUSEMOTION events (not from
polling the mouse) so synthetic test input behaves like real input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from client import theme
from client.text import draw_text, line_height, render


def panel(surface: pygame.Surface, rect: pygame.Rect, fill: theme.Colour = theme.PANEL,
          edge: theme.Colour | None = theme.PANEL_EDGE, radius: int = 10, alpha: int = 255) -> None:
    """A rounded panel, optionally translucent."""
    if alpha < 255:
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, (*fill, alpha), layer.get_rect(), border_radius=radius)
        surface.blit(layer, rect)
    else:
        pygame.draw.rect(surface, fill, rect, border_radius=radius)
    if edge is not None:
        pygame.draw.rect(surface, edge, rect, width=1, border_radius=radius)


class Button:
    """A clickable label. ``payload`` lets tests and scenes identify it."""

    def __init__(self, rect: pygame.Rect, label: str, on_click: Callable[[], None], *,
                 primary: bool = False, enabled: bool = True, payload: Any = None,
                 hotkey: str = "", size: int = 0, tooltip: str = "") -> None:
        self.rect = pygame.Rect(rect)
        self.label = label
        self.on_click = on_click
        self.primary = primary
        self.enabled = enabled
        self.payload = payload
        self.hotkey = hotkey
        self.size = size
        self.tooltip = tooltip
        self.hover = False
        self.selected = False

    def handle(self, event: pygame.event.Event) -> bool:
        """True if the event was consumed (a click on this button)."""
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.rect.collidepoint(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            if self.enabled:
                self.on_click()
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        if not self.enabled:
            fill = theme.BUTTON_DISABLED
        elif self.primary:
            fill = theme.BUTTON_PRIMARY_HOVER if self.hover else theme.BUTTON_PRIMARY
        else:
            fill = theme.BUTTON_HOVER if self.hover else theme.BUTTON
        pygame.draw.rect(surface, theme.SHADOW, self.rect.move(0, 2), border_radius=8)
        pygame.draw.rect(surface, fill, self.rect, border_radius=8)
        edge = theme.HILITE if self.selected else theme.PANEL_EDGE
        pygame.draw.rect(surface, edge, self.rect, width=2 if self.selected else 1, border_radius=8)
        size = self.size or max(12, min(20, self.rect.height // 2))
        colour = theme.TEXT if self.enabled else theme.TEXT_DIM
        if self.primary and self.enabled:
            colour = theme.TEXT_DARK
        label = self.label
        draw_text(surface, label, self.rect.center, size, colour, bold=self.primary, anchor="center",
                  max_width=self.rect.width - 12)
        if self.hotkey:
            draw_text(surface, self.hotkey, (self.rect.right - 5, self.rect.top + 3), 11,
                      theme.TEXT_DARK if self.primary else theme.TEXT_DIM, anchor="topright")


class TextField:
    """A one-line text input with a label; click to focus, type to edit."""

    def __init__(self, rect: pygame.Rect, value: str = "", *, max_len: int = 24,
                 on_change: Callable[[str], None] | None = None, read_only: bool = False,
                 on_copy: Callable[[], None] | None = None) -> None:
        self.rect = pygame.Rect(rect)
        self.value = value
        self.max_len = max_len
        self.focused = False
        self.on_change = on_change
        #: A read-only field shows text to copy: a click selects all of it, Ctrl+C copies.
        self.read_only = read_only
        self.on_copy = on_copy

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            was = self.focused
            self.focused = self.rect.collidepoint(event.pos)
            if self.focused and not was and not self.read_only:
                pygame.key.start_text_input()
            return self.focused
        if not self.focused:
            return False
        if self.read_only:
            if event.type == pygame.KEYDOWN and event.key == pygame.K_c and event.mod & pygame.KMOD_CTRL \
                    and self.on_copy is not None:
                self.on_copy()
                return True
            return False
        if event.type == pygame.TEXTINPUT:
            self._set((self.value + event.text)[: self.max_len])
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self._set(self.value[:-1])
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_TAB):
                self.focused = False
            return True
        return False

    def _draw_read_only(self, surface: pygame.Surface, inner: pygame.Rect) -> None:
        """The whole text, never elided (a code is useless cut short): on one
        line if it fits at a readable size, else split at a dash on two;
        shown selected (highlighted) while focused."""
        lines = [self.value]
        size = 16
        if render(self.value, size, theme.TEXT).get_width() > inner.width:
            cut = [i for i, ch in enumerate(self.value) if ch == "-"]
            if cut and inner.height >= 2 * line_height(12):
                mid = min(cut, key=lambda i: abs(i - len(self.value) // 2))
                lines = [self.value[: mid + 1], self.value[mid + 1:]]
                size = min(16, max(9, (inner.height - 2) // 2 - 2))
        while size > 9 and max(render(ln, size, theme.TEXT).get_width() for ln in lines) > inner.width:
            size -= 1
        colour = theme.TEXT_DARK if self.focused else theme.TEXT
        runs = [render(ln, size, colour) for ln in lines]
        total = sum(r.get_height() for r in runs)
        y = self.rect.centery - total // 2
        clip = surface.get_clip()
        surface.set_clip(inner)
        for run in runs:
            rect = run.get_rect(topleft=(inner.left, y))
            if self.focused:
                pygame.draw.rect(surface, theme.INFO, rect.inflate(4, 0))
            surface.blit(run, rect)
            y += run.get_height()
        surface.set_clip(clip)

    def _set(self, value: str) -> None:
        self.value = value
        if self.on_change is not None:
            self.on_change(value)

    def draw(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, (18, 22, 28), self.rect, border_radius=6)
        pygame.draw.rect(surface, theme.ACCENT if self.focused else theme.PANEL_EDGE, self.rect, width=2, border_radius=6)
        size = max(12, self.rect.height // 2)
        inner = self.rect.inflate(-16, -4)
        if self.read_only:
            self._draw_read_only(surface, inner)
            return
        run = render(self.value, size, theme.TEXT_DARK if self.read_only and self.focused else theme.TEXT)
        clip = surface.get_clip()
        surface.set_clip(inner)
        x = inner.left if run.get_width() < inner.width else inner.right - run.get_width() - 4
        surface.blit(run, run.get_rect(midleft=(x, self.rect.centery)))
        if self.focused:
            cx = x + run.get_width() + 2
            pygame.draw.line(surface, theme.ACCENT, (cx, self.rect.top + 7), (cx, self.rect.bottom - 7), 2)
        surface.set_clip(clip)


class Choice:
    """A row of mutually exclusive options (deck, language)."""

    def __init__(self, rect: pygame.Rect, options: Sequence[tuple[Any, str]], value: Any,
                 on_change: Callable[[Any], None], *, columns: int = 0) -> None:
        self.rect = pygame.Rect(rect)
        self.options = list(options)
        self.value = value
        self.on_change = on_change
        self.columns = columns or len(self.options)
        self.buttons: list[Button] = []
        self.layout()

    def layout(self) -> None:
        self.buttons = []
        cols = max(1, self.columns)
        rows = (len(self.options) + cols - 1) // cols
        gap = 8
        w = (self.rect.width - gap * (cols - 1)) // cols
        h = (self.rect.height - gap * (rows - 1)) // max(1, rows)
        for i, (value, label) in enumerate(self.options):
            r = pygame.Rect(self.rect.left + (i % cols) * (w + gap), self.rect.top + (i // cols) * (h + gap), w, h)
            button = Button(r, label, self._picker(value), payload=value, size=min(17, h // 2))
            button.selected = value == self.value
            self.buttons.append(button)

    def _picker(self, value: Any) -> Callable[[], None]:
        return lambda: self._pick(value)

    def _pick(self, value: Any) -> None:
        self.value = value
        for b in self.buttons:
            b.selected = b.payload == value
        self.on_change(value)

    def handle(self, event: pygame.event.Event) -> bool:
        return any([b.handle(event) for b in self.buttons])  # noqa: C419 - every button sees the event

    def draw(self, surface: pygame.Surface) -> None:
        for b in self.buttons:
            b.draw(surface)

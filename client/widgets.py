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


#: The smallest a button's label shrinks to before it is cut with an ellipsis.
BUTTON_MIN_SIZE = 11


def share_widths(labels: Sequence[str], size: int, total: int, gap: int) -> list[int]:
    """The widths of a row of buttons labelled ``labels`` (text ``size``) filling ``total`` pixels
    with ``gap`` between them: each in proportion to its label and margins, so a long label gets
    the room a short one does not need (equal widths cut "Good game!" while "Hmm…" had room)."""
    needs = [render(label, size, theme.TEXT).get_width() + 14 for label in labels]
    room = total - gap * (len(labels) - 1)
    widths = [need * room // sum(needs) for need in needs]
    widths[-1] += room - sum(widths)
    return widths


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

    def label_area(self, size: int) -> pygame.Rect:
        """Where the label is centred: the button less its margins and, when the hotkey tag in
        the top-right corner sits level with the label, less the tag's column (so a long label
        moves left of the tag, and shrinks only if that is not room enough)."""
        area = self.rect.inflate(-12, 0)
        if self.hotkey and self.rect.centery - line_height(size) // 2 < self.rect.top + 3 + line_height(11):
            area.width -= render(self.hotkey, 11, theme.TEXT_DIM).get_width() + 2
        return area

    def label_room(self, size: int) -> int:
        """How wide the label may be (see :meth:`label_area`)."""
        return max(20, self.label_area(size).width)

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
        area = self.label_area(size)
        # a long label (Japanese on a narrow window) shrinks down to 11 px before it is cut
        draw_text(surface, label, (area.centerx, self.rect.centery), size, colour, bold=self.primary,
                  anchor="center", max_width=self.label_room(size), min_size=min(size, BUTTON_MIN_SIZE))
        if self.hotkey:
            draw_text(surface, self.hotkey, (self.rect.right - 5, self.rect.top + 3), 11,
                      theme.TEXT_DARK if self.primary else theme.TEXT_DIM, anchor="topright")


class TextField:
    """A text input with a label; click to focus, type to edit.

    It behaves like a desktop field: a cursor (click to place it, Left/Right,
    Home/End), Backspace/Delete at the cursor, Ctrl+A selects everything
    (typing or Backspace then replaces it), Ctrl+C copies, Ctrl+V pastes (with
    ``on_paste``), held keys repeat (``pygame.key.set_repeat``, set by the
    app), and a clear button (x) empties it. Text that does not fit on one
    line wraps onto a second one (``lines=2``) at a smaller size, so a whole
    invite code stays visible.
    """

    def __init__(self, rect: pygame.Rect, value: str = "", *, max_len: int = 24,
                 on_change: Callable[[str], None] | None = None, read_only: bool = False,
                 on_copy: Callable[[], None] | None = None, on_paste: Callable[[], str] | None = None,
                 lines: int = 1, clear_button: bool = True) -> None:
        self.rect = pygame.Rect(rect)
        self.value = value
        self.max_len = max_len
        self.focused = False
        self.on_change = on_change
        #: A read-only field shows text to copy: a click selects all of it, Ctrl+C copies.
        self.read_only = read_only
        self.on_copy = on_copy
        self.on_paste = on_paste
        self.lines = max(1, lines)
        self.cursor = len(value)
        #: Everything is selected (Ctrl+A, or a read-only field when focused).
        self.all_selected = False
        self.clear_button = clear_button and not read_only

    # -- geometry -------------------------------------------------------------------
    @property
    def clear_rect(self) -> pygame.Rect:
        """The clear (x) button inside the right edge (only drawn when there is text)."""
        size = min(26, self.rect.height - 10)
        return pygame.Rect(self.rect.right - size - 6, self.rect.centery - size // 2, size, size)

    def _inner(self) -> pygame.Rect:
        inner = self.rect.inflate(-16, -6)
        if self.clear_button:
            inner.width -= self.clear_rect.width + 6
        return inner

    def layout_text(self) -> tuple[int, list[tuple[int, int]]]:
        """(font size, [(start, end) index of each shown line]): the largest size
        from 16 down to 10 at which the text fits in ``lines`` lines."""
        inner = self._inner()
        text = self.value
        top = min(16, max(12, self.rect.height // 2)) if self.lines == 1 else 16
        for size in range(top, 9, -1):
            if self.lines > 1 and inner.height < self.lines * line_height(size) - 4:
                continue
            spans = self._wrap(text, size, inner.width)
            if len(spans) <= self.lines:
                return size, spans
        size = 10
        spans = self._wrap(text, size, inner.width)
        return size, spans[-self.lines:]  # too long even so: the end, where one types

    @staticmethod
    def _wrap(text: str, size: int, width: int) -> list[tuple[int, int]]:
        """Break ``text`` into spans that fit ``width``, preferring a break after a dash."""
        spans: list[tuple[int, int]] = []
        start = 0
        while True:
            end = start
            while end < len(text) and render(text[start:end + 1], size, theme.TEXT).get_width() <= width:
                end += 1
            if end >= len(text):
                spans.append((start, len(text)))
                return spans
            end = max(end, start + 1)
            dash = text.rfind("-", start, end)
            if dash > start + (end - start) // 2:
                end = dash + 1
            spans.append((start, end))
            start = end

    # -- editing ------------------------------------------------------------------------
    def _set(self, value: str, cursor: int | None = None) -> None:
        self.value = value[: self.max_len]
        self.cursor = min(len(self.value), len(self.value) if cursor is None else cursor)
        self.all_selected = False
        if self.on_change is not None:
            self.on_change(self.value)

    def insert(self, text: str) -> None:
        """Type ``text`` at the cursor (replacing everything when all is selected)."""
        text = "".join(ch for ch in text if ch.isprintable())
        if self.all_selected:
            self._set(text, len(text))
            return
        room = self.max_len - len(self.value)
        text = text[: max(0, room)]
        self._set(self.value[: self.cursor] + text + self.value[self.cursor:], self.cursor + len(text))

    def clear(self) -> None:
        self._set("", 0)

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.clear_button and self.value and self.clear_rect.collidepoint(event.pos):
                self.clear()
                self.focused = True
                return True
            was = self.focused
            self.focused = self.rect.collidepoint(event.pos)
            if self.focused and not was and not self.read_only:
                pygame.key.start_text_input()
            if self.focused and not self.read_only:
                self.cursor = self.index_at(event.pos)
                self.all_selected = False
            return self.focused
        if not self.focused:
            return False
        ctrl = event.type == pygame.KEYDOWN and bool(event.mod & pygame.KMOD_CTRL)
        if event.type == pygame.KEYDOWN and ctrl and event.key == pygame.K_c and self.on_copy is not None:
            self.on_copy()
            return True
        if self.read_only:
            return False
        if event.type == pygame.TEXTINPUT:
            self.insert(event.text)
            return True
        if event.type != pygame.KEYDOWN:
            return False
        k = event.key
        if ctrl and k == pygame.K_a:
            self.all_selected = True
            self.cursor = len(self.value)
        elif ctrl and k == pygame.K_v and self.on_paste is not None:
            self.insert(self.on_paste().strip())
        elif k == pygame.K_BACKSPACE:
            if self.all_selected:
                self.clear()
            elif self.cursor > 0:
                self._set(self.value[: self.cursor - 1] + self.value[self.cursor:], self.cursor - 1)
        elif k == pygame.K_DELETE:
            if self.all_selected:
                self.clear()
            elif self.cursor < len(self.value):
                self._set(self.value[: self.cursor] + self.value[self.cursor + 1:], self.cursor)
        elif k == pygame.K_LEFT:
            self.cursor, self.all_selected = (0 if self.all_selected else max(0, self.cursor - 1)), False
        elif k == pygame.K_RIGHT:
            self.cursor, self.all_selected = min(len(self.value), self.cursor + 1), False
        elif k == pygame.K_HOME:
            self.cursor, self.all_selected = 0, False
        elif k == pygame.K_END:
            self.cursor, self.all_selected = len(self.value), False
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_TAB):
            self.focused = False
        return True

    def index_at(self, pos: tuple[int, int]) -> int:
        """The cursor index nearest to a click at ``pos``."""
        size, spans = self.layout_text()
        inner = self._inner()
        step = line_height(size)
        top = self.rect.centery - len(spans) * step // 2
        row = max(0, min(len(spans) - 1, (pos[1] - top) // max(1, step)))
        start, end = spans[row]
        best, best_d = start, abs(pos[0] - inner.left)
        for i in range(start, end + 1):
            x = inner.left + render(self.value[start:i], size, theme.TEXT).get_width()
            if abs(pos[0] - x) < best_d:
                best, best_d = i, abs(pos[0] - x)
        return best

    # -- drawing ------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, (18, 22, 28), self.rect, border_radius=6)
        pygame.draw.rect(surface, theme.ACCENT if self.focused else theme.PANEL_EDGE, self.rect, width=2, border_radius=6)
        inner = self._inner()
        size, spans = self.layout_text()
        step = line_height(size)
        selected = self.all_selected or (self.read_only and self.focused)
        colour = theme.TEXT_DARK if selected else theme.TEXT
        clip = surface.get_clip()
        surface.set_clip(inner.inflate(4, 4))
        y = self.rect.centery - len(spans) * step // 2
        for start, end in spans:
            run = render(self.value[start:end], size, colour)
            rect = run.get_rect(topleft=(inner.left, y + (step - run.get_height()) // 2))
            if selected and end > start:
                pygame.draw.rect(surface, theme.INFO, rect.inflate(4, 0))
            surface.blit(run, rect)
            if self.focused and not self.read_only and start <= self.cursor <= end and \
                    (self.cursor < end or (start, end) == spans[-1]):
                cx = inner.left + render(self.value[start:self.cursor], size, colour).get_width() + 1
                pygame.draw.line(surface, theme.ACCENT, (cx, y + 3), (cx, y + step - 3), 2)
            y += step
        surface.set_clip(clip)
        if self.clear_button and self.value:
            r = self.clear_rect
            pygame.draw.circle(surface, theme.BUTTON_HOVER, r.center, r.width // 2)
            d = r.width // 5
            for a, b in (((-d, -d), (d, d)), ((-d, d), (d, -d))):
                pygame.draw.line(surface, theme.TEXT, (r.centerx + a[0], r.centery + a[1]),
                                 (r.centerx + b[0], r.centery + b[1]), 2)


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

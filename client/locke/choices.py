"""The Locke table's choice buttons: how many columns, a label on two lines when one is too short,
and the whole label on hover when even two lines cut it.

Why apart from the scene: a playtest found two different choices both cut to the same words
("Telepathy: Contact telepathy at Heuri…") with no way to tell them apart, and buttons kept at
their narrowest width on a wide window. The rule here: as few columns as still show every
choice on one page, more columns only while each label still fits whole; a label that does not
fit one line wraps onto two at a smaller size; what is still cut shows whole in a tooltip.
"""

from __future__ import annotations

import pygame

from client import theme
from client.fonts import font
from client.text import draw_text, fit_line, fits, line_height, wrap
from client.widgets import Button, panel

#: The smallest text a two-line label is drawn at.
TWO_LINE_MIN = 10


def columns(labels: list[str], size: int, width: int, rows: int, gap: int, min_w: int) -> int:
    """How many columns of buttons ``width`` pixels hold: at least enough for every label on one
    page (within the narrowest button width ``min_w``), more only while each label stays whole."""
    most = max(1, (width + gap) // (min_w + gap))
    need = -(-len(labels) // max(1, rows))  # every choice on one page
    widest = max((font(size).size(label)[0] for label in labels), default=0) + 28
    whole = max(1, (width + gap) // (widest + gap))  # as many as keep the widest label whole
    return max(1, min(most, max(need, min(whole, most))))


class ChoiceButton(Button):
    """A choice button whose label wraps onto a second line when one line would cut it; the
    label's whole text is its tooltip when even two lines cut it (:func:`draw_tooltip`)."""

    def lines(self) -> tuple[tuple[str, ...], int]:
        """The label's lines and their text size, as drawn."""
        size = self.size or max(12, min(20, self.rect.height // 2))
        room = self.label_room(size)
        if fits(self.label, size, room, self.primary, min(size, 11)):
            return (fit_line(self.label, size, room, self.primary, min(size, 11))[0],), \
                fit_line(self.label, size, room, self.primary, min(size, 11))[1]
        two = size
        while two > TWO_LINE_MIN and 2 * line_height(two) > self.rect.height - 2:
            two -= 1
        while two > TWO_LINE_MIN and len(wrap(self.label, two, room, self.primary)) > 2:
            two -= 1
        parts = wrap(self.label, two, room, self.primary)
        if len(parts) > 2:  # still too long: the second line ends with an ellipsis, the tooltip has it all
            rest = " ".join(parts[1:])
            parts = (parts[0], fit_line(rest + "…", two, room, self.primary, two)[0])
        return tuple(fit_line(p, two, room, self.primary, two)[0] for p in parts), two

    def cut(self) -> bool:
        """Whether the label drawn is shorter than the label (then the tooltip shows it whole)."""
        shown, _size = self.lines()
        return "".join(shown).replace(" ", "") != self.label.replace(" ", "")

    def draw(self, surface: pygame.Surface) -> None:
        shown, size = self.lines()
        if len(shown) == 1:
            super().draw(surface)
            return
        label, self.label = self.label, ""
        super().draw(surface)  # the frame and the hotkey tag
        self.label = label
        colour = theme.TEXT_DARK if self.primary and self.enabled else theme.TEXT if self.enabled else theme.TEXT_DIM
        area = self.label_area(size)
        step = line_height(size)
        top = self.rect.centery - step * len(shown) // 2
        for i, part in enumerate(shown):
            draw_text(surface, part, (area.centerx, top + i * step + step // 2), size, colour, bold=self.primary,
                      anchor="center")


def tooltip_text(buttons: list[Button]) -> tuple[str, pygame.Rect] | None:
    """The whole label of the hovered choice button whose label is cut, and the button's rect."""
    for button in buttons:
        if button.hover and isinstance(button, ChoiceButton) and button.cut():
            return button.label, button.rect
    return None


def draw_tooltip(surface: pygame.Surface, text: str, anchor: pygame.Rect, size: int) -> pygame.Rect:
    """The whole ``text`` in a box above ``anchor`` (below it when there is no room above), kept
    inside the window; returns the box."""
    screen = surface.get_rect()
    width = min(max(240, anchor.width + 80), screen.width - 16)
    parts = wrap(text, size, width - 16)
    box = pygame.Rect(0, 0, min(width, max(font(size).size(p)[0] for p in parts) + 16),
                      len(parts) * line_height(size) + 10)
    box.midbottom = (anchor.centerx, anchor.top - 4)
    if box.top < screen.top + 4:
        box.top = anchor.bottom + 4
    box.clamp_ip(screen.inflate(-8, -8))
    panel(surface, box, fill=theme.BG_FELT_DARK, edge=theme.ACCENT)
    for i, part in enumerate(parts):
        draw_text(surface, part, (box.left + 8, box.top + 5 + i * line_height(size)), size, theme.TEXT)
    return box

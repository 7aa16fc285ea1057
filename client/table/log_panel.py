"""Drawing what every table's side panel shows the same way: the log and the chat.

Read-only functions of a :class:`client.table.scene.TableScene` (they never
change it): :func:`draw_log` draws the newest log lines that fit, with the
scroll offset, chat lines in their own colour and each line's proof tag
(:func:`draw_proof_tag`: where its randomness came from); :func:`draw_chat`
draws a networked table's chat reactions and field. Rider's side panel
(client/rider/drawing.py) draws with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from client import theme
from client.i18n import tr
from client.text import draw_text, line_height, render, wrap

if TYPE_CHECKING:
    from client.table.scene import TableScene

#: The colour of chat lines in the log.
CHAT_COLOUR = (150, 205, 255)


def draw_proof_tag(surface: pygame.Surface, right: int, y: int, height: int, proof: str, lang: str) -> pygame.Rect:
    """A log line's tag saying where its randomness came from ("local" or "verified")."""
    tag = render(tr(lang, f"proof_{proof}"), 10, theme.TEXT_DARK, True)
    box = pygame.Rect(right - tag.get_width() - 10, y, tag.get_width() + 8, height)
    pygame.draw.rect(surface, theme.INFO if proof == "verified" else (170, 176, 190), box, border_radius=5)
    surface.blit(tag, tag.get_rect(center=box.center))
    return box


def watchers_line(scene: TableScene[Any], lang: str) -> str:
    """Who watches a networked table without a seat ("" when nobody, or not networked): the
    seat list of every game shows it under its log header."""
    watchers = getattr(scene.session, "watchers", None)
    names: list[str] = watchers() if callable(watchers) else []
    if not names:
        return ""
    if getattr(scene.session, "watching", False):
        return tr(lang, "watching_you", others=len(names) - 1)
    return tr(lang, "watchers_line", names=tr(lang, "list_sep").join(names))


def draw_log(scene: TableScene[Any], surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The newest log lines that fit ``rect`` (scrolled back by ``scene.log_scroll``), under the
    line of who watches the table (:func:`watchers_line`) when somebody does."""
    size = 13
    step = line_height(size)
    watching = watchers_line(scene, scene.app.lang)
    if watching:  # at most two lines, the rest of the panel for the log
        shown = wrap(watching, size, rect.width, False)[:2]
        for n, line in enumerate(shown):
            surface.blit(render(line, size, theme.INFO, False), (rect.left, rect.top + n * step))
        used = len(shown) * step + 4
        rect = pygame.Rect(rect.left, rect.top + used, rect.width, max(step, rect.height - used))
    lines: list[tuple[str, theme.Colour, str, bool]] = []
    for entry in scene.log[-200:]:
        colour = theme.ACCENT if entry.turn_marker else CHAT_COLOUR if entry.chat else theme.TEXT
        wrapped = wrap(entry.text, size, rect.width - 66, entry.turn_marker)
        for j, line in enumerate(wrapped):
            lines.append((line, colour, entry.proof if j == 0 else "", entry.turn_marker))
    fit = max(1, rect.height // step)
    end = max(0, len(lines) - min(scene.log_scroll * 3, max(0, len(lines) - fit)))
    visible = lines[max(0, end - fit):end]
    y = rect.top
    clip = surface.get_clip()
    surface.set_clip(rect)
    for line, colour, proof, bold in visible:
        surface.blit(render(line, size, colour, bold), (rect.left, y))
        if proof:
            draw_proof_tag(surface, rect.right, y + 2, step - 4, proof, scene.app.lang)
        y += step
    surface.set_clip(clip)


def draw_chat(scene: TableScene[Any], surface: pygame.Surface) -> None:
    """A networked table's chat: the quick reactions and the field (with its hint while empty)."""
    if scene.chat_rect() is None or scene.chat_field is None:
        return
    for b in scene.chat_buttons:
        b.draw(surface)
    scene.chat_field.draw(surface)
    if not scene.chat_field.value and not scene.chat_field.focused:
        r = scene.chat_field.rect
        draw_text(surface, tr(scene.app.lang, "chat_hint"), (r.left + 8, r.centery), 13, theme.TEXT_DIM,
                  anchor="midleft", max_width=r.width - 16)

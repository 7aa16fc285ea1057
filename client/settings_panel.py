"""The settings panel: sound, volume, animation speed, bot speed, fullscreen, language.

A modal overlay any scene can open (the table's side panel, the lobby). Each
row is a :class:`client.widgets.Choice`; a change is applied at once
(``App.use_prefs``, plus the scene's own ``on_change`` for what only it
knows, like its bot's pace) and saved to the settings file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from client import theme
from client.i18n import tr
from client.settings import ANIM_SPEEDS, BOT_SPEEDS, VOLUMES
from client.text import draw_text
from client.widgets import Button, Choice, panel

if TYPE_CHECKING:
    from client.app import App

#: The rows: (setting field, catalogue key of its label, options as (value, catalogue key or literal label)).
ROWS: tuple[tuple[str, str, tuple[tuple[Any, str], ...]], ...] = (
    ("sound", "set_sound", ((True, "set_on"), (False, "set_off"))),
    ("volume", "set_volume", tuple((k, f"set_volume_{k}") for k in VOLUMES)),
    ("anim_speed", "set_anim", tuple((k, f"set_speed_{k}") for k in ANIM_SPEEDS)),
    ("bot_speed", "set_bot", tuple((k, f"set_speed_{k}") for k in BOT_SPEEDS)),
    ("fullscreen", "set_fullscreen", ((False, "set_off"), (True, "set_on"))),
    ("watchers", "set_watchers", ((True, "set_watchers_on"), (False, "set_watchers_off"))),
    ("lang", "language", (("en", "=English"), ("ja", "=日本語"))),
)


class SettingsPanel:
    """A modal panel of settings rows and a Close button."""

    def __init__(self, app: App, on_close: Callable[[], None], on_change: Callable[[str], None] | None = None) -> None:
        self.app = app
        self.on_close = on_close
        self.on_change = on_change
        self.rect = pygame.Rect(0, 0, 10, 10)
        self.choices: list[tuple[str, pygame.Rect, Choice]] = []
        self.close_button = Button(pygame.Rect(0, 0, 10, 10), "", on_close)

    def layout(self, size: tuple[int, int]) -> None:
        lang = self.app.lang
        w, h = size
        self.rect = pygame.Rect(0, 0, min(w - 40, 640), min(h - 40, 70 + 56 * len(ROWS) + 70))
        self.rect.center = (w // 2, h // 2)
        r = self.rect
        label_w = min(200, r.width // 3)
        self.choices = []
        prefs = self.app.prefs
        for i, (field, label_key, options) in enumerate(ROWS):
            y = r.top + 64 + i * 56
            label = pygame.Rect(r.left + 24, y, label_w, 40)
            opts = [(value, key[1:] if key.startswith("=") else tr(lang, key)) for value, key in options]
            choice = Choice(pygame.Rect(label.right + 12, y, r.right - 24 - label.right - 12, 40), opts,
                            getattr(prefs, field), self._setter(field))
            self.choices.append((label_key, label, choice))
        self.close_button = Button(pygame.Rect(r.right - 164, r.bottom - 56, 140, 40), tr(lang, "close"),
                                   self.on_close, primary=True, hotkey="Esc", size=16)

    def widget_rects(self) -> list[tuple[str, pygame.Rect]]:
        """Named rectangles of the rows and buttons (overlap tests)."""
        rects = [("settings_close", self.close_button.rect)]
        for key, label, choice in self.choices:
            rects.append((f"label:{key}", label))
            rects += [(f"{key}:{b.payload}", b.rect) for b in choice.buttons]
        return rects

    def _setter(self, field: str) -> Callable[[Any], None]:
        return lambda value: self.set(field, value)

    def set(self, field: str, value: Any) -> None:
        """Change one setting: apply it now, save it, re-word the panel if the language changed."""
        prefs = self.app.prefs
        setattr(prefs, field, value)
        self.app.use_prefs(prefs)
        prefs.save()
        if self.on_change is not None:
            self.on_change(field)
        self.layout(self.app.screen.get_size())
        self.app.invalidate()

    def handle(self, event: pygame.event.Event) -> None:
        """Everything goes to the panel while it is open (it is modal)."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_close()
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self.on_close()
            return
        if self.close_button.handle(event):
            return
        for _, _, choice in self.choices:
            if choice.handle(event) and event.type == pygame.MOUSEBUTTONDOWN:
                return

    def draw(self, surface: pygame.Surface) -> None:
        lang = self.app.lang
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        panel(surface, self.rect, fill=(28, 34, 44), edge=theme.ACCENT, radius=14)
        draw_text(surface, tr(lang, "settings"), (self.rect.left + 24, self.rect.top + 18), 22, theme.TEXT, bold=True,
                  max_width=self.rect.width - 48)
        for key, label, choice in self.choices:
            draw_text(surface, tr(lang, key), (label.left, label.centery), 16, theme.TEXT_DIM, anchor="midleft",
                      max_width=label.width)
            choice.draw(surface)
        sound = self.app.sound
        if sound.enabled and sound.unavailable:
            draw_text(surface, tr(lang, "set_no_audio"), (self.rect.left + 24, self.rect.bottom - 36), 13, theme.WARN,
                      anchor="midleft", max_width=self.close_button.rect.left - self.rect.left - 36)
        self.close_button.draw(surface)

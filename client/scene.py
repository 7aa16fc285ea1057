"""Scenes: one screen of the client (lobby, table, end screen).

A scene reacts to input in :meth:`Scene.handle`, advances time in
:meth:`Scene.update` and paints in :meth:`Scene.draw`. ``draw`` must not
change anything (it may be called any number of times, or skipped), so that
skipping redraws when nothing moves is always safe.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from client.app import App


class Scene:
    """Base scene; subclasses override what they need."""

    #: A short name for logs and tests ("lobby", "table", "end").
    name = "scene"

    def __init__(self, app: App) -> None:
        self.app = app

    def enter(self) -> None:
        """Called when the scene becomes current."""

    def leave(self) -> None:
        """Called when another scene replaces this one."""

    def handle(self, event: pygame.event.Event) -> None:
        """React to one input event (mouse, keys, text)."""

    def update(self, now: float) -> bool:
        """Advance animations to ``now`` (seconds); True while something moves."""
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the whole scene; never mutates state."""

    def resized(self, size: tuple[int, int]) -> None:
        """The window changed size; recompute layout."""

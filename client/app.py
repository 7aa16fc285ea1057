"""The application: one window, one thread, Twisted and pygame together.

A :class:`twisted.internet.task.LoopingCall` on the reactor calls
:meth:`App.tick`: it drains pygame's event queue, advances the current
scene and redraws only when something changed (an input, a resize, an
animation, a game event). While animating the loop runs at 60 Hz; when
nothing moves it drops to a low rate and skips drawing, so an idle window
costs almost no CPU. Networking (Twisted) runs on the same reactor, so no
locks are needed anywhere in the client.
"""

from __future__ import annotations

from typing import Any

import pygame
from twisted.internet.task import LoopingCall

from client.scene import Scene
from client.settings import Settings
from client.sound import Sounds

ACTIVE_HZ = 60
IDLE_HZ = 15
#: Seconds without input or motion before the loop slows to IDLE_HZ.
IDLE_AFTER = 0.5
MIN_SIZE = (960, 600)
#: Milliseconds before a held key repeats, and between repeats.
KEY_REPEAT_DELAY = 400
KEY_REPEAT_EVERY = 35


#: The window's size on a screen with room for it.
DEFAULT_SIZE = (1280, 800)
#: Room left around the window for the desktop's panels and the title bar.
SCREEN_MARGIN = (40, 80)


def window_size(saved: tuple[int, int], desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The size a new window opens at: the saved one (else the default), shrunk to fit the
    desktop it opens on (with a margin for panels), never below MIN_SIZE; the layouts are
    made for anything from MIN_SIZE up (tests/client/test_client_overlap.py)."""
    w, h = saved if saved[0] >= MIN_SIZE[0] and saved[1] >= MIN_SIZE[1] else DEFAULT_SIZE
    if desktop is not None and desktop[0] > 0 and desktop[1] > 0:
        w = min(w, desktop[0] - SCREEN_MARGIN[0])
        h = min(h, desktop[1] - SCREEN_MARGIN[1])
    return max(w, MIN_SIZE[0]), max(h, MIN_SIZE[1])


def desktop_size() -> tuple[int, int] | None:
    """The size of the first screen, once the display is up (None when SDL cannot say, or under
    an invisible driver, whose made-up screen is no screen to fit)."""
    try:
        if pygame.display.get_driver() in ("dummy", "offscreen"):
            return None
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    return (int(sizes[0][0]), int(sizes[0][1])) if sizes else None


class App:
    """Holds the window, the current scene, the language and the clock."""

    def __init__(
        self,
        size: tuple[int, int] = (1280, 800),
        *,
        clock: Any = None,
        lang: str = "en",
        caption: str = "Fairtable",
    ) -> None:
        if clock is None:
            from twisted.internet import reactor as clock  # the default reactor
        self.clock = clock
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(caption)
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self._window_size = size  # the window's size to come back to from fullscreen
        pygame.key.set_repeat(KEY_REPEAT_DELAY, KEY_REPEAT_EVERY)  # a held key repeats (text fields)
        self.lang = lang
        self.scene: Scene | None = None
        self.dirty = True
        self.running = False
        self.frames_drawn = 0
        self._last_activity = self.clock.seconds()
        self._loop: LoopingCall | None = None
        self._rate = ACTIVE_HZ
        #: The player's preferences (the lobby's Settings; build_app loads them from the settings file).
        self.prefs = Settings(lang=lang)
        self.sound = Sounds(enabled=self.prefs.sound)
        self.fullscreen = False

    # -- scenes -----------------------------------------------------------
    def switch(self, scene: Scene) -> None:
        """Make ``scene`` current (leaving the old one first)."""
        if self.scene is not None:
            self.scene.leave()
        self.scene = scene
        scene.resized(self.screen.get_size())
        scene.enter()
        self.invalidate()

    def invalidate(self) -> None:
        """Something visible changed: redraw on the next tick, at full rate."""
        self.dirty = True
        self._last_activity = self.clock.seconds()
        if self._loop is not None and self._rate != ACTIVE_HZ:
            self._restart(ACTIVE_HZ)

    def set_lang(self, lang: str) -> None:
        """Show ``lang`` from now on; a choice of the player's (the L key, the lobby's switch) is
        kept for the next start."""
        self.lang = lang
        if self.prefs.lang != lang:
            self.prefs.lang = lang
            self.prefs.save()
        self.invalidate()

    def use_prefs(self, prefs: Settings) -> None:
        """Take the player's preferences: language, sound, fullscreen (speeds are read where they apply)."""
        self.prefs = prefs
        self.sound.enabled = prefs.sound
        self.sound.volume = prefs.volume_factor
        if prefs.lang in ("en", "ja") and prefs.lang != self.lang:
            self.set_lang(prefs.lang)
        self.set_fullscreen(prefs.fullscreen)

    def set_fullscreen(self, on: bool) -> None:
        """Fullscreen on or off (a desktop that cannot switch keeps the window as it is)."""
        if on == self.fullscreen:
            return
        size = self.screen.get_size()
        try:
            if on:
                self.screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            else:
                self.screen = pygame.display.set_mode(self._window_size, pygame.RESIZABLE)
        except pygame.error:
            return
        if on:
            self._window_size = size
        self.fullscreen = on
        if self.scene is not None:
            self.scene.resized(self.screen.get_size())
        self.invalidate()

    # -- the loop -----------------------------------------------------------
    def dispatch(self, event: pygame.event.Event) -> None:
        """Route one event (also the entry point for synthetic test input)."""
        if event.type == pygame.QUIT:
            self.stop()
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.WINDOWRESIZED):
            self._resize()
            return
        if event.type in (pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED, pygame.WINDOWFOCUSGAINED):
            self.invalidate()
            return
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN,
                          pygame.TEXTINPUT, pygame.MOUSEWHEEL):
            self.invalidate()
            if self.scene is not None:
                self.scene.handle(event)

    def _resize(self) -> None:
        current = pygame.display.get_surface()
        if current is None:
            return
        w, h = current.get_size()
        if w < MIN_SIZE[0] or h < MIN_SIZE[1]:
            self.screen = pygame.display.set_mode((max(w, MIN_SIZE[0]), max(h, MIN_SIZE[1])), pygame.RESIZABLE)
        else:
            self.screen = current
        if not self.fullscreen:  # remembered for the next start (saved with the settings)
            self.prefs.window_w, self.prefs.window_h = self.screen.get_size()
        if self.scene is not None:
            self.scene.resized(self.screen.get_size())
        self.invalidate()

    def tick(self) -> None:
        """One frame: events, update, and a redraw only if needed."""
        for event in pygame.event.get():
            self.dispatch(event)
            if not self.running and self._loop is not None:
                return
        now = self.clock.seconds()
        moving = self.scene.update(now) if self.scene is not None else False
        if moving:
            self._last_activity = now
        if self.dirty or moving:
            self.render()
        if self._loop is not None:
            idle = now - self._last_activity > IDLE_AFTER
            wanted = IDLE_HZ if idle else ACTIVE_HZ
            if wanted != self._rate:
                self._restart(wanted)

    def render(self) -> None:
        """Draw the current scene and show it."""
        if self.scene is not None:
            self.scene.draw(self.screen)
        pygame.display.flip()
        self.dirty = False
        self.frames_drawn += 1

    def _restart(self, hz: int) -> None:
        self._rate = hz
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._loop = LoopingCall(self.tick)
        self._loop.clock = self.clock
        self._loop.start(1.0 / hz, now=False)

    def start(self) -> None:
        """Start driving frames from the reactor (does not run the reactor)."""
        self.running = True
        self._loop = LoopingCall(self.tick)
        self._loop.clock = self.clock
        self._rate = ACTIVE_HZ
        self._loop.start(1.0 / ACTIVE_HZ)

    def stop(self) -> None:
        """Stop the frame loop and the reactor if it is running; the settings (the window's size
        among them) are saved for the next start."""
        if self.running:
            self.prefs.save()
        self.running = False
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._loop = None
        stop = getattr(self.clock, "stop", None)
        running = getattr(self.clock, "running", False)
        if stop is not None and running:
            self.clock.stop()

    def run(self) -> None:
        """Start the loop and run the reactor until the window closes."""
        self.start()
        self.clock.run()
        pygame.quit()

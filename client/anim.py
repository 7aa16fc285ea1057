"""Short, time-based animations: cards flying, flipping, flashing.

Animations are values with a start time and a duration; the scene advances
them in ``update(now)`` and draws them after the table. While any is active
the app runs at 60 fps; when the last one ends it drops back to idle.
A flying card may *hide* its destination (by key) until it lands, so the
card does not appear twice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pygame

Surf = Callable[[tuple[int, int]], pygame.Surface]


def ease(t: float) -> float:
    """Ease-out cubic on [0, 1]."""
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


def lerp_rect(a: pygame.Rect, b: pygame.Rect, t: float) -> pygame.Rect:
    return pygame.Rect(
        round(a.x + (b.x - a.x) * t), round(a.y + (b.y - a.y) * t),
        max(1, round(a.w + (b.w - a.w) * t)), max(1, round(a.h + (b.h - a.h) * t)),
    )


@dataclasses.dataclass
class Anim:
    start: float
    duration: float
    hides: tuple[object, ...] = ()

    def progress(self, now: float) -> float:
        if now < self.start:
            return -1.0
        return min(1.0, (now - self.start) / self.duration) if self.duration > 0 else 1.0

    def done(self, now: float) -> bool:
        return now >= self.start + self.duration

    def draw(self, surface: pygame.Surface, now: float) -> None:  # pragma: no cover - overridden
        pass


@dataclasses.dataclass
class Flight(Anim):
    """A card moving from ``src`` to ``dst`` (size interpolated too)."""

    src: pygame.Rect = dataclasses.field(default_factory=pygame.Rect)
    dst: pygame.Rect = dataclasses.field(default_factory=pygame.Rect)
    surf: Surf | None = None

    def draw(self, surface: pygame.Surface, now: float) -> None:
        t = self.progress(now)
        if t < 0 or self.surf is None:
            return
        rect = lerp_rect(self.src, self.dst, ease(t))
        img = self.surf(rect.size)
        shadow = pygame.Rect(rect).move(4, 6)
        pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=max(3, rect.w // 14))
        surface.blit(img, rect)


@dataclasses.dataclass
class Flip(Anim):
    """A face-down card turning face up in place."""

    rect: pygame.Rect = dataclasses.field(default_factory=pygame.Rect)
    back: Surf | None = None
    face: Surf | None = None

    def draw(self, surface: pygame.Surface, now: float) -> None:
        t = self.progress(now)
        if t < 0 or self.back is None or self.face is None:
            return
        first = t < 0.5
        k = abs(1 - 2 * t)
        w = max(1, int(self.rect.w * k))
        img = (self.back if first else self.face)(self.rect.size)
        squeezed = pygame.transform.smoothscale(img, (w, self.rect.h))
        surface.blit(squeezed, squeezed.get_rect(center=self.rect.center))


@dataclasses.dataclass
class Flash(Anim):
    """A coloured glow over a rectangle, fading out (destruction, hits)."""

    rect: pygame.Rect = dataclasses.field(default_factory=pygame.Rect)
    colour: tuple[int, int, int] = (255, 80, 60)

    def draw(self, surface: pygame.Surface, now: float) -> None:
        t = self.progress(now)
        if t < 0:
            return
        alpha = int(200 * (1 - t))
        layer = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, (*self.colour, alpha), layer.get_rect(), border_radius=8)
        surface.blit(layer, self.rect)


@dataclasses.dataclass
class Strike(Anim):
    """An attack: a bright streak from the attacking column to its target."""

    a: tuple[int, int] = (0, 0)
    b: tuple[int, int] = (0, 0)
    colour: tuple[int, int, int] = (255, 210, 90)

    def draw(self, surface: pygame.Surface, now: float) -> None:
        t = self.progress(now)
        if t < 0:
            return
        head = ease(min(1.0, t * 1.6))
        tail = ease(max(0.0, t * 1.6 - 0.6))
        p = (self.a[0] + (self.b[0] - self.a[0]) * head, self.a[1] + (self.b[1] - self.a[1]) * head)
        q = (self.a[0] + (self.b[0] - self.a[0]) * tail, self.a[1] + (self.b[1] - self.a[1]) * tail)
        pygame.draw.line(surface, self.colour, q, p, 9)
        pygame.draw.line(surface, (255, 255, 255), q, p, 3)
        pygame.draw.circle(surface, self.colour, (int(p[0]), int(p[1])), 12)


class Animator:
    """The list of running animations."""

    def __init__(self) -> None:
        self.items: list[Anim] = []
        #: A factor on every animation's pace (the player's animation speed; 0: none at all).
        self.speed = 1.0
        #: When the animations being added were started (their delays count from here).
        self.origin = 0.0

    def add(self, anim: Anim) -> None:
        """Run ``anim``, its delay (from :attr:`origin`) and length scaled by :attr:`speed`."""
        if self.speed <= 0:
            return  # animations are off: the table just shows the new position
        if self.speed != 1.0:
            anim.start = self.origin + (anim.start - self.origin) / self.speed
            anim.duration /= self.speed
        self.items.append(anim)

    def update(self, now: float) -> bool:
        self.items = [a for a in self.items if not a.done(now)]
        return bool(self.items)

    def hidden(self) -> set[object]:
        keys: set[object] = set()
        for a in self.items:
            keys.update(a.hides)
        return keys

    def draw(self, surface: pygame.Surface, now: float) -> None:
        for a in self.items:
            a.draw(surface, now)

    def clear(self) -> None:
        self.items = []

"""Client test fixtures: a headless app driven by a Twisted task.Clock (no real
time passes in these tests). Private user folders come from tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest
from twisted.internet.task import Clock

from client.app import App


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(clock: Clock) -> Iterator[App]:
    application = App((1280, 800), clock=clock)
    yield application
    application.running = False


def click(app: App, pos: tuple[int, int]) -> None:
    """A real left click (down and up) at ``pos``, through the app's dispatcher."""
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def drag(app: App, start: tuple[int, int], end: tuple[int, int], steps: int = 4) -> None:
    """A real left-button drag from ``start`` to ``end`` (press, moves on the way, release)."""
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for i in range(1, steps + 1):
        pos = (start[0] + (end[0] - start[0]) * i // steps, start[1] + (end[1] - start[1]) * i // steps)
        app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))


def key(app: App, k: int, mod: int = 0) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))


def knowable(scene) -> set[str]:  # type: ignore[no-untyped-def]
    """Card ids the local seat may see now: public zones, its own knowledge."""
    state = scene.session.state
    ids: set[str] = set(scene.session.knowledge.cards.values())
    ids.update(card for _, card in state.open_cards)
    for p in state.players:
        ids.update(p.discard)
        ids.update(p.lost)
        for col in p.columns:
            ids.update(c for c, _ in col.cards)
            if col.zero:
                ids.add(col.zero)
    return ids

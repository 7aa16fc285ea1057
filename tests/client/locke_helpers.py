"""Helpers for the Locke table's tests: open a local table from the lobby, and give the player's
seat an input the way a person would, by clicking the scene's own buttons and board cells.

Why clicks and not ``session.submit``: the tests must show that every legal input is reachable
on screen (client/locke/intents.py makes the controls from the legal list) and count the clicks a
decision takes (issue 27: the median decision needs at most two clicks).
"""

from __future__ import annotations

import random
from typing import Any

import pygame
from twisted.internet.task import Clock

from client.locke.demo import choose_by_clicks
from client.main import build_app
from client.settings import Settings
from tests.client.conftest import key

__all__ = ["choose_by_clicks", "locke_table", "play_to_end", "settle"]


def locke_table(clock: Clock, seats: int = 5, *, size: tuple[int, int] = (1280, 800), lang: str = "en",
                auto: bool = True, seed: int | None = None, bot: str = "random") -> tuple[Any, Any]:
    """A local Locke table of ``seats``: opened from the lobby's Play button (Enter) when ``seed`` is
    None, else through the game's UI hook with that seed (the same table every run). The other
    seats play ``bot`` (random by default: these tests are about the table, and random bots reach
    every kind of question)."""
    settings = Settings(name="Ann", game="locke", seats=seats, lang=lang, auto_answer=auto,
                        game_bots={"locke": bot})
    app = build_app(size, clock=clock, settings=settings)
    if seed is None:
        key(app, pygame.K_RETURN)
    else:
        from client.locke import start_local
        from net.games import game_named

        start_local(app, settings, game_named("locke"), on_leave=lambda: None, seed=seed)
    scene = app.scene
    assert scene.name == "locke" and len(scene.session.names) == seats
    return app, scene


def settle(app: Any, clock: Clock, scene: Any, limit: int = 400) -> None:
    """Let the bots and the table play until the player must decide or the game is over."""
    for _ in range(limit):
        if scene.legal or scene.session.over or app.scene is not scene:
            return
        clock.advance(0.05)
        app.tick()


def play_to_end(app: Any, clock: Clock, scene: Any, rng: random.Random, *, each: Any = None,
                max_decisions: int = 3000) -> list[int]:
    """Play the player's seat by random legal clicks until the end screen; the clicks per decision.
    ``each(scene)`` runs after every step (a hidden-card check)."""
    clicks: list[int] = []
    for _ in range(max_decisions):
        settle(app, clock, scene)
        if each is not None and app.scene is scene:
            each(scene)
        if app.scene is not scene or scene.session.over:
            break
        if scene.legal:
            clicks.append(choose_by_clicks(app, scene, rng.choice(scene.legal)))
    for _ in range(40):
        if app.scene is not scene:
            break
        clock.advance(0.5)
        app.tick()
    return clicks

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

from client.locke.intents import Group, cell_of
from client.main import build_app
from client.settings import Settings
from tests.client.conftest import click, key


def locke_table(clock: Clock, seats: int = 5, *, size: tuple[int, int] = (1280, 800), lang: str = "en",
                auto: bool = True, seed: int | None = None) -> tuple[Any, Any]:
    """A local Locke table of ``seats``: opened from the lobby's Play button (Enter) when ``seed`` is
    None, else through the game's UI hook with that seed (the same table every run)."""
    settings = Settings(name="Ann", game="locke", seats=seats, lang=lang, auto_answer=auto)
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


def choose_by_clicks(app: Any, scene: Any, choice: Any, limit: int = 30) -> int:
    """Click the scene's controls until ``choice`` (one of ``scene.legal``) is submitted; the clicks."""
    assert choice in scene.legal
    moves = scene.session.moves
    for clicks in range(1, limit + 1):
        target = _next_click(scene, choice)
        assert target is not None, f"{choice!r} cannot be reached from the controls {[b.payload for b in scene.buttons]}"
        click(app, target)
        if scene.session.moves != moves or choice not in scene.session.legal():
            return clicks
    raise AssertionError(f"{choice!r} was not submitted after {limit} clicks")


def _next_click(scene: Any, choice: Any) -> tuple[int, int] | None:
    cell = cell_of(choice)
    if cell is not None and scene.targets.get(cell) == [choice] and scene.open_group is None:
        return scene.board_cells.cells[cell].center  # type: ignore[no-any-return]
    for button in scene.buttons:
        if button.payload == choice:
            return button.rect.center  # type: ignore[no-any-return]
    for button in scene.buttons:
        if isinstance(button.payload, Group) and choice in button.payload.inputs:
            return button.rect.center  # type: ignore[no-any-return]
    for payload in ("page", "back"):
        for button in scene.buttons:
            if button.payload == payload:
                return button.rect.center  # type: ignore[no-any-return]
    return None


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

"""A local Locke table played to the middle of a game, for screenshots and visual review.

Why here: ``python -m tools.screenshot locke`` (tools/screenshot.py) and the
layout tests need the same busy table, reached the same way every time: a
local table of ``seats`` with a fixed seed, our seat played by a seeded
random choice among our legal inputs that never declares victory and
refuses every declaration (so the game stays open), until the table
reaches the asked moment and waits for our decision.
"""

from __future__ import annotations

import random
from typing import Any

import pygame

from client.locke.intents import Group, cell_of
from client.locke.scene import LockeScene
from engine.core.inputs import PlacementPick
from engine.locke.actions import Answer, Declare

#: The moments a demo can stop at: a planet-phase turn, the base phase, a combat we are asked about.
MOMENTS = ("planet", "base", "combat")


def reached(scene: LockeScene, moment: str, seats: int) -> bool:
    """Whether the table shows ``moment`` and waits for our decision."""
    state = scene.state
    if not scene.legal:
        return False
    if moment == "base":
        return state.phase == "base"
    if moment == "combat":
        return state.combat is not None
    return state.phase == "planet" and state.turn >= 2 * seats


def choose(legal: list[Any], rng: random.Random) -> Any:
    """Our seat's demo choice: never declare, always refuse, else a random legal input."""
    for choice in legal:
        if isinstance(choice, Declare) and not choice.declare:
            return choice
        if isinstance(choice, Answer) and not choice.accept:
            return choice
    return legal[rng.randrange(len(legal))]


def play_to_moment(app: Any, clock: Any, *, seats: int = 5, seed: int = 11, moment: str = "planet",
                   max_steps: int = 20000) -> LockeScene:
    """Open a local Locke table and play it until ``moment`` (see MOMENTS); return the scene.
    Tries the next seeds when a game ends before the moment comes."""
    from client.locke import start_local
    from client.settings import Settings
    from net.games import game_named

    settings = Settings(name="Player", game="locke", seats=seats, lang=app.lang, auto_answer=True)
    for attempt in range(20):
        scene = start_local(app, settings, game_named("locke"), on_leave=lambda: None, seed=seed + attempt)
        if not isinstance(scene, LockeScene):
            raise RuntimeError(f"the Locke UI opened {scene!r}, not a Locke table")
        rng = random.Random(seed + attempt)
        for _ in range(max_steps):
            if app.scene is not scene or scene.session.over:
                break
            if reached(scene, moment, seats):
                found: LockeScene = scene
                return found
            if scene.legal:
                scene._submit(choose(scene.legal, rng), by_click=False)
            clock.advance(0.05)
            app.tick()
    raise RuntimeError(f"no Locke game of {seats} seats reached the {moment} moment from seed {seed}")


def choose_by_clicks(app: Any, scene: LockeScene, choice: Any, limit: int = 30) -> int:
    """Click the scene's controls as a person would (a lit cell, a button, a group's button, More,
    Back) until ``choice`` (one of ``scene.legal``) is given; return the clicks it took. The tests
    and ``tools.bench client`` drive our seat with it."""
    if choice not in scene.legal:
        raise ValueError(f"{choice!r} is not one of our legal inputs now")
    moves = scene.session.moves
    for clicks in range(1, limit + 1):
        target = _next_click(scene, choice)
        if target is None:
            raise RuntimeError(f"{choice!r} cannot be reached from the controls {[b.payload for b in scene.buttons]}")
        _click(app, target)
        if scene.session.moves != moves or choice not in scene.session.legal():
            return clicks
    raise RuntimeError(f"{choice!r} was not submitted after {limit} clicks")


def _next_click(scene: LockeScene, choice: Any) -> tuple[int, int] | None:
    if isinstance(choice, PlacementPick) and choice.cell in scene.staged:
        # chosen: the other things go on the first lit cells, then Confirm gives the placement
        for button in scene.buttons:
            if button.payload == "place_confirm":
                return button.rect.center
        free = next(iter(scene.targets), None)
        return scene.board_cells.cells[free].center if free is not None and scene.board_cells is not None else None
    cell = cell_of(choice)
    if cell is not None and scene.targets.get(cell) == [choice] and scene.open_group is None:
        return scene.board_cells.cells[cell].center if scene.board_cells is not None else None
    for button in scene.buttons:
        if button.payload == choice:
            return button.rect.center
    for button in scene.buttons:
        if isinstance(button.payload, Group) and choice in button.payload.inputs:
            return button.rect.center
    for payload in ("page", "back"):
        for button in scene.buttons:
            if button.payload == payload:
                return button.rect.center
    return None


def _click(app: Any, pos: tuple[int, int]) -> None:
    """A left click (move, down, up) at ``pos`` through the app's dispatcher."""
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))

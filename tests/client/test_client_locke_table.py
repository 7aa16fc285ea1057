"""Locke from the lobby: Play opens a local table of the chosen size with the guide, settings, the
leave and concede questions of every table; and the table's parts fit every window from 960x600 to
1920x1080 at 5 and 10 seats, in both languages (the screenshot tool renders the same tables)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pygame
import pytest
from twisted.internet.task import Clock

from client.app import App
from client.locke.demo import play_to_moment
from client.main import build_app
from client.settings import Settings
from tests.client.conftest import click, key
from tests.client.locke_helpers import settle
from tools import screenshot


def test_locke_is_played_from_the_lobby_with_the_tables_overlays_and_questions(clock: Clock, private_dirs: Any) -> None:
    app = build_app(clock=clock, settings=Settings(name="Ann", game="locke", seats=6))
    lobby = app.scene
    assert lobby.play_button.enabled and lobby.play_blocked() == ""  # Locke has a table now
    assert [label for label, _choice in lobby.setup_choices] == ["Seats", "Bots", "Each seat's bot (click to switch)"]
    key(app, pygame.K_RETURN)
    scene = app.scene
    assert scene.name == "locke" and len(scene.session.names) == 6 and scene.session.names[0] == "Ann"
    key(app, pygame.K_F1)
    assert scene.help is not None and [p.title_key for p in scene.help.pages] == ["help_rules", "help_legend", "help_keys"]
    app.render()
    key(app, pygame.K_ESCAPE)
    assert scene.help is None
    settle(app, clock, scene)
    assert scene.legal and scene.buttons and "Your decision" in scene.banner_text()
    click(app, scene.leave_button.rect.center)  # the game runs: the table asks first
    assert scene.prompt is not None and scene.prompt.kind == "leave"
    key(app, pygame.K_ESCAPE)
    assert scene.prompt is None
    click(app, next(b for b in scene.side_buttons if b.payload == "concede").rect.center)
    click(app, scene.prompt.buttons[0].rect.center)  # Concede: nobody single wins at six seats
    for _ in range(6):
        clock.advance(0.5)
        app.tick()
    end = app.scene
    assert end.name == "end" and end.audit_ok, end.audit_detail
    click(app, end.again_button.rect.center)  # Play again: a new table of as many seats
    assert app.scene.name == "locke" and len(app.scene.session.names) == 6 and app.scene is not scene


def _inside(outer: pygame.Rect, inner: pygame.Rect) -> bool:
    return outer.contains(inner)


@pytest.mark.parametrize("size", [(960, 600), (1280, 800), (1920, 1080)])
@pytest.mark.parametrize("seats", [5, 10])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_table_fits_every_window(size: tuple[int, int], seats: int, lang: str) -> None:
    clock = Clock()
    app = App(size, clock=clock, lang=lang)
    scene = play_to_moment(app, clock, seats=seats, seed=11, moment="planet")
    lay = scene.layout()
    window = pygame.Rect((0, 0), size)
    parts = [lay.rail, lay.banner, lay.board, lay.bar, lay.side]
    assert all(_inside(window, p) for p in parts)
    for a, b in itertools.combinations([lay.rail, lay.banner, lay.board, lay.bar, lay.side], 2):
        assert not a.colliderect(b), (a, b)
    assert all(_inside(lay.board, r) for r in scene.board_cells.cells.values())
    for a, b in itertools.combinations(scene.board_cells.cells.values(), 2):
        assert not a.colliderect(b)
    choices = [b for b in scene.buttons if b.payload != "auto"]
    assert choices and all(_inside(lay.bar, b.rect) for b in scene.buttons)
    for a, b in itertools.combinations(scene.buttons, 2):
        assert not a.rect.colliderect(b.rect), (a.label, b.label)
    for a, b in itertools.combinations(scene.side_buttons, 2):
        assert not a.rect.colliderect(b.rect), (a.label, b.label)
    app.render()


def test_the_screenshot_tool_renders_a_locke_table(tmp_path: Path) -> None:
    out = tmp_path / "locke.png"
    assert screenshot.main(["locke", "--seats", "7", "--size", "960x600", "--out", str(out)]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (960, 600)
    assert len({tuple(image.get_at((x, y))) for x in range(0, 960, 7) for y in range(0, 600, 7)}) > 40
    assert screenshot.main(["locke", "--seats", "11", "--out", str(out)]) == 2


def test_pieces_are_figures_of_their_silhouette_in_the_seat_colour() -> None:
    """Issue 27 item 1: pieces by silhouette. A male silhouette has broad shoulders, a female one
    a flared dress; the plinth shows the silhouette's printed alignment; a dead piece is hollow."""
    from client.locke.board import PLINTH, SEAT_COLOURS, figure

    def drawn(sex: str, attribute: str = "good", alive: bool = True) -> pygame.Surface:
        surface = pygame.Surface((60, 60))
        surface.fill((0, 0, 0))
        figure(surface, (30, 30), 24, 2, sex, attribute, alive)
        return surface

    def width_at(surface: pygame.Surface, y: int) -> int:
        return sum(1 for x in range(60) if tuple(surface.get_at((x, y)))[:3] == SEAT_COLOURS[2])

    male, female = drawn("male"), drawn("female")
    shoulders, hem = 30 - 24 + 2 * (24 * 2 // 5) + 2, 30 + 24 - 5
    assert width_at(male, shoulders) > width_at(female, shoulders)
    assert width_at(female, hem) > width_at(male, hem)
    evil = drawn("male", "evil")
    assert tuple(evil.get_at((30, 30 + 24)))[:3] == PLINTH["evil"] != PLINTH["good"]
    dead = drawn("male", alive=False)
    assert width_at(dead, 40) < width_at(male, 40) // 3  # an outline, not a filled body

"""Tiny's table at the three reference window sizes: the middle box shows every line whole
(title, deck, our hand, dice, revealed cards, our turn or the end) and its text scales up
with the window like the seats around it (client/tiny/scene.py, client/table/seating.py).

The check reads the layout the scene draws with (``TinyScene.middle_text``): each line's
wrapped height at its size must fit the box, so a line cut off at the bottom fails the test.
A screenshot of each table is written and read back (headless).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from twisted.internet.task import Clock

from client.main import build_app
from client.settings import Settings
from client.text import line_height, wrap
from client.tiny.scene import LINE_SIZE, MIN_LINE_SIZE, MIDDLE_PAD
from tests.client.conftest import click, key

SIZES = [(960, 600), (1280, 800), (1920, 1080)]


def _table(clock: Clock, size: tuple[int, int], lang: str, seats: int) -> Any:
    app = build_app(size=size, clock=clock, settings=Settings(name="Ann", game="tiny", seats=seats, lang=lang))
    key(app, pygame.K_RETURN)  # the lobby's Play with Tiny chosen
    scene = app.scene
    assert scene.name == "tiny"
    for _ in range(10):
        clock.advance(0.5)
        app.tick()
    return app, scene


def _play_to_the_end(app: Any, scene: Any, clock: Clock) -> None:
    for _ in range(400):
        if scene.session.over:
            return
        if scene.buttons and scene.prompt is None:
            click(app, scene.buttons[0].rect.center)
        clock.advance(0.5)
        app.tick()
    raise AssertionError("the Tiny game did not end")


def assert_middle_whole(scene: Any, size: tuple[int, int]) -> int:
    """Every middle line is laid out whole inside the box, in order; returns the lines' size."""
    middle = scene.ring.middle
    box = middle.inflate(-2 * MIDDLE_PAD[0], -2 * MIDDLE_PAD[1])
    laid = scene.middle_text(middle)
    expected = [*scene.title_lines(), *scene.middle_lines()]
    assert [line for line, _, _ in laid] == expected
    y = box.top
    for line, text_size, where in laid:
        assert text_size >= MIN_LINE_SIZE, (size, line, text_size)
        rows = wrap(line, text_size, where.width)
        assert where.height == len(rows) * line_height(text_size)
        assert where.top == y and box.contains(where), (size, line, where, box)  # nothing cut at the bottom
        y = where.bottom
    for other in scene.ring.seats:
        assert not middle.colliderect(other)
    return laid[-1][1]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("seats", [3, 6])
def test_the_middle_box_fits_and_scales_at_every_size(lang: str, seats: int, tmp_path: Path,
                                                      private_dirs: Any) -> None:
    body_sizes = []
    for size in SIZES:
        clock = Clock()
        app, scene = _table(clock, size, lang, seats)
        assert scene.legal  # our turn: the "your turn" line is among the middle's
        body_sizes.append(assert_middle_whole(scene, size))
        app.render()
        shot = tmp_path / f"tiny-{seats}-{lang}-{size[0]}x{size[1]}.png"
        pygame.image.save(app.screen, str(shot))
        assert pygame.image.load(str(shot)).get_size() == size
        _play_to_the_end(app, scene, clock)
        assert scene.state.dice and scene.session.outcome() is not None
        assert_middle_whole(scene, size)  # dice, revealed cards and the result: the longest middle
    small, reference, large = body_sizes
    assert small >= MIN_LINE_SIZE and reference == LINE_SIZE
    assert large > reference  # a large window shows larger text in the middle, like its seats


def test_the_seats_text_scales_with_the_window(private_dirs: Any) -> None:
    _, small = _table(Clock(), (1280, 800), "en", 3)  # one display: measure each before the next opens
    small_scale, small_seat = small.text_scale(), small.ring.seats[0]
    _, large = _table(Clock(), (1920, 1080), "en", 3)
    assert small_scale == 1.0 and large.text_scale() > 1.2
    assert large.ring.seats[0].height > small_seat.height  # taller seats for the larger text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_chat_reactions_are_whole_at_the_smallest_window(clock: Clock, lang: str) -> None:
    """Seen in a real window (issue 29): a networked table's reactions at 960x600 read "Nice m…"
    and "Good g…" (four equal buttons in the 300 px side panel). Each is now as wide as its words."""
    from client.text import fit_line
    from client.widgets import BUTTON_MIN_SIZE, TextField

    app, scene = _table(clock, (960, 600), lang, 3)
    scene.chat_field = TextField(pygame.Rect(0, 0, 10, 10))  # as a networked table has
    scene._build_controls()
    reactions = [b for b in scene.chat_buttons if b.payload[1] != "send"]
    assert len(reactions) == 4
    for button in reactions:
        shown, _ = fit_line(button.label, button.size, button.label_room(button.size), min_size=BUTTON_MIN_SIZE)
        assert shown == button.label, (button.label, button.rect)
    field = scene.chat_field.rect
    assert all(b.rect.right <= field.right + 70 for b in reactions)  # within the panel, the Send button's edge
    app.render()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_input_buttons_show_their_words_at_full_size(clock: Clock, lang: str) -> None:
    """Seen in a real window (issue 29): "Guess low (6 or less)" shrank to a smaller size than
    "Guess high (7+)" beside it; each input button is as wide as its label."""
    from client.text import fit_line

    app, scene = _table(clock, (960, 600), lang, 3)
    assert len(scene.buttons) == 2
    for button in scene.buttons:
        assert fit_line(button.label, button.size, button.label_room(button.size)) == (button.label, button.size)
    assert scene.buttons[0].rect.right < scene.buttons[1].rect.left
    assert scene.buttons[-1].rect.right <= scene.bar().right


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_seat_status_is_whole_at_the_smallest_window(clock: Clock, lang: str) -> None:
    """Seen in a real 960x600 window (six seats, Japanese): each bot's status read
    "ボット・ローカル卓（このコンピュ…"; a seat's status line fits its box."""
    from client.i18n import tr
    from client.table.status import COLOURS
    from client.text import fit_line

    app, scene = _table(clock, (960, 600), lang, 6)
    size = scene.sized(12)
    for seat, rect in enumerate(scene.ring.seats):
        text = tr(lang, scene.session.peer_status(seat))
        assert fit_line(text, size, rect.width - 12 - 12)[0] == text, (seat, text)
    for key in COLOURS:  # every status a seat can show, at the narrowest seat of the ring
        text = tr(lang, key)
        narrowest = min(r.width for r in scene.ring.seats)
        assert fit_line(text, size, narrowest - 24)[0] == text, (key, text)

"""Rider's bar hint (what to do now, under our move's status line) is shown whole at the three
reference window sizes, in both languages: it shrinks a little and wraps onto at most two rows
that fit the bar beside its buttons (client/rider/drawing.py hint_layout), never cut with an
ellipsis. Checked for the set-up placement hint (the one that was cut at 1280x800) and for
every hint of the game, with the bar's real buttons; a screenshot is written and read back.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from twisted.internet.task import Clock

from client.app import App
from client.i18n import tr
from client.rider.demo import play_to_midgame
from client.rider.drawing import HINT_MIN, HINT_ROWS, STATUS_SIZE, bar_hint, bar_text_room, hint_layout
from client.rider.play import start_local_game
from client.settings import Settings
from client.text import ELLIPSIS, line_height, render
from client import theme

#: The reference sizes, and windows between them as real screens open them (1240x720 on a 1280x800
#: screen) or players resize them (a 1120x660 window keeps the side panel open: the narrowest board).
SIZES = [(960, 600), (1120, 660), (1240, 720), (1280, 800), (1920, 1080)]
HINTS = ("hint_setup", "hint_select", "hint_card", "hint_target", "hint_attack", "hint_flip", "hint_rps")


def assert_whole(text: str, room: int, bar_h: int, where: str) -> None:
    rows, size = hint_layout(text, room, bar_h)
    assert size >= HINT_MIN and len(rows) <= HINT_ROWS, (where, rows, size)
    assert not any(r.endswith(ELLIPSIS) for r in rows), (where, rows)
    assert "".join(rows).replace(" ", "") == text.replace(" ", ""), (where, rows)  # every word, in order
    assert all(render(r, size, theme.TEXT_DIM).get_width() <= room for r in rows), (where, rows, room)
    assert line_height(STATUS_SIZE) + len(rows) * line_height(size) <= bar_h, (where, rows, size, bar_h)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_the_placement_hint_fits_the_bar_whole(size: tuple[int, int], lang: str, tmp_path: Path) -> None:
    app = App(size, clock=Clock(), lang=lang)
    scene = start_local_game(app, Settings(lang=lang), on_leave=lambda: None, seed=4)
    assert scene.setup is not None and scene.legal and scene.bar_buttons  # Start over, Choose for me, Place
    text = bar_hint(scene, lang)
    assert text == tr(lang, "hint_setup")
    _, room = bar_text_room(scene, scene.session.state)
    assert_whole(text, room, scene.layout.bar.height, f"{size} {lang} set-up")
    app.render()
    shot = tmp_path / f"rider-setup-{lang}-{size[0]}x{size[1]}.png"
    pygame.image.save(app.screen, str(shot))
    assert pygame.image.load(str(shot)).get_size() == size


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_hint_of_the_game_fits_the_bar_whole(lang: str) -> None:
    for size in SIZES:
        clock = Clock()
        app = App(size, clock=clock, lang=lang)
        scene = play_to_midgame(app, clock, seed=11)
        scene.resized(size)
        _, room = bar_text_room(scene, scene.session.state)
        for key in HINTS:
            assert_whole(tr(lang, key), room, scene.layout.bar.height, f"{size} {lang} {key}")
        app.render()


def test_the_flip_and_rock_paper_scissors_hints_point_at_the_button_not_a_card() -> None:
    """Issue 29 item 7: during a sealed choice the hint says to use the button below."""
    from engine.core.inputs import SealedPick

    clock = Clock()
    app = App((1280, 800), clock=clock, lang="en")
    scene = play_to_midgame(app, clock, seed=11)
    for purpose, key in (("rider.battle_mark", "hint_flip"), ("rider.rps", "hint_rps")):
        scene.legal = [SealedPick(scene.me, purpose, "A")]
        scene.selected = None
        assert bar_hint(scene, "en") == tr("en", key) and "button" in tr("en", key)
        # the bar's buttons are right of the hint (seen in a real window: it said "below")
        assert "on the right" in tr("en", key) and tr("ja", key).startswith("右のボタン")

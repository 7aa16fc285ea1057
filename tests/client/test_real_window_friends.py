"""Friends at a table, in real X windows (Xvfb): what a real window adds over the headless lobby
tests (issue 29 items 3 and 5).

- Two windows on one computer with one identity (no FAIRTABLE_PROFILE): the second window that
  joins the first one's table is told so within 2 s of the click on Join, in its own words (the
  message area drawn pixel for pixel as the headless lobby draws the own-table message).
- A host window and a joiner window play a networked Tiny table to the end screen, its audit
  passed, through clicks on the real windows over TCP on 127.0.0.1.

Each window runs on its own Xvfb screen (960x600: the smallest the layouts are made for), so
screenshots of one never show the other. Set FAIRTABLE_SHOTS=DIR to keep the screenshots.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.client.real_window import Client, lobby_at, missing_tools, pixels, settle, xvfb

pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(missing_tools()),
                                                    reason=f"needs {', '.join(missing_tools())} (apt-get install "
                                                           "xvfb xdotool imagemagick)")]

SIZE = (960, 600)


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("FAIRTABLE_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _centre(rect: Any) -> tuple[int, int]:
    return rect.centerx, rect.centery


def _window(stack: contextlib.ExitStack, home: Path, settings: dict[str, Any]) -> Client:
    display = stack.enter_context(xvfb(SIZE))
    client = Client(display, home, settings)
    stack.callback(client.close)
    settle(1.5)
    assert client.geometry()[2:] == SIZE  # fitted to the screen: the layouts below are this size's
    return client


def _join(client: Client, lobby: Any, code: str) -> None:
    """Type ``code`` into the lobby's code field and click Join."""
    client.click(*_centre(lobby.code_field.rect))
    client.type(code)
    client.click(*_centre(lobby.join_button.rect))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_two_windows_with_one_key_hear_within_two_seconds_that_it_is_their_own_table(
        lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from client import theme
    from client.i18n import tr
    from client.lobby import SECOND_WINDOW, load_identity

    shots = _shots(tmp_path)
    settings = {"lang": lang, "name": "Ann", "game": "tiny", "seats": 2}
    home = tmp_path / "one-key"  # both windows: one settings folder, one identity key
    lobby = lobby_at(SIZE, lang, settings)
    with contextlib.ExitStack() as stack:
        host = _window(stack, home, settings)
        host.click(*_centre(lobby.host_button.rect))
        code = host.invite_code()
        twin = _window(stack, home, settings)
        _join(twin, lobby, code)
        clicked = time.monotonic()
        box = lobby.message_rect
        area = (box.left, box.top, box.width, box.height)
        seen = None
        while time.monotonic() - clicked < 2.0:
            shot = twin.shot(shots / f"own-table-{lang}.png")
            if pixels(shot, area, theme.BAD) > 50:
                seen = time.monotonic() - clicked
                break
        assert seen is not None, f"no message within 2 s:\n{twin.output()}"
        twin.alive()
        host.alive()
    # the words are the lobby's own, in the window's language: drawn as the headless lobby draws them
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    fingerprint, _ = load_identity()
    expected = lobby_at(SIZE, lang, settings)
    expected._say(tr(lang, "own_table", fingerprint=fingerprint, command=SECOND_WINDOW), theme.BAD)
    import pygame

    drawn = pygame.Surface(SIZE)
    expected.draw(drawn)
    real = pygame.image.load(str(shot))
    same = sum(1 for x in range(box.left, box.right) for y in range(box.top, box.bottom)
               if tuple(real.get_at((x, y)))[:3] == tuple(drawn.get_at((x, y)))[:3])
    assert same >= 0.99 * box.width * box.height, (same, box)


def test_a_host_window_and_a_joiner_window_play_a_networked_tiny_table_to_the_end_screen(tmp_path: Path) -> None:
    from client import theme

    shots = _shots(tmp_path)
    settings = {"lang": "en", "name": "Ann", "game": "tiny", "seats": 2}
    lobby = lobby_at(SIZE, "en", settings)
    with contextlib.ExitStack() as stack:
        host = _window(stack, tmp_path / "host", settings)
        joiner = _window(stack, tmp_path / "joiner", {**settings, "name": "Ben", "game": "rider"})
        host.click(*_centre(lobby.host_button.rect))
        _join(joiner, lobby, host.invite_code())  # a Rider lobby joins the host's Tiny table
        # the end screen's box (client/table/end_scene.py) with its accent edge, and the audit in green
        w, h = SIZE
        box = (w // 2 - min(760, w - 80) // 2, h // 2 - min(470, h - 80) // 2, min(760, w - 80), min(470, h - 80))
        title = (24, 16, 200, 56)  # the lobby's "Fairtable" title (client/lobby.py), in the accent colour
        deadline = time.monotonic() + 50
        ended: dict[str, Path] = {}
        while time.monotonic() < deadline and len(ended) < 2:
            for name, window in (("host", host), ("joiner", joiner)):
                if name in ended:
                    continue
                window.alive()
                shot = window.shot(shots / f"tiny-net-{name}.png")
                if pixels(shot, title, theme.ACCENT) > 200:  # still the lobby (a loaded machine): its Quit
                    continue  # button sits where Tiny's first input will be, so no click yet
                window.click(112, h - 44)  # the first of our inputs under the board (Tiny's bar)
                shot = window.shot(shots / f"tiny-net-{name}.png")
                if pixels(shot, (box[0], box[1], box[2], 3), theme.ACCENT) > box[2] // 2 and \
                        pixels(shot, box, theme.GOOD) > 50:
                    ended[name] = shot
            settle(0.3)
        assert set(ended) == {"host", "joiner"}, f"{host.output()}\n{joiner.output()}"
        outputs = host.close() + joiner.close()
    assert "Traceback" not in outputs, outputs

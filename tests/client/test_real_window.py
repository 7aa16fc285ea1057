"""The client a player starts, in a real X window (Xvfb), at three screen sizes and in both
languages: the lobby fits the screen, Enter opens a local Rider table and a local Super Human
Locke table against bots, every frame is drawn (not blank), and nothing crashes.

Set FAIRTABLE_SHOTS=DIR to keep the screenshots for looking at (issue 29's acceptance asks
for them to be looked at; tests/client/real_window.py says how the window is driven).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.client.real_window import Client, colours, missing_tools, settle, xvfb

pytestmark = [pytest.mark.slow, pytest.mark.skipif(bool(missing_tools()),
                                                    reason=f"needs {', '.join(missing_tools())} (apt-get install "
                                                           "xvfb xdotool imagemagick)")]

SIZES = ((960, 600), (1280, 800), (1920, 1080))


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("FAIRTABLE_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", ["rider", "locke"])
def test_the_lobby_and_a_table_in_a_real_window(game: str, size: tuple[int, int], lang: str, tmp_path: Path) -> None:
    shots = _shots(tmp_path)
    stem = f"{game}-{size[0]}x{size[1]}-{lang}"
    with xvfb(size) as display:
        client = Client(display, tmp_path / "home", {"lang": lang, "name": "Ann", "game": game, "seats": 5})
        try:
            settle(2.0)
            client.alive()
            x, y, width, height = client.geometry()
            assert x >= 0 and y >= 0 and x + width <= size[0] and y + height <= size[1], (x, y, width, height)
            lobby = client.shot(shots / f"{stem}-lobby.png")
            assert colours(lobby) > 20, "the lobby frame is blank"
            client.key("Return")  # "Play against a bot" is the lobby's default
            settle(4.0)
            client.alive()
            table = client.shot(shots / f"{stem}-table.png")
            assert colours(table) > 20, "the table frame is blank"
            assert table.read_bytes() != lobby.read_bytes(), "Enter did not open the table"
        finally:
            output = client.close()
    assert "Traceback" not in output, output

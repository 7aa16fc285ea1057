"""The real client in a real X window: an Xvfb screen of a chosen size, ``python -m client``
on it, keys and clicks through xdotool and screenshots of the whole screen.

The headless scene tests drive scenes through pygame's dummy video driver; these helpers
run the program a player runs (its own process, SDL's X11 driver, the window fitted to
the screen it opens on), so a crash on start, a window larger than the screen or a blank
frame shows up as it would on a player's machine. Tests using them skip where Xvfb,
xdotool or ImageMagick's ``import`` are missing (install: apt-get install xvfb xdotool
imagemagick).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("Xvfb", "xdotool", "import")


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def _free_display() -> int:
    for number in range(140, 400):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            return number
    raise RuntimeError("no free X display number between :140 and :399")


def _answers(display: str) -> bool:
    """Whether the X server of ``display`` takes connections."""
    if not Path(f"/tmp/.X11-unix/X{display.lstrip(':')}").exists():
        return False
    done = subprocess.run(["xdotool", "getdisplaygeometry"], env={**os.environ, "DISPLAY": display},
                          capture_output=True, timeout=10)
    return done.returncode == 0


@contextlib.contextmanager
def xvfb(size: tuple[int, int]) -> Iterator[str]:
    """A virtual X screen of ``size`` (24-bit); yields its DISPLAY value."""
    number = _free_display()
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        # the socket appears a moment before the server answers: a client started then finds no
        # display, so wait until xdotool can read the screen's size
        while not _answers(f":{number}"):
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Xvfb :{number} did not start")
            time.sleep(0.05)
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


class Client:
    """One ``python -m client`` on ``display`` with its own settings and data folders."""

    def __init__(self, display: str, home: Path, settings: dict[str, Any]) -> None:
        self.display = display
        config, data = home / "config", home / "data"
        (config / "fairtable").mkdir(parents=True, exist_ok=True)
        (config / "fairtable" / "client.json").write_text(json.dumps(settings), encoding="utf-8")
        self.log = home / "client.log"
        self.env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy",
                    "XDG_CONFIG_HOME": str(config), "XDG_DATA_HOME": str(data)}
        with open(self.log, "w", encoding="utf-8") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "client"], cwd=ROOT, env=self.env, stdout=out,
                                         stderr=subprocess.STDOUT)
        self.window = self._find_window()

    def _xdotool(self, *args: str) -> str:
        done = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20)
        return done.stdout.strip()

    def _find_window(self) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            self.alive()
            # SDL names the window "Fairtable"; xdotool's --name search misses SDL's title on some
            # builds, so every window is listed and the title compared here
            for window in self._xdotool("search", "--classname", ".").split():
                if self._xdotool("getwindowname", window).startswith("Fairtable"):
                    return window
            time.sleep(0.1)
        raise AssertionError(f"no Fairtable window appeared:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-3000:]

    def alive(self) -> None:
        assert self.proc.poll() is None, f"the client exited ({self.proc.returncode}):\n{self.output()}"

    def geometry(self) -> tuple[int, int, int, int]:
        """The window's x, y, width and height on the screen."""
        text = self._xdotool("getwindowgeometry", "--shell", self.window)
        values = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
        return int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"])

    def key(self, *keys: str) -> None:
        self._xdotool("windowfocus", "--sync", self.window)
        self._xdotool("key", "--window", self.window, *keys)

    def click(self, x: int, y: int) -> None:
        """A left click at (x, y) inside the window."""
        left, top, _, _ = self.geometry()
        # one xdotool call, so the move reaches the X server before the click; no --sync: xdotool
        # waits ~15 s for a motion that never comes when the pointer is already there
        self._xdotool("mousemove", str(left + x), str(top + y), "click", "1")

    def type(self, text: str) -> None:
        """Type ``text`` into the window (the focused field)."""
        self._xdotool("windowfocus", "--sync", self.window)
        self._xdotool("type", "--window", self.window, "--delay", "5", text)

    def invite_code(self, timeout: float = 20.0) -> str:
        """The invite code the window printed when it opened a table (the lobby prints it to the console)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.alive()
            found = re.findall(r"Fairtable invite code: (\S+)", self.log.read_text(encoding="utf-8", errors="replace"))
            if found:
                return found[-1]
            time.sleep(0.1)
        raise AssertionError(f"no invite code printed:\n{self.output()}")

    def shot(self, path: Path) -> Path:
        """The whole screen as a PNG."""
        subprocess.run(["import", "-display", self.display, "-window", "root", str(path)], env=self.env,
                       check=True, timeout=30, capture_output=True)
        return path

    def close(self) -> str:
        """Stop the client; returns its output (for a traceback check)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.output()


def colours(path: Path) -> int:
    """How many distinct colours a screenshot has (a blank or single-colour frame has 1)."""
    import pygame

    image = pygame.image.load(str(path))
    small = pygame.transform.scale(image, (160, 100))
    return len({tuple(small.get_at((x, y))) for x in range(160) for y in range(100)})


def pixels(path: Path, rect: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    """How many pixels of a screenshot inside ``rect`` (x, y, width, height) are exactly ``colour``
    (text is antialiased, but a glyph's core has the colour it is drawn in)."""
    import pygame

    image = pygame.image.load(str(path))
    x0, y0, width, height = rect
    return sum(1 for x in range(x0, x0 + width) for y in range(y0, y0 + height)
               if tuple(image.get_at((x, y)))[:3] == tuple(colour))


def lobby_at(size: tuple[int, int], lang: str, settings: dict[str, Any]) -> Any:
    """A headless lobby laid out like the real window's (the same size, language and settings), for
    where its widgets are; the test process's own (dummy) display draws it."""
    from twisted.internet.task import Clock

    from client.app import App
    from client.lobby import LobbyScene
    from client.settings import Settings

    app = App(size, clock=Clock(), lang=lang)
    lobby = LobbyScene(app, Settings(**settings), lan=False, resumable=False)
    app.switch(lobby)
    return lobby


def settle(seconds: float) -> None:
    time.sleep(seconds)

"""The frame loop: redraws only when needed, idles slowly, exits cleanly
without a display."""

from __future__ import annotations

import pygame

import client.__main__ as entry
from client import app as app_module
from client.lobby import LobbyScene
from client.settings import Settings


def test_no_redraw_when_nothing_changes(app, clock):
    app.switch(LobbyScene(app, Settings()))
    app.tick()
    drawn = app.frames_drawn
    for _ in range(20):
        clock.advance(0.1)
        app.tick()
    assert app.frames_drawn == drawn  # nothing moved, nothing was drawn
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0)))
    app.tick()
    assert app.frames_drawn == drawn + 1


def test_loop_slows_down_when_idle_and_speeds_up_on_input(app, clock):
    app.switch(LobbyScene(app, Settings()))
    app.start()
    try:
        assert app._rate == app_module.ACTIVE_HZ
        clock.advance(app_module.IDLE_AFTER + 0.2)
        for _ in range(40):
            clock.advance(1 / 60)
        assert app._rate == app_module.IDLE_HZ
        app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x, mod=0, unicode="x", scancode=0))
        assert app._rate == app_module.ACTIVE_HZ
    finally:
        app.stop()


def test_headless_exit_names_the_tools(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    monkeypatch.setattr(entry.sys, "platform", "linux")
    assert entry.main([]) == 2
    err = capsys.readouterr().err
    assert "python -m tools.match" in err and "python -m tools.screenshot" in err


def test_dummy_driver_counts_as_a_display(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert entry.display_problem() is None


def test_a_display_that_cannot_open_is_reported_not_run_invisibly():
    """DISPLAY names no X server: SDL would silently fall back to 'offscreen'."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":97"
    done = subprocess.run([sys.executable, "-m", "client"], env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2
    assert "python -m tools.screenshot" in done.stderr


def test_silent_fallback_only_when_not_requested():
    assert entry.silent_fallback("", "offscreen")
    assert entry.silent_fallback("", "dummy")
    assert entry.silent_fallback("dummy", "dummy") is None
    assert entry.silent_fallback("", "x11") is None


def test_a_python_without_the_packages_is_told_how_to_start_fairtable():
    """`python -m client` from a Python outside the install's virtual environment (issue 29 item 2):
    a real process whose pygame import is blocked says what is missing and which command to run."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    blocker = "import sys; sys.modules['pygame'] = None; import runpy; runpy.run_module('client', run_name='__main__')"
    done = subprocess.run([sys.executable, "-c", blocker], capture_output=True, text=True, cwd=root, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "pygame missing" in done.stderr and ".venv/bin/fairtable" in done.stderr and "pip install -e ." in done.stderr


def test_the_window_fits_the_screen_it_opens_on_and_remembers_its_size(tmp_path):
    """Issue 29 item 4: a laptop's 1366x768 gets a window that fits (panels included), a 960x600
    screen the smallest layout, a big screen the size the player left it at last time."""
    from client.app import DEFAULT_SIZE, MIN_SIZE, window_size
    from client.settings import Settings

    assert window_size((0, 0), (1366, 768)) == (1280, 688)
    assert window_size((0, 0), (960, 600)) == MIN_SIZE  # never below the smallest layout
    assert window_size((1600, 1000), (1920, 1080)) == (1600, 1000)  # remembered
    assert window_size((1600, 1000), (1366, 768)) == (1326, 688)  # remembered, but fitted to this screen
    assert window_size((100, 100), None) == DEFAULT_SIZE  # a broken saved size is ignored
    path = tmp_path / "client.json"
    Settings(window_w=1500, window_h=900).save(path)
    loaded = Settings.load(path)
    assert (loaded.window_w, loaded.window_h) == (1500, 900)


def test_a_resized_window_is_saved_when_the_app_stops(app, monkeypatch):  # type: ignore[no-untyped-def]
    saved = []
    monkeypatch.setattr(app.prefs, "save", lambda path=None: saved.append((app.prefs.window_w, app.prefs.window_h)))
    pygame.display.set_mode((1100, 700), pygame.RESIZABLE)
    app.dispatch(pygame.event.Event(pygame.VIDEORESIZE, size=(1100, 700), w=1100, h=700))
    assert (app.prefs.window_w, app.prefs.window_h) == (1100, 700)
    app.running = True
    app.stop()
    assert saved == [(1100, 700)]


def test_a_language_chosen_with_l_is_kept_for_the_next_start(app, monkeypatch):  # type: ignore[no-untyped-def]
    saved = []
    monkeypatch.setattr(app.prefs, "save", lambda path=None: saved.append(app.prefs.lang))
    app.set_lang("ja")
    assert app.prefs.lang == "ja" and saved == ["ja"]
    app.set_lang("ja")  # no change: nothing to save
    assert saved == ["ja"]


def test_l_in_the_lobby_is_saved_at_once(clock):  # type: ignore[no-untyped-def]
    """Seen with a real window (issue 29 item 7): L in the lobby changed the lobby's settings before
    telling the app, so App.set_lang saw no change and saved nothing; a window that did not quit
    cleanly came back in the old language. The settings file has the new language at once."""
    import pygame

    from client.main import build_app
    from client.settings import Settings
    from tests.client.conftest import key

    Settings(name="Ann", lang="en").save()
    app = build_app(clock=clock)
    key(app, pygame.K_l)
    assert app.lang == "ja" and Settings.load().lang == "ja"
    click_switch = app.scene.lang_choice
    click_switch._pick("en")  # the lobby's language switch too
    assert Settings.load().lang == "en"

"""``python -m client``: open the Fairtable window (lobby first).

Without its packages (run by a Python outside the install's virtual
environment) or without a display the window cannot open; rather than a
stack trace the player is told what happened and what to run instead.
"""

from __future__ import annotations

import importlib.util
import os
import sys

HEADLESS_HELP = (
    "Fairtable could not open a window: {why}.\n"
    "Run it from a desktop session (X11 or Wayland), or use the headless tools:\n"
    "  python -m tools.match       play bot-against-bot games in the terminal\n"
    "  python -m tools.screenshot  render a game's table to a PNG file (see its --help)\n"
)


#: What the window needs besides the standard library (pyproject.toml's dependencies, by import name).
NEEDED = ("pygame", "twisted", "nacl", "cryptography", "platformdirs")

NOT_INSTALLED_HELP = (
    "Fairtable's packages are not installed for this Python ({python}): {missing} missing.\n"
    "If you installed it with the README's command, start it with the command that install put in .venv:\n"
    "  .venv/bin/fairtable          (or .venv/bin/python -m client)\n"
    "from the folder you installed it in. To install it now, in that folder:\n"
    "  python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/fairtable\n"
)


def missing_packages() -> list[str]:
    """The packages the window needs that this Python cannot import."""
    return [name for name in NEEDED if importlib.util.find_spec(name) is None]


def display_problem() -> str | None:
    """Why no display is available, or None if one may be."""
    driver = os.environ.get("SDL_VIDEODRIVER", "").lower()
    if driver in ("dummy", "offscreen"):
        return None
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return None


def silent_fallback(requested: str, driver: str) -> str | None:
    """SDL quietly falls back to an invisible driver when the real display
    fails (e.g. DISPLAY names no running X server); say so unless asked for."""
    if driver in ("offscreen", "dummy") and requested.lower() != driver:
        return f"the display could not be opened (SDL fell back to its invisible '{driver}' driver)"
    return None


def main(argv: list[str] | None = None) -> int:
    missing = missing_packages()
    if missing:
        print(NOT_INSTALLED_HELP.format(python=sys.executable, missing=", ".join(missing)), file=sys.stderr)
        return 2
    why = display_problem()
    if why:
        print(HEADLESS_HELP.format(why=why), file=sys.stderr)
        return 2
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from client.main import build_app

    try:
        pygame.display.init()
    except pygame.error as exc:
        print(HEADLESS_HELP.format(why=f"pygame could not start its display ({exc})"), file=sys.stderr)
        return 2
    fallback = silent_fallback(os.environ.get("SDL_VIDEODRIVER", ""), pygame.display.get_driver())
    if fallback:
        pygame.display.quit()
        print(HEADLESS_HELP.format(why=fallback), file=sys.stderr)
        return 2
    try:
        app = build_app()
    except pygame.error as exc:
        print(HEADLESS_HELP.format(why=f"pygame could not open a window ({exc})"), file=sys.stderr)
        return 2
    app.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

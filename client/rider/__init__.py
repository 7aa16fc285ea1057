"""The Rider table: layout, intents, descriptions, the scene and its driver.

This package is Rider's client UI (its registry entry's ``client_ui``): the
lobby opens a local table through :func:`start_local`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def start_local(app: Any, settings: Any, entry: Any, on_leave: Callable[[], None], *, seed: int | None = None) -> Any:
    """Open a local Rider table against the settings' bot and deck; return the scene."""
    from client.rider.play import start_local_game

    return start_local_game(app, settings, on_leave, seed=seed)

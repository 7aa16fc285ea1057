"""Tiny's client UI hook (named by its registry entry, net/games/tiny.py ``client_ui``).

The lobby imports this module by that name and calls :func:`start_local` to
open a local table: the player holds seat 0, the game's random bot every
other seat. The scene (client/tiny/scene.py) is deliberately plain: the
public state as text and one button per legal input, which is all a new
game needs to be playable in the client before it gets real art.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def start_local(app: Any, settings: Any, entry: Any, on_leave: Callable[[], None], *, seed: int | None = None) -> Any:
    """Switch ``app`` to a local Tiny table (``entry.default_seats`` seats); return the scene."""
    from client.tiny.scene import TinyScene

    scene = TinyScene(app, entry, on_leave, seed=seed)
    app.switch(scene)
    return scene

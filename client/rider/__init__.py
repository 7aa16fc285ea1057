"""The Rider table: layout, intents, descriptions, the scene and its driver.

This package is Rider's client UI (its registry entry's ``client_ui``; the
contract is client/table/ui.py's): these three functions are the one place
Rider plugs into the client. The lobby opens a local table through
:func:`start_local`, hosts and joins with the deck :func:`net_deck` names,
and shows a networked table through :func:`start_net`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def start_local(app: Any, settings: Any, entry: Any, on_leave: Callable[[], None], *, seed: int | None = None) -> Any:
    """Open a local Rider table against the settings' bot and deck; return the scene."""
    from client.rider.play import start_local_game

    return start_local_game(app, settings, on_leave, seed=seed)


def net_deck(settings: Any) -> tuple[str, ...]:
    """The card ids of the deck our seat brings to a networked table (the lobby's choice)."""
    from client.rider.net_play import net_deck as chosen

    return chosen(settings)


def start_net(app: Any, table: Any, on_leave: Callable[[], None],
              on_rematch: Callable[[Any], None] | None = None) -> Any:
    """Show the networked Rider table whose peer has just started its session; return the scene."""
    from client.rider.net_play import start_net_game

    return start_net_game(app, table, on_leave, on_rematch)

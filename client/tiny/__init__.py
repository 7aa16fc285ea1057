"""Tiny's client UI hook (named by its registry entry, net/games/tiny.py ``client_ui``).

The lobby imports this module by that name (the contract is
client/table/ui.py's): :func:`setup_fields` is Tiny's set-up picker (the
number of seats, 2 to 10), :func:`start_local` opens a local table (the
player holds seat 0, the game's random bot every other seat),
:func:`net_deck` says Tiny brings no deck, and :func:`start_net` shows a
networked table once the peer's session runs. The scene
(client/tiny/scene.py) is deliberately plain: the public state as text and
one button per legal input, which is all a new game needs to be playable in
the client, locally and over the network, before it gets real art.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.table.ui import SetupField, seat_field, table_seats


def setup_fields(settings: Any, lang: str) -> list[SetupField]:
    """Tiny's set-up picker: how many seats (the local table's, and the one we host)."""
    from net.games import game_named

    return [seat_field(game_named("tiny"), settings)]


def start_local(app: Any, settings: Any, entry: Any, on_leave: Callable[[], None], *, seed: int | None = None) -> Any:
    """Switch ``app`` to a local Tiny table of the lobby's seat count; return the scene."""
    from client.tiny.scene import TinyScene

    scene = TinyScene(app, entry, on_leave, seed=seed, seats=table_seats(entry, settings))
    app.switch(scene)
    return scene


def net_deck(settings: Any) -> None:
    """Tiny's cards are the table's (a public deck shuffled jointly): a seat brings none."""
    return None


def start_net(app: Any, table: Any, on_leave: Callable[[], None],
              on_rematch: Callable[[Any], None] | None = None) -> Any:
    """Show our seat of a networked Tiny table; the table layer's end screen follows the audit."""
    import pygame

    from client.table.end_scene import EndScene
    from client.table.net_play import rematch_starter
    from client.table.net_session import NetSession
    from client.tiny.scene import TinyScene

    session: NetSession[Any] = NetSession(table.peer, clock=app.clock)

    def leave() -> None:
        session.leave()
        table.abandon()  # leaving is abandoning: nothing to resume later
        on_leave()

    again = rematch_starter(table, session, None, on_rematch)

    def ended(scene: TinyScene) -> None:
        backdrop = pygame.Surface(app.screen.get_size())
        scene.draw(backdrop)
        app.switch(EndScene(app, session, backdrop=backdrop, on_lobby=leave, on_again=again))

    scene = TinyScene(app, table.entry, leave, session=session, on_end=ended)
    app.switch(scene)  # its enter() starts following the session
    return scene

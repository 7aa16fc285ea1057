"""Wiring: build the application with its lobby and game starters."""

from __future__ import annotations

from typing import Any

from client.app import App
from client.lobby import LobbyScene
from client.settings import Settings


def build_app(size: tuple[int, int] | None = None, clock: Any = None, settings: Settings | None = None) -> App:
    """The window with the lobby showing: ``size``, else the size it had last time (the settings),
    fitted to the screen it opens on (client.app.window_size)."""
    import pygame

    from client.app import desktop_size, window_size

    settings = settings or Settings.load()
    if size is None:
        pygame.display.init()
        size = window_size((settings.window_w, settings.window_h), desktop_size())
    app = App(size, clock=clock, lang=settings.lang if settings.lang in ("en", "ja") else "en")
    app.use_prefs(settings)
    set_icon()
    show_lobby(app, settings)
    return app


def show_lobby(app: App, settings: Settings, net: object = None) -> None:
    """The lobby; with ``net``, a networked table in the making (a rematch) shown in it."""
    lobby = LobbyScene(app, settings, start_game=lambda s: start_bot_game(app, s),
                       start_net=lambda table: start_networked_game(app, settings, table))
    app.switch(lobby)
    if net is not None:
        lobby.adopt(net)


def start_networked_game(app: App, settings: Settings, table: Any) -> None:
    """Show the networked table whose peer has just started its session (through its game's UI)."""
    from client.table.ui import net_ui

    ui = net_ui(table.entry.name)
    if ui is None:
        raise ValueError(f"{table.entry.title} has no networked table in this client")
    ui.start_net(app, table, on_leave=lambda: show_lobby(app, settings),
                 on_rematch=lambda new: show_lobby(app, settings, net=new))


def start_bot_game(app: App, settings: Settings) -> None:
    """Open a local table of the chosen game against bots and show it (through the game's client UI,
    named by its registry entry); ValueError when the game has none."""
    from client.table.ui import game_ui
    from net.games import game_named

    game_ui(settings.game).start_local(app, settings, game_named(settings.game),
                                       on_leave=lambda: show_lobby(app, settings))


def set_icon() -> None:
    """The window icon: a small face-down card of no game in particular (drawn, like everything else)."""
    import pygame

    from client import theme

    icon = pygame.Surface((32, 32), pygame.SRCALPHA)
    card = pygame.Rect(5, 1, 22, 30)
    pygame.draw.rect(icon, theme.CARD_BACK, card, border_radius=4)
    pygame.draw.rect(icon, theme.CARD_BACK_EDGE, card, width=2, border_radius=4)
    diamond = [(16, 8), (22, 16), (16, 24), (10, 16)]
    pygame.draw.polygon(icon, theme.ACCENT, diamond)
    pygame.display.set_icon(icon)

"""Wiring: build the application with its lobby and game starters."""

from __future__ import annotations

from typing import Any

from client.app import App
from client.lobby import LobbyScene
from client.settings import Settings


def build_app(size: tuple[int, int] = (1280, 800), clock: Any = None, settings: Settings | None = None) -> App:
    """The window with the lobby showing."""
    settings = settings or Settings.load()
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


def start_networked_game(app: App, settings: Settings, table: object) -> None:
    """Show the networked table whose peer has just started its session."""
    from client.rider.net_play import start_net_game

    start_net_game(app, table, on_leave=lambda: show_lobby(app, settings),  # type: ignore[arg-type]
                   on_rematch=lambda new: show_lobby(app, settings, net=new))


def start_bot_game(app: App, settings: Settings) -> None:
    """Open a local table of the chosen game against bots and show it (through the game's client UI,
    named by its registry entry); ValueError when the game has none."""
    from client.lobby import local_ui
    from net.games import game_named

    local_ui(settings.game).start_local(app, settings, game_named(settings.game),
                                        on_leave=lambda: show_lobby(app, settings))


def set_icon() -> None:
    """The window icon: a small card back (drawn, like everything else)."""
    import pygame

    from client.cardart import CardArt
    from client.decks import cardset

    icon = pygame.Surface((32, 32), pygame.SRCALPHA)
    back = CardArt(cardset()).back((23, 32))
    icon.blit(back, ((32 - 23) // 2, 0))
    pygame.display.set_icon(icon)

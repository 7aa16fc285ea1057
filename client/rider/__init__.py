"""The Rider table: layout, intents, descriptions, the scene and its driver.

This package is Rider's client UI (its registry entry's ``client_ui``; the
contract is client/table/ui.py's): these three functions are the one place
Rider plugs into the client. The lobby opens a local table through
:func:`start_local`, hosts and joins with the deck :func:`net_deck` names,
shows a networked table through :func:`start_net`, and lays out Rider's set-up
picker (the deck and the bot) from :func:`setup_fields`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pathlib import Path

from client.help import HelpPage
from client.i18n import register_words
from client.table.ui import SetupField

if TYPE_CHECKING:
    from client.app import App
    from client.scene import Scene
    from client.settings import Settings
    from client.table.net_play import NetTable
    from net.games import GameEntry

register_words("rider", Path(__file__).resolve().parent / "locale")  # Rider's words (client/rider/locale)


def start_local(app: App, settings: Settings, entry: GameEntry[Any], on_leave: Callable[[], None], *,
                seed: int | None = None) -> Scene:
    """Open a local Rider table against the settings' bot and deck; return the scene."""
    from client.rider.play import start_local_game

    return start_local_game(app, settings, on_leave, seed=seed)


def scene_for(app: App, session: Any, on_leave: Callable[[], None] | None,
                on_end: Callable[[Any], None] | None) -> Scene:
    """Rider's table scene over any table session (local, networked, a replay)."""
    from client.rider.play import card_art
    from client.rider.table_scene import RiderTableScene

    return RiderTableScene(app, session, card_art(), on_leave=on_leave, on_end=on_end)


def setup_fields(settings: Settings, lang: str) -> list[SetupField]:
    """Rider's set-up picker: the player's deck (also the one brought to a networked table) and the bot."""
    from client.rider.decks import shipped_decks
    from client.i18n import tr

    decks = shipped_decks()
    keys = [d.key for d in decks]
    if keys and settings.deck not in keys:
        settings.deck = keys[0]
    if keys and settings.bot_deck not in keys:
        settings.bot_deck = keys[-1]

    def pick_deck(key: str) -> None:
        settings.deck = key

    def pick_bot(kind: str) -> None:
        settings.bot = kind

    by_key = {d.key: d for d in decks}

    def about_deck(key: str) -> str:
        deck = by_key.get(key)
        if deck is None or not deck.description(lang):
            return ""
        return tr(lang, "deck_about", deck=deck.name(lang), about=deck.description(lang))

    def about_bot(kind: str) -> str:
        return tr(lang, f"bot_{kind}_about")

    return [SetupField("deck", tuple((d.key, d.name(lang)) for d in decks), settings.deck, pick_deck, columns=2,
                       describe=about_deck),
            SetupField("opponent", (("greedy", tr(lang, "bot_greedy")), ("random", tr(lang, "bot_random"))),
                       settings.bot, pick_bot, describe=about_bot)]


def help_pages() -> list[HelpPage]:
    """Rider's help pages (the lobby's help for Rider; the table shows the same, client/rider/help.py)."""
    from client.rider.help import rider_help
    from client.rider.play import card_art

    return rider_help(card_art())


def net_deck(settings: Settings) -> tuple[str, ...]:
    """The card ids of the deck our seat brings to a networked table (the lobby's choice)."""
    from client.rider.net_play import net_deck as chosen

    return chosen(settings)


def start_net(app: App, table: NetTable, on_leave: Callable[[], None],
              on_rematch: Callable[[NetTable], None] | None = None) -> Scene:
    """Show the networked Rider table whose peer has just started its session; return the scene."""
    from client.rider.net_play import start_net_game

    return start_net_game(app, table, on_leave, on_rematch)

"""Rider's networked table in the client: the deck our seat brings, and the table scene.

The hosting, joining, LAN and rematch glue is every game's
(client/table/net_play.py); Rider adds only what it shows and brings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from client.app import App
from client.settings import Settings
from client.table.net_play import NetTable

if TYPE_CHECKING:
    from client.rider.table_scene import RiderTableScene


def net_deck(settings: Settings) -> tuple[str, ...]:
    """The card ids of the deck the player chose (the first shipped deck if that one is gone)."""
    from client.rider.decks import shipped_decks
    from client.rider.session import deck_cards

    decks = {d.key: d for d in shipped_decks()}
    if not decks:
        raise ValueError("no Rider decks are installed: reinstall the game's assets")
    deck = decks.get(settings.deck) or next(iter(decks.values()))
    return deck_cards(deck.data)


def start_net_game(app: App, table: NetTable, on_leave: Callable[[], None],
                   on_rematch: Callable[[NetTable], None] | None = None) -> RiderTableScene:
    """Show the networked table; the end screen follows the audit. With
    ``on_rematch``, the end screen's *Play again* meets the same players again
    (:meth:`NetTable.start_rematch`) and hands the new table to ``on_rematch``."""
    from client.rider.play import card_art, end_words
    from client.rider.table_scene import RiderTableScene
    from client.table.net_play import show_net_table

    def scene(session: Any, leave: Callable[[], None], ended: Callable[[Any], None]) -> RiderTableScene:
        return RiderTableScene(app, session, card_art(), on_leave=leave, on_end=ended)

    shown: RiderTableScene = show_net_table(app, table, scene, end_words, on_leave, on_rematch,
                                            deck=net_deck(table.settings), board=True)
    return shown



"""Rider's networked table in the client: the deck our seat brings, and the table scene.

The hosting, joining, LAN and rematch glue is every game's
(client/table/net_play.py); Rider adds only what it shows and brings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from client.app import App
from client.settings import Settings
from client.table.net_play import NetTable, rematch_off, rematch_starter
from engine.rider.state import RiderState

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
    from client.table.end_scene import show_end
    from client.table.net_session import NetSession
    from client.rider.table_scene import RiderTableScene

    session: NetSession[RiderState] = NetSession(table.peer, clock=app.clock)

    def leave() -> None:
        session.leave()
        table.abandon()  # leaving is abandoning (the table asks first): nothing to resume later
        on_leave()

    again = rematch_starter(table, session, net_deck(table.settings), on_rematch)

    def ended(scene: RiderTableScene) -> None:
        show_end(app, scene, session, on_lobby=leave, on_again=again, board=True, words=end_words(session),
                 again_off=rematch_off(table))

    scene = RiderTableScene(app, session, card_art(), on_leave=leave, on_end=ended)
    app.switch(scene)
    return scene



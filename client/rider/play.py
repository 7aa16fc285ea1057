"""Starting a Rider game in the client: local table against a bot."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from client.app import App
from client.cardart import CardArt
from client.decks import cardset, shipped_decks
from client.end_scene import EndScene
from client.i18n import tr
from client.rider.session import RiderSession, deck_cards, system_delay
from client.rider.table_scene import RiderTableScene
from client.settings import Settings
from engine.rider.game import RiderGame

_ART: dict[str, CardArt] = {}


def card_art() -> CardArt:
    """One renderer (and face cache) for the shipped card set."""
    cs = cardset()
    if cs.id not in _ART:
        _ART[cs.id] = CardArt(cs)
    return _ART[cs.id]


def new_session(app: App, settings: Settings, *, seed: int | None = None) -> RiderSession:
    decks = {d.key: d for d in shipped_decks()}
    if not decks:
        raise RuntimeError(tr(app.lang, "no_decks"))
    mine = decks.get(settings.deck) or next(iter(decks.values()))
    others = [d for d in decks.values() if d.key != mine.key]
    theirs = decks.get(settings.bot_deck) or (others[-1] if others else mine)
    game = RiderGame(cardset())
    bot_name = tr(app.lang, "bot_random" if settings.bot == "random" else "bot_greedy")
    return RiderSession(game, (deck_cards(mine.data), deck_cards(theirs.data)), me=0,
                        names=(settings.name.strip() or "Player", bot_name), bot=settings.bot, seed=seed,
                        clock=app.clock, deck_names=(mine.name(app.lang), theirs.name(app.lang)),
                        bot_delay=app.prefs.bot_delay, system_delay=system_delay(app.prefs.bot_delay))


def start_local_game(app: App, settings: Settings, on_leave: Callable[[], None], *, seed: int | None = None) -> RiderTableScene:
    """Build a session and show its table; the end screen follows the last move."""
    session = new_session(app, settings, seed=seed)

    def ended(scene: RiderTableScene) -> None:
        backdrop = pygame.Surface(app.screen.get_size())
        scene.draw(backdrop)
        def again() -> None:
            start_local_game(app, settings, on_leave)

        app.switch(EndScene(app, session, backdrop=backdrop, on_lobby=on_leave, on_again=again, board=scene))

    scene = RiderTableScene(app, session, card_art(), on_leave=on_leave, on_end=ended)
    app.switch(scene)
    return scene

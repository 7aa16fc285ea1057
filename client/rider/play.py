"""Starting a Rider game in the client: local table against a bot."""

from __future__ import annotations

from collections.abc import Callable


from client.app import App
from client.rider.cardart import CardArt
from client.rider.decks import cardset, shipped_decks
from client.table.end_scene import EndWords, show_end
from client.i18n import tr
from client.rider.describe import reason_text
from client.rider.session import RiderSession, deck_cards
from client.table.session import TableSession, system_delay
from client.rider.table_scene import RiderTableScene
from client.settings import Settings
from engine.core.game import Outcome
from engine.rider.game import RiderGame
from engine.rider.state import RiderState

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
                        clock=app.clock,
                        bot_delay=app.prefs.bot_delay, system_delay=system_delay(app.prefs.bot_delay))


def end_words(session: TableSession[RiderState]) -> EndWords:
    """Rider's words on the end screen: the end reason by its rule, and turns and moves."""
    def reason(outcome: Outcome, lang: str) -> str:
        return reason_text(outcome.reason, outcome.winner, session.names, session.me, lang)

    def progress(lang: str) -> str:
        return f"{tr(lang, 'turn', n=session.state.turn)} · {tr(lang, 'moves', n=session.moves)}"

    return EndWords(reason, progress)


def start_local_game(app: App, settings: Settings, on_leave: Callable[[], None], *, seed: int | None = None) -> RiderTableScene:
    """Build a session and show its table; the end screen follows the last move."""
    session = new_session(app, settings, seed=seed)

    def ended(scene: RiderTableScene) -> None:
        def again() -> None:
            start_local_game(app, settings, on_leave)

        show_end(app, scene, session, on_lobby=on_leave, on_again=again, board=True, words=end_words(session))

    scene = RiderTableScene(app, session, card_art(), on_leave=on_leave, on_end=ended)
    app.switch(scene)
    return scene

"""Tiny's client UI hook (named by its registry entry, net/games/tiny.py ``client_ui``).

The lobby imports this module by that name (the contract is
client/table/ui.py's): :func:`setup_fields` is Tiny's set-up picker (the
number of seats, 2 to 10), :func:`start_local` opens a local table (the
player holds seat 0, the game's random bot every other seat, on the table
layer's local adapter), :func:`net_deck` says Tiny brings no deck, and
:func:`start_net` shows a networked table once the peer's session runs.
Either way the scene is client/tiny/scene.py, a
:class:`~client.table.scene.TableScene`, and the end screen is the table
layer's: a new game needs only its words and its drawing to be playable
in the client, locally and over the network, before it gets real art.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pathlib import Path

from client.help import HelpPage
from client.i18n import register_words
from client.table.end_scene import EndWords
from client.table.ui import SetupField, seat_field, table_seats
from engine.core.game import Outcome

if TYPE_CHECKING:
    from client.app import App
    from client.scene import Scene
    from client.settings import Settings
    from client.table.net_play import NetTable
    from net.games import GameEntry

register_words("tiny", Path(__file__).resolve().parent / "locale")  # Tiny's words (client/tiny/locale)


def setup_fields(settings: Settings, lang: str) -> list[SetupField]:
    """Tiny's set-up picker: how many seats (the local table's, and the one we host)."""
    from net.games import game_named

    return [seat_field(game_named("tiny"), settings)]


def help_pages() -> list[HelpPage]:
    """Tiny's help pages (the lobby's help for Tiny; the table shows the same)."""
    from client.tiny.scene import HELP

    return list(HELP)


def local_session(app: Any, entry: Any, seats: int, *, name: str = "Player", seed: int | None = None) -> Any:
    """A local Tiny table of ``seats`` on the table layer's adapter: we hold seat 0, the
    game's first bot every other seat, paced by the player's bot speed (settings)."""
    import random
    import secrets

    from client.i18n import tr
    from client.table.local import LocalSession
    from client.table.session import system_delay

    seed = secrets.randbits(63) if seed is None else seed
    setup = entry.local(entry.local_record(seats, None, None), None)
    kind = entry.default_bots[0]
    bots: list[Any] = [None] + [entry.bot(kind, random.Random(seed * 31 + s)) for s in range(1, seats)]
    names = [name.strip() or "Player"] + [tr(app.lang, f"bot_{kind}")] * (seats - 1)
    delay = app.prefs.bot_delay
    return LocalSession(setup.game, setup.state, setup.knowledge, setup=setup.record, me=0, names=names, bots=bots,
                        seed=seed, clock=app.clock, bot_delay=delay, system_delay=system_delay(delay))


def end_words(session: Any) -> EndWords:
    """Tiny's words on the end screen: the winner's total by its parts and every other seat's
    total (the engine's own reason, "seat 2 scored highest", is English and names a seat), or the
    table's own ending (a resignation, a forfeit)."""
    from client.i18n import tr
    from client.table.end_scene import table_reason
    from client.table.words import player_label
    from engine.tiny.game import score_parts
    from net.seats import for_people

    def reason(outcome: Outcome, lang: str) -> str:
        names, me, state = session.names, session.me, session.state
        ended = table_reason(outcome.reason, names, me, lang)
        if ended is not None:
            return ended
        if outcome.winner is None or not all(state.played):
            return for_people(outcome.reason)
        parts = score_parts(state)
        card, dice, bonus = parts[outcome.winner]
        others = sorted((s for s in range(state.seats) if s != outcome.winner), key=lambda s: -sum(parts[s]))
        listing = tr(lang, "list_sep").join(f"{player_label(s, names, me, lang)} {sum(parts[s])}" for s in others)
        return tr(lang, "tiny_end_reason", who=player_label(outcome.winner, names, me, lang), total=card + dice + bonus,
                  card=card, dice=dice, bonus=bonus, others=listing)

    return EndWords(reason, lambda lang: tr(lang, "moves", n=session.moves))


def start_local(app: App, settings: Settings, entry: GameEntry[Any], on_leave: Callable[[], None], *,
                seed: int | None = None) -> Scene:
    """Switch ``app`` to a local Tiny table of the lobby's seat count; return the scene.
    The table layer's end screen follows the end (Play again: a new table of as many seats)."""
    from client.table.end_scene import show_end
    from client.tiny.scene import TinyScene

    session = local_session(app, entry, table_seats(entry, settings), name=settings.name, seed=seed)

    def ended(scene: TinyScene) -> None:
        def again() -> None:
            start_local(app, settings, entry, on_leave)

        show_end(app, scene, session, on_lobby=on_leave, on_again=again, words=end_words(session))

    scene = TinyScene(app, session, on_leave=on_leave, on_end=ended)
    app.switch(scene)
    return scene


def net_deck(settings: Settings) -> None:
    """Tiny's cards are the table's (a public deck shuffled jointly): a seat brings none."""
    return None


def start_net(app: App, table: NetTable, on_leave: Callable[[], None],
              on_rematch: Callable[[NetTable], None] | None = None) -> Scene:
    """Show our seat of a networked Tiny table; the table layer's end screen follows the audit."""
    from client.table.net_play import show_net_table
    from client.tiny.scene import TinyScene

    def scene(session: Any, leave: Callable[[], None], ended: Callable[[Any], None]) -> Scene:
        return TinyScene(app, session, on_leave=leave, on_end=ended)

    shown: Scene = show_net_table(app, table, scene, end_words, on_leave, on_rematch)
    return shown

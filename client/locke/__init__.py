"""Super Human Locke's client UI hook (named by its registry entry, net/games/locke ``client_ui``).

The lobby imports this module by that name (the contract is
client/table/ui.py's): :func:`setup_fields` is Locke's set-up picker (the
number of seats, 5 to 10, and the bot every other seat plays),
:func:`help_pages` the player's guide, and :func:`start_local` opens a
local table (we hold seat 0) on the table layer's local adapter
(client/locke/session.py), the scene being client/locke/scene.py and the
end screen the table layer's, with every seat's grade. :func:`start_net`
shows our seat of a networked table with the same scene over the table
layer's networked adapter (client/table/net_session.py); the lobby offers
hosting and joining once the registry entry has a networked table
(client/table/ui.py ``net_ui``). Locke's words are its own gettext domain
(client/locke/locale), registered when this package is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from client.i18n import register_words

if TYPE_CHECKING:
    from client.app import App
    from client.help import HelpPage
    from client.scene import Scene
    from client.settings import Settings
    from client.table.end_scene import EndWords
    from client.table.net_play import NetTable
    from client.table.session import TableSession
    from client.table.ui import SetupField
    from engine.core.game import Outcome
    from net.games import GameEntry

register_words("locke", Path(__file__).resolve().parent / "locale")  # Locke's words (client/locke/locale)


def setup_fields(settings: Settings, lang: str) -> list[SetupField]:
    """Locke's set-up picker: how many seats, and which bot plays the others."""
    from client.i18n import pick as in_lang
    from client.i18n import tr
    from client.table.ui import SetupField, seat_field
    from net.games import game_named

    entry = game_named("locke")
    chosen = chosen_bot(settings, entry)

    def pick(value: str) -> None:
        settings.game_bots = {**settings.game_bots, "locke": value}

    def about(kind: str) -> str:  # the registry's one-line description of each bot level
        words = entry.bot_descriptions.get(kind)
        return f"{tr(lang, f'bot_{kind}')}: {in_lang(lang, *words)}" if words else ""

    bots = SetupField("lk_setup_bots", tuple((k, tr(lang, f"bot_{k}")) for k in entry.bots), chosen, pick,
                      describe=about)
    return [seat_field(entry, settings), bots]


def chosen_bot(settings: Settings, entry: GameEntry[Any]) -> str:
    """The bot the player chose for Locke's other seats (settings, from a hand-editable file), else the
    entry's default."""
    chosen = settings.game_bots.get("locke")
    return chosen if isinstance(chosen, str) and chosen in entry.bots else entry.default_bots[0]


def help_pages() -> list[HelpPage]:
    """Locke's help pages (the lobby's help for Locke; the table shows the same)."""
    from client.locke.help import HELP

    return list(HELP)


#: How a game of Locke ends (engine/locke/victory.py ENDINGS): its outcome's reason reads
#: "locke.end.<ending>: ..." and each ending has its words (lk_end_<ending>).
END_PREFIX = "locke.end."


def end_reason(outcome: Outcome, lang: str) -> str:
    """The end reason in the player's language; the rule id stays out of it (for_people)."""
    from client.i18n import known, tr
    from net.seats import for_people

    ending = outcome.reason.removeprefix(END_PREFIX).split(":", 1)[0]
    key = f"lk_end_{ending}"
    return tr(lang, key) if outcome.reason.startswith(END_PREFIX) and known(key) else for_people(outcome.reason)


def end_words(session: TableSession[Any]) -> EndWords:
    """Locke's words on the end screen: how the game ended, and after how many turns."""
    from client.i18n import tr
    from client.table.end_scene import EndWords

    def progress(lang: str) -> str:
        return tr(lang, "lk_end_progress", turns=getattr(session.state, "turn", 0), moves=session.moves)

    return EndWords(end_reason, progress)


def start_local(app: App, settings: Settings, entry: GameEntry[Any], on_leave: Callable[[], None], *,
                seed: int | None = None) -> Scene:
    """Switch ``app`` to a local Locke table of the lobby's seat count; return the scene.
    The table layer's end screen follows the end (Play again: a new table of as many seats)."""
    from client.locke.scene import LockeScene
    from client.locke.session import local_session
    from client.table.end_scene import show_end
    from client.table.ui import table_seats

    session = local_session(app, entry, table_seats(entry, settings), name=settings.name, bot=chosen_bot(settings, entry),
                            seed=seed)

    def ended(scene: LockeScene) -> None:
        def again() -> None:
            start_local(app, settings, entry, on_leave)

        show_end(app, scene, session, on_lobby=on_leave, on_again=again, words=end_words(session))

    scene = LockeScene(app, session, on_leave=on_leave, on_end=ended)
    app.switch(scene)
    return scene


def net_deck(settings: Settings) -> None:
    """Locke's cards are the table's (the planet cards, combat deck and characters, shuffled
    jointly): a seat brings none."""
    return None


def start_net(app: App, table: NetTable, on_leave: Callable[[], None],
              on_rematch: Callable[[NetTable], None] | None = None) -> Scene:
    """Show our seat of a networked Locke table; the table layer's end screen follows the audit
    (every seat's grade, how the game ended in the player's words)."""
    from client.locke.scene import LockeScene
    from client.table.net_play import show_net_table

    def scene(session: Any, leave: Callable[[], None], ended: Callable[[Any], None]) -> Scene:
        return LockeScene(app, session, on_leave=leave, on_end=ended)

    shown: Scene = show_net_table(app, table, scene, end_words, on_leave, on_rematch)
    return shown

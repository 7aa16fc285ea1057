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
    """Locke's set-up picker: how many seats, the bot every other seat plays, and each seat's
    own bot (a click on a seat switches it to the next level)."""
    from client.i18n import pick as in_lang
    from client.i18n import tr
    from client.table.ui import SetupField, seat_field, table_seats
    from net.games import game_named

    entry = game_named("locke")
    levels = seat_bots(settings, entry, table_seats(entry, settings))
    same = levels[0] if len(set(levels)) == 1 else ""  # the row for all seats lights only when all agree

    def pick_all(value: str) -> None:
        settings.game_bots = {k: v for k, v in settings.game_bots.items() if k != SEAT_BOTS} | {"locke": value}

    def about(kind: str) -> str:  # the registry's one-line description of each bot level
        words = entry.bot_descriptions.get(kind)
        return tr(lang, "lk_bot_about", bot=tr(lang, f"bot_{kind}"), about=in_lang(lang, *words)) if words else ""

    def switch(value: str) -> None:  # "<seat index>": that seat's bot becomes the next level
        seat = int(value)
        kinds = list(entry.bots)
        changed = list(levels)
        changed[seat - 1] = kinds[(kinds.index(changed[seat - 1]) + 1) % len(kinds)]
        settings.game_bots = {**settings.game_bots, SEAT_BOTS: ",".join(changed)}

    def about_seats(_: str) -> str:
        return tr(lang, "lk_setup_seat_bots_about", levels=tr(lang, "list_sep").join(
            f"{tr(lang, f'lk_bot_short_{k}')} = {tr(lang, f'bot_{k}')}" for k in entry.bots))

    bots = SetupField("lk_setup_bots", tuple((k, tr(lang, f"bot_{k}")) for k in entry.bots), same, pick_all,
                      describe=about)
    each = SetupField("lk_setup_seat_bots", tuple((str(seat), f"{seat + 1} {tr(lang, f'lk_bot_short_{kind}')}")
                                                 for seat, kind in enumerate(levels, start=1)),
                      "", switch, describe=about_seats)
    return [seat_field(entry, settings), bots, each]


#: The settings key (``game_bots``) of the bot of each other seat, comma-separated in seat order.
SEAT_BOTS = "locke:seats"


def chosen_bot(settings: Settings, entry: GameEntry[Any]) -> str:
    """The bot the player chose for all of Locke's other seats (settings, from a hand-editable
    file), else the entry's default."""
    chosen = settings.game_bots.get("locke")
    return chosen if isinstance(chosen, str) and chosen in entry.bots else entry.default_bots[0]


def seat_bots(settings: Settings, entry: GameEntry[Any], seats: int) -> list[str]:
    """The bot of each other seat (seats 2 to ``seats``, as people count them): the per-seat
    choice where the settings hold one for that seat, else the bot chosen for all."""
    default = chosen_bot(settings, entry)
    stored = str(settings.game_bots.get(SEAT_BOTS, "")).split(",")
    return [stored[i] if i < len(stored) and stored[i] in entry.bots else default for i in range(seats - 1)]


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
    """Locke's words on the end screen: how the game ended (by its rules, or by the table:
    client/table/end_scene.py ``table_reason``), and after how many turns."""
    from client.i18n import tr
    from client.table.end_scene import EndWords

    from client.table.end_scene import table_reason

    def progress(lang: str) -> str:
        return tr(lang, "lk_end_progress", turns=getattr(session.state, "turn", 0), moves=session.moves)

    def reason(outcome: Outcome, lang: str) -> str:
        # the table's own endings (a forfeit, resignations, seats leaving, an abandonment) first
        return table_reason(outcome.reason, session.names, session.me, lang) or end_reason(outcome, lang)

    return EndWords(reason, progress)


def start_local(app: App, settings: Settings, entry: GameEntry[Any], on_leave: Callable[[], None], *,
                seed: int | None = None) -> Scene:
    """Switch ``app`` to a local Locke table of the lobby's seat count; return the scene.
    The table layer's end screen follows the end (Play again: a new table of as many seats)."""
    from client.locke.scene import LockeScene
    from client.locke.session import local_session
    from client.table.end_scene import show_end
    from client.table.ui import table_seats

    seats = table_seats(entry, settings)
    session = local_session(app, entry, seats, name=settings.name, bots=seat_bots(settings, entry, seats), seed=seed)

    def ended(scene: LockeScene) -> None:
        def again() -> None:
            start_local(app, settings, entry, on_leave)

        show_end(app, scene, session, on_lobby=on_leave, on_again=again, words=end_words(session))

    scene = LockeScene(app, session, on_leave=on_leave, on_end=ended)
    app.switch(scene)
    return scene


def scene_for(app: App, session: Any, on_leave: Callable[[], None] | None,
                on_end: Callable[[Any], None] | None) -> Scene:
    """Locke's table scene over any table session (local, networked, a replay)."""
    from client.locke.scene import LockeScene

    return LockeScene(app, session, on_leave=on_leave, on_end=on_end)


def net_deck(settings: Settings) -> None:
    """Locke's cards are the table's (the planet cards, combat deck and characters, shuffled
    jointly): a seat brings none."""
    return None


def start_net(app: App, table: NetTable, on_leave: Callable[[], None],
              on_rematch: Callable[[NetTable], None] | None = None) -> Scene:
    """Show our seat of a networked Locke table; the table layer's end screen follows the audit
    (every seat's grade, how the game ended in the player's words)."""
    from client.table.net_play import show_net_table

    def scene(session: Any, leave: Callable[[], None], ended: Callable[[Any], None]) -> Scene:
        return scene_for(app, session, leave, ended)

    shown: Scene = show_net_table(app, table, scene, end_words, on_leave, on_rematch)
    return shown

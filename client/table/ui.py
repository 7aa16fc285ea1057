"""A game's client UI, found through the game registry (one place per game).

A registry entry (net/games/) names its client module (``client_ui``, a
module name: net never imports the client). That module *is* the game's UI:
its functions are the whole contract, so a game registers its UI by
writing them once, in its package's ``__init__``:

- ``start_local(app, settings, entry, on_leave, *, seed=None)``: open a
  local table against bots (every game with a client UI has one);
- ``setup_fields(settings, lang)``: the game's own set-up picker in the
  lobby, as :class:`SetupField` rows (Rider: the deck and the bot; Tiny:
  the number of seats); the lobby lays them out and hosts and plays with
  what they stored in the settings;
- ``help_pages()``: the game's pages of the help overlay (client/help.py),
  shown by the lobby for the chosen game (and by its table scene);
- ``scene_for(app, session, on_leave, on_end)``: the game's table scene
  over any :class:`~client.table.session.TableSession` (the replay viewer,
  client/table/replay.py, shows a saved game on it);
- ``net_deck(settings)`` and ``start_net(app, table, on_leave, on_rematch)``:
  only a game whose scene can draw a networked table: the card ids our seat
  brings (None for a game without decks), and show the table once the
  peer's session runs (``table`` is a client/table/net_play.py ``NetTable``).

The lobby and the wiring (client/main.py) never import a game's package
by name: they ask :func:`game_ui` / :func:`net_ui` / :func:`game_help`. A
registered game without a client UI still gets a help page: it says the
game has no table here yet, where its rules are (the entry's
``rules_doc``) and how to play it now.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TYPE_CHECKING, runtime_checkable

from client.help import HelpPage
from net.games import GameEntry, game_named

if TYPE_CHECKING:
    from client.app import App
    from client.scene import Scene
    from client.settings import Settings
    from client.table.net_play import NetTable
    from client.table.session import TableSession


@dataclasses.dataclass(frozen=True)
class SetupField:
    """One row of a game's set-up picker in the lobby: a label (catalogue key), the options as
    (value, text shown), the value chosen now, ``pick`` storing a choice in the settings,
    ``columns`` per line of buttons (0: every option on one line), and ``describe`` (value ->
    a sentence about that option in the lobby's language, shown under the picker) or None."""

    label: str
    options: tuple[tuple[str, str], ...]
    value: str
    pick: Callable[[str], None]
    columns: int = 0
    describe: Callable[[str], str] | None = None


@runtime_checkable
class GameUI(Protocol):
    """What every game's client module offers: a local table and its set-up picker."""

    def start_local(self, app: App, settings: Settings, entry: GameEntry[Any], on_leave: Callable[[], None], *,
                    seed: int | None = None) -> Scene: ...

    def setup_fields(self, settings: Settings, lang: str) -> list[SetupField]: ...

    def help_pages(self) -> Sequence[HelpPage]: ...

    def scene_for(self, app: App, session: TableSession[Any], on_leave: Callable[[], None] | None,
                    on_end: Callable[[Any], None] | None) -> Scene: ...


@runtime_checkable
class NetGameUI(GameUI, Protocol):
    """A game's client module that also draws networked tables."""

    def net_deck(self, settings: Settings) -> Sequence[str] | None: ...

    def start_net(self, app: App, table: NetTable, on_leave: Callable[[], None],
                  on_rematch: Callable[[NetTable], None] | None = None) -> Scene: ...


def game_ui(game: str) -> GameUI:
    """The client UI of registered game ``game``; ValueError when it has none (or a broken one)."""
    entry = game_named(game)
    if entry.client_ui is None:
        raise ValueError(f"{entry.title} has no table in this client")
    module = importlib.import_module(entry.client_ui)
    if not isinstance(module, GameUI):
        raise ValueError(f"{entry.client_ui} (the client UI of {entry.title}) lacks part of the contract: "
                         "start_local, setup_fields, help_pages and scene_for (client/table/ui.py)")
    return module


def game_help(game: str) -> list[HelpPage]:
    """The help overlay's pages for registered game ``game``: its client UI's own, or, for a
    game without one, a page saying so, where its rules are and how to play it now."""
    entry = game_named(game)
    if entry.client_ui is not None:
        return list(game_ui(game).help_pages())
    fields = (("game", entry.title), ("rules", entry.rules_doc or "docs/rules/"),  # help pages: English titles
              ("command", f"python -m tools.match {entry.name}"))
    return [HelpPage("help_no_table_tab", paragraphs=("help_no_table", "help_no_table_rules"), fields=fields)]


def net_ui(game: str) -> NetGameUI | None:
    """The client UI of ``game`` if it draws networked tables and the game plays networked, else None."""
    entry = game_named(game)
    if entry.client_ui is None or not entry.networked:
        return None
    module = game_ui(game)
    return module if isinstance(module, NetGameUI) else None


def table_seats(entry: GameEntry[Any], settings: Settings) -> int:
    """How many seats a table of ``entry`` gets: the lobby's choice (``settings.seats``) when the
    game is played by that many, else the game's default."""
    chosen = settings.seats
    return chosen if entry.min_seats <= chosen <= entry.max_seats else entry.default_seats


def seat_field(entry: GameEntry[Any], settings: Settings) -> SetupField:
    """The set-up row choosing the number of seats of a game played by a range of them."""
    def pick(value: str) -> None:
        settings.seats = int(value)

    return SetupField("setup_seats", tuple((str(n), str(n)) for n in range(entry.min_seats, entry.max_seats + 1)),
                      str(table_seats(entry, settings)), pick)

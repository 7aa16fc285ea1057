"""The game registry: a game plugs into Fairtable with one :class:`GameEntry`.

An entry tells the rest of the system everything it needs from a game: its
rules id and version, the hash of its components (the card set a genesis
record names), its seat range, what each seat brings to a lobby, how to set
up a trusted local table and rebuild one from a saved record, how to build a
networked table (engine game, first state, :class:`~net.session.plan.TablePlan`
of hidden-card operations and audits) from a genesis record, its bots, and
the client module that draws it. ``tools.match``, ``tools.peer``,
``tools.verify``, ``tools.bench``, the peers and the client find games only
here (:func:`game_named`, :func:`game_for_rules`, :func:`table_for`,
:func:`games`); nothing outside a game's own modules names the game.

The shipped games register themselves in their own modules (net/games/rider/__init__.py,
net/games/locke/__init__.py, net/games/tiny.py), imported on the first look-up, so
importing this package stays cheap. Extra games for tests and experiments
come in through :func:`load_rules_module` (``tools.peer --rules-module``);
docs/architecture.md "Adding a game" walks through an entry.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from engine.core.capabilities import check_game_class
from engine.core.game import Game
from engine.core.hidden import Knowledge
from net.bots.base import Agent

if TYPE_CHECKING:
    from net.envelope import Genesis
    from net.session.plan import TablePlan

#: The modules of the shipped games, imported by the first look-up. With DEFAULT_GAME, the one
#: place outside the games' own packages that names a game (tests/test_generic_places.py).
BUILTIN = ("net.games.rider", "net.games.locke", "net.games.tiny")
#: The game the client's lobby and the tools pick when none is named.
DEFAULT_GAME = "rider"

BotFactory = Callable[[random.Random], Agent]


#: The game's state type: an entry, its tables and set-ups are generic over it.
S = TypeVar("S")


@dataclasses.dataclass(frozen=True)
class Table(Generic[S]):
    """A networked table's start, built from a genesis record: the game, its first state, its plan."""

    game: Game[S]
    state: S
    plan: TablePlan


@dataclasses.dataclass(frozen=True)
class LocalSetup(Generic[S]):
    """A trusted local table's start, and the record that rebuilds it (saved in match logs)."""

    game: Game[S]
    state: S
    knowledge: tuple[Knowledge, ...]
    record: dict[str, Any]


def _no_seat_info(deck: Sequence[str] | None) -> dict[str, Any]:
    return {}


def _no_options(infos: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {}


def _takes_no_info(info: Mapping[str, Any]) -> list[str]:
    return [] if dict(info) == {} else ["this game takes no seat information in the lobby"]


@dataclasses.dataclass(frozen=True)
class GameEntry(Generic[S]):
    """Everything Fairtable needs from one game (see the module docstring).

    - ``name``: the short name tools and the lobby use (``rider``); ``title``
      the one shown to players, ``title_ja`` its Japanese (``title_in(lang)``).
    - ``card_set_hash()``: the components hash every genesis record of this
      game names (``Genesis.card_set_hash``).
    - ``local_record(seats, decks, components)``: the record of a fresh local
      game (``decks``: one card list per seat for a game with decks, None for
      the shipped ones; ``components``: a card set replacing the shipped one,
      else None); ``local(record, components)`` builds the table from it.
    - ``table(genesis)``: the networked start; None when the game plays only
      on a local table for now.
    - Lobby: ``needs_deck``; ``seat_info(deck)`` is what a seat announces
      (Rider: its deck size, never the cards); ``options(infos)`` makes the
      genesis options from every seat's announcement; ``check_info(info)``
      lists what is wrong with one.
    - ``bots``: name -> factory taking the bot's RNG; ``default_bots`` one
      name per seat, or one name for every seat; ``bot_descriptions``: name ->
      (English, Japanese) one-line description a lobby and tools show (may be empty).
    - ``judge(game, final_state)``: an independent check of a finished game's
      outcome, the lines where it disagrees with the engine (empty: agreed);
      ``tools.verify`` runs it on local records. None for a game without one.
    - ``end_sides(game, final_state)``: each seat's side at the end of a game
      with hidden sides (Locke: good, evil, special), for tools.match's win
      counts by side; None for a game without sides.
    - ``game_class``: the engine's game class (engine/core/game.py's reducer
      contract); :func:`register` checks it and which optional parts it offers
      (engine/core/capabilities.py) once, so no driver ever probes a game.
    - ``shipped_deck(seat)``: the cards of the shipped deck a seat plays by
      default (games with decks), else None.
    - ``client_ui``: the client module that draws this game (imported by the
      client only; net never imports it), or None.
    - ``rules_doc``: where the game's full rules are written, a path in the
      repository, for a game without ``client_ui`` (the client's help names
      it; a game with a client UI says it in its own help pages), or None.
    - ``deck_tool``: for a game with decks, the tool module that reads its
      deck and component files (``deck_cards(file, components_file, check=)``,
      ``load_cardset(file)``, ``main(argv)``; Rider's is
      net/games/rider/deck_tool.py), named so that ``tools.deck``,
      ``tools.match`` and ``tools.peer`` read ``--deck``/``--cardset``
      through the entry; None for a game without decks.
    - ``scenario``: the module of the game's scenario-file format (its
      ``KIND``, a net/scenario.py ``ScenarioKind``) that ``tools.scenario``
      runs; None for a game without scenario files.
    - ``story``: the module that tells a game for people, line by line
      (``lines(game, first_state, inputs, names, lang)``, the same words as
      the client's log; Locke's is client/locke/story.py), which
      ``tools.match --log`` prints; None for a game without one.
    """

    name: str
    title: str
    rules_id: str
    rules_version: str
    card_set_hash: Callable[[], bytes]
    min_seats: int
    max_seats: int
    default_seats: int
    local_record: Callable[[int, Sequence[Sequence[str]] | None, Any], dict[str, Any]]
    local: Callable[[Mapping[str, Any], Any], LocalSetup[S]]
    bots: Mapping[str, BotFactory]
    default_bots: tuple[str, ...]
    game_class: type[Game[S]]
    table: Callable[[Genesis], Table[S]] | None = None
    needs_deck: bool = False
    seat_info: Callable[[Sequence[str] | None], dict[str, Any]] = _no_seat_info
    options: Callable[[Sequence[Mapping[str, Any]]], dict[str, Any]] = _no_options
    check_info: Callable[[Mapping[str, Any]], list[str]] = _takes_no_info
    shipped_deck: Callable[[int], tuple[str, ...]] | None = None
    client_ui: str | None = None
    deck_tool: str | None = None
    scenario: str | None = None
    story: str | None = None
    rules_doc: str | None = None
    title_ja: str = ""
    bot_descriptions: Mapping[str, tuple[str, str]] = dataclasses.field(default_factory=dict)
    judge: Callable[[Any, Any], list[str]] | None = None
    end_sides: Callable[[Any, Any], list[str]] | None = None

    def title_in(self, lang: str) -> str:
        """The game's name for players in ``lang`` (English where it has no Japanese)."""
        return self.title_ja if lang == "ja" and self.title_ja else self.title

    @property
    def networked(self) -> bool:
        """Whether peers can play this game over the network (it has a table plan)."""
        return self.table is not None

    def bot(self, kind: str, rng: random.Random) -> Agent:
        """A new bot of this game's ``kind`` playing with ``rng``; ValueError naming the known kinds."""
        factory = self.bots.get(kind)
        if factory is None:
            raise ValueError(f"{self.name} has no bot {kind!r}; its bots: {', '.join(sorted(self.bots))}")
        return factory(rng)

    def genesis(self, seat_keys: Sequence[bytes], nonces: Sequence[bytes],
                decks: Sequence[Sequence[str] | None] | None = None, **extra: Any) -> Genesis:
        """A genesis record of this game for these seats (what a host's lobby makes from the same parts).

        ``decks``: each seat's deck (games with decks; their sizes go into
        the options, never the cards); ``extra``: further options (names, timeouts).
        """
        from net.envelope import Genesis

        per_seat = decks if decks is not None else [None] * len(seat_keys)
        options = {**self.options([self.seat_info(d) for d in per_seat]), **extra}
        return Genesis(self.rules_id, self.rules_version, self.card_set_hash(), tuple(seat_keys), options,
                       tuple(nonces))

    def check_seats(self, seats: int) -> None:
        """ValueError unless this game is played by ``seats`` players."""
        if not self.min_seats <= seats <= self.max_seats:
            span = (f"{self.min_seats}" if self.min_seats == self.max_seats
                    else f"{self.min_seats} to {self.max_seats}")
            raise ValueError(f"{self.title} is played by {span} seats, not {seats}")


_GAMES: dict[str, GameEntry[Any]] = {}
_loaded = False


def register(entry: GameEntry[Any]) -> None:
    """Add a game. A name or rules id that another entry already has is refused (ValueError),
    and so is a game class that misses part of the reducer contract or offers only part of
    an optional capability (TypeError, engine/core/capabilities.py)."""
    check_game_class(entry.game_class)
    for other in _GAMES.values():
        if other is entry:
            return
        if other.name == entry.name or other.rules_id == entry.rules_id:
            raise ValueError(f"game {entry.name!r} ({entry.rules_id}) clashes with the registered "
                             f"{other.name!r} ({other.rules_id}); pick another name and rules id")
    _GAMES[entry.name] = entry


def _load_builtin() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN:
            importlib.import_module(module)


def games() -> list[GameEntry[Any]]:
    """Every registered game, by name."""
    _load_builtin()
    return [_GAMES[name] for name in sorted(_GAMES)]


def game_named(name: str) -> GameEntry[Any]:
    """The game called ``name``; ValueError naming the known ones."""
    _load_builtin()
    entry = _GAMES.get(name)
    if entry is None:
        raise ValueError(f"unknown game {name!r}; this Fairtable knows: {', '.join(sorted(_GAMES))}")
    return entry


def game_for_rules(rules_id: str) -> GameEntry[Any] | None:
    """The game whose rules id is ``rules_id``, or None."""
    _load_builtin()
    return next((e for e in _GAMES.values() if e.rules_id == rules_id), None)


def table_for(genesis: Genesis) -> Table[Any]:
    """The networked start of a genesis record's game; ValueError with a clear message when it does not fit."""
    entry = game_for_rules(genesis.rules_id)
    if entry is None:
        known = ", ".join(sorted(e.rules_id for e in _GAMES.values() if e.networked))
        raise ValueError(f"unknown rules {genesis.rules_id!r}; known: {known}")
    if entry.table is None:
        raise ValueError(f"{entry.title} plays only on a local table for now; no networked table can be built")
    return entry.table(genesis)


def load_rules_module(where: str) -> None:
    """Import a module that registers extra games (a dotted name or a .py file).

    Meant for tests and experiments: the module calls :func:`register`.
    """
    if where.endswith(".py"):
        path = Path(where).resolve()
        if not path.is_file():
            raise ValueError(f"rules module {where} does not exist; pass a .py file or a module name")
        name = f"_fairtable_rules_{path.stem}"
        if name in sys.modules:
            return
        loader = importlib.util.spec_from_file_location(name, path)
        if loader is None or loader.loader is None:
            raise ValueError(f"cannot load {where} as a Python module")
        module = importlib.util.module_from_spec(loader)
        sys.modules[name] = module
        sys.path.insert(0, str(path.parent))  # let it import its neighbours
        loader.loader.exec_module(module)
        return
    try:
        importlib.import_module(where)
    except ImportError as exc:
        raise ValueError(f"cannot import rules module {where!r} ({exc})") from None

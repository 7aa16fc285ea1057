"""The lobby: play against a bot at once, or with friends over the network.

The game row lists every game of the registry (net/games/); the chosen
game's own set-up picker (its client UI's ``setup_fields``, client/table/ui.py:
Rider's deck and bot, Tiny's number of seats) fills the left panel.
"Play against a bot" is the default: a local table on this computer. "Play
with friends" is real networked play through :mod:`client.table.net_play`,
for every game whose client UI draws networked tables (Rider and Tiny; a
local-only game such as Locke is shown as such, with hosting and joining
off): *Host a table* opens one of the chosen game with the chosen set-up
(its invite code is shown, copied to the clipboard where there is one, and
the table is advertised on the LAN); *Join* dials the host of a pasted
code; the list shows tables advertised on this network (zeroconf) with
their game, each joinable with a click. The game starts when the host's
peer has seated everyone.

Each networked game keeps a peer directory (journal) in the user data
directory; a game the client never saw end (it crashed or was closed) is
offered on the next start: *Resume the game with <name>* restarts
it through the driver's own resume path, *Abandon* forgets it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from client import theme
from client.app import App
from client.help import is_help_key
from client.i18n import other_lang, tr
from client.scene import Scene
from client.settings import Settings
from client.text import draw_text, draw_wrapped, fits, line_height, render, wrap
from client.widgets import BUTTON_MIN_SIZE, Button, Choice, TextField, panel
from engine.core.errors import EngineError
from net.seats import for_people


def load_identity() -> tuple[str | None, str]:
    """(fingerprint, error) of this player's identity key, created on first use."""
    try:
        from net.errors import IdentityError
        from net.identity import Identity
    except ImportError as exc:
        return None, str(exc)
    try:
        return Identity.load_or_create().fingerprint, ""
    except (IdentityError, OSError, ValueError) as exc:  # a corrupt or unreadable key file: say so
        return None, str(exc)


class LobbyScene(Scene):
    name = "lobby"

    def __init__(self, app: App, settings: Settings | None = None,
                 start_game: Callable[[Settings], None] | None = None, *,
                 start_net: Callable[[Any], None] | None = None, lan: bool | None = None,
                 host_interface: str = "0.0.0.0", lan_loopback: bool = False, identity: Any = None,
                 resumable: bool = True) -> None:
        super().__init__(app)
        self.settings = settings or Settings()
        app.prefs = self.settings  # the lobby's settings are the player's preferences (the settings panel edits them)
        app.sound.enabled = self.settings.sound
        from net.games import games

        self.games = games()  # every registered game; the picker lists them all
        if self.settings.game not in [g.name for g in self.games]:
            self.settings.game = next((g.name for g in self.games if g.client_ui is not None), self.games[0].name)
        #: Whether the disabled Play button's place shows why it cannot work (no room above it).
        self.play_covered = False
        #: The chosen game's set-up picker: (label, choice) per row of its client UI's setup_fields.
        self.setup_choices: list[tuple[str, Choice]] = []
        self.start_game = start_game
        self.start_net = start_net
        self.host_interface = host_interface
        # LAN discovery needs the real reactor (zeroconf hands results over with callFromThread)
        self.lan_enabled = hasattr(app.clock, "callFromThread") if lan is None else lan
        self.lan: Any = None
        self.lan_loopback = lan_loopback  # tests: advertise and browse on 127.0.0.1 only
        self.identity = identity  # None: the player's own key (net.identity default path)
        self.net: Any = None  # client.table.net_play.NetTable while hosting or joining
        #: The saved games listed to replay (the Replays button), or None while the list is closed.
        self.replay_files: list[Path] | None = None
        self.copy_state = ""  # "", "copied" or "select"
        # the key this lobby's tables use: a given identity's (tests, a second window's), else the player's own
        self.fingerprint: str | None
        self.identity_error: str
        self.fingerprint, self.identity_error = (identity.fingerprint, "") if identity is not None else load_identity()
        # networked games keep a journal and are offered for resuming (demos and screenshots do not)
        self.resumable = resumable
        self.unfinished: list[Any] = []
        if resumable:
            from client.table.net_play import unfinished_games

            self.unfinished = unfinished_games()
        self.message = ""
        self.message_colour = theme.TEXT_DIM
        if self.fingerprint is None:  # hosting and joining are off: say why and what to do
            self.message = tr(app.lang, "friends_no_identity", error=for_people(self.identity_error or "?"))
            self.message_colour = theme.WARN
        self.code_text = ""  # the invite code being typed
        self.widgets: list[object] = []
        self.size = app.screen.get_size()
        #: Modal overlays: the help (F1 / ?) and the settings panel.
        self.help: Any = None
        self.settings_panel: Any = None

    # -- layout ---------------------------------------------------------------
    def enter(self) -> None:
        if self.lan_enabled and self.lan is None:
            from client.table.net_play import LanBrowser

            self.lan = LanBrowser(self.app.clock, self._net_changed, loopback_only=self.lan_loopback)
            self.lan.start()

    def leave(self) -> None:
        if self.lan is not None:
            self.lan.close()
            self.lan = None
        if self.net is not None and not self.net.started:
            self.net.cancel()  # leaving the lobby without a game: close the half-open table

    def resized(self, size: tuple[int, int]) -> None:
        self.size = size
        self.layout()
        if self.help is not None:
            self.help.layout(size, self.app.lang)
        if self.settings_panel is not None:
            self.settings_panel.layout(size)

    def layout(self) -> None:
        w, h = self.size
        lang = self.app.lang
        gap = max(24, w // 40)
        # on a big window the two panels keep a comfortable size, centred
        content_w = min(w - 2 * gap, 1240)
        x0 = (w - content_w) // 2
        col_w = (content_w - gap) // 2
        panel_h = min(h - 116 - 70, 600)
        top = 116 + max(0, (h - 116 - 70 - panel_h) // 3)
        self.left = pygame.Rect(x0, top, col_w, panel_h)
        self.right = pygame.Rect(x0 + col_w + gap, top, col_w, panel_h)
        L, R = self.left, self.right
        self.lang_choice = Choice(pygame.Rect(R.right - 220, 18, 220, 38), [("en", "English"), ("ja", "日本語")],
                                  lang, self._set_lang)
        self.name_field = TextField(pygame.Rect(L.left + 20, L.top + 70, L.width - 40, 40), self.settings.name,
                                    on_change=self._set_name)
        # a short panel (960x600) packs the picker and a lower Play button tighter, so the words on
        # the chosen deck and bot are read whole (they were cut after the deck's, the bot's unseen)
        compact = L.height < COMPACT_PANEL
        y = L.top + (118 if compact else 128)
        self.setup_choices = []
        self.setup_about: list[tuple[Choice, Callable[[str], str]]] = []
        self.hint_top = y
        for field in self.setup_fields():
            rows = max(1, -(-len(field.options) // field.columns)) if field.columns else 1
            choice = Choice(pygame.Rect(L.left + 20, y + 22, L.width - 40, 38 * rows + 8 * (rows - 1)),
                            list(field.options), field.value, self._setup_pick(field.pick), columns=field.columns)
            self.setup_choices.append((tr(lang, field.label), choice))
            if field.describe is not None:
                self.setup_about.append((choice, field.describe))
            y = choice.rect.bottom + (12 if compact else 23)
            self.hint_top = choice.rect.bottom + (4 if compact else 10)
        # compact: a little lower and shorter, so one line of words on the choices fits above it
        # (Locke's seat-bot legend, "R = Random bot, H = Heuristic bot", was gone at 960x600)
        play = pygame.Rect(L.left + 20, L.bottom - 60, L.width - 40, 46) if compact else \
            pygame.Rect(L.left + 20, L.bottom - 84, L.width - 40, 60)
        # Enter plays against the bot, unless an unfinished game waits: then Enter resumes it
        self.play_button = Button(play, tr(lang, "play_bot"),
                                  self._play, primary=True, enabled=not self.play_blocked(),
                                  hotkey="" if self.unfinished or self.play_blocked() else "Enter", size=24)
        self.settings_button = Button(pygame.Rect(self.lang_choice.rect.left - 100 - 130, 18, 130, 38),
                                      tr(lang, "settings"), self.toggle_settings, payload="settings")
        self.help_button = Button(pygame.Rect(self.settings_button.rect.left - 10 - 110, 18, 110, 38), tr(lang, "help"),
                                  self.toggle_help, hotkey="F1", payload="help")
        # friends: host, join by code, LAN list (or, while hosting/joining, the table's progress)
        inner = R.width - 40
        # saved games to look back at, on the friends panel's title row (its list opens over that panel)
        self.replays_button = Button(pygame.Rect(R.right - 20 - 120, R.top + 12, 120, 32), tr(lang, "replays"),
                                     self._toggle_replays, payload="replays", size=15)
        net_entry = self.net_entry()
        self.host_button = Button(pygame.Rect(R.left + 20, R.top + 80, inner, 42),
                                  tr(lang, "host_game", game=net_entry.title_in(lang)) if net_entry else tr(lang, "host"),
                                  self._host, enabled=net_entry is not None and self.fingerprint is not None)
        from client.table.net_play import paste_from_clipboard

        # the code survives a re-layout and a failed join (only a successful join empties it)
        self.code_field = TextField(pygame.Rect(R.left + 20, R.top + 150, inner - 200, 48), self.code_text,
                                    max_len=160, on_change=self._set_code, on_paste=paste_from_clipboard, lines=2)
        self.join_button = Button(pygame.Rect(R.right - 100, R.top + 154, 80, 40), tr(lang, "join"), self._join,
                                  enabled=net_entry is not None and self.fingerprint is not None)
        # the same code, to watch the table without a seat (net/peer/watching.py), if its host allows
        self.watch_button = Button(pygame.Rect(R.right - 190, R.top + 154, 80, 40), tr(lang, "watch"), self._watch,
                                   enabled=net_entry is not None and self.fingerprint is not None)
        lan_top = 232
        if self.unfinished:  # a row to resume (or abandon) the newest unfinished game
            game = self.unfinished[0]
            self.resume_button = Button(pygame.Rect(R.left + 20, R.top + 224, inner - 130, 40),
                                        tr(lang, "resume_game", name=game.opponents()), self._resume, primary=True,
                                        enabled=self.fingerprint is not None, hotkey="Enter")
            self.resume_button.label = fitted_label(self.resume_button, lambda names: tr(lang, "resume_game", name=names),
                                                    game.opponents())
            self.abandon_button = Button(pygame.Rect(R.right - 120, R.top + 224, 100, 40), tr(lang, "abandon"),
                                         self._abandon)
            lan_top += 62
        self.lan_rect = pygame.Rect(R.left + 20, R.top + lan_top, inner, 0)
        self._place_message()
        # the table we host or join
        # the newest online code, once there is one (a re-layout showed the LAN code again)
        self.invite_field = TextField(pygame.Rect(R.left + 20, R.top + 80, inner, 56),
                                      (self.net.online_code or self.net.code) if self.net else "",
                                      max_len=400, read_only=True, on_copy=self._copy, lines=2)
        # the Copy button says when the code is copied (a note beside it was hidden by Add a bot)
        self.copy_button = Button(pygame.Rect(R.left + 20, R.top + 146, 150, 38),
                                  tr(lang, "copied_short" if self.copy_state == "copied" else "copy"), self._copy,
                                  hotkey="Ctrl+C")
        self.cancel_button = Button(pygame.Rect(R.left + 20, R.bottom - 58, 160, 40), tr(lang, "cancel"), self._cancel_net)
        self.online_button = Button(pygame.Rect(R.left + 190, R.bottom - 58, inner - 170, 40), tr(lang, "invite_online"),
                                    self._invite_online)
        empty = self.empty_shown = self.net.empty_seats() if self.net is not None else 0
        half = (inner - 170) // 2  # Add a bot | Start with bots, beside Copy
        self.bot_seat_button = Button(pygame.Rect(R.left + 180, R.top + 146, half, 38),
                                      tr(lang, "add_bot_seat", n=empty), self._add_bot_seat, enabled=empty > 0)
        self.fill_button = Button(pygame.Rect(R.left + 190 + half, R.top + 146, inner - 170 - half, 38),
                                  tr(lang, "start_with_bots", n=empty), self._fill_with_bots, enabled=empty > 0)
        self.quit_button = Button(pygame.Rect(L.left, L.bottom + 14, 120, 40), tr(lang, "quit"), self.app.stop)
        self.game_choice = Choice(pygame.Rect(L.left + 220, L.bottom + 14, R.right - L.left - 220, 40),
                                  [(g.name, g.title_in(lang)) for g in self.games], self.settings.game, self._set_game)
        if self.net is not None:  # our table's game and set-up are fixed: shown, not changeable
            for choice in (*(c for _, c in self.setup_choices), self.game_choice):
                for button in choice.buttons:
                    button.enabled = False
        self.widgets = [self.lang_choice, self.name_field, *(c for _, c in self.setup_choices), self.play_button,
                        self.quit_button, self.settings_button, self.help_button, self.replays_button, self.game_choice]
        self._layout_replays()
        if self.net is None:
            self.widgets += [self.host_button, self.code_field, self.join_button, self.watch_button]
            if self.unfinished:
                self.widgets += [self.resume_button, self.abandon_button]
        else:
            self.widgets += [self.cancel_button]
            if self.net.role == "host":
                self.widgets += [self.invite_field, self.copy_button, self.online_button, self.bot_seat_button,
                                 self.fill_button]

    def _setup_pick(self, pick: Callable[[str], None]) -> Callable[[str], None]:
        """A set-up row's choice: stored in the settings by the game's ``pick``, then the picker
        laid out again (a game's rows may follow each other: Locke's seats and seat bots)."""
        def picked(value: str) -> None:
            pick(value)
            self.layout()

        return picked

    def _place_message(self) -> None:
        """The message under the LAN list gets the lines it needs (a reason and what to do are
        read whole: at 960x600 three lines cut off how to start a second window); the list gives
        up the room, down to one row."""
        R, box = self.right, self.lan_rect
        need = len(wrap(self.message, MESSAGE_SIZE, box.width)) * line_height(MESSAGE_SIZE) if self.message else 0
        box.height = max(LAN_ROW + 6, R.bottom - box.top - max(80, need + 6) - 16)
        self.message_rect = pygame.Rect(box.left, box.bottom + 10, box.width, R.bottom - box.bottom - 16)

    # -- actions ---------------------------------------------------------------
    def _set_lang(self, lang: str) -> None:
        # the app saves a new language it is told (App.set_lang); setting ours first made it no news,
        # and a window that did not quit cleanly came back in the old language
        self.app.set_lang(lang)
        self.settings.lang = lang
        self.layout()

    def _set_name(self, name: str) -> None:
        self.settings.name = name

    def _set_code(self, text: str) -> None:
        self.code_text = text

    def _set_game(self, name: str) -> None:
        self.settings.game = name
        entry = self.entry()
        if entry.client_ui is not None and self.net_entry() is None:
            self._say(tr(self.app.lang, "game_local_only", game=entry.title_in(self.app.lang)), theme.TEXT_DIM)
        else:  # a game without a table says why beside its (disabled) Play button: play_blocked
            self._say("", theme.TEXT_DIM)
        self.layout()  # the chosen game's own set-up picker and which buttons can work

    def about_choices(self) -> str:
        """What the chosen options of the game's set-up picker are like (Rider: the deck and the bot),
        in the lobby's language; shown under the picker ("" for a game whose picker says nothing)."""
        return " ".join(text for choice, describe in self.setup_about if (text := describe(choice.value)))

    def hint_rect(self) -> pygame.Rect:
        """The room between the set-up picker and the Play button (for the words on the choices)."""
        L = self.left
        return pygame.Rect(L.left + 20, self.hint_top, L.width - 40, self.play_button.rect.top - self.hint_top - 4)

    def hint_about(self, hint: pygame.Rect) -> str:
        """The words on the chosen options that go in ``hint``: all of them when they fit; else the
        lowest row's first (it sits right above: Locke's seat-bot legend explains "2 H")."""
        about = self.about_choices()
        if self.setup_about and len(wrap(about, 14, hint.width)) * line_height(14) > hint.height:
            about = " ".join(text for choice, describe in reversed(self.setup_about) if (text := describe(choice.value)))
        return about

    def play_blocked(self) -> str:
        """Why *Play against a bot* cannot work now, for the line beside it ("" when it can)."""
        lang = self.app.lang
        if self.net is not None:
            return tr(lang, "play_busy")
        entry = self.entry()
        if entry.client_ui is None:
            return tr(lang, "game_no_ui", game=entry.title_in(lang), name=entry.name)
        return ""

    def friends_blocked(self) -> str:
        """Why hosting and joining cannot work now, for the line above them ("" when they can)."""
        lang = self.app.lang
        if self.fingerprint is None:  # the whole reason (and what to do) is the lobby's message
            return tr(lang, "friends_no_identity_short")
        if self.net_entry() is None:
            titles = tr(lang, "list_sep").join(g.title_in(lang) for g in self.net_games())
            return tr(lang, "friends_off", game=self.entry().title_in(lang), games=titles)
        return ""

    def friends_caption(self, lang: str) -> str:
        """The line under "Play with friends": the games that play with friends, listed the
        language's way (Japanese with 、)."""
        return tr(lang, "friends_games", games=tr(lang, "list_sep").join(g.title_in(lang) for g in self.net_games()))

    def entry(self) -> Any:
        """The chosen game's registry entry."""
        return next(g for g in self.games if g.name == self.settings.game)

    def setup_fields(self) -> list[Any]:
        """The chosen game's set-up picker rows (none for a game without a client UI)."""
        from client.table.ui import game_ui

        if self.entry().client_ui is None:
            return []
        return game_ui(self.settings.game).setup_fields(self.settings, self.app.lang)

    def net_games(self) -> list[Any]:
        """Every registered game this client can host and join (its UI draws networked tables)."""
        from client.table.ui import net_ui

        return [g for g in self.games if net_ui(g.name) is not None]

    def net_entry(self) -> Any:
        """The game the friends panel hosts and joins: the chosen one, or None when it is local-only."""
        from client.table.ui import net_ui

        return self.entry() if net_ui(self.settings.game) is not None else None

    def _new_table(self, game: str | None = None, *, watch: bool = False) -> Any:
        """A NetTable of ``game`` (default: the chosen one) with its set-up: the deck the game's UI
        names and the number of seats chosen (client/table/ui.py ``table_seats``)."""
        from client.table.net_play import NetTable
        from client.table.ui import net_ui, table_seats
        from net.games import game_named

        if not self.settings.name.strip():
            self.settings.name = "Player"
        self.settings.save()
        entry = game_named(game or self.settings.game)
        ui = net_ui(entry.name)
        if ui is None:
            raise ValueError(f"{entry.title} cannot be played with friends in this client yet")
        return NetTable(self.app, self.settings, entry=entry, deck=None if watch else ui.net_deck(self.settings),
                        seats=table_seats(entry, self.settings), identity=self.identity,
                        on_change=self._net_changed, keep_journal=self.resumable, watch=watch)

    def _resume(self) -> None:
        """Restart the newest unfinished game from its directory (the driver's resume path)."""
        from twisted.internet.error import CannotListenError

        from client.table.net_play import NetTable
        from net.games import game_named
        from net.peer.store import StoreError
        from net.transport.errors import TransportError

        if not self.unfinished:
            return
        game = self.unfinished[0]
        table = None
        try:
            table = NetTable(self.app, self.settings, entry=game_named(game.game), identity=self.identity,
                             on_change=self._net_changed, resume=game)
            table.resume()
        except (StoreError, TransportError, OSError, ValueError, EngineError, RuntimeError,
                CannotListenError) as exc:
            # e.g. another identity key, a damaged directory, the host's old port taken
            if table is not None:
                table.cancel()  # keeps the directory: it may resume later
            self._say(tr(self.app.lang, "resume_failed", error=for_people(str(exc))), theme.BAD)
            return
        self.unfinished.remove(game)
        self.net = table
        self._say("", theme.TEXT_DIM)
        self.layout()

    def _abandon(self) -> None:
        """Forget the newest unfinished game (its journal is deleted)."""
        from client.table.net_play import discard_directory

        if not self.unfinished:
            return
        discard_directory(self.unfinished.pop(0).directory)
        self._say(tr(self.app.lang, "game_abandoned"), theme.TEXT_DIM)
        self.layout()

    def _host(self) -> None:
        """Open a networked table: show (and copy) its code, advertise it on the LAN."""
        lang = self.app.lang
        try:
            table = self._new_table()
            code = table.host(self.host_interface)
        except (OSError, ValueError, EngineError) as exc:  # port/interface trouble, a bad deck, no identity
            self._say(tr(lang, "host_failed", error=for_people(str(exc))), theme.BAD)
            return
        self.net = table
        print(f"Fairtable invite code: {code}", file=sys.stderr, flush=True)  # also in the console, to copy
        if self.lan is not None:
            self.lan.advertise(table.ad())
        self.layout()
        self._copy()

    def _add_bot_seat(self) -> None:
        """Fill one empty seat of the table we host with a bot of the game's first kind (it runs here)."""
        if self.net is None or self.net.role != "host":
            return
        try:
            self.net.add_bot()
        except ValueError as exc:
            self._say(for_people(str(exc)), theme.BAD)
        self.layout()

    def _fill_with_bots(self) -> None:
        """Start now: a bot (the game's first kind, running here) takes every empty seat, and the
        table starts as soon as they are seated and every player is connected."""
        if self.net is None or self.net.role != "host":
            return
        try:
            added = self.net.fill_with_bots()
        except ValueError as exc:
            self._say(for_people(str(exc)), theme.BAD)
        else:
            self._say(tr(self.app.lang, "filling_with_bots", n=added), theme.TEXT)
        self.layout()

    def _invite_online(self) -> None:
        """A wormhole code for one more friend; it replaces the LAN code in the field once it arrives."""
        if self.net is not None and self.net.role == "host":
            self.net.invite_online()
            self.app.invalidate()

    def _copy(self) -> None:
        from client.table.net_play import copy_to_clipboard

        if self.net is None or not self.net.code:
            return
        self.copy_state = "copied" if copy_to_clipboard(self.net.online_code or self.net.code) else "select"
        self.invite_field.focused = True  # shown selected, ready for Ctrl+C
        self.copy_button.label = tr(self.app.lang, "copied_short" if self.copy_state == "copied" else "copy")
        self.app.invalidate()

    def _watch(self) -> None:
        """Watch the table of the code typed (LAN invite or online code) without a seat."""
        self._join(watch=True)

    def _join(self, code: str | None = None, game: str | None = None, *, watch: bool = False) -> None:
        lang = self.app.lang
        code = (code if code is not None else self.code_field.value).strip()
        if not code:
            self._say(tr(lang, "code_empty"), theme.WARN)
            return
        from net.transport.errors import InviteError
        from net.transport.wormhole import BadCode

        try:
            game = game or self._game_of_code(code)
            table = self._new_table(game, watch=True) if watch else self._new_table(game)
            table.join(code)
        except (InviteError, BadCode) as exc:
            self._say(tr(lang, "code_bad", error=str(exc)), theme.BAD)
            return
        except (OSError, ValueError, EngineError) as exc:
            self._say(tr(lang, "join_failed", error=for_people(str(exc))), theme.BAD)
            return
        self.net = table
        self._say("", theme.TEXT_DIM)
        self.layout()

    def _game_of_code(self, code: str) -> str | None:
        """The game a LAN invite code names (the host's game: we play it, whatever the game row
        shows), else None; an online code names it only once it pairs (the table then switches,
        NetTable._adopt, and the game row follows in _net_changed). InviteError for a bad code."""
        from net.transport.invite import parse_invite
        from net.transport.wormhole import looks_like_wormhole_code

        if looks_like_wormhole_code(code):
            return None
        named = parse_invite(code).game
        if named and named != self.settings.game and any(g.name == named for g in self.games):
            self._set_game(named)  # the game row follows the table joined
        return named or None

    def ours(self, ad: Any) -> bool:
        """Whether a LAN table is one we host ourselves (another window with our key, or this one)."""
        return self.fingerprint is not None and ad.fingerprint == self.fingerprint

    def _join_lan(self, ad: Any, *, watch: bool = False) -> None:
        from net.transport.errors import InviteError

        if self.ours(ad):  # joining it cannot work: say why and what to do, at once
            self._say(tr(self.app.lang, "own_table", fingerprint=ad.fingerprint, command=SECOND_WINDOW), theme.WARN)
            return

        from client.table.ui import net_ui

        try:
            code = ad.invite().encode()
        except InviteError as exc:
            self._say(tr(self.app.lang, "code_bad", error=str(exc)), theme.BAD)
            return
        try:
            playable = net_ui(ad.game) is not None
        except ValueError:  # a game this Fairtable does not know
            playable = False
        if not playable:
            self._say(tr(self.app.lang, "lan_other_game", game=ad.game), theme.WARN)
            return
        self._join(code, ad.game, watch=watch)  # a LAN table says its game: join (or watch) that one

    def _cancel_net(self) -> None:
        if self.net is not None:
            self.net.cancel()
        self.net = None
        self.copy_state = ""
        self._say(tr(self.app.lang, "net_cancelled"), theme.TEXT_DIM)
        self.layout()

    def _net_changed(self) -> None:
        net = self.net
        if net is not None and net.entry.name != self.settings.game and any(g.name == net.entry.name
                                                                           for g in self.games):
            self._set_game(net.entry.name)  # an online code paired with a table of another game
        if net is not None and net.online_code and self.invite_field.value != net.online_code:
            self.invite_field.value = net.online_code  # a new online code: show it and copy it
            # in the console too, like the LAN code (the note without a clipboard says it is there)
            print(f"Fairtable online code: {net.online_code}", file=sys.stderr, flush=True)
            self._copy()
        if net is not None and net.empty_seats() != self.empty_shown:
            self.layout()  # a seat taken or freed: the bot button's count and state
        if net is not None and net.role == "host" and self.lan is not None and net.peer.net is not None:
            self.lan.refresh(net.ad())  # the LAN lists show our free seats as they are now
        self.app.invalidate()

    def _say(self, text: str, colour: theme.Colour) -> None:
        self.message = text
        self.message_colour = colour
        if hasattr(self, "lan_rect"):  # laid out: the message takes the room it needs
            self._place_message()
        self.app.invalidate()

    def _play(self) -> None:
        if not self.settings.name.strip():
            self.settings.name = "Player"
        self.settings.save()
        if self.play_blocked():  # the button is off and says why; a stray Enter does nothing either
            return
        if self.start_game is not None:
            try:
                self.start_game(self.settings)
            except (EngineError, RuntimeError, OSError, ValueError) as exc:  # deck rejected, assets missing
                self._say(tr(self.app.lang, "engine_missing", error=str(exc)), theme.BAD)

    # -- scene protocol ----------------------------------------------------------
    def update(self, now: float) -> bool:
        net = self.net
        if net is None:
            return False
        if net.started:
            self.net = None
            if self.lan is not None:
                self.lan.close()
                self.lan = None
            if self.start_net is not None:
                self.start_net(net)
            else:
                from client.table.ui import net_ui

                ui = net_ui(net.entry.name)
                if ui is None:  # a resumed game of a game this client draws no networked table for
                    net.cancel()
                    self._say(tr(self.app.lang, "game_local_only", game=net.entry.title_in(self.app.lang)), theme.BAD)
                    return False
                ui.start_net(self.app, net, on_leave=lambda: self.app.switch(self._again()),
                             on_rematch=self._rematch_in_new_lobby)
        elif net.role in ("join", "watch") and net.nobody_listening():
            # the host's address refuses connections: say so in seconds, not after the join timeout
            where = net.dialled()
            net.cancel()
            self.net = None
            self._say(tr(self.app.lang, "join_refused", where=where), theme.BAD)
            self.layout()
        elif net.result is not None:  # the table closed before a game started
            self.net = None
            if net.own_table():  # two windows with one key: say so in our words, and what to do
                self._say(tr(self.app.lang, "own_table", fingerprint=self.fingerprint or "?",
                             command=SECOND_WINDOW), theme.BAD)
            elif net.rematch is not None and net.rematch_gone:  # we gave up waiting: say for whom
                self._say(tr(self.app.lang, "rematch_gone", who=tr(self.app.lang, "list_sep").join(net.rematch_gone)),
                          theme.BAD)
            elif net.rematch is not None:  # the host did not come back, or sent the others away
                self._say(tr(self.app.lang, "rematch_ended", error=(net.ending_words(self.app.lang) or "").rstrip(".。")
                             or for_people(net.error or "?")), theme.BAD)
            else:  # the driver's reason in the player's words when it gave one (it says what to do)
                words = net.ending_words(self.app.lang)
                self._say(words or tr(self.app.lang, "net_ended", error=for_people(net.error or "?")), theme.BAD)
            self.layout()
        return False

    # -- saved games to replay (client/table/replay.py) -------------------------------------------
    def saved_records(self) -> list[Path]:
        """The newest saved records in the transcripts folder (the end screen's *Save transcript*)."""
        from client.settings import data_dir

        folder = data_dir("transcripts")
        if not folder.is_dir():
            return []
        files = [p for p in folder.iterdir() if p.is_file() and p.suffix in (".ft", ".json")]
        return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)[:REPLAYS_SHOWN]

    def _toggle_replays(self) -> None:
        """Open (or close) the list of saved games; with none saved yet, say how to save one."""
        if self.replay_files is not None:
            self.replay_files = None
        else:
            files = self.saved_records()
            if not files:
                self._say(tr(self.app.lang, "replays_none"), theme.WARN)
                return
            self.replay_files = files
        self._layout_replays()
        self.app.invalidate()

    def _layout_replays(self) -> None:
        self.replay_buttons: list[Button] = []
        files = getattr(self, "replay_files", None)
        if not files:
            return
        R = self.right
        for i, path in enumerate(files):
            self.replay_buttons.append(Button(pygame.Rect(R.left + 20, R.top + 60 + i * 44, R.width - 40, 38),
                                              path.stem, self._replayer(path), size=14, payload=str(path)))

    def _replayer(self, path: Path) -> Callable[[], None]:
        def open_it() -> None:
            from client.table.replay import open_replay
            from net.replay import ReplayError
            from net.transcript import TranscriptError, load_raw

            self.replay_files = None
            self._layout_replays()
            try:
                open_replay(self.app, load_raw(path), on_leave=lambda: self.app.switch(self._again()))
            except (ReplayError, TranscriptError, OSError, ValueError) as exc:
                self._say(tr(self.app.lang, "replay_cannot", error=for_people(str(exc))), theme.BAD)

        return open_it

    def handle(self, event: pygame.event.Event) -> None:
        if self.replay_files is not None:  # the list of saved games: modal until one is chosen or Esc
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self._toggle_replays()
                return
            for button in [*self.replay_buttons, self.replays_button]:
                if button.handle(event):
                    self.app.invalidate()
                    return
            return
        for overlay in (self.settings_panel, self.help):
            if overlay is not None:  # modal
                overlay.handle(event)
                self.app.invalidate()
                return
        typing = self.name_field.focused or self.code_field.focused
        if is_help_key(event) and not (typing and getattr(event, "unicode", "") == "?"):
            self.toggle_help()
            return
        if event.type == pygame.KEYDOWN and not typing:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.net is None:
                if self.unfinished and self.resume_button.enabled:
                    self._resume()  # a waiting game comes first: Enter resumes it
                elif self.play_button.enabled:
                    self._play()
                return
            if event.key == pygame.K_l and not (event.mod & pygame.KMOD_CTRL):
                self.lang_choice._pick(other_lang(self.app.lang))
                return
            if event.key == pygame.K_c and event.mod & pygame.KMOD_CTRL and self.net is not None:
                self._copy()
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.net is None:
            for rect, ad in self.lan_rows():
                if lan_watch_rect(rect).collidepoint(event.pos):  # the row's own Watch
                    self._join_lan(ad, watch=True)
                    return
                if rect.collidepoint(event.pos):
                    self._join_lan(ad)
                    return
        for widget in list(self.widgets):
            widget.handle(event)  # type: ignore[attr-defined]

    def _again(self) -> LobbyScene:
        """A fresh lobby like this one (after a networked game)."""
        return LobbyScene(self.app, self.settings, self.start_game, lan=self.lan_enabled,
                          host_interface=self.host_interface, identity=self.identity, resumable=self.resumable)

    def _rematch_in_new_lobby(self, table: Any) -> None:
        lobby = self._again()
        self.app.switch(lobby)
        lobby.adopt(table)

    def adopt(self, table: Any) -> None:
        """Show ``table`` (a rematch in the making) as our table: its progress, Cancel, and the game when it starts."""
        self.net = table
        table.on_change = self._net_changed
        self.layout()

    # -- overlays ---------------------------------------------------------------------
    def toggle_help(self) -> None:
        """Open the chosen game's help pages (through the registry, client/table/ui.py), or close them."""
        from client.help import HelpOverlay
        from client.table.ui import game_help

        if self.help is not None:
            self.help = None
        else:
            self.help = HelpOverlay(game_help(self.settings.game), self.toggle_help, self.app.lang)
            self.help.layout(self.size, self.app.lang)
        self.app.invalidate()

    def toggle_settings(self) -> None:
        from client.settings_panel import SettingsPanel

        if self.settings_panel is not None:
            self.settings_panel = None
        else:
            self.settings_panel = SettingsPanel(self.app, self.toggle_settings, self._setting_changed)
            self.settings_panel.layout(self.size)
        self.app.invalidate()

    def _setting_changed(self, field: str) -> None:
        if field == "lang":
            self.layout()

    # -- drawing --------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        lang = self.app.lang
        w = surface.get_width()
        surface.fill(theme.BG)
        pygame.draw.rect(surface, theme.BG_FELT_DARK, (0, 0, w, 96))
        draw_text(surface, tr(lang, "title"), (self.left.left, 12), 42, theme.ACCENT, bold=True)
        draw_text(surface, tr(lang, "subtitle"), (self.left.left + 2, 68), 16, theme.TEXT_DIM,
                  max_width=self.lang_choice.rect.left - self.left.left - 90)
        draw_text(surface, tr(lang, "language"), (self.lang_choice.rect.left - 12, self.lang_choice.rect.centery), 15,
                  theme.TEXT_DIM, anchor="midright")
        draw_text(surface, tr(lang, "game"), (self.game_choice.rect.left - 12, self.game_choice.rect.centery), 15,
                  theme.TEXT_DIM, anchor="midright")
        fp = self.fingerprint
        label = f"{tr(lang, 'fingerprint')}: {fp}" if fp else tr(lang, "fingerprint_none")
        draw_text(surface, label, (self.lang_choice.rect.right, 76), 15, theme.TEXT if fp else theme.TEXT_DIM,
                  anchor="midright", max_width=w // 2)
        panel(surface, self.left)
        panel(surface, self.right)
        L, R = self.left, self.right
        draw_text(surface, tr(lang, "play_now"), (L.left + 20, L.top + 14), 24, theme.TEXT, bold=True,
                  max_width=L.width - 40)
        draw_text(surface, tr(lang, "your_name"), (L.left + 20, L.top + 48), 15, theme.TEXT_DIM)
        for label, choice in self.setup_choices:  # the chosen game's own set-up picker
            draw_text(surface, label, (L.left + 20, choice.rect.top - 22), 15, theme.TEXT_DIM)
        hint = self.hint_rect()
        blocked = self.play_blocked()  # a Play button that cannot work says why, right above it
        self.play_covered = False
        if blocked and len(wrap(blocked, 15, hint.width)) * line_height(15) > hint.height:
            # no room above the (disabled) Play button: the reason takes its place, whole, over nothing else
            self.play_covered = True
            box = self.play_button.rect
            panel(surface, box, fill=theme.BUTTON_DISABLED, edge=theme.WARN)
            size = 15 if len(wrap(blocked, 15, box.width - 16)) * line_height(15) <= box.height - 4 else 13
            used = len(wrap(blocked, size, box.width - 16)) * line_height(size)
            draw_wrapped(surface, blocked, pygame.Rect(box.left + 8, box.centery - used // 2, box.width - 16, used),
                         size, theme.WARN)
        elif blocked:
            lines = len(wrap(blocked, 15, hint.width))
            hint = pygame.Rect(hint.left, hint.bottom - lines * line_height(15), hint.width, lines * line_height(15))
            draw_wrapped(surface, blocked, hint, 15, theme.WARN)
        elif hint.height > 16:  # what the chosen deck and bot are like, else what Play does
            about = self.hint_about(hint)
            if about:
                wrapped = wrap(about, 14, hint.width)
                room = max(1, hint.height // line_height(14))
                for i, line in enumerate(wrapped[:room]):  # as many lines as fit; a cut one ends with an ellipsis
                    cut = i == room - 1 and len(wrapped) > room
                    draw_text(surface, line.rstrip() + ("…" if cut else ""), (hint.left, hint.top + i * line_height(14)),
                              14, theme.TEXT_DIM, max_width=hint.width)
            else:
                draw_wrapped(surface, tr(lang, "play_bot_hint"), hint, 15, theme.TEXT_DIM)
        draw_text(surface, tr(lang, "friends"), (R.left + 20, R.top + 14), 24, theme.TEXT, bold=True,
                  max_width=R.width - 40)
        if self.net is None:
            self._draw_friends(surface)
        else:
            self._draw_table(surface)
        for widget in self.widgets:
            if widget is self.play_button and self.play_covered:
                continue  # its place says why it cannot work (above)
            widget.draw(surface)  # type: ignore[attr-defined]
        if self.replay_files is not None:  # the saved games, over the friends panel
            panel(surface, R, fill=theme.PANEL, edge=theme.ACCENT)
            draw_text(surface, tr(lang, "replays_title"), (R.left + 20, R.top + 14), 22, theme.TEXT, bold=True,
                      max_width=R.width - 40)
            for button in self.replay_buttons:
                button.draw(surface)
        for overlay in (self.help, self.settings_panel):
            if overlay is not None:
                overlay.draw(surface)

    def _draw_friends(self, surface: pygame.Surface) -> None:
        # an advertised name comes from the network
        from client.table.words import display_name

        lang = self.app.lang
        R = self.right
        blocked = self.friends_blocked()  # host and join are off: the reason, right above them
        caption = blocked or self.friends_caption(lang)
        # two short lines under the heading: a reason is read whole, even at 960x600 in Japanese
        draw_wrapped(surface, caption, pygame.Rect(R.left + 20, R.top + 46, R.width - 40, 2 * line_height(12)), 12,
                     theme.WARN if blocked else theme.TEXT_DIM)
        draw_text(surface, tr(lang, "join_code"), (R.left + 20, R.top + 130), 15, theme.TEXT_DIM)
        draw_text(surface, tr(lang, "lan_tables"), (R.left + 20, self.lan_rect.top - 22), 15, theme.TEXT_DIM)
        box = self.lan_rect
        panel(surface, box, fill=(26, 31, 40))
        if self.lan is None:
            draw_wrapped(surface, tr(lang, "lan_off"), box.inflate(-24, -16), 14, theme.TEXT_DIM)
        elif self.lan.error:
            draw_wrapped(surface, tr(lang, "lan_error", error=self.lan.error), box.inflate(-24, -16), 14, theme.WARN)
        elif not self.lan.tables:
            draw_text(surface, tr(lang, "lan_none"), (box.left + 14, box.top + 12), 15, theme.TEXT_DIM)
        for row, ad in self.lan_rows():
            pygame.draw.rect(surface, theme.BUTTON, row, border_radius=6)
            seats = tr(lang, "lan_seats", n=ad.seats_free)
            draw_text(surface, f"{display_name(ad.name, 0)} · {self.game_title(ad.game)} · {ad.fingerprint}",
                      (row.left + 10, row.centery), 14, theme.TEXT, anchor="midleft", max_width=row.width - 220)
            action, colour = (tr(lang, "lan_yours"), theme.TEXT_DIM) if self.ours(ad) else \
                (f"{seats} · {tr(lang, 'join')}", theme.ACCENT)
            watch = lan_watch_rect(row)
            draw_text(surface, action, (watch.left - 8, row.centery), 14, colour, anchor="midright", max_width=130)
            if not self.ours(ad):
                pygame.draw.rect(surface, theme.PANEL_EDGE, watch, width=1, border_radius=5)
                draw_text(surface, tr(lang, "watch"), watch.center, 13, theme.TEXT, anchor="center",
                          max_width=watch.width - 6)
        if self.message:
            draw_wrapped(surface, self.message, self.message_rect, MESSAGE_SIZE, self.message_colour)

    def game_title(self, name: str) -> str:
        """A registered game's title, or the name a LAN advertisement gave (made safe to show)."""
        from client.table.words import display_text

        return next((g.title_in(self.app.lang) for g in self.games if g.name == name), display_text(name, 24))

    def lan_rows(self) -> list[tuple[pygame.Rect, Any]]:
        """(row rectangle, table advertisement) of each LAN table shown; a click on a row joins it."""
        if self.lan is None or self.lan.error:
            return []
        box = self.lan_rect
        ads = sorted(self.lan.tables.values(), key=lambda a: (a.name, a.fingerprint))
        return [(pygame.Rect(box.left + 6, box.top + 6 + LAN_ROW * i, box.width - 12, LAN_ROW - 4), ad)
                for i, ad in enumerate(ads[: max(1, (box.height - 8) // LAN_ROW)])]

    def table_status(self) -> str:
        """The headline of our table in the making: seats still free, resuming, a rematch's wait
        (who is back and whom it still waits for), or joining."""
        lang, net = self.app.lang, self.net
        assert net is not None
        if net.role == "host":
            free = net.seats_free()
            if free:
                return tr(lang, "hosting_wait_one" if free == 1 else "hosting_wait", n=free)
            down = net.peer.lobby_down()  # every seat taken, but a joiner's link is down
            return tr(lang, "hosting_held", who=tr(lang, "list_sep").join(down)) if down else tr(lang, "hosting_full")
        if net.role == "resume":
            return tr(lang, "resuming")
        if net.role == "rematch" and net.rematch is not None:
            sep = tr(lang, "list_sep")
            missing, back = net.rematch_missing(), net.rematch_back()
            if not missing:  # a joiner at the host's table: the others cannot be seen from here
                return tr(lang, "rematch_seated")
            status = tr(lang, "rematch_wait", who=sep.join(missing))
            return status + (" " + tr(lang, "rematch_back", who=sep.join(back)) if back else "")
        if net.role == "watch":
            return tr(lang, "watch_wait")
        seat = net.seat_waiting()
        if seat is None:
            return tr(lang, "joining", fingerprint=net.peer.invite.fingerprint if net.peer.invite else "?")
        mine, size, waiting = seat
        if waiting:
            return tr(lang, "joined_wait_one" if waiting == 1 else "joined_wait", seat=mine, size=size, n=waiting)
        return tr(lang, "joined_full", seat=mine, size=size)

    def status_and_box(self, top: int) -> tuple[pygame.Rect, pygame.Rect]:
        """Where the headline of our table in the making goes, from ``top``: as tall as its lines
        (every line read whole: a seat-by-seat wait can take four lines at 960x600), and the
        progress box under it, down to the Cancel button."""
        R = self.right
        width = R.width - 40
        lines = len(wrap(self.table_status(), STATUS_SIZE, width, True))
        status = pygame.Rect(R.left + 20, top, width, lines * line_height(STATUS_SIZE))
        box_top = status.bottom + 6
        return status, pygame.Rect(R.left + 20, box_top, width, self.cancel_button.rect.top - box_top - 12)

    def _draw_table(self, surface: pygame.Surface) -> None:
        lang = self.app.lang
        R = self.right
        net = self.net
        y = R.top + 56
        if net.role == "host":
            # the LAN code is everyone's; an online code is one friend's (the field shows the newest)
            give = tr(lang, "invite_give_online" if net.online_code else "invite_give")
            draw_text(surface, give, (R.left + 20, y), 15, theme.TEXT_DIM, max_width=R.width - 40)
            y = self.copy_button.rect.bottom + 10
            if self.copy_state == "select":  # no clipboard here: how to copy it by hand, under the buttons
                y += draw_wrapped(surface, tr(lang, "copy_select"), pygame.Rect(R.left + 20, y, R.width - 40, 60),
                                  13, theme.WARN) + 6
            invites = net.online_invites()
            if invites:
                listing = ", ".join(f"{code} ({tr(lang, 'online_state_' + state)})" for code, state in invites[-4:])
                y += draw_wrapped(surface, f"{tr(lang, 'online_codes')} {listing}",
                                  pygame.Rect(R.left + 20, y, R.width - 40, 60), 14, theme.TEXT) + 6
        status, box = self.status_and_box(y)
        draw_wrapped(surface, self.table_status(), status, STATUS_SIZE, theme.ACCENT, bold=True)
        if box.height > 30:
            panel(surface, box, fill=(26, 31, 40))
            step = line_height(13)
            clip = surface.get_clip()
            surface.set_clip(box.inflate(-12, -8))
            ty = box.top + 6
            lines = [ln for text in net.progress_lines(lang) for ln in _wrap13(text, box.width - 20)]
            for line in lines[-max(1, (box.height - 12) // step):]:
                surface.blit(render(line, 13, theme.TEXT_DIM), (box.left + 10, ty))
                ty += step
            surface.set_clip(clip)


#: A left panel shorter than this (a 960x600 window) is laid out compact (LobbyScene.layout).
COMPACT_PANEL = 440
#: How many saved games the Replays list shows (the newest first).
REPLAYS_SHOWN = 8
#: The size of the headline of our table in the making (bold): what it waits for.
STATUS_SIZE = 16
#: The size of the lobby's message (under the LAN list).
MESSAGE_SIZE = 15
#: The height of a row of the LAN list (and the gap to the next).
LAN_ROW = 34


def lan_watch_rect(row: pygame.Rect) -> pygame.Rect:
    """The *Watch* part at the right end of a LAN table's row (a click there watches the table)."""
    return pygame.Rect(row.right - 66, row.top + 3, 60, row.height - 6)
#: How to start a second window as another player (its own key and settings: net/identity.py profiles).
SECOND_WINDOW = "FAIRTABLE_PROFILE=2 fairtable"


def _wrap13(text: str, width: int) -> tuple[str, ...]:
    from client.text import wrap

    return wrap(text, 13, width)


#: How many points a label with names may shrink before its names are cut (fitted_label).
LABEL_SHRINK = 4


def fitted_label(button: Button, words: Callable[[str], str], names: str) -> str:
    """``words(names)`` shortened in its names only, so the whole sentence fits ``button`` (a label
    cut at its end lost its verb in Japanese: "…との対局を再開" showed only the names)."""
    size = button.size or max(12, min(20, button.rect.height // 2))
    room = button.label_room(size)
    # the names are cut before the type shrinks far (a playtest saw every name squeezed into a tiny font)
    floor = min(size, max(BUTTON_MIN_SIZE, size - LABEL_SHRINK))
    label = words(names)
    if fits(label, size, room, button.primary, floor):
        return label
    for cut in range(len(names) - 1, 0, -1):
        shorter = words(names[:cut].rstrip(", 、") + "…")
        if fits(shorter, size, room, button.primary, floor):
            return shorter
    return words("…")

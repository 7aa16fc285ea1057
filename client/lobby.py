"""The lobby: play against a bot at once, or (soon) with friends.

"Play against a bot" is the default and needs no set-up: it opens a local
table on this computer. Hosting, joining by invite code and the LAN list
are laid out, but they say plainly that networked play is not connected yet
(it arrives with the sessions work): the lobby never pretends to connect.
An invite code typed in is still checked for real with the invite parser.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from client import theme
from client.app import App
from client.decks import DeckInfo, shipped_decks
from client.i18n import tr
from client.scene import Scene
from client.settings import Settings
from client.text import draw_text, draw_wrapped
from client.widgets import Button, Choice, TextField, panel
from engine.core.errors import EngineError


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
                 start_game: Callable[[Settings], None] | None = None) -> None:
        super().__init__(app)
        self.settings = settings or Settings()
        self.decks: list[DeckInfo] = shipped_decks()
        keys = [d.key for d in self.decks]
        if self.settings.deck not in keys and keys:
            self.settings.deck = keys[0]
        if self.settings.bot_deck not in keys and keys:
            self.settings.bot_deck = keys[-1] if len(keys) > 1 else keys[0]
        self.start_game = start_game
        self.fingerprint, self.identity_error = load_identity()
        self.message = ""
        self.message_colour = theme.TEXT_DIM
        self.widgets: list[object] = []
        self.size = app.screen.get_size()

    # -- layout ---------------------------------------------------------------
    def resized(self, size: tuple[int, int]) -> None:
        self.size = size
        self.layout()

    def layout(self) -> None:
        w, h = self.size
        lang = self.app.lang
        margin = max(24, w // 40)
        top = 130
        col_w = (w - 3 * margin) // 2
        self.left = pygame.Rect(margin, top, col_w, h - top - 70)
        self.right = pygame.Rect(2 * margin + col_w, top, col_w, h - top - 70)
        L, R = self.left, self.right
        self.lang_choice = Choice(pygame.Rect(w - margin - 220, 30, 220, 40), [("en", "English"), ("ja", "日本語")],
                                  lang, self._set_lang)
        self.name_field = TextField(pygame.Rect(L.left + 20, L.top + 70, L.width - 40, 40), self.settings.name,
                                    on_change=self._set_name)
        deck_opts = [(d.key, d.name(lang)) for d in self.decks]
        rows = max(1, (len(deck_opts) + 1) // 2)
        self.deck_choice = Choice(pygame.Rect(L.left + 20, L.top + 150, L.width - 40, 38 * rows + 8 * (rows - 1)),
                                  deck_opts, self.settings.deck, self._set_deck, columns=2)
        y = self.deck_choice.rect.bottom + 45
        self.bot_choice = Choice(pygame.Rect(L.left + 20, y, L.width - 40, 38),
                                 [("greedy", tr(lang, "bot_greedy")), ("random", tr(lang, "bot_random"))],
                                 self.settings.bot, self._set_bot)
        self.play_button = Button(pygame.Rect(L.left + 20, L.bottom - 90, L.width - 40, 64), tr(lang, "play_bot"),
                                  self._play, primary=True, enabled=bool(self.decks), hotkey="Enter", size=24)
        self.host_button = Button(pygame.Rect(R.left + 20, R.top + 60, R.width - 40, 44), tr(lang, "host"),
                                  self._network_pending, enabled=False)
        self.code_field = TextField(pygame.Rect(R.left + 20, R.top + 150, R.width - 160, 40), "", max_len=120)
        self.join_button = Button(pygame.Rect(R.right - 130, R.top + 150, 110, 40), tr(lang, "join"), self._join)
        self.lan_rect = pygame.Rect(R.left + 20, R.top + 245, R.width - 40, 130)
        self.quit_button = Button(pygame.Rect(margin, h - 56, 120, 40), tr(lang, "quit"), self.app.stop)
        self.widgets = [self.lang_choice, self.name_field, self.deck_choice, self.bot_choice, self.play_button,
                        self.host_button, self.code_field, self.join_button, self.quit_button]

    # -- actions ---------------------------------------------------------------
    def _set_lang(self, lang: str) -> None:
        self.settings.lang = lang
        self.app.set_lang(lang)
        self.layout()

    def _set_name(self, name: str) -> None:
        self.settings.name = name

    def _set_deck(self, key: str) -> None:
        self.settings.deck = key

    def _set_bot(self, kind: str) -> None:
        self.settings.bot = kind

    def _network_pending(self) -> None:
        self._say(tr(self.app.lang, "net_pending"), theme.WARN)

    def _join(self) -> None:
        code = self.code_field.value.strip()
        lang = self.app.lang
        if not code:
            self._say(tr(lang, "code_empty"), theme.WARN)
            return
        try:
            from net.transport.invite import parse_invite

            invite = parse_invite(code)
        except ImportError:
            self._network_pending()
            return
        except ValueError as exc:  # InviteError is a ValueError with a readable message
            self._say(tr(lang, "code_bad", error=str(exc)), theme.BAD)
            return
        self._say(tr(lang, "code_ok", fingerprint=invite.fingerprint), theme.WARN)

    def _say(self, text: str, colour: theme.Colour) -> None:
        self.message = text
        self.message_colour = colour
        self.app.invalidate()

    def _play(self) -> None:
        if not self.settings.name.strip():
            self.settings.name = "Player"
        self.settings.save()
        if self.start_game is not None:
            try:
                self.start_game(self.settings)
            except (EngineError, RuntimeError, OSError, ValueError) as exc:  # deck rejected, assets missing
                self._say(tr(self.app.lang, "engine_missing", error=str(exc)), theme.BAD)

    # -- scene protocol ----------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and not (self.name_field.focused or self.code_field.focused):
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.play_button.enabled:
                self._play()
                return
            if event.key == pygame.K_l:
                self.lang_choice._pick("ja" if self.app.lang == "en" else "en")
                return
        for widget in self.widgets:
            widget.handle(event)  # type: ignore[attr-defined]

    def draw(self, surface: pygame.Surface) -> None:
        lang = self.app.lang
        w, h = surface.get_size()
        surface.fill(theme.BG)
        pygame.draw.rect(surface, theme.BG_FELT_DARK, (0, 0, w, 100))
        draw_text(surface, tr(lang, "title"), (self.left.left, 18), 44, theme.ACCENT, bold=True)
        draw_text(surface, tr(lang, "subtitle"), (self.left.left + 2, 76), 16, theme.TEXT_DIM)
        draw_text(surface, tr(lang, "language"), (self.lang_choice.rect.left - 12, self.lang_choice.rect.centery), 15,
                  theme.TEXT_DIM, anchor="midright")
        panel(surface, self.left)
        panel(surface, self.right)
        L, R = self.left, self.right
        draw_text(surface, tr(lang, "play_now"), (L.left + 20, L.top + 14), 24, theme.TEXT, bold=True)
        draw_text(surface, tr(lang, "your_name"), (L.left + 20, L.top + 48), 15, theme.TEXT_DIM)
        draw_text(surface, tr(lang, "deck"), (L.left + 20, L.top + 128), 15, theme.TEXT_DIM)
        if not self.decks:
            draw_text(surface, tr(lang, "no_decks"), (L.left + 20, L.top + 160), 15, theme.BAD)
        draw_text(surface, tr(lang, "opponent"), (L.left + 20, self.bot_choice.rect.top - 22), 15, theme.TEXT_DIM)
        draw_wrapped(surface, tr(lang, "play_bot_hint"),
                     pygame.Rect(L.left + 20, self.play_button.rect.top - 50, L.width - 40, 44), 15, theme.TEXT_DIM)
        draw_text(surface, tr(lang, "friends"), (R.left + 20, R.top + 14), 24, theme.TEXT, bold=True)
        draw_text(surface, tr(lang, "join_code"), (R.left + 20, R.top + 126), 15, theme.TEXT_DIM)
        draw_text(surface, tr(lang, "lan_tables"), (R.left + 20, R.top + 220), 15, theme.TEXT_DIM)
        panel(surface, self.lan_rect, fill=(26, 31, 40))
        draw_text(surface, tr(lang, "lan_none"), (self.lan_rect.left + 14, self.lan_rect.top + 12), 15, theme.TEXT_DIM)
        note = pygame.Rect(R.left + 20, self.lan_rect.bottom + 18, R.width - 40, 110)
        panel(surface, note, fill=(52, 44, 28), edge=theme.ACCENT_DARK, radius=8)
        draw_wrapped(surface, tr(lang, "net_pending"), note.inflate(-24, -20), 15, theme.WARN)
        if self.message:
            draw_wrapped(surface, self.message, pygame.Rect(R.left + 20, note.bottom + 14, R.width - 40, 80), 15,
                         self.message_colour)
        # identity
        fp = self.fingerprint
        label = f"{tr(lang, 'fingerprint')}: {fp}" if fp else tr(lang, "fingerprint_none")
        draw_text(surface, label, (w - 24, h - 36), 16, theme.TEXT if fp else theme.TEXT_DIM, anchor="midright")
        for widget in self.widgets:
            widget.draw(surface)  # type: ignore[attr-defined]

"""The table scene every game's table builds on: the log, chat, overlays, and the table's own questions.

:class:`TableScene` holds what a table is whatever the game: it follows a
:class:`~client.table.session.TableSession` (applied inputs, problems,
changes), keeps the log in the current language (every line re-worded when
the language changes, network refusals, dropped-notice counts and chat
lines included), the chat field and quick reactions of a networked table,
the help and settings overlays, the side panel's buttons (lobby, settings,
help, concede, chat), the questions every table asks (leave, concede, claim
a forfeit, each a :class:`~client.table.prompts.Prompt`) and the hand-over
to the end screen once the game is over and nothing moves.

A game's scene subclasses it and adds what is its own: the controls made
from the legal list (:meth:`_build_controls`), input, animations and
drawing, and the few words only it knows (:meth:`help_pages`,
:meth:`describe_input`, :meth:`prompt_area`). Rider's is
client/rider/table_scene.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import pygame

from client.app import App
from client.help import HelpOverlay, is_help_key
from client.i18n import other_lang, tr
from client.scene import Scene
from client.settings_panel import SettingsPanel
from client.table.local import LocalSession
from client.table.log import LogEntry
from client.table.prompts import Prompt, layout_prompt
from client.table.session import TableSession, system_delay
from client.table.words import forfeit_key, player_label
from client.widgets import Button, TextField, share_widths
from engine.core.actions import Action
from engine.core.inputs import SeatInput
from net.seats import for_people

S = TypeVar("S")

#: Prompts about a move: they close when the position changes under them (a game adds its own kinds
#: through :attr:`TableScene.action_prompts`).
ACTION_PROMPTS = ("choice", "confirm")
#: Seconds a why-not notice stays up (a new gesture replaces it at once).
NOTICE_SECONDS = 6.0
#: A seat's statuses that mean it left (client/table/net_session.py ``peer_status``).
DEPARTURES = frozenset({"peer_stand_in", "peer_left", "peer_resigned"})
#: Quick chat reactions (catalogue keys; the line is sent in the sender's language).
REACTIONS = ("react_hello", "react_nice", "react_think", "react_gg")
#: The text size of a quick reaction's button.
REACTION_SIZE = 13
#: The longest chat line the field takes (the protocol allows more; a table line stays readable).
MAX_CHAT_INPUT = 200


def paste_text() -> str:
    """The clipboard's text, for the chat field (Ctrl+V)."""
    from client.table.net_play import paste_from_clipboard

    return paste_from_clipboard()


class TableScene(Scene, Generic[S]):
    """A table of any game seen from our seat (see the module docstring)."""

    name = "table"
    #: The catalogue key of the log's first line (how to play this game's table), or None.
    opening_hint: str | None = None
    #: The prompt kinds about a move (they close when the position changes under them).
    action_prompts: tuple[str, ...] = ACTION_PROMPTS

    def __init__(self, app: App, session: TableSession[S], *, on_leave: Callable[[], None] | None = None,
                 on_end: Callable[[Any], None] | None = None) -> None:
        super().__init__(app)
        self.session = session
        self.on_leave = on_leave
        self.on_end = on_end
        self.me = session.me
        self.now = app.clock.seconds()
        #: The log in the current language, and what words each line (re-run when the language changes).
        self.log: list[LogEntry] = []
        self._log_sources: list[Callable[[str], list[LogEntry]]] = []
        self._log_lang = app.lang
        self.log_scroll = 0
        self.legal: list[SeatInput] = []
        self.prompt: Prompt | None = None
        self.side_buttons: list[Button] = []
        self._end_call: Any = None
        self._warnings_seen = 0
        self._dropped_seen = 0
        self._chat_seen = 0
        self._watch_chat_seen = 0
        self.ended = False
        #: Why the last gesture was refused: (message, details line, shown until).
        self.notice: tuple[str, str, float] | None = None
        #: The help overlay (F1 / ?) while it is open; it takes every input until closed.
        self.help: HelpOverlay | None = None
        #: The settings panel while it is open (modal, like the help overlay).
        self.settings_panel: SettingsPanel | None = None
        #: Our last turn whose "your move" sound was played, and each seat's last status (join/leave cues).
        self._cued_turn: Any = None
        self._statuses: dict[int, str] = {}
        #: Table chat (networked tables: the session signs and sends each line): the field and quick reactions.
        self.chat_field: TextField | None = None
        if session.networked:
            self.chat_field = TextField(pygame.Rect(0, 0, 10, 10), max_len=MAX_CHAT_INPUT, on_paste=paste_text)
        self.chat_buttons: list[Button] = []

    # -- what a game's scene adds ----------------------------------------------------------
    def _build_controls(self) -> None:
        """Recompute the controls from the legal list (the game's scene; never in draw)."""
        raise NotImplementedError

    def _on_refresh(self) -> None:
        """The game's own part of :meth:`refresh`, before the controls are rebuilt (its pickers)."""

    def help_pages(self) -> Any:
        """The help overlay's pages for this game (client/help.py)."""
        raise NotImplementedError

    def describe_input(self, pre: S, action: Action, post: S) -> Callable[[str], list[LogEntry]]:
        """The log lines of one applied input, worded in any language."""
        raise NotImplementedError

    def prompt_area(self) -> pygame.Rect:
        """Where a prompt is laid out (the game's board)."""
        raise NotImplementedError

    def turn_of(self, state: S) -> Any:
        """What changes when a new own turn begins (the "your move" cue plays once per value)."""
        return getattr(state, "turn", None)

    def on_input(self, pre: S, action: Action, post: S) -> None:
        """The game's reaction to an applied input shown live (animations, sounds)."""

    # -- scene protocol ------------------------------------------------------------
    def enter(self) -> None:
        self.session.listeners.append(self._on_event)
        self.session.problem_listeners.append(self._on_problem)
        self.session.change_listeners.append(self.refresh)
        hint = self.opening_hint
        if hint is not None:
            self.add_log(lambda lang: [LogEntry(tr(lang, hint))])
        self.session.start()
        self.refresh()

    def leave(self) -> None:
        if self._on_event in self.session.listeners:
            self.session.listeners.remove(self._on_event)
        if self._on_problem in self.session.problem_listeners:
            self.session.problem_listeners.remove(self._on_problem)
        if self.refresh in self.session.change_listeners:
            self.session.change_listeners.remove(self.refresh)
        self.session.stop()
        if self._end_call is not None and self._end_call.active():
            self._end_call.cancel()

    def overlays_resized(self, size: tuple[int, int]) -> None:
        """Lay the open overlays out again for a new window size."""
        if self.help is not None:
            self.help.layout(size, self.app.lang)
        if self.settings_panel is not None:
            self.settings_panel.layout(size)

    def moving(self, now: float) -> bool:
        """Whether something still moves on the table (the game's animations)."""
        return False

    def update(self, now: float) -> bool:
        self.now = now
        if self._log_lang != self.app.lang:
            self._relog()
            self.app.invalidate()
        if self.notice is not None and now >= self.notice[2]:
            self.notice = None
            self.app.invalidate()
        if self._statuses:  # after the first refresh: a status change between inputs
            before = len(self._log_sources)
            self._cue_statuses()
            if len(self._log_sources) != before:
                self.app.invalidate()
        moving = self.moving(now)
        if not moving and self.session.over and not self.ended and self._end_call is None:
            self._end_call = self.app.clock.callLater(0.8, self._finish)
        return moving

    # -- input every table takes first ----------------------------------------------------------
    def chat_shown(self) -> bool:
        """Whether the chat field is on screen now (a game's collapsed side panel hides it)."""
        return True

    def handle_overlays(self, event: pygame.event.Event) -> bool:
        """Give ``event`` to what takes input before the game's own controls: the settings panel
        and the help overlay (modal while open; F1 or ? opens the help) and the chat field (a
        click on it focuses it, typing goes to it while focused, Enter sends). True when taken."""
        if self.settings_panel is not None:
            self.settings_panel.handle(event)
            self.app.invalidate()
            return True
        if is_help_key(event) and self.help is None:
            self.toggle_help()
            return True
        if self.help is not None:
            self.help.handle(event)
            self.app.invalidate()
            return True
        field = self.chat_field
        if field is not None and self.prompt is None:
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.chat_shown():
                field.handle(event)  # a click elsewhere takes the focus away
                if field.focused or field.rect.collidepoint(event.pos):
                    return True
            elif field.focused and event.type in (pygame.KEYDOWN, pygame.TEXTINPUT):
                if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    self._send_chat()
                else:
                    field.handle(event)
                return True
        return False

    # -- chat ---------------------------------------------------------------------------------
    def _send_chat(self, text: str | None = None) -> None:
        """Sign and send a chat line (the field's text, or a quick reaction)."""
        field = self.chat_field
        if field is None:
            return
        line = (field.value if text is None else text).strip()
        if not line:
            return
        try:
            self.session.say(line)
        except ValueError as exc:  # over the per-move budget, or no table any more: say so, keep the text
            self.notice = (tr(self.app.lang, "chat_failed", error=str(exc)), "", self.app.clock.seconds() + NOTICE_SECONDS)
            self.app.invalidate()
            return
        if text is None:
            field.clear()
        self.refresh()

    def _reactor(self, key: str) -> Callable[[], None]:
        return lambda: self._send_chat(tr(self.app.lang, key))

    def chat_rect(self) -> pygame.Rect | None:
        """The chat area (reactions and field) in the side panel, or None when there is none."""
        if self.chat_field is None or not self.chat_buttons:
            return None
        return self.chat_buttons[1].rect.unionall([b.rect for b in self.chat_buttons] + [self.chat_field.rect])

    def side_panel_buttons(self, panel_rect: pygame.Rect) -> list[Button]:
        """The side panel's own buttons (lobby, settings, help, concede) in ``panel_rect``; lays out
        the chat field and its reactions (:attr:`chat_buttons`) above them on a networked table."""
        lang = self.app.lang
        bw = (panel_rect.width - 28 - 2 * 8) // 3
        row = panel_rect.bottom - 52
        buttons = [
            Button(pygame.Rect(panel_rect.left + 14, row, bw, 38), tr(lang, "menu"), self._leave, payload="lobby"),
            Button(pygame.Rect(panel_rect.left + 14 + bw + 8, row, bw, 38), tr(lang, "settings"),
                   self.toggle_settings, payload="settings"),
            Button(pygame.Rect(panel_rect.left + 14 + 2 * (bw + 8), row, bw, 38), tr(lang, "help"),
                   self.toggle_help, hotkey="F1", payload="help"),
        ]
        if self.session.can_resign():
            buttons.append(Button(pygame.Rect(panel_rect.right - 16 - 110, panel_rect.top + 10, 110, 28),
                                  tr(lang, "concede"), self._concede, payload="concede", size=14))
        self.chat_buttons = []
        if self.chat_field is not None:
            x, w = panel_rect.left + 16, panel_rect.width - 32
            field_top = panel_rect.bottom - 92 - 6 - 34
            self.chat_field.rect = pygame.Rect(x, field_top, w - 70, 34)
            self.chat_buttons.append(Button(pygame.Rect(x + w - 64, field_top, 64, 34), tr(lang, "chat_send"),
                                            self._send_chat, payload=("chat", "send"), size=14))
            labels = [tr(lang, react) for react in REACTIONS]
            # each reaction as wide as its words ("Good game!" is twice "Hmm…"): equal widths cut the long ones
            left = x
            for react, label, rw in zip(REACTIONS, labels, share_widths(labels, REACTION_SIZE, w, 6)):
                self.chat_buttons.append(Button(pygame.Rect(left, field_top - 6 - 28, rw, 28), label,
                                                self._reactor(react), payload=("chat", react), size=REACTION_SIZE))
                left += rw + 6
        return buttons

    # -- settings panel -------------------------------------------------------------------
    def toggle_settings(self) -> None:
        """Open the settings panel (sound, speeds, fullscreen, language), or close it."""
        if self.settings_panel is not None:
            self.settings_panel = None
        else:
            self.settings_panel = SettingsPanel(self.app, self.toggle_settings, self._setting_changed)
            self.settings_panel.layout(self.app.screen.get_size())
        self._build_controls()
        self.app.invalidate()

    def _setting_changed(self, field: str) -> None:
        """What only the table applies: its bots' pace, the log and help in a new language."""
        if field == "bot_speed" and isinstance(self.session, LocalSession):
            delay = self.app.prefs.bot_delay
            self.session.bot_delay, self.session.system_delay = delay, system_delay(delay)
        if field == "lang":
            self._relog()
            if self.help is not None:
                self.help.layout(self.app.screen.get_size(), self.app.lang)
        self._build_controls()

    # -- help overlay -------------------------------------------------------------------
    def toggle_help(self) -> None:
        """Open the help overlay (legend, rules, keys), or close it."""
        if self.help is not None:
            self.help = None
        else:
            self.help = HelpOverlay(self.help_pages(), self.toggle_help, self.app.lang)
            self.help.layout(self.app.screen.get_size(), self.app.lang)
        self._build_controls()
        self.app.invalidate()

    def _toggle_lang(self) -> None:
        self.app.set_lang(other_lang(self.app.lang))
        self._relog()
        if self.help is not None:
            self.help.layout(self.app.screen.get_size(), self.app.lang)
        self._build_controls()

    # -- state changes ----------------------------------------------------------------
    def refresh(self) -> None:
        """Recompute legal actions, the log's new lines, controls and prompt buttons (never in draw)."""
        self.legal = self.session.legal()
        self._on_refresh()
        self._take_table_lines()
        if self.prompt is not None and not self.legal and self.prompt.kind in self.action_prompts:
            self.prompt = None
        self._cue_changes()
        self._build_controls()
        self.app.invalidate()

    def _take_table_lines(self) -> None:
        """Log what the table said since the last look: refused network messages (said, never
        hidden), a count of notices left out (a flood between two frames, said once per burst),
        and chat lines."""
        warnings = self.session.warnings
        for warning in warnings[self._warnings_seen:]:
            self.add_log(self._warning_words(warning))
        self._warnings_seen = len(warnings)
        dropped = self.session.notices_dropped
        if dropped > self._dropped_seen:
            count = dropped - self._dropped_seen
            self.add_log(lambda lang: [LogEntry(tr(lang, "notices_dropped", n=count))])
            self._dropped_seen = dropped
        chat = self.session.chat
        for seat, line in chat[self._chat_seen:]:
            self.add_log(self._chat_words(seat, line))
            if seat != self.me:
                self.log_scroll = 0
        self._chat_seen = len(chat)
        heard = getattr(self.session, "watch_chat", ())  # watchers' lines (a networked table's, net_session.py)
        for who, line in heard[self._watch_chat_seen:]:
            self.add_log(self._watch_words(who, line))
        self._watch_chat_seen = len(heard)

    def _watch_words(self, who: str, line: str) -> Callable[[str], list[LogEntry]]:
        return lambda lang: [LogEntry(tr(lang, "watch_chat_line", who=who, text=line), chat=True)]

    def _cue_changes(self) -> None:
        """Sounds for what changed: our move begins, a player leaves or comes back."""
        turn = self.turn_of(self.session.state)
        if self.legal and self._cued_turn != turn and not self.session.over:
            self._cued_turn = turn
            self.app.sound.play("turn")
        self._cue_statuses()

    def _cue_statuses(self) -> None:
        """A seat left or came back: a sound, and a log line when the others play on without it.
        Also run from :meth:`update`: a seat's link can change with no input applied."""
        for seat in range(len(self.session.names)):
            if seat == self.me:
                continue
            status = self.session.peer_status(seat)
            before = self._statuses.get(seat)
            self._statuses[seat] = status
            if before is None or before == status:
                continue
            if status == "peer_stand_in" and before not in DEPARTURES:  # the others play on: the log says so
                self.add_log(self._departure_words(seat, "net_stand_in"))
            if status in DEPARTURES:
                self.app.sound.play("leave")
            elif before in ("peer_reconnecting", "peer_left") and status not in ("peer_stalling",):
                self.app.sound.play("join")

    def _departure_words(self, seat: int, key: str) -> Callable[[str], list[LogEntry]]:
        names, me = self.session.names, self.me
        return lambda lang: [LogEntry(tr(lang, key, who=player_label(seat, names, me, lang)))]

    def _warning_words(self, warning: str) -> Callable[[str], list[LogEntry]]:
        return lambda lang: [LogEntry(tr(lang, "net_rejected", error=for_people(warning)))]

    def _chat_words(self, seat: int, line: str) -> Callable[[str], list[LogEntry]]:
        def words(lang: str) -> list[LogEntry]:
            who = player_label(seat, self.session.names, self.me, lang)
            return [LogEntry(tr(lang, "chat_line", who=who, text=line), chat=True)]

        return words

    def add_log(self, words: Callable[[str], list[LogEntry]]) -> None:
        """Add log lines; ``words(lang)`` words them, now and whenever the language changes."""
        self._log_sources.append(words)
        self.log.extend(words(self._log_lang))

    def _relog(self) -> None:
        """Re-word every log line in the current language (old lines included)."""
        self._log_lang = self.app.lang
        self.log = [entry for words in self._log_sources for entry in words(self._log_lang)]

    def _on_event(self, pre: S, action: Action, post: S) -> None:
        self.add_log(self.describe_input(pre, action, post))
        self.log_scroll = 0
        if not self.session.catching_up:  # a resumed game's catch-up is shown at once
            self.on_input(pre, action, post)
        self.after_input(action)
        if self.prompt is not None and self.prompt.kind in self.action_prompts:
            self.prompt = None
        self.refresh()

    def after_input(self, action: Action) -> None:
        """The game's bookkeeping after any applied input (a selection that no longer holds)."""

    def _on_problem(self, problem: str) -> None:
        self.add_log(lambda lang: [LogEntry(self._problem_text(lang), turn_marker=True)])
        self.refresh()

    def _problem_text(self, lang: str = "") -> str:
        lang = lang or self.app.lang
        s = self.session
        if s.cheat and s.problem_seat is not None:
            problem = s.problem.removeprefix(f"seat {s.problem_seat}: ")  # recorded texts count seats from 0
            return tr(lang, "cheat_by", who=player_label(s.problem_seat, s.names, self.me, lang),
                      problem=for_people(problem))
        return tr(lang, "table_stopped", problem=for_people(s.problem))

    def _finish(self) -> None:
        self._end_call = None
        self.ended = True
        self.app.sound.play("end")
        if self.on_end is not None:
            self.on_end(self)

    # -- the table's own questions ---------------------------------------------------------------
    def others(self) -> Sequence[int]:
        """Every seat but ours."""
        return [s for s in range(len(self.session.names)) if s != self.me]

    def _layout_prompt(self, prompt: Prompt) -> None:
        layout_prompt(prompt, self.prompt_area(), self._cancel)

    def _cancel(self) -> None:
        self.prompt = None

    def _claim_forfeit(self) -> None:
        """Ask first: the game then ends without the end-of-game audit."""
        lang = self.app.lang

        def claim() -> None:
            self.prompt = None
            self.session.claim_forfeit()
            self.refresh()

        staller = self.session.forfeit_seat()
        who = player_label(staller, self.session.names, self.me, lang) if staller is not None else ""
        seats = len(self.session.names)
        label = tr(lang, forfeit_key("claim_forfeit", seats))
        self.prompt = Prompt(label, [tr(lang, forfeit_key("claim_forfeit_text", seats), who=who)],
                             [(label, claim, True), (tr(lang, "cancel"), self._cancel, False)],
                             kind="forfeit")
        self._build_controls()

    def _concede(self) -> None:
        """Give the game up (asks first); the table stays to show the end."""
        lang = self.app.lang
        who = ", ".join(player_label(s, self.session.names, self.me, lang) for s in self.others())

        def concede() -> None:
            self.prompt = None
            if self.session.can_resign():
                self.session.concede()
            self.refresh()

        key = "concede_text" if len(self.session.names) == 2 else "concede_text_many"  # more: no single winner
        text = tr(lang, key + "_net" if self.session.networked else key, who=who)
        self.prompt = Prompt(tr(lang, "concede_title"), [text],
                             [(tr(lang, "concede_yes"), concede, False), (tr(lang, "cancel"), self._cancel, True)],
                             kind="concede")
        self._build_controls()

    def _leave(self) -> None:
        """Back to the lobby; a game still running is abandoned, so ask first."""
        if self.session.over:
            self._really_leave()
            return
        lang = self.app.lang
        if getattr(self.session, "watching", False):  # no seat: nothing is given up, we only stop watching
            title, text, yes = "leave_watch_title", "leave_watch_text", "leave_watch_yes"
        else:
            text = "leave_text_on" if self.session.can_step_out() else \
                "leave_text_net" if self.session.networked else "leave_text"
            title, yes = "leave_title", "leave_yes"
        self.prompt = Prompt(tr(lang, title), [tr(lang, text)],
                             [(tr(lang, yes), self._really_leave, False), (tr(lang, "cancel"), self._cancel, True)],
                             kind="leave")
        self._build_controls()

    def _really_leave(self) -> None:
        """Leave: at a networked table where three or more seats still play we leave it to them
        (net/session/leave.py: a stand-in plays our character) and go back to the lobby; else a
        running networked game is given up first with a signed resignation, and the end screen follows (the result and the transcript to save, then *Back to lobby*); a
        finished game or a local table goes straight back to the lobby."""
        self.prompt = None
        if self.session.can_step_out():  # three or more still play: they go on without us
            self.session.step_out()
            if self.on_leave is not None:
                self.on_leave()
            return
        if self.session.networked and not self.session.over and self.session.can_resign():
            self.session.concede()
            self.refresh()
            return
        if self.on_leave is not None:
            self.on_leave()

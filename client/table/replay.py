"""The replay viewer (issue 32 item 2): a saved game shown on the game's own table, position by
position, with the verifier's verdict.

A :class:`ReplaySession` is a :class:`~client.table.session.TableSession` over a
:class:`~net.replay.Replay` at one position: the game's own scene draws it like any table
(client/table/ui.py ``scene_for``), with no legal input. :class:`ReplayScene` holds that
scene and a bar of controls over it: one input forward or back, ten, the first and last
position, play at a chosen speed, and the seat whose side of the table is shown. A step
forward is shown live (the game's scene hears the input as it would at a table); any other
move builds the scene again at the new position, its log replayed without animation. The
bar says whether the record passed the check; a failed record stops at its failing step,
which the bar names.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from client import theme
from client.app import App
from client.i18n import tr
from client.scene import Scene
from client.text import draw_text
from client.widgets import Button, panel
from engine.core.game import Outcome
from engine.core.hidden import Knowledge
from engine.core.inputs import SealedPick, SeatInput
from net.replay import Replay
from net.seats import for_people

#: Playing speeds (inputs per second) the bar cycles through.
SPEEDS = (1, 2, 5, 10, 25)
#: The height of the bar of controls.
BAR_H = 44
#: The least width the status line takes beside the buttons (else it gets a line of its own).
STATUS_MIN_W = 260


class ReplaySession:
    """One position of a replay, seen from seat ``me``: a table nobody can act at."""

    proof = "replay"
    networked = False

    def __init__(self, replay: Replay, position: int, me: int = 0) -> None:
        self.replay = replay
        self.position = max(0, min(position, replay.steps))
        self.me = me
        self.names = replay.names
        self.game = replay.game
        self.problem = ""
        self.problem_seat: int | None = None
        self.cheat = False
        self.warnings: list[str] = []
        self.chat: list[tuple[int, str]] = []
        self.notices_dropped = 0
        self.catching_up = False
        self.listeners: list[Callable[[Any, Any, Any], None]] = []
        self.problem_listeners: list[Callable[[str], None]] = []
        self.change_listeners: list[Callable[[], None]] = []

    # -- what the scene reads --------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.replay.state_at(self.position)

    @property
    def knowledge(self) -> Knowledge:
        return Knowledge(self.me)  # the record holds no seat's secret: the public view

    @property
    def over(self) -> bool:
        return self.outcome() is not None

    @property
    def pending(self) -> Any:
        return self.game.pending(self.state)

    @property
    def moves(self) -> int:
        return self.position

    def outcome(self) -> Outcome | None:
        result: Outcome | None = self.game.outcome(self.state)
        return result

    @property
    def my_pick(self) -> SealedPick | None:
        return None

    def legal(self) -> list[SeatInput]:
        return []

    def peer_status(self, seat: int) -> str:
        return ""

    def table_note(self, lang: str) -> str:
        return tr(lang, "replay_note", step=self.position, steps=self.replay.steps)

    # -- moving through the record -----------------------------------------------------------
    def start(self) -> None:
        """Tell the scene every input up to the position, without animation (its log fills)."""
        self.catching_up = True
        try:
            for n in range(self.position):
                self._tell(n)
        finally:
            self.catching_up = False

    def forward(self) -> bool:
        """One input forward, told live; False at the end of the record."""
        if self.position >= self.replay.steps:
            return False
        self.position += 1
        self._tell(self.position - 1)
        return True

    def _tell(self, index: int) -> None:
        frame = self.replay.frames[index]
        before = self.replay.state_at(index)
        for listener in list(self.listeners):
            listener(before, frame.action, frame.state)

    # -- a table's controls, all off in a replay ---------------------------------------------
    def submit(self, chosen: SeatInput) -> None:
        raise ValueError("a replay takes no input")

    def stop(self) -> None:
        pass

    def leave(self) -> None:
        pass

    def silence(self) -> tuple[int, float, float] | None:
        return None

    def forfeit_seat(self) -> int | None:
        return None

    def claim_forfeit(self) -> None:
        pass

    def say(self, text: str) -> None:
        pass

    def can_resign(self) -> bool:
        return False

    def can_step_out(self) -> bool:
        return False

    def step_out(self) -> None:
        pass

    def concede(self) -> None:
        pass

    def audit(self) -> tuple[bool, str]:
        return self.replay.verdict.ok, for_people(str(self.replay.verdict))

    def early_end(self) -> tuple[str, int] | None:
        return None

    def save_transcript(self, folder: Path | None = None) -> Path:
        raise ValueError("a replay is already a saved record")


class ReplayScene(Scene):
    """A replay on the game's own table, with the bar of controls (see the module docstring)."""

    name = "replay"

    def __init__(self, app: App, replay: Replay, make_scene: Callable[[ReplaySession], Scene], *,
                 on_leave: Callable[[], None] | None = None, position: int = 0, me: int = 0) -> None:
        super().__init__(app)
        self.replay = replay
        self.make_scene = make_scene
        self.on_leave = on_leave
        self.me = me
        self.speed = 1
        self.playing = False
        self._next_at = 0.0
        self.buttons: list[Button] = []
        self.session, self.inner = self._build(position)
        self.layout()

    # -- the table shown ----------------------------------------------------------------------
    def _build(self, position: int) -> tuple[ReplaySession, Scene]:
        """The game's scene over a replay session at ``position`` (its log told without animation)."""
        session = ReplaySession(self.replay, position, self.me)
        inner = self.make_scene(session)
        inner.enter()
        return session, inner

    def _show(self, position: int) -> None:
        self.inner.leave()
        self.session, self.inner = self._build(position)
        self.layout()
        self.app.invalidate()

    @property
    def position(self) -> int:
        return self.session.position

    def go(self, position: int) -> None:
        """Show ``position`` (clamped to the record): one step forward live, anything else anew."""
        position = max(0, min(position, self.replay.steps))
        if position == self.position + 1:
            self.session.forward()
            self.layout()
            self.app.invalidate()
        elif position != self.position:
            self._show(position)
        if position >= self.replay.steps:
            self.playing = False

    def _view_from(self, seat: int) -> None:
        self.me = seat % len(self.replay.names)
        self._show(self.position)

    # -- the bar ------------------------------------------------------------------------------
    def bar_rect(self) -> pygame.Rect:
        """The controls' panel: where the game's table keeps room for them (its ``replay_area``,
        e.g. the Locke bar under the board), else a strip along the bottom of the window."""
        area = getattr(self.inner, "replay_area", None)
        if callable(area):
            rect = area()
            if isinstance(rect, pygame.Rect) and rect.width >= 200 and rect.height >= BAR_H:
                return rect
        w, h = self.app.screen.get_size()
        width = min(w - 16, 900)
        return pygame.Rect((w - width) // 2, h - BAR_H - 6, width, BAR_H)

    def layout(self) -> None:
        lang = self.app.lang
        bar = self.bar_rect()
        specs: list[tuple[str, Callable[[], None], str]] = [
            ("|<", lambda: self.go(0), "Home"), ("<<", lambda: self.go(self.position - 10), "PgUp"),
            ("<", lambda: self.go(self.position - 1), "←"),
            (tr(lang, "replay_pause") if self.playing else tr(lang, "replay_play"), self._toggle_play, "Space"),
            (">", lambda: self.go(self.position + 1), "→"), (">>", lambda: self.go(self.position + 10), "PgDn"),
            (">|", lambda: self.go(self.replay.steps), "End"),
            (f"x{self.speed}", self._faster, ""),
            (tr(lang, "replay_seat", n=self.me + 1), lambda: self._view_from(self.me + 1), "V"),
            (tr(lang, "replay_close"), self._close, "Esc"),
        ]
        widths = [44, 44, 44, 80, 44, 44, 44, 48, 110, 80]
        if getattr(self.inner, "seatless", False):  # a table that shows no seat's side (Locke): nothing to switch
            del specs[8], widths[8]
        x, y = bar.left + 8, bar.top + 6
        self.buttons = []
        for (label, action, key), width in zip(specs, widths):
            if x + width > bar.right - 8 and x > bar.left + 8:  # a narrow area: the rest on the next row
                x, y = bar.left + 8, y + BAR_H - 8
            self.buttons.append(Button(pygame.Rect(x, y, width, BAR_H - 12), label, action, size=13, payload=key))
            x += width + 4
        self.status_left, self.status_top = x + 6, y + 7
        if bar.right - 8 - self.status_left < STATUS_MIN_W and y + 2 * (BAR_H - 8) <= bar.bottom:
            self.status_left, self.status_top = bar.left + 8, y + BAR_H - 4  # its own line under the buttons
        bottom = max(max(b.rect.bottom for b in self.buttons), self.status_top + 18) + 6
        self.panel_rect = pygame.Rect(bar.left, bar.top, bar.width, min(bar.height, bottom - bar.top))

    def status_text(self) -> str:
        """Where we are and what the check said (the failing step named when it failed)."""
        lang, verdict = self.app.lang, self.replay.verdict
        where = tr(lang, "replay_position", step=self.position, steps=self.replay.steps)
        if verdict.ok:
            return f"{where} · {tr(lang, 'replay_verified')}"
        return f"{where} · {tr(lang, 'replay_failed', step=self.replay.steps, why=for_people(verdict.detail or verdict.reason))}"

    def _toggle_play(self) -> None:
        self.playing = not self.playing and self.position < self.replay.steps
        self._next_at = self.app.clock.seconds()
        self.layout()

    def _faster(self) -> None:
        self.speed = SPEEDS[(SPEEDS.index(self.speed) + 1) % len(SPEEDS)]
        self.layout()

    def _close(self) -> None:
        self.playing = False
        self.inner.leave()
        if self.on_leave is not None:
            self.on_leave()

    # -- scene protocol -------------------------------------------------------------------------
    def resized(self, size: tuple[int, int]) -> None:
        self.inner.resized(size)
        self.layout()

    def update(self, now: float) -> bool:
        moving = self.inner.update(now)
        if self.playing and now >= self._next_at:
            self.go(self.position + 1)
            self._next_at = now + 1.0 / self.speed
            self.layout()
        return moving or self.playing

    def handle(self, event: pygame.event.Event) -> None:
        if getattr(self.inner, "help", None) is not None or getattr(self.inner, "settings_panel", None) is not None:
            self.inner.handle(event)  # the table's help or settings is open: modal, as at a live table
            self.app.invalidate()
            return
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._side_click(event.pos):
            return
        keys = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_PAGEUP: -10, pygame.K_PAGEDOWN: 10}
        if event.type == pygame.KEYDOWN:
            if event.key in keys:
                self.go(self.position + keys[event.key])
                return
            if event.key == pygame.K_HOME:
                self.go(0)
                return
            if event.key == pygame.K_END:
                self.go(self.replay.steps)
                return
            if event.key == pygame.K_SPACE:
                self._toggle_play()
                return
            if event.key == pygame.K_v and not getattr(self.inner, "seatless", False):
                self._view_from(self.me + 1)
                return
            if event.key == pygame.K_ESCAPE:
                self._close()
                return
        for button in self.buttons:
            if button.handle(event):
                self.app.invalidate()
                return
        if event.type in (pygame.MOUSEWHEEL, pygame.MOUSEMOTION) or (
                event.type == pygame.KEYDOWN and event.key == pygame.K_F1):
            self.inner.handle(event)  # the log's scroll, hovering, the help: nothing that acts

    def _side_click(self, pos: tuple[int, int]) -> bool:
        """The table's own Lobby / Settings / Help buttons, which a replay shows: Lobby closes the
        replay, the others open the table's settings or help (a click on them did nothing)."""
        for button in getattr(self.inner, "side_buttons", []):
            if not button.rect.collidepoint(pos):
                continue
            if button.payload == "lobby":
                self._close()
                return True
            if button.payload in ("help", "settings"):
                button.on_click()
                self.app.invalidate()
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        self.inner.draw(surface)
        bar = self.panel_rect
        panel(surface, bar, fill=theme.PANEL, edge=theme.ACCENT if self.replay.verdict.ok else theme.BAD)
        for button in self.buttons:
            button.draw(surface)
        colour = theme.GOOD if self.replay.verdict.ok else theme.BAD
        draw_text(surface, self.status_text(), (self.status_left, self.status_top), 13, colour,
                  max_width=bar.right - 8 - self.status_left)


def open_replay(app: App, data: Any, on_leave: Callable[[], None] | None = None, *, position: int | None = None,
                me: int = 0) -> ReplayScene:
    """Show a decoded record (net.transcript.load_raw) on its game's table at ``position``
    (default: the last one); ReplayError (net/replay.py) when it cannot be replayed, ValueError
    when its game has no table in this client."""
    from client.table.ui import game_ui
    from net.replay import load_replay

    replay = load_replay(data)
    ui = game_ui(replay.entry.name)

    def make(session: ReplaySession) -> Scene:
        return ui.scene_for(app, session, None, None)

    scene = ReplayScene(app, replay, make, on_leave=on_leave,
                        position=replay.steps if position is None else position, me=me)
    app.switch(scene)
    return scene

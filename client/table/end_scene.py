"""The end screen of every game: who won and why, the audit result, save the transcript.

The audit replays every recorded input through a fresh engine and compares
each state hash (``TableSession.audit``: client/table/local.py on a local
table, the session's own end-of-game audit on a networked one). On a local
table the dice and shuffles came from this computer, which the screen says
plainly. A game words its end reason and its progress line itself (Rider:
``client.rider.play.end_words``); without them the screen shows the
engine's reason (seats renumbered for people; the table's own endings, a forfeit, a
resignation or a concession, in words: :func:`table_reason`) and the number of moves.

:func:`show_end` is the one hand-over from a finished table scene to this
screen, which every game's UI calls from its scene's end callback.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pygame

from client import theme
from client.app import App
from client.i18n import tr
from client.table.words import audit_words, player_label
from client.scene import Scene
from client.text import draw_text, draw_wrapped
from client.widgets import Button, panel
from engine.core.game import Outcome
from net.seats import for_people
from net.session.leave import TOO_FEW

if TYPE_CHECKING:
    from client.table.session import TableSession


def headline(outcome: Outcome | None, me: int, names: Sequence[str], lang: str) -> tuple[str, bool]:
    """The big line of the end screen, and whether it is good news for ``me``.

    Games that judge every seat (several winners, grades) say how *we* did
    and who else won; one-winner games say who won, or that it was a draw.
    """
    if outcome is None or outcome.is_draw:
        return tr(lang, "draw"), False
    winners = outcome.winners
    mine = outcome.result(me)
    if mine is not None and mine.grade is not None:
        key = "graded_win" if mine.won else "graded_loss"
        return tr(lang, key, grade=mine.grade), mine.won
    if me in winners and len(winners) == 1:
        return tr(lang, "winner_you"), True
    if not winners:
        return tr(lang, "nobody_won"), False
    who = tr(lang, "list_sep").join(player_label(w, names, me, lang) for w in winners)
    return tr(lang, "winner_other", who=who), me in winners


def others_line(outcome: Outcome | None, me: int, names: Sequence[str], lang: str) -> str:
    """Who else won, with grades, when the game judged every seat ("" otherwise)."""
    if outcome is None or not outcome.seats:
        return ""
    parts = [tr(lang, "seat_grade", who=player_label(r.seat, names, me, lang), grade=r.grade) if r.grade
             else player_label(r.seat, names, me, lang) for r in outcome.seats if r.won]
    return tr(lang, "winners_list", who=tr(lang, "list_sep").join(parts)) if parts else tr(lang, "nobody_won")


#: The table's own endings of any game (reasons the table layer writes: net/session/deadlines.py,
#: resign.py, leave.py, abandon.py, conviction.py and the local Concede), as (pattern, catalogue key).
#: A pattern whose group 1 is a seat index words it as ``who``; the others need no seat.
TABLE_ENDINGS = (
    (r"seat (\d+) forfeited", "reason_forfeit"),
    (r"seat (\d+) resigned", "reason_resigned"),
    (r"seat (\d+) conceded", "reason_conceded"),
    (r"seat (\d+) was convicted of cheating", "reason_convicted"),
    (r"a seat resigned at step \d+", "reason_resigned_many"),
    (r"every seat that could win resigned", "reason_all_resigned"),
    (re.escape(TOO_FEW), "reason_too_few"),
    (r"abandoned at step \d+", "reason_abandoned"),
)


def table_reason(reason: str, names: Sequence[str], me: int, lang: str) -> str | None:
    """A game ended by the table rather than by its rules (a forfeit, a signed resignation, a
    local concession, seats leaving, an abandonment, a conviction), in ``lang``; None for a
    game's own ending."""
    for pattern, key in TABLE_ENDINGS:
        found = re.match(pattern, reason)
        if found is None:
            continue
        if not found.groups():
            return tr(lang, key)
        if int(found.group(1)) < len(names):
            return tr(lang, key, who=player_label(int(found.group(1)), names, me, lang))
    return None


@dataclasses.dataclass(frozen=True)
class EndWords:
    """A game's own words on the end screen: the end reason, and the progress line under it."""

    reason: Callable[[Outcome, str], str]
    progress: Callable[[str], str]


class EndScene(Scene):
    name = "end"

    def __init__(self, app: App, session: TableSession[Any], *, backdrop: pygame.Surface | None = None,
                 on_lobby: Callable[[], None] | None = None, on_again: Callable[[], None] | None = None,
                 board: Scene | None = None, reason: Callable[[Outcome, str], str] | None = None,
                 progress: Callable[[str], str] | None = None) -> None:
        """``reason(outcome, lang)`` words the end reason, ``progress(lang)`` the line under it
        (how long the game went); both default to words every game has."""
        super().__init__(app)
        self.session = session
        self.reason = reason or (lambda outcome, lang: table_reason(outcome.reason, session.names, session.me, lang)
                                 or for_people(outcome.reason))
        self.progress = progress or (lambda lang: tr(lang, "moves", n=session.moves))
        self.backdrop = backdrop
        #: The final table, drawn live (card previews on hover) while the dialog is dismissed.
        self.board = board
        self.dismissed = False
        self.on_lobby = on_lobby
        self.on_again = on_again
        self.audit_ok, self.audit_detail = session.audit()
        self.saved: str = ""
        self.save_error: str = ""
        self.buttons: list[Button] = []
        self.box = pygame.Rect(0, 0, 10, 10)
        #: Why *Play again* is off, a catalogue key ("": it is on, or off for no reason worth a line).
        self.again_off = ""

    def resized(self, size: tuple[int, int]) -> None:
        w, h = size
        lang = self.app.lang
        self.box = pygame.Rect(0, 0, min(760, w - 80), min(470, h - 80))
        self.box.center = (w // 2, h // 2)
        b = self.box
        bw = (b.width - 80) // 3
        y = b.bottom - 70
        self.save_button = Button(pygame.Rect(b.left + 20, y, bw, 48), tr(lang, "save_transcript"), self.save, primary=True,
                                  hotkey="S")
        self.again_button = Button(pygame.Rect(b.left + 40 + bw, y, bw, 48), tr(lang, "rematch"), self._again, hotkey="R",
                                   enabled=self.on_again is not None)  # a networked rematch needs a new table
        self.lobby_button = Button(pygame.Rect(b.left + 60 + 2 * bw, y, bw, 48), tr(lang, "back_lobby"), self._lobby,
                                   hotkey="Esc")
        self.board_button = Button(pygame.Rect(b.right - 190, b.top + 14, 176, 34), tr(lang, "end_see_board"),
                                   self.toggle_board, hotkey="B", size=14, payload="board")
        self.result_button = Button(pygame.Rect(w // 2 - 110, 12, 220, 40), tr(lang, "end_show_result"),
                                    self.toggle_board, primary=True, hotkey="B", size=15, payload="result")
        self.replay_button = Button(pygame.Rect(b.right - 190 - 130, b.top + 14, 120, 34), tr(lang, "end_replay"),
                                    self.replay, hotkey="P", size=14, payload="replay")
        self.buttons = [self.save_button, self.again_button, self.lobby_button, self.board_button, self.replay_button]
        if self.board is not None:
            self.board.resized(size)

    def toggle_board(self) -> None:
        """Put the dialog away to look at the final board, or bring it back."""
        self.dismissed = not self.dismissed
        self.app.invalidate()

    def save(self) -> None:
        try:
            self.saved = str(self.session.save_transcript())
            self.save_error = ""
        except OSError as exc:
            self.save_error = str(exc)
        self.app.invalidate()

    def replay(self) -> None:
        """Look back at the game just played, input by input (client/table/replay.py): its record is
        saved first (as *Save transcript* does), then replayed under the verifier; Close comes back here."""
        from client.table.replay import open_replay
        from net.replay import ReplayError
        from net.transcript import load_raw

        if not self.saved:
            self.save()
        if not self.saved:
            return
        try:
            open_replay(self.app, load_raw(self.saved), on_leave=lambda: self.app.switch(self), me=self.session.me)
        except (ReplayError, ValueError, OSError) as exc:
            self.save_error = str(exc)
            self.app.invalidate()

    def _again(self) -> None:
        if self.on_again is not None:
            self.on_again()

    def _lobby(self) -> None:
        if self.on_lobby is not None:
            self.on_lobby()

    def handle(self, event: pygame.event.Event) -> None:
        if self.dismissed:  # the final board: hover previews work; B, Esc, Enter or the button bring the result back
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_b, pygame.K_ESCAPE, pygame.K_RETURN):
                self.toggle_board()
            elif self.result_button.handle(event):
                return
            elif event.type == pygame.MOUSEMOTION and self.board is not None:
                self.board.handle(event)
            return
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_b:
                self.toggle_board()
                return
            if event.key == pygame.K_s:
                self.save()
            elif event.key == pygame.K_p:
                self.replay()
            elif event.key == pygame.K_r:
                self._again()
            elif event.key == pygame.K_ESCAPE:
                self._lobby()
            return
        for b in self.buttons:
            b.handle(event)

    def draw(self, surface: pygame.Surface) -> None:
        lang = self.app.lang
        if self.board is not None:
            self.board.draw(surface)  # the final position, as it stands
        elif self.backdrop is not None and self.backdrop.get_size() == surface.get_size():
            surface.blit(self.backdrop, (0, 0))
        else:
            surface.fill(theme.BG)
        if self.dismissed:
            self.result_button.draw(surface)
            return
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        b = self.box
        panel(surface, b, fill=(30, 36, 46), edge=theme.ACCENT, radius=16)
        outcome = self.session.outcome()
        draw_text(surface, tr(lang, "game_over"), (b.centerx, b.top + 22), 20, theme.TEXT_DIM, anchor="midtop")
        title, good = headline(outcome, self.session.me, self.session.names, lang)
        colour = theme.ACCENT if good else theme.TEXT
        draw_text(surface, title, (b.centerx, b.top + 52), 40, colour, bold=True, anchor="midtop")
        y = b.top + 118
        others = others_line(outcome, self.session.me, self.session.names, lang)
        if others:
            y += draw_wrapped(surface, others, pygame.Rect(b.left + 30, y, b.width - 60, 40), 16, theme.TEXT,
                              centre=True) + 4
        if outcome is not None:
            why = self.reason(outcome, lang)
            y += draw_wrapped(surface, tr(lang, "reason", reason=why), pygame.Rect(b.left + 30, y, b.width - 60, 50),
                              16, theme.TEXT, centre=True) + 6
        draw_text(surface, self.progress(lang), (b.centerx, y), 15, theme.TEXT_DIM, anchor="midtop")
        y += 34
        if self.audit_ok:
            text, colour = tr(lang, "audit_ok", hash=self.audit_detail), theme.GOOD
        elif (early := self.session.early_end()) is not None:  # a resignation or forfeit ends it before the audit
            who = player_label(early[1], self.session.names, self.session.me, lang)
            text, colour = tr(lang, f"audit_early_{early[0]}", who=who), theme.WARN
        elif self.audit_detail.startswith("not audited"):
            text, colour = tr(lang, "audit_skipped", error=self.audit_detail), theme.WARN
        else:
            text, colour = tr(lang, "audit_bad", error=self.audit_detail), theme.BAD
        y += draw_wrapped(surface, text, pygame.Rect(b.left + 30, y, b.width - 60, 60), 16, colour, centre=True) + 4
        y += draw_wrapped(surface, audit_words(self.session, lang), pygame.Rect(b.left + 30, y, b.width - 60, 60), 14, theme.WARN,
                          centre=True) + 8
        if self.saved:
            draw_wrapped(surface, tr(lang, "saved_to", path=self.saved), pygame.Rect(b.left + 30, y, b.width - 60, 50), 14,
                         theme.GOOD, centre=True)
        elif self.save_error:
            draw_wrapped(surface, tr(lang, "save_failed", error=self.save_error), pygame.Rect(b.left + 30, y, b.width - 60, 50),
                         14, theme.BAD, centre=True)
        for button in self.buttons:
            button.draw(surface)
        if self.on_again is None and self.again_off:
            draw_wrapped(surface, tr(lang, self.again_off), pygame.Rect(b.left + 20, b.bottom - 18, b.width - 40, 18),
                         12, theme.TEXT_DIM, centre=True)


def show_end(app: App, scene: Scene, session: TableSession[Any], *, on_lobby: Callable[[], None] | None = None,
             on_again: Callable[[], None] | None = None, board: bool = False,
             words: EndWords | None = None, again_off: str = "") -> EndScene:
    """Hand a finished table over to the end screen: the table as it ended, drawn once, is
    the backdrop (``board``: the screen can also show that scene again to look at the
    board); ``words`` are the game's own, if it has them; ``again_off`` is the catalogue key
    of why *Play again* is off (client.table.net_play.rematch_off), shown beside it."""
    backdrop = pygame.Surface(app.screen.get_size())
    scene.draw(backdrop)
    end = EndScene(app, session, backdrop=backdrop, on_lobby=on_lobby, on_again=on_again,
                   board=scene if board else None, reason=words.reason if words else None,
                   progress=words.progress if words else None)
    end.again_off = again_off
    app.switch(end)
    return end

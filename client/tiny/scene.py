"""Tiny's table: the table layer's scene (client/table/scene.py) with N seats drawn as text.

Tiny proves the table layer carries a game that is not Rider: the log, the
chat of a networked table, the notices, the settings and help overlays, the
side panel's buttons (lobby, settings, help, concede), the table's own
questions (leave, concede, claim a forfeit) and the hand-over to the end
screen are all :class:`~client.table.scene.TableScene`'s. This module adds
only what is Tiny's: one button per legal input of our seat (so the scene
cannot offer an illegal input), the words of each applied input for the
log, the help pages, and the drawing (seats around the table by the table
layer's N-seat layout, client/table/seating.py, ours at the bottom; each
seat with its status from the session, coloured by client/table/status.py).

The session is either adapter of client/table/session.py: a local table
(:class:`~client.table.local.LocalSession`, bots in every other seat, paced
on the reactor clock) or our seat of a networked one
(:class:`~client.table.net_session.NetSession`). Text is English and
Japanese through the client catalogue (``tiny_*`` keys); seats are numbered
from 1 for the player (net/seats.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from client import theme
from client.app import App
from client.help import HelpPage
from client.i18n import tr
from client.table.controls import draw_notice, notice_rect
from client.table.log import LogEntry
from client.table.log_panel import draw_chat, draw_log
from client.table.prompts import draw_prompt
from client.table.scene import TableScene
from client.table.seating import Ring, seat_ring
from client.table.session import TableSession
from client.table.status import ALARMS, status_colour
from client.table.words import forfeit_key, player_label
from client.text import draw_text, draw_wrapped, line_height, render, wrap
from client.widgets import Button, panel
from engine.core.actions import Action
from engine.core.pending import (
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Decision,
    DiceRolled,
    SealedChoice,
    SealedChoicesRevealed,
)
from engine.tiny.game import Play, TinyState, card_number, score_parts
from engine.core.inputs import SealedPick, SeatInput
from net.seats import seat_number

#: The side panel's width (log, chat, the table's buttons); the board takes the rest.
SIDE_W = 300
#: The bar's height under the board (what the table waits for, our inputs, a forfeit claim).
BAR_H = 120
#: Text sizes at the reference window (1280x800): a seat's name, facts and status; the middle's
#: title and lines; the bar's status line. Larger windows scale them up (TinyScene.text_scale).
NAME_SIZE, FACTS_SIZE, STATUS_SIZE = 14, 13, 12
TITLE_SIZE, LINE_SIZE, BAR_SIZE = 20, 15, 15
#: The text size of an input button's label (one button per legal input, under the board).
INPUT_SIZE = 20
#: The most the text scales up (a 4K window still shows a table, not a poster).
MAX_SCALE = 1.6
#: The smallest size the middle's lines shrink to before a line would be cut.
MIN_LINE_SIZE = 11
#: Padding inside the middle box (each side, x and y).
MIDDLE_PAD = (12, 10)
#: The help overlay's pages: Tiny's rules in a few paragraphs, and the table's controls.
HELP = (HelpPage("help_rules", paragraphs=("tiny_help_goal", "tiny_help_flow", "tiny_help_fair")),
        HelpPage("help_keys", paragraphs=("tiny_help_keys",)))


class TinyScene(TableScene[TinyState]):
    """Our seat of a Tiny table of any size (see the module docstring)."""

    name = "tiny"
    opening_hint = "tiny_hint"

    def __init__(self, app: App, session: TableSession[TinyState], *, on_leave: Callable[[], None] | None = None,
                 on_end: Callable[[TinyScene], None] | None = None) -> None:
        super().__init__(app, session, on_leave=on_leave, on_end=on_end)
        #: One button per legal input of our seat (and a forfeit claim while one is open).
        self.buttons: list[Button] = []
        self.ring: Ring | None = None

    # -- what a game's scene adds to the table's ---------------------------------------------
    def help_pages(self) -> Any:
        return list(HELP)

    def prompt_area(self) -> pygame.Rect:
        return self.board()

    def turn_of(self, state: TinyState) -> Any:
        return state.queue[0] if state.queue else None

    def describe_input(self, pre: TinyState, action: Action, post: TinyState) -> Callable[[str], list[LogEntry]]:
        names, me, proof = self.session.names, self.me, self.session.proof

        def words(lang: str) -> list[LogEntry]:
            if isinstance(action, Play):
                return [LogEntry(tr(lang, "tiny_log_play", who=player_label(action.seat, names, me, lang),
                                    card=card_number(action.card)))]
            if isinstance(action, SealedChoicesRevealed):
                guesses = ", ".join(f"{seat_number(s)}: {tr(lang, f'tiny_guessed_{c}')}" for s, c in enumerate(action.choices))
                return [LogEntry(tr(lang, "tiny_log_guesses", guesses=guesses))]
            if isinstance(action, DiceRolled):
                return [LogEntry(tr(lang, "tiny_dice", faces=" + ".join(map(str, action.faces)), total=sum(action.faces)),
                                 proof=proof)]
            if isinstance(action, CardsRevealed):
                return [LogEntry(tr(lang, "tiny_revealed", cards=", ".join(str(card_number(c)) for c in action.cards)),
                                 proof=proof)]
            if isinstance(action, CardsShuffled):
                return [LogEntry(tr(lang, "tiny_log_shuffled"), proof=proof)]
            if isinstance(action, CardsDealt):
                seat = pre.queue[0][1] if pre.queue else -1
                return [LogEntry(tr(lang, "tiny_log_dealt", who=player_label(seat, names, me, lang),
                                    n=len(action.handles)), proof=proof)]
            if isinstance(action, CardsShownTo):
                seat = 1 if pre.queue and pre.queue[0][0] == "show" else pre.seats - 1
                return [LogEntry(tr(lang, "tiny_log_shown", who=player_label(seat, names, me, lang),
                                    n=len(action.handles)), proof=proof)]
            return [LogEntry(action.KIND)]

        return words

    def _build_controls(self) -> None:
        """The input buttons (one per legal input), the forfeit claim, the side panel and a prompt."""
        lang = self.app.lang
        self.ring = self.seat_layout()
        bar = self.bar()
        self.buttons = []
        x = bar.left + 16
        blocked = self.prompt is not None or self.help is not None or self.settings_panel is not None
        for action in ([] if blocked else self.legal):
            label = self._label(action)
            # as wide as its words at the button's size ("Guess low (6 or less)" shrank in a 160 px button)
            width = max(160, render(label, INPUT_SIZE, theme.TEXT).get_width() + 28)
            self.buttons.append(Button(pygame.Rect(x, bar.bottom - 60, width, 48), label,
                                       self._chooser(action), payload=action, size=INPUT_SIZE))
            x += width + 12
        if not blocked and not self.legal and self.session.forfeit_seat() is not None:
            self.buttons.append(Button(pygame.Rect(bar.right - 236, bar.bottom - 60, 220, 48),
                                       tr(lang, forfeit_key("claim_forfeit", len(self.session.names))), self._claim_forfeit, payload="forfeit"))
        self.side_buttons = self.side_panel_buttons(self.side())
        if self.prompt is not None:
            self._layout_prompt(self.prompt)
        self.app.invalidate()

    # -- what the table shows ---------------------------------------------------------
    @property
    def state(self) -> TinyState:
        return self.session.state

    @property
    def leave_button(self) -> Button:
        """The side panel's Lobby button (the table asks first while the game runs)."""
        return next(b for b in self.side_buttons if b.payload == "lobby")

    def board(self) -> pygame.Rect:
        """Where the seats and the middle of the table are drawn (left of the side panel, above the bar)."""
        w, h = self.app.screen.get_size()
        return pygame.Rect(16, 16, w - SIDE_W - 32, h - BAR_H - 24)

    def bar(self) -> pygame.Rect:
        w, h = self.app.screen.get_size()
        return pygame.Rect(16, h - BAR_H, w - SIDE_W - 32, BAR_H - 8)

    def side(self) -> pygame.Rect:
        w, h = self.app.screen.get_size()
        return pygame.Rect(w - SIDE_W, 0, SIDE_W, h)

    def text_scale(self) -> float:
        """How much larger than at 1280x800 the table's text is drawn: never smaller (the
        smallest window keeps the reference sizes), up to :data:`MAX_SCALE` on a large one."""
        w, h = self.app.screen.get_size()
        return max(1.0, min(MAX_SCALE, w / 1280, h / 800))

    def sized(self, base: int) -> int:
        """A reference text size at this window's scale."""
        return round(base * self.text_scale())

    def seat_layout(self) -> Ring:
        """The seats around the board, each only as tall as its text (name, two lines of facts,
        status), so the middle gets the rest of the board."""
        tall = 8 + line_height(self.sized(NAME_SIZE)) + 2 * line_height(self.sized(FACTS_SIZE)) \
            + line_height(self.sized(STATUS_SIZE)) + 8
        return seat_ring(self.state.seats, self.board(), self.me, largest=(round(320 * self.text_scale()), tall))

    def middle_text(self, middle: pygame.Rect) -> list[tuple[str, int, pygame.Rect]]:
        """(line, size, where) of each middle line, at the window's scale, shrunk together
        until every line fits the box whole (down to :data:`MIN_LINE_SIZE`). Tests read it."""
        lines = [*self.title_lines(), *self.middle_lines()]
        box = middle.inflate(-2 * MIDDLE_PAD[0], -2 * MIDDLE_PAD[1])
        title, body = self.sized(TITLE_SIZE), self.sized(LINE_SIZE)
        while True:
            sizes = [title if i == 0 else body for i in range(len(lines))]
            heights = [len(wrap(line, size, box.width)) * line_height(size) for line, size in zip(lines, sizes)]
            if sum(heights) <= box.height or body <= MIN_LINE_SIZE:
                break
            title, body = max(body - 1, title - 1), body - 1
        out, y = [], box.top
        for line, size, height in zip(lines, sizes, heights):
            out.append((line, size, pygame.Rect(box.left, y, box.width, height)))
            y += height
        return out

    def _label(self, action: SeatInput) -> str:
        lang = self.app.lang
        if isinstance(action, SealedPick):
            return tr(lang, f"tiny_guess_{action.choice}")
        return tr(lang, "tiny_play", card=card_number(action.card) if isinstance(action, Play) else "?")

    def _chooser(self, action: SeatInput) -> Callable[[], None]:
        def choose() -> None:
            self.notice = None
            self.session.submit(action)  # applied (local) or signed and sent (networked); shown as it lands
            self.refresh()

        return choose

    def lines(self) -> list[str]:
        """What the table shows, top to bottom (tests read it too)."""
        seats = [self.seat_line(seat) for seat in range(self.state.seats)]
        return [*self.title_lines(), *seats, *self.middle_lines()]

    def title_lines(self) -> list[str]:
        """The table's title, the deck and our own hand (the middle's first lines)."""
        lang, state = self.app.lang, self.state
        know = self.session.knowledge
        head = [tr(lang, "tiny_title", seats=state.seats), tr(lang, "tiny_deck", n=len(state.deck))]
        if getattr(self.session, "watching", False):  # a watcher holds no hand (net/peer/watching.py)
            return [*head, tr(lang, "tiny_watching")]
        mine = [str(card_number(c)) for h in state.hands[self.me] if (c := know.card(h)) is not None]
        return [*head, tr(lang, "tiny_hand", cards=", ".join(mine) or "-")]

    def seat_line(self, seat: int) -> str:
        """What seat ``seat`` shows at its place at the table: who sits there, then its facts."""
        who = player_label(seat, self.session.names, self.me, self.app.lang)
        return f"{who}: {self.seat_facts(seat)}"

    def seat_facts(self, seat: int) -> str:
        """A seat's cards in hand, the card it played and its guess (once the guesses are open)."""
        lang, state = self.app.lang, self.state
        played = str(card_number(state.played[seat])) if state.played[seat] else "-"
        guess = tr(lang, f"tiny_guessed_{state.guesses[seat]}") if state.guesses else "?"
        facts = tr(lang, "tiny_seat", hand=len(state.hands[seat]), played=played, guess=guess)
        if self.session.outcome() is not None and all(state.played) and state.dice:  # how its total was made
            card, dice, bonus = score_parts(state)[seat]
            facts += " · " + tr(lang, "tiny_total", card=card, dice=dice, bonus=bonus, total=card + dice + bonus)
        return facts

    def middle_lines(self) -> list[str]:
        """The shared things in the middle of the table: dice, revealed cards, the end or our turn."""
        lang, state = self.app.lang, self.state
        out: list[str] = []
        if state.dice:
            out.append(tr(lang, "tiny_dice", faces=" + ".join(map(str, state.dice)), total=sum(state.dice)))
        if state.revealed:
            out.append(tr(lang, "tiny_revealed", cards=", ".join(str(card_number(c)) for c in state.revealed)))
        outcome = self.session.outcome()
        if outcome is not None:
            if outcome.winner == self.me:
                out.append(tr(lang, "tiny_won"))
            elif outcome.winner is None:
                out.append(tr(lang, "draw"))
            else:
                out.append(tr(lang, "tiny_lost", who=player_label(outcome.winner, self.session.names, self.me, lang)))
        elif self.legal:
            out.append(tr(lang, "tiny_your_turn"))
        return out

    def status_line(self) -> tuple[str, theme.Colour]:
        """The bar's line: a stopped table, our move, or whom and what the table waits for."""
        lang, session = self.app.lang, self.session
        if session.problem:
            return self._problem_text(lang), theme.BAD
        if self.legal:
            return tr(lang, "tiny_your_turn"), theme.ACCENT
        note = session.table_note(lang)
        if note:
            alarm = any(session.peer_status(s) in ALARMS for s in self.others()) or session.silence() is not None
            return note, theme.WARN if alarm else theme.TEXT
        pending = session.pending
        if pending is None:
            return tr(lang, "wait_over"), theme.TEXT_DIM
        if isinstance(pending, Decision):
            who = player_label(pending.seat, session.names, self.me, lang)
            return tr(lang, "waiting_for", who=who, what=tr(lang, "tiny_wait_play")), theme.TEXT
        if isinstance(pending, SealedChoice):
            return tr(lang, "waiting_system", what=tr(lang, "tiny_wait_guess")), theme.TEXT
        return tr(lang, "waiting_system", what=tr(lang, "tiny_wait_table")), theme.TEXT_DIM

    # -- scene protocol ---------------------------------------------------------------
    def resized(self, size: tuple[int, int]) -> None:
        self.overlays_resized(size)
        self.refresh()

    def handle(self, event: pygame.event.Event) -> None:
        if self.handle_overlays(event):
            return
        if event.type == pygame.MOUSEWHEEL:
            self.log_scroll = max(0, self.log_scroll + event.y)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.prompt is not None:
            self._cancel()
            self._build_controls()
            return
        prompt = self.prompt.buttons if self.prompt is not None else []
        chat = self.chat_buttons if self.prompt is None else []
        for button in [*prompt, *self.side_buttons, *chat, *([] if self.prompt is not None else self.buttons)]:
            if button.handle(event):
                self._build_controls()
                return

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG_FELT)
        lang, state = self.app.lang, self.state
        ring = self.ring or self.seat_layout()
        name_size, facts_size, status_size = (self.sized(s) for s in (NAME_SIZE, FACTS_SIZE, STATUS_SIZE))
        for seat, rect in enumerate(ring.seats):
            active = bool(state.queue) and state.queue[0] == ("play", seat)
            panel(surface, rect, edge=theme.ACCENT if seat == self.me or active else theme.PANEL_EDGE)
            inner = rect.inflate(-12, -8)
            key = self.session.peer_status(seat)
            draw_text(surface, player_label(seat, self.session.names, self.me, lang), inner.topleft, name_size,
                      theme.TEXT, bold=True, max_width=inner.width)
            status_h = line_height(status_size)
            draw_wrapped(surface, self.seat_facts(seat),
                         pygame.Rect(inner.left, inner.top + line_height(name_size), inner.width,
                                     inner.height - line_height(name_size) - status_h), facts_size, theme.TEXT)
            pygame.draw.circle(surface, status_colour(key), (inner.left + 4, inner.bottom - status_h // 2), 4)
            draw_text(surface, tr(lang, key), (inner.left + 12, inner.bottom - status_h), status_size,
                      theme.TEXT_DIM, max_width=inner.width - 12)
        middle = ring.middle
        panel(surface, middle)
        for i, (line, size, where) in enumerate(self.middle_text(middle)):
            if where.bottom > middle.bottom:
                break  # only below the smallest size on a crowded table: the lines above stay whole
            draw_wrapped(surface, line, where, size, theme.ACCENT if i == 0 else theme.TEXT)
        bar = self.bar()
        panel(surface, bar)
        text, colour = self.status_line()
        draw_wrapped(surface, text, pygame.Rect(bar.left + 16, bar.top + 8, bar.width - 32, 40), BAR_SIZE, colour)
        for button in self.buttons:
            button.draw(surface)
        self._draw_side(surface)
        if self.notice is not None:
            text, details, _until = self.notice
            draw_notice(surface, notice_rect(self.board(), bar, text, details), text, details)
        if self.prompt is not None:
            draw_prompt(surface, self.prompt, lambda card, size: pygame.Surface(size))
        if self.help is not None:
            self.help.draw(surface)
        if self.settings_panel is not None:
            self.settings_panel.draw(surface)

    def _draw_side(self, surface: pygame.Surface) -> None:
        side = self.side()
        panel(surface, side.inflate(-8, -8))
        x = side.left + 16
        draw_text(surface, tr(self.app.lang, "log"), (x, 14), 16, theme.TEXT_DIM, bold=True)
        chat = self.chat_rect()
        bottom = chat.top - 8 if chat is not None else side.bottom - 70
        draw_log(self, surface, pygame.Rect(x, 40, side.width - 32, bottom - 40))
        draw_chat(self, surface)
        for button in self.side_buttons:
            button.draw(surface)

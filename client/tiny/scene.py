"""A plain table for Tiny: the seats around the table, one button per legal input of seat 0.

It drives a trusted :class:`~net.local_table.LocalTable` (bots play every
other seat); the buttons are made from ``LocalTable.legal(0)``, so the scene
cannot offer an illegal input. Text is English and Japanese through the
client catalogue (``tiny_*`` keys). The seats sit around the table by the
table layer's N-seat layout (client/table/seating.py), ours at the bottom;
seats are numbered from 1 for the player (net/seats.py).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

import pygame

from client import theme
from client.i18n import tr
from client.scene import Scene
from client.table.seating import Ring, seat_ring
from client.text import draw_wrapped, line_height
from client.widgets import Button, panel
from engine.core.actions import Action
from net.bots.base import SealedPick
from net.local_table import LocalTable
from net.seats import seat_number

ME = 0


class TinyScene(Scene):
    name = "tiny"

    def __init__(self, app: Any, entry: Any, on_leave: Callable[[], None], *, seed: int | None = None,
                 seats: int | None = None) -> None:
        super().__init__(app)
        self.entry = entry
        self.on_leave = on_leave
        self.seed = secrets.randbits(31) if seed is None else seed
        seats = entry.default_seats if seats is None else seats
        setup = entry.local(entry.local_record(seats, None, None), None)
        agents: list[Any] = [None] + [entry.bot(entry.default_bots[0], random.Random(self.seed * 31 + s))
                                      for s in range(1, seats)]
        self.table = LocalTable(setup.game, setup.state, setup.knowledge, agents, self.seed)
        self.buttons: list[Button] = []
        self.ring: Ring | None = None
        self._advance()

    # -- driving --------------------------------------------------------------------
    def _advance(self) -> None:
        """Let the bots and the table play until seat 0 must act or the game is over."""
        self.table.run()
        self._layout()
        self.app.invalidate()

    def legal(self) -> list[Action]:
        return [] if self.table.pending is None else self.table.legal(ME)

    def _chooser(self, action: Action) -> Callable[[], None]:
        return lambda: self._choose(action)

    def _choose(self, action: Action) -> None:
        if isinstance(action, SealedPick):
            self.table.submit_sealed(ME, action.choice)
        else:
            self.table.submit(action)
        self._advance()

    def _label(self, action: Action) -> str:
        lang = self.app.lang
        if isinstance(action, SealedPick):
            return tr(lang, f"tiny_guess_{action.choice}")
        card = getattr(action, "card", "?")
        return tr(lang, "tiny_play", card=card)

    # -- scene protocol ---------------------------------------------------------------
    def board(self) -> pygame.Rect:
        """Where the seats and the middle of the table are drawn (above the buttons)."""
        w, h = self.app.screen.get_size()
        return pygame.Rect(24, 24, w - 48, h - 190)

    def _layout(self) -> None:
        w, h = self.app.screen.get_size()
        self.ring = seat_ring(self.table.state.seats, self.board(), ME)
        self.buttons = []
        x = 40
        for action in self.legal():
            button = Button(pygame.Rect(x, h - 140, 160, 48), self._label(action), self._chooser(action),
                            payload=action)
            self.buttons.append(button)
            x += 176
        self.leave_button = Button(pygame.Rect(w - 220, h - 80, 180, 48), tr(self.app.lang, "tiny_leave"),
                                   self.on_leave, primary=self.table.pending is None)
        self.buttons.append(self.leave_button)

    def resized(self, size: tuple[int, int]) -> None:
        self._layout()

    def handle(self, event: pygame.event.Event) -> None:
        for button in list(self.buttons):
            if button.handle(event):
                return

    def lines(self) -> list[str]:
        """What the table shows, top to bottom (tests read it too)."""
        seats = [self.seat_line(seat) for seat in range(self.table.state.seats)]
        return [*self.title_lines(), *seats, *self.middle_lines()]

    def title_lines(self) -> list[str]:
        """The table's title, the deck and our own hand (the middle's first lines)."""
        lang, state = self.app.lang, self.table.state
        mine = [c for h in state.hands[ME] if (c := self.table.knowledge[ME].card(h)) is not None]
        return [tr(lang, "tiny_title", seats=state.seats), tr(lang, "tiny_deck", n=len(state.deck)),
                tr(lang, "tiny_hand", cards=", ".join(mine) or "-")]

    def seat_line(self, seat: int) -> str:
        """What seat ``seat`` shows at its place at the table."""
        lang, state = self.app.lang, self.table.state
        who = tr(lang, "tiny_you") if seat == ME else tr(lang, "tiny_bot", n=seat_number(seat))
        played = state.played[seat] or "-"
        guess = state.guesses[seat] if state.guesses else "?"
        return tr(lang, "tiny_seat", who=who, hand=len(state.hands[seat]), played=played, guess=guess)

    def middle_lines(self) -> list[str]:
        """The shared things in the middle of the table: dice, revealed cards, the end or our turn."""
        lang, state = self.app.lang, self.table.state
        out: list[str] = []
        if state.dice:
            out.append(tr(lang, "tiny_dice", faces=" + ".join(map(str, state.dice)), total=sum(state.dice)))
        if state.revealed:
            out.append(tr(lang, "tiny_revealed", cards=", ".join(state.revealed)))
        outcome = self.table.outcome()
        if outcome is not None:
            if outcome.winner == ME:
                out.append(tr(lang, "tiny_won"))
            elif outcome.winner is None:
                out.append(tr(lang, "draw"))
            else:
                out.append(tr(lang, "tiny_lost", n=seat_number(outcome.winner)))
        elif self.legal():
            out.append(tr(lang, "tiny_your_turn"))
        return out

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG_FELT)
        ring = self.ring
        assert ring is not None
        state = self.table.state
        for seat, rect in enumerate(ring.seats):
            active = bool(state.queue) and state.queue[0] == ("play", seat)
            panel(surface, rect, edge=theme.ACCENT if seat == ME or active else theme.PANEL_EDGE)
            draw_wrapped(surface, self.seat_line(seat), rect.inflate(-16, -12), 15, theme.TEXT)
        middle = ring.middle
        panel(surface, middle)
        y = middle.top + 10
        for i, line in enumerate([*self.title_lines(), *self.middle_lines()]):
            if y + line_height(16) > middle.bottom:
                break
            y += draw_wrapped(surface, line, pygame.Rect(middle.left + 12, y, middle.width - 24, middle.bottom - y),
                              20 if i == 0 else 15, theme.ACCENT if i == 0 else theme.TEXT)
        for button in self.buttons:
            button.draw(surface)

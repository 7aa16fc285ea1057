"""A plain table for Tiny: the public state as text, one button per legal input of seat 0.

It drives a trusted :class:`~net.local_table.LocalTable` (bots play every
other seat); the buttons are made from ``LocalTable.legal(0)``, so the scene
cannot offer an illegal input. Text is English and Japanese through the
client catalogue (``tiny_*`` keys).
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
from client.text import draw_text
from client.widgets import Button, panel
from engine.core.actions import Action
from net.bots.base import SealedPick
from net.local_table import LocalTable

ME = 0


class TinyScene(Scene):
    name = "tiny"

    def __init__(self, app: Any, entry: Any, on_leave: Callable[[], None], *, seed: int | None = None) -> None:
        super().__init__(app)
        self.entry = entry
        self.on_leave = on_leave
        self.seed = secrets.randbits(31) if seed is None else seed
        seats = entry.default_seats
        setup = entry.local(entry.local_record(seats, None, None), None)
        agents: list[Any] = [None] + [entry.bot(entry.default_bots[0], random.Random(self.seed * 31 + s))
                                      for s in range(1, seats)]
        self.table = LocalTable(setup.game, setup.state, setup.knowledge, agents, self.seed)
        self.buttons: list[Button] = []
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
    def _layout(self) -> None:
        w, h = self.app.screen.get_size()
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
        lang = self.app.lang
        state = self.table.state
        mine = [c for h in state.hands[ME] if (c := self.table.knowledge[ME].card(h)) is not None]
        out = [tr(lang, "tiny_title", seats=state.seats),
               tr(lang, "tiny_deck", n=len(state.deck)),
               tr(lang, "tiny_hand", cards=", ".join(mine) or "-")]
        for seat in range(state.seats):
            who = tr(lang, "tiny_you") if seat == ME else tr(lang, "tiny_bot", seat=seat)
            played = state.played[seat] or "-"
            guess = state.guesses[seat] if state.guesses else "?"
            out.append(tr(lang, "tiny_seat", who=who, hand=len(state.hands[seat]), played=played, guess=guess))
        if state.dice:
            out.append(tr(lang, "tiny_dice", faces=" + ".join(map(str, state.dice)), total=sum(state.dice)))
        if state.revealed:
            out.append(tr(lang, "tiny_revealed", cards=", ".join(state.revealed)))
        outcome = self.table.outcome()
        if outcome is not None:
            out.append(tr(lang, "tiny_won" if outcome.winner == ME else "tiny_lost", seat=outcome.winner))
        elif self.legal():
            out.append(tr(lang, "tiny_your_turn"))
        return out

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG_FELT)
        w, h = surface.get_size()
        area = pygame.Rect(24, 24, w - 48, h - 190)
        panel(surface, area)
        y = area.top + 16
        for i, line in enumerate(self.lines()):
            draw_text(surface, line, (area.left + 20, y), 26 if i == 0 else 19, theme.ACCENT if i == 0 else theme.TEXT,
                      bold=i == 0, max_width=area.width - 40)
            y += 40 if i == 0 else 30
        for button in self.buttons:
            button.draw(surface)

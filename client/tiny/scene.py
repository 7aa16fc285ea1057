"""A plain table for Tiny: the seats around the table, one button per legal input of our seat.

A local table drives a trusted :class:`~net.local_table.LocalTable` (we are
seat 0, bots play every other seat, at once); a networked table reads the
table layer's :class:`~client.table.net_session.NetSession` of our seat
(every other seat is a person or a peer's bot, every input goes through the
fair-play protocols). Either way the buttons are made from our seat's legal
list, so the scene cannot offer an illegal input. Text is English and Japanese through the
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
from client.table.words import player_label
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
                 seats: int | None = None, session: Any = None,
                 on_end: Callable[[TinyScene], None] | None = None) -> None:
        """A local table of ``seats`` (default: the entry's), or with ``session`` (a
        :class:`~client.table.net_session.NetSession`) our seat of a networked one; ``on_end``
        is called once when a networked game is over (its audit and final records in)."""
        super().__init__(app)
        self.entry = entry
        self.on_leave = on_leave
        self.on_end = on_end
        self.session = session
        self.seed = secrets.randbits(31) if seed is None else seed
        self.table: LocalTable | None = None
        self.me = ME
        self.buttons: list[Button] = []
        self.ring: Ring | None = None
        self.ended = False
        if session is None:
            seats = entry.default_seats if seats is None else seats
            setup = entry.local(entry.local_record(seats, None, None), None)
            agents: list[Any] = [None] + [entry.bot(entry.default_bots[0], random.Random(self.seed * 31 + s))
                                          for s in range(1, seats)]
            self.table = LocalTable(setup.game, setup.state, setup.knowledge, agents, self.seed)
        else:
            self.me = session.me
        self._advance()

    # -- what the table shows ---------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.table.state if self.table is not None else self.session.state

    def _knowledge(self) -> Any:
        return self.table.knowledge[self.me] if self.table is not None else self.session.knowledge

    def outcome(self) -> Any:
        return self.table.outcome() if self.table is not None else self.session.outcome()

    @property
    def over(self) -> bool:
        return self.table.pending is None if self.table is not None else bool(self.session.over)

    # -- driving --------------------------------------------------------------------
    def _advance(self) -> None:
        """Local: let the bots and the table play until we must act or the game is over.
        Networked: show what the session applied; once it is over, hand over to ``on_end``."""
        if self.table is not None:
            self.table.run()
        self._layout()
        self.app.invalidate()
        if self.session is not None and self.session.over and not self.ended and self.on_end is not None:
            self.ended = True
            self.on_end(self)

    def legal(self) -> list[Action]:
        if self.table is None:
            return list(self.session.legal())
        return [] if self.table.pending is None else self.table.legal(ME)

    def _chooser(self, action: Action) -> Callable[[], None]:
        return lambda: self._choose(action)

    def _choose(self, action: Action) -> None:
        if self.table is None:
            self.session.submit(action)  # signed and sent by the peer; shown when the session applies it
        elif isinstance(action, SealedPick):
            self.table.submit_sealed(ME, action.choice)
        else:
            self.table.submit(action)
        self._advance()

    def _applied(self, before: Any, action: Action, after: Any) -> None:
        self._advance()

    def enter(self) -> None:
        """A networked table: follow the session (its inputs and changes) and start its polling."""
        if self.session is not None:
            self.session.listeners.append(self._applied)
            self.session.change_listeners.append(self._advance)
            self.session.start()
            self._advance()

    def leave(self) -> None:
        if self.session is not None:
            if self._applied in self.session.listeners:
                self.session.listeners.remove(self._applied)
            if self._advance in self.session.change_listeners:
                self.session.change_listeners.remove(self._advance)
            self.session.stop()  # no polling once the table is not shown (the end screen reads the result)

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
        self.ring = seat_ring(self.state.seats, self.board(), self.me)
        self.buttons = []
        x = 40
        for action in self.legal():
            button = Button(pygame.Rect(x, h - 140, 160, 48), self._label(action), self._chooser(action),
                            payload=action)
            self.buttons.append(button)
            x += 176
        self.leave_button = Button(pygame.Rect(w - 220, h - 80, 180, 48), tr(self.app.lang, "tiny_leave"),
                                   self.on_leave, primary=self.over)
        self.buttons.append(self.leave_button)

    def resized(self, size: tuple[int, int]) -> None:
        self._layout()

    def handle(self, event: pygame.event.Event) -> None:
        for button in list(self.buttons):
            if button.handle(event):
                return

    def lines(self) -> list[str]:
        """What the table shows, top to bottom (tests read it too)."""
        seats = [self.seat_line(seat) for seat in range(self.state.seats)]
        return [*self.title_lines(), *seats, *self.middle_lines()]

    def title_lines(self) -> list[str]:
        """The table's title, the deck and our own hand (the middle's first lines)."""
        lang, state = self.app.lang, self.state
        mine = [c for h in state.hands[self.me] if (c := self._knowledge().card(h)) is not None]
        return [tr(lang, "tiny_title", seats=state.seats), tr(lang, "tiny_deck", n=len(state.deck)),
                tr(lang, "tiny_hand", cards=", ".join(mine) or "-")]

    def seat_line(self, seat: int) -> str:
        """What seat ``seat`` shows at its place at the table."""
        lang, state = self.app.lang, self.state
        if seat == self.me:
            who = tr(lang, "tiny_you")
        elif self.session is not None:  # a networked seat: its player's name
            who = player_label(seat, self.session.names, self.me, lang)
        else:
            who = tr(lang, "tiny_bot", n=seat_number(seat))
        played = state.played[seat] or "-"
        guess = state.guesses[seat] if state.guesses else "?"
        return tr(lang, "tiny_seat", who=who, hand=len(state.hands[seat]), played=played, guess=guess)

    def middle_lines(self) -> list[str]:
        """The shared things in the middle of the table: dice, revealed cards, the end or our turn."""
        lang, state = self.app.lang, self.state
        out: list[str] = []
        if state.dice:
            out.append(tr(lang, "tiny_dice", faces=" + ".join(map(str, state.dice)), total=sum(state.dice)))
        if state.revealed:
            out.append(tr(lang, "tiny_revealed", cards=", ".join(state.revealed)))
        outcome = self.outcome()
        if outcome is not None:
            if outcome.winner == self.me:
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
        state = self.state
        for seat, rect in enumerate(ring.seats):
            active = bool(state.queue) and state.queue[0] == ("play", seat)
            panel(surface, rect, edge=theme.ACCENT if seat == self.me or active else theme.PANEL_EDGE)
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

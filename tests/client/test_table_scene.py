"""client/table/scene.py: the table scene every game builds on, used here by a game that is not Rider.

A four-seat Tiny table on the local adapter with a minimal scene made from
the layer alone (its controls: the side panel's buttons and the prompt's):
the log follows every applied input, is drawn by the layer's log panel,
and re-words itself when the language changes, the table's own questions (leave, concede) fit a table of more than two seats,
and the hand-over to the end screen comes once the game is over.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pygame
from twisted.internet.task import Clock

from client.app import App
from client.i18n import tr
from client.table.local import LocalSession
from client.table.log import LogEntry
from client.table.log_panel import draw_chat, draw_log
from client.table.scene import TableScene
from engine.core.actions import Action
from tests.local_tables import play_out, tiny_session


LOG_RECT = pygame.Rect(910, 40, 360, 600)


class PlainTable(TableScene[Any]):
    """A table scene with nothing of its own but words for an input and a board."""

    def __init__(self, app: App, session: LocalSession[Any], ended: list[Any]) -> None:
        super().__init__(app, session, on_end=ended.append)

    def _build_controls(self) -> None:
        self.side_buttons = self.side_panel_buttons(pygame.Rect(900, 0, 380, 800))
        if self.prompt is not None:
            self._layout_prompt(self.prompt)

    def help_pages(self) -> Any:
        return []

    def describe_input(self, pre: Any, action: Action, post: Any) -> Callable[[str], list[LogEntry]]:
        return lambda lang: [LogEntry(f"{tr(lang, 'moves', n=1)}: {action.KIND}")]

    def prompt_area(self) -> pygame.Rect:
        return pygame.Rect(0, 0, 900, 700)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((0, 0, 0))
        draw_log(self, surface, LOG_RECT)  # the layer's log drawing, the same as Rider's side panel
        draw_chat(self, surface)


def test_the_layers_table_scene_plays_a_four_seat_tiny_game(app: App, clock: Clock) -> None:
    session = tiny_session(clock, 4, seed=3, names=["Ann", "Bo", "Cy", "Di"])
    ended: list[Any] = []
    scene = PlainTable(app, session, ended)
    app.switch(scene)
    assert [b.payload for b in scene.side_buttons] == ["lobby", "settings", "help", "concede"]
    scene._concede()  # the table's own question: at four seats a concession ends the game with no winner
    assert scene.prompt is not None and scene.prompt.kind == "concede"
    assert "with no winner" in " ".join(scene.prompt.lines)
    scene._cancel()
    play_out(session, clock, random.Random(1), tick=app.tick)  # the scene follows every input
    assert sum(1 for e in scene.log if ": " in e.text) == session.moves  # one line per applied input
    app.render()
    drawn = {app.screen.get_at((x, y))[:3] for x in range(LOG_RECT.left, LOG_RECT.right, 3)
             for y in range(LOG_RECT.top, LOG_RECT.top + 200, 3)}
    assert len(drawn) > 2  # log lines were drawn in the log's rectangle
    english = [e.text for e in scene.log]
    app.set_lang("ja")
    scene.update(clock.seconds())
    assert [e.text for e in scene.log] != english and len(scene.log) == len(english)  # re-worded, none lost
    for _ in range(5):
        clock.advance(0.5)
        app.tick()
    assert ended == [scene] and scene.ended  # the end screen's turn, once
    scene._leave()  # over: leaving asks nothing
    assert scene.prompt is None

"""Locke's set-up in the lobby (issue 27 item 8): the number of seats, one bot level for every
other seat, and each seat's own level, all remembered in the settings and used by the table."""

from __future__ import annotations

from typing import Any

import pygame
from twisted.internet.task import Clock

from client.app import App
from client.lobby import LobbyScene
from client.main import build_app
from client.settings import Settings
from client.widgets import Choice
from tests.client.conftest import click, key


def _lobby(clock: Clock, lang: str = "en", game_bots: dict[str, str] | None = None) -> tuple[App, LobbyScene]:
    settings = Settings(name="Ann", game="locke", seats=6, lang=lang, game_bots=game_bots or {})
    app = build_app((1280, 800), clock=clock, settings=settings)
    lobby = app.scene
    assert isinstance(lobby, LobbyScene)
    return app, lobby


def _row(lobby: LobbyScene, label: str) -> Choice:
    return next(choice for text, choice in lobby.setup_choices if text == label)


def test_each_seat_gets_its_own_bot_and_the_table_seats_them() -> None:
    clock = Clock()
    app, lobby = _lobby(clock)
    seats = _row(lobby, "Each seat's bot (click to switch)")
    assert [b.label for b in seats.buttons] == ["2 H", "3 H", "4 H", "5 H", "6 H"]
    assert _row(lobby, "Bots").value == "heuristic"
    click(app, seats.buttons[1].rect.center)  # seat 3: the next level
    seats = _row(lobby, "Each seat's bot (click to switch)")
    assert [b.label for b in seats.buttons][:3] == ["2 H", "3 R", "4 H"]
    assert _row(lobby, "Bots").value == ""  # mixed: no level lit for all
    assert lobby.settings.game_bots["locke:seats"] == "heuristic,random,heuristic,heuristic,heuristic"
    click(app, _row(lobby, "Seats").buttons[4].rect.center)  # 9 seats
    seats = _row(lobby, "Each seat's bot (click to switch)")
    assert [b.label for b in seats.buttons] == ["2 H", "3 R", "4 H", "5 H", "6 H", "7 H", "8 H", "9 H"]
    key(app, pygame.K_RETURN)  # play: the table seats those bots
    table: Any = app.scene
    assert table.name == "locke"
    names = table.session.names
    assert list(names[1:3]) == ["Heuristic bot", "Random bot"] and len(names) == 9
    agents = table.session.table.agents
    assert [type(a).__name__ for a in agents[1:4]] == ["LockeHeuristicBot", "LockeRandomBot", "LockeHeuristicBot"]


def test_one_level_for_all_clears_the_seat_by_seat_choice() -> None:
    clock = Clock()
    app, lobby = _lobby(clock, "ja", game_bots={"locke": "heuristic", "locke:seats": "random,heuristic"})
    seats = _row(lobby, "席ごとのボット（クリックで変わります）")
    assert [b.label for b in seats.buttons] == ["2 乱", "3 作", "4 作", "5 作", "6 作"]
    bots = _row(lobby, "ボット")
    click(app, bots.buttons[0].rect.center)  # every seat the random bot
    assert "locke:seats" not in lobby.settings.game_bots and lobby.settings.game_bots["locke"] == "random"
    seats = _row(lobby, "席ごとのボット（クリックで変わります）")
    assert {b.label.split()[1] for b in seats.buttons} == {"乱"}


def test_a_hand_edited_level_the_game_lacks_falls_back_to_the_chosen_one() -> None:
    clock = Clock()
    app, lobby = _lobby(clock, game_bots={"locke": "random", "locke:seats": "genius,,heuristic"})
    seats = _row(lobby, "Each seat's bot (click to switch)")
    assert [b.label for b in seats.buttons] == ["2 R", "3 R", "4 H", "5 R", "6 R"]

"""The Locke lobby at 960x600 (a newcomer's playtest): the seat-bot legend ("R = Random bot,
H = Heuristic bot") has a line above the Play button; while we host or join, the reason Play is
off is read whole in the Play button's place, not over the seat-bot row; a long list of names
on the Japanese Resume button is shortened, not the verb."""

from __future__ import annotations

import time

import pygame
import pytest
from twisted.internet.task import Clock

from client.app import App
from client.lobby import LobbyScene, fitted_label
from client.settings import Settings
from client.text import line_height, wrap
from client.widgets import Button
from tests.client.conftest import click


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_seat_bot_legend_has_a_line_at_960x600(lang: str) -> None:
    app = App((960, 600), clock=Clock(), lang=lang)
    lobby = LobbyScene(app, Settings(name="Player", game="locke", seats=5, lang=lang), lan=False, resumable=False)
    app.switch(lobby)
    app.render()
    hint = lobby.hint_rect()
    about = lobby.hint_about(hint)
    assert hint.height >= line_height(14)
    first = wrap(about, 14, hint.width)[0]
    assert "= " in first and ("Random" in first or "ランダム" in first), first  # the legend leads
    rows = [c.rect for _, c in lobby.setup_choices]
    assert hint.top >= rows[-1].bottom and hint.bottom <= lobby.play_button.rect.top


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_while_hosting_the_reason_takes_the_play_buttons_place(lang: str) -> None:
    from twisted.internet import reactor

    app = App((960, 600), clock=reactor, lang=lang)
    lobby = LobbyScene(app, Settings(name="Host", game="locke", seats=5, lang=lang), lan=False,
                       host_interface="127.0.0.1", resumable=False)
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    try:
        assert lobby.net is not None and lobby.play_blocked()
        app.render()
        assert lobby.play_covered  # no room above it: the reason is drawn in its rectangle, no row below it cut
        box = lobby.play_button.rect
        for size in (15, 13):
            if len(wrap(lobby.play_blocked(), size, box.width - 16)) * line_height(size) <= box.height - 4:
                break
        else:
            raise AssertionError("the reason does not fit the Play button's place")
    finally:
        lobby._cancel_net()
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            reactor.iterate(0.01)
    app.running = False


def test_a_long_list_of_names_is_shortened_not_the_verb() -> None:
    app = App((960, 600), clock=Clock(), lang="ja")
    button = Button(pygame.Rect(0, 0, 270, 40), "", lambda: None, primary=True, hotkey="Enter")
    names = "Player, Heuristic bot 1, Heuristic bot 2, Heuristic bot 3, Heuristic bot 4"
    from client.i18n import tr

    label = fitted_label(button, lambda n: tr("ja", "resume_game", name=n), names)
    assert label.endswith("との対局を再開") and label.startswith("Player") and "…" in label
    short = fitted_label(button, lambda n: tr("ja", "resume_game", name=n), "Ayumi")
    assert short == "Ayumiとの対局を再開"
    app.running = False


def test_names_are_cut_before_the_resume_label_shrinks_to_a_tiny_font() -> None:
    """Playtest at 1280x800: the resume label listing Bot2, Bot3, Player (2), Heuristi… was drawn
    at the smallest button size. The names give way first; the type shrinks at most LABEL_SHRINK
    points."""
    from client.i18n import tr
    from client.lobby import LABEL_SHRINK
    from client.text import fits

    app = App((1280, 800), clock=Clock(), lang="en")
    button = Button(pygame.Rect(0, 0, 402, 40), "", lambda: None, primary=True, hotkey="Enter")
    names = "Bot2, Bot3, Player (2), Heuristic bot 3, Heuristic bot 4"
    label = fitted_label(button, lambda n: tr("en", "resume_game", name=n), names)
    size = button.size or max(12, min(20, button.rect.height // 2))
    assert label.startswith("Resume the game with Bot2") and label.endswith("…")
    assert fits(label, size, button.label_room(size), True, size - LABEL_SHRINK)
    app.running = False

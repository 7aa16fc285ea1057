"""A whole game against the bot, played with synthetic mouse input only,
ends on the end screen; the transcript saves to the user data dir."""

from __future__ import annotations

import random

import pygame

from client.main import build_app
from client.settings import Settings
from net.transcript import load_raw
from net.verifier import verify
from tests.client.conftest import click, key


def test_full_game_against_the_bot_by_clicks_ends_on_the_end_screen(clock, private_dirs):
    app = build_app(clock=clock, settings=Settings(name="Tester"))
    assert app.scene.name == "lobby"
    key(app, pygame.K_RETURN)  # "Play against a bot" is the default
    assert app.scene.name == "table"
    rng = random.Random(9)
    clicks = 0
    for _ in range(30000):
        if app.scene.name != "table":
            break
        scene = app.scene
        clock.advance(0.5)
        app.tick()
        if app.scene is not scene or not scene.legal:
            continue
        offered = [c for c in scene.offered() if c.key[0] != "pile" and c.label not in ("Cancel", "Close")]
        assert offered, "the player must always be offered something when it is their move"
        control = rng.choice(offered)
        click(app, control.rect.center)
        clicks += 1
    for _ in range(10):  # let the last animations finish and the end screen come up
        clock.advance(1.0)
        app.tick()
    assert app.scene.name == "end", f"still on {app.scene.name} after {clicks} clicks"

    end = app.scene
    assert end.audit_ok, end.audit_detail
    assert end.session.table.outcome() is not None
    click(app, end.save_button.rect.center)
    assert end.saved, end.save_error
    saved = load_raw(end.saved)
    assert str(private_dirs) in end.saved
    assert len(saved["inputs"]) == len(end.session.table.log)
    assert saved["end"]["outcome"]["reason"]
    assert verify(saved).ok  # the one replayer takes the client's local record
    app.render()

"""Super Human Locke with friends from the lobby (issues 26 and 27): the lobby hosts a 5-seat
Locke table, *Start with bots* seats a bot in every empty seat (each a whole peer with its own
key, run by the host's process over loopback TCP), and our seat is played on Locke's own
scene by clicks, with every legal input reachable on screen. The table layer's end screen
follows, with the session's audit passed; the saved transcript verifies."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from client.lobby import LobbyScene
from client.settings import Settings
from engine.core.inputs import PlacementPick
from net.transcript import load_raw
from net.verifier import verify
from tests.client.conftest import click
from tests.client.locke_helpers import choose_by_clicks
from tests.client.test_client_net import pump, real_app  # noqa: F401  (the fixture)


def _host_with_bots(app: Any, reactor: Any) -> tuple[Any, list[Any]]:
    lobby = LobbyScene(app, Settings(name="Host", game="locke", seats=5, auto_answer=True,
                                     game_bots={"locke": "heuristic"}),
                       lan=False, host_interface="127.0.0.1", resumable=False)
    app.switch(lobby)
    assert lobby.host_button.enabled, lobby.friends_blocked()
    click(app, lobby.host_button.rect.center)
    assert lobby.net is not None and lobby.net.entry.name == "locke" and lobby.net.seats == 5, lobby.message
    app.render()
    click(app, lobby.fill_button.rect.center)  # four heuristic bots take the empty seats
    bots = list(lobby.net.peer.bot_seats)
    assert len(bots) == 4
    deadline = time.monotonic() + 120  # a safety net against a hang, not a speed target
    while time.monotonic() < deadline and app.scene.name != "locke":
        pump(app, reactor)
    scene = app.scene
    assert scene.name == "locke" and scene.session.networked, getattr(app.scene, "message", "")
    return scene, bots


def _close(app: Any, reactor: Any, bots: list[Any]) -> None:
    """Stop the host's bots (peers in this process) and let their links close."""
    for bot in bots:
        if bot.result is None:
            bot.leave("test over")
    settle = time.monotonic() + 1.5
    while time.monotonic() < settle:
        pump(app, reactor)


def test_a_networked_locke_table_from_the_lobby_shows_our_seat_and_takes_our_clicks(real_app) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    app, reactor = real_app
    scene, bots = _host_with_bots(app, reactor)
    assert len(scene.session.names) == 5 and scene.session.proof == "verified"
    rng = random.Random(3)
    decided = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and decided < 6 and app.scene is scene:
        pump(app, reactor)
        if scene.legal and scene._auto_call is None:
            choice = rng.choice(scene.legal)
            choose_by_clicks(app, scene, choice)
            decided += 1
    assert decided >= 6, f"only {decided} decisions: {scene.session.problem or scene.banner_text()}"
    assert not scene.session.problem
    scene._leave()  # leaving a running game of five: asked first, then the others play on without us
    assert scene.prompt is not None and scene.prompt.kind == "leave"
    assert "the others play on" in " ".join(scene.prompt.lines)
    confirm = next(b for b in scene.prompt.buttons if not b.primary)
    peer = scene.session.peer
    click(app, confirm.rect.center)
    assert app.scene.name == "lobby" and peer.relaying  # back in the lobby; our peer passes messages on
    for _ in range(20):
        pump(app, reactor)
    assert all(b.session is not None and 0 in b.session.left and b.session.halted is None for b in bots)
    _close(app, reactor, bots)
    assert peer.result is not None and peer.result["error"] == "left the game; the others play on"


@pytest.mark.slow
def test_a_networked_locke_game_from_the_lobby_plays_to_the_audited_end(real_app, tmp_path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    app, reactor = real_app
    scene, bots = _host_with_bots(app, reactor)
    rng = random.Random(5)
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline and app.scene is scene:
        pump(app, reactor)
        if scene.legal and scene._auto_call is None:
            legal = scene.legal
            choice = legal[0] if isinstance(legal[0], PlacementPick) else rng.choice(legal)
            choose_by_clicks(app, scene, choice)
    end = app.scene
    assert end.name == "end", f"stuck: {scene.session.problem or scene.banner_text()}"
    assert end.audit_ok, end.audit_detail
    click(app, end.save_button.rect.center)
    assert end.saved and verify(load_raw(end.saved)).ok, end.save_error
    assert all(bot.result is not None and bot.result.get("finished") for bot in bots)
    click(app, end.lobby_button.rect.center)
    _close(app, reactor, bots)

"""A silent seat at a networked Locke table: once its deadline passes, the Locke table offers the
claim of its forfeit in the bar, with the table's note saying who stalls (as the Rider and Tiny
tables do); before, the rail said "stalling" and nothing could be done."""

from __future__ import annotations

import time
from typing import Any

import pytest

from client.lobby import LobbyScene
from client.settings import Settings
from net.games import game_named
from net.identity import Identity
from net.peer import Peer
from net.transport.invite import parse_invite
from tests.client.conftest import click
from tests.client.test_client_net import pump, real_app  # noqa: F401  (the fixture)


@pytest.mark.slow
def test_a_stalling_seat_at_a_locke_table_can_be_claimed_from_the_bar(real_app) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    app, reactor = real_app
    lobby = LobbyScene(app, Settings(name="Host", game="locke", seats=5, auto_answer=True,
                                     game_bots={"locke": "heuristic"}),
                       lan=False, host_interface="127.0.0.1", resumable=False)
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    assert lobby.net is not None, lobby.message
    lobby.net.peer.session_timeout = 4.0
    silent = Peer(Identity.generate(), game_named("locke"), reactor=reactor, agent=None, name="Aki", linger=0.5)
    silent.join(parse_invite(lobby.net.code), connect_timeout=30.0)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and lobby.net.empty_seats() > 3:  # Aki takes a seat
        pump(app, reactor)
    app.render()
    click(app, lobby.fill_button.rect.center)  # a bot in the last seat
    bots = list(lobby.net.peer.bot_seats)
    scene: Any = None
    try:
        while time.monotonic() < deadline:
            pump(app, reactor)
            if app.scene.name != "locke":
                continue
            scene = app.scene
            if scene.legal and scene.prompt is None:
                scene._submit(scene.legal[0])
                continue
            if scene.session.forfeit_seat() is not None:
                break
        assert scene is not None and scene.session.forfeit_seat() == silent.seat
        gone = next(b for b in bots if b.can_step_out())  # another player steps out meanwhile (seen in a playtest:
        gone.step_out()                                  # the note then named only who left, not who stalls)
        while time.monotonic() < deadline and gone.session.seat not in scene.session.session.left:
            pump(app, reactor)
        for _ in range(5):
            pump(app, reactor)
        claim = [b for b in scene.buttons if b.payload == "forfeit"]
        # five seats: the claim ends the game for all with no winner (net/session/deadlines.py), not "the win"
        assert claim and claim[0].label == "End the game (forfeit)", [b.label for b in scene.buttons]
        app.render()
        note = scene.session.table_note("en")
        assert "Aki" in note and "nobody wins" in note and "the win" not in note, note
        click(app, claim[0].rect.center)
        assert scene.prompt is not None and scene.prompt.kind == "forfeit"
        assert "Aki" in " ".join(scene.prompt.lines) and "nobody wins" in " ".join(scene.prompt.lines)
    finally:
        for peer in [silent, *bots]:
            if peer.result is None:
                peer.leave("test over")
        if scene is not None:
            scene.session.leave()
        settle = time.monotonic() + 1.5
        while time.monotonic() < settle:
            pump(app, reactor)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_forfeit_words_promise_the_win_only_at_a_two_seat_table(lang: str) -> None:
    from client.i18n import tr
    from client.table.words import forfeit_key

    assert forfeit_key("claim_forfeit", 2) == "claim_forfeit"
    for key in ("claim_forfeit", "claim_forfeit_text", "net_stalling", "net_silent"):
        many = tr(lang, forfeit_key(key, 5), who="Aki (Seat 2)", quiet="1:00", left="0:30")
        two = tr(lang, key, who="Aki (Seat 2)", quiet="1:00", left="0:30")
        assert many != two
        assert ("win" not in many.replace("nobody wins", "")) if lang == "en" else ("不戦勝" not in many), many

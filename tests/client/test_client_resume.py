"""A networked game survives the client: each game keeps a peer directory in
the user data folder, and the next lobby offers to resume it (or abandon it).

The real test interrupts a client-hosted game against a ``tools.peer`` bot
process on 127.0.0.1 (our driver is cut off without a goodbye, as in a
crash, and every in-memory object is dropped), then resumes it from a fresh
lobby through the driver's own resume path and plays it to the audited end:
both peers agree on the final state hash.
"""

from __future__ import annotations

import json
import os
import random
import time

import pygame
import pytest

from client.app import App
from client.lobby import LobbyScene
from client.settings import Settings
from engine.core.hashing import digest
from net.envelope import Genesis
from net.identity import Identity
from net.peer import store
from net.games import game_named
from tests.client.conftest import click, key
from tests.client.test_client_net import bot_peer, play_by_clicks, pump


@pytest.fixture
def real_app():  # type: ignore[no-untyped-def]
    from twisted.internet import reactor

    application = App((1280, 800), clock=reactor)
    yield application, reactor
    application.running = False


@pytest.mark.slow
def test_a_crashed_networked_game_is_resumed_from_the_lobby_to_the_audited_end(real_app, tmp_path):  # type: ignore[no-untyped-def]
    from client.table.net_play import unfinished_games

    app, reactor = real_app
    lobby = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1")
    assert lobby.unfinished == []
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    table = lobby.net
    assert table is not None and table.directory is not None
    bot = bot_peer(table.code, tmp_path)
    try:
        deadline = time.monotonic() + 60  # safety nets against a hang, not speed targets
        while time.monotonic() < deadline and app.scene.name != "table" and bot.poll() is None:
            pump(app, reactor)
        assert app.scene.name == "table", table.lines
        scene = app.scene
        rng = random.Random(2)
        while time.monotonic() < deadline and scene.session.moves < 12:
            pump(app, reactor)
            if scene.legal:
                offered = [c for c in scene.offered() if c.key[0] != "pile" and c.label not in ("Cancel", "Close")]
                click(app, rng.choice(offered).rect.center)
        assert scene.session.moves >= 12 and not scene.session.over
        # the crash: our driver stops without a goodbye; nothing in memory survives
        peer = table.peer
        scene.session.stop()
        peer.leave("the client crashed", goodbye=False)
        closed: list[object] = []
        for d in peer.stopping:
            d.addBoth(closed.append)
        while len(closed) < len(peer.stopping):
            pump(app, reactor)  # the listening port is free again for the resumed host
        del scene, table, peer, lobby
        assert bot.poll() is None  # the bot keeps waiting for us

        again = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1")
        app.switch(again)
        assert [g.opponents() for g in again.unfinished] == ["Remote bot"]
        assert again.resume_button.label == "Resume the game with Remote bot"
        app.render()
        key(app, pygame.K_RETURN)  # Enter resumes the waiting game (rather than a new game against the bot)
        resumed = again.net
        assert resumed is not None and resumed.role == "resume", again.message
        while time.monotonic() < deadline + 60 and app.scene.name != "table":
            pump(app, reactor)
        assert app.scene.name == "table", resumed.lines
        scene = app.scene
        assert scene.session.peer is resumed.peer and any("resuming game" in line for line in resumed.lines)
        # issue 15 item 10: the position is right at once: the caught-up inputs are not replayed as flights,
        # so no hand card or card back is hidden behind an animation, and every card of our hand shows its face
        assert scene.session.moves >= 12
        assert scene.anims.hidden() == set()
        hand = scene.session.state.players[scene.me].hand
        assert len(hand) > 0 and all(card is not None for _, card in scene.my_hand())
        assert len(scene.hand_slots(scene.opp)) == len(scene.session.state.players[scene.opp].hand)
        play_by_clicks(app, reactor, scene, seed=6)
        assert app.scene.name == "end", scene.session.problem or scene.session.session.waiting_what()
        assert app.scene.audit_ok, app.scene.audit_detail
        out, err = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    result = json.loads(out.strip().splitlines()[-1])
    assert bot.returncode == 0 and result["audit"] == "ok", err
    assert result["final_hash"] == scene.session.session.hashes[-1].hex()
    assert unfinished_games() == []  # a finished game is not offered again


def _planted_game(owner: Identity) -> None:
    """An unfinished game's directory as a crashed client leaves it (seat 0 held by ``owner``)."""
    from client.table.net_play import games_dir

    entry = game_named("rider")
    directory = games_dir() / "20260101-000000-abcd"
    other = Identity.from_seed(digest("fairtable/test-resume", 1))
    genesis = Genesis(entry.rules_id, entry.rules_version, entry.card_set_hash(), (owner.public_key, other.public_key),
                      {"deck_sizes": [40, 40], "names": ["Me", "Ayumi"]}, (bytes(16),) * 2)
    store.save_peer(directory, {"role": "host", "listen": ["127.0.0.1", 1], "table": bytes(8), "game": "rider",
                                "name": "Me"})
    store.save_genesis(directory, genesis, 0)


def test_an_unfinished_game_is_offered_and_can_be_abandoned(app) -> None:  # type: ignore[no-untyped-def]
    from client.table.net_play import games_dir

    _planted_game(Identity.load_or_create())
    (games_dir() / "20260102-lobby-only").mkdir()  # a table that never started a game: not offered
    stale = games_dir() / "20250101-lobby-only"
    stale.mkdir()
    os.utime(stale, (0, 0))  # ... and removed once it is a day old
    app.set_lang("ja")
    lobby = LobbyScene(app, Settings(name="Me", lang="ja"), lan=False)
    app.switch(lobby)
    assert [g.opponents() for g in lobby.unfinished] == ["Ayumi"]
    assert (games_dir() / "20260102-lobby-only").exists() and not stale.exists()
    assert lobby.resume_button.label == "Ayumiとの対局を再開"
    app.render()
    click(app, lobby.abandon_button.rect.center)
    assert lobby.unfinished == [] and not (games_dir() / "20260101-000000-abcd").exists()
    assert "破棄" in lobby.message
    assert lobby.resume_button not in lobby.widgets
    app.render()


def test_a_game_that_cannot_be_resumed_says_why_and_is_kept(app) -> None:  # type: ignore[no-untyped-def]
    from client.table.net_play import unfinished_games

    _planted_game(Identity.generate())  # another key holds our seat
    lobby = LobbyScene(app, Settings(name="Me"), lan=False)
    app.switch(lobby)
    click(app, lobby.resume_button.rect.center)
    assert lobby.net is None
    assert lobby.message.startswith("Could not resume the game:") and "identity" in lobby.message
    assert len(unfinished_games()) == 1  # kept: the right key may resume it later
    app.render()


def test_a_game_we_left_for_the_others_is_not_offered_for_resuming(app) -> None:  # type: ignore[no-untyped-def]
    """Peer.step_out marks the directory: the lobby does not list a game we left (resuming it
    would only be refused)."""
    from client.table.net_play import games_dir, unfinished_games

    _planted_game(Identity.load_or_create())
    assert len(unfinished_games()) == 1
    directory = games_dir() / "20260101-000000-abcd"
    store.save_peer(directory, {**store.load_peer(directory), "left": True})
    assert unfinished_games() == []

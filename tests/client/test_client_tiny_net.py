"""Tiny with friends from the lobby, end to end over TCP on 127.0.0.1: the lobby hosts a
three-seat Tiny table (its own set-up picker: the seats), two bot peers join it as separate
processes (``python -m tools.peer join CODE --game tiny --bot random``), our seat is played
by clicks on Tiny's table (a table-layer scene: its log follows every input, its side panel
has the chat and the lobby/settings/help/concede buttons), and the table layer's end screen follows with the session's
audit passed and the same final state hash as each bot's. The saved transcript verifies."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from client.lobby import LobbyScene
from client.settings import Settings
from net.transcript import load_raw
from net.verifier import verify
from tests.client.conftest import click
from tests.client.test_client_net import pump, real_app  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parents[2]


def tiny_peer(code: str, home: Path, seat: int) -> subprocess.Popen[str]:
    keys = home / f"key{seat}"
    keys.mkdir(mode=0o700)
    env = {**os.environ, "XDG_DATA_HOME": str(home / f"data{seat}"), "XDG_CONFIG_HOME": str(home / f"config{seat}")}
    return subprocess.Popen(
        [sys.executable, "-m", "tools.peer", "join", code, "--game", "tiny", "--bot", "random", "--seed", str(seat),
         "--name", f"Bot {seat}", "--identity", str(keys / "id.pem"), "--json", "--max-time", "120",
         "--connect-timeout", "60"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def host_with_bots(app: Any, tmp_path: Path) -> list[subprocess.Popen[str]]:
    """Host a three-seat Tiny table from the lobby and start two bot processes that join it."""
    lobby = LobbyScene(app, Settings(name="Host", game="tiny", seats=3), lan=False, host_interface="127.0.0.1",
                       resumable=False)
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    assert lobby.net is not None and lobby.net.entry.name == "tiny" and lobby.net.seats == 3, lobby.message
    return [tiny_peer(lobby.net.code, tmp_path, seat) for seat in (1, 2)]


def bot_results(bots: list[subprocess.Popen[str]], timeout: float) -> list[dict[str, Any]]:
    """Each bot process's final JSON result (each must have exited well)."""
    results = []
    for bot in bots:
        out, err = bot.communicate(timeout=timeout)
        assert bot.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def stop(bots: list[subprocess.Popen[str]]) -> None:
    for bot in bots:
        if bot.poll() is None:
            bot.kill()
            bot.wait()


@pytest.mark.slow
def test_host_a_three_seat_tiny_table_in_the_lobby_and_play_it_to_the_audited_end(real_app, tmp_path):  # type: ignore[no-untyped-def]
    app, reactor = real_app
    bots = host_with_bots(app, tmp_path)
    try:
        deadline = time.monotonic() + 90  # a safety net against a hang, not a speed target
        while time.monotonic() < deadline and app.scene.name != "tiny":
            pump(app, reactor)
            assert all(b.poll() is None for b in bots), [b.stderr.read() for b in bots if b.poll() is not None]
        scene = app.scene
        assert scene.name == "tiny" and scene.session is not None and scene.session.networked
        assert scene.lines()[0] == "Tiny, 3 seats"
        assert scene.chat_field is not None  # a networked table has the layer's chat
        assert [b.payload for b in scene.side_buttons][:3] == ["lobby", "settings", "help"]  # seats 2 and 3 go to the bots in the order they joined
        assert {scene.seat_line(s).split(":")[0] for s in (1, 2)} == {"Bot 1 (Seat 2)", "Bot 2 (Seat 3)"} or \
            {scene.seat_line(s).split(":")[0] for s in (1, 2)} == {"Bot 2 (Seat 2)", "Bot 1 (Seat 3)"}
        rng = random.Random(2)
        while time.monotonic() < deadline and app.scene.name == "tiny":
            pump(app, reactor)
            if scene.buttons:  # only our legal inputs (the side panel's buttons are apart)
                click(app, rng.choice(scene.buttons).rect.center)
        end = app.scene
        assert end.name == "end", f"stuck: {scene.session.problem or scene.session.session.waiting_what()}"
        assert end.audit_ok, end.audit_detail
        plays = [e.text for e in scene.log if " plays " in e.text or e.text.startswith("You (Seat 1) play ")]
        assert len(plays) == 3, scene.log  # the log followed every seat's play
        session = scene.session
        final = session.session.hashes[-1].hex()
        click(app, end.save_button.rect.center)
        assert end.saved and verify(load_raw(end.saved)).ok, end.save_error
        results = bot_results(bots, 60)
    finally:
        stop(bots)
    assert all(r["audit"] == "ok" and r["final_hash"] == final for r in results)  # every seat agrees


@pytest.mark.slow
def test_leaving_a_three_seat_table_lets_the_other_two_finish(real_app, tmp_path):  # type: ignore[no-untyped-def]
    """The table's Lobby button mid-game at three seats: the question says the others play on, and
    after it we are back in the lobby while both bot peers finish the game to its audited end
    (a stand-in played our seat; net/session/leave.py), not a draw for everyone."""
    app, reactor = real_app
    bots = host_with_bots(app, tmp_path)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and app.scene.name != "tiny":
            pump(app, reactor)
        scene = app.scene
        assert scene.name == "tiny"
        while time.monotonic() < deadline and not (scene.session.session.step >= 2 and scene.session.can_step_out()):
            pump(app, reactor)
        assert scene.session.can_step_out()
        click(app, scene.leave_button.rect.center)
        assert scene.prompt is not None and scene.prompt.kind == "leave"
        assert "the others play on" in " ".join(scene.prompt.lines)
        app.render()  # lays the question's buttons out
        yes = next(b for b in scene.prompt.buttons if b.label == "Leave the game")
        click(app, yes.rect.center)
        assert app.scene.name == "lobby"
        while time.monotonic() < deadline + 60 and any(b.poll() is None for b in bots):
            pump(app, reactor)  # our peer still passes the bots' messages on (they may meet only through us)
        results = bot_results(bots, 30)
    finally:
        stop(bots)
    assert all(r["audit"] == "ok" and r["finished"] for r in results), results
    assert results[0]["final_hash"] == results[1]["final_hash"]


@pytest.mark.slow
def test_a_player_who_steps_out_of_a_three_seat_table_is_named_in_our_log(real_app, tmp_path):  # type: ignore[no-untyped-def]
    """Seen at a five-seat Locke table: a friend left mid-game, the rail said "left; a bot plays on",
    but the log (where a player looks for what happened) said nothing while we had a decision."""
    from net.games import game_named
    from net.identity import Identity
    from net.peer import Peer
    from net.transport.invite import parse_invite

    app, reactor = real_app
    lobby = LobbyScene(app, Settings(name="Host", game="tiny", seats=3), lan=False, host_interface="127.0.0.1",
                       resumable=False)
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    assert lobby.net is not None, lobby.message
    entry = game_named("tiny")
    peers = [Peer(Identity.generate(), entry, reactor=reactor, agent=entry.bot("random", random.Random(n)),
                  name=name, linger=0.5) for n, name in enumerate(("Aki", "Ben"))]
    for peer in peers:
        peer.join(parse_invite(lobby.net.code), connect_timeout=30.0)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and app.scene.name != "tiny":
            pump(app, reactor)
        scene = app.scene
        assert scene.name == "tiny"
        aki = peers[0]
        while time.monotonic() < deadline and not (aki.can_step_out() and aki.session.step >= 2):
            pump(app, reactor)
            if scene.legal and scene.prompt is None:
                scene._submit(scene.legal[0])
        aki.step_out()
        seat = aki.session.seat
        while time.monotonic() < deadline and scene.session.peer_status(seat) != "peer_stand_in":
            pump(app, reactor)
        for _ in range(3):
            pump(app, reactor)
        lines = [e.text for e in scene.log]
        assert any("Aki" in line and "left the game" in line for line in lines), lines[-8:]
    finally:
        for peer in peers:
            if peer.result is None:
                peer.leave("test over")
        if app.scene.name == "tiny":
            app.scene.session.leave()
        settle = time.monotonic() + 1.5
        while time.monotonic() < settle:
            pump(app, reactor)

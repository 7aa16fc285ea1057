"""The lobby's "Invite a friend online": a wormhole code per friend, its state
in the list, and a bot friend who joins with it through the REAL mailbox
server and transit relay (tools.wormhole_servers on 127.0.0.1, relay only)
plays the client's seat to the audited end."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import pytest

from client.lobby import LobbyScene
from client.settings import Settings
from tests.client.conftest import click
from tests.client.test_client_net import ROOT, play_by_clicks, pump, real_app  # noqa: F401  (the fixture)
from tools.wormhole_servers import ServerProcess

pytestmark = [pytest.mark.online, pytest.mark.slow]


def test_invite_a_friend_online_then_play_to_the_audited_end(real_app, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]  # noqa: F811
    app, reactor = real_app
    servers = ServerProcess()
    monkeypatch.setenv("FAIRTABLE_MAILBOX", servers.mailbox)
    monkeypatch.setenv("FAIRTABLE_RELAY", servers.relay)
    monkeypatch.setenv("FAIRTABLE_WORMHOLE_DIRECT", "0")
    bot = None
    # the tests iterate the reactor without running it, so its thread pool (name
    # resolution for the mailbox's address) is started here by hand
    pool = reactor.getThreadPool()
    pool.start()
    try:
        lobby = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1")
        app.switch(lobby)
        click(app, lobby.host_button.rect.center)
        assert lobby.net is not None and lobby.net.code.startswith("FT1-"), lobby.message
        click(app, lobby.online_button.rect.center)
        deadline = time.monotonic() + 30  # a safety net against a hang, not a speed target
        while not lobby.net.online_code and time.monotonic() < deadline:
            pump(app, reactor)
        code = lobby.net.online_code
        assert code and code[0].isdigit() and lobby.invite_field.value == code  # shown (and copied) in place
        assert lobby.net.online_invites() == [(code, "waiting")]
        app.render()
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "botdata"), "XDG_CONFIG_HOME": str(tmp_path / "botcfg")}
        bot = subprocess.Popen(
            [sys.executable, "-m", "tools.peer", "join", code, "--bot", "random", "--seed", "4", "--name", "Online bot",
             "--identity", str(tmp_path / "bot.pem"), "--json", "--max-time", "120", "--connect-timeout", "60"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        table = lobby.net
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and app.scene.name != "table" and bot.poll() is None:
            pump(app, reactor)
        assert app.scene.name == "table", f"no game started: {table.lines}"
        assert dict(table.online_invites())[code] == "joined"
        assert any("relayed" in line for line in table.lines), table.lines
        scene = app.scene
        play_by_clicks(app, reactor, scene)
        assert app.scene.name == "end", "stuck before the end"
        assert app.scene.audit_ok, app.scene.audit_detail
        out, err = bot.communicate(timeout=60)
        result = json.loads(out.strip().splitlines()[-1])
        assert bot.returncode == 0 and result["audit"] == "ok", err[-2000:]
        assert result["final_hash"] == scene.session.session.hashes[-1].hex()
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.wait()
        servers.stop()
        pool.stop()
        reactor.threadpool = None  # a later user gets a fresh pool


def test_an_online_code_of_another_game_joins_the_hosts_game(real_app, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]  # noqa: F811
    """The lobby shows Rider; the code is for a Tiny table (a tools.peer host with a bot of its own and
    one free seat): once it pairs, the host's offer names Tiny, the table switches to it, the game
    row follows, and the game starts (issue 29: the game comes from the host)."""
    app, reactor = real_app
    servers = ServerProcess()
    monkeypatch.setenv("FAIRTABLE_MAILBOX", servers.mailbox)
    monkeypatch.setenv("FAIRTABLE_RELAY", servers.relay)
    monkeypatch.setenv("FAIRTABLE_WORMHOLE_DIRECT", "0")
    pool = reactor.getThreadPool()
    pool.start()
    from tools.match_tcp import online_args, read_codes, read_invite, seat_args, spawn

    host = spawn(0, ["host", "--game", "tiny", "--seats", "3", "--listen", "127.0.0.1", "--online",
                     *online_args(servers.mailbox, servers.relay), "--add-bot", "random",
                     *seat_args(0, "random", 5, tmp_path, 150, ())], tmp_path)
    try:
        read_invite(host, timeout=30)
        code = read_codes(host, 1, timeout=60)[0]
        lobby = LobbyScene(app, Settings(name="Joiner", game="rider"), lan=False, host_interface="127.0.0.1")
        app.switch(lobby)
        lobby.code_field.value = code
        click(app, lobby.join_button.rect.center)
        table = lobby.net
        assert table is not None and table.entry.name == "rider", lobby.message
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and app.scene.name == "lobby":
            pump(app, reactor)
        scene = app.scene
        assert scene.name == "tiny", f"no game started: {lobby.message} {table.lines} {host.log_tail()}"
        assert table.entry.name == "tiny" and lobby.settings.game == "tiny"
        rng = random.Random(3)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and app.scene is scene:
            pump(app, reactor)
            if scene.buttons:  # only our legal inputs
                click(app, rng.choice(scene.buttons).rect.center)
        assert app.scene.name == "end" and app.scene.audit_ok, app.scene.name
        out, _ = host.proc.communicate(timeout=60)
        assert json.loads(out.strip().splitlines()[-1])["audit"] == "ok"
    finally:
        if host.proc.poll() is None:
            host.proc.kill()
            host.proc.wait()
        servers.stop()
        pool.stop()
        reactor.threadpool = None


def test_a_typo_in_an_online_code_is_explained_in_the_lobby(real_app):  # type: ignore[no-untyped-def]  # noqa: F811
    app, reactor = real_app
    lobby = LobbyScene(app, Settings(name="Joiner"), lan=False, host_interface="127.0.0.1")
    app.switch(lobby)
    lobby.code_field.value = "7-crossover_clockwork"
    click(app, lobby.join_button.rect.center)
    assert lobby.net is None and "not a wormhole code" in lobby.message

"""Item: someone leaves (over TCP, two processes on 127.0.0.1).

- the opponent leaves on purpose: we are told at once who left and the game
  ends in our favour, the signed goodbye (a resignation envelope) as proof;
- the opponent goes silent: the bar says so with a visible countdown to the
  session's forfeit deadline, then offers the claim.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from client.lobby import LobbyScene
from client.settings import Settings
from tests.client.conftest import click
from tests.client.test_client_net import pump, real_app  # noqa: F401 - the fixture

ROOT = Path(__file__).resolve().parents[2]


def far_peer(code: str, mode: str, name: str, home: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home / "fardata"), "XDG_CONFIG_HOME": str(home / "farconfig"),
           "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, str(ROOT / "tests" / "client" / "far_peer.py"), code, mode, name],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def host(app, reactor, timeout: float | None = None):  # type: ignore[no-untyped-def]
    lobby = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1", resumable=False)
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    if timeout is not None:
        lobby.net.peer.session_timeout = timeout
    return lobby


@pytest.mark.slow
def test_an_opponent_who_leaves_is_named_at_once_and_the_win_is_ours(real_app, tmp_path):  # type: ignore[no-untyped-def]
    app, reactor = real_app
    lobby = host(app, reactor)
    proc = far_peer(lobby.net.code, "leave", "Aki", tmp_path)
    scene = None
    told_at: float | None = None
    rng = random.Random(3)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            pump(app, reactor)
            if app.scene.name == "table":
                scene = app.scene
                if scene.legal and scene.prompt is None:
                    scene.session.submit(rng.choice(scene.legal))
                if told_at is None and scene.session.resigned is not None:
                    told_at = time.monotonic()
                    note = scene.session.table_note("en")
                    assert "Aki" in note and ("left the table" in note or "conceded" in note)
                    assert "席" in scene.session.table_note("ja")
                    app.render()
            if app.scene.name == "end":
                break
        assert scene is not None and told_at is not None, "the far peer never left"
        assert app.scene.name == "end"
        end = app.scene
        outcome = end.session.outcome()
        assert outcome.winner == scene.me and "resigned" in outcome.reason
        assert time.monotonic() - told_at < 10  # told and done at once, not after a deadline
        assert not end.audit_ok and end.audit_detail.startswith("not audited")
        assert end.session.early_end() == ("resigned", 1 - scene.me)  # worded as such, not "No audit: not audited"
        app.render()
        from net.verifier import verify

        assert verify(end.session.transcript()).ok  # the signed goodbye is the proof
    finally:
        if scene is not None:
            scene.session.leave()
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err[-2000:]


@pytest.mark.slow
def test_a_silent_opponent_gets_a_visible_countdown_to_the_forfeit_claim(real_app, tmp_path):  # type: ignore[no-untyped-def]
    app, reactor = real_app
    lobby = host(app, reactor, timeout=20.0)
    proc = far_peer(lobby.net.code, "silent", "Aki", tmp_path)
    scene = None
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 90
        rng = random.Random(3)
        while time.monotonic() < deadline:
            pump(app, reactor)
            if app.scene.name != "table":
                continue
            scene = app.scene
            if scene.legal and scene.prompt is None:
                scene.session.submit(rng.choice(scene.legal))
                continue
            note = scene.session.table_note("en")
            if "claim the win in" in note and (not seen or seen[-1] != note):
                seen.append(note)
                app.render()
            if scene.session.forfeit_seat() is not None:
                break
        assert scene is not None and len(seen) >= 2, seen
        assert all("Aki" in n and "claim the win in" in n for n in seen), seen
        # the countdown goes down: "in 0:11" then "in 0:10"...
        lefts = [n.rsplit("in ", 1)[1].split(" ")[0] for n in seen]
        secs = [int(x.split(":")[0]) * 60 + int(x.split(":")[1]) for x in lefts]
        assert secs == sorted(secs, reverse=True) and secs[0] > secs[-1]
        ja = scene.session.table_note("ja")
        assert scene.session.forfeit_seat() == scene.opp
        assert any(c.key == ("button", "forfeit") for c in scene.offered())
        assert "Aki" in scene.session.table_note("en") and ja
    finally:
        if scene is not None:
            scene.session.leave()
        proc.kill()
        proc.communicate(timeout=30)

"""Networked play from the lobby, end to end over TCP on 127.0.0.1.

The client hosts a table from the lobby (the real ``net.peer.Peer`` driver,
the real session and mesh); a bot peer joins it as a separate process
(``python -m tools.peer join CODE --bot random``) and the human seat is
played by clicks on whatever the table offers. The game must reach the end
screen with the session's audit passed, the same final state hash as the
bot's, dice/shuffle/reveal log lines tagged "verified", and the opponent's
hand drawn only as card backs at every frame.

The default reactor is driven by ``reactor.iterate`` (never run/stopped),
so the test leaves it reusable.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from client.app import App
from client.lobby import LobbyScene
from client.settings import Settings
from tests.client.conftest import click

ROOT = Path(__file__).resolve().parents[2]


def pump(app: App, reactor, rounds: int = 1) -> None:  # type: ignore[no-untyped-def]
    for _ in range(rounds):
        reactor.iterate(0.002)
        app.tick()


@pytest.fixture
def real_app():  # type: ignore[no-untyped-def]
    from twisted.internet import reactor

    application = App((1280, 800), clock=reactor)
    yield application, reactor
    application.running = False


def bot_peer(code: str, home: Path) -> subprocess.Popen[str]:
    keys = home / "botkey"
    keys.mkdir(mode=0o700)
    env = {**os.environ, "XDG_DATA_HOME": str(home / "botdata"), "XDG_CONFIG_HOME": str(home / "botconfig")}
    return subprocess.Popen(
        [sys.executable, "-m", "tools.peer", "join", code, "--bot", "random", "--seed", "4", "--name", "Remote bot",
         "--identity", str(keys / "id.pem"), "--json", "--max-time", "120", "--connect-timeout", "60"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_host_in_the_client_and_play_a_bot_peer_to_the_audited_end(real_app, tmp_path):  # type: ignore[no-untyped-def]
    app, reactor = real_app
    lobby = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1")
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    assert lobby.net is not None and lobby.net.code.startswith("FT1-"), lobby.message
    assert lobby.copy_state in ("copied", "select")  # the code is copied, or shown selected with a hint
    app.render()
    bot = bot_peer(lobby.net.code, tmp_path)
    try:
        deadline = time.monotonic() + 60  # a safety net against a hang, not a speed target
        while time.monotonic() < deadline:  # the bot seats itself; the lobby hands over to the table
            pump(app, reactor)
            if app.scene.name == "table" or bot.poll() is not None:
                break
        assert app.scene.name == "table", f"no game started: {lobby.net and lobby.net.lines} {bot.stderr.read()}"
        scene = app.scene
        session = scene.session
        assert session.networked and session.peer.seat == 0

        asked: list[str] = []
        real_face = scene.art.face

        def spy(card_id, size, lang):  # type: ignore[no-untyped-def]
            asked.append(card_id)
            return real_face(card_id, size, lang)

        scene.art.face = spy  # the renderer still renders for real
        rng = random.Random(3)
        statuses: set[str] = set()
        backs_checked = 0
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if app.scene is not scene:
                break
            pump(app, reactor)
            statuses.add(session.peer_status(scene.opp)[0])
            if scene.session.moves % 3 == 0 and backs_checked < 60 and scene.prompt is None and scene.hover_card is None:
                scene.anims.clear()  # check the resting table (the bot answers faster than cards fly)
                asked.clear()
                scene.draw(app.screen)
                assert set(asked) <= known(scene), "drew a face our seat cannot know"
                backs_checked += opponent_hand_is_backs(app, scene)
            if scene.legal:
                offered = [c for c in scene.offered() if c.key[0] != "pile" and c.label not in ("Cancel", "Close")]
                assert offered
                click(app, rng.choice(offered).rect.center)
        for _ in range(200):
            if app.scene.name == "end":
                break
            pump(app, reactor)
        assert app.scene.name == "end", f"stuck: {session.problem or session.session.waiting_what()}"
        end = app.scene
        assert end.audit_ok, end.audit_detail
        assert session.outcome() is not None
        app.render()
        out, err = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    result = json.loads(out.strip().splitlines()[-1])
    assert bot.returncode == 0, err
    assert result["audit"] == "ok" and result["finished"]
    assert result["final_hash"] == session.session.hashes[-1].hex()  # both peers agree on the end state
    proofs = {entry.proof for entry in scene.log if entry.proof}
    assert proofs == {"verified"}  # dice, shuffles, deals and reveals went through the fair-play protocols
    assert "peer_waiting" in statuses or "peer_connected" in statuses
    assert backs_checked > 0
    # Saving writes the signed transcript
    click(app, end.save_button.rect.center)
    assert end.saved and Path(end.saved).exists(), end.save_error


def known(scene) -> set[str]:  # type: ignore[no-untyped-def]
    state = scene.session.state
    ids: set[str] = set(scene.session.knowledge.cards.values())
    ids.update(card for _, card in state.open_cards)
    for p in state.players:
        ids.update(p.discard)
        ids.update(p.lost)
        for col in p.columns:
            ids.update(c for c, _ in col.cards)
            if col.zero:
                ids.add(col.zero)
    return ids


def opponent_hand_is_backs(app: App, scene) -> int:  # type: ignore[no-untyped-def]
    """Compare each opponent hand slot's pixels with the card back; the number checked."""
    slots = scene.hand_slots(scene.opp)
    if not slots or not all(b.left >= a.right for a, b in itertools.pairwise(slots)):
        return 0
    for rect in slots:
        inner = rect.inflate(-6, -6)
        expected = scene._felt(app.screen.get_size()).subsurface(rect).copy()
        expected.blit(scene.art.back(rect.size), (0, 0))
        back = expected.subsurface(inner.move(-rect.left, -rect.top))
        assert pygame.image.tobytes(app.screen.subsurface(inner), "RGB") == pygame.image.tobytes(back, "RGB")
    return len(slots)

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
from engine.core import Decision
from tests.client.conftest import click, knowable

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


def bot_peer(code: str, home: Path, name: str | None = "Remote bot") -> subprocess.Popen[str]:
    keys = home / "botkey"
    keys.mkdir(mode=0o700)
    env = {**os.environ, "XDG_DATA_HOME": str(home / "botdata"), "XDG_CONFIG_HOME": str(home / "botconfig")}
    return subprocess.Popen(
        [sys.executable, "-m", "tools.peer", "join", code, "--bot", "random", "--seed", "4",
         *(["--name", name] if name is not None else []),
         "--identity", str(keys / "id.pem"), "--json", "--max-time", "120", "--connect-timeout", "60"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
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

        statuses, backs_checked = play_by_clicks(app, reactor, scene)
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


@pytest.mark.slow
def test_join_a_bot_host_by_code_and_play_to_the_audited_end(real_app, tmp_path):  # type: ignore[no-untyped-def]
    app, reactor = real_app
    keys = tmp_path / "hostkey"
    keys.mkdir(mode=0o700)
    host = subprocess.Popen(
        [sys.executable, "-m", "tools.peer", "host", "--bot", "random", "--seed", "8", "--name", "Bot host",
         "--identity", str(keys / "id.pem"), "--json", "--max-time", "120"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "hd"), "XDG_CONFIG_HOME": str(tmp_path / "hc")})
    try:
        assert host.stdout is not None
        code = host.stdout.readline().strip()  # the host prints its invite code first
        assert code.startswith("FT1-"), host.stderr.read() if host.poll() is not None else code
        lobby = LobbyScene(app, Settings(name="Joiner", deck="tidewall-vigil"), lan=False)
        app.switch(lobby)
        click(app, lobby.code_field.rect.center)
        app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=code))
        click(app, lobby.join_button.rect.center)
        assert lobby.net is not None and lobby.net.role == "join", lobby.message
        app.render()  # the joining panel (host fingerprint, progress)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and app.scene.name != "table" and host.poll() is None:
            pump(app, reactor)
        assert app.scene.name == "table", lobby.net and lobby.net.lines
        scene = app.scene
        assert scene.session.me == 1 and scene.session.names[0] == "Bot host"
        _, backs_checked = play_by_clicks(app, reactor, scene, seed=5)
        assert app.scene.name == "end", scene.session.problem
        assert app.scene.audit_ok, app.scene.audit_detail
        out, err = host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    result = json.loads(out.strip().splitlines()[-1])
    assert host.returncode == 0 and result["audit"] == "ok", err
    assert result["final_hash"] == scene.session.session.hashes[-1].hex()
    assert backs_checked > 0


def test_a_remote_seat_that_does_not_answer_is_shown_stalling_by_name(real_app):  # type: ignore[no-untyped-def]
    """The remote peer joins but never decides (no agent): once the session's
    own deadline passes, the players panel and the bar say it is stalling."""
    from client.rider.demo import bot_peer as in_reactor_peer

    app, reactor = real_app
    lobby = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1")
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    lobby.net.peer.session_timeout = 0.3  # the session's deadline per pending input
    remote = in_reactor_peer(reactor, lobby.net.code, name="Sleepy")
    remote.agent = None  # joined, but it will never decide
    try:
        deadline = time.monotonic() + 60
        scene = None
        rng = random.Random(1)
        while time.monotonic() < deadline:
            pump(app, reactor)
            scene = app.scene if app.scene.name == "table" else None
            if scene is None:
                continue
            if scene.legal:  # our set-up; after it the table waits for the sleeper
                session = scene.session
                session.submit(rng.choice(scene.legal))
            # Wait for a stall that cannot end by itself: the sleeper owes a
            # *decision* (it never decides). A stall during one of its automatic
            # protocol parts (a slow shuffle proof on a busy machine) would end
            # when that part arrives, and the claim below would rightly be refused.
            pending = scene.session.pending
            if (isinstance(pending, Decision) and pending.seat == scene.opp
                    and scene.session.forfeit_seat() == scene.opp):
                break
        assert scene is not None and scene.session.peer_status(scene.opp) == "peer_stalling"
        assert "Sleepy" in scene.session.table_note("en")
        assert "did not" in str(scene.session.session.events[-1]) or scene.session.stalling == {scene.opp}
        app.render()
        # the bar offers to claim the win; it asks first, then the session signs the claim
        forfeit = next(c for c in scene.offered() if c.key == ("button", "forfeit"))
        click(app, forfeit.rect.center)
        assert scene.prompt is not None and scene.prompt.kind == "forfeit"
        confirm = next(i for i, b in enumerate(scene.prompt.buttons) if b.primary)
        click(app, scene.prompt.buttons[confirm].rect.center)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and app.scene.name != "end":
            pump(app, reactor)
        assert app.scene.name == "end"
        end = app.scene
        assert end.session.outcome().winner == scene.me and "forfeited" in end.session.outcome().reason
        assert not end.audit_ok and end.audit_detail.startswith("not audited")
        assert end.session.early_end() == ("forfeited", 1 - scene.me)
        app.render()
    finally:
        remote.leave("test over")
        if scene is not None:
            scene.session.leave()


def test_a_cheat_event_stops_the_table_and_names_the_seat(real_app):  # type: ignore[no-untyped-def]
    """The session's Cheat event (as net.session raises it, also for a false state hash) becomes the
    table's stop: the bar names the seat counted from one, the panel says which."""
    from client.rider.demo import bot_peer as in_reactor_peer
    from net.session import Cheat

    app, reactor = real_app
    lobby = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1")
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    remote = in_reactor_peer(reactor, lobby.net.code, name="Mallory")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and app.scene.name != "table":
            pump(app, reactor)
        scene = app.scene
        session = scene.session
        session._on_session_event(Cheat(1, 7, "its shuffle proof does not verify"))
        scene.refresh()
        assert session.peer_status(1) == "peer_cheat" and session.peer_status(0) != "peer_cheat"
        text = scene._problem_text()
        assert "Mallory (Seat 2)" in text and "shuffle proof" in text
        assert scene.legal == []  # nothing more is offered
        app.render()
    finally:
        remote.leave("test over")
        scene.session.leave()


def test_our_lan_advertisement_follows_the_free_seats(real_app):  # type: ignore[no-untyped-def]
    """Playtest: another window listed our 5-seat table as "4 free" while players sat down (the
    advertisement was sent once). The lobby re-announces it whenever the free seats change."""
    from twisted.internet import defer

    from client.table.net_play import LanBrowser

    class Discovery:
        def __init__(self) -> None:
            self.sent: list[tuple[str, int]] = []

        def advertise(self, ad):  # type: ignore[no-untyped-def]
            self.sent.append(("advertise", ad.seats_free))
            return defer.succeed(None)

        def update(self, ad):  # type: ignore[no-untyped-def]
            self.sent.append(("update", ad.seats_free))
            return defer.succeed(None)

    app, reactor = real_app
    host = LobbyScene(app, Settings(name="Alice", game="tiny"), lan=False, host_interface="127.0.0.1")
    app.switch(host)
    host.lan = LanBrowser(reactor, host._net_changed)
    host.lan.discovery = discovery = Discovery()
    try:
        host._host()
        assert host.net is not None and discovery.sent == [("advertise", host.net.seats_free())]
        before = host.net.seats_free()
        host.net.add_bot()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and host.net.seats_free() == before:
            pump(app, reactor)
        pump(app, reactor)
        assert ("update", before - 1) in discovery.sent
        assert len([x for x in discovery.sent if x == ("update", before - 1)]) == 1  # once per change
    finally:
        host.lan = None
        if host.net is not None:
            host.net.cancel()


def test_the_lan_list_is_bounded_against_a_flood_of_advertisements() -> None:
    """Hostile: one LAN host advertising table after table must not grow the list without end;
    an update of a table already listed still shows."""
    from client.table.net_play import MAX_LAN_TABLES, LanBrowser
    from net.identity import Identity
    from net.transport.discovery import TableAd

    lan = LanBrowser(None, lambda: None)
    fingerprint = Identity.generate().fingerprint
    ads = [TableAd(f"t{i}", "locke", 4, fingerprint, i.to_bytes(8, "big"), 4000, ("127.0.0.1",))
           for i in range(MAX_LAN_TABLES + 10)]
    for ad in ads:
        lan._found(ad)
    assert len(lan.tables) == MAX_LAN_TABLES
    lan._found(TableAd("t0", "locke", 1, fingerprint, ads[0].table, 4000, ("127.0.0.1",)))
    assert len(lan.tables) == MAX_LAN_TABLES and 1 in {a.seats_free for a in lan.tables.values()}


def test_a_table_on_the_lan_list_is_joined_with_a_click(real_app):  # type: ignore[no-untyped-def]
    """The list shows what discovery reports (here the host's own advertisement,
    handed to the browser as zeroconf would: real mDNS leaves the loopback
    range, so its round trip is an opt-in test in tests/net/transport); a
    click on a row dials that host, which seats us."""
    from client.table.net_play import LanBrowser
    from net.identity import Identity
    from net.transport.discovery import service_name
    from net.transport.invite import parse_invite

    app, reactor = real_app
    host = LobbyScene(app, Settings(name="Alice"), lan=False, host_interface="127.0.0.1")
    app.switch(host)
    click(app, host.host_button.rect.center)
    ad = host.net.ad()
    seeker = LobbyScene(app, Settings(name="Bob"), lan=False, identity=Identity.generate())
    seeker.resized(app.screen.get_size())
    seeker.lan = LanBrowser(reactor, seeker._net_changed)  # not started: no sockets
    seeker.lan._found(ad)
    try:
        rows = seeker.lan_rows()
        assert [r[1] for r in rows] == [ad] and service_name(ad) in seeker.lan.tables
        seeker.draw(app.screen)  # name, fingerprint, free seats, Join
        invite = parse_invite(host.net.code)
        assert ad.fingerprint == invite.fingerprint and ad.seats_free == 1 and ad.name == "Alice"
        seeker.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rows[0][0].center, button=1))
        assert seeker.net is not None and seeker.net.role == "join"
        assert seeker.net.peer.invite.table == invite.table
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any("takes seat" in ln for ln in (host.net.lines if host.net else [])):
            pump(app, reactor)
        assert app.scene.name == "table" or any("takes seat" in ln for ln in host.net.lines)
    finally:
        if seeker.net is not None:
            seeker.net.cancel()
        if app.scene.name == "table":
            app.scene.session.leave()
        elif host.net is not None:
            host.net.cancel()
        seeker.lan = None


@pytest.mark.skipif(os.environ.get("FAIRTABLE_MDNS_TESTS") != "1",
                    reason="real mDNS leaves the loopback range: set FAIRTABLE_MDNS_TESTS=1 to run it")
def test_a_hosted_table_shows_up_in_another_lobby_s_lan_list(real_app):  # type: ignore[no-untyped-def]
    """zeroconf on 127.0.0.1: one lobby hosts and advertises, another lists it
    with the host's fingerprint and an invite that leads to the same table."""
    from net.transport.invite import parse_invite

    app, reactor = real_app
    pool = reactor.getThreadPool()  # zeroconf's blocking calls run there; the reactor never runs in tests
    pool.start()
    host = LobbyScene(app, Settings(name="Alice"), lan=True, lan_loopback=True, host_interface="127.0.0.1")
    app.switch(host)
    browser = LobbyScene(app, Settings(name="Bob"), lan=True, lan_loopback=True)
    browser.resized(app.screen.get_size())
    browser.enter()
    try:
        click(app, host.host_button.rect.center)
        assert host.net is not None
        invite = parse_invite(host.net.code)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not browser.lan_rows():
            pump(app, reactor)
        rows = browser.lan_rows()
        assert len(rows) == 1, browser.lan.error
        ad = rows[0][1]
        assert ad.name == "Alice" and ad.fingerprint == invite.fingerprint and ad.seats_free == 1
        assert ad.invite().table == invite.table and ad.invite().addresses[0][1] == invite.addresses[0][1]
        browser.draw(app.screen)  # the row is drawn (name, fingerprint, free seats, Join)
    finally:
        host.leave()
        browser.leave()
        for _ in range(100):
            pump(app, reactor)
        pool.stop()
        reactor.threadpool = None  # a later getThreadPool() builds a fresh pool


def play_by_clicks(app: App, reactor, scene, seed: int = 3, wall: float = 180.0) -> tuple[set[str], int]:  # type: ignore[no-untyped-def]
    """Click random offered controls whenever it is our move, until the end
    screen; check the hidden-information rules on resting frames. Returns the
    opponent statuses seen and how many opponent hand slots were checked."""
    session = scene.session
    asked: list[str] = []
    real_face = scene.art.face

    def spy(card_id, size, lang):  # type: ignore[no-untyped-def]
        asked.append(card_id)
        return real_face(card_id, size, lang)

    scene.art.face = spy  # the renderer still renders for real
    rng = random.Random(seed)
    statuses: set[str] = set()
    backs_checked = 0
    deadline = time.monotonic() + wall  # a safety net against a hang, not a speed target
    while time.monotonic() < deadline and app.scene is scene:
        pump(app, reactor)
        statuses.add(session.peer_status(scene.opp))
        if session.moves % 3 == 0 and backs_checked < 60 and scene.prompt is None and scene.hover_card is None:
            scene.anims.clear()  # check the resting table (the bot answers faster than cards fly)
            asked.clear()
            scene.draw(app.screen)
            assert set(asked) <= knowable(scene), "drew a face our seat cannot know"
            backs_checked += opponent_hand_is_backs(app, scene)
        if scene.legal:
            offered = [c for c in scene.offered() if c.key[0] != "pile" and c.label not in ("Cancel", "Close")]
            assert offered, "our seat must always be offered something when it is our move"
            click(app, rng.choice(offered).rect.center)
    for _ in range(400):
        if app.scene.name == "end":
            break
        pump(app, reactor)
    return statuses, backs_checked




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


def test_remote_names_are_made_safe_to_show() -> None:
    from client.table.words import display_name

    assert display_name("Mallory\n\u202e\x00evil", 1) == "Malloryevil"
    assert display_name("x" * 40, 0) == "x" * 23 + "…"
    assert display_name(" \t ", 1) == "Player 2"



def test_joining_with_a_code_whose_key_does_not_match_says_so_and_the_host_keeps_waiting(real_app):  # type: ignore[no-untyped-def]
    """The invite names the host's address but another key: the lobby stays
    up and tells the player the table's key does not match, with what to do."""
    from net.identity import Identity
    from net.games import game_named
    from net.peer import Peer
    from net.transport.invite import Invite

    app, reactor = real_app
    host = Peer(Identity.generate(), game_named("rider"), reactor=reactor, agent=game_named("rider").bot("random", random.Random(1)),
                name="Host", linger=0.2)
    invite = host.host(2, interface="127.0.0.1")
    forged = Invite(invite.table, Identity.from_seed(bytes(32)).fingerprint, invite.addresses).encode()
    lobby = LobbyScene(app, Settings(name="Joiner"), lan=False)
    app.switch(lobby)
    try:
        click(app, lobby.code_field.rect.center)
        app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=forged))
        click(app, lobby.join_button.rect.center)
        assert lobby.net is not None, lobby.message
        deadline = time.monotonic() + 30  # a safety net against a hang, not a speed target
        while lobby.net is not None and time.monotonic() < deadline:
            pump(app, reactor)
        assert lobby.net is None and app.scene is lobby
        assert "does not match the invite code" in lobby.message and "fresh invite code" in lobby.message, \
            lobby.message
        app.render()
        assert host.result is None and host.genesis is None  # the host still waits for its real player
    finally:
        host.leave("test over")
        # let the host's links close on the shared reactor, so no later test finds them open
        settle = time.monotonic() + 1.0  # the host's linger (0.2 s) and the joiner's close, with room
        while time.monotonic() < settle:
            pump(app, reactor)


def test_two_windows_with_one_identity_are_told_at_once_that_it_is_their_own_table(real_app):  # type: ignore[no-untyped-def]
    """Issue 29 item 3: the second window of one computer joins the first's table with the same
    key; within 2 s it says so and how to play yourself (a profile of its own)."""
    from net.identity import Identity
    from net.games import game_named
    from net.peer import Peer

    app, reactor = real_app
    me = Identity.generate()
    host = Peer(me, game_named("rider"), reactor=reactor, agent=game_named("rider").bot("random", random.Random(1)),
                name="Host", linger=0.2)
    invite = host.host(2, interface="127.0.0.1")
    lobby = LobbyScene(app, Settings(name="Me again"), lan=False, identity=me)
    app.switch(lobby)
    try:
        click(app, lobby.code_field.rect.center)
        app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=invite.encode()))
        started = time.monotonic()
        click(app, lobby.join_button.rect.center)
        while lobby.net is not None and time.monotonic() < started + 2.0:
            pump(app, reactor)
        assert lobby.net is None and time.monotonic() - started < 2.0, lobby.message
        assert "your own table" in lobby.message and "FAIRTABLE_PROFILE=2" in lobby.message, lobby.message
        assert host.result is None and host.genesis is None  # the host still waits for a real second player
    finally:
        host.leave("test over")
        settle = time.monotonic() + 1.0
        while time.monotonic() < settle:
            pump(app, reactor)


def test_the_host_fills_an_empty_seat_with_a_bot_from_the_lobby_and_the_game_starts(real_app):  # type: ignore[no-untyped-def]
    """Issue 29: *Add a bot* in the host box seats a bot that runs on this computer with its own key;
    at a 2-seat Rider table that fills it and the table scene takes over."""
    app, reactor = real_app
    lobby = LobbyScene(app, Settings(name="Host"), lan=False, host_interface="127.0.0.1")
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    assert lobby.net is not None and lobby.bot_seat_button.enabled and lobby.empty_shown == 1
    assert lobby.fill_button.enabled and lobby.fill_button.label == "Start with bots"
    app.render()
    click(app, lobby.bot_seat_button.rect.center)
    bots = lobby.net.peer.bot_seats if lobby.net is not None else []
    assert len(bots) == 1 and bots[0].identity.public_key != lobby.net.peer.identity.public_key  # type: ignore[union-attr]
    deadline = time.monotonic() + 30  # a safety net against a hang, not a speed target
    while app.scene.name != "table" and time.monotonic() < deadline:
        pump(app, reactor)
    assert app.scene.name == "table", lobby.message
    scene = app.scene
    # leaving a running game (issue 29 item 5): asked first, then given up, and the end screen follows
    while not scene.session.legal() and time.monotonic() < deadline:  # type: ignore[attr-defined]
        pump(app, reactor)  # until the table asks us something: the game runs
    scene._leave()  # type: ignore[attr-defined]
    assert scene.prompt is not None and scene.prompt.kind == "leave"  # type: ignore[attr-defined]
    confirm = next(b for b in scene.prompt.buttons if not b.primary)  # type: ignore[attr-defined]
    click(app, confirm.rect.center)
    started = time.monotonic()
    while app.scene.name != "end" and time.monotonic() < deadline + 30:
        pump(app, reactor)
    assert app.scene.name == "end", "leaving a running networked game shows its end screen"
    assert time.monotonic() - started < 10  # a safety net, not a speed target
    end = app.scene
    assert end.session.early_end() == ("resigned", 0)  # type: ignore[attr-defined]
    click(app, end.save_button.rect.center)  # type: ignore[attr-defined]
    assert end.saved, end.save_error  # type: ignore[attr-defined]
    click(app, end.lobby_button.rect.center)  # type: ignore[attr-defined]
    assert app.scene.name == "lobby"
    settle = time.monotonic() + 1.0
    while time.monotonic() < settle:
        pump(app, reactor)

"""The peer driver's progress in the lobby's hosting/joining box: stable ids
(net.peer.progress) shown in the player's language (client.i18n)."""

from __future__ import annotations

import time

from client.i18n import progress_text
from tests.client.words import all_words
from client.lobby import LobbyScene
from client.settings import Settings
from net.peer.progress import TEMPLATES, Progress, progress
from tests.client.conftest import click
from tests.client.test_client_net import pump, real_app  # noqa: F401  (the fixture)


def test_every_driver_progress_id_has_english_and_japanese_words() -> None:
    for event_id in TEMPLATES:
        en, ja = all_words()[f"progress_{event_id}"]
        assert en and ja and en != ja, event_id


def test_progress_is_worded_per_language_with_seats_counted_from_one() -> None:
    taken = progress("seat_taken", who="Ayumi", seat=1, size=2)
    assert taken.text == "Ayumi takes seat 2 (of 2 seats; seat 1 is the host)"  # the driver's own line, the same numbers
    assert progress_text("en", taken) == "Ayumi takes seat 2 of 2"
    assert progress_text("ja", taken) == "Ayumiが席2（全2席）に入りました"
    link = progress("link_seat", peer="AB12", seat=0, status="reconnecting")
    assert progress_text("en", link) == "Seat 1 (AB12): connection lost, reconnecting"
    assert progress_text("ja", link) == "席1（AB12）：接続が切れました。再接続中"
    step = progress("step", step=30, who_text="seat 1", what_text="roll dice", seats=[1])
    assert progress_text("ja", step) == "手番30：席2を待っています"
    stall = progress("stalling", event_text="...", seats=[1], names=["Ken"])
    assert progress_text("en", stall) == "Waiting: Ken (seat 2) did not answer in time"
    unknown = Progress("from_a_newer_driver", {"x": 1}, "something new happened")
    assert progress_text("ja", unknown) == "something new happened"  # the English line, never a key


def test_the_hosting_box_shows_the_driver_progress_in_japanese(real_app) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    from client.rider.demo import bot_peer as in_reactor_peer

    app, reactor = real_app
    app.set_lang("ja")
    lobby = LobbyScene(app, Settings(name="Host", lang="ja"), lan=False, host_interface="127.0.0.1", resumable=False)
    app.switch(lobby)
    click(app, lobby.host_button.rect.center)
    table = lobby.net
    assert table is not None
    remote = in_reactor_peer(reactor, table.code, name="Ken")
    try:
        deadline = time.monotonic() + 30  # a safety net against a hang, not a speed target
        while time.monotonic() < deadline and not any(e.id == "seat_taken" for e in table.events):
            pump(app, reactor)
        shown = table.progress_lines("ja")
        assert shown[0].startswith("2人用の卓を開きました") and "127.0.0.1" not in shown[0]  # no address or key
        assert "Kenが席2（全2席）に入りました" in shown
        assert table.progress_lines("en")[0] == "Your table for 2 is open. Give each friend the code above."
        assert any("takes seat 2 " in line for line in table.lines)  # the driver's English lines are kept, counted from 1
        if app.scene is lobby:
            app.render()
    finally:
        remote.leave("test over")
        if app.scene.name == "table":
            app.scene.session.leave()
        elif lobby.net is not None:
            lobby.net.cancel()

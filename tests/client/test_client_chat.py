"""Issue 15 item 8: signed table chat in the side panel, with quick
reactions, on a networked table over TCP on 127.0.0.1 (the real peer driver
and session on both sides: every line is a signed envelope of its seat)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from client.app import App
from client.i18n import tr
from tests.client.conftest import click, key

pytestmark = pytest.mark.slow


@pytest.fixture
def net_table() -> Iterator[tuple[App, Any, Any, Any]]:
    from twisted.internet import reactor

    from client.rider.demo import play_networked_to_midgame

    app = App((1280, 800), clock=reactor)
    scene, remote = play_networked_to_midgame(app, reactor, seed=11)
    yield app, reactor, scene, remote
    scene.session.leave()
    if remote.result is None:
        remote.leave("test over")
    for _ in range(50):
        reactor.iterate(0.002)


def pump_until(app: App, reactor: Any, done: Any, wall: float = 20.0) -> None:
    deadline = time.monotonic() + wall  # a safety net against a hang, not a speed target
    while time.monotonic() < deadline and not done():
        reactor.iterate(0.002)
        app.tick()
    assert done()


def type_text(app: App, text: str) -> None:
    app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=text))


def test_chat_lines_reactions_and_the_budget(net_table) -> None:  # type: ignore[no-untyped-def]
    app, reactor, scene, remote = net_table
    field = scene.chat_field
    assert field is not None
    me = scene.me
    steps = scene.session.session.step
    click(app, field.rect.center)
    assert field.focused
    type_text(app, "good luck, have fun")
    key(app, pygame.K_e)  # a shortcut key types into the field while it is focused ...
    assert field.value == "good luck, have fun" and scene.session.session.step == steps  # ... and plays nothing
    key(app, pygame.K_RETURN)
    assert field.value == ""
    pump_until(app, reactor, lambda: (me, "good luck, have fun") in remote.session.chat_log)
    assert any(e.chat and e.text == "You (Seat 1): good luck, have fun" for e in scene.log)
    remote.chat("thanks!")  # the far side's signed line arrives in our log under its name
    pump_until(app, reactor, lambda: any(e.chat and e.text == "Remote bot (Seat 2): thanks!" for e in scene.log))
    assert scene.session.session.step >= steps  # chat is never game input
    app.render()
    # a quick reaction sends its words in our language
    app.set_lang("ja")
    scene._build_controls()
    gg = next(b for b in scene.chat_buttons if b.payload == ("chat", "react_gg"))
    click(app, gg.rect.center)
    pump_until(app, reactor, lambda: (scene.me, tr("ja", "react_gg")) in remote.session.chat_log)
    # over the per-move budget a line is refused with a reason, and the field keeps it
    from net.session.limits import CHAT_PER_STEP

    app.set_lang("en")
    sent = sum(1 for seat, _ in scene.session.session.chat_log if seat == me)
    for i in range(CHAT_PER_STEP - sent):
        scene._send_chat(f"line {i}")
    click(app, field.rect.center)
    type_text(app, "one too many")
    key(app, pygame.K_RETURN)
    assert field.value == "one too many"  # kept, to send after the next move
    assert scene.notice is not None and "not sent" in scene.notice[0]

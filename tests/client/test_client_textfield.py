"""Item: text fields that behave (cursor, key repeat, select-all, clear button,
the whole invite code visible) and a join that fails fast and keeps the code."""

from __future__ import annotations

import socket
import time

import pygame

from client.lobby import LobbyScene
from client.settings import Settings
from client.widgets import TextField
from tests.client.conftest import click, key
from tests.client.test_client_net import pump, real_app  # noqa: F401 - the fixture


def typed(app, text: str) -> None:  # type: ignore[no-untyped-def]
    app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=text))


def test_cursor_editing_select_all_and_clear(app):  # type: ignore[no-untyped-def]
    field = TextField(pygame.Rect(10, 10, 300, 40), "", max_len=20)
    field.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(50, 30), button=1))
    assert field.focused
    for text in ("ac",):
        field.handle(pygame.event.Event(pygame.TEXTINPUT, text=text))
    field.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0))
    field.handle(pygame.event.Event(pygame.TEXTINPUT, text="b"))
    assert field.value == "abc" and field.cursor == 2
    field.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0))
    field.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DELETE, mod=0))
    assert field.value == "bc" and field.cursor == 0
    field.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0))
    field.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0))
    assert field.value == "b"
    field.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_CTRL))
    assert field.all_selected
    field.handle(pygame.event.Event(pygame.TEXTINPUT, text="xyz"))
    assert field.value == "xyz" and not field.all_selected  # typing replaced the selection
    surface = pygame.Surface((400, 80))
    field.draw(surface)
    field.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=field.clear_rect.center, button=1))
    assert field.value == "" and field.focused
    # a click places the cursor where it lands
    field.handle(pygame.event.Event(pygame.TEXTINPUT, text="hello"))
    field.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(field.rect.left + 9, field.rect.centery), button=1))
    assert field.cursor == 0


def test_held_keys_repeat(app):  # type: ignore[no-untyped-def]
    assert pygame.key.get_repeat()[0] > 0 and pygame.key.get_repeat()[1] > 0


def test_a_whole_invite_code_is_visible_in_the_join_field(app):  # type: ignore[no-untyped-def]
    lobby = LobbyScene(app, Settings(name="Ann"), lan=False, resumable=False)
    app.switch(lobby)
    code = "FT1-" + "-".join(["ABCDE"] * 16)
    lobby.code_field.insert(code)
    size, spans = lobby.code_field.layout_text()
    assert spans[0][0] == 0 and spans[-1][1] == len(code)  # nothing of it cut off
    assert size >= 10 and len(spans) <= 2
    app.render()


def test_paste_goes_in_at_the_cursor(app, monkeypatch):  # type: ignore[no-untyped-def]
    import client.table.net_play as net_play

    monkeypatch.setattr(net_play, "paste_from_clipboard", lambda: " FT1-ZZZ \n")
    lobby = LobbyScene(app, Settings(name="Ann"), lan=False, resumable=False)
    app.switch(lobby)
    click(app, lobby.code_field.rect.center)
    key(app, pygame.K_v, pygame.KMOD_CTRL)
    assert lobby.code_field.value == "FT1-ZZZ"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_refused_join_fails_in_seconds_says_nobody_listens_and_keeps_the_code(real_app):  # type: ignore[no-untyped-def]
    from net.identity import Identity
    from net.transport.invite import TABLE_SIZE, Invite

    app, reactor = real_app
    port = free_port()  # closed again: nobody listens there
    code = Invite(bytes(TABLE_SIZE), Identity.generate().fingerprint, (("127.0.0.1", port),)).encode()
    lobby = LobbyScene(app, Settings(name="Ann"), lan=False, resumable=False)
    app.switch(lobby)
    click(app, lobby.code_field.rect.center)
    typed(app, code)
    click(app, lobby.join_button.rect.center)
    assert lobby.net is not None
    start = time.monotonic()
    while lobby.net is not None and time.monotonic() - start < 15:
        pump(app, reactor)
    took = time.monotonic() - start
    assert lobby.net is None and took < 8, took
    assert "nobody is listening at that address" in lobby.message and str(port) in lobby.message
    assert lobby.code_field.value == code  # the code is still there to fix or retry
    app.render()

"""Item: small windows. The widgets the player clicks or reads never overlap,
at the minimum window (960x600), 1280x800 and 1920x1080: the table's bar and
side-panel buttons, the why-not notice, and the lobby's fields and buttons."""

from __future__ import annotations

import itertools

import pygame
import pytest
from twisted.internet.task import Clock

from client.app import App
from client.lobby import LobbyScene
from client.rider.demo import play_to_midgame
from client.help import TEXT_SIZE
from client.i18n import tr
from client.settings import Settings
from client.text import line_height, wrap

SIZES = [(960, 600), (1280, 800), (1920, 1080)]


def no_overlap(rects: list[tuple[str, pygame.Rect]], size: tuple[int, int]) -> None:
    screen = pygame.Rect((0, 0), size)
    for name, rect in rects:
        assert screen.contains(rect), (size, name, rect)
    for (na, a), (nb, b) in itertools.combinations(rects, 2):
        assert not a.colliderect(b), (size, na, a, nb, b)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_table_widgets_do_not_overlap(size: tuple[int, int], lang: str) -> None:
    clock = Clock()
    app = App(size, clock=clock, lang=lang)
    scene = play_to_midgame(app, clock, seed=11)
    scene.press(("button", "pass"))  # not allowed here: a notice comes up
    scene._build_controls()
    rects = [(f"bar:{b.label}", b.rect) for b in scene.bar_buttons]
    L = scene.layout
    if L.collapsed:  # the minimum window: the panel is a strip; its toggle opens it over the board
        assert [b.payload for b in scene.side_buttons] == ["panel"]
        assert L.board.width >= size[0] - 60
        click_button = scene.side_buttons[0]
        click_button.on_click()
        assert scene.panel_open and [b.payload for b in scene.side_buttons] == ["panel", "lobby", "settings", "help", "concede"]
    rects += [(f"side:{b.label}", b.rect) for b in scene.side_buttons]
    no_overlap(rects, size)
    for _, rect in rects:
        if _.startswith("bar:"):
            assert L.bar.contains(rect)
        else:
            assert L.side.contains(rect) or L.side_open.contains(rect)
    if scene.notice is not None:
        note = scene.notice_rect(scene.notice[0], scene.notice[1])
        assert L.board.contains(note) and not note.colliderect(L.bar) and not note.colliderect(L.side)
    # the hand cards stay wide enough to read their text
    assert L.hand_card[0] >= 75 and L.card[0] >= 65  # the smallest faces, at 960x600 (height-bound)
    app.render()
    # the help overlay: its tabs, close button and every legend icon and text cell
    scene.toggle_help()
    assert scene.help is not None
    help_rects = scene.help.widget_rects()
    assert len([n for n, _ in help_rects if n.startswith("help_icon:")]) == len(scene.help.pages[0].entries)
    no_overlap(help_rects, size)
    for name, rect in help_rects:
        assert scene.help.rect.contains(rect), (name, rect)
    # every legend text fits its cell whole, in this language
    for entry, (_icon, cell) in zip(scene.help.pages[0].entries, scene.help.cells):
        lines = wrap(tr(lang, entry.text_key), TEXT_SIZE, cell.width)
        assert len(lines) * line_height(TEXT_SIZE) <= cell.height, (size, lang, entry.text_key, lines)
    app.render()
    scene.toggle_help()
    # the settings panel: its rows' labels and options and its close button
    scene.toggle_settings()
    assert scene.settings_panel is not None
    panel_rects = scene.settings_panel.widget_rects()
    no_overlap(panel_rects, size)
    for name, rect in panel_rects:
        assert scene.settings_panel.rect.contains(rect), (name, rect)
    app.render()


def table_rects(scene) -> list[tuple[str, pygame.Rect]]:  # type: ignore[no-untyped-def]
    """The bar's and side panel's buttons, the chat field and its buttons."""
    rects = [(f"bar:{b.payload}", b.rect) for b in scene.bar_buttons]
    rects += [(f"side:{b.payload}", b.rect) for b in scene.side_buttons]
    rects += [(f"chat:{b.payload}", b.rect) for b in scene.chat_buttons]
    if scene.chat_field is not None and scene.chat_buttons:
        rects.append(("chat:field", scene.chat_field.rect))
    return rects


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_set_up_picker_widgets_do_not_overlap(size: tuple[int, int], lang: str) -> None:
    from client.rider.play import start_local_game

    clock = Clock()
    app = App(size, clock=clock, lang=lang)
    scene = start_local_game(app, Settings(), on_leave=lambda: None, seed=4)
    assert scene.setup is not None
    rects = table_rects(scene) + [(f"card:{c}", r) for r, c in scene.setup_slots()]
    assert {"bar:('button', 'setup_place')", "bar:('button', 'setup_fill')"} <= {n for n, _ in rects}
    no_overlap(rects, size)
    for rect, _card in scene.setup_slots():
        assert scene.layout.near.hand.contains(rect)
    for name, rect in rects:
        if name.startswith("bar:"):
            assert scene.layout.bar.contains(rect), name
            assert rect.left >= scene.layout.bar.left + 200  # the status text keeps room on the left
    app.render()


@pytest.mark.slow
def test_networked_table_widgets_and_chat_do_not_overlap() -> None:
    from twisted.internet import reactor

    from client.rider.demo import play_networked_to_midgame

    app = App((1280, 800), clock=reactor)
    scene, remote = play_networked_to_midgame(app, reactor, seed=11)
    try:
        for size in SIZES:
            app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
            scene.resized(size)
            if scene.layout.collapsed:
                scene.panel_open = True
                scene._build_controls()
            rects = table_rects(scene)
            assert scene.chat_field is not None and len(scene.chat_buttons) == 5, size
            no_overlap(rects, size)
            chat = scene.chat_rect()
            assert chat is not None and scene.side_rect().contains(chat)
            app.render()
    finally:
        scene.session.leave()
        remote.leave("test over")
        for _ in range(50):
            reactor.iterate(0.002)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", ["rider", "tiny", "locke"])
def test_lobby_widgets_do_not_overlap(size: tuple[int, int], lang: str, game: str) -> None:
    """Each game's own set-up picker (Rider: deck and bot; Tiny: seats; Locke: seats and bot) fits the lobby."""
    app = App(size, clock=Clock(), lang=lang)
    lobby = LobbyScene(app, Settings(name="Ann", lang=lang, game=game), lan=False, resumable=False)
    app.switch(lobby)
    assert len(lobby.setup_choices) == {"rider": 2, "tiny": 1, "locke": 3}[game]
    rects: list[tuple[str, pygame.Rect]] = [
        ("lang", lobby.lang_choice.rect), ("name", lobby.name_field.rect),
        *((f"setup {label}", choice.rect) for label, choice in lobby.setup_choices),
        ("play", lobby.play_button.rect), ("quit", lobby.quit_button.rect),
        ("host", lobby.host_button.rect), ("code", lobby.code_field.rect), ("join", lobby.join_button.rect),
        ("lan", lobby.lan_rect), ("settings", lobby.settings_button.rect), ("help", lobby.help_button.rect),
    ]
    no_overlap(rects, size)
    app.render()


def test_a_long_label_shrinks_clear_of_its_hotkey_tag() -> None:
    """Issue 29 item 7: the lobby's Resume button (a long name, the Enter tag) no longer runs under the tag."""
    import pygame

    from client.text import fit_line, render
    from client.widgets import Button

    button = Button(pygame.Rect(0, 0, 330, 40), "Resume the game with Hanako and Taro", lambda: None,
                    primary=True, hotkey="Enter")
    size = max(12, min(20, button.rect.height // 2))
    text, shown = fit_line(button.label, size, button.label_room(size), bold=True)
    width = render(text, shown, (0, 0, 0), True).get_width()
    tag = render("Enter", 11, (0, 0, 0)).get_width()
    assert button.label_area(size).centerx + width // 2 <= button.rect.right - 5 - tag  # ends left of the tag
    small = Button(pygame.Rect(0, 0, 90, 38), "Help", lambda: None, hotkey="F1", size=17)
    assert fit_line("Help", 17, small.label_room(17)) == ("Help", 17)  # a short label beside its tag: whole
    plain = Button(pygame.Rect(0, 0, 330, 40), "Resume the game with Hanako and Taro", lambda: None)
    assert plain.label_room(size) == 330 - 12  # no tag: the whole width

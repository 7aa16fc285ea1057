"""Issue 15 item 4: the help overlay (F1 or ?) with a legend of every icon and
badge the table draws, the rules on a page and the keys; it is modal, re-words
itself in the player's language and scrolls where the page is longer than the
window."""

from __future__ import annotations

import pygame

from client.help import is_help_key
from client.i18n import tr
from tests.client.words import all_words
from client.rider.demo import play_to_midgame
from client.rider.help import KEYS, RULES
from tests.client.conftest import click, key


def test_f1_opens_the_overlay_and_esc_closes_it(app, clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    key(app, pygame.K_F1)
    assert scene.help is not None and scene.help.page == 0
    app.render()
    key(app, pygame.K_ESCAPE)
    assert scene.help is None


def test_the_question_mark_key_toggles_it_on_any_layout(app, clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    question = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=pygame.KMOD_LSHIFT, unicode="?", scancode=0)
    assert is_help_key(question)
    assert not is_help_key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=0, unicode="/", scancode=0))
    app.dispatch(question)
    assert scene.help is not None
    app.dispatch(question)
    assert scene.help is None


def test_the_side_panel_button_opens_it_and_close_shuts_it(app, clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    button = next(b for b in scene.side_buttons if b.payload == "help")
    click(app, button.rect.center)
    assert scene.help is not None
    click(app, scene.help.close_button.rect.center)
    assert scene.help is None


def test_it_is_modal_a_click_on_the_board_does_nothing_while_it_is_open(app, clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    hand = [h for h, _ in scene.my_hand()]
    playable = next(i for i, h in enumerate(hand) if ("hand", h) in scene.intents.sources())
    scene.toggle_help()
    before = len(scene.session.table.log)
    slot = scene.hand_slots(scene.me)[playable]
    click(app, slot.center)
    key(app, pygame.K_e)
    assert scene.selected is None and len(scene.session.table.log) == before and scene.help is not None
    scene.toggle_help()
    click(app, slot.center)
    assert scene.selected == ("hand", hand[playable])  # once closed, the same click selects the card


def test_tabs_switch_pages_by_click_and_number(app, clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    scene.toggle_help()
    overlay = scene.help
    assert [tr("en", p.title_key) for p in overlay.pages] == ["Icons and badges", "Rules", "Controls"]
    click(app, overlay.tabs[1].rect.center)
    assert overlay.page == 1 and overlay.tabs[1].selected and not overlay.tabs[0].selected
    assert not overlay.cells  # a text page has no legend cells
    key(app, pygame.K_3)
    assert overlay.page == 2
    app.render()


def test_the_legend_names_every_badge_the_table_draws(app, clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    scene.toggle_help()
    keys = {e.text_key for e in scene.help.pages[0].entries}
    for badge in ("level", "power", "marks", "attributes", "sp", "gold", "placed", "head", "atk", "back", "glow",
                  "proof", "dots", "lost"):
        assert f"help_l_{badge}" in keys
    for k in keys | {f"{r}_t" for r in RULES + KEYS} | set(RULES + KEYS):
        en, ja = all_words()[k]
        assert en and ja and en != ja, k  # worded in both languages


def test_the_rules_page_scrolls_on_a_small_window_and_rewords_in_japanese(clock):  # type: ignore[no-untyped-def]
    from client.app import App

    app = App((960, 600), clock=clock)
    scene = play_to_midgame(app, clock, seed=11)
    scene.toggle_help()
    overlay = scene.help
    overlay.show(1)
    assert overlay.max_scroll() > 0  # the whole rules page does not fit at 960x600 ...
    app.dispatch(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    assert overlay.scroll == 3  # ... and the wheel scrolls it
    for _ in range(50):
        key(app, pygame.K_PAGEDOWN)
    assert overlay.scroll == overlay.max_scroll()  # never past the end
    english = [line for line, _ in overlay.text_lines()]
    assert any("Lost pile" in line for line in english)
    scene._toggle_lang()
    japanese = [line for line, _ in overlay.text_lines()]
    assert japanese != english and any("ロスト" in line for line in japanese)
    assert tr("ja", "help_rules") in [t.label for t in overlay.tabs]
    app.render()

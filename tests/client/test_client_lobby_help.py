"""The lobby's help overlay shows the chosen game's pages (client/table/ui.py game_help), in
either language: Rider's legend and rules for Rider, Tiny's rules for Tiny, and for Locke,
which has no client table yet, a page that says so, where its rules are and how to play it
now. Every page comes through the game's registry entry (its client UI's ``help_pages``, or
the entry's ``rules_doc`` for a game without one). Screenshots are written and read back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from twisted.internet.task import Clock

from client.help import HelpOverlay
from client.main import build_app
from client.settings import Settings
from client.table.ui import game_help
from net.games import games
from tests.client.conftest import click, key

ROOT = Path(__file__).resolve().parents[2]


def _pick(app: Any, name: str) -> None:
    click(app, next(b for b in app.scene.game_choice.buttons if b.payload == name).rect.center)


def _all_text(overlay: HelpOverlay) -> str:
    """Every word of every page (legend entries and paragraphs), as the overlay shows them."""
    from client.i18n import tr

    words = []
    for i, page in enumerate(overlay.pages):
        overlay.show(i)
        words += [tr(overlay.lang, e.text_key) for e in page.entries]
        words += [line for line, _ in overlay.text_lines()]
    overlay.show(0)
    return " ".join(words)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lobby_help_follows_the_chosen_game(lang: str, clock: Clock, private_dirs: Any, tmp_path: Path) -> None:
    app = build_app(clock=clock, settings=Settings(name="Ann", game="rider", lang=lang))
    lobby = app.scene
    seen: dict[str, str] = {}
    for game in ("rider", "tiny", "locke", "rider"):  # back to Rider: nothing sticks from the last game
        _pick(app, game)
        key(app, pygame.K_F1)
        overlay = lobby.help
        assert isinstance(overlay, HelpOverlay)
        assert [p.title_key for p in overlay.pages] == [p.title_key for p in game_help(game)]
        seen[game] = _all_text(overlay)
        app.render()
        shot = tmp_path / f"lobby-help-{game}-{lang}.png"
        pygame.image.save(app.screen, str(shot))
        assert pygame.image.load(str(shot)).get_size() == app.screen.get_size()
        key(app, pygame.K_ESCAPE)
        assert lobby.help is None
    assert overlay.pages[0].entries  # Rider's first page is the legend of its table's icons
    rider, tiny, locke = seen["rider"], seen["tiny"], seen["locke"]
    assert len({rider, tiny, locke}) == 3
    tiny_goal = {"en": "the two dice", "ja": "ダイス2つ"}[lang]
    assert tiny_goal in tiny and tiny_goal not in rider
    # Locke's own guide (client/locke/help.py): the premise, the phases, how each side wins, the grades
    for words in {"en": ("silhouette", "base phase", "Evil/Good", "A alive and winning"),
                  "ja": ("シルエット", "基地フェイズ", "悪/善", "A 生きて勝ち")}[lang]:
        assert words in locke, words
    assert "tools.match" not in locke


def test_every_registered_game_has_help_and_a_game_without_a_table_names_real_rules() -> None:
    for entry in games():
        pages = game_help(entry.name)
        assert pages, entry.name
        if entry.client_ui is None:
            assert entry.rules_doc is not None and (ROOT / entry.rules_doc).is_file(), entry.name
            fields = dict(pages[0].fields)
            assert fields["rules"] == entry.rules_doc and fields["game"] == entry.title


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lobby_says_what_the_chosen_deck_and_bot_are_like(clock, lang):  # type: ignore[no-untyped-def]
    """Issue 29 item 8: a short description of each bot and deck, following the choice."""
    from client.main import build_app
    from client.settings import Settings

    app = build_app(clock=clock, settings=Settings(name="Ann", game="rider", lang=lang))
    lobby = app.scene
    first = lobby.about_choices()
    assert ("Ember Rush" in first or "残り火" in first) and ("Greedy bot" in first or "強欲ボット" in first), first
    deck_choice = lobby.setup_choices[0][1]
    bot_choice = lobby.setup_choices[1][1]
    deck_choice._pick(deck_choice.buttons[1].payload)
    bot_choice._pick(bot_choice.buttons[1].payload)
    second = lobby.about_choices()
    assert ("Tidewall" in second or "潮壁" in second) and ("Random bot" in second or "ランダムボット" in second), second
    app.render()
    tiny = build_app(clock=clock, settings=Settings(name="Ann", game="tiny", lang=lang))
    assert tiny.scene.about_choices() == ""  # a picker that says nothing: the usual hint


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [(960, 600), (1240, 720), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_words_on_every_deck_and_bot_are_read_whole(clock, size, lang):  # type: ignore[no-untyped-def]
    """Seen in a real 960x600 window: the deck's words were cut after two lines and the bot's
    never showed. Every deck and bot pair's words fit above the Play button."""
    from client.main import build_app
    from client.settings import Settings
    from client.text import line_height, wrap

    app = build_app(size=size, clock=clock, settings=Settings(name="Ann", game="rider", lang=lang))
    lobby = app.scene
    decks, bots = (choice for _, choice in lobby.setup_choices)
    for deck in [b.payload for b in decks.buttons]:
        for bot in [b.payload for b in bots.buttons]:
            decks._pick(deck)
            bots._pick(bot)
            lobby = app.scene
            room = lobby.play_button.rect.top - lobby.hint_top - 4
            lines = wrap(lobby.about_choices(), 14, lobby.left.width - 40)
            assert len(lines) * line_height(14) <= room, (deck, bot, len(lines), room)
            decks, bots = (choice for _, choice in lobby.setup_choices)
    last = lobby.setup_choices[-1][1].rect
    assert last.bottom <= lobby.hint_top and lobby.name_field.rect.bottom < lobby.setup_choices[0][1].rect.top - 20
    app.render()


def test_lists_in_the_japanese_lobby_and_end_screen_use_the_japanese_separator(clock):  # type: ignore[no-untyped-def]
    """Seen: "ネットワークで遊べるゲーム：超人ロック, ライダー, タイニー。" (an English comma in Japanese)."""
    from client.main import build_app
    from client.settings import Settings
    from client.table.end_scene import others_line
    from engine.core.game import Outcome, SeatResult

    app = build_app(clock=clock, settings=Settings(name="Ann", game="rider", lang="ja"))
    caption = app.scene.friends_caption("ja")
    assert "、" in caption and ", " not in caption, caption
    about = app.scene.about_choices()  # "残り火の猛攻：..." (it had an English ": ")
    assert "：" in about and ": " not in about, about
    outcome = Outcome.judged("x", [SeatResult.graded(0, won=True, alive=True, reason="x"),
                                   SeatResult.graded(1, won=True, alive=True, reason="y")])
    line = others_line(outcome, 0, ("Ann", "Bob"), "ja")
    assert "、" in line and ", " not in line and ": " not in line, line


def test_the_locke_bot_description_uses_the_japanese_colon(clock):  # type: ignore[no-untyped-def]
    """Seen at 960x600 in Japanese: "作戦ボット: 自陣営の勝利…" (an English ": ")."""
    from client.main import build_app
    from client.settings import Settings

    app = build_app(clock=clock, settings=Settings(name="Ann", game="locke", lang="ja"))
    about = app.scene.about_choices()
    assert "作戦ボット：" in about or "ランダムボット：" in about, about
    assert ": " not in about, about

"""Card faces, text and the screenshot tool."""

from __future__ import annotations

import pygame

from client.rider.cardart import CardArt, card_size
from client.rider.decks import cardset
from client.fonts import coverage, covers, font
from tests.client.words import all_words
from client.text import render, wrap
from tools import screenshot


def test_faces_are_rendered_at_the_exact_size_and_cached():
    art = CardArt(cardset())
    a = art.face("FT-001", card_size(100), "en")
    assert a.get_size() == card_size(100)
    assert art.face("FT-001", card_size(100), "en") is a
    assert art.face("FT-001", card_size(100), "ja") is not a
    assert art.face("FT-001", card_size(160), "en").get_size() == card_size(160)
    assert art.renders == 3


def test_every_card_renders_in_both_languages():
    cs = cardset()
    art = CardArt(cs)
    for card_id in cs.cards:
        for lang in ("en", "ja"):
            face = art.face(card_id, card_size(150), lang)
            assert face.get_at((75, 105))[3] == 255


def test_the_bundled_font_has_every_character_the_game_shows():
    cs = cardset()
    texts = [s for pair in all_words().values() for s in pair]
    for c in cs.cards.values():
        texts += [c.name_en, c.name_ja, c.text_en, c.text_ja]
    chars = {ch for t in texts for ch in t if ch.strip()}
    for bold in (False, True):
        missing = sorted(ch for ch in chars if ord(ch) not in coverage(bold))
        assert not missing, f"glyphs missing from the bundled font (bold={bold}): {missing}"


def test_font_coverage_reads_the_character_map():
    regular, bold = coverage(False), coverage(True)
    assert ord("A") in regular and ord("あ") in regular and ord("炎") in regular
    assert 0x1F600 not in regular  # no emoji in the subset
    assert len(regular) > 3000  # ASCII, kana and JIS level-1 kanji
    assert bold < regular and len(bold) < len(regular) // 2


def test_bold_text_outside_the_bold_subset_falls_back_to_regular():
    rare = chr(min(coverage(False) - coverage(True) - set(range(0x3000))))  # a kanji only Regular has
    assert not covers(rare, True) and covers(rare, False)
    surface = render(rare, 16, (255, 255, 255), True)
    regular = font(16).render(rare, True, (255, 255, 255))
    assert pygame.image.tobytes(surface, "RGBA") == pygame.image.tobytes(regular, "RGBA")


def test_japanese_wraps_between_characters_and_keeps_punctuation():
    lines = wrap("このカードのある列が攻撃する時、このカードはフルパワーを使う。", 16, 120)
    assert len(lines) > 1
    assert not any(line.startswith(("、", "。")) for line in lines)
    assert "".join(lines) == "このカードのある列が攻撃する時、このカードはフルパワーを使う。"


def test_screenshot_tool_writes_a_busy_png(tmp_path):
    out = tmp_path / "table.png"
    assert screenshot.main(["rider", "--out", str(out)]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 800)
    colours = {image.get_at((x, y))[:3] for x in range(0, 1280, 5) for y in range(0, 800, 5)}
    assert len(colours) > 500

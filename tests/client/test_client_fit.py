"""Text fitting and the table layout at the three reference window sizes:
labels are shrunk then elided (never clipped), the pile labels sit under
their cards, and nothing on the board overlaps."""

from __future__ import annotations

import itertools

import pygame
import pytest

from client.rider.cardart import CardArt
from client.rider.decks import cardset
from client.fonts import font
from client.rider.demo import play_to_midgame
from client.rider.layout import TableLayout
from client.text import ELLIPSIS, fit_line, fits

SIZES = [(960, 600), (1000, 640), (1280, 800), (1920, 1080)]


@pytest.mark.parametrize("text", ["Stormfront Striker", "嵐前線の襲撃者と長い名前のカード", "x"])
@pytest.mark.parametrize("width", [12, 40, 90, 400])
def test_fit_line_never_exceeds_the_width_and_marks_what_it_cut(text: str, width: int) -> None:
    shown, size = fit_line(text, 16, width, True)
    assert 7 <= size <= 16
    assert font(size, True).size(shown)[0] <= width or shown == ELLIPSIS
    if shown != text:
        assert shown.endswith(ELLIPSIS)
        assert text.startswith(shown[:-1].rstrip())
        assert size == round(16 * 0.8)  # shrunk to the floor first, then cut


def test_fit_line_shrinks_before_it_cuts() -> None:
    text = "Stormfront Striker"
    full = font(16, True).size(text)[0]
    shown, size = fit_line(text, 16, full - 4, True)
    assert shown == text and size < 16
    assert fits(text, 16, full, True)


@pytest.mark.slow
def test_card_names_are_whole_on_large_faces_and_marked_when_cut_on_small_ones() -> None:
    cs = cardset()
    art = CardArt(cs)
    names = [(cid, lang) for cid in cs.cards for lang in ("en", "ja")]
    for size in SIZES:  # the hover preview at each window size
        preview = TableLayout(size).preview
        assert [n for n in names if not art.name_fits(n[0], preview, n[1])] == []
    small = [art.name_fits(cid, (52, 73), lang) for cid, lang in names]
    assert not all(small)  # tiny pile cards do elide some: the hover caption names them


@pytest.mark.parametrize("size", SIZES)
def test_nothing_on_the_board_overlaps(size: tuple[int, int]) -> None:
    L = TableLayout(size)
    board = L.board
    for seat in L.areas.values():
        piles = [seat.deck, seat.discard, seat.lost]
        labels = [L.pile_label(p) for p in piles]
        for rect in piles + labels:
            assert seat.field.contains(rect), (size, rect, seat.field)
        for a, b in itertools.combinations(piles + labels, 2):
            assert not a.colliderect(b), (size, a, b)
        for col in seat.columns:
            assert board.contains(col) and seat.field.contains(col)
            assert not any(col.colliderect(r) for r in piles + labels)
            # a full cascade (Lv.1 to Lv.4) stays inside its column
            assert col.contains(L.cascade(col, 0).union(L.cascade(col, 3)))
            assert col.contains(L.zero_slot(col))
        for a, b in itertools.combinations(seat.columns, 2):
            assert not a.colliderect(b)
        assert not seat.field.colliderect(L.bar)
    for count in (1, 6, 9):
        for slot in L.hand_slots(L.near.hand, count, L.hand_card):
            assert L.near.hand.contains(slot)
    assert not board.colliderect(L.side)
    assert L.collapsed == (size[0] < 1100)  # the side panel collapses to a strip on a small window
    assert L.side_open.width >= 300 and L.side_open.right <= size[0]


@pytest.mark.parametrize("size", [(960, 600), (1000, 640), (1280, 800), (1920, 1080)])
def test_the_hover_preview_names_the_card_in_full_inside_the_board(app, clock, size) -> None:  # type: ignore[no-untyped-def]
    app.screen = pygame.display.set_mode(size)
    scene = play_to_midgame(app, clock)
    scene.resized(size)
    board = scene.layout.board
    for rect, card in scene.faces:
        scene.hover_pos = rect.center
        scene._update_hover()
        card_rect, caption = scene.preview_rects(rect.center)
        assert board.contains(card_rect) and board.contains(caption)
        assert not caption.colliderect(card_rect)
        assert scene.hover_card is not None
        # issue 15 item 10: the preview never covers what the cursor points at (the control, else the card)
        target = scene.preview_target(rect.center)
        assert target.collidepoint(rect.center)
        assert not card_rect.colliderect(target) and not caption.colliderect(target), (size, rect, target)
    # with a hand card selected the highlighted columns are the targets: none is covered either
    source = next(k for k in scene.intents.sources() if k[0] == "hand" and scene.intents.targets(k))
    scene.press(source)
    columns = [c for c in scene.offered() if c.key[0] == "mine"]
    assert columns
    for control in columns:
        for rect, _card in scene.faces:
            if control.rect.colliderect(rect):
                point = rect.clip(control.rect).center  # the cursor on a card inside the target column
                assert scene.preview_target(point) == control.rect
                card_rect, caption = scene.preview_rects(point)
                assert not card_rect.colliderect(control.rect) and not caption.colliderect(control.rect), (size, point)


def test_a_word_wider_than_its_box_is_cut_not_drawn_past_the_edges() -> None:
    """Seen on the Locke board at 1280x800: a face-up "Combat" card's name ran out of its small cell
    on both sides ("omba" over the board)."""
    import pygame

    from client.text import draw_wrapped

    pygame.init()
    surface = pygame.Surface((200, 60))
    surface.fill((0, 0, 0))
    box = pygame.Rect(90, 10, 22, 40)
    draw_wrapped(surface, "Combat", box, 9, (255, 255, 255), centre=True)
    outside = [x for x in range(200) for y in range(60)
               if not box.collidepoint(x, y) and surface.get_at((x, y))[:3] != (0, 0, 0)]
    assert not outside, outside[:5]
    inside = [x for x in range(box.left, box.right) for y in range(box.top, box.bottom)
              if surface.get_at((x, y))[:3] != (0, 0, 0)]
    assert inside  # something of the name is drawn (its start and an ellipsis)

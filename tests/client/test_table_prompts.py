"""client/table/prompts.py and controls.py: the prompts and controls any game's scene reuses."""

from __future__ import annotations

import pygame
import pytest

from client.app import App
from client.table.controls import Control, control_at, draw_notice, notice_rect
from client.table.prompts import Prompt, draw_prompt, layout_prompt

BOARDS = [pygame.Rect(0, 0, 908, 600), pygame.Rect(0, 0, 947, 800), pygame.Rect(0, 0, 1420, 1080)]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("options", [2, 7, 12])
def test_a_prompt_sits_on_the_board_with_its_buttons_apart(app: App, board: pygame.Rect, options: int) -> None:
    cancelled: list[bool] = []

    def cancel() -> None:
        cancelled.append(True)

    chosen: list[int] = []
    opts = [(f"option {i}", (lambda i=i: chosen.append(i)), i == 0) for i in range(options - 1)]
    prompt = Prompt("Which one?", ["A line that says what the choice is about."], [*opts, ("Cancel", cancel, False)],
                    cards=["c1", "c2", "c3"] if options == 7 else [])
    layout_prompt(prompt, board, cancel)
    assert board.contains(prompt.rect)
    rects = [b.rect for b in prompt.buttons]
    assert len(rects) == options and all(prompt.rect.contains(r) for r in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    if prompt.cards:
        assert prompt.card_w > 0 and prompt.rect.contains(prompt.cards_rect)
        assert not any(prompt.cards_rect.colliderect(r) for r in rects)
    assert prompt.buttons[0].hotkey == "Enter" and prompt.buttons[-1].hotkey == "Esc"
    prompt.buttons[-1].on_click()
    prompt.buttons[0].on_click()
    assert cancelled == [True] and chosen == [0]
    faces: list[tuple[str, tuple[int, int]]] = []

    def face(card: str, size: tuple[int, int]) -> pygame.Surface:
        faces.append((card, size))
        return pygame.Surface(size)

    draw_prompt(app.screen, prompt, face)
    assert [c for c, _ in faces] == prompt.cards  # every face drawn by the scene's renderer, at the laid-out width
    assert all(size[0] == prompt.card_w for _, size in faces)


def test_the_topmost_control_takes_the_click_and_a_notice_sits_above_the_bar(app: App) -> None:
    under = Control(pygame.Rect(0, 0, 100, 100), ("hand", 1))
    over = Control(pygame.Rect(50, 50, 100, 100), ("hand", 2))
    assert control_at([under, over], (60, 60)) is over  # built last, drawn on top
    assert control_at([under, over], (10, 10)) is under
    assert control_at([under, over], (300, 300)) is None
    board, bar = pygame.Rect(0, 0, 908, 600), pygame.Rect(0, 280, 908, 52)
    one = notice_rect(board, bar, "Lv.3 can't go on a Lv.1.", "rule rider.7")
    two = notice_rect(board, bar, "word " * 80, "rule rider.7")
    assert one.bottom <= bar.top and two.bottom <= bar.top and board.contains(two)
    assert two.height > one.height  # two lines at most, then the details line
    draw_notice(app.screen, two, "word " * 80, "rule rider.7")

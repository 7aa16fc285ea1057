"""client/table/seating.py: N seats around a table, apart, on the board, ours at the bottom."""

from __future__ import annotations

import math

import pygame
import pytest

from client.rider.layout import TableLayout
from client.table.seating import GAP, MIN_SEAT, seat_order, seat_ring

SIZES = [(960, 600), (1280, 800), (1920, 1080)]


def board_of(size: tuple[int, int]) -> pygame.Rect:
    """The board the table scene draws on at this window size (the side panel takes the rest)."""
    return TableLayout(size).board


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("count", range(2, 11))
def test_every_seat_is_on_the_board_and_none_overlaps_another_or_the_middle(size: tuple[int, int], count: int) -> None:
    board = board_of(size)
    for me in range(count):
        ring = seat_ring(count, board, me)
        rects = [*ring.seats, ring.middle]
        assert len(ring.seats) == count
        for rect in rects:
            assert board.contains(rect), (rect, board)
        for i, a in enumerate(rects):
            for b in rects[i + 1:]:
                assert not a.colliderect(b), (count, me, a, b)
        for seat in ring.seats:
            assert seat.width >= MIN_SEAT[0] and seat.height >= MIN_SEAT[1]
        # a gap between neighbours, so outlines and glows never touch
        assert all(not a.inflate(GAP - 1, GAP - 1).colliderect(b)
                   for i, a in enumerate(ring.seats) for b in ring.seats[i + 1:])


@pytest.mark.parametrize("count", range(2, 11))
def test_ours_is_at_the_bottom_and_the_others_follow_clockwise(count: int) -> None:
    board = board_of((1280, 800))
    me = count - 1
    ring = seat_ring(count, board, me)
    assert ring.of(me).centery == max(r.centery for r in ring.seats)  # nearest the player
    assert abs(ring.of(me).centerx - board.centerx) <= 1
    # clockwise on screen (y down) is increasing angle around the board's centre, starting at the bottom
    angles = []
    for seat in seat_order(me, count):
        r = ring.of(seat)
        angle = math.degrees(math.atan2(r.centery - board.centery, r.centerx - board.centerx))
        angles.append((angle - 90) % 360)
    assert angles == sorted(angles) and len(set(angles)) == count
    if count == 2:
        assert ring.of(1 - me).centery < ring.middle.top  # the opponent sits opposite


def test_seat_order_and_bad_input() -> None:
    assert seat_order(2, 4) == [2, 3, 0, 1]
    with pytest.raises(ValueError):
        seat_order(4, 4)
    with pytest.raises(ValueError, match="do not fit"):
        seat_ring(10, pygame.Rect(0, 0, 200, 150))


def test_the_rider_layout_puts_our_seat_near_whichever_index_it_has() -> None:
    for me in (0, 1):
        layout = TableLayout((1280, 800), me)
        assert layout.near is layout.area(me)
        assert layout.area(me).field.top > layout.area(1 - me).field.top  # ours below, the other opposite
        assert layout.area(me).hand.bottom == 800

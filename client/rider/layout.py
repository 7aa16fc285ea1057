"""Where everything sits on the Rider table, for the current window size.

All rectangles are computed from the window size alone, so a resize is a
new :class:`TableLayout` and nothing else; card sizes follow so faces are
rendered crisp at the size they are shown.
"""

from __future__ import annotations

import dataclasses

import pygame

from client.rider.cardart import HEADER, card_size
from client.table.seating import seat_order

SIDE_MIN = 300
#: Below this window width the side panel collapses to a strip (the board gets the room);
#: a toggle in the strip lays the whole panel over the board.
COLLAPSE_BELOW = 1100
STRIP_W = 52
#: Height of the label strip under each pile (name and count).
PILE_LABEL_H = 18


@dataclasses.dataclass
class SeatArea:
    field: pygame.Rect
    columns: list[pygame.Rect]  # one per column A, B, C (the whole cascade area)
    hand: pygame.Rect
    deck: pygame.Rect
    discard: pygame.Rect
    lost: pygame.Rect
    label: pygame.Rect


class TableLayout:
    """Rectangles for both seats (ours, ``me``, at the bottom, the other opposite: the
    two-seat case of client/table/seating.py's order), the bar and the side panel."""

    def __init__(self, size: tuple[int, int], me: int = 0) -> None:
        w, h = size
        self.size = size
        self.collapsed = w < COLLAPSE_BELOW
        if self.collapsed:
            side_w = STRIP_W
            #: The whole panel when it is opened over the board (collapsed layouts only).
            self.side_open = pygame.Rect(w - STRIP_W - SIDE_MIN, 0, SIDE_MIN, h)
        else:
            side_w = max(SIDE_MIN, int(w * 0.26))
        self.side = pygame.Rect(w - side_w, 0, side_w, h)
        if not self.collapsed:
            self.side_open = self.side
        board_w = w - side_w
        self.board = pygame.Rect(0, 0, board_w, h)
        opp_hand_h = max(48, int(h * 0.07))
        my_hand_h = max(120, int(h * 0.2))
        bar_h = max(52, int(h * 0.075))
        field_h = (h - opp_hand_h - my_hand_h - bar_h) // 2
        # card size: a Lv.1-4 cascade (1 + 3 * HEADER card heights) fits a column
        # (the field less 2 x 6 margin, the 18 px column head and 4 px at the foot)
        field_card_h = int((field_h - 12 - 18 - 4) / (1 + 3 * HEADER))
        # two rows of piles, each card with its label strip *below* it (never on the card)
        pile_card_h = max(56, (field_h - 2 * PILE_LABEL_H - 22) // 2)
        pile_card_w = int(pile_card_h * 5 / 7)
        pile_w = 2 * pile_card_w + 30
        col_area_w = board_w - pile_w - 24
        field_card_w = min(int(field_card_h * 5 / 7), int(col_area_w / 3 / 1.45))
        self.card = card_size(field_card_w)
        self.pile_card = (pile_card_w, pile_card_h)
        hand_card_w = min(int((my_hand_h - 14) * 5 / 7), 150)
        self.hand_card = card_size(hand_card_w)
        #: Card backs in the far seat's hand strip (a small row: its cards are never shown).
        self.far_hand_card = card_size(max(24, int((opp_hand_h - 10) * 5 / 7)))
        self.bar = pygame.Rect(0, opp_hand_h + field_h, board_w, bar_h)
        top_field = pygame.Rect(0, opp_hand_h, board_w, field_h)
        bottom_field = pygame.Rect(0, opp_hand_h + field_h + bar_h, board_w, field_h)
        near = self._seat(bottom_field, pygame.Rect(0, h - my_hand_h, board_w, my_hand_h), pile_w, col_area_w)
        far = self._seat(top_field, pygame.Rect(0, 0, board_w, opp_hand_h), pile_w, col_area_w)
        #: Each seat's area, by seat index: ours near the player, clockwise from there.
        self.areas: dict[int, SeatArea] = dict(zip(seat_order(me, 2), (near, far)))
        self.me = me
        self.preview = card_size(max(200, min(300, int(h * 0.36))))

    def _seat(self, field: pygame.Rect, hand: pygame.Rect, pile_w: int, col_area_w: int) -> SeatArea:
        cw = col_area_w // 3
        columns = [pygame.Rect(pile_w + 12 + i * cw, field.top + 6, cw - 8, field.height - 12) for i in range(3)]
        pw, ph = self.pile_card
        row = ph + PILE_LABEL_H + 6
        top = field.top + (field.height - 2 * row + 6) // 2
        deck = pygame.Rect(12, top, pw, ph)
        discard = pygame.Rect(12 + pw + 10, top, pw, ph)
        lost = pygame.Rect(12 + pw + 10, top + row, pw, ph)
        piles = [deck, discard, lost]
        label = pygame.Rect(pile_w + 12, field.top, col_area_w, 20)
        return SeatArea(field, columns, hand, piles[0], piles[1], piles[2], label)

    def area(self, seat: int) -> SeatArea:
        """The area of seat index ``seat``."""
        return self.areas[seat]

    @property
    def near(self) -> SeatArea:
        """Our own seat's area (at the bottom, with the full hand row)."""
        return self.areas[self.me]

    def pile_label(self, pile: pygame.Rect) -> pygame.Rect:
        """The strip under a pile card that names it (below the card, never over it)."""
        return pygame.Rect(pile.left - 4, pile.bottom + 3, pile.width + 8, PILE_LABEL_H)

    def cascade(self, column: pygame.Rect, index: int) -> pygame.Rect:
        """Rect of the ``index``-th card (0 = Lv.1) in a column's cascade."""
        cw, ch = self.card
        step = int(ch * HEADER)
        x = column.left + (column.width - cw) // 2 - int(cw * 0.12)
        return pygame.Rect(x, column.top + 18 + index * step, cw, ch)

    def zero_slot(self, column: pygame.Rect) -> pygame.Rect:
        """Rect of a column's Lv.0 card: beside the cascade, slightly lower."""
        cw, ch = self.card
        first = self.cascade(column, 0)
        w, h = int(cw * 0.62), int(ch * 0.62)
        return pygame.Rect(min(first.right - w // 3, column.right - w), column.bottom - h - 4, w, h)

    def hand_slots(self, area: pygame.Rect, count: int, card: tuple[int, int]) -> list[pygame.Rect]:
        """Centred, overlapping if needed, one rect per hand card."""
        if count <= 0:
            return []
        cw, ch = card
        room = area.width - 40
        step = min(cw + 10, (room - cw) // max(1, count - 1)) if count > 1 else 0
        total = cw + step * (count - 1)
        x0 = area.centerx - total // 2
        y = area.top + (area.height - ch) // 2 + 2
        return [pygame.Rect(x0 + i * step, y, cw, ch) for i in range(count)]

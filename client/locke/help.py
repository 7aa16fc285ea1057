"""Locke's pages of the help overlay: a legend of the board, the player's guide and the controls.

The legend's icons are painted by the board's own drawing (client/locke/board.py), so the
legend shows exactly what the table shows. The guide is for players (the premise, a turn, the
phases, how each side wins, the grades), written from docs/rules/locke.md in our own words; the
engineers' rules reference stays in that document. Words are catalogue keys
(Locke's gettext domain, client/locke/locale), so the overlay re-words itself with the language.
"""

from __future__ import annotations

import pygame

from client import theme
from client.help import HelpPage, LegendEntry
from client.locke.board import EMPTY, FACE_UP, MINE, PORT, figure


def _card(rect: pygame.Rect) -> pygame.Rect:
    h = rect.height - 8
    return pygame.Rect(rect.centerx - h * 39 // 100, rect.top + 4, h * 78 // 100, h)


def _back(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    card = _card(rect)
    pygame.draw.rect(surface, theme.CARD_BACK, card, border_radius=4)
    pygame.draw.rect(surface, theme.CARD_BACK_EDGE, card.inflate(-6, -6), width=1, border_radius=3)


def _face(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    pygame.draw.rect(surface, FACE_UP, _card(rect), border_radius=4)


def _empty(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    pygame.draw.rect(surface, EMPTY, _card(rect), width=1, border_radius=4)


def _port(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    card = _card(rect)
    pygame.draw.ellipse(surface, PORT, card)
    pygame.draw.ellipse(surface, theme.TEXT_DARK, card.inflate(-card.width // 2, -card.height // 2), width=2)


def _pieces(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    # the board's standing figures (client/locke/board.py figure), not the rail's discs
    figure(surface, (rect.centerx - 14, rect.centery), 12, 1, "male", "good")
    figure(surface, (rect.centerx + 16, rect.centery + 2), 12, 4, "female", "evil", alive=False)


def _party(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    figure(surface, (rect.centerx + 3, rect.centery - 3), 12, 2, "female", "special")
    figure(surface, (rect.centerx, rect.centery), 12, 5, "male", "good")


def _plinths(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    for i, side in enumerate(("good", "evil", "special")):  # the stand's colour: the silhouette's side
        figure(surface, (rect.centerx - 22 + 22 * i, rect.centery), 10, i, "male", side)


def _target(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    _back(surface, rect, key)
    pygame.draw.rect(surface, theme.TARGET, _card(rect).inflate(8, 8), width=3, border_radius=7)


def _mine(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    _back(surface, rect, key)
    pygame.draw.rect(surface, MINE, _card(rect), width=3, border_radius=4)


def _destroyed(surface: pygame.Surface, rect: pygame.Rect, key: str) -> None:
    card = _card(rect)
    pygame.draw.rect(surface, FACE_UP, card, border_radius=4)
    pygame.draw.line(surface, theme.BAD, card.topleft, card.bottomright, 3)
    pygame.draw.line(surface, theme.BAD, card.topright, card.bottomleft, 3)


LEGEND = (
    LegendEntry(_back, "lk_l_back"), LegendEntry(_face, "lk_l_face"), LegendEntry(_empty, "lk_l_empty"),
    LegendEntry(_port, "lk_l_port"), LegendEntry(_pieces, "lk_l_pieces"), LegendEntry(_party, "lk_l_party"),
    LegendEntry(_plinths, "lk_l_plinth"),
    LegendEntry(_target, "lk_l_target"), LegendEntry(_mine, "lk_l_mine"), LegendEntry(_destroyed, "lk_l_destroyed"),
)

#: The guide's paragraphs, in reading order (each key has its title under ``<key>_t``).
GUIDE = ("lk_help_premise", "lk_help_turn", "lk_help_phases", "lk_help_win", "lk_help_grades")

HELP = (HelpPage("help_rules", paragraphs=GUIDE), HelpPage("help_legend", entries=LEGEND),
        HelpPage("help_keys", paragraphs=("lk_help_keys",)))

"""Rider's help pages: the legend of every icon and badge on the table, the
rules on a page, the keys.

Each legend icon is painted by the very function the table (or the card
renderer) uses for it, so the legend cannot drift from what is drawn. The
words are catalogue keys (``help_*`` in client/i18n.py); the rules page is a
short version, in our own words, of docs/rules/rider.md.
"""

from __future__ import annotations

import pygame

from client import theme
from client.rider.cardart import CardArt, card_size, draw_emblem, draw_level_badge, draw_mark, draw_power, draw_sp_tag
from client.help import HelpPage, LegendEntry
from client.rider.badges import draw_attack_badge, draw_placed_level
from client.table.log_panel import draw_proof_tag
from client.text import draw_text

#: The rules page, in play order (each key has a heading ``<key>_t``).
RULES = ("help_r_goal", "help_r_setup", "help_r_first", "help_r_turn", "help_r_level", "help_r_attack",
         "help_r_battle", "help_r_destroyed", "help_r_end", "help_r_fair", "help_r_more")
KEYS = ("help_k_mouse", "help_k_cards", "help_k_flow", "help_k_prompt", "help_k_other")


def _level(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    r = min(rect.height * 0.32, 15)
    for i, label in enumerate(("1", "2-3", "4")):
        draw_level_badge(surface, (rect.left + 14 + i * 28, rect.centery), r, label)


def _power(art: CardArt) -> LegendEntry:
    card = next((c for c in art.cardset.cards.values() if c.full_power > c.power > 0), None)
    card = card or next(iter(art.cardset.cards.values()))

    def paint(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
        draw_power(surface, card, pygame.Rect(rect.left + 8, rect.centery - 6, rect.width - 16, 12))

    return LegendEntry(paint, "help_l_power")


def _marks(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    r = min(rect.height * 0.3, 12)
    for i, mark in enumerate(("sword", "feather", "rock")):
        centre = (rect.left + 15 + i * 27, rect.centery)
        pygame.draw.circle(surface, (250, 246, 236), centre, int(r + 3))
        draw_mark(surface, mark, centre, r * 0.9, theme.TEXT_DARK)


def _attributes(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    names = ("flame", "tide", "gale", "stone", "spark", "free")
    w = (rect.width - 8) // 3
    h = (rect.height - 6) // 2
    for i, name in enumerate(names):
        frame = theme.ATTRIBUTE_COLOURS[name][0]
        cell = pygame.Rect(rect.left + 4 + (i % 3) * w, rect.top + 3 + (i // 3) * h, w - 2, h - 2)
        pygame.draw.rect(surface, frame, cell, border_radius=4)
        draw_emblem(surface, name, cell, (250, 246, 236))


def _sp(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    draw_sp_tag(surface, pygame.Rect(rect.centerx - 16, rect.centery - 8, 32, 16))


def _gold(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    frame, light, _ = theme.ATTRIBUTE_COLOURS["flame"]
    card = pygame.Rect(0, 0, 30, 40)
    card.center = rect.center
    pygame.draw.rect(surface, frame, card, border_radius=4)
    body = card.inflate(-4, -4)
    pygame.draw.rect(surface, light, body, border_radius=3)
    pygame.draw.rect(surface, theme.ACCENT, body, width=2, border_radius=3)


def _placed(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    draw_placed_level(surface, pygame.Rect(rect.left + 10, rect.centery - 8, 26, 16), 2)
    draw_placed_level(surface, pygame.Rect(rect.left + 44, rect.centery - 8, 26, 16), 3)


def _head(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    from client.i18n import tr

    draw_text(surface, tr(lang, "power", n=8), (rect.left + 6, rect.centery - 16), 12, theme.TEXT, bold=True,
              max_width=rect.width - 10)
    draw_text(surface, tr(lang, "power_split", atk=9, dfn=7), (rect.left + 6, rect.centery + 2), 12, theme.TEXT,
              bold=True, max_width=rect.width - 10)


def _atk(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    draw_attack_badge(surface, (rect.centerx + 20, rect.centery - 8), lang)


def _back(art: CardArt) -> LegendEntry:
    def paint(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
        size = card_size(max(20, int((rect.height - 6) * 5 / 7)))
        img = art.back(size)
        surface.blit(img, img.get_rect(center=rect.center))

    return LegendEntry(paint, "help_l_back")


def _glows(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    for i, colour in enumerate((theme.ACCENT, theme.HILITE, theme.TARGET)):
        box = pygame.Rect(rect.left + 6 + i * 26, rect.centery - 14, 20, 28)
        pygame.draw.rect(surface, (60, 100, 88), box, border_radius=4)
        pygame.draw.rect(surface, colour, box.inflate(4, 4), width=2, border_radius=5)


def _proof(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    draw_proof_tag(surface, rect.right - 4, rect.centery - 16, 14, "local", lang)
    draw_proof_tag(surface, rect.right - 4, rect.centery + 2, 14, "verified", lang)


def _dots(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    for i, colour in enumerate((theme.GOOD, theme.ACCENT, theme.INFO, theme.WARN, theme.BAD)):
        pygame.draw.circle(surface, colour, (rect.left + 12 + i * 15, rect.centery), 5)


def _lost(surface: pygame.Surface, rect: pygame.Rect, lang: str) -> None:
    from client.i18n import tr

    draw_text(surface, f"{tr(lang, 'lost_pile')} 1/3", rect.center, 13, theme.BAD, bold=True, anchor="center",
              max_width=rect.width - 6)


def rider_help(art: CardArt) -> list[HelpPage]:
    """The pages of the help overlay at a Rider table: legend, rules, keys."""
    legend = (
        LegendEntry(_level, "help_l_level"),
        _power(art),
        LegendEntry(_marks, "help_l_marks"),
        LegendEntry(_attributes, "help_l_attributes"),
        LegendEntry(_sp, "help_l_sp"),
        LegendEntry(_gold, "help_l_gold"),
        LegendEntry(_placed, "help_l_placed"),
        LegendEntry(_head, "help_l_head"),
        LegendEntry(_atk, "help_l_atk"),
        _back(art),
        LegendEntry(_glows, "help_l_glow"),
        LegendEntry(_proof, "help_l_proof"),
        LegendEntry(_dots, "help_l_dots"),
        LegendEntry(_lost, "help_l_lost"),
    )
    return [HelpPage("help_legend", entries=legend), HelpPage("help_rules", paragraphs=RULES),
            HelpPage("help_keys", paragraphs=KEYS)]

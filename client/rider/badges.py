"""The table's small badges, drawn in one place so that the table and the
help legend (client/rider/help.py) show exactly the same thing: the level a
Lv.2-3 card was placed as, a column's power head, the "can attack" badge and
the log's randomness tags."""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from client import theme
from client.i18n import tr
from client.text import draw_text
from engine.rider.rules import Info, can_attack, column_power
from engine.rider.state import Column


def draw_placed_level(surface: pygame.Surface, tag: pygame.Rect, level: int) -> None:
    """The "=2"/"=3" tag of a Lv.2-3 card: the level it was placed as."""
    pygame.draw.rect(surface, theme.ACCENT, tag, border_radius=6)
    pygame.draw.rect(surface, theme.TEXT_DARK, tag, width=1, border_radius=6)
    draw_text(surface, f"={level}", tag.center, 11, theme.TEXT_DARK, bold=True, anchor="center")


def draw_attack_badge(surface: pygame.Surface, topright: tuple[int, int], lang: str) -> pygame.Rect:
    """The badge of a column that may attack (a Lv.4, or a card that lets it)."""
    return draw_text(surface, tr(lang, "atk_badge"), topright, 12, theme.ACCENT, bold=True, anchor="topright")


def column_powers(table: Mapping[str, Info], col: Column) -> tuple[int, int]:
    """(attack power, defence power) of a column (rider.7: full power and bonuses
    count only in the battles their card names)."""
    if not col.cards and col.zero is None:
        return 0, 0
    return column_power(table, col, "attack"), column_power(table, col, "defend")


def column_head(letter: str, table: Mapping[str, Info], col: Column, lang: str) -> str:
    """A column's head: its letter and power; attack and defence power apart
    where they differ (an effect that counts only when attacking or defending)."""
    if not col.cards:
        return letter
    attack, defence = column_powers(table, col)
    if attack == defence:
        return f"{letter}  ·  {tr(lang, 'power', n=defence)}"
    return f"{letter}  ·  {tr(lang, 'power_split', atk=attack, dfn=defence)}"


def may_attack(table: Mapping[str, Info], col: Column) -> bool:
    """The column shows the attack badge: the engine's own rider.6 test."""
    return can_attack(table, col)

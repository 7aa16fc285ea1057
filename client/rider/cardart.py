"""Cards drawn by code from card data: frame, attribute colour, level,
battle mark, power squares, name and effect text.

Every face is rendered at the exact pixel size it is shown at (never
scaled), so cards stay crisp at any window size; faces are cached by
(card id, size, language) because re-rendering text every frame is what
makes a card game slow. The opponent's hidden cards only ever reach
:meth:`CardArt.back`: the table hands this module card ids only for cards
its own seat can see.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame
import pygame.gfxdraw

from client import theme
from client.i18n import known, pick, tr
from client.text import draw_text, draw_wrapped, fit_size, fits
from engine.rider.cards import Card, CardSet

Point = tuple[float, float]

#: Fraction of the card height taken by the header (level, name, mark, power);
#: stacked cards in a column overlap so that exactly this band shows.
HEADER = 0.2
RATIO = 7 / 5


def card_size(width: int) -> tuple[int, int]:
    """A card's (width, height) for a given width (5:7 like a real card)."""
    return width, round(width * RATIO)


def _aapoly(surface: pygame.Surface, points: Sequence[Point], colour: theme.Colour) -> None:
    pts = [(round(x), round(y)) for x, y in points]
    if len(pts) >= 3:
        pygame.gfxdraw.filled_polygon(surface, pts, colour)
        pygame.gfxdraw.aapolygon(surface, pts, colour)


def _aacircle(surface: pygame.Surface, centre: Point, r: float, colour: theme.Colour) -> None:
    x, y, rr = round(centre[0]), round(centre[1]), max(1, round(r))
    pygame.gfxdraw.filled_circle(surface, x, y, rr, colour)
    pygame.gfxdraw.aacircle(surface, x, y, rr, colour)


def draw_mark(surface: pygame.Surface, mark: str, centre: Point, r: float, colour: theme.Colour) -> None:
    """Battle-mark icon: sword (scissors), feather (paper) or rock."""
    cx, cy = centre
    if mark == "sword":
        # a blade pointing up-right with a cross-guard and grip
        a = math.radians(-45)
        ux, uy = math.cos(a), math.sin(a)
        px, py = -uy, ux
        tip = (cx + ux * r * 0.95, cy + uy * r * 0.95)
        base = (cx - ux * r * 0.25, cy - uy * r * 0.25)
        w = r * 0.16
        _aapoly(surface, [tip, (base[0] + px * w, base[1] + py * w), (base[0] - px * w, base[1] - py * w)], colour)
        g = r * 0.42
        _aapoly(surface, [(base[0] + px * g, base[1] + py * g), (base[0] + px * g - ux * w, base[1] + py * g - uy * w),
                          (base[0] - px * g - ux * w, base[1] - py * g - uy * w), (base[0] - px * g, base[1] - py * g)], colour)
        end = (cx - ux * r * 0.85, cy - uy * r * 0.85)
        hw = w * 0.6
        _aapoly(surface, [(base[0] + px * hw, base[1] + py * hw), (end[0] + px * hw, end[1] + py * hw),
                          (end[0] - px * hw, end[1] - py * hw), (base[0] - px * hw, base[1] - py * hw)], colour)
    elif mark == "feather":
        pts = []
        for i in range(25):
            t = i / 24 * math.pi
            pts.append((cx + math.sin(t) * r * 0.42, cy - math.cos(t) * r * 0.9))
        pts = [(x - (y - cy) * 0.35, y) for x, y in pts]
        mirror = [(2 * cx - x + (cy - y) * 0.0 - (y - cy) * 0.7, y) for x, y in reversed(pts)]
        _aapoly(surface, pts + mirror, colour)
        pygame.draw.aaline(surface, theme.TEXT_DARK, (cx + r * 0.3, cy - r * 0.85), (cx - r * 0.35, cy + r * 0.95))
    else:  # rock
        pts = [(-0.8, 0.2), (-0.55, -0.45), (-0.1, -0.75), (0.45, -0.6), (0.85, -0.1), (0.7, 0.5), (0.2, 0.75), (-0.5, 0.65)]
        _aapoly(surface, [(cx + x * r, cy + y * r) for x, y in pts], colour)


def draw_emblem(surface: pygame.Surface, attribute: str, rect: pygame.Rect, colour: theme.Colour) -> None:
    """A large attribute symbol for the art box (drawn, not an image)."""
    cx, cy = rect.center
    r = min(rect.width, rect.height) * 0.42
    if attribute == "flame":
        pts = [(0.0, -1.0), (0.22, -0.42), (0.48, -0.72), (0.62, -0.08), (0.56, 0.48), (0.3, 0.82), (0.0, 0.92),
               (-0.3, 0.82), (-0.56, 0.48), (-0.62, 0.0), (-0.44, -0.52), (-0.24, -0.18)]
        _aapoly(surface, [(cx + x * r, cy + y * r) for x, y in pts], colour)
        core = [(0.0, -0.2), (0.25, 0.3), (0.18, 0.66), (0.0, 0.74), (-0.18, 0.66), (-0.25, 0.3)]
        _aapoly(surface, [(cx + x * r, cy + y * r) for x, y in core], tuple(min(255, c + 45) for c in colour))  # type: ignore[arg-type]
    elif attribute == "tide":
        for k in range(3):
            y0 = cy - r * 0.55 + k * r * 0.55
            top = [(cx - r + i * 2 * r / 30, y0 + math.sin(i / 30 * 2 * math.pi) * r * 0.16) for i in range(31)]
            bottom = [(x, y + r * 0.2) for x, y in reversed(top)]
            _aapoly(surface, top + bottom, colour)
    elif attribute == "gale":
        for k in range(3):
            rr = r * (0.45 + 0.32 * k)
            pts = [(cx + math.cos(t) * rr, cy + math.sin(t) * rr * 0.6)
                   for t in (math.radians(a) for a in range(200, 340, 8))]
            inner = [(cx + (x - cx) * (1 - 0.26 * r / rr), cy + (y - cy) * (1 - 0.26 * r / rr)) for x, y in reversed(pts)]
            _aapoly(surface, pts + inner, colour)
    elif attribute == "stone":
        pts = [(cx + math.cos(math.radians(a)) * r * 0.9, cy + math.sin(math.radians(a)) * r * 0.9) for a in range(30, 390, 60)]
        _aapoly(surface, pts, colour)
        light = tuple(min(255, c + 40) for c in colour)
        _aapoly(surface, [(cx, cy), pts[4], pts[5], pts[0]], light)  # type: ignore[arg-type]
    elif attribute == "spark":
        pts = [(0.15, -1.0), (-0.45, 0.1), (-0.05, 0.1), (-0.25, 1.0), (0.5, -0.2), (0.08, -0.2), (0.35, -1.0)]
        _aapoly(surface, [(cx + x * r, cy + y * r) for x, y in pts], colour)
    else:  # free: a star
        pts = []
        for i in range(10):
            a = math.radians(-90 + i * 36)
            rad = r if i % 2 == 0 else r * 0.42
            pts.append((cx + math.cos(a) * rad, cy + math.sin(a) * rad))
        _aapoly(surface, pts, colour)


def _draw_rays(surface: pygame.Surface, rect: pygame.Rect, card_id: str, colour: theme.Colour) -> None:
    """A sunburst behind the emblem; ray count and angle vary per card so
    cards of one attribute are told apart at a glance."""
    number = sum(ord(ch) * (i + 1) for i, ch in enumerate(card_id))
    rays = 5 + number % 5
    offset = (number % 36) * 10
    cx, cy = rect.center
    reach = max(rect.width, rect.height)
    clip = surface.get_clip()
    surface.set_clip(rect.inflate(-4, -4))
    for k in range(rays):
        a = math.radians(offset + k * 360 / rays)
        b = a + math.radians(180 / rays)
        _aapoly(surface, [(cx, cy), (cx + math.cos(a) * reach, cy + math.sin(a) * reach),
                          (cx + math.cos(b) * reach, cy + math.sin(b) * reach)], colour)
    surface.set_clip(clip)


def _rounded(opaque: pygame.Surface, radius: int) -> pygame.Surface:
    """Copy an opaque card image onto a transparent one with rounded corners."""
    out = pygame.Surface(opaque.get_size(), pygame.SRCALPHA)
    out.blit(opaque, (0, 0))
    mask = pygame.Surface(opaque.get_size(), pygame.SRCALPHA)
    mask.fill((255, 255, 255, 0))
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
    out.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    return out


def level_label(levels: Sequence[int]) -> str:
    return "2-3" if tuple(levels) == (2, 3) else str(levels[0])


def draw_power(surface: pygame.Surface, card: Card, rect: pygame.Rect) -> None:
    """Yellow squares for normal power, red for the extra of full power."""
    total = max(card.full_power, 1)
    # squares plus gaps of a quarter square fit the width exactly
    side = max(3, min(rect.height, int(rect.width / (total + (total - 1) / 4))))
    gap = max(1, side // 4)
    x = rect.left
    for i in range(card.full_power):
        colour = theme.POWER_NORMAL if i < card.power else theme.POWER_FULL
        sq = pygame.Rect(x, rect.centery - side // 2, side, side)
        pygame.draw.rect(surface, colour, sq, border_radius=max(1, side // 5))
        pygame.draw.rect(surface, (40, 30, 10), sq, width=1, border_radius=max(1, side // 5))
        x += side + gap


def draw_level_badge(surface: pygame.Surface, centre: Point, r: float, label: str, ring: int = 1) -> None:
    """The round level badge in a card's header ("1", "2-3", "4", "0")."""
    _aacircle(surface, centre, r, theme.TEXT_DARK)
    _aacircle(surface, centre, r - ring, (250, 246, 236))
    draw_text(surface, label, (int(centre[0]), int(centre[1]) + 1), max(7, int(r * (1.15 if len(label) == 1 else 0.8))),
              theme.TEXT_DARK, bold=True, anchor="center")


def draw_sp_tag(surface: pygame.Surface, tag: pygame.Rect) -> None:
    """The "SP" tag of a card with a special placement."""
    pygame.draw.rect(surface, theme.ACCENT, tag, border_radius=3)
    draw_text(surface, "SP", tag.center, max(7, tag.height - 3), theme.TEXT_DARK, bold=True, anchor="center")


class CardArt:
    """Renders and caches card faces and backs for one card set."""

    def __init__(self, cardset: CardSet, max_cached: int = 600) -> None:
        self.cardset = cardset
        self._faces: dict[tuple[str, int, int, str], pygame.Surface] = {}
        self._backs: dict[tuple[int, int], pygame.Surface] = {}
        self._name_whole: dict[tuple[str, int, int, str], bool] = {}
        self.max_cached = max_cached
        self.renders = 0

    def name(self, card_id: str, lang: str) -> str:
        card = self.cardset.card(card_id)
        return pick(lang, card.name_en, card.name_ja)

    def name_fits(self, card_id: str, size: tuple[int, int], lang: str) -> bool:
        """True if the face at ``size`` shows the card's name whole (not elided)."""
        w, h = int(size[0]), int(size[1])
        key = (card_id, w, h, lang)
        if key not in self._faces:
            self.face(card_id, size, lang)
        return self._name_whole.get(key, True)

    def face(self, card_id: str, size: tuple[int, int], lang: str) -> pygame.Surface:
        """The face of ``card_id`` at exactly ``size`` pixels."""
        key = (card_id, int(size[0]), int(size[1]), lang)
        surf = self._faces.get(key)
        if surf is None:
            if len(self._faces) >= self.max_cached:
                self._faces.clear()
                self._name_whole.clear()
            surf = self._render_face(self.cardset.card(card_id), key[1], key[2], lang)
            self._faces[key] = surf
            self.renders += 1
        return surf

    def back(self, size: tuple[int, int]) -> pygame.Surface:
        """The common card back (what hidden cards look like)."""
        key = (int(size[0]), int(size[1]))
        surf = self._backs.get(key)
        if surf is None:
            surf = self._render_back(*key)
            self._backs[key] = surf
        return surf

    # -- rendering -----------------------------------------------------------
    def _render_back(self, w: int, h: int) -> pygame.Surface:
        surf = pygame.Surface((w, h))  # opaque while drawing: anti-aliasing blends, never punches alpha
        radius = max(3, w // 14)
        surf.fill(theme.CARD_BACK)
        inner = surf.get_rect().inflate(-max(4, w // 9), -max(4, w // 9))
        pygame.draw.rect(surf, (48, 70, 128), inner, border_radius=max(2, radius // 2))
        step = max(6, w // 8)
        clip = surf.get_clip()
        surf.set_clip(inner)
        for k in range(-h, w + h, step):
            pygame.draw.line(surf, (58, 84, 150), (inner.left + k, inner.top), (inner.left + k + h, inner.top + h), 1)
            pygame.draw.line(surf, (58, 84, 150), (inner.left + k, inner.bottom), (inner.left + k + h, inner.bottom - h), 1)
        surf.set_clip(clip)
        pygame.draw.rect(surf, theme.CARD_BACK_EDGE, inner, width=max(1, w // 60), border_radius=max(2, radius // 2))
        _aacircle(surf, (w / 2, h / 2), w * 0.24, theme.CARD_BACK)
        pygame.gfxdraw.aacircle(surf, w // 2, h // 2, int(w * 0.24), theme.CARD_BACK_EDGE)
        if w >= 40:
            draw_text(surf, "FT", (w // 2, h // 2), max(8, int(w * 0.2)), theme.CARD_BACK_EDGE, bold=True, anchor="center")
        pygame.draw.rect(surf, (14, 20, 40), surf.get_rect(), width=max(1, w // 50), border_radius=radius)
        return _rounded(surf, radius)

    def _render_face(self, card: Card, w: int, h: int, lang: str) -> pygame.Surface:
        frame, light, dark = theme.ATTRIBUTE_COLOURS.get(card.attribute, theme.ATTRIBUTE_COLOURS["free"])
        surf = pygame.Surface((w, h))  # opaque while drawing: anti-aliasing blends, never punches alpha
        radius = max(3, w // 14)
        surf.fill(frame)
        border = max(2, w // 28)
        body = surf.get_rect().inflate(-2 * border, -2 * border)
        pygame.draw.rect(surf, light, body, border_radius=max(2, radius - border))
        # header band: level badge, name, mark, power squares
        header_h = int(h * HEADER)
        header = pygame.Rect(body.left, body.top, body.width, header_h - border)
        pygame.draw.rect(surf, dark, header, border_top_left_radius=max(2, radius - border),
                         border_top_right_radius=max(2, radius - border))
        badge_r = header.height * 0.5
        badge_c = (header.left + badge_r + 1, header.centery)
        draw_level_badge(surf, badge_c, badge_r, level_label(card.levels), max(1, w // 70))
        # the mark sits on the lower line, right of the power squares, so the
        # name has the whole top line (names are long; small cards elide them)
        mark_r = header.height * 0.23
        mark_c = (header.right - mark_r - max(2, w // 40), header.top + header.height * 0.7)
        _aacircle(surf, mark_c, mark_r, (250, 246, 236))
        draw_mark(surf, card.mark, mark_c, mark_r * 0.82, dark)
        name_left = int(badge_c[0] + badge_r + max(2, w // 40))
        name_w = header.right - max(3, w // 30) - name_left
        name = pick(lang, card.name_en, card.name_ja)
        name_size = max(7, int(header.height * 0.42))
        # shrink a little, then elide with "…" (the hover preview names it in full)
        min_name = max(7, min(int(name_size * 0.75), 12))  # big cards may shrink further: 12 px reads fine
        self._name_whole[(card.id, w, h, lang)] = fits(name, name_size, name_w, True, min_name)
        draw_text(surf, name, (name_left, header.top), name_size,
                  (255, 255, 255), bold=True, max_width=name_w, min_size=min_name)
        power_w = int(mark_c[0] - mark_r) - max(2, w // 40) - name_left
        power_rect = pygame.Rect(name_left, header.top + int(header.height * 0.66), power_w, max(3, int(header.height * 0.26)))
        draw_power(surf, card, power_rect)
        # art box with the attribute emblem
        text = pick(lang, card.text_en, card.text_ja)
        art_h = int(h * (0.34 if text else 0.52))
        art = pygame.Rect(body.left + border, header.bottom + border, body.width - 2 * border, art_h)
        pygame.draw.rect(surf, frame, art, border_radius=max(2, w // 30))
        for i in range(art.height):
            shade = tuple(int(c * (0.75 + 0.25 * i / art.height)) for c in frame)
            pygame.draw.line(surf, shade, (art.left + 2, art.top + i), (art.right - 3, art.top + i))
        _draw_rays(surf, art, card.id, tuple(int(c * 0.9 + 255 * 0.1) for c in frame))  # type: ignore[arg-type]
        draw_emblem(surf, card.attribute, art, tuple(min(255, int(c * 0.55 + 255 * 0.45)) for c in frame))  # type: ignore[arg-type]
        pygame.draw.rect(surf, dark, art, width=max(1, w // 90), border_radius=max(2, w // 30))
        if 4 in card.levels:  # top-level cards (they can attack) get a gold inner line
            pygame.draw.rect(surf, theme.ACCENT, body, width=max(1, w // 70), border_radius=max(2, radius - border))
        if card.special_placement is not None and w >= 50:
            draw_sp_tag(surf, pygame.Rect(art.left + 3, art.top + 3, max(16, w // 5), max(9, h // 16)))
        # effect text
        box = pygame.Rect(body.left + border, art.bottom + border, body.width - 2 * border, body.bottom - art.bottom - 2 * border)
        pygame.draw.rect(surf, (252, 250, 244), box, border_radius=max(2, w // 40))
        pad = max(2, w // 30)
        foot_h = max(7, int(h * 0.045))
        inner = box.inflate(-2 * pad, -2 * pad)
        inner.height -= foot_h
        if w >= 70 and text:
            size = fit_size(text, inner.width, inner.height, max(8, int(h * 0.058)), minimum=6)
            draw_wrapped(surf, text, inner, size, theme.TEXT_DARK)
        if w >= 70:
            attr = attribute_name(card.attribute, lang)
            draw_text(surf, f"{attr} · {card.id}", (box.right - pad, box.bottom - 1), foot_h, theme.TEXT_DIM, anchor="bottomright")
        return _rounded(surf, radius)


def mark_name(mark: str, lang: str) -> str:
    """A battle mark with its rock-paper-scissors meaning (rider rule 1)."""
    return tr(lang, f"mark_{mark}") if known(f"mark_{mark}") else mark


def attribute_name(attribute: str, lang: str) -> str:
    return tr(lang, f"attr_{attribute}") if known(f"attr_{attribute}") else attribute

"""Text rendering: cached glyph runs, word/character wrapping, fitting.

English wraps at spaces; Japanese may break between any two characters,
except before closing punctuation (a light kinsoku rule). Rendered runs are
cached by (text, size, bold, colour) because a frame redraws the same
labels again and again.
"""

from __future__ import annotations

import functools

import pygame

from client.fonts import covers, font
from client.theme import Colour

#: Characters that must not start a line (Japanese line-breaking rule).
NO_LINE_START = set("、。，．）」』】〕！？ー…・ぁぃぅぇぉっゃゅょァィゥェォッャュョ),.!?:;%")


@functools.lru_cache(maxsize=4096)
def render(text: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
    """One line of anti-aliased text on a transparent surface.

    The bundled Bold face only covers the game's own text; anything else
    (a player's name in rare kanji) is drawn with the Regular face."""
    if bold and text and not covers(text, True):
        bold = False
    return font(size, bold).render(text, True, colour)


def _tokens(text: str) -> list[str]:
    """Split into unbreakable pieces: ASCII words (with their trailing space)
    and single CJK characters (with following no-line-start punctuation)."""
    tokens: list[str] = []
    word = ""
    for ch in text:
        if ch == "\n":
            if word:
                tokens.append(word)
                word = ""
            tokens.append("\n")
        elif ord(ch) < 0x2E80:
            word += ch
            if ch == " ":
                tokens.append(word)
                word = ""
        else:
            if ch in NO_LINE_START and (word or tokens):
                if word:
                    word += ch
                else:
                    tokens[-1] += ch
                continue
            if word:
                tokens.append(word)
            word = ch
            tokens.append(word)
            word = ""
    if word:
        tokens.append(word)
    return tokens


@functools.lru_cache(maxsize=2048)
def wrap(text: str, size: int, width: int, bold: bool = False) -> tuple[str, ...]:
    """Lines of ``text`` that fit ``width`` pixels at ``size``."""
    f = font(size, bold)
    lines: list[str] = []
    line = ""
    for token in _tokens(text):
        if token == "\n":
            lines.append(line.rstrip())
            line = ""
            continue
        candidate = line + token
        if line and f.size(candidate.rstrip())[0] > width:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line = candidate
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return tuple(lines)


def line_height(size: int) -> int:
    return int(font(size).get_linesize() * 0.92)


def fit_size(text: str, width: int, height: int, start: int, minimum: int = 7, bold: bool = False) -> int:
    """The largest size <= ``start`` at which wrapped ``text`` fits the box."""
    size = start
    while size > minimum:
        if len(wrap(text, size, width, bold)) * line_height(size) <= height:
            return size
        size -= 1
    return minimum


def draw_wrapped(
    surface: pygame.Surface, text: str, rect: pygame.Rect, size: int, colour: Colour, bold: bool = False, centre: bool = False
) -> int:
    """Draw wrapped text inside ``rect`` (clipped); return the height used. A word longer than
    the width (a card name in a small board cell) is cut with an ellipsis, never drawn past the
    edges (:func:`fit_line`)."""
    y = rect.top
    step = line_height(size)
    for line in wrap(text, size, rect.width, bold):
        if y + step > rect.bottom + step // 3:
            break
        if font(size, bold).size(line)[0] > rect.width:
            line = fit_line(line, size, max(1, rect.width), bold, min_size=size)[0]
        run = render(line, size, colour, bold)
        x = rect.centerx - run.get_width() // 2 if centre else rect.left
        surface.blit(run, (x, y))
        y += step
    return y - rect.top


ELLIPSIS = "…"


@functools.lru_cache(maxsize=4096)
def fit_line(text: str, size: int, max_width: int, bold: bool = False, min_size: int = 0) -> tuple[str, int]:
    """(text, size) of one line that fits ``max_width`` pixels.

    The one rule used everywhere: shrink the font down to ``min_size``
    (default: 80% of ``size``, never below 7), and if it still does not
    fit, cut the end and add an ellipsis. A shortened label is never just
    clipped, so the reader can tell that there is more (cards show their
    full name on hover)."""
    floor = max(7, min(size, min_size or round(size * 0.8)))
    while size > floor and font(size, bold).size(text)[0] > max_width:
        size -= 1
    f = font(size, bold)
    if f.size(text)[0] <= max_width:
        return text, size
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if f.size(text[:mid].rstrip() + ELLIPSIS)[0] <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return (text[:lo].rstrip() + ELLIPSIS) if lo else ELLIPSIS, size


def fits(text: str, size: int, max_width: int, bold: bool = False, min_size: int = 0) -> bool:
    """True if :func:`fit_line` keeps ``text`` whole."""
    return fit_line(text, size, max_width, bold, min_size)[0] == text


def draw_text(
    surface: pygame.Surface, text: str, pos: tuple[int, int], size: int, colour: Colour,
    bold: bool = False, anchor: str = "topleft", max_width: int | None = None, min_size: int = 0,
) -> pygame.Rect:
    """Draw one line anchored at ``pos``; fit it to ``max_width`` if given
    (see :func:`fit_line`: shrink a little, then elide with an ellipsis)."""
    if max_width is not None:
        text, size = fit_line(text, size, max(1, max_width), bold, min_size)
    run = render(text, size, colour, bold)
    rect = run.get_rect(**{anchor: pos})
    surface.blit(run, rect)
    return rect

"""The bundled font (Fairtable Sans JP, an OFL subset of Noto Sans CJK JP).

One face renders English and Japanese alike, so every text in the client
goes through :func:`font`. Fonts are cached per (size, bold): opening an
OpenType file is slow, rendering with an open one is fast.
"""

from __future__ import annotations

import functools
import struct

import pygame

import assets

REGULAR = "fonts/FairtableSansJP-Regular.otf"
BOLD = "fonts/FairtableSansJP-Bold.otf"


@functools.lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The bundled font at ``size`` pixels (clamped to a legible minimum)."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(str(assets.path(BOLD if bold else REGULAR)), max(6, int(size)))


@functools.lru_cache(maxsize=4)
def coverage(bold: bool = False) -> frozenset[int]:
    """Code points the bundled face maps to a glyph (from its OpenType cmap).

    SDL_ttf draws a placeholder box for a missing character and reports it as
    present, so the client reads the font's own character map instead.
    """
    data = assets.path(BOLD if bold else REGULAR).read_bytes()
    return frozenset(_cmap_points(data))


def covers(text: str, bold: bool = False) -> bool:
    cmap = coverage(bold)
    return all(ord(ch) in cmap for ch in text if ch not in "\n\t")


def _cmap_points(data: bytes) -> set[int]:
    """Parse the 'cmap' table: Unicode subtables of format 4 and 12."""
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_offset = None
    for i in range(num_tables):
        tag, _check, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_offset = offset
    if cmap_offset is None:
        raise ValueError("the font has no cmap table")
    points: set[int] = set()
    count = struct.unpack_from(">H", data, cmap_offset + 2)[0]
    for i in range(count):
        platform, encoding, sub = struct.unpack_from(">HHI", data, cmap_offset + 4 + 8 * i)
        if not (platform == 0 or (platform == 3 and encoding in (1, 10))):
            continue
        base = cmap_offset + sub
        fmt = struct.unpack_from(">H", data, base)[0]
        if fmt == 4:
            seg2 = struct.unpack_from(">H", data, base + 6)[0]
            ends = base + 14
            starts = ends + seg2 + 2
            deltas = starts + seg2
            ranges = deltas + seg2
            for k in range(seg2 // 2):
                end = struct.unpack_from(">H", data, ends + 2 * k)[0]
                start = struct.unpack_from(">H", data, starts + 2 * k)[0]
                delta = struct.unpack_from(">h", data, deltas + 2 * k)[0]
                range_offset = struct.unpack_from(">H", data, ranges + 2 * k)[0]
                for cp in range(start, end + 1):
                    if cp == 0xFFFF:
                        continue
                    if range_offset == 0:
                        glyph = (cp + delta) & 0xFFFF
                    else:
                        at = ranges + 2 * k + range_offset + 2 * (cp - start)
                        glyph = struct.unpack_from(">H", data, at)[0]
                        glyph = (glyph + delta) & 0xFFFF if glyph else 0
                    if glyph:
                        points.add(cp)
        elif fmt == 12:
            groups = struct.unpack_from(">I", data, base + 12)[0]
            for g in range(groups):
                start, end, first_glyph = struct.unpack_from(">III", data, base + 16 + 12 * g)
                for cp in range(start, end + 1):
                    if first_glyph + (cp - start):
                        points.add(cp)
    return points

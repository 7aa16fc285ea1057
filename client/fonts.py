"""The bundled font (Fairtable Sans JP, an OFL subset of Noto Sans CJK JP).

One face renders English and Japanese alike, so every text in the client
goes through :func:`font`. Fonts are cached per (size, bold): opening an
OpenType file is slow, rendering with an open one is fast.
"""

from __future__ import annotations

import functools

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

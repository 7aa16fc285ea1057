"""Where the part-2 combat stand-in was: its entry points now run the real combat.

Kept only so that code written against the stand-in (``from
engine.locke.standin import begin, obstacles_of``) keeps working while the
other Locke branches move to :mod:`engine.locke.combat` (API-combat.md).
"""

from __future__ import annotations

from engine.locke.combat import begin
from engine.locke.combat import obstacles_from as obstacles_of

__all__ = ["begin", "obstacles_of"]

"""Data shipped with the game (card sets, decks, charts, fonts), as package data.

Only this module touches the files; the engine receives parsed data.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any


def path(relative: str) -> Path:
    """Filesystem path of a shipped asset, e.g. ``path("fonts/x.otf")``."""
    return Path(str(resources.files("assets").joinpath(relative)))


def load_json(relative: str) -> Any:
    """Parse a shipped JSON asset such as ``"rider/cardset.json"``."""
    return json.loads(resources.files("assets").joinpath(relative).read_text(encoding="utf-8"))

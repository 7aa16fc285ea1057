"""One line of a table's log (every game's table scene keeps a list of them, client/table/scene.py)."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class LogEntry:
    """One log line; ``proof`` is "local", "verified" or "" (no randomness or reveal)."""

    text: str
    proof: str = ""
    turn_marker: bool = False
    #: A chat line of the table (signed by its seat), not a game event.
    chat: bool = False

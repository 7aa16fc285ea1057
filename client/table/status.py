"""How a seat's status looks: the colour of each ``peer_*`` status key.

Sessions (client/table/session.py) report a seat's status as a catalogue
key; this is the one place that decides how each looks, so an adapter never
imports the theme and every game's scene shows a status the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

from client import theme

#: status key -> colour; a key missing here is drawn as plain text.
COLOURS: Mapping[str, theme.Colour] = {
    "peer_cheat": theme.BAD,
    "peer_stopped": theme.BAD,
    "peer_left": theme.BAD,
    "peer_resigned": theme.BAD,
    "peer_stand_in": theme.WARN,
    "peer_you_turn": theme.ACCENT,
    "peer_you_local": theme.GOOD,
    "peer_you_net": theme.GOOD,
    "peer_bot_local": theme.GOOD,
    "peer_bot_thinking": theme.WARN,
    "peer_done": theme.GOOD,
    "peer_connected": theme.GOOD,
    "peer_reconnecting": theme.WARN,
    "peer_stalling": theme.WARN,
    "peer_waiting": theme.INFO,
}

#: Statuses that mean a seat is gone or not answering: the bar's note is drawn as a warning.
ALARMS = frozenset({"peer_stalling", "peer_left", "peer_resigned"})


def status_colour(key: str) -> theme.Colour:
    """The colour a seat's status ``key`` is drawn in."""
    return COLOURS.get(key, theme.TEXT)

"""Chat lines: signed and chained like every envelope, but never game input.

One rule for both directions (our line, a peer's envelope) so that a line we
may send is exactly a line every peer accepts.
"""

from __future__ import annotations

from collections.abc import Mapping

from net.envelope import Envelope
from net.errors import MalformedMessage

MAX_CHAT = 500


def check_line(text: object) -> str:
    """Our own chat line, checked before it is signed."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_CHAT:
        raise ValueError(f"a chat line has 1 to {MAX_CHAT} characters")
    return text


def line_of(env: Envelope) -> str:
    """The text of a peer's chat envelope; a bad shape is a rejection."""
    text = env.body.get("text") if isinstance(env.body, Mapping) and set(env.body) == {"text"} else None
    if not isinstance(text, str) or not 0 < len(text) <= MAX_CHAT:
        raise MalformedMessage(f"a chat message is {{'text': 1 to {MAX_CHAT} characters}}", seat=env.seat)
    return text

"""The session's message vocabulary: envelope kinds and the payload to send.

Kept apart from :mod:`net.session.core` so that every part of the session
(intake, rounds, audit, catch-up) can build an :class:`Outgoing` without
importing the session class itself.
"""

from __future__ import annotations

from typing import NamedTuple

#: Kinds of envelope a session sends (see docs/protocol.md).
KINDS = ("hello", "action", "commit", "reveal", "roll", "shuffle", "shares", "open", "audit", "final",
         "chat", "forfeit", "desync", "dispute", "resign", "abandon", "place", "cells", "disclose", "leave")


class Outgoing(NamedTuple):
    """A payload to send: to every peer (``to`` None) or to one seat."""

    data: bytes
    to: int | None = None

"""Words every game's table uses about seats and peers (both languages, seats counted from 1).

``player_label`` names a player at a seat ("You (Seat 1)", "Aki (Seat 2)");
``display_name`` and ``display_text`` make what arrives from the network
safe to show; ``clock_text`` words a countdown. The number is
``net.seats.seat_number``'s, the one convention of tools and client.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from client.i18n import tr
from net.envelope import DICE_COMMIT_REVEAL
from net.seats import seat_number


class WatchedNames(tuple[str, ...]):
    """The seats' names at a table we only watch (client/table/net_session.py): no seat is "you"."""


def player_label(seat: int, names: Sequence[str], me: int, lang: str) -> str:
    """A seat for people: "You (Seat 1)", "Aki (Seat 2)" (seats counted from one); at a table
    we watch (:class:`WatchedNames`) every seat goes by its name."""
    if seat == me and not isinstance(names, WatchedNames):
        return tr(lang, "seat_you", n=seat_number(seat))
    return tr(lang, "seat_named", name=names[seat], n=seat_number(seat))


def forfeit_key(key: str, seats: int) -> str:
    """The words about claiming a silent seat's forfeit for a table of ``seats``: with two seats
    the claimer wins; with more the game ends for everyone with no winner (net/session/deadlines.py
    ``forfeit``), so "claim the win" would promise what does not happen (``<key>_many``)."""
    return f"{key}_many" if seats > 2 else key


def display_name(name: str, seat: int) -> str:
    """A peer's self-chosen name made safe to show: no control or format
    characters, at most 24 characters (it comes from the network)."""
    clean = "".join(ch for ch in str(name) if not unicodedata.category(ch).startswith("C")).strip()
    if len(clean) > 24:
        clean = clean[:23].rstrip() + "…"
    return clean or f"Player {seat_number(seat)}"


def display_text(text: str, limit: int = 200) -> str:
    """A chat line from the network made safe to show: no control or format characters, bounded."""
    clean = "".join(ch for ch in str(text) if not unicodedata.category(ch).startswith("C")).strip()
    return clean[: limit - 1] + "…" if len(clean) > limit else clean


def clock_text(seconds: float) -> str:
    """Seconds as m:ss for a countdown."""
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


def audit_words(session: Any, lang: str) -> str:
    """How the table's chance and cards were made, for the end screen: a local table's seeded
    generator, or a networked table's protocols, its dice named from the game's own record (the
    genesis ``dice`` field, net/envelope.py ``DICE_PROTOCOLS``; new games roll one-phase VRF dice,
    an old record commit-reveal ones), not assumed."""
    if not session.networked:
        return tr(lang, "audit_local")
    genesis = getattr(getattr(session, "peer", None), "genesis", None)
    dice = getattr(genesis, "dice", None)
    return tr(lang, "audit_net_commit_reveal" if dice == DICE_COMMIT_REVEAL else "audit_net")

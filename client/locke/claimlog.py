"""The log's word on each declaration a networked table logged: proven now, or checked at the end.

Why: on a networked table a declaration about hidden cards (a claim,
engine/core/claims.py) is either proven at once by its maker with a
zero-knowledge proof that every peer checked before accepting the move
(net/session/claim_steps.py), or it can only be judged when its cards are
revealed at the end-of-game audit. A player should know which, to know how
far to trust what was declared. A local table judges every claim at once
and adds no line.
"""

from __future__ import annotations

from typing import Any

from client.i18n import tr
from client.table.log import LogEntry
from client.table.words import player_label
from engine.core.capabilities import capabilities


def claim_statuses(session: Any, pre: Any, post: Any) -> list[tuple[int, bool]]:
    """(declaring seat, proven at its step) for each claim ``post`` adds to ``pre``'s log; empty on a
    local table. ``session`` is the scene's table session (client/table/net_session.py)."""
    if not getattr(session, "networked", False):
        return []
    proven = getattr(getattr(session, "session", None), "claims_proven", None)
    caps = capabilities(session.game)
    before, after = caps.claims(pre), caps.claims(post)
    if not isinstance(proven, dict) or len(after) <= len(before):
        return []
    return [(int(claim.seat), index in proven) for index, claim in enumerate(after[len(before):], len(before))]


def claim_entries(lang: str, statuses: list[tuple[int, bool]], names: tuple[str, ...], me: int) -> list[LogEntry]:
    """The log's lines on the claims of one step, in the table's language: one line per kind
    (proven now, or checked at the end) and count, naming every seat that made such claims ("Ann
    (Seat 1), Bo (Seat 2) each made a claim ..."): an attack that makes two claims of a kind (its level
    and its card) says how many, and the set-up's five silhouette claims make one line, not five."""
    counts: dict[tuple[int, bool], int] = {}
    for seat, proven in statuses:  # dicts keep the order of the first claim of each
        counts[(seat, proven)] = counts.get((seat, proven), 0) + 1
    seats: dict[tuple[bool, int], list[int]] = {}
    for (seat, proven), n in counts.items():
        seats.setdefault((proven, n), []).append(seat)
    out = []
    for (proven, n), who_seats in seats.items():
        who = tr(lang, "lk_list_sep").join(player_label(s, names, me, lang) if 0 <= s < len(names) else str(s) for s in who_seats)
        key = "lk_claim_proven" if proven else "lk_claim_waits"
        if len(who_seats) > 1:
            key += "_each"
        out.append(LogEntry(tr(lang, f"{key}_n", who=who, n=n) if n > 1 else tr(lang, key, who=who)))
    return out

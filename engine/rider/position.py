"""Build a Rider state from a written-down position (scenarios and tests).

A position names every card openly (it is a test or teaching fixture, not a
game between distrustful players), so this returns the public state plus the
complete handle -> card map (``truth``) and each seat's knowledge. The format
is documented in docs/scenarios.md. Pure: takes parsed data, reads no files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.actions import SYSTEM
from engine.core.errors import DeckError
from engine.core.hidden import Knowledge
from engine.rider.game import RiderGame
from engine.rider.state import Column, Player, RiderState, Step

#: Where the turn stands: the queue that remains of the active seat's turn.
PHASES = {
    "draw": ("draw", "main", "attack", "end"),
    "main": ("main", "attack", "end"),
    "attack": ("attack", "end"),
}
#: Before the first turn: the battle-mark contest (rider.1) is due; no turn has started.
BATTLE_MARK = "battle_mark"


class PositionError(DeckError):
    """A position description is malformed; ``problems`` lists every issue."""


def _column(game: RiderGame, raw: Any, where: str, problems: list[str]) -> tuple[Column, str | None]:
    """Returns the column (facedown handle filled in later) and the face-down card id."""
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: a column must be an object such as {{\"cards\": [\"FT-001\"]}}")
        return Column(), None
    unknown = sorted(set(raw) - {"cards", "facedown", "zero"})
    if unknown:
        problems.append(f"{where}: unknown fields {unknown}; use cards, facedown, zero")
    facedown = raw.get("facedown")
    cards: list[tuple[str, int]] = []
    previous = 0
    for entry in raw.get("cards", []):
        if isinstance(entry, str):
            cid, level = entry, None
        elif isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and isinstance(entry[1], int):
            cid, level = entry[0], entry[1]
        else:
            problems.append(f"{where}: card entry {entry!r} must be an id or [id, level]")
            continue
        info = game.table.get(cid)
        if info is None:
            problems.append(f"{where}: card {cid!r} is not in the card set")
            continue
        if level is None:
            higher = [lv for lv in info.levels if lv > previous]
            level = min(higher) if higher else max(info.levels)
        if level not in info.levels or level <= previous:
            problems.append(f"{where}: {cid} cannot stand at Lv.{level} there (levels {list(info.levels)}, "
                            f"and each card must be above the one below it)")
            continue
        cards.append((cid, level))
        previous = level
    if cards and (cards[0][1] != 1 or not game.table[cards[0][0]].lv1):
        problems.append(f"{where}: a face-up column starts with a Lv.1 card")
    zero = raw.get("zero")
    if zero is not None and (zero not in game.table or not game.table[zero].lv0):
        problems.append(f"{where}: zero must be a Lv.0 card id, not {zero!r}")
    if facedown is not None:
        if not isinstance(facedown, str) or facedown not in game.table:
            problems.append(f"{where}: facedown must be a card id, not {facedown!r}")
        if cards:
            problems.append(f"{where}: a column is either face down or face up, not both")
    return Column(None, tuple(cards), zero), facedown


def position_state(game: RiderGame, data: Any) -> tuple[RiderState, tuple[Knowledge, Knowledge], dict[int, str]]:
    """Build ``(state, knowledge per seat, truth)`` from a position; see docs/scenarios.md."""
    problems: list[str] = []
    if not isinstance(data, Mapping):
        raise PositionError(["a position must be an object"])
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != 2:
        raise PositionError(["a position needs \"seats\": a list of two seat objects"])
    phase = data.get("phase", "main")
    if phase not in PHASES and phase != BATTLE_MARK:
        problems.append(f"phase must be one of {sorted([*PHASES, BATTLE_MARK])}, not {phase!r}")
    active = data.get("active", 0)
    if active not in (0, 1):
        problems.append("active must be 0 or 1")
    turn = data.get("turn", 1)
    if not isinstance(turn, int) or turn < 1:
        problems.append("turn must be a positive integer")
    attacks = data.get("attacks", [0, 0, 0])
    if not (isinstance(attacks, list) and len(attacks) == 3 and all(isinstance(a, int) and a >= 0 for a in attacks)):
        problems.append("attacks must list three non-negative integers")
        attacks = [0, 0, 0]
    truth: dict[int, str] = {}
    knowledge: list[dict[int, str]] = [{}, {}]
    players: list[Player] = []
    handle = 0

    def ids(seat: int, key: str) -> list[str]:
        raw = seats[seat].get(key, []) if isinstance(seats[seat], Mapping) else []
        if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
            problems.append(f"seat {seat}: {key} must be a list of card ids")
            return []
        for cid in raw:
            if cid not in game.table:
                problems.append(f"seat {seat}: {key}: card {cid!r} is not in the card set")
        return list(raw)

    for seat in (0, 1):
        if not isinstance(seats[seat], Mapping):
            problems.append(f"seat {seat} must be an object")
            players.append(Player((Column(), Column(), Column()), (), (), (), ()))
            continue
        raw_cols = seats[seat].get("columns", [{}, {}, {}])
        if not isinstance(raw_cols, list) or len(raw_cols) != 3:
            problems.append(f"seat {seat}: columns must list three columns (A, B, C)")
            raw_cols = [{}, {}, {}]
        deck, hand = [], []
        for cid in ids(seat, "deck"):
            truth[handle] = cid
            deck.append(handle)
            handle += 1
        for cid in ids(seat, "hand"):
            truth[handle] = knowledge[seat][handle] = cid
            hand.append(handle)
            handle += 1
        cols = []
        for index, raw in enumerate(raw_cols):
            col, facedown = _column(game, raw, f"seat {seat} column {'ABC'[index]}", problems)
            if facedown is not None:
                truth[handle] = knowledge[seat][handle] = facedown
                col = col._replace(facedown=handle)
                handle += 1
            cols.append(col)
        lost = ids(seat, "lost")
        if any(cid in game.table and not game.table[cid].lv1 for cid in lost):
            problems.append(f"seat {seat}: only Lv.1 cards can be in Lost")
        players.append(Player((cols[0], cols[1], cols[2]), tuple(deck), tuple(hand), tuple(ids(seat, "discard")), tuple(lost)))
    if phase == BATTLE_MARK:
        if "turn" in data or "active" in data or "attacks" in data:
            problems.append("phase battle_mark comes before the first turn: leave out turn, active and attacks")
        for seat, p in enumerate(players):
            if not any(c.facedown is not None for c in p.columns):
                problems.append(f"seat {seat}: the battle-mark contest needs at least one face-down column to turn over")
    if problems:
        raise PositionError(problems)
    if phase == BATTLE_MARK:  # rider.1: both seats pick a face-down column to turn over
        queue: tuple[Step, ...] = (Step("mark", SYSTEM),)
        turn = 0
    else:
        queue = tuple(Step(kind, active) for kind in PHASES[phase])
    state = RiderState(
        players=(players[0], players[1]), queue=queue, active=active, turn=turn, next_handle=handle,
        attacks=(attacks[0], attacks[1], attacks[2]),
    )
    state = game.settle(state)
    return state, (Knowledge(0).learn(knowledge[0].items()), Knowledge(1).learn(knowledge[1].items())), truth

"""Rider's scenario files (``fairtable.rider.scenario/1``, docs/scenarios.md) for ``python -m tools.scenario``.

A Rider position is built from the file (engine/rider/position.py) on a
trusted local table; the table answers everything but decisions and sealed
choices itself. Hand-card inputs may name only the card.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.core import Decision, EngineError
from engine.rider.game import RiderGame
from engine.rider.position import position_state
from net.problems import InputProblem
from net.games.rider.deck_tool import load_cardset
from net.local_table import LocalTable
from net.scenario import ScenarioKind
from net.seats import seat_label

_HAND_KINDS = ("rider.level_up", "rider.renew", "rider.open", "rider.pass", "rider.discard")


def _build(data: Mapping[str, Any], base: Path, seed: int) -> LocalTable:
    cardset_file = data.get("cardset")
    if cardset_file is not None and not isinstance(cardset_file, str):
        raise InputProblem("'cardset' must be a file path (relative to the scenario) or null for the shipped set")
    game = RiderGame(load_cardset(str(base / cardset_file) if cardset_file else None))
    try:
        state, knowledge, truth = position_state(game, data.get("position"))
    except EngineError as exc:
        problems = getattr(exc, "problems", [str(exc)])
        raise InputProblem("the position is not valid:\n  " + "\n  ".join(problems)) from None
    return LocalTable(game, state, knowledge, [None, None], seed, truth=truth)


def _submit(table: LocalTable, raw: Mapping[str, Any]) -> None:
    """Hand-card actions may name only the card: the first hand handle holding it is used."""
    data = dict(raw)
    if data.get("kind") in _HAND_KINDS and "handle" not in data:
        seat, card = data.get("seat"), data.get("card")
        handle: int | None = -1
        if card is None:
            handle = None
        elif seat in (0, 1):
            handle = next((h for h in table.state.players[seat].hand if table.card(h) == card), -1)
        data["handle"] = handle
    if data.get("kind") == "rider.level_up" and "targets" not in data:
        data["targets"] = []
    table.feed(table.game.codec.decode(data))


def _check(expect: Mapping[str, Any], result: dict[str, Any], table: LocalTable) -> list[str]:
    problems: list[str] = []
    state = result["state"]
    if "winner" in expect:
        got_winner = result["outcome"]["winner"] if result["outcome"] else "unfinished"
        if expect["winner"] != got_winner:
            problems.append(f"expected winner {expect['winner']!r}, got {got_winner!r}")
    for key in ("lost", "discard"):
        if key in expect:
            got_piles = [p[key] for p in state["players"]]
            if expect[key] != got_piles:
                problems.append(f"expected {key} piles {expect[key]}, got {got_piles}")
    if "hand_sizes" in expect:
        sizes = [len(p["hand"]) for p in state["players"]]
        if expect["hand_sizes"] != sizes:
            problems.append(f"expected hand sizes {expect['hand_sizes']}, got {sizes}")
    if "active" in expect and expect["active"] != state["active"]:
        problems.append(f"expected {seat_label(expect['active'])} to be active, got {seat_label(state['active'])}")
    for seat_key, columns in (expect.get("columns") or {}).items():
        for letter, cards in columns.items():
            got_col = state["players"][int(seat_key)]["columns"]["ABC".index(letter)]
            if got_col["cards"] != cards:
                problems.append(f"expected {seat_label(int(seat_key))} (key {seat_key!r}) column {letter} {cards}, "
                                f"got {got_col['cards']}")
    return problems


KIND = ScenarioKind("fairtable.rider.scenario/1", _build, lambda pending: not isinstance(pending, Decision), _submit,
                    _check)

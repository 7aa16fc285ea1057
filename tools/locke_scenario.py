"""Locke scenarios for ``python -m tools.scenario`` (format ``fairtable.locke.scenario/1``).

A scenario builds a Locke position (engine/locke/position.py), applies the
listed inputs in order on a trusted LocalTable that knows every card, and
reports the resulting state or the typed error of the first rejected input.
Hidden-card operations, cell openings and disclosures are answered by the
table as they come; dice, sealed choices and placements come from the file,
so a scenario fixes every roll. The format is in docs/scenarios.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import SYSTEM, Decision, EngineError, hash_of
from engine.core.pending import Chance, Placement, SealedChoice
from engine.locke.position import position_state
from net.local_table import LocalTable, TableError
from tools.deck import InputProblem
from net.games.locke import components as locke_components

SCENARIO_FORMAT = "fairtable.locke.scenario/1"


def _settle(table: LocalTable) -> None:
    while table.pending is not None and not isinstance(table.pending, (Decision, Chance, SealedChoice)):
        if isinstance(table.pending, Placement) and table.pending.op == "place":
            return
        if table.step() is None:
            return


def _apply(table: LocalTable, raw: Mapping[str, Any]) -> None:
    data = dict(raw)
    pending = table.pending
    if data.get("kind") == "placement":
        cells = data.get("cells")
        if not isinstance(cells, Mapping):
            raise InputProblem("a placement input needs 'cells': {cell: thing}")
        try:
            table.submit_placement(int(data.get("seat", -1)), dict(cells))
        except TableError as exc:
            raise InputProblem(f"placement: {exc}") from None
        return
    if data.get("kind") == "dice_rolled":
        data.setdefault("seat", SYSTEM)
        if isinstance(pending, Chance):
            data.setdefault("purpose", pending.purpose)
    table.submit(table.game.codec.decode(data))


def run_locke(data: Mapping[str, Any]) -> dict[str, Any]:
    """Run a parsed Locke scenario and return the result (like the Rider one)."""
    from engine.locke.game import LockeGame

    game = LockeGame(locke_components())
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise InputProblem("'seed' must be an integer")
    try:
        state, knowledge, truth = position_state(game, data.get("position"))
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise InputProblem(f"the position is not valid: {exc}") from None
    table = LocalTable(game, state, knowledge, [None] * len(knowledge), seed, truth=truth)
    _settle(table)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise InputProblem("'actions' must be a list of action objects")
    error = None
    applied = 0
    for index, raw in enumerate(actions):
        if not isinstance(raw, Mapping):
            raise InputProblem(f"actions[{index}] must be an object with a 'kind'")
        before = hash_of(game, table.state)
        try:
            _apply(table, raw)
            _settle(table)
        except EngineError as exc:
            assert hash_of(game, table.state) == before
            error = {"index": index, "class": type(exc).__name__, "rule": getattr(exc, "rule", None),
                     "message": str(exc)}
            break
        applied += 1
    outcome = game.outcome(table.state)
    pending = game.pending(table.state)
    result: dict[str, Any] = {
        "ok": error is None, "applied": applied, "error": error, "state": game.public(table.state),
        "pending": pending.__canonical__() if pending is not None else None,
        "outcome": outcome.__canonical__() if outcome else None, "hash": hash_of(game, table.state).hex(),
        "log": [list(e) for e in table.state.events],
    }
    if "expect" in data:
        result["expect_problems"] = check_locke(data["expect"], result, table)
    return result


def check_locke(expect: Any, result: dict[str, Any], table: LocalTable) -> list[str]:
    """Compare a Locke result with ``expect``: error, ending, phase, winners, pending prompt, seats."""
    if not isinstance(expect, Mapping):
        return ["'expect' must be an object"]
    problems: list[str] = []
    s = table.state
    if "error" in expect:
        want, got = expect["error"], result["error"]
        if want is None and got is not None:
            problems.append(f"expected no error, got {got['class']} [{got['rule']}]: {got['message']}")
        elif want is not None:
            if got is None:
                problems.append(f"expected error {want}, but every action was accepted")
            else:
                problems += [f"expected error {k} {want[k]!r}, got {got[k]!r}" for k in ("class", "rule", "index")
                             if k in want and want[k] != got[k]]
    if "ending" in expect and expect["ending"] != (s.ending or None):
        problems.append(f"expected ending {expect['ending']!r}, got {s.ending or None!r}")
    if "phase" in expect and expect["phase"] != s.phase:
        problems.append(f"expected phase {expect['phase']!r}, got {s.phase!r}")
    if "winners" in expect:
        outcome = table.outcome()
        got_winners = list(outcome.winners) if outcome else None
        if expect["winners"] != got_winners:
            problems.append(f"expected winners {expect['winners']!r}, got {got_winners!r}")
    if "pending" in expect:
        pending = result["pending"]
        got_prompt = pending.get("prompt") if pending else None
        if expect["pending"] != got_prompt:
            problems.append(f"expected to wait for {expect['pending']!r}, got {pending!r}")
    for seat_key, fields in (expect.get("seats") or {}).items():
        seat = s.seats[int(seat_key)]
        for name, want in fields.items():
            got = getattr(seat, name, None)
            if isinstance(got, tuple):
                got = list(got)
            if got != want:
                problems.append(f"expected seat {seat_key} {name} {want!r}, got {got!r}")
    for key, want in (expect.get("cells") or {}).items():
        cell = dict(s.cells).get(key)
        got = None if cell is None else (cell.face_up if cell.handle is None else "face-down")
        if got != want:
            problems.append(f"expected cell {key} {want!r}, got {got!r}")
    return problems

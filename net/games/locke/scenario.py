"""Locke's scenario files (``fairtable.locke.scenario/1``, docs/scenarios.md) for ``python -m tools.scenario``.

A Locke position is built from the file (engine/locke/position.py) on a
trusted local table; the file gives decisions, dice, sealed choices and
placements itself, so a scenario fixes every roll, and the result carries
the public event log.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.core import SYSTEM, Decision, EngineError
from engine.core.pending import Chance, Placement, SealedChoice
from engine.locke.game import LockeGame
from engine.locke.position import position_state
from net.problems import InputProblem
from net.games.locke import components
from net.local_table import LocalTable
from net.scenario import ScenarioKind
from net.seam import InputRefused, place_all
from net.seats import seat_label

def _build(data: Mapping[str, Any], base: Path, seed: int) -> LocalTable:
    game = LockeGame(components())
    try:
        state, knowledge, truth = position_state(game, data.get("position"))
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise InputProblem(f"the position is not valid: {exc}") from None
    return LocalTable(game, state, knowledge, [None] * len(knowledge), seed, truth=truth)


def _table_answers(pending: Any) -> bool:
    """Locke scenarios give decisions, dice, sealed choices and placements themselves."""
    if isinstance(pending, (Decision, Chance, SealedChoice)):
        return False
    return not (isinstance(pending, Placement) and pending.op == "place")


def _submit(table: LocalTable, raw: Mapping[str, Any]) -> None:
    data = dict(raw)
    pending = table.pending
    if data.get("kind") == "placement":
        cells = data.get("cells")
        if not isinstance(cells, Mapping):
            raise InputProblem("a placement input needs 'cells': {cell: thing}")
        try:
            place_all(table, int(data.get("seat", -1)), dict(cells))
        except InputRefused as exc:
            raise InputProblem(f"placement: {exc}") from None
        return
    if data.get("kind") == "dice_rolled":
        data.setdefault("seat", SYSTEM)
        if isinstance(pending, Chance):
            data.setdefault("purpose", pending.purpose)
    table.feed(table.game.codec.decode(data))


def _check(expect: Mapping[str, Any], result: dict[str, Any], table: LocalTable) -> list[str]:
    """Ending, phase, winners, the pending prompt, seat fields and cells."""
    problems: list[str] = []
    s = table.state
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
                problems.append(f"expected {seat_label(int(seat_key))} (key {seat_key!r}) {name} {want!r}, got {got!r}")
    for key, want in (expect.get("cells") or {}).items():
        cell = dict(s.cells).get(key)
        got = None if cell is None else (cell.face_up if cell.handle is None else "face-down")
        if got != want:
            problems.append(f"expected cell {key} {want!r}, got {got!r}")
    return problems


KIND = ScenarioKind("fairtable.locke.scenario/1", _build, _table_answers, _submit, _check,
                    extra=lambda table: {"log": [list(e) for e in table.state.events]})

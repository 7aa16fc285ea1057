"""Locke's scenario files (``fairtable.locke.scenario/1``, docs/scenarios.md) for ``python -m tools.scenario``.

A Locke position is built from the file (engine/locke/position.py, plus a
combat already called and stacked decks: net/games/locke/scenario_position.py)
on a trusted local table; the file gives decisions, dice, sealed choices and
placements itself, so a scenario fixes every roll and every card dealt, and
the result carries the public event log. What ``expect`` may check is in
net/games/locke/scenario_expect.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.core import SYSTEM, Decision, EngineError
from engine.core.pending import Chance, Placement, SealedChoice
from engine.locke.combat.actions import Play
from engine.locke.combat.model import Fight
from engine.locke.game import LockeGame
from engine.locke.position import position_state
from net.problems import InputProblem
from net.games.locke import components
from net.games.locke.scenario_expect import CHECKS, plain
from net.games.locke.scenario_position import StackedTable, stack_of, with_combat
from net.local_table import LocalTable
from net.scenario import ScenarioKind
from net.seam import InputRefused, place_all
from net.seats import seat_label

#: The keys ``expect`` may hold (tools/scenario.py checks ``error`` for every game).
EXPECT_KEYS = ("error", "ending", "phase", "winners", "pending", "seats", "cells") + tuple(CHECKS)


def _build(data: Mapping[str, Any], base: Path, seed: int) -> LocalTable:
    game = LockeGame(components())
    position = data.get("position")
    try:
        state, knowledge, truth = position_state(game, position)
        if isinstance(position, Mapping) and "combat" in position:
            state = with_combat(game, state, position["combat"])
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise InputProblem(f"the position is not valid: {exc}") from None
    stack = stack_of(position) if isinstance(position, Mapping) else {}
    return StackedTable(game, state, knowledge, [None] * len(knowledge), seed, truth=truth, stack=stack)


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
        if not isinstance(pending, Chance):  # a file out of step with the game: say where it is
            raise InputProblem(f"dice were given, but the game waits for {_waiting_for(pending)}; "
                               "give that input first (docs/scenarios.md)")
        data.setdefault("seat", SYSTEM)
        data.setdefault("purpose", pending.purpose)
    if data.get("kind") == Play.KIND and "handle" not in data:
        data["handle"] = _hand_handle(table, int(data.get("seat", -1)), str(data.get("card", "")))
    codec = table.game.codec
    table.feed(codec.decode({**codec.defaults(str(data.get("kind"))), **data}))


def _waiting_for(pending: Any) -> str:
    if isinstance(pending, Decision):
        return f"{pending.prompt} from {seat_label(pending.seat)}"
    return "nothing (the game is over)" if pending is None else type(pending).__name__


def _hand_handle(table: LocalTable, seat: int, card: str) -> int:
    """The first handle in ``seat``'s combat hand holding ``card`` (a file may name the card only)."""
    combat = table.state.combat
    fight = combat.detail if combat is not None and isinstance(combat.detail, Fight) else Fight()
    for f in fight.fighters:
        if f.seat == seat:
            for h in f.hand:
                if table.card(h) == card:
                    return h
    raise InputProblem(f"{seat_label(seat)} holds no {card!r} in a combat hand; give 'handle' to play another card")


def _check(expect: Mapping[str, Any], result: dict[str, Any], table: LocalTable) -> list[str]:
    """Ending, phase, winners, the pending prompt, seat fields and cells here; the
    rest in net/games/locke/scenario_expect.py."""
    problems: list[str] = [f"unknown expectation {key!r}; the keys are {', '.join(EXPECT_KEYS)}"
                           for key in expect if key not in EXPECT_KEYS]
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
        got_prompt = (pending.get("prompt") or pending.get("purpose")) if pending else None
        if expect["pending"] != got_prompt:
            problems.append(f"expected to wait for {expect['pending']!r}, got {pending!r}")
    for seat_key, fields in (expect.get("seats") or {}).items():
        seat = s.seats[int(seat_key)]
        for name, want in fields.items():
            if name not in type(seat)._fields:
                problems.append(f"a seat has no field {name!r}; see engine/locke/state.py Seat")
                continue
            got = plain(getattr(seat, name))
            if got != plain(want):
                problems.append(f"expected {seat_label(int(seat_key))} (key {seat_key!r}) {name} {want!r}, got {got!r}")
    for key, want in (expect.get("cells") or {}).items():
        cell = dict(s.cells).get(key)
        got = None if cell is None else (cell.face_up if cell.handle is None else "face-down")
        if got != want:
            problems.append(f"expected cell {key} {want!r}, got {got!r}")
    for key, check in CHECKS.items():
        if key in expect:
            problems.extend(check(expect[key], table))
    return problems


KIND = ScenarioKind("fairtable.locke.scenario/1", _build, _table_answers, _submit, _check,
                    extra=lambda table: {"log": [list(e) for e in table.state.events]})

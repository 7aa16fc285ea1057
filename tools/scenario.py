"""``python -m tools.scenario FILE [--json]``: set up a Rider or Locke position, apply actions.

Prints the resulting public state, or the typed error (class name, rule id,
message) of the first rejected action, and checks the file's optional
``expect`` block. The formats (``fairtable.rider.scenario/1``,
``fairtable.locke.scenario/1``) are documented in docs/scenarios.md.

One loop runs every scenario (:func:`run_scenario`): build the position on a
trusted LocalTable that knows every card (shuffles use the scenario's
``seed``), let the table answer what it may, apply the file's inputs in
order (an input that is refused must leave the state as it was), and
compare the result with ``expect``. What differs per game is one
:class:`Kind`: how its position is built, how far the table goes on its
own, how a raw input is submitted, and what ``expect`` may check. Rider
lets the table answer everything but decisions and sealed choices; Locke
also takes its dice and placements from the file, so a scenario fixes every roll.
Exit status: 0 = ran and every expectation holds, 1 = an expectation failed,
2 = the file could not be used (message on stderr).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.core import SYSTEM, Decision, EngineError, hash_of
from engine.core.pending import Chance, Placement, SealedChoice
from net.local_table import LocalTable
from net.seam import InputRefused, place_all
from net.seats import for_people, seat_label
from tools._cli import InputProblem
from tools.deck import load_cardset

RIDER_FORMAT = "fairtable.rider.scenario/1"
LOCKE_FORMAT = "fairtable.locke.scenario/1"


@dataclasses.dataclass(frozen=True)
class Kind:
    """What one game's scenarios need besides the common loop (see the module docstring)."""

    #: (scenario, folder of the file) -> the table at the position
    build: Callable[[Mapping[str, Any], Path, int], LocalTable]
    #: True while the table may answer the pending input itself
    table_answers: Callable[[Any], bool]
    #: submit one raw input (InputProblem when it cannot be used at all)
    submit: Callable[[LocalTable, Mapping[str, Any]], None]
    #: what differs from ``expect``, beyond the error
    check: Callable[[Mapping[str, Any], dict[str, Any], LocalTable], list[str]]
    #: extra result fields
    extra: Callable[[LocalTable], dict[str, Any]] = lambda table: {}


# --- Rider -----------------------------------------------------------------------------

_HAND_KINDS = ("rider.level_up", "rider.renew", "rider.open", "rider.pass", "rider.discard")


def _rider_build(data: Mapping[str, Any], base: Path, seed: int) -> LocalTable:
    from engine.rider.game import RiderGame
    from engine.rider.position import position_state

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


def _rider_submit(table: LocalTable, raw: Mapping[str, Any]) -> None:
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


def _rider_check(expect: Mapping[str, Any], result: dict[str, Any], table: LocalTable) -> list[str]:
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


# --- Locke -----------------------------------------------------------------------------


def _locke_build(data: Mapping[str, Any], base: Path, seed: int) -> LocalTable:
    from engine.locke.game import LockeGame
    from engine.locke.position import position_state
    from net.games.locke import components

    game = LockeGame(components())
    try:
        state, knowledge, truth = position_state(game, data.get("position"))
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise InputProblem(f"the position is not valid: {exc}") from None
    return LocalTable(game, state, knowledge, [None] * len(knowledge), seed, truth=truth)


def _locke_table_answers(pending: Any) -> bool:
    """Locke scenarios give decisions, dice, sealed choices and placements themselves."""
    if isinstance(pending, (Decision, Chance, SealedChoice)):
        return False
    return not (isinstance(pending, Placement) and pending.op == "place")


def _locke_submit(table: LocalTable, raw: Mapping[str, Any]) -> None:
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


def _locke_check(expect: Mapping[str, Any], result: dict[str, Any], table: LocalTable) -> list[str]:
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


KINDS: dict[str, Kind] = {
    RIDER_FORMAT: Kind(_rider_build, lambda pending: not isinstance(pending, Decision), _rider_submit, _rider_check),
    LOCKE_FORMAT: Kind(_locke_build, _locke_table_answers, _locke_submit, _locke_check,
                       extra=lambda table: {"log": [list(e) for e in table.state.events]}),
}


# --- the one loop ----------------------------------------------------------------------


def _settle(table: LocalTable, kind: Kind) -> None:
    """Let the table answer what it may (hidden cards, and dice for Rider) until the file must speak."""
    while table.pending is not None and kind.table_answers(table.pending):
        if table.step() is None:
            return


def run_scenario(data: Any, base: Path) -> dict[str, Any]:
    """Run a parsed scenario; ``base`` resolves a relative card-set path."""
    kind = KINDS.get(str(data.get("format"))) if isinstance(data, Mapping) else None
    if kind is None:
        raise InputProblem(f"not a scenario: the 'format' field must be one of {sorted(KINDS)}")
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise InputProblem("'seed' must be an integer")
    table = kind.build(data, base, seed)
    game = table.game
    _settle(table, kind)
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
            kind.submit(table, raw)
            _settle(table, kind)
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
        **kind.extra(table),
    }
    if "expect" in data:
        expect = data["expect"]
        result["expect_problems"] = (["'expect' must be an object"] if not isinstance(expect, Mapping)
                                     else _error_problems(expect, result) + kind.check(expect, result, table))
    return result


def _error_problems(expect: Mapping[str, Any], result: dict[str, Any]) -> list[str]:
    """The ``error`` expectation, the same for every game."""
    if "error" not in expect:
        return []
    want, got = expect["error"], result["error"]
    if want is None:
        return [] if got is None else [f"expected no error, got {got['class']} [{got['rule']}]: {got['message']}"]
    if got is None:
        return [f"expected error {want}, but every action was accepted"]
    return [f"expected error {k} {want[k]!r}, got {got[k]!r}" for k in ("class", "rule", "index")
            if k in want and want[k] != got[k]]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.scenario",
                                     description="Apply actions to a Rider or Locke position.")
    parser.add_argument("file", help="scenario JSON file (see docs/scenarios.md)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    path = Path(args.file)
    try:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputProblem(f"scenario file {path} does not exist; check the path") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputProblem(f"cannot read scenario {path} ({exc}); see docs/scenarios.md for the format") from None
        result = run_scenario(data, path.parent)
    except InputProblem as exc:
        print(f"error: {for_people(str(exc))}", file=sys.stderr)
        return 2
    problems = result.get("expect_problems", [])
    if args.json:
        print(json.dumps(result, sort_keys=True, ensure_ascii=False))
    else:
        if result["error"]:
            e = result["error"]
            print(f"action {e['index']} rejected: {e['class']} [{e['rule']}]: {for_people(str(e['message']))}")
        print(f"applied {result['applied']} actions; outcome: {for_people(str(result['outcome']))}; "
              f"pending: {for_people(str(result['pending']))}")
        for p in problems:
            print(f"EXPECTATION FAILED: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

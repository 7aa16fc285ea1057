"""``python -m tools.scenario FILE [--json]``: set up a game position from a file, apply actions.

Prints the resulting public state, or the typed error (class name, rule id,
message) of the first rejected action, and checks the file's optional
``expect`` block. Each game's format is documented in docs/scenarios.md and
lives in the game's own package, named by its registry entry
(``GameEntry.scenario``, a net/scenario.py ``ScenarioKind``).

One loop runs every scenario (:func:`run_scenario`): build the position on a
trusted LocalTable that knows every card (shuffles use the scenario's
``seed``), let the table answer what it may, apply the file's inputs in
order (an input that is refused must leave the state as it was), and
compare the result with ``expect``. What differs per game is its
ScenarioKind: how its position is built, how far the table goes on its
own, how a raw input is given, and what ``expect`` may check.
Exit status: 0 = ran and every expectation holds, 1 = an expectation failed,
2 = the file could not be used (message on stderr).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.core import EngineError, hash_of
from net.problems import InputProblem
from net.games import games
from net.local_table import LocalTable
from net.scenario import ScenarioKind, json_value
from net.seats import for_people

#: An entry of ``actions`` that checks expectations at that point instead of giving an input
#: (docs/scenarios.md): every key but ``kind`` is one ``expect`` may hold, except ``error``.
CHECKPOINT = "expect"


def kinds() -> dict[str, ScenarioKind]:
    """Every registered game's scenario format, by the file's ``format`` field."""
    found: dict[str, ScenarioKind] = {}
    for entry in games():
        if entry.scenario is not None:
            kind = importlib.import_module(entry.scenario).KIND
            found[kind.format] = kind
    return found


# --- the one loop ----------------------------------------------------------------------


def _settle(table: LocalTable, kind: ScenarioKind) -> None:
    """Let the table answer what it may (hidden cards, and dice for Rider) until the file must speak."""
    while table.pending is not None and kind.table_answers(table.pending):
        if table.step() is None:
            return


def run_scenario(data: Any, base: Path) -> dict[str, Any]:
    """Run a parsed scenario; ``base`` resolves a relative card-set path."""
    known = kinds()
    kind = known.get(str(data.get("format"))) if isinstance(data, Mapping) else None
    if kind is None:
        raise InputProblem(f"not a scenario: the 'format' field must be one of {sorted(known)}")
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
    checkpoints: list[str] = []
    for index, raw in enumerate(actions):
        if not isinstance(raw, Mapping):
            raise InputProblem(f"actions[{index}] must be an object with a 'kind'")
        if raw.get("kind") == CHECKPOINT:
            now = {"pending": _pending_data(game, table)}
            checks = {k: v for k, v in raw.items() if k != "kind"}
            if "error" in checks:
                raise InputProblem(f"actions[{index}]: a checkpoint cannot expect an error; "
                                   "an input the rules refuse ends the scenario, so say it in 'expect'")
            checkpoints.extend(f"at actions[{index}] (a checkpoint): {p}" for p in kind.check(checks, now, table))
            continue
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
    result: dict[str, Any] = {
        "ok": error is None, "applied": applied, "error": error, "state": game.public(table.state),
        "pending": _pending_data(game, table),
        "outcome": outcome.__canonical__() if outcome else None, "hash": hash_of(game, table.state).hex(),
        **kind.extra(table),
    }
    if "expect" in data or checkpoints:
        expect = data.get("expect", {})
        result["expect_problems"] = checkpoints + (
            ["'expect' must be an object"] if not isinstance(expect, Mapping)
            else _error_problems(expect, result) + kind.check(expect, result, table))
    return result


def _pending_data(game: Any, table: LocalTable) -> Any:
    pending = game.pending(table.state)
    return pending.__canonical__() if pending is not None else None


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
                                     description="Apply actions to a game position from a scenario file.")
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
        print(json.dumps(result, sort_keys=True, ensure_ascii=False, default=json_value))
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

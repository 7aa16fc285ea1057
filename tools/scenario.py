"""``python -m tools.scenario FILE [--json]``: set up a Rider or Locke position, apply actions.

Prints the resulting public state, or the typed error (class name, rule id,
message) of the first rejected action, and checks the file's optional
``expect`` block. The format is documented in docs/scenarios.md.

Hidden-card requests (draws, shuffles, reveals) are answered by a trusted
LocalTable that knows every card of the position; shuffles use the
scenario's ``seed``. Sealed choices and decisions come from the file.
Exit status: 0 = ran and every expectation holds, 1 = an expectation failed,
2 = the file could not be used (message on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.core import Decision, EngineError, hash_of
from engine.rider.game import RiderGame
from engine.rider.position import position_state
from net.local_table import LocalTable
from tools.deck import InputProblem, load_cardset

SCENARIO_FORMAT = "fairtable.rider.scenario/1"
_HAND_KINDS = ("rider.level_up", "rider.renew", "rider.open", "rider.pass", "rider.discard")


def _fill_handle(table: LocalTable, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Hand-card actions may name only the card; use the first hand handle holding it."""
    data = dict(raw)
    if data.get("kind") in _HAND_KINDS and "handle" not in data:
        seat, card = data.get("seat"), data.get("card")
        handle: int | None = -1
        if card is None:
            handle = None
        elif seat in (0, 1):
            for h in table.state.players[seat].hand:
                if table.card(h) == card:
                    handle = h
                    break
        data["handle"] = handle
    if data.get("kind") == "rider.level_up" and "targets" not in data:
        data["targets"] = []
    return data


def _settle(table: LocalTable) -> None:
    """Answer hidden-card requests and dice until a decision or sealed choice is due."""
    while table.pending is not None and not isinstance(table.pending, Decision):
        if table.step() is None:
            return


def run_scenario(data: Any, base: Path) -> dict[str, Any]:
    """Run a parsed scenario; ``base`` resolves a relative card-set path."""
    from tools.locke_scenario import SCENARIO_FORMAT as LOCKE_FORMAT
    from tools.locke_scenario import run_locke

    if isinstance(data, Mapping) and data.get("format") == LOCKE_FORMAT:
        return run_locke(data)
    if not isinstance(data, Mapping) or data.get("format") != SCENARIO_FORMAT:
        raise InputProblem(f"not a scenario: the 'format' field must be {SCENARIO_FORMAT!r} or {LOCKE_FORMAT!r}")
    cardset_file = data.get("cardset")
    if cardset_file is not None and not isinstance(cardset_file, str):
        raise InputProblem("'cardset' must be a file path (relative to the scenario) or null for the shipped set")
    cardset = load_cardset(str(base / cardset_file) if cardset_file else None)
    game = RiderGame(cardset)
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise InputProblem("'seed' must be an integer")
    try:
        state, knowledge, truth = position_state(game, data.get("position"))
    except EngineError as exc:
        problems = getattr(exc, "problems", [str(exc)])
        raise InputProblem("the position is not valid:\n  " + "\n  ".join(problems)) from None
    table = LocalTable(game, state, knowledge, [None, None], seed, truth=truth)
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
            action = game.codec.decode(_fill_handle(table, raw))
            table.submit(action)
            _settle(table)
        except EngineError as exc:
            assert hash_of(game, table.state) == before
            error = {"index": index, "class": type(exc).__name__, "rule": getattr(exc, "rule", None), "message": str(exc)}
            break
        applied += 1
    outcome = game.outcome(table.state)
    pending = game.pending(table.state)
    result: dict[str, Any] = {
        "ok": error is None, "applied": applied, "error": error,
        "state": game.public(table.state),
        "pending": pending.__canonical__() if pending is not None else None,
        "outcome": outcome.__canonical__() if outcome else None,
        "hash": hash_of(game, table.state).hex(),
    }
    if "expect" in data:
        result["expect_problems"] = check_expectations(data["expect"], result)
    return result


def check_expectations(expect: Any, result: dict[str, Any]) -> list[str]:
    """Compare a result with the scenario's ``expect`` block; return what differs."""
    if not isinstance(expect, Mapping):
        return ["'expect' must be an object"]
    problems: list[str] = []
    state = result["state"]
    if "error" in expect:
        want, got = expect["error"], result["error"]
        if want is None and got is not None:
            problems.append(f"expected no error, got {got['class']} [{got['rule']}]: {got['message']}")
        elif want is not None:
            if got is None:
                problems.append(f"expected error {want}, but every action was accepted")
            else:
                for key in ("class", "rule", "index"):
                    if key in want and want[key] != got[key]:
                        problems.append(f"expected error {key} {want[key]!r}, got {got[key]!r}")
    if "winner" in expect:
        got_winner = result["outcome"]["winner"] if result["outcome"] else "unfinished"
        if expect["winner"] != got_winner:
            problems.append(f"expected winner {expect['winner']!r}, got {got_winner!r}")
    for key, field in (("lost", "lost"), ("discard", "discard")):
        if key in expect:
            got_piles = [p[field] for p in state["players"]]
            if expect[key] != got_piles:
                problems.append(f"expected {key} piles {expect[key]}, got {got_piles}")
    if "hand_sizes" in expect:
        sizes = [len(p["hand"]) for p in state["players"]]
        if expect["hand_sizes"] != sizes:
            problems.append(f"expected hand sizes {expect['hand_sizes']}, got {sizes}")
    if "active" in expect and expect["active"] != state["active"]:
        problems.append(f"expected seat {expect['active']} to be active, got {state['active']}")
    for seat_key, columns in (expect.get("columns") or {}).items():
        for letter, cards in columns.items():
            got_col = state["players"][int(seat_key)]["columns"]["ABC".index(letter)]
            if got_col["cards"] != cards:
                problems.append(f"expected seat {seat_key} column {letter} {cards}, got {got_col['cards']}")
    return problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.scenario", description="Apply actions to a Rider position.")
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
        print(f"error: {exc}", file=sys.stderr)
        return 2
    problems = result.get("expect_problems", [])
    if args.json:
        print(json.dumps(result, sort_keys=True, ensure_ascii=False))
    else:
        if result["error"]:
            e = result["error"]
            print(f"action {e['index']} rejected: {e['class']} [{e['rule']}]: {e['message']}")
        print(f"applied {result['applied']} actions; outcome: {result['outcome']}; pending: {result['pending']}")
        for p in problems:
            print(f"EXPECTATION FAILED: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

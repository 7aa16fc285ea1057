"""``python -m tools.match``: play a whole game between bots, log it, replay a log.

    python -m tools.match rider --bots greedy,random --seed 7 --json
                          [--log FILE] [--deck0 FILE --deck1 FILE] [--cardset FILE]
    python -m tools.match locke --seats 7 --bots random --seed 3 --json [--log FILE]
    python -m tools.match tiny --seats 3 --net tcp --save FILE
    python -m tools.match --replay FILE [--json]
    python -m tools.match rider --net tcp --bots greedy,random --seed 7 --json --save FILE

A match runs on the trusted LocalTable (net/local_table.py): one seeded RNG
answers shuffles and deals, so the same seed gives the same game and the same
final state hash in every process. ``--log`` writes every applied input with
the state hash after it; ``--replay`` re-applies the log from the recorded
decks and checks every hash (exit status 1 at the first difference).

Games come from the game registry (net/games/: every registered game can be
played here, its bots, seat range and set-up included); :func:`build_parser` is the one place arguments are
declared, and :func:`play` takes the parsed arguments; ``--net tcp`` runs
every seat as its own process over 127.0.0.1 (tools/match_tcp.py) and adds
``wall_s``, ``cpu_s``, ``messages``, ``bytes`` and ``audit`` to the result.
Exit status: 0 = done, 1 = replay mismatch, 2 = bad input (message on stderr).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core import Outcome, hash_of
from engine.core.actions import Action
from engine.core.errors import EngineError
from net.bots.base import Agent
from net.games import GameEntry, LocalSetup, game_named, games
from net.local_table import LocalTable
from tools._cli import run as run_cli
from tools.deck import InputProblem, deck_cards, load_cardset

LOG_FORMAT = "fairtable.match-log/1"


# --- games (all from the registry, net/games/) ------------------------------------------


def entry_named(name: str) -> GameEntry:
    try:
        return game_named(name)
    except ValueError as exc:
        raise InputProblem(str(exc)) from None


def _components(entry: GameEntry, components_file: str | None) -> object:
    """A card set from ``--cardset FILE`` (games with decks), else None for the shipped one."""
    if components_file is None:
        return None
    if not entry.needs_deck:
        raise InputProblem(f"--cardset is for games with decks; {entry.title} has none")
    return load_cardset(components_file)


def _local(entry: GameEntry, record: dict[str, Any], components: object) -> LocalSetup:
    try:
        return entry.local(record, components)
    except ValueError as exc:
        raise InputProblem(str(exc)) from None


def local_setup(entry: GameEntry, seats: int, deck_files: Sequence[str | None] = (),
                components_file: str | None = None) -> LocalSetup:
    """A fresh local game of ``entry`` for ``seats`` players (deck files for games with decks;
    a seat without one plays its shipped deck)."""
    try:
        entry.check_seats(seats)
    except ValueError as exc:
        raise InputProblem(f"{exc}; pass --seats N") from None
    decks: list[tuple[str, ...]] | None = None
    if entry.needs_deck and any(f is not None for f in deck_files):
        assert entry.shipped_deck is not None
        decks = [entry.shipped_deck(seat) if seat >= len(deck_files) or deck_files[seat] is None
                 else deck_cards(str(deck_files[seat]), components_file, check=False) for seat in range(seats)]
    components = _components(entry, components_file)
    record = entry.local_record(seats, decks, components)
    if entry.needs_deck:
        record["cardset_file"] = components_file
    return _local(entry, record, components)


def setup_from_record(entry: GameEntry, record: dict[str, Any]) -> LocalSetup:
    """Rebuild a local game from the record of a match log."""
    file = record.get("cardset_file")
    return _local(entry, record, _components(entry, file if isinstance(file, str) else None))


# --- JSON-friendly canonical data ---------------------------------------------------


def to_json(value: Any) -> Any:
    """Canonical data -> JSON: bytes become {"hex": ...}, tuples lists."""
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value


def from_json(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"hex"} and isinstance(value["hex"], str):
            return bytes.fromhex(value["hex"])
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


# --- playing ------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.match", description="Play, log and replay bot games.")
    names = [e.name for e in games()]
    parser.add_argument("game", nargs="?", choices=names, help="the game to play")
    parser.add_argument("--bots", default=None,
                        help="one bot per seat, comma-separated, or one name for every seat: " + "; ".join(
                            f"{e.name}: {', '.join(sorted(e.bots))}" for e in games())
                        + " (default: " + "; ".join(f"{e.name}: {','.join(e.default_bots)}" for e in games()) + ")")
    parser.add_argument("--seed", type=int, default=0, help="seed of the table and the bots (same seed, same game)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--log", metavar="FILE", help="write the full action log with state hashes to FILE")
    parser.add_argument("--replay", metavar="FILE", help="replay a log written by --log and check every hash")
    parser.add_argument("--max-steps", type=int, default=200_000, help="give up after this many inputs")
    parser.add_argument("--net", choices=("local", "tcp"), default="local",
                        help="local: one trusted process (default); tcp: one OS process per seat on 127.0.0.1 "
                             "with the full fair-play protocols")
    parser.add_argument("--save", metavar="FILE", help="with --net tcp: write the signed transcript to FILE")
    parser.add_argument("--net-timeout", type=float, default=120.0, metavar="S",
                        help="with --net tcp: give up after S seconds")
    parser.add_argument("--seats", type=int, default=None,
                        help="number of players (default: " + "; ".join(
                            f"{e.name} {e.default_seats}" for e in games()) + ")")
    decks = parser.add_argument_group("games with decks")
    decks.add_argument("--cardset", metavar="FILE", help="card set JSON (default: the shipped set)")
    decks.add_argument("--deck0", metavar="FILE", help="deck file of seat 0 (default: the shipped one)")
    decks.add_argument("--deck1", metavar="FILE", help="deck file of seat 1 (default: the shipped one)")
    return parser


def bot_names(entry: GameEntry, names: str | None, seats: int) -> list[str]:
    """One bot name per seat from ``--bots``, checked against the game; at a table of more than two,
    a single name serves every seat."""
    parts = [n.strip() for n in (names or ",".join(entry.default_bots)).split(",")]
    if len(parts) == 1 and seats > 2:
        parts = parts * seats
    if len(parts) != seats or any(p not in entry.bots for p in parts):
        example = ",".join((list(entry.default_bots) * seats)[:seats])
        raise InputProblem(f"--bots needs {seats} of {sorted(entry.bots)} separated by commas"
                           f"{' (or one name for every seat)' if seats > 2 else ''}, e.g. {example} (got {names!r})")
    return parts


def make_agents(entry: GameEntry, names: str | None, seed: int, seats: int) -> list[Agent]:
    """One agent per seat, seeded from ``seed`` and the seat."""
    # String seeds hash with SHA-512 inside random: the same in every process.
    return [entry.bot(name, random.Random(f"{seed}/bot/{seat}"))
            for seat, name in enumerate(bot_names(entry, names, seats))]


def play(args: argparse.Namespace) -> dict[str, Any]:
    """Play one local game from parsed arguments; return the result (and write the log)."""
    if args.game is None:
        raise InputProblem("name the game to play (e.g. `python -m tools.match rider`), or pass --replay FILE")
    entry = entry_named(args.game)
    seats = args.seats if args.seats is not None else entry.default_seats
    bots = bot_names(entry, args.bots, seats)
    if args.net == "tcp":
        from tools.match_tcp import play_tcp

        if not entry.networked:
            raise InputProblem(f"{entry.title} plays only on a local table for now (--net local); its networked "
                               "table is future work")
        return play_tcp(args, entry, seats, bots)
    if args.save:
        raise InputProblem("--save needs --net tcp (a local match has no signed transcript; use --log FILE)")
    setup = local_setup(entry, seats, (args.deck0, args.deck1), args.cardset)
    agents = make_agents(entry, ",".join(bots), args.seed, len(setup.knowledge))
    table = LocalTable(setup.game, setup.state, setup.knowledge, agents, args.seed, record_hashes=bool(args.log))
    for _ in range(args.max_steps):  # like table.run, but reaching --max-steps reports "unfinished"
        if table.pending is None or table.step() is None:
            break
    outcome = table.outcome()
    final = hash_of(setup.game, table.state)
    result = {
        "game": args.game, "seed": args.seed, "bots": bots,
        **outcome_fields(outcome),
        "turns": getattr(table.state, "turn", None), "actions": len(table.log), "final_hash": final.hex(),
    }
    if outcome is not None and outcome.seats:
        result["grades"] = [r.grade for r in outcome.seats]
        result["ending"] = getattr(table.state, "ending", None)
    if args.log:
        write_log(Path(args.log), args.game, setup, table, result)
    return result


def outcome_fields(outcome: Outcome | None) -> dict[str, Any]:
    """The result keys of an outcome: winner, winners and reason; seats when the game judges every seat."""
    if outcome is None:
        return {"winner": None, "winners": [], "reason": "unfinished"}
    fields: dict[str, Any] = {"winner": outcome.winner, "winners": list(outcome.winners), "reason": outcome.reason}
    if outcome.seats:
        fields["seats"] = [r.__canonical__() for r in outcome.seats]
    return fields


def who_won(result: Mapping[str, Any]) -> str:
    """"seat 1 wins", "a draw", "seats 0, 2 win" or "nobody wins" for the text summary."""
    winners = result.get("winners") or ([] if result.get("winner") is None else [result["winner"]])
    if len(winners) == 1:
        return f"seat {winners[0]} wins"
    if winners:
        return f"seats {', '.join(map(str, winners))} win"
    return "nobody wins" if result.get("seats") else "a draw"


def write_log(path: Path, game_name: str, setup: LocalSetup, table: LocalTable, result: dict[str, Any]) -> None:
    data = {
        "format": LOG_FORMAT, "game": game_name, "rules": setup.game.rules_id, "setup": setup.record,
        "seed": result["seed"], "bots": result["bots"], "initial_hash": table.initial_hash.hex(),
        "steps": [{"action": to_json(a.to_data()), "hash": h.hex()} for a, h in zip(table.log, table.hashes)],
        "outcome": {k: result[k] for k in ("winner", "reason", "seats") if k in result},
        "final_hash": result["final_hash"],
    }
    try:
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputProblem(f"cannot write the log to {path} ({exc}); choose a writable path") from None


# --- replay -------------------------------------------------------------------------


def replay(data: Any) -> dict[str, Any]:
    """Re-apply a match log; report the first step whose state hash differs, if any."""
    if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
        raise InputProblem(f"not a match log (format must be {LOG_FORMAT!r})")
    game_name = data.get("game")
    if not isinstance(game_name, str) or not isinstance(data.get("setup"), dict):
        raise InputProblem("the log names no game and set-up; pass a file written by --log")
    setup = setup_from_record(entry_named(game_name), data["setup"])
    game, state = setup.game, setup.state
    result: dict[str, Any] = {"ok": True, "steps": 0, "first_mismatch": None, "error": None}
    if hash_of(game, state).hex() != data.get("initial_hash"):
        return {**result, "ok": False, "first_mismatch": 0, "error": "the initial state differs"}
    for index, step in enumerate(data.get("steps", []), start=1):
        try:
            action: Action = game.codec.decode(from_json(step["action"]))
            state = game.apply(state, action)
        except (EngineError, KeyError, TypeError) as exc:
            return {**result, "ok": False, "steps": index - 1, "first_mismatch": index,
                    "error": f"step {index} was rejected: {type(exc).__name__}: {exc}"}
        if hash_of(game, state).hex() != step.get("hash"):
            return {**result, "ok": False, "steps": index, "first_mismatch": index,
                    "error": f"the state hash after step {index} differs from the log"}
        result["steps"] = index
    outcome = game.outcome(state)
    result["final_hash"] = hash_of(game, state).hex()
    result.update(outcome_fields(outcome))
    if result["final_hash"] != data.get("final_hash"):
        result.update(ok=False, error="the final hash differs from the log")
    return result


def _read_log(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputProblem(f"log file {path} does not exist; check the path") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputProblem(f"cannot read log file {path} ({exc}); pass a file written by --log") from None


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        if args.replay:
            result = replay(_read_log(args.replay))
        else:
            result = play(args)
    except InputProblem as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, sort_keys=True))
    elif args.replay:
        verdict = "every state hash matches" if result["ok"] else f"MISMATCH: {result['error']}"
        print(f"replayed {result['steps']} steps: {verdict}")
    else:
        who = who_won(result)
        if result["reason"] == "unfinished":
            who = f"no end within --max-steps {args.max_steps}"
        print(f"{who} after {result['turns']} turns, {result['actions']} inputs ({result['reason']})")
        print(f"final state hash {result['final_hash']}")
        if "audit" in result:
            print(f"over TCP: {result['wall_s']} s wall, {result['cpu_s']} s CPU, {result['messages']} messages, "
                  f"{result['bytes']} bytes; audit {result['audit']}")
    return 0 if result.get("ok", True) else 1


if __name__ == "__main__":
    run_cli(main)

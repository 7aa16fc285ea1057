"""``python -m tools.match``: play a whole game between bots, log it, replay a log.

    python -m tools.match rider --bots greedy,random --seed 7 --json
                          [--log FILE] [--deck0 FILE --deck1 FILE] [--cardset FILE]
    python -m tools.match locke --seats 7 --bots random --seed 3 --json [--log FILE]
    python -m tools.match --replay FILE [--json]
    python -m tools.match rider --net tcp --bots greedy,random --seed 7 --json --save FILE

A match runs on the trusted LocalTable (net/local_table.py): one seeded RNG
answers shuffles and deals, so the same seed gives the same game and the same
final state hash in every process. ``--log`` writes every applied input with
the state hash after it; ``--replay`` re-applies the log from the recorded
decks and checks every hash (exit status 1 at the first difference).

Extending: games register in :data:`GAMES` (how to build the game and its
decks from arguments); :func:`build_parser` is the one place arguments are
declared, and :func:`play` takes the parsed arguments; ``--net tcp`` runs
every seat as its own process over 127.0.0.1 (tools/match_tcp.py) and adds
``wall_s``, ``cpu_s``, ``messages``, ``bytes`` and ``audit`` to the result.
Exit status: 0 = done, 1 = replay mismatch, 2 = bad input (message on stderr).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core import Knowledge, Outcome, hash_of
from engine.core.actions import Action
from engine.core.errors import EngineError
from engine.locke.components import ComponentSet, component_set_from_data
from engine.locke.game import LockeGame
from engine.rider.cards import CardSet
from engine.rider.deck import expand
from engine.rider.game import RiderGame
from net.bots import GreedyBot, RandomBot
from net.bots.base import Agent
from net.bots.locke_random import LockeRandomBot
from net.local_table import LocalTable
from tools._cli import run as run_cli
from tools.deck import InputProblem, load_cardset, load_deck

LOG_FORMAT = "fairtable.match-log/1"
DEFAULT_DECKS = ("rider/decks/ember-rush.deck.json", "rider/decks/tidewall-vigil.deck.json")
BOTS: dict[str, Callable[[random.Random], Agent]] = {"random": RandomBot, "greedy": GreedyBot}
#: Bots per game where a game has its own (Locke's random bot reads its shadow die).
GAME_BOTS: dict[str, dict[str, Callable[[random.Random], Agent]]] = {"locke": {"random": LockeRandomBot}}
LOCKE_FILES = ("characters", "silhouettes", "combat_cards", "planets", "bases")


# --- games ---------------------------------------------------------------------------


@dataclasses.dataclass
class Setup:
    """A game ready to play: the reducer, its first state, and what to log to rebuild it."""

    game: Any
    state: Any
    knowledge: tuple[Knowledge, ...]
    record: dict[str, Any]  # enough to rebuild ``state`` in :func:`replay`


def _rider_from_record(record: dict[str, Any]) -> Setup:
    cardset = load_cardset(record.get("cardset_file"))
    if cardset.digest().hex() != record.get("cardset_digest"):
        raise InputProblem("the card set differs from the one the log was made with; pass the same card set file")
    game = RiderGame(cardset)
    decks = [tuple(d) for d in record["decks"]]
    try:
        state, knowledge = game.new_game(decks)
    except EngineError as exc:
        raise InputProblem(f"the decks are not playable: {exc}; check each deck with python -m tools.deck check FILE") from None
    return Setup(game, state, knowledge, record)


def rider_setup(cardset_file: str | None, deck_files: Sequence[str | None]) -> Setup:
    """The Rider game with two decks (shipped ones by default)."""
    import assets

    decks: list[tuple[str, ...]] = []
    cardset: CardSet | None = None
    for seat, file in enumerate(deck_files):
        path = file if file is not None else str(assets.path(DEFAULT_DECKS[seat]))
        _, cardset, counts = load_deck(path, cardset_file)
        decks.append(expand(counts))
    assert cardset is not None
    record = {
        "cardset_file": cardset_file, "cardset_id": cardset.id, "cardset_digest": cardset.digest().hex(),
        "decks": [list(d) for d in decks],
    }
    return _rider_from_record(record)


def _rider_from_args(args: argparse.Namespace) -> Setup:
    return rider_setup(args.cardset, (args.deck0, args.deck1))


@functools.cache
def locke_components() -> ComponentSet:
    """The shipped Locke components (assets/locke/*.json), checked against appendix C."""
    import assets

    return component_set_from_data(**{name: assets.load_json(f"locke/{name}.json") for name in LOCKE_FILES})


def _locke_from_record(record: dict[str, Any]) -> Setup:
    components = locke_components()
    if record.get("components_digest") != components.digest().hex():
        raise InputProblem("the Locke components differ from the ones the log was made with; use the same version")
    seats = record.get("seats")
    if not isinstance(seats, int) or not 5 <= seats <= 10:
        raise InputProblem("Locke is played by 5 to 10 seats; pass --seats N with N in 5..10")
    game = LockeGame(components)
    state, knowledge = game.new_game(seats)
    return Setup(game, state, knowledge, record)


def locke_setup(seats: int) -> Setup:
    """A Locke game for ``seats`` players (5-10) with the shipped components."""
    return _locke_from_record({"seats": seats, "components_digest": locke_components().digest().hex()})


def _locke_from_args(args: argparse.Namespace) -> Setup:
    return locke_setup(args.seats)


#: name -> (build from parsed arguments, rebuild from a log record)
GAMES: dict[str, tuple[Callable[[argparse.Namespace], Setup], Callable[[dict[str, Any]], Setup]]] = {
    "rider": (_rider_from_args, _rider_from_record),
    "locke": (_locke_from_args, _locke_from_record),
}


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
    parser.add_argument("game", nargs="?", choices=sorted(GAMES), help="the game to play")
    parser.add_argument("--bots", default=None,
                        help=f"one bot per seat, comma-separated, or one name for every seat: {', '.join(sorted(BOTS))} "
                             "(default: greedy,random for rider, random for locke)")
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
    parser.add_argument("--seats", type=int, default=5, help="locke: number of players, 5..10 (default 5)")
    rider = parser.add_argument_group("rider")
    rider.add_argument("--cardset", metavar="FILE", help="card set JSON (default: the shipped set)")
    rider.add_argument("--deck0", metavar="FILE", help="deck file of seat 0 (default: Ember Rush)")
    rider.add_argument("--deck1", metavar="FILE", help="deck file of seat 1 (default: Tidewall Vigil)")
    return parser


def make_agents(names: str, seed: int, game: str = "rider", seats: int = 2) -> list[Agent]:
    """One agent per seat; a single name serves every seat of a game of more than two."""
    bots = {**BOTS, **GAME_BOTS.get(game, {})}
    parts = [n.strip() for n in names.split(",")]
    if len(parts) == 1 and seats > 2:
        parts = parts * seats
    if len(parts) != seats or any(p not in bots for p in parts):
        raise InputProblem(f"--bots needs {seats} of {sorted(bots)} separated by commas"
                           f"{' (or one name for every seat)' if seats > 2 else ', e.g. greedy,random'} (got {names!r})")
    # String seeds hash with SHA-512 inside random: the same in every process.
    return [bots[name](random.Random(f"{seed}/bot/{seat}")) for seat, name in enumerate(parts)]


def default_bots(game: str) -> str:
    return "random" if game == "locke" else "greedy,random"


def play(args: argparse.Namespace) -> dict[str, Any]:
    """Play one local game from parsed arguments; return the result (and write the log)."""
    if args.game is None:
        raise InputProblem("name the game to play (e.g. `python -m tools.match rider`), or pass --replay FILE")
    if args.bots is None:
        args.bots = default_bots(args.game)
    if args.net == "tcp":
        from tools.match_tcp import play_tcp

        if args.game == "locke":
            raise InputProblem("Locke plays only on a local table for now (--net local); the networked Locke table "
                               "(audited claims and placements) is future work")

        return play_tcp(args)
    if args.save:
        raise InputProblem("--save needs --net tcp (a local match has no signed transcript; use --log FILE)")
    setup = GAMES[args.game][0](args)
    agents = make_agents(args.bots, args.seed, args.game, len(setup.knowledge))
    table = LocalTable(setup.game, setup.state, setup.knowledge, agents, args.seed, record_hashes=bool(args.log))
    for _ in range(args.max_steps):  # like table.run, but reaching --max-steps reports "unfinished"
        if table.pending is None or table.step() is None:
            break
    outcome = table.outcome()
    final = hash_of(setup.game, table.state)
    result = {
        "game": args.game, "seed": args.seed, "bots": args.bots.split(","),
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


def write_log(path: Path, game_name: str, setup: Setup, table: LocalTable, result: dict[str, Any]) -> None:
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
    if data.get("game") not in GAMES:
        raise InputProblem(f"unknown game {data.get('game')!r} in the log; known: {sorted(GAMES)}")
    setup = GAMES[data["game"]][1](data["setup"])
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

"""``python -m tools.match``: play a whole game between bots and save its record.

    python -m tools.match rider --bots greedy,random --seed 7 --json
                          [--save FILE] [--deck0 FILE --deck1 FILE] [--cardset FILE]
    python -m tools.match locke --seats 7 --bots random --seed 3 --json [--save FILE]
    python -m tools.match locke --seats 7 --bots heuristic,random,heuristic,random,random,random,random \
                          --games 50 --json [--replay]
    python -m tools.match tiny --seats 3 --net tcp --save FILE
    python -m tools.match rider --net tcp --bots greedy,random --seed 7 --json --save FILE

A match runs on the trusted LocalTable (net/local_table.py): one seeded RNG
answers shuffles and deals, so the same seed gives the same game and the same
final state hash in every process. ``--save`` writes the game's record: a
local match's unsigned local transcript (every applied input with the state
hash after it), a ``--net tcp`` match's signed transcript; both formats are
net/transcript.py's, and ``python -m tools.verify FILE`` replays either.

Games come from the game registry (net/games/: every registered game can be
played here, its bots, seat range and set-up included); :func:`build_parser` is the one place arguments are
declared, and :func:`play` takes the parsed arguments; ``--net tcp`` runs
every seat as its own process over 127.0.0.1 (tools/match_tcp.py) and adds
``wall_s``, ``cpu_s``, ``messages``, ``bytes`` and ``audit`` to the result.
``--games G`` plays the seeds ``--seed`` .. ``--seed + G - 1`` and prints one
summary (tools/match_summary.py: endings by kind, wins by bot and by side with 95 %
intervals, grades, game lengths in turns and inputs, CPU seconds per game); the game
entry's independent ``judge`` checks every game, and ``--replay`` replays each game's
inputs through the engine to check its final state hash.
Exit status: 0 = done, 1 = a judge disagreed or a replay differed (with --games),
2 = bad input (message on stderr).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core import Outcome, hash_of
from net.bots.base import Agent
from net.games import GameEntry, LocalSetup, game_named, games
from net.local_table import LocalTable
from net.seats import for_people, seats_label
from net.transcript import make_local_transcript, save
from tools._cli import InputProblem, deck_tool
from tools._cli import run as run_cli
from tools.match_summary import summarise


# --- games (all from the registry, net/games/) ------------------------------------------


def entry_named(name: str) -> GameEntry[Any]:
    try:
        return game_named(name)
    except ValueError as exc:
        raise InputProblem(str(exc)) from None


def _components(entry: GameEntry[Any], components_file: str | None) -> object:
    """A card set from ``--cardset FILE`` (games with decks), else None for the shipped one."""
    if components_file is None:
        return None
    if not entry.needs_deck:
        raise InputProblem(f"--cardset is for games with decks; {entry.title} has none")
    return deck_tool(entry).load_cardset(components_file)


def _local(entry: GameEntry[Any], record: dict[str, Any], components: object) -> LocalSetup[Any]:
    try:
        return entry.local(record, components)
    except ValueError as exc:
        raise InputProblem(str(exc)) from None


def local_setup(entry: GameEntry[Any], seats: int, deck_files: Sequence[str | None] = (),
                components_file: str | None = None) -> LocalSetup[Any]:
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
                 else deck_tool(entry).deck_cards(str(deck_files[seat]), components_file, check=False)
                 for seat in range(seats)]
    components = _components(entry, components_file)
    record = entry.local_record(seats, decks, components)
    if entry.needs_deck:
        record["cardset_file"] = components_file
    return _local(entry, record, components)


# --- playing ------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.match", description="Play, log and replay bot games.")
    names = [e.name for e in games()]
    parser.add_argument("game", nargs="?", choices=names, help="the game to play")
    parser.add_argument("--bots", default=None,
                        help="one bot per seat, comma-separated, or one name for every seat: " + "; ".join(
                            f"{e.name}: {', '.join(_described(e, b) for b in sorted(e.bots))}" for e in games())
                        + " (default: " + "; ".join(f"{e.name}: {','.join(e.default_bots)}" for e in games()) + ")")
    parser.add_argument("--seed", type=int, default=0, help="seed of the table and the bots (same seed, same game)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--max-steps", type=int, default=200_000, help="give up after this many inputs")
    parser.add_argument("--net", choices=("local", "tcp"), default="local",
                        help="local: one trusted process (default); tcp: one OS process per seat on 127.0.0.1 "
                             "with the full fair-play protocols")
    parser.add_argument("--save", metavar="FILE",
                        help="write the game's record to FILE (local: every input with its state hash, unsigned; "
                             "--net tcp: the signed transcript); check it with python -m tools.verify FILE")
    parser.add_argument("--net-timeout", type=float, default=None, metavar="S",
                        help="with --net tcp: give up after S seconds (default: 120, and 180 more for every "
                             "seat beyond two: a game of ten seats takes minutes)")
    parser.add_argument("--games", type=int, default=None, metavar="G",
                        help="play G games (seeds --seed .. --seed+G-1) and print their summary")
    parser.add_argument("--replay", action="store_true",
                        help="with --games: replay every game's inputs through the engine and compare the final hash")
    parser.add_argument("--log", nargs="?", const="en", choices=("en", "ja"), default=None, metavar="LANG",
                        help="tell the game line by line, in English (en, the default) or Japanese (ja), for a "
                             "game whose registry entry names a story module")
    parser.add_argument("--seats", type=int, default=None,
                        help="number of players (default: " + "; ".join(
                            f"{e.name} {e.default_seats}" for e in games()) + ")")
    decks = parser.add_argument_group("games with decks")
    decks.add_argument("--cardset", metavar="FILE", help="card set JSON (default: the shipped set)")
    decks.add_argument("--deck0", metavar="FILE", help="deck file of seat 0 (default: the shipped one)")
    decks.add_argument("--deck1", metavar="FILE", help="deck file of seat 1 (default: the shipped one)")
    return parser


def _described(entry: GameEntry[Any], bot: str) -> str:
    """A bot's name with its English one-line description when the game gives one."""
    about = entry.bot_descriptions.get(bot)
    return f"{bot} ({about[0].rstrip('.')})" if about else bot


def bot_names(entry: GameEntry[Any], names: str | None, seats: int) -> list[str]:
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


def make_agents(entry: GameEntry[Any], names: str | None, seed: int, seats: int) -> list[Agent]:
    """One agent per seat, seeded from ``seed`` and the seat."""
    # String seeds hash with SHA-512 inside random: the same in every process.
    return [entry.bot(name, random.Random(f"{seed}/bot/{seat}"))
            for seat, name in enumerate(bot_names(entry, names, seats))]


def play(args: argparse.Namespace) -> dict[str, Any]:
    """Play one local game from parsed arguments; return the result (and write the log)."""
    if args.game is None:
        raise InputProblem("name the game to play: python -m tools.match GAME, GAME one of "
                           f"{', '.join(e.name for e in games())}")
    entry = entry_named(args.game)
    seats = args.seats if args.seats is not None else entry.default_seats
    bots = bot_names(entry, args.bots, seats)
    if args.net == "tcp":
        from tools.match_tcp import play_tcp

        if not entry.networked:
            raise InputProblem(f"{entry.title} plays only on a local table for now (--net local); its networked "
                               "table is future work")
        return play_tcp(args, entry, seats, bots)
    setup = local_setup(entry, seats, (args.deck0, args.deck1), args.cardset)
    if args.log and entry.story is None:
        raise InputProblem(f"{entry.title} cannot tell its games line by line yet; leave out --log")
    result, table = play_one(entry, setup, bots, args.seed, args.max_steps, record_hashes=bool(args.save))
    result.pop("cpu_s")  # one game's result is the same in every run (a summary of many reports CPU)
    if args.log:
        assert entry.story is not None
        story = importlib.import_module(entry.story)
        names = [f"{name.capitalize()} bot" for name in bots]
        result["story"] = list(story.lines(setup.game, setup.state, table.log, names, args.log))
    if args.save:
        save_local(Path(args.save), entry, setup, table, bots, args.seed, table.outcome())
    return result


def play_one(entry: GameEntry[Any], setup: LocalSetup[Any], bots: Sequence[str], seed: int, max_steps: int, *,
             record_hashes: bool = False, replay: bool = False) -> tuple[dict[str, Any], LocalTable]:
    """Play one local game from ``setup`` with ``bots`` and seed ``seed``; its result and its table.

    The result carries ``cpu_s`` (the process CPU time of the game), ``judge`` (the game's
    independent judge's disagreements, when it has a judge) and with ``replay`` whether the
    inputs replay to the same final state hash (``replayed``)."""
    agents = make_agents(entry, ",".join(bots), seed, len(setup.knowledge))
    table = LocalTable(setup.game, setup.state, setup.knowledge, agents, seed, record_hashes=record_hashes)
    start = time.process_time()
    for _ in range(max_steps):  # like table.run, but reaching max_steps reports "unfinished"
        if table.pending is None or table.step() is None:
            break
    cpu = time.process_time() - start
    outcome = table.outcome()
    final = hash_of(setup.game, table.state)
    result = {
        "game": entry.name, "seed": seed, "bots": list(bots),
        **outcome_fields(outcome),
        "turns": getattr(table.state, "turn", None), "actions": len(table.log), "final_hash": final.hex(),
        "cpu_s": round(cpu, 4),
    }
    if outcome is not None and outcome.seats:
        result["grades"] = [r.grade for r in outcome.seats]
        result["ending"] = getattr(table.state, "ending", None)
        if entry.end_sides is not None:
            result["sides"] = entry.end_sides(setup.game, table.state)
        if entry.judge is not None:
            result["judge"] = entry.judge(setup.game, table.state)
    if replay:
        state = setup.state
        for action in table.log:
            state = setup.game.apply(state, action)
        result["replayed"] = hash_of(setup.game, state) == final
    return result, table


def play_many(args: argparse.Namespace) -> dict[str, Any]:
    """Play ``--games`` local games from ``--seed`` on and return their summary (tools/match_summary.py)."""
    if args.game is None:
        raise InputProblem("name the game to play: python -m tools.match GAME --games G, GAME one of "
                           f"{', '.join(e.name for e in games())}")
    entry = entry_named(args.game)
    if args.net != "local" or args.save:
        raise InputProblem("--games plays local games only and saves none; drop --net and --save")
    if args.games < 1:
        raise InputProblem("--games needs a positive number of games")
    seats = args.seats if args.seats is not None else entry.default_seats
    bots = bot_names(entry, args.bots, seats)
    results = []
    for seed in range(args.seed, args.seed + args.games):
        setup = local_setup(entry, seats, (args.deck0, args.deck1), args.cardset)
        result, _ = play_one(entry, setup, bots, seed, args.max_steps, replay=args.replay)
        results.append(result)
    summary = summarise(results)
    bad = [{"seed": r["seed"], "judge": r.get("judge"), "replayed": r.get("replayed")} for r in results
           if r.get("judge") or r.get("replayed") is False]
    return {"game": entry.name, "seats": seats, "bots": bots, "first_seed": args.seed, **summary, "problems": bad}


def outcome_fields(outcome: Outcome | None) -> dict[str, Any]:
    """The result keys of an outcome: winner, winners and reason; seats when the game judges every seat."""
    if outcome is None:
        return {"winner": None, "winners": [], "reason": "unfinished"}
    fields: dict[str, Any] = {"winner": outcome.winner, "winners": list(outcome.winners), "reason": outcome.reason}
    if outcome.seats:
        fields["seats"] = [r.__canonical__() for r in outcome.seats]
    return fields


def who_won(result: Mapping[str, Any]) -> str:
    """"seat 2 wins", "a draw", "seats 1, 3 win" or "nobody wins" for the text summary (seats
    counted from 1 for people, net.seats; the result's fields count from 0)."""
    winners = result.get("winners") or ([] if result.get("winner") is None else [result["winner"]])
    if len(winners) == 1:
        return f"{seats_label(winners)} wins"
    if winners:
        return f"{seats_label(winners)} win"
    return "nobody wins" if result.get("seats") else "a draw"


def save_local(path: Path, entry: GameEntry[Any], setup: LocalSetup[Any], table: LocalTable, bots: Sequence[str],
               seed: int, outcome: Outcome | None) -> None:
    """Write a local match's record (net/transcript.py LOCAL_FORMAT; the bots stand in for the names)."""
    record = make_local_transcript(
        rules_id=entry.rules_id, rules_version=entry.rules_version, card_set_hash=entry.card_set_hash(),
        names=[f"{name} bot" for name in bots], seed=seed, setup=setup.record,
        initial_hash=table.initial_hash, inputs=[a.to_data() for a in table.log], hashes=table.hashes,
        outcome=outcome, final_hash=hash_of(setup.game, table.state))
    try:
        save(path, record)
    except OSError as exc:
        raise InputProblem(f"cannot write the record to {path} ({exc}); choose a writable path") from None


def print_summary(summary: Mapping[str, Any]) -> None:
    """The summary of ``--games`` for people (the same figures as ``--json``)."""
    print(f"{summary['games']} games of {summary['game']} at {summary['seats']} seats, bots {','.join(summary['bots'])}")
    print(f"ended by a rule: {summary['ended_by_rule']} ({summary['ended_by_rule_rate']}); endings {summary['endings']}")
    for key in ("wins_by_bot", "wins_by_side", "wins_by_bot_and_side"):
        for name, r in (summary.get(key) or {}).items():
            print(f"  {key[8:] or 'bot'} {name}: {r['wins']}/{r['seats']} won ({r['rate']}, 95% CI {r['ci95']})")
    print(f"grades {summary['grades']}; turns {summary['turns']}; inputs {summary['inputs']}")
    if "cpu_s_per_game" in summary:
        print(f"CPU seconds per game {summary['cpu_s_per_game']}")
    for problem in summary["problems"]:
        print(f"PROBLEM seed {problem['seed']}: judge {problem['judge']}, replayed {problem['replayed']}")


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.games is not None:
        try:
            summary = play_many(args)
        except InputProblem as exc:
            print(f"error: {for_people(str(exc))}", file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(summary, sort_keys=True))
        else:
            print_summary(summary)
        return 1 if summary["problems"] else 0
    try:
        result = play(args)
    except InputProblem as exc:
        print(f"error: {for_people(str(exc))}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        who = who_won(result)
        if result["reason"] == "unfinished":
            who = f"no end within --max-steps {args.max_steps}"
        for line in result.get("story", ()):
            print(line)
        print(f"{who} after {result['turns']} turns, {result['actions']} inputs ({for_people(result['reason'])})")
        print(f"final state hash {result['final_hash']}")
        if "audit" in result:
            print(f"over TCP: {result['wall_s']} s wall, {result['cpu_s']} s CPU, {result['messages']} messages, "
                  f"{result['bytes']} bytes; audit {for_people(str(result['audit']))}")
    return 0


if __name__ == "__main__":
    run_cli(main)

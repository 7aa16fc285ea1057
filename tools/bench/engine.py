"""``python -m tools.bench engine [--json]``: Rider and Locke engine speed, Rider bot strength.

Three figures with targets from the project brief and issue 11:

- random-vs-random complete games per second on one core (target >= 100),
  with actions per second; state hashing per step is off here, as in a bot
  search, so this measures ``legal_actions`` + ``apply`` + the local driver;
- the greedy bot's win rate against the random bot over 200 seeded games,
  alternating seats and decks (target >= 70%).

- Locke random-bot games at 5 and 10 seats: games and actions per second on
  one core (target >= 5,000 actions/s, as for Rider), hashing off likewise.

All use the shipped components on the trusted LocalTable.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from net.bots.base import Agent
from net.games import LocalSetup, game_named
from net.local_table import LocalTable

TARGET_GAMES_PER_S = 100
TARGET_GREEDY_WIN_RATE = 0.70
TARGET_LOCKE_ACTIONS_PER_S = 5_000
LOCKE_SEATS = (5, 10)




def _shipped(name: str, seats: int) -> LocalSetup[Any]:
    entry = game_named(name)
    return entry.local(entry.local_record(seats, None, None), None)


def random_vs_random(games: int) -> dict[str, Any]:
    rider = game_named("rider")
    setup = _shipped("rider", 2)
    game = setup.game
    actions = turns = 0
    start = time.perf_counter()
    for seed in range(games):
        state, knowledge = setup.state, list(setup.knowledge)
        agents: list[Agent] = [rider.bot("random", random.Random(2 * seed)),
                               rider.bot("random", random.Random(2 * seed + 1))]
        table = LocalTable(game, state, knowledge, agents, seed, record_hashes=False)
        table.run()
        actions += len(table.log)
        turns += table.state.turn
    seconds = time.perf_counter() - start
    return {
        "games": games, "seconds": round(seconds, 3), "games_per_s": round(games / seconds, 1),
        "actions_per_s": round(actions / seconds), "avg_actions": round(actions / games, 1),
        "avg_turns": round(turns / games, 1),
    }


def greedy_vs_random(games: int) -> dict[str, Any]:
    rider = game_named("rider")
    setup = _shipped("rider", 2)
    game = setup.game
    swapped = rider.local({**setup.record, "decks": setup.record["decks"][::-1]}, None)
    wins = losses = draws = 0
    start = time.perf_counter()
    for seed in range(games):
        greedy_seat = seed % 2  # alternate seats, and swap the decks every other pair
        start_of = setup if (seed // 2) % 2 == 0 else swapped
        agents: list[Agent] = [rider.bot("random", random.Random(10_000 + seed)),
                               rider.bot("random", random.Random(20_000 + seed))]
        agents[greedy_seat] = rider.bot("greedy", random.Random(30_000 + seed))
        state, knowledge = start_of.state, list(start_of.knowledge)
        table = LocalTable(game, state, knowledge, agents, seed, record_hashes=False)
        table.run()
        outcome = table.outcome()
        if outcome is None or outcome.winner is None:
            draws += 1
        elif outcome.winner == greedy_seat:
            wins += 1
        else:
            losses += 1
    return {
        "games": games, "greedy_wins": wins, "random_wins": losses, "draws": draws,
        "win_rate": round(wins / games, 3), "seconds": round(time.perf_counter() - start, 3),
    }


def locke_random(seats: int, games: int) -> dict[str, Any]:
    """Locke games between random bots at ``seats`` players (issue 11's figure)."""
    locke = game_named("locke")
    setup = _shipped("locke", seats)
    game = setup.game
    actions = turns = 0
    start = time.perf_counter()
    for seed in range(games):
        state, knowledge = setup.state, list(setup.knowledge)
        agents: list[Agent] = [locke.bot("random", random.Random(f"{seed}/bot/{i}")) for i in range(seats)]
        table = LocalTable(game, state, knowledge, agents, seed, record_hashes=False)
        table.run()
        actions += len(table.log)
        turns += table.state.turn
    seconds = time.perf_counter() - start
    return {
        "seats": seats, "games": games, "seconds": round(seconds, 3), "games_per_s": round(games / seconds, 2),
        "actions_per_s": round(actions / seconds), "avg_actions": round(actions / games, 1),
        "avg_turns": round(turns / games, 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench engine", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500, help="random-vs-random games to time")
    parser.add_argument("--greedy-games", type=int, default=200, help="greedy-vs-random games")
    parser.add_argument("--locke-games", type=int, default=20, help="Locke random-bot games per table size")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    speed = random_vs_random(args.games)
    strength = greedy_vs_random(args.greedy_games)
    locke = [locke_random(seats, args.locke_games) for seats in LOCKE_SEATS]
    report = {
        "suite": "engine", "random_vs_random": speed, "greedy_vs_random": strength, "locke": locke,
        "targets": {"games_per_s": TARGET_GAMES_PER_S, "greedy_win_rate": TARGET_GREEDY_WIN_RATE,
                    "locke_actions_per_s": TARGET_LOCKE_ACTIONS_PER_S},
        "meets_targets": speed["games_per_s"] >= TARGET_GAMES_PER_S and strength["win_rate"] >= TARGET_GREEDY_WIN_RATE
        and all(r["actions_per_s"] >= TARGET_LOCKE_ACTIONS_PER_S for r in locke),
    }
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        print(f"random vs random: {speed['games_per_s']} games/s, {speed['actions_per_s']} actions/s "
              f"({speed['games']} games, {speed['avg_turns']} turns each; target {TARGET_GAMES_PER_S} games/s)")
        print(f"greedy vs random: greedy won {strength['greedy_wins']} of {strength['games']} "
              f"({strength['win_rate']:.0%}; target {TARGET_GREEDY_WIN_RATE:.0%}), draws {strength['draws']}")
        for r in locke:
            print(f"locke, {r['seats']} seats, random bots: {r['games_per_s']} games/s, {r['actions_per_s']} actions/s "
                  f"({r['games']} games, {r['avg_actions']} actions each; target {TARGET_LOCKE_ACTIONS_PER_S} actions/s)")
    return 0 if report["meets_targets"] else 1

"""``python -m tools.bench locke_bots [--games G] [--json]``: the Locke bots' cost per game.

Figures (issue 28), measured in this run on this machine, on the trusted LocalTable
with state hashing off (as ``tools.bench engine`` measures Locke):

- CPU seconds per full game with every seat played by the heuristic bot
  (net/games/locke/heuristic.py), at 5 and at 10 seats: mean and worst over G seeded
  games (target: a 10-seat game within 2 s);
- the heuristic bot's decision time: median, 99th percentile and worst (target 50 ms);
- the same games' length in turns and inputs, and random-bot games for comparison.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from engine.core.hidden import Knowledge
from engine.core.inputs import SeatInput
from net.bots.base import Agent
from net.games import game_named
from net.local_table import LocalTable

SEATS = (5, 10)
TARGET_CPU_S_10_SEATS = 2.0
TARGET_DECISION_MS = 50.0


class _Timed:
    """An agent that records how long each of its decisions takes (wall clock, per call)."""

    def __init__(self, agent: Agent, times: list[float]) -> None:
        self.agent, self.times = agent, times

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge,
               legal: Sequence[SeatInput]) -> SeatInput:
        start = time.perf_counter()
        out = self.agent.choose(game, state, seat, knowledge, legal)
        self.times.append(time.perf_counter() - start)
        return out


def games(bot: str, seats: int, count: int, first_seed: int = 0) -> dict[str, Any]:
    """``count`` seeded games of ``bot`` at every seat: CPU per game, lengths, decision times."""
    entry = game_named("locke")
    cpu: list[float] = []
    turns: list[int] = []
    inputs: list[int] = []
    decisions: list[float] = []
    for seed in range(first_seed, first_seed + count):
        setup = entry.local(entry.local_record(seats, None, None), None)
        agents: list[Agent | None] = [_Timed(entry.bot(bot, random.Random(f"{seed}/bot/{i}")), decisions)
                                      for i in range(seats)]
        table = LocalTable(setup.game, setup.state, setup.knowledge, agents, seed, record_hashes=False)
        start = time.process_time()
        table.run(300_000)
        cpu.append(time.process_time() - start)
        turns.append(table.state.turn)
        inputs.append(len(table.log))
    ordered = sorted(decisions)
    return {
        "bot": bot, "seats": seats, "games": count,
        "cpu_s_per_game_mean": round(statistics.mean(cpu), 3), "cpu_s_per_game_max": round(max(cpu), 3),
        "turns_median": statistics.median(turns), "inputs_median": statistics.median(inputs),
        "decision_ms_median": round(1000 * statistics.median(ordered), 3),
        "decision_ms_p99": round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 3),
        "decision_ms_max": round(1000 * ordered[-1], 3),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench locke_bots", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="seeded games per seat count and bot (default 10)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = [games(bot, seats, args.games) for bot in ("heuristic", "random") for seats in SEATS]
    heuristic_10 = next(f for f in figures if f["bot"] == "heuristic" and f["seats"] == 10)
    worst_decision = max(f["decision_ms_max"] for f in figures if f["bot"] == "heuristic")
    ok = heuristic_10["cpu_s_per_game_max"] <= TARGET_CPU_S_10_SEATS and worst_decision <= TARGET_DECISION_MS
    targets = {"cpu_s_per_10_seat_game": TARGET_CPU_S_10_SEATS, "decision_ms": TARGET_DECISION_MS}
    if args.json:
        print(json.dumps({"figures": figures, "targets": targets, "ok": ok}, indent=2))
    else:
        for f in figures:
            print(f"{f['bot']:9} {f['seats']:2} seats, {f['games']} games: CPU/game mean {f['cpu_s_per_game_mean']} s, "
                  f"max {f['cpu_s_per_game_max']} s; median {f['turns_median']} turns, {f['inputs_median']} inputs; "
                  f"decision median {f['decision_ms_median']} ms, p99 {f['decision_ms_p99']} ms, "
                  f"max {f['decision_ms_max']} ms")
        print("all targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The summary of many bot games (``python -m tools.match GAME --games G``).

Why a module of its own: tools/match.py plays one game; measuring bots (issue 28: does
the heuristic Locke bot beat the random one, do games end by a rule, how long are
they) needs the same figures over many seeds, with confidence intervals, and the
aggregation is the same for every game. Game-specific facts come through the game
entry: a game that judges every seat (``seats`` in the result) gives grades; a game
whose entry has ``end_sides`` names each seat's side at the end, so wins are counted
by side and by bot and side; a game entry with a ``judge`` is checked on every game.

All figures are plain integers and ratios of the games played; intervals are Wilson
score intervals at 95 % (z = 1.96), good for small counts and rates near 0 or 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

Z95 = 1.96


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``wins`` in ``n`` (0..1; (0, 1) with no games)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    den = 1 + z * z / n
    return (round(max(0.0, (centre - half) / den), 4), round(min(1.0, (centre + half) / den), 4))


def quantile(values: Sequence[int], q: float) -> int | None:
    """The ``q`` quantile by the nearest-rank method (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def _rate(wins: int, n: int) -> dict[str, Any]:
    return {"seats": n, "wins": wins, "rate": round(wins / n, 4) if n else None, "ci95": list(wilson(wins, n))}


def _count(values: Sequence[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items()))


def summarise(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Figures over the results of :func:`tools.match.play_one` (one per game)."""
    games = len(results)
    endings = [str(r.get("ending") or r.get("reason") or "unfinished") for r in results]
    finished = [r for r in results if r.get("reason") != "unfinished"]
    by_rule = [r for r in finished if r.get("ending") != "guard"]
    turns = [int(r["turns"]) for r in results if isinstance(r.get("turns"), int)]
    inputs = [int(r["actions"]) for r in results]
    grades: list[str] = [g for r in results for g in r.get("grades") or ()]
    by_bot: dict[str, list[int]] = {}
    by_side: dict[str, list[int]] = {}
    by_bot_side: dict[str, list[int]] = {}
    for r in results:
        seats = r.get("seats") or []
        sides = r.get("sides") or []
        for i, bot in enumerate(r.get("bots") or []):
            if i >= len(seats):
                continue
            won = int(bool(seats[i].get("won")))
            by_bot.setdefault(bot, []).append(won)
            if i < len(sides):
                by_side.setdefault(sides[i], []).append(won)
                by_bot_side.setdefault(f"{bot}/{sides[i]}", []).append(won)
    cpu = [float(r["cpu_s"]) for r in results if "cpu_s" in r]
    summary: dict[str, Any] = {
        "games": games,
        "ended_by_rule": len(by_rule), "ended_by_rule_rate": round(len(by_rule) / games, 4) if games else None,
        "endings": _count(endings),
        "grades": _count(grades),
        "wins_by_bot": {k: _rate(sum(v), len(v)) for k, v in sorted(by_bot.items())},
        "turns": {"median": quantile(turns, 0.5), "p90": quantile(turns, 0.9), "max": max(turns, default=None)},
        "inputs": {"median": quantile(inputs, 0.5), "p90": quantile(inputs, 0.9), "max": max(inputs, default=None)},
    }
    if by_side:
        summary["wins_by_side"] = {k: _rate(sum(v), len(v)) for k, v in sorted(by_side.items())}
        summary["wins_by_bot_and_side"] = {k: _rate(sum(v), len(v)) for k, v in sorted(by_bot_side.items())}
        summary["sides_that_won"] = sorted(k for k, v in by_side.items() if sum(v))
    if cpu:
        summary["cpu_s_per_game"] = {"mean": round(sum(cpu) / len(cpu), 3), "max": round(max(cpu), 3)}
    if any("judge" in r for r in results):
        summary["judge_disagreements"] = sum(1 for r in results if r.get("judge"))
    if any("replayed" in r for r in results):
        summary["replays_exact"] = sum(1 for r in results if r.get("replayed"))
    return summary

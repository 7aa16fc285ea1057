"""Session benchmark: ``python -m tools.bench session [--games N] [--json]``.

Measures the sans-I/O session layer in one process, every peer's work on one
thread, no network (the TCP figures are the ``net`` suite's):

- ``rider``: full Rider games between a greedy and a random bot with every
  protocol (card keys, secret deck lists, verifiable shuffles, private draws,
  card proofs, sealed choices, flips, audit); wall and CPU seconds per game
  for BOTH peers together, envelopes, bytes, steps, and the offline
  ``tools.verify`` time of the transcript;
- ``dice``: one joint 2d6 roll end to end (the opening's key round, then
  one-phase dice: every seat's roll part checked, faces, engine step) for
  2, 6 and 10 seats, all seats in one process.

Targets (project issue): a full Rider game with every proof verified in
<= 5 s wall (per peer, over TCP; here both peers share one thread).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from engine.core.actions import ActionCodec
from engine.core.game import Outcome, check_answer_matches
from engine.core.hashing import digest
from engine.core.hidden import Knowledge
from engine.core.pending import DRIVER_ANSWERS, Chance, DiceRolled, Pending
from net.bots.base import Agent
from net.envelope import Genesis
from net.games import game_named, table_for
from net.identity import Identity
from net.session import Session
from net.session.loopback import Loopback
from net.session.plan import TablePlan
from net.verifier import verify

NONCE = bytes(range(16))


def _ids(n: int, tag: str) -> list[Identity]:
    return [Identity.from_seed(digest("fairtable/bench-identity", f"{tag}-{i}")) for i in range(n)]


def _rider_game(seed: int) -> dict[str, Any]:
    rider = game_named("rider")
    assert rider.shipped_deck is not None
    decks = [rider.shipped_deck(s) for s in (0, 1)]
    ids = _ids(2, "rider")
    genesis = rider.genesis([i.public_key for i in ids], [NONCE] * len(ids), decks)
    table = table_for(genesis)
    agents: list[Agent] = [rider.bot("greedy", random.Random(seed)), rider.bot("random", random.Random(seed + 1))]
    wall, cpu = time.perf_counter(), time.process_time()
    sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                        deck=decks[s], agent=agents[s]) for s in (0, 1)]
    net = Loopback(sessions)
    net.start()
    net.run()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if not all(s.finished for s in sessions):
        raise RuntimeError(f"the benchmark game did not finish: {[str(e) for e in sessions[0].events]}")
    start = time.perf_counter()
    verified, said = verification(sessions[0].transcript())
    return {"wall_s": wall, "cpu_s": cpu, "envelopes": len(sessions[0].envelopes()), "messages": net.delivered,
            "bytes": net.bytes, "steps": sessions[0].step, "verify_s": time.perf_counter() - start,
            "verified": verified, "verify": said}


def verification(transcript: dict[str, Any]) -> tuple[bool, str]:
    """Whether ``transcript`` verifies (the verdict's ``ok``), and the first line of what it says."""
    verdict = verify(transcript)
    return verdict.ok, str(verdict).splitlines()[0]


class _Roll:
    """A one-step game: roll 2d6, then it is over."""

    rules_id = "bench/roll"
    codec = ActionCodec(DRIVER_ANSWERS)

    def pending(self, state: tuple[int, ...]) -> Pending | None:
        return None if state else Chance("bench.roll", (6, 6))

    def legal_actions(self, state: Any, seat: int, knowledge: Knowledge | None = None) -> list[Any]:
        return []

    def apply(self, state: tuple[int, ...], action: Any) -> tuple[int, ...]:
        check_answer_matches(self.pending(state), action)
        assert isinstance(action, DiceRolled)
        return tuple(action.faces)

    def public(self, state: tuple[int, ...]) -> Any:
        return list(state)

    def zone(self, state: Any, name: str) -> tuple[int, ...]:
        return ()

    def outcome(self, state: tuple[int, ...]) -> Outcome | None:
        return Outcome(None, f"rolled {sum(state)}") if state else None

    def view(self, state: Any, seat: int, knowledge: Knowledge) -> Any:
        return list(state)


def _roll(seats: int) -> float:
    """Milliseconds from the first message to every seat having applied the roll."""
    ids = _ids(seats, "roll")
    genesis = Genesis("bench/roll", "1", bytes(32), tuple(i.public_key for i in ids), {}, (NONCE,) * len(ids))
    game = _Roll()
    sessions = [Session(genesis, game, (), plan=TablePlan(), identity=ids[s], seat=s) for s in range(seats)]
    net = Loopback(sessions)
    start = time.perf_counter()  # includes the opening (card-key) round every table runs once
    net.start()
    net.run()
    elapsed = time.perf_counter() - start
    if not all(s.step == 1 for s in sessions):
        raise RuntimeError("the roll did not complete")
    return elapsed * 1000


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench session")
    parser.add_argument("--games", type=int, default=5, help="Rider games to play (default 5)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games = [_rider_game(seed) for seed in range(args.games)]
    report: dict[str, Any] = {
        "rider": rider_summary(games),
        "dice_roll_ms": {str(n): statistics.median(_roll(n) for _ in range(3)) for n in (2, 6, 10)},
    }
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        r = report["rider"]
        print(f"Rider, {r['games']} games, both peers in one process: wall median {r['wall_s_median']:.2f} s "
              f"(max {r['wall_s_max']:.2f} s, target <= {r['target_wall_s']} s), cpu {r['cpu_s_median']:.2f} s, "
              f"{r['envelopes_median']:.0f} envelopes, {r['bytes_median'] / 1000:.0f} kB, "
              f"verify {r['verify_s_median']:.2f} s, all verified: {r['all_verified']}")
        for line in r["not_verified"]:
            print(f"  not verified: {line}")
        for n, ms in report["dice_roll_ms"].items():
            print(f"2d6 joint roll incl. card-key opening, {n} seats in one process: {ms:.1f} ms")
    return 0


def rider_summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``rider`` part of the report. ``all_verified`` reads each verdict's ``ok``
    (the verdict's text has several lines, so comparing it with "ok" was always false)."""
    walls = sorted(g["wall_s"] for g in games)
    return {
        "games": len(games),
        "wall_s_median": statistics.median(walls),
        "wall_s_max": walls[-1],
        "cpu_s_median": statistics.median(g["cpu_s"] for g in games),
        "verify_s_median": statistics.median(g["verify_s"] for g in games),
        "envelopes_median": statistics.median(g["envelopes"] for g in games),
        "bytes_median": statistics.median(g["bytes"] for g in games),
        "steps_median": statistics.median(g["steps"] for g in games),
        "all_verified": bool(games) and all(g["verified"] is True for g in games),
        "not_verified": [f"game {i}: {g['verify']}" for i, g in enumerate(games) if g["verified"] is not True],
        "target_wall_s": 5.0,
    }

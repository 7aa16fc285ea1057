"""``python -m tools.bench claims [--seats N] [--seeds 1,2] [--json]``: claims proven at their step, per game.

Figures (issue 31), from whole networked Locke games played in this process
by random bots over net/session/loopback.py (every shuffle, deal, roll and
claim through the real protocols):

- how many claims were proven at their step and how many waited for the
  end-of-game audit (target: 95 % or more proven), and which kinds waited;
- the critical path the proofs add to a game: per action that carries claim
  proofs, the time its maker takes to prove them plus the time one other
  seat takes to check them (the other seats check in parallel on their own
  machines), summed over the game (target: 10 s or less for a 10-seat game);
- the longest any single action waits for its proofs, proving plus checking
  (target: 50 ms).

Times are CPU time of this process (``time.process_time``), so a busy
machine's waits for a core do not count: each seat proves or checks on its
own machine.

A 10-seat game takes a few minutes of CPU; the default plays one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from engine.core.hashing import digest
from net.games import game_named, table_for
from net.identity import Identity
from net.session import Session, claim_steps
from net.session.loopback import Loopback

NONCE = bytes(range(16))
TARGETS = {"share_proven": 0.95, "critical_path_s_10_seats": 10.0, "worst_action_ms": 50.0}


@contextmanager
def timed(seats: int, proved: list[float], checked: list[float]) -> Iterator[None]:
    """Time every proof made (``proved``) and one other seat's check of each action's proofs (``checked``)."""
    make, check = claim_steps.make, claim_steps.check

    def timed_make(s: Session, statements: Sequence[claim_steps.Statement]) -> list[list[Any]]:
        start = time.process_time()
        out = make(s, statements)
        if statements:
            proved.append(time.process_time() - start)
        return out

    def timed_check(s: Session, seat: int, owes: claim_steps.Owed, raw: Any, *, mine: bool = False) -> None:
        start = time.process_time()
        check(s, seat, owes, raw, mine=mine)
        if owes.statements and s.seat == (seat + 1) % seats:
            checked.append(time.process_time() - start)

    setattr(claim_steps, "make", timed_make)
    setattr(claim_steps, "check", timed_check)
    try:
        yield
    finally:
        setattr(claim_steps, "make", make)
        setattr(claim_steps, "check", check)


def play(seats: int, seed: int) -> list[Session]:
    """One networked Locke game of random bots (the table of tests/net/locke_net_runs.py)."""
    from tools.match import make_agents

    entry = game_named("locke")
    ids = [Identity.from_seed(digest("fairtable/test-identity", f"locke-{i}")) for i in range(seats)]
    genesis = entry.genesis([i.public_key for i in ids], [NONCE] * seats)
    table = table_for(genesis)
    agents = make_agents(entry, "random", seed, seats)
    loop = Loopback([Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                             agent=agents[s]) for s in range(seats)])
    loop.start()
    loop.run()
    return loop.sessions


def measure(seats: int, seed: int) -> dict[str, Any]:
    proved: list[float] = []
    checked: list[float] = []
    start = time.process_time()
    with timed(seats, proved, checked):
        sessions = play(seats, seed)
    s = sessions[0]
    claims = s.caps.claims(s.state)
    waited = Counter(c.what for i, c in enumerate(claims) if i not in s.claims_proven)
    counts = claim_steps.counts(s)
    actions = [p + c for p, c in zip(proved, checked)]
    return {
        "seats": seats, "seed": seed, "cpu_s": round(time.process_time() - start, 1), "phase": s.phase,
        "halted": None if s.halted is None else str(s.halted), **counts,
        "share_proven": round(counts["proven_at_step"] / max(1, counts["claims"]), 4),
        "waited_kinds": dict(sorted(waited.items())),
        "every_seat_agrees": len({tuple(sorted(x.claims_proven.items())) for x in sessions}) == 1,
        "actions_with_proofs": len(proved),
        "prove_s": round(sum(proved), 2), "check_s": round(sum(checked), 2),
        "critical_path_s": round(sum(proved) + sum(checked), 2),
        "worst_prove_ms": round(1000 * max(proved, default=0.0), 1),
        "worst_check_ms": round(1000 * max(checked, default=0.0), 1),
        "worst_action_ms": round(1000 * max(actions, default=0.0), 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench claims", description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=10)
    parser.add_argument("--seeds", default="1", help="comma-separated game seeds (default 1)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games = [measure(args.seats, int(seed)) for seed in args.seeds.split(",")]
    if args.json:
        print(json.dumps({"games": games, "targets": TARGETS}, sort_keys=True))
        return 0
    show: Callable[[str], None] = print
    for g in games:
        show(f"{g['seats']} seats, seed {g['seed']} ({g['cpu_s']} s CPU, {g['phase']}): {g['proven_at_step']} of "
             f"{g['claims']} claims proven at their step ({100 * g['share_proven']:.1f} %), {g['waited_for_audit']} "
             f"checked at the end {g['waited_kinds']}")
        show(f"  added critical path {g['critical_path_s']} s (prove {g['prove_s']} s + check {g['check_s']} s over "
             f"{g['actions_with_proofs']} actions); worst action {g['worst_action_ms']} ms (prove "
             f"{g['worst_prove_ms']} ms, check {g['worst_check_ms']} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

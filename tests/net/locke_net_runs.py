"""Networked Locke games in one process, and what they cover beside the local 300-game run.

Each game is played by N :class:`~net.session.Session` objects (one per seat,
random bots) over the in-memory :class:`~net.session.loopback.Loopback`: every
shuffle, deal, roll, placement and claim goes through the real protocols,
only the sockets are missing. :func:`play` returns the sessions;
:func:`coverage` reads the public event log of finished games (the same
events tests/engine/locke/behaviour.py records for the 300 local games in
tests/engine/locke/fixtures/games.json.gz) and counts what they reached:
event kinds, chart entries, combat and planet cards, endings.

    python -m tests.net.locke_net_runs 5:1-12 6:1-3 --out runs.jsonl   # play, one JSON line a game
    python -m tests.net.locke_net_runs --report runs.jsonl             # networked vs local coverage
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.core.claims import unjudged_claims
from engine.core.hashing import digest
from engine.core.pending import Chance, HiddenOp, Placement
from net.envelope import Genesis
from net.games import game_named, table_for
from net.identity import Identity
from net.session import Session
from net.session.loopback import Loopback

LOCAL_GAMES = Path(__file__).resolve().parents[1] / "engine" / "locke" / "fixtures" / "games.json.gz"
NONCE = bytes(range(16))


def genesis(seats: int, **options: Any) -> tuple[Genesis, list[Identity]]:
    """A Locke genesis for ``seats`` test identities (fixed keys: the same table every run)."""
    entry = game_named("locke")
    ids = [Identity.from_seed(digest("fairtable/test-identity", f"locke-{i}")) for i in range(seats)]
    return entry.genesis([i.public_key for i in ids], [NONCE] * seats, **options), ids


def sessions(seats: int, seed: int, bots: str = "random", **options: Any) -> list[Session]:
    """One session per seat of a fresh networked Locke table, each with its seeded bot."""
    from tools.match import make_agents

    g, ids = genesis(seats, **options)
    table = table_for(g)
    agents = make_agents(game_named("locke"), bots, seed, seats)
    return [Session(g, table.game, table.state, plan=table.plan, identity=ids[s], seat=s, agent=agents[s])
            for s in range(seats)]


def kind_of(pending: Any) -> str:
    """A pending input's kind, as the networked table runs it (gifts apart: a held card passed on)."""
    if isinstance(pending, HiddenOp):
        owner = pending.zone.partition(":")[2]
        gift = pending.op == "deal" and pending.zone.startswith("kept:") and owner.isdigit() \
            and int(owner) != pending.to_seat
        return "gift" if gift else f"cards:{pending.op}"
    if isinstance(pending, Placement):
        return f"placement:{pending.op}"
    if isinstance(pending, Chance):
        return "roll" if pending.dice else "roll of no dice"
    return type(pending).__name__.lower()


def count_kinds(s: Session) -> dict[str, int]:
    """How many inputs of each kind ``s`` applied (read back from its states)."""
    counts: dict[str, int] = {}
    for state in s.states[:-1]:
        kind = kind_of(s.game.pending(state))
        counts[kind] = counts.get(kind, 0) + 1
    return dict(sorted(counts.items()))


def play(seats: int, seed: int, bots: str = "random") -> tuple[list[Session], Loopback]:
    """A whole networked game over the loopback (raises when the table does not settle)."""
    table = Loopback(sessions(seats, seed, bots))
    table.start()
    table.run()
    return table.sessions, table


def unjudged(s: Session) -> int:
    """Claims the audit could not judge (every card they are about stayed unknown)."""
    assert s.audit is not None and s.book is not None
    known = {**s.book.identified, **s.opened_hands, **s.placements.contents}
    audit = s.audit
    return len(unjudged_claims(s.caps.claims(s.state), lambda h: known.get(h) or audit.resolve(h)))


def record(seats: int, seed: int, ss: Sequence[Session], loop: Loopback, seconds: float) -> dict[str, Any]:
    """One finished networked game as a JSON-ready line."""
    s = ss[0]
    return {
        "players": seats, "seed": seed, "phase": s.phase, "steps": s.step, "verdict": s.verdict,
        "halted": None if s.halted is None else str(s.halted), "ending": getattr(s.state, "ending", None),
        "same_final_hash": len({x.hashes[-1] for x in ss}) == 1, "claims": len(s.caps.claims(s.state)),
        "unjudged": unjudged(s) if s.audit is not None else None, "seconds": round(seconds, 1),
        "bytes": loop.bytes, "messages": loop.delivered,
        "notes": sorted({n.topic.split(":")[0] for x in ss for n in x.knowledge.notes}),
        "kinds": count_kinds(s),
        "events": [json.loads(json.dumps(list(e), default=lambda v: v.__canonical__())) for e in s.state.events],
    }


def features(games: Iterable[dict[str, Any]]) -> dict[str, set[Any]]:
    """What a set of games reached, by family: event kinds, chart entries, cards, endings."""
    out: dict[str, set[Any]] = {"event kinds": set(), "chart entries": set(), "combat cards played": set(),
                                "planet cards kept": set(), "base cards": set(), "endings": set()}
    for g in games:
        out["endings"].add(g["ending"])
        for e in g["events"]:
            out["event kinds"].add(e[0])
            if e[0] == "chart-entry":
                out["chart entries"].add(f"{e[1]}/{e[2]}")
            elif e[0] == "trap":
                out["chart entries"].add(f"trap/{e[1]}")
            elif e[0] == "random-combat":
                out["chart entries"].add(f"random-combat/{e[2]}")
            elif e[0] == "base-effect":
                out["chart entries"].add(f"base-effect/{e[1]}/{e[3]}")
            elif e[0] == "cb-play":
                out["combat cards played"].add(e[2])
            elif e[0] == "card-kept":
                out["planet cards kept"].add(e[2])
            elif e[0] == "base-card":
                out["base cards"].add(str(e[2]) if len(e) > 2 else str(e[1]))
    return out


def coverage(networked: Sequence[dict[str, Any]], local: Sequence[dict[str, Any]]) -> list[str]:
    """Lines comparing what the networked games reached with what the local games reached."""
    net, loc = features(networked), features(local)
    lines = [f"{len(networked)} networked games vs {len(local)} local games"]
    for family in net:
        both = net[family] & loc[family]
        missing = sorted(map(str, loc[family] - net[family]))
        lines.append(f"{family}: {len(both)}/{len(loc[family])} of the local run's"
                     f" ({len(net[family] - loc[family])} only networked)"
                     + (f"; not reached: {', '.join(missing[:12])}{' ...' if len(missing) > 12 else ''}"
                        if missing else ""))
    return lines


def _seeds(spec: str) -> list[tuple[int, int]]:
    seats, _, seeds = spec.partition(":")
    lo, _, hi = seeds.partition("-")
    return [(int(seats), s) for s in range(int(lo), int(hi or lo) + 1)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("games", nargs="*", help="SEATS:FIRST-LAST seeds to play")
    parser.add_argument("--out", type=Path, help="append one JSON line per game")
    parser.add_argument("--report", type=Path, help="compare the games of this file with the local run")
    args = parser.parse_args(argv)
    for spec in args.games:
        for seats, seed in _seeds(spec):
            started = time.process_time()
            ss, loop = play(seats, seed)
            line = record(seats, seed, ss, loop, time.process_time() - started)
            summary = {k: v for k, v in line.items() if k != "events"}
            print(json.dumps(summary), flush=True)
            if args.out is not None:
                with args.out.open("a") as f:
                    f.write(json.dumps(line) + "\n")
    if args.report is not None:
        networked = [json.loads(line) for line in args.report.read_text().splitlines() if line.strip()]
        local = [g for g in json.load(gzip.open(LOCAL_GAMES)) if g["bots"] == "random"]
        print("\n".join(coverage(networked, local)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

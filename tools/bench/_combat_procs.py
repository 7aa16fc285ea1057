"""Combat starts with every seat in its own process, for ``tools.bench combat`` (not a suite of its own).

:func:`combat_starts` starts one :mod:`tools.bench._combat_seat` process per
seat on a loopback TCP mesh (127.0.0.1 only), each running the real
``net.session.Session`` of its seat on the synthetic table of
:mod:`tools.bench._combat_game`, runs the table's opening once, then times
``rounds`` combat starts (one warm-up first, not counted). Each combat starts
when seat 0 declares it at an instant of the machine's monotonic clock that
every process reads; the figures are:

- ``hand_ms``: until the *last* fighter holds its hand (the fighters' shuffle
  of the deck, pipelined, every seat's beacon part, then one private deal
  after another: every other seat's decryption shares with their proofs);
- ``done_ms``: until the last seat has applied the last deal (every seat
  checks every shuffle step before the shuffle is applied);
- ``latest_start_ms``: how late the last seat began to apply the declaration
  (seat 0 sends it with its own shuffle step, as the session does, so this is
  seat 0's shuffle proof, one hop, timer resolution, waiting for a core);
- ``cpu_s``: process CPU seconds per seat spent on one combat start (median
  over rounds; ``max`` is the busiest seat, a fighter that shuffled): what a
  table with one core per peer would pay on each core;
- ``received_bytes``: payload bytes each seat received per combat start
  (median over rounds; min and max over seats).

Every seat must reach the same shuffled deck (a digest of its ciphertexts),
and every fighter must hold ``hand`` distinct cards, none held by another
fighter; otherwise the run fails. The processes share this machine's cores
(``cores``): with more seats than cores the wall figures include waiting for
a core, and only the CPU figure says what one core per peer would see.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from tools.bench._net_procs import Seats, figures

#: How far ahead of seat 0's declaration the parent tells every seat (so each is idle and ready).
LEAD_S = 0.15


def combat_starts(n: int, fighters: int, rounds: int, cards: int = 86, hand: int = 7,
                  timeout: float = 120.0) -> dict[str, Any]:
    """``rounds`` timed combat starts (after one warm-up) among ``n`` seat processes, the
    fighters being seats ``0..fighters-1`` (seat 0 declares, as an attacker does)."""
    if not 1 <= fighters <= n or n < 2:
        raise ValueError(f"{fighters} fighters among {n} seats: need 2 or more seats and 1..{n} fighters")
    if fighters * hand > cards:
        raise ValueError(f"{fighters} hands of {hand} cards do not fit in a deck of {cards}")
    seats = Seats(n, timeout=timeout, module="tools.bench._combat_seat")
    try:
        for s in range(n):
            seats.tell(s, setup={"fighters": list(range(fighters)), "cards": cards, "hand": hand})
        for s in range(n):
            seats.read(s, "opened")
        results: list[list[dict[str, Any]]] = []
        for k in range(rounds + 1):
            t = time.monotonic() + LEAD_S
            for s in (*range(1, n), 0):  # seat 0, the one that acts at t, is told last
                seats.tell(s, begin=t, round=k)
            got = [seats.read(s, "round") for s in range(n)]
            for r in got:
                if "error" in r:
                    raise RuntimeError(f"combat {k}: {r['error']}")
                if r["round"] != k:
                    raise RuntimeError(f"a seat reported combat {r['round']} while combat {k} was timed")
            check(got, fighters, hand)
            results.append(got)
        for s in range(n):
            seats.tell(s, report=True)
        received = [seats.read(s, "bytes")["bytes"] for s in range(n)]
    finally:
        seats.close()
    return summary(results[1:], [b[1:] for b in received], fighters)


def check(got: list[dict[str, Any]], fighters: int, hand: int) -> None:
    """Every seat shuffled to the same deck; each fighter holds ``hand`` distinct cards, no card twice."""
    if len({r["deck"] for r in got}) != 1 or got[0]["deck"] is None:
        raise RuntimeError("the seats reached different shuffled decks")
    held: list[str] = []
    for seat, r in enumerate(got):
        cards = r["hand"]
        if seat < fighters:
            if cards is None or len(cards) != hand or None in cards or len(set(cards)) != hand:
                raise RuntimeError(f"fighter {seat} does not hold {hand} distinct known cards: {cards}")
            held.extend(cards)
        elif cards is not None or r["hand_ms"] is not None:
            raise RuntimeError(f"seat {seat} is no fighter but was dealt {cards}")
    if len(set(held)) != len(held):
        raise RuntimeError("two fighters hold the same card")


def summary(results: list[list[dict[str, Any]]], received: list[list[int]], fighters: int) -> dict[str, Any]:
    hand = [max(r["hand_ms"] for r in got[:fighters]) for got in results]
    done = [max(r["done_ms"] for r in got) for got in results]
    late = [max(r["start_ms"] for r in got) for got in results]
    cpu = [statistics.median(got[s]["cpu_s"] for got in results) for s in range(len(results[0]))]
    per_seat_bytes = [statistics.median(b) for b in received]
    return {"hand_ms": figures(hand), "done_ms": figures(done), "latest_start_ms": figures(late),
            "cpu_s": {"median": round(statistics.median(cpu), 4), "max": round(max(cpu), 4),
                      "per_seat": [round(c, 4) for c in cpu]},
            "received_bytes": {"median": int(statistics.median(per_seat_bytes)), "min": int(min(per_seat_bytes)),
                               "max": int(max(per_seat_bytes))},
            "decks_agree": True, "hands_ok": True}


def measure(quick: bool = False, seats: tuple[int, ...] = (5, 10), fighters: tuple[int, ...] = (2, 3, 4),
            cards: int = 86, rounds: int | None = None) -> dict[str, Any]:
    """Every (seats, fighters) pair, ``rounds`` timed combat starts each (3 with ``quick``, else 10)."""
    count = rounds if rounds is not None else (3 if quick else 10)
    out: dict[str, Any] = {"cores": os.cpu_count(), "cards": cards, "rounds": count, "by_seats": {}}
    for n in seats:
        out["by_seats"][str(n)] = {str(f): combat_starts(n, f, count, cards=cards) for f in fighters if f <= n}
    return out

"""Combat-start benchmark: ``python -m tools.bench combat [--json] [--quick] [--hop MS] [--no-processes]
[--cards C] [--rounds K]``.

A Locke combat opens by shuffling the combat deck (about 86 cards at 10
seats) and dealing every fighter its hand. This suite prices that moment's
critical path for a table with one core per peer, from unit costs measured
now on this machine (each the fastest of a few timed runs: on a shared
machine the slower runs measure waiting for a core):

- ``sp`` / ``sv``: one seat's shuffle step of the deck, proved / verified
  (net.poker.shuffle at the deck's size);
- ``es`` / ``ev``, ``base``, ``make``, ``check``, ``faces``: as in
  :mod:`tools.bench._dice_model` (envelopes and one-phase VRF parts; the
  beacon after a drawers' shuffle is such a roll);
- ``dec``: decoding a received shuffled deck (every point checked), the part
  of ``sv`` a pipelining seat does before building on a step;
- ``perm``: the beacon's public permutation of the deck (net.poker.beacon);
- ``shp`` / ``shv``: one decryption share made / verified;
- ``hop``: one-way delivery, assumed (``--hop``, default 0.5 ms, a LAN),
  also priced at 40 ms (relayed internet).

Rules priced (critical path, milliseconds):

- ``every_seat`` (records before issue 26 item 3): all N seats shuffle in
  turn, each verifying the step before it: ``N*(sp + es + hop + ev + sv)``;
- ``drawers``: only the S shufflers (the fighters; a lone one and the next
  seat) shuffle, then the beacon:
  ``S*(sp + es + hop + ev + sv) + base + make + es + hop + (N-1)*(ev + check) + faces + perm``;
- ``pipelined`` (what net/session/subset_shuffle.py does): the next
  shuffler decodes a step and builds on it at once, checking it after its
  own shuffle is out, and every seat sends its beacon part before checking
  the last step; each peer (one core) still checks every step. Priced by
  following each seat's core through the round (:func:`pipelined_ms`);
- then each fighter's hand is dealt, one step after another:
  ``F*(h*shp + es + hop + (N-1)*(ev + h*shv))`` with ``h`` = 7 cards.

Target (issue 26, a benchmark, not a test): combat start (reshuffle and the
deal of the hands) <= 250 ms for 10 seats with one core per peer;
``meets_target`` says it for combats of 2, 3 and 4 fighters (each peer still
checks every one of the S steps on its own core, so about ``sp + S*sv`` is a
floor).

``processes`` (skip with ``--no-processes``): the same combat starts
*measured*, every seat its own OS process running the real session code
(net/session, the drawers' rule with its pipelining, the beacon and the
deals) over a loopback TCP mesh, on a synthetic table that only starts
combats (:mod:`tools.bench._combat_game`, :mod:`tools.bench._combat_procs`),
for 5 and 10 seats and 2, 3 and 4 fighters, 10 combats each after a warm-up
(3 with ``--quick``; ``--rounds K`` to choose). Each combat starts when seat 0
declares it at an instant of the machine's monotonic clock, the same in
every process. Per (seats, fighters): the wall time until the last fighter
holds its hand (median and p95), how late the last seat applied the
declaration, each seat's process CPU seconds for one combat start (median
seat, and the busiest), the payload bytes each seat received, and ``cores``;
the model's pipelined figure for the same (N, F) is printed beside it, and
beside the CPU figure the model's work on one peer's core
(:func:`seat_cpu_ms`, ``seat_cpu_model``; it leaves out the session's own
bookkeeping, which the measured CPU includes).

How to read it: the seats share this machine's cores. With 10 processes on
2 cores the wall figure includes waiting for a core (``cpu_total_s /
cores`` is a floor on it from sharing alone), so it is no figure for a real
table; the per-seat CPU figure is what each peer's core pays at a table of
one core per peer, and the model is the critical path such a table would
see. ``--cards C`` sizes the deck (default 86; the model's unit costs are
then measured at that size too), for quick checks.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from engine.core.hashing import digest
from net.poker import beacon, proofs
from net.poker import group as g
from net.poker.cards import card_point
from net.poker.proofs import Context
from net.poker.shuffle import decode_deck, receive_shuffle, shuffle, trivial_deck
from tools.bench._dice_model import unit_costs

GAME = digest("fairtable/bench-combat", "game")
DECK = 86
HAND = 7
SEATS = (5, 10)
FIGHTERS = (1, 2, 3, 4)
#: The combats measured with seat processes (issue 26: 2 to 4 fighters).
PROCESS_FIGHTERS = (2, 3, 4)
TARGET_MS = 250.0
LAN_HOP_MS = 0.5
INTERNET_HOP_MS = 40.0


def _fastest_ms(fn: Callable[[], object], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def shuffle_costs(cards: int, runs: int) -> dict[str, float]:
    """One shuffle step of ``cards`` cards, proved and verified (ms)."""
    key = g.base_mul(g.random_scalar())
    deck = trivial_deck([card_point(GAME, f"c{i}") for i in range(cards)], key)
    ctx = Context(GAME, 1, 0)
    made: list[dict[str, Any]] = []

    def prove() -> None:
        out, proof = shuffle(ctx, key, deck)
        made.append({"deck": out, "proof": proof})

    sp = _fastest_ms(prove, runs)
    it = iter(made)
    sv = _fastest_ms(lambda: receive_shuffle(ctx, key, deck, next(it)), runs)
    dec = _fastest_ms(lambda: decode_deck(made[0]["deck"], seat=0, size=cards), runs)
    return {"sp": sp, "sv": sv, "dec": dec}


def other_costs(cards: int) -> dict[str, float]:
    """Envelopes, VRF parts, the beacon's permutation and decryption shares (ms)."""
    costs = unit_costs()
    seed = digest("fairtable/bench-combat", "seed")
    deck = list(range(cards))
    costs["perm"] = _fastest_ms(lambda: beacon.apply(beacon.permutation(seed, cards), deck), 20)
    x = g.random_scalar()
    key = g.base_mul(x)
    c1 = g.base_mul(g.random_scalar())
    ctx = Context(GAME, 3, 1)
    msg = proofs.make_share(ctx, x, key, c1, 0)
    costs["shp"] = _fastest_ms(lambda: [proofs.make_share(ctx, x, key, c1, 0) for _ in range(20)], 5) / 20
    costs["shv"] = _fastest_ms(lambda: [proofs.verify_share(ctx, key, c1, 0, msg) for _ in range(20)], 5) / 20
    return costs


def shufflers(fighters: int) -> int:
    """How many seats shuffle under the drawers' rule (net.session.subset_shuffle.MIN_SHUFFLERS)."""
    return max(fighters, 2)


def pipelined_ms(u: dict[str, float], hop: float, n: int, s: int) -> float:
    """A pipelined drawers' shuffle by seats ``0..s-1`` of ``n``, then its beacon: when the last
    peer has every step checked and every beacon part checked (ms).

    Each seat's one core takes what arrives in order. The seat after a step's shuffler decodes
    it (``dec``), proves its own and sends, and checks the step (``sv - dec``) only when its next
    envelope arrives; the last step is treated that way by every seat, whose beacon part goes out
    first; every other step is checked (``sv``) as it arrives."""
    check_only = max(u["sv"] - u["dec"], 0.0)
    part_cost = u["base"] + u["make"] + u["es"]
    sent: list[float] = []

    def run(seat: int) -> tuple[float, float, float]:
        """(busy until, deferred check left, beacon part sent at) after the shuffle steps."""
        busy = deferred = part = 0.0
        if seat == 0:
            busy = u["sp"] + u["es"]
            if not sent:
                sent.append(busy)
        for k in range(s):
            if k == seat:
                if seat == s - 1:
                    part = busy = busy + part_cost  # the last shuffler's beacon part goes with its shuffle
                continue
            if k >= len(sent):
                break
            start = max(busy, sent[k] + hop + u["ev"]) + deferred
            deferred = 0.0
            if seat < s and k == seat - 1:  # the next shuffler builds on it first
                busy = start + u["dec"] + u["sp"] + u["es"]
                if len(sent) == seat:
                    sent.append(busy)
                deferred = check_only
                if seat == s - 1:
                    part = busy = busy + part_cost
            elif k == s - 1:  # the last step: our beacon part first
                part = busy = start + u["dec"] + part_cost
                deferred = check_only
            else:
                busy = start + u["sv"]
        return busy, deferred, part

    for seat in range(s):
        run(seat)
    states = [run(seat) for seat in range(n)]
    parts = [p for _, _, p in states]
    done = []
    for seat, (busy, deferred, _) in enumerate(states):
        for other in sorted(parts[o] for o in range(n) if o != seat):
            start = max(busy, other + hop + u["ev"]) + deferred
            deferred = 0.0
            busy = start + u["check"]
        done.append(busy + deferred)
    return max(done) + u["faces"] + u["perm"]


def combat_start(u: dict[str, float], hop: float, n: int, fighters: int) -> dict[str, float]:
    """The rules' critical path of one combat start (ms): the shuffle, then the hands."""
    step = u["sp"] + u["es"] + hop + u["ev"] + u["sv"]
    every = n * step
    beacon_ms = u["base"] + u["make"] + u["es"] + hop + (n - 1) * (u["ev"] + u["check"]) + u["faces"] + u["perm"]
    drawers = shufflers(fighters) * step + beacon_ms
    piped = pipelined_ms(u, hop, n, shufflers(fighters))
    deal = fighters * (HAND * u["shp"] + u["es"] + hop + (n - 1) * (u["ev"] + HAND * u["shv"]))
    return {"every_seat_ms": round(every + deal, 1), "drawers_ms": round(drawers + deal, 1),
            "pipelined_ms": round(piped + deal, 1), "every_seat_shuffle_ms": round(every, 1),
            "drawers_shuffle_ms": round(drawers, 1), "pipelined_shuffle_ms": round(piped, 1),
            "beacon_ms": round(beacon_ms, 2), "deal_ms": round(deal, 1)}


def seat_cpu_ms(u: dict[str, float], n: int, fighters: int) -> dict[str, float]:
    """The model's work on one peer's core for one combat start (ms), to set beside the CPU time
    a seat process measures: ``shuffler`` is a fighter that shuffles (proves one step, checks the
    others, checks the shares of its own deal, makes shares for the other fighters' deals),
    ``onlooker`` a seat that neither shuffles nor fights. Session bookkeeping (state hashes,
    envelope intake, the transport) is not in the model."""
    s, h = shufflers(fighters), HAND
    beacon_cpu = u["base"] + u["make"] + u["es"] + (n - 1) * (u["ev"] + u["check"]) + u["faces"] + u["perm"]
    give = h * u["shp"] + u["es"]
    shuffler = (u["sp"] + u["es"] + (s - 1) * (u["ev"] + u["sv"]) + beacon_cpu
                + (n - 1) * (u["ev"] + h * u["shv"]) + (fighters - 1) * give)
    onlooker = s * (u["ev"] + u["sv"]) + beacon_cpu + fighters * give
    return {"shuffler_ms": round(shuffler, 1), "onlooker_ms": round(onlooker, 1)}


def measure(quick: bool = False, hop: float = LAN_HOP_MS, cards: int = DECK) -> dict[str, Any]:
    """The model: unit costs measured now, the rules priced for every (seats, fighters)."""
    units = {**shuffle_costs(cards, 2 if quick else 4), **other_costs(cards)}
    model = {str(n): {str(f): combat_start(units, hop, n, f) for f in FIGHTERS} for n in SEATS}
    internet = {str(f): combat_start(units, INTERNET_HOP_MS, 10, f) for f in FIGHTERS}
    met = {str(f): model["10"][str(f)]["pipelined_ms"] <= TARGET_MS for f in (2, 3, 4)}
    cpu = {str(n): {str(f): seat_cpu_ms(units, n, f) for f in FIGHTERS} for n in SEATS}
    return {"deck": cards, "hand": HAND, "hop_ms": hop, "units_ms": {k: round(v, 4) for k, v in units.items()},
            "critical_path": model, "seat_cpu_model": cpu, "critical_path_10_at_40ms_hop": internet, "target_ms": TARGET_MS,
            "meets_target": met}


def processes(quick: bool, cards: int, rounds: int | None) -> dict[str, Any]:
    """Combat starts measured with every seat in its own process (tools.bench._combat_procs)."""
    from tools.bench import _combat_procs

    out = _combat_procs.measure(quick=quick, seats=SEATS, fighters=PROCESS_FIGHTERS, cards=cards, rounds=rounds)
    cores = out["cores"] or 1
    for by_fighters in out["by_seats"].values():
        for fig in by_fighters.values():
            total = sum(fig["cpu_s"]["per_seat"])
            fig["cpu_total_s"] = round(total, 4)
            fig["shared_core_floor_ms"] = round(total / cores * 1000, 1)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench combat", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--quick", action="store_true", help="fewer timed runs (3 combats per case)")
    parser.add_argument("--hop", type=float, default=LAN_HOP_MS,
                        help="one-way delay the model assumes, in milliseconds (default 0.5)")
    parser.add_argument("--no-processes", action="store_true", help="skip the measurement with seat processes")
    parser.add_argument("--cards", type=int, default=DECK, help=f"cards in the combat deck (default {DECK})")
    parser.add_argument("--rounds", type=int, default=None, help="timed combat starts per case (default 10)")
    args = parser.parse_args(argv)
    if args.cards < HAND * max(PROCESS_FIGHTERS) or args.cards > 200:
        parser.error(f"--cards takes {HAND * max(PROCESS_FIGHTERS)} to 200 cards (four hands of {HAND} must fit)")
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds takes 1 or more combats per case")
    result = measure(quick=args.quick, hop=args.hop, cards=args.cards)
    if not args.no_processes:
        result["processes"] = processes(args.quick, args.cards, args.rounds)
    if args.json:
        print(json.dumps(result, sort_keys=True))
        return 0
    print(report(result))
    return 0


def report(result: dict[str, Any]) -> str:
    """The human-readable figures."""
    deck, hop = result["deck"], result["hop_ms"]
    lines = [f"unit costs measured now (ms; {deck}-card shuffle step): "
             + ", ".join(f"{k} {v:.3f}" for k, v in result["units_ms"].items()),
             f"model: combat start (shuffle of {deck} cards, then {HAND} cards to each fighter), one core per peer, "
             f"{hop} ms hop:"]
    for n, by_fighters in result["critical_path"].items():
        for f, path in by_fighters.items():
            lines.append(f"  {n:>2} seats, {f} fighter(s): every seat shuffles {path['every_seat_ms']:7.1f} ms; "
                         f"drawers + beacon {path['drawers_ms']:6.1f} ms; pipelined {path['pipelined_ms']:6.1f} ms "
                         f"(shuffle and beacon {path['pipelined_shuffle_ms']:.1f}, hands {path['deal_ms']:.1f})")
    for f, path in result["critical_path_10_at_40ms_hop"].items():
        lines.append(f"  10 seats, {f} fighter(s), 40 ms hop: every seat {path['every_seat_ms']:.1f} ms; "
                     f"drawers + beacon {path['drawers_ms']:.1f} ms; pipelined {path['pipelined_ms']:.1f} ms")
    met = ", ".join(f"{f} fighters {'met' if ok else 'missed'}" for f, ok in result["meets_target"].items())
    lines.append(f"target (pipelined drawers' rule): <= {TARGET_MS:.0f} ms at 10 seats: {met}")
    procs = result.get("processes")
    if procs is not None:
        lines.append(f"processes: measured, every seat its own process, real session code over loopback TCP, "
                     f"{procs['cores']} cores shared by all seats, {procs['rounds']} combats per case after a "
                     f"warm-up (wall includes waiting for a core; CPU per seat is what one core per peer pays):")
        for n, by_fighters in procs["by_seats"].items():
            for f, fig in by_fighters.items():
                model = result["critical_path"][n][f]["pipelined_ms"]
                cpu, got, cpu_model = fig["cpu_s"], fig["received_bytes"], result["seat_cpu_model"][n][f]
                lines.append(
                    f"  {n:>2} seats, {f} fighters: last hand median {fig['hand_ms']['median']:7.1f} ms, "
                    f"p95 {fig['hand_ms']['p95']:7.1f} ms (model, one core per peer: {model:6.1f} ms; "
                    f"shared-core floor {fig['shared_core_floor_ms']:.0f} ms); CPU per seat median "
                    f"{cpu['median'] * 1000:.0f} ms, busiest {cpu['max'] * 1000:.0f} ms (model: a shuffling fighter "
                    f"{cpu_model['shuffler_ms']:.0f} ms, an onlooker {cpu_model['onlooker_ms']:.0f} ms); received "
                    f"{got['median'] / 1000:.0f} kB per seat ({got['min'] / 1000:.0f}-{got['max'] / 1000:.0f}); "
                    f"last seat started {fig['latest_start_ms']['median']:.1f} ms late")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

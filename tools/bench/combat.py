"""Combat-start benchmark: ``python -m tools.bench combat [--json] [--quick] [--hop MS]``.

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
- then each fighter's hand is dealt, one step after another:
  ``F*(h*shp + es + hop + (N-1)*(ev + h*shv))`` with ``h`` = 7 cards.

Target (issue 26, a benchmark, not a test): combat start (reshuffle and the
deal of the hands) <= 250 ms for 10 seats with one core per peer, for the
usual combats of 2 to 4 fighters.
"""

from __future__ import annotations

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
from net.poker.shuffle import receive_shuffle, shuffle, trivial_deck
from tools.bench._dice_model import unit_costs

GAME = digest("fairtable/bench-combat", "game")
DECK = 86
HAND = 7
SEATS = (5, 10)
FIGHTERS = (1, 2, 3, 4)
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
    return {"sp": sp, "sv": sv}


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


def combat_start(u: dict[str, float], hop: float, n: int, fighters: int) -> dict[str, float]:
    """Both rules' critical path of one combat start (ms): the shuffle, then the hands."""
    step = u["sp"] + u["es"] + hop + u["ev"] + u["sv"]
    every = n * step
    beacon_ms = u["base"] + u["make"] + u["es"] + hop + (n - 1) * (u["ev"] + u["check"]) + u["faces"] + u["perm"]
    drawers = shufflers(fighters) * step + beacon_ms
    deal = fighters * (HAND * u["shp"] + u["es"] + hop + (n - 1) * (u["ev"] + HAND * u["shv"]))
    return {"every_seat_ms": round(every + deal, 1), "drawers_ms": round(drawers + deal, 1),
            "every_seat_shuffle_ms": round(every, 1), "drawers_shuffle_ms": round(drawers, 1),
            "beacon_ms": round(beacon_ms, 2), "deal_ms": round(deal, 1)}


def measure(quick: bool = False, hop: float = LAN_HOP_MS) -> dict[str, Any]:
    units = {**shuffle_costs(DECK, 2 if quick else 4), **other_costs(DECK)}
    model = {str(n): {str(f): combat_start(units, hop, n, f) for f in FIGHTERS} for n in SEATS}
    internet = {str(f): combat_start(units, INTERNET_HOP_MS, 10, f) for f in FIGHTERS}
    usual = [model["10"][str(f)]["drawers_ms"] for f in (2, 3, 4)]
    return {"deck": DECK, "hand": HAND, "hop_ms": hop, "units_ms": {k: round(v, 4) for k, v in units.items()},
            "critical_path": model, "critical_path_10_at_40ms_hop": internet, "target_ms": TARGET_MS,
            "meets_target": max(usual) <= TARGET_MS}


def main(argv: list[str]) -> int:
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return 0
    hop = LAN_HOP_MS
    if "--hop" in argv:
        at = argv.index("--hop")
        try:
            hop = float(argv[at + 1])
        except (IndexError, ValueError):
            print("--hop takes a one-way delay in milliseconds, e.g. --hop 0.5", file=sys.stderr)
            return 2
    result = measure(quick="--quick" in argv, hop=hop)
    if "--json" in argv:
        print(json.dumps(result, sort_keys=True))
        return 0
    units = ", ".join(f"{k} {v:.3f}" for k, v in result["units_ms"].items())
    print(f"unit costs measured now (ms; {DECK}-card shuffle step): {units}")
    print(f"combat start (shuffle of {DECK} cards, then {HAND} cards to each fighter), one core per peer, "
          f"{hop} ms hop:")
    for n, by_fighters in result["critical_path"].items():
        for f, path in by_fighters.items():
            print(f"  {n:>2} seats, {f} fighter(s): every seat shuffles {path['every_seat_ms']:8.1f} ms; "
                  f"drawers + beacon {path['drawers_ms']:7.1f} ms (shuffle {path['drawers_shuffle_ms']:.1f}, "
                  f"beacon {path['beacon_ms']:.2f}, hands {path['deal_ms']:.1f})")
    for f, path in result["critical_path_10_at_40ms_hop"].items():
        print(f"  10 seats, {f} fighter(s), 40 ms hop: every seat {path['every_seat_ms']:.1f} ms; "
              f"drawers + beacon {path['drawers_ms']:.1f} ms")
    print(f"target: <= {TARGET_MS:.0f} ms at 10 seats for 2-4 fighters: "
          f"{'met' if result['meets_target'] else 'missed'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

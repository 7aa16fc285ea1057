"""Locke chart benchmark: ``python -m tools.bench locke_charts [--json]``.

Measures, in this run on this machine, the median cost of one chart roll
(``charts.resolve`` on the trap chart), one damage check, and one full chain
(prison -> random combat -> weapon check), plus the canonical encoding of an
outcome. Target (ours): one resolve under 50 microseconds, so a table can
resolve thousands of rolls per second even on a slow laptop.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable

from engine.core.encoding import encode
from engine.locke import charts
from engine.locke.outcomes import Context

TARGETS = {"resolve_us": 50.0}


def _median_us(fn: Callable[[], object], repeat: int = 5, number: int = 2000) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples) * 1e6


def main(argv: list[str]) -> int:
    damage_ctx = Context(attack=37, durability=4)
    outcome = charts.resolve("trap", (3, 5))
    figures = {
        "resolve_us": _median_us(lambda: charts.resolve("trap", (3, 5))),
        "damage_us": _median_us(lambda: charts.resolve("damage", (2, 5), 0, damage_ctx)),
        "chain_prison_us": _median_us(lambda: charts.run_chain("prison", [4, 5, 5, 5, 3, 4])),
        "encode_outcome_us": _median_us(lambda: encode(outcome)),
    }
    ok = all(figures[k] <= v for k, v in TARGETS.items())
    if "--json" in argv:
        print(json.dumps({"figures": figures, "targets": TARGETS, "ok": ok}, indent=2))
    else:
        for key, value in figures.items():
            target = f" (target <= {TARGETS[key]:.0f})" if key in TARGETS else ""
            print(f"{key}: {value:.1f}{target}")
        print("all targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

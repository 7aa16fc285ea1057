"""tools.bench combat: unit costs are measured and the rules are priced consistently (no timing asserted)."""

from __future__ import annotations

from tools.bench import combat


def test_combat_bench_measures_units_and_prices_every_rule() -> None:
    out = combat.measure(quick=True)
    units = out["units_ms"]
    for name in ("sp", "sv", "dec", "es", "ev", "make", "check", "perm", "shp", "shv"):
        assert units[name] > 0, name
    assert units["dec"] < units["sv"]  # decoding is a part of receiving a step
    for n in ("5", "10"):
        for f in ("1", "2", "3", "4"):
            path = out["critical_path"][n][f]
            # fewer sequential shuffle steps, then pipelining, can only shorten the wait
            assert path["pipelined_ms"] <= path["drawers_ms"] < path["every_seat_ms"], (n, f, path)
            assert path["deal_ms"] > 0 and path["beacon_ms"] > 0
    assert set(out["meets_target"]) == {"2", "3", "4"}


def test_the_model_prices_the_critical_path_from_given_units() -> None:
    units = {"sp": 47.0, "sv": 66.0, "dec": 5.0, "es": 0.1, "ev": 0.3, "base": 0.1, "make": 0.5, "check": 0.6,
             "faces": 0.0, "perm": 0.0, "shp": 0.15, "shv": 0.27}
    two = combat.combat_start(units, 0.5, 10, 2)
    # every seat: ten steps of prove, sign, hop, envelope check and verify
    assert two["every_seat_shuffle_ms"] == round(10 * (47 + 0.1 + 0.5 + 0.3 + 66), 1)
    # pipelined: at least one proof and every step checked on each peer's core, less than sequential
    assert 47 + 2 * 66 <= two["pipelined_shuffle_ms"] < two["drawers_shuffle_ms"]
    assert combat.shufflers(1) == 2 and combat.shufflers(3) == 3

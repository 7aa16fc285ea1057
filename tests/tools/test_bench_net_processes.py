"""tools.bench net: seats in their own processes, and the critical-path model (no timing asserted).

The process benchmark starts one real peer process per seat; this checks they
link up, answer round trips and roll in one phase with every seat deriving
the same faces. The model is checked against its formula with made-up costs.
"""

from __future__ import annotations

import pytest

from tools.bench import _dice_model as model
from tools.bench._net_procs import dice_rolls, round_trips


@pytest.mark.slow
def test_seats_in_their_own_processes_link_round_trip_and_roll_in_one_phase() -> None:
    rt = round_trips(3, 8)
    assert 0 < rt["median"] <= rt["p95"]
    rolls = dice_rolls(3, 3, gap=0.15)
    assert rolls["phases"] == 1 and rolls["count"] == 3
    assert 0 < rolls["seat0"]["median"] and 0 < rolls["median"] <= rolls["p95"]
    old = dice_rolls(3, 3, gap=0.15, protocol="commit-reveal")  # the dice of records before issue 26
    assert old["phases"] == 2 and old["count"] == 3 and 0 < old["median"] <= old["p95"]


def test_the_critical_path_model_follows_its_formula() -> None:
    costs = {"es": 0.1, "ev": 0.3, "base": 0.05, "make": 0.2, "check": 0.25, "faces": 0.01, "commit": 0.02,
             "open": 0.02, "legacy_faces": 0.01}
    assert model.hop_ms(costs, 2.0) == pytest.approx(0.6)
    assert model.hop_ms(costs, 0.1) == 0.0  # never negative
    path = model.critical_path(costs, 0.5, 10)
    assert path["one_phase_ms"] == pytest.approx(0.05 + 0.2 + 0.1 + 0.5 + 9 * (0.3 + 0.25) + 0.01)
    assert path["commit_reveal_ms"] == pytest.approx(0.02 + 0.1 + 0.5 + 9 * 0.3 + 0.1 + 0.5 + 9 * 0.32 + 0.01)
    assert path["one_phase_phases"] == 1 and path["commit_reveal_phases"] == 2


def test_unit_costs_are_measured_for_every_term_of_the_model() -> None:
    costs = model.unit_costs()
    assert set(costs) == {"es", "ev", "base", "make", "check", "faces", "commit", "open", "legacy_faces"}
    assert all(c > 0 for c in costs.values())

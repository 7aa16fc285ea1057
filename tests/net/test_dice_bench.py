"""The dice benchmark's roll is a real, verified roll (no timing asserted here)."""

from __future__ import annotations

from tools.bench import _dice


def test_benchmark_roll_is_a_complete_verified_roll() -> None:
    genesis, ids = _dice._table(3)
    faces = _dice.one_roll(genesis, ids, step=1)
    assert len(faces) == 2 and all(1 <= f <= 6 for f in faces)


def test_benchmark_one_phase_roll_is_a_complete_verified_roll() -> None:
    genesis, ids = _dice._table(3)
    faces = _dice.one_vrf_roll(genesis, ids, step=1)
    assert len(faces) == 2 and all(1 <= f <= 6 for f in faces)
    assert _dice.one_vrf_roll(genesis, ids, step=1) == faces  # the keys and the context fix the faces

"""The crypto benchmark measures real, verified work (no timing is asserted here)."""

from __future__ import annotations

import pytest

from net.poker import group as g
from tools.bench import crypto


def test_breakdown_counts_the_documented_operations() -> None:
    """docs/security-cards.md says a step verifies with 8N+4 variable-base
    multiplications and proves with 6N+1; the bench counts them on a real proof."""
    unit = {f"{op}_us": 1.0 for op in ("scalarmult", "scalarmult_base", "point_add", "point_validate")}
    n = 6
    originals = (g.mul, g.total, g.decode_point)
    figures = crypto.breakdown(n, unit)
    assert figures["verify"]["count"]["scalarmult"] == 8 * n + 4
    assert figures["verify"]["count"]["point_validate"] == 4 * n
    assert figures["prove"]["count"]["scalarmult"] == 6 * n + 1
    # the counting wrapper is removed again afterwards
    assert (g.mul, g.total, g.decode_point) == originals


def test_shuffle_figures_time_a_verified_shuffle() -> None:
    prove_ms, verify_ms = crypto.shuffle_figures(4, repeat=1)
    assert prove_ms > 0 and verify_ms > 0


def test_unknown_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert crypto.main(["--fast"]) == 2
    assert "usage" in capsys.readouterr().err

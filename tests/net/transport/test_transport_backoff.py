"""Reconnection delay schedule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from net.transport.backoff import Backoff


def test_doubles_from_half_a_second_up_to_thirty() -> None:
    b = Backoff(jitter=0.0)
    assert [b.next_delay() for _ in range(9)] == [0.5, 1, 2, 4, 8, 16, 30, 30, 30]
    b.reset()
    assert b.next_delay() == 0.5


def test_survives_very_long_outages() -> None:
    b = Backoff(jitter=0.0)
    for _ in range(10_000):
        delay = b.next_delay()
    assert delay == 30


@settings(max_examples=30)
@given(st.floats(0, 0.999999), st.integers(0, 20))
def test_jitter_stays_within_ten_percent(r: float, attempts: int) -> None:
    plain = Backoff(jitter=0.0, attempts=attempts).next_delay()
    jittered = Backoff(rng=lambda: r, attempts=attempts).next_delay()
    assert 0.9 * plain <= jittered <= 1.1 * plain


def test_jitter_spreads_delays_over_the_whole_ten_percent_band() -> None:
    """The extremes of the random source map to -10% and +10%: jitter is applied."""
    assert Backoff(rng=lambda: 0.0).next_delay() == 0.45
    assert Backoff(rng=lambda: 0.5).next_delay() == 0.5
    assert Backoff(rng=lambda: 1.0, attempts=20).next_delay() == 33.0
    delays = {Backoff(attempts=3).next_delay() for _ in range(20)}  # the real random source
    assert len(delays) > 1 and all(3.6 <= d <= 4.4 for d in delays)

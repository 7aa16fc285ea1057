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

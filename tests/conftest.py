"""Test-wide settings: headless SDL, and a Hypothesis profile that is
deterministic (derandomized) so CI runs are repeatable."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "fairtable", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("fairtable")

"""Test-wide settings: headless SDL, a Hypothesis profile that is
deterministic (derandomized) so CI runs are repeatable, and private user
folders for every test."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "fairtable", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("fairtable")


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keys, settings, journals and transcripts that a test (or a peer process
    it starts, which inherits the environment) writes go to a temporary
    folder, never into the user's real ones."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test with real processes or a real wormhole (``e2e``, ``online``) is also ``slow``: those
    are the suite's long poles, so ``pytest -m "not slow"`` (the fast lane) leaves them out."""
    for item in items:
        if item.get_closest_marker("e2e") or item.get_closest_marker("online"):
            item.add_marker(pytest.mark.slow)

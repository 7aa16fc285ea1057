"""Test-wide settings: headless SDL, a Hypothesis profile that is
deterministic (derandomized) so CI runs are repeatable, private user
folders for every test, and a check that no test leaves a timer on the
global Twisted reactor (a leftover one fails a later trial test on the
same worker, far from its cause)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from hypothesis import HealthCheck, settings
from twisted.internet import error
from twisted.python import failure

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


@pytest.fixture(autouse=True)
def clean_reactor() -> Iterator[None]:
    """Fail the test that leaves work on the global reactor, and clean it up, so the failure
    is reported here and not by whichever trial test runs next on this worker.

    Closing a port or a connection finishes on the reactor's next turns, so the reactor is
    first given a bounded moment to finish what is due; whatever is still pending or open
    after that (a LoopingCall still running, a timeout, a socket) is the test's leftover."""
    from twisted.internet import reactor

    calls_before = {id(call) for call in reactor.getDelayedCalls()}  # type: ignore[attr-defined]
    sockets_before = {id(s) for s in reactor.getReaders() + reactor.getWriters()}  # type: ignore[attr-defined]

    def left_calls() -> list[Any]:
        return [call for call in reactor.getDelayedCalls()  # type: ignore[attr-defined]
                if id(call) not in calls_before and call.active()]

    def left_sockets() -> list[Any]:
        return [s for s in reactor.getReaders() + reactor.getWriters()  # type: ignore[attr-defined]
                if id(s) not in sockets_before]

    yield
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline and (left_sockets() or any(
            call.getTime() <= reactor.seconds() + 0.05 for call in left_calls())):  # type: ignore[attr-defined]
        reactor.iterate(0.01)  # type: ignore[attr-defined]
    calls, sockets = left_calls(), left_sockets()
    described = [str(call) for call in calls] + [repr(s) for s in sockets]
    for call in calls:
        call.cancel()
    for selectable in sockets:
        reactor.removeReader(selectable)  # type: ignore[attr-defined]
        reactor.removeWriter(selectable)  # type: ignore[attr-defined]
        selectable.connectionLost(failure.Failure(error.ConnectionDone("left open by a test")))
    if described:
        pytest.fail("the test left work on the global reactor: " + "; ".join(described))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test with real processes or a real wormhole (``e2e``, ``online``) is also ``slow``: those
    are the suite's long poles, so ``pytest -m "not slow"`` (the fast lane) leaves them out."""
    for item in items:
        if item.get_closest_marker("e2e") or item.get_closest_marker("online"):
            item.add_marker(pytest.mark.slow)



@pytest.fixture(autouse=True)
def grouping_honoured(request: pytest.FixtureRequest) -> None:
    """Fail a grouped test that ``--dist loadgroup`` did not group. xdist marks a grouped test
    by a suffix on its node id, which pytest 9.2 no longer lets it set (pytest-xdist issue
    1386); the 300 Locke games would then be played again on every worker, silently doubling
    the suite's longest part. pyproject.toml keeps pytest below 9.2 for this."""
    node = request.node
    if (os.environ.get("PYTEST_XDIST_WORKER") and getattr(request.config.option, "loadgroup", False)
            and node.get_closest_marker("xdist_group") and "@" not in node.nodeid):
        pytest.fail(f"pytest-xdist did not group {node.nodeid} (pytest {pytest.__version__}): "
                    "install the pytest version pyproject.toml asks for (pip install -e '.[test]')")

"""Every Locke test's games are traced and compared with the record made before the engine
rebuild (tests/engine/locke/behaviour.py, fixtures/traces.json).

The trace of a test is what its games showed the table, in order: each input's kind
and data, the public events it caused, the outcome once judged, and each refusal's
error type and rule id. Set ``FAIRTABLE_LOCKE_TRACE=record`` (with ``-n 0``) to
rewrite the record, ``off`` to skip the comparison.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core.errors import EngineError
from engine.locke.game import LockeGame
from tests.engine.locke import behaviour

MODE = os.environ.get("FAIRTABLE_LOCKE_TRACE", "check")
_recorded: dict[str, list[Any]] = {}


def _shown(old_events: int, new: Any, judged_before: bool) -> list[Any]:
    entry: list[Any] = [behaviour.jsonable(list(e)) for e in new.events[old_events:]]
    if new.result is not None and not judged_before:
        entry.append(["outcome", new.ending, behaviour.jsonable(new.result.__canonical__())])
    return entry


@pytest.fixture(autouse=True)
def locke_trace(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if MODE == "off":
        yield
        return
    trace: list[Any] = []
    apply, new_game, settle = LockeGame.apply, LockeGame.new_game, LockeGame.settle

    def traced_apply(self: LockeGame, state: Any, action: Any) -> Any:
        try:
            new = apply(self, state, action)
        except EngineError as exc:
            if behaviour.tracing():
                trace.append(["refused", action.to_data(), type(exc).__name__, getattr(exc, "rule", None)])
            raise
        if behaviour.tracing():
            trace.append(["input", action.to_data(), _shown(len(state.events), new, state.result is not None)])
        return new

    def traced_new_game(self: LockeGame, players: int) -> Any:
        state, knowledge = new_game(self, players)
        if behaviour.tracing():
            trace.append(["new", players, _shown(0, state, False)])
        return state, knowledge

    def traced_settle(self: LockeGame, state: Any) -> Any:
        new = settle(self, state)
        if behaviour.tracing():
            trace.append(["settled", _shown(len(state.events), new, state.result is not None)])
        return new

    monkeypatch.setattr(LockeGame, "apply", traced_apply)
    monkeypatch.setattr(LockeGame, "new_game", traced_new_game)
    monkeypatch.setattr(LockeGame, "settle", traced_settle)
    yield
    if not trace:
        return
    key = request.node.nodeid
    got = [len(trace), behaviour.trace_digest(trace)]
    if MODE == "record":
        _recorded[key] = got
        return
    want = _expected().get(key)
    if want is not None and want != got:
        pytest.fail(
            f"{key}: its games no longer show the table what they showed when "
            f"{behaviour.TRACES.name} was recorded ({want[0]} traced inputs then, {got[0]} now). "
            "Find the first differing event by recording at the older commit; re-record only for an "
            "intended change of behaviour (tests/engine/locke/behaviour.py says how).",
            pytrace=False,
        )


_EXPECTED: dict[str, list[Any]] | None = None


def _expected() -> dict[str, list[Any]]:
    global _EXPECTED
    if _EXPECTED is None:
        _EXPECTED = json.loads(behaviour.TRACES.read_text()) if behaviour.TRACES.exists() else {}
    return _EXPECTED


def pytest_sessionfinish(session: pytest.Session) -> None:
    if MODE != "record" or not _recorded:
        return
    if hasattr(session.config, "workerinput"):
        raise pytest.UsageError("record the Locke traces with -n 0 (one process sees every test)")
    old = _expected()
    collected = {item.nodeid for item in session.items}
    if len(collected) > 1000:  # a whole-directory record: the keys of tests that are gone go too
        old = {key: value for key, value in old.items() if key in collected}
    merged = {**old, **_recorded}
    behaviour.FIXTURES.mkdir(exist_ok=True)
    behaviour.TRACES.write_text(json.dumps(dict(sorted(merged.items())), indent=0) + "\n")

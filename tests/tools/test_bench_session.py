"""tools.bench session: its verdicts are read, not its wording.

The suite once compared each verdict's multi-line text with "ok", so it
reported ``all_verified: false`` for games whose transcripts verified. This
plays one real Rider game and checks the report says it verified, and that a
record with one envelope dropped is reported as not verified, by number and reason.
"""

from __future__ import annotations

from typing import Any

from tools.bench.session import _rider_game, rider_summary, verification
from tests.net.session.harness import rider_table


def test_a_verified_rider_game_is_reported_verified() -> None:
    game = _rider_game(0)
    assert game["verified"] is True and game["verify"].startswith("ok")
    summary = rider_summary([game])
    assert summary["all_verified"] is True and summary["not_verified"] == []


def test_a_record_that_fails_is_reported_not_verified_and_named() -> None:
    table, _, _ = rider_table(seed=4)
    table.start()
    table.run()
    transcript: dict[str, Any] = dict(table.sessions[0].transcript())
    assert verification(transcript)[0] is True
    transcript["envelopes"] = list(transcript["envelopes"])
    del transcript["envelopes"][len(transcript["envelopes"]) // 2]
    ok, said = verification(transcript)
    assert ok is False and not said.startswith("ok")
    base = {"wall_s": 1.0, "cpu_s": 1.0, "verify_s": 0.1, "envelopes": 9, "bytes": 9, "steps": 9}
    summary = rider_summary([{**base, "verified": True, "verify": "ok"}, {**base, "verified": ok, "verify": said}])
    assert summary["all_verified"] is False and summary["not_verified"] == [f"game 1: {said}"]

"""net/replay.py: a saved record replayed step by step under the verifier (issue 32 item 2):
every position the check accepted, the same state hashes as the record, and a tampered record
shows the positions before its failing step and the verdict naming it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.core import hash_of
from engine.core.encoding import decode, encode
from net.replay import ReplayError, load_replay
from net.transcript import load_raw, parse_local
from harness import tiny_table
from tools import match


def _local_record(tmp_path: Path, game: str = "tiny", *extra: str) -> Any:
    path = tmp_path / f"{game}.json"
    assert match.main([game, *extra, "--seed", "3", "--save", str(path), "--json"]) == 0
    return load_raw(path)


def test_a_local_record_replays_position_by_position_with_its_hashes(tmp_path: Path) -> None:
    data = _local_record(tmp_path, "tiny", "--seats", "4", "--bots", "random")
    replay = load_replay(data)
    record = parse_local(data)
    assert replay.verdict.ok and replay.entry.name == "tiny" and len(replay.names) == 4
    assert replay.steps == len(record.inputs)
    setup_game = replay.entry.local(record.setup, None).game
    assert hash_of(setup_game, replay.state_at(0)) == record.initial_hash
    for n in range(1, replay.steps + 1):
        assert hash_of(setup_game, replay.state_at(n)) == record.hashes[n - 1]
    assert replay.state_at(-5) is replay.first and replay.state_at(10**6) is replay.frames[-1].state
    assert replay.failing_position() is None


def test_a_networked_transcript_replays_with_every_input_the_seats_applied() -> None:
    table, _ = tiny_table(3)
    table.start()
    table.run()
    session = table.sessions[0]
    replay = load_replay(decode(encode(session.transcript())))
    assert replay.verdict.ok and len(replay.names) == 3
    # the session's hashes start with the first state's
    assert hash_of(session.game, replay.first) == session.hashes[0]
    assert [hash_of(session.game, f.state) for f in replay.frames] == list(session.hashes[1:])
    assert replay.frames[-1].state == session.state


def test_a_tampered_local_record_shows_the_positions_before_its_failing_step(tmp_path: Path) -> None:
    data = _local_record(tmp_path, "tiny", "--seats", "3", "--bots", "random")
    inputs = [dict(item) for item in data["inputs"]]
    broken = len(inputs) // 2
    inputs[broken]["hash"] = bytes(32)  # the record changed after the game: one state hash differs
    replay = load_replay({**data, "inputs": inputs})
    assert not replay.verdict.ok and replay.verdict.step == broken
    assert replay.steps == broken and replay.failing_position() == broken


@pytest.mark.parametrize("bad", [[], {"format": "nonsense"}, {"format": "fairtable.transcript/1", "genesis": {}}])
def test_what_is_not_a_record_is_said_in_words(bad: Any) -> None:
    with pytest.raises(ReplayError, match="not a game record|no position"):
        load_replay(bad)

"""``tools.verify`` on input that is not a transcript: a missing file is an
input problem (exit 2, says to check the path); a file of another kind is a
failed verification (exit 1) whose JSON verdict says "format" and why.
(Tampered real transcripts are tested in tests/net/session/test_transcript_tamper.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools import verify as verify_tool


def test_a_missing_file_exits_2_and_says_to_check_the_path(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.ft"
    assert verify_tool.main([str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and str(missing) in captured.err and "check the path" in captured.err


@pytest.mark.parametrize("content", [b"not a transcript", b"", b"d1:ai1ee"])
def test_a_file_that_is_not_a_transcript_fails_as_format(tmp_path: Path, content: bytes,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.ft"
    path.write_bytes(content)
    assert verify_tool.main([str(path), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is False and verdict["reason"] == "format" and verdict["detail"]
    assert verdict["step"] is None and verdict["seat"] is None
    assert verify_tool.main([str(path)]) == 1
    assert capsys.readouterr().out.strip() != "ok"


def test_an_earlier_clients_local_save_is_named_and_refused(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The client's JSON local save before the one local record (docs/architecture.md "Game records")."""
    path = tmp_path / "rider-old.json"
    path.write_text(json.dumps({"format": "fairtable.transcript/1", "rules": "rider/1", "inputs": []}),
                    encoding="utf-8")
    assert verify_tool.main([str(path)]) == 1
    out = capsys.readouterr().out
    assert "earlier client's local save" in out and "Game records" in out


FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rider-pre-registry.ft"


def test_a_rider_transcript_saved_before_the_game_registry_still_verifies(capsys: pytest.CaptureFixture[str]) -> None:
    """tests/fixtures/rider-pre-registry.ft was saved by ``tools.match rider --net tcp --seed 11`` at commit
    8957fa6, before the game registry (issue 10) moved Rider's set-up: the format did not change."""
    assert verify_tool.main([str(FIXTURE), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["audit"] == "ok" and verdict["outcome"]["winner"] == 0
    assert [s["name"] for s in verdict["seats"]] == ["peer0", "peer1"]


def test_a_record_file_over_the_size_bound_is_refused_unread_with_what_to_do(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """net.transcript.MAX_RECORD_BYTES: a (sparse) file one byte over it fails as format, not as an
    out-of-memory; the message says what happened and what to check."""
    from net.transcript import MAX_RECORD_BYTES, TranscriptError, load_raw, read_record_bytes

    huge = tmp_path / "huge.ft"
    with huge.open("wb") as handle:
        handle.truncate(MAX_RECORD_BYTES + 1)  # sparse: nothing is written, nothing need be read
    assert verify_tool.main([str(huge), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is False and verdict["reason"] == "format"
    assert "larger than 64 MiB" in verdict["detail"] and "record file itself" in verdict["detail"]
    with pytest.raises(TranscriptError, match="larger than"):
        load_raw(huge)
    small = tmp_path / "small.ft"
    small.write_bytes(FIXTURE.read_bytes())
    assert read_record_bytes(small) == FIXTURE.read_bytes()  # a real record is well under the bound
    with pytest.raises(TranscriptError, match="larger than 1000 bytes"):
        read_record_bytes(small, limit=1000)


@pytest.mark.parametrize("cut", [1, 2, 3, 7])
def test_a_record_cut_short_fails_as_format_and_says_to_copy_it_again(tmp_path: Path, cut: int,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    whole = FIXTURE.read_bytes()
    path = tmp_path / "cut.ft"
    path.write_bytes(whole[: len(whole) * cut // 8])
    assert verify_tool.main([str(path), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is False and verdict["reason"] == "format" and "cut short" in verdict["detail"]
    assert verify_tool.main([str(path)]) == 1
    assert "copy the record again whole" in capsys.readouterr().out


def test_garbage_bytes_fail_as_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    path = tmp_path / "noise.ft"
    path.write_bytes(random.Random(5).randbytes(4096))
    assert verify_tool.main([str(path), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is False and verdict["reason"] == "format" and verdict["detail"].startswith("not a")

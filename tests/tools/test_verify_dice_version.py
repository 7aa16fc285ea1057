"""``tools.verify`` names a record's dice protocol (issue 26 changed it).

A record saved before issue 26 (tests/fixtures/rider-pre-registry.ft) rolls
commit-reveal dice and still verifies, saying so; a new record rolls one-phase
dice and says so; a record naming a dice protocol this release does not know
fails as "format" and says to update Fairtable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core.encoding import decode, encode
from net.envelope import DICE_COMMIT_REVEAL, DICE_VRF
from net.transcript import save
from tests.net.session.harness import tiny_table
from tools import verify as verify_tool

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rider-pre-registry.ft"


def _verdict(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any], str]:
    code = verify_tool.main([str(path), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert verify_tool.main([str(path)]) == code
    return code, data, capsys.readouterr().out


def test_a_record_from_before_issue_26_verifies_and_names_commit_reveal_dice(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, data, text = _verdict(FIXTURE, capsys)
    assert code == 0 and data["ok"] and data["dice"] == DICE_COMMIT_REVEAL
    assert "dice: commit-reveal dice, two network phases per roll (records made before issue 26)" in text


@pytest.mark.parametrize("dice", [DICE_VRF, DICE_COMMIT_REVEAL])
def test_a_new_record_names_its_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str], dice: str) -> None:
    table, _ = tiny_table(3, dice=dice)
    table.start()
    table.run()
    path = tmp_path / "tiny.ft"
    save(path, table.sessions[0].transcript())
    code, data, text = _verdict(path, capsys)
    assert code == 0 and data["ok"] and data["dice"] == dice
    kinds = {e.kind for e in table.sessions[0].envelopes()}
    if dice == DICE_VRF:
        assert "dice: one-phase dice, a verifiable random function per seat (vrf-dleq/v1)" in text
        assert "roll" in kinds
    else:
        assert "roll" not in kinds and "dice: commit-reveal dice" in text


@pytest.mark.parametrize("dice", [5, {"name": DICE_VRF}, b"vrf-dleq/v1", DICE_COMMIT_REVEAL])
def test_a_dice_field_that_is_not_a_protocol_name_fails_as_format(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  dice: Any) -> None:
    """Not text, or the commit-reveal name written out (its records never carry the field, so a
    record with it would be a second encoding of the same game): refused, said, never a crash."""
    table, _ = tiny_table(2)
    table.start()
    table.run()
    record = decode(encode(table.sessions[0].transcript()))
    record = {**record, "genesis": {**record["genesis"], "dice": dice}}
    path = tmp_path / "odd.ft"
    save(path, record)
    code, data, _ = _verdict(path, capsys)
    assert code == 1 and data["reason"] == "format", data
    assert "dice" in data["detail"], data


def test_a_record_of_an_unknown_dice_protocol_says_to_update(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    table, _ = tiny_table(2)
    table.start()
    table.run()
    record = decode(encode(table.sessions[0].transcript()))
    record = {**record, "genesis": {**record["genesis"], "dice": "vrf-dleq/v2"}}
    path = tmp_path / "future.ft"
    save(path, record)
    code, data, _ = _verdict(path, capsys)
    assert code == 1 and data["reason"] == "format"
    assert "'vrf-dleq/v2'" in data["detail"] and "update Fairtable" in data["detail"]

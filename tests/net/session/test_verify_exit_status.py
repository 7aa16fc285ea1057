"""``tools.verify`` tells by its exit status a proven result from one resting on a claim
of silence (issue 30, smaller item; tools/verify.py documents the codes).

0: a normal, audited end, or a resignation (the loser's own signed word); 3: the
record checks out but its result rests on a forfeit or an abandonment claim,
which no record can prove (before, 0: a script read a loser's self-made forfeit
record as a result); 1: refused. Tiny, in process, records saved to files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness import tiny_table
from test_session_forfeits import G, T, Net, hostile_claim, make, to_staller_turn

from net.session import Session
from net.transcript import save
from tools import verify as verify_tool


def _exit(s: Session, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    path = tmp_path / f"seat{s.seat}.ft"
    save(path, s.transcript())
    code = verify_tool.main([str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_normal_end_and_a_resignation_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table, _ = tiny_table(3)
    table.start()
    table.run()
    code, verdict = _exit(table.sessions[0], tmp_path, capsys)
    assert code == 0 and verdict["end"] == "normal end" and verdict["unproven"] is False
    table, _ = tiny_table(3)
    table.sessions[1].agent = None
    table.start()
    table.run()
    table.post(1, table.sessions[1].resign())
    table.run()
    code, verdict = _exit(table.sessions[0], tmp_path, capsys)
    assert code == 0 and str(verdict["end"]).startswith("resignation"), verdict


def test_a_losers_self_made_forfeit_record_exits_3_not_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two seats: the cheater claims the moment the victim's turn starts and keeps its own
    record, in which the victim never answered. It verifies as a record, resting on a claim."""
    sessions = make(2)
    net = Net(sessions)
    to_staller_turn(net, 1)
    cheater = sessions[0]
    hostile_claim(cheater, 1)
    cheater.tick(G + 1)  # its own session applies its own claim once the grace period passed
    assert cheater.finished and cheater.forfeited == 1
    code, verdict = _exit(cheater, tmp_path, capsys)
    assert code == 3 and verdict["ok"] is True and verdict["end"] == "forfeit claim", verdict  # before: 0
    assert verdict["unproven"] is True


def test_an_abandoned_game_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sessions = make(3)
    net = Net(sessions)
    to_staller_turn(net, 1)
    net.tick(3 * T + 1, seats=[0])
    net.run()
    net.post(0, sessions[0].claim_abandon())
    net.run()
    net.tick(3 * T + 2 + G, seats=[0])
    net.run()
    assert sessions[0].finished
    code, verdict = _exit(sessions[0], tmp_path, capsys)
    assert code == 3 and verdict["end"] == "abandonment claim" and verdict["abandoned"] is not None, verdict

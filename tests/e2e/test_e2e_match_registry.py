"""Acceptance of the game registry (issue 10): a game registered once, in net/games/, plays over
real processes with no other edit: ``tools.match tiny --net tcp --save F`` runs three peer
processes and ``tools.verify F`` accepts the transcript."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.match_tcp import ROOT, peer_env

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=ROOT, env=peer_env(),
                          timeout=120)


def test_tools_match_tiny_over_three_processes_saves_a_transcript_that_tools_verify_accepts(tmp_path: Path) -> None:
    saved = tmp_path / "tiny.ft"
    played = _run("tools.match", "tiny", "--net", "tcp", "--seed", "4", "--save", str(saved), "--json")
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert result["game"] == "tiny" and result["audit"] == "ok" and result["bots"] == ["random"] * 3
    checked = _run("tools.verify", str(saved), "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    verdict = json.loads(checked.stdout)
    assert verdict["ok"] and len(verdict["seats"]) == 3, verdict
    assert verdict["outcome"]["winner"] == result["winner"] and verdict["end"] == "normal end"


#: Whole Locke games between peer processes are long games, run on request (docs/testing.md): 45 s
#: (5 seats, 1421 inputs) and 310 s (10 seats, 2187 inputs) of a 2-core machine measured alone, and
#: twice that beside the rest of the suite, which stays within its time with them left out. The suite
#: keeps a whole networked Locke game to its audited end and verified transcript
#: (tests/client/test_client_locke_net.py) and the in-process networked games of
#: tests/net/session/test_locke_network.py.
LONG_GAMES = os.environ.get("FAIRTABLE_LONG_GAMES") == "1"


@pytest.mark.skipif(not LONG_GAMES, reason="a Locke game between real peer processes takes minutes: set "
                                           "FAIRTABLE_LONG_GAMES=1 to run it")
@pytest.mark.parametrize(("seats", "seed"), [(5, 1), (10, 2)])
def test_tools_match_locke_between_real_peers_saves_a_transcript_that_tools_verify_accepts(
        tmp_path: Path, seats: int, seed: int) -> None:
    """Issue 26: Super Human Locke between real processes on 127.0.0.1, audit ok, the record verifies."""
    saved = tmp_path / "locke.ft"
    played = subprocess.run([sys.executable, "-m", "tools.match", "locke", "--seats", str(seats), "--net", "tcp",
                             "--seed", str(seed), "--save", str(saved), "--json", "--net-timeout", "2400"],
                            capture_output=True, text=True, cwd=ROOT, env=peer_env(), timeout=2500)
    assert played.returncode == 0, played.stderr[-2000:]
    result = json.loads(played.stdout)
    assert result["game"] == "locke" and result["audit"] == "ok" and len(result["bots"]) == seats
    checked = subprocess.run([sys.executable, "-m", "tools.verify", str(saved), "--json"], capture_output=True,
                             text=True, cwd=ROOT, env=peer_env(), timeout=600)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-2000:]
    verdict = json.loads(checked.stdout)
    assert verdict["ok"] and len(verdict["seats"]) == seats and verdict["end"] == "normal end", verdict

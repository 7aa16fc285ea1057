"""``python -m tools.peer``: input it refuses before playing, each with exit
status 2 and a message that says what to do. Every case here is refused
before the reactor runs, so the tests call ``main`` in-process."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from engine.core.hashing import digest
from net.envelope import Genesis
from net.identity import Identity
from net.games import game_named
from net.peer import store
from net.transport.invite import Invite
from tools import peer as peer_tool


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert peer_tool.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no invite code, no result: nothing was played
    return captured.err


def test_a_port_already_in_use_is_refused_with_advice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        err = refused(["host", "--listen", "127.0.0.1", "--port", str(port), "--identity",
                       str(tmp_path / "id.pem")], capsys)
    assert "cannot open the network connection" in err and "pick another --port" in err
    assert "Traceback" not in err


def test_contradicting_network_options_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = str(tmp_path / "id.pem")
    err = refused(["host", "--listen", "127.0.0.1", "--advertise", "127.0.0.2", "--identity", key], capsys)
    assert "--advertise needs a fixed --port" in err
    code = Invite(bytes(8), Identity.from_seed(bytes(32)).fingerprint, (("127.0.0.1", 9),)).encode()
    err = refused(["join", code, "--no-listen", "--listen", "127.0.0.1", "--identity", key], capsys)
    assert "--no-listen cannot be combined with --listen or --port" in err


def test_an_unknown_game_and_a_bad_code_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = str(tmp_path / "id.pem")
    assert "no-such-game" in refused(["host", "--game", "no-such-game", "--identity", key], capsys)
    err = refused(["join", "FT1-NOT-A-CODE", "--identity", key], capsys)
    assert "bad invite code" in err


def test_resume_needs_a_directory_of_a_started_game_held_by_this_key(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "holds no peer of a started game" in refused(["resume", str(empty)], capsys)
    rider = game_named("rider")
    seats = tuple(Identity.from_seed(digest("fairtable/test-peer-tool", n)).public_key for n in (0, 1))
    genesis = Genesis(rider.rules_id, rider.rules_version, rider.card_set_hash(), seats,
                      {"deck_sizes": [24, 24], "names": ["a", "b"]}, (bytes(16),) * len(seats))
    saved = tmp_path / "seat1"
    store.save_peer(saved, {"role": "join", "game": "rider", "name": "b"})
    store.save_genesis(saved, genesis, 1)
    err = refused(["resume", str(saved), "--identity", str(tmp_path / "another.pem")], capsys)
    assert "does not hold the seat recorded in the directory" in err

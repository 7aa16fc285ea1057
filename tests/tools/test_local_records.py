"""One game-record format, one replayer: local records saved by the client and by tools.match.

A local Rider game (the client's local adapter, played to its end) and a
local Tiny game (tools.match) are saved in net/transcript.py's local format
and replayed by net.verifier (what ``tools.verify`` runs); every kind of
tampering with a saved local record is caught at its step with a clear
reason, and an old ``tools.match --log`` JSON log (tests/fixtures/
rider-match-log-v1.json, written before the local record existed) still
verifies.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from twisted.internet.task import Clock

from engine.core.encoding import encode
from net.transcript import LOCAL_FORMAT, MATCH_LOG_FORMAT, load_raw, save
from net.verifier import UNSIGNED, Verdict, verify
from tests.local_tables import play_out
from tools import match

ROOT = Path(__file__).resolve().parents[2]
OLD_LOG = ROOT / "tests" / "fixtures" / "rider-match-log-v1.json"


def _played_rider_record(tmp_path: Path) -> Path:
    """A local Rider game of the client's adapter (greedy bot against our random clicks), saved."""
    from client.rider.session import RiderSession, deck_cards
    from engine.rider.game import RiderGame
    from net.games.rider import DEFAULT_DECKS, cardset

    import assets

    decks = (deck_cards(assets.load_json(DEFAULT_DECKS[0])), deck_cards(assets.load_json(DEFAULT_DECKS[1])))
    clock = Clock()
    session = RiderSession(RiderGame(cardset()), decks, names=("Ann", "Greedy bot"), seed=3, clock=clock,
                           bot_delay=0.01, system_delay=0.01)
    play_out(session, clock, random.Random(4), limit=5000)
    assert session.audit()[0]  # the end screen's audit is the same replayer
    return session.save_transcript(tmp_path)


@pytest.fixture(scope="module")
def rider_record(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_raw(_played_rider_record(tmp_path_factory.mktemp("rider")))


@pytest.fixture(scope="module")
def tiny_record(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("tiny") / "tiny.ft"
    assert match.main(["tiny", "--seats", "4", "--seed", "9", "--save", str(path)]) == 0
    return load_raw(path)


def _verify_file(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tools.verify", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)


def test_a_local_rider_game_of_the_client_is_saved_and_replayed(rider_record: Any) -> None:
    assert rider_record["format"] == LOCAL_FORMAT
    assert list(rider_record["table"]["names"]) == ["Ann", "Greedy bot"]
    verdict = verify(rider_record)
    assert verdict.ok and verdict.table == "local" and verdict.end == "normal end", verdict
    assert [s["fingerprint"] for s in verdict.seats] == [UNSIGNED, UNSIGNED]
    assert "unsigned" in str(verdict) and "Ann" in str(verdict)


def test_a_local_tiny_game_is_saved_and_replayed_by_tools_verify(tiny_record: Any, tmp_path: Path) -> None:
    verdict = verify(tiny_record)
    assert verdict.ok and verdict.table == "local" and len(verdict.seats) == 4, verdict
    path = tmp_path / "tiny.ft"
    save(path, tiny_record)
    checked = _verify_file(path)
    assert checked.returncode == 0 and checked.stdout.startswith("ok: a local game's record"), checked.stdout
    assert "seat 4: random bot, unsigned (local table)" in checked.stdout  # people count seats from 1


def _copy(value: Any) -> Any:
    """A deep, editable copy of decoded data (the decoder gives tuples for lists)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value


def _failed(record: Any) -> Verdict:
    verdict = verify(record)
    assert not verdict.ok and verdict.table == "local", verdict
    return verdict


@pytest.mark.parametrize("which", ["rider", "tiny"])
def test_tampering_with_a_saved_local_record_is_caught_at_its_step(which: str, rider_record: Any,
                                                                   tiny_record: Any) -> None:
    original = rider_record if which == "rider" else tiny_record
    options = {"rider": ("A", "B"), "tiny": ("high", "low")}[which]  # two options of the game's sealed choice
    sealed = next(i for i, item in enumerate(original["inputs"]) if item["input"]["kind"] == "sealed_revealed")

    changed = _copy(original)  # a sealed choice turned to another option (a legal input: only the hash tells)
    choices = changed["inputs"][sealed]["input"]["choices"]
    choices[0] = options[1] if choices[0] == options[0] else options[0]
    verdict = _failed(changed)
    assert (verdict.step, verdict.reason) == (sealed, "state hash")
    assert "differs from the recorded one: the record was changed after the game" in verdict.detail

    rehashed = _copy(original)  # a recorded hash replaced
    rehashed["inputs"][2]["hash"] = bytes(32)
    assert (_failed(rehashed).step, _failed(rehashed).reason) == (2, "state hash")

    illegal = _copy(original)  # an input the rules refuse: a choice that is no option
    illegal["inputs"][sealed]["input"]["choices"][0] = "no such option"
    verdict = _failed(illegal)
    assert (verdict.step, verdict.reason) == (sealed, "refused") and "refused by the rules" in verdict.detail

    garbled = _copy(original)  # not an input of the game at all
    garbled["inputs"][1]["input"] = {"kind": "no-such-input", "seat": 0}
    assert (_failed(garbled).step, _failed(garbled).reason) == (1, "malformed input")

    cut = _copy(original)  # the last inputs dropped: every remaining hash still matches
    del cut["inputs"][-3:]
    verdict = _failed(cut)
    assert verdict.reason == "final hash" and "removed from the end" in verdict.detail

    swapped = _copy(original)  # another set-up than the one played
    swapped["table"]["initial_hash"] = bytes(32)
    assert (_failed(swapped).step, _failed(swapped).reason) == (0, "set-up")

    won = _copy(original)  # the outcome rewritten
    won["end"]["outcome"]["reason"] = "everybody won"
    assert _failed(won).reason == "outcome"

    other = _copy(original)  # another version of the game
    other["table"]["rules_version"] = "0"
    detail = _failed(other).detail
    assert _failed(other).reason == "set-up" and "rules version '0'" in detail and "version '1'" in detail

    components = _copy(original)  # the same rules over other components
    components["table"]["card_set_hash"] = bytes(32)
    assert "components" in _failed(components).detail

    assert verify(_copy(original)).ok  # the copies were the only ones changed


def test_a_locke_record_of_older_rules_is_refused_naming_both_versions(tmp_path: Path) -> None:
    """A Locke game saved before the engine rebuild (rules version 1) cannot replay on the typed
    steps (version 2): tools.verify says which version played it and which one is here."""
    from net.games.locke import RULES_VERSION

    path = tmp_path / "locke.ft"
    assert match.main(["locke", "--bots", "random", "--seats", "5", "--seed", "2", "--save", str(path)]) == 0
    record = load_raw(path)
    assert verify(_copy(record)).ok
    older = _copy(record)
    older["table"]["rules_version"] = "1"
    verdict = _failed(older)
    assert verdict.reason == "set-up"
    assert "rules version '1'" in verdict.detail and f"version {RULES_VERSION!r}" in verdict.detail


def test_a_malformed_local_record_is_a_format_failure_not_a_traceback(tiny_record: Any) -> None:
    for broken in ({**tiny_record, "extra": 1}, {**tiny_record, "inputs": "none"},
                   {**tiny_record, "table": {**tiny_record["table"], "seed": "x"}},
                   {**tiny_record, "end": {**tiny_record["end"], "conceded": 12}},
                   {**tiny_record, "inputs": [{"input": {}, "hash": b"short"}]}):
        verdict = verify(broken)
        assert not verdict.ok and verdict.reason == "format", verdict


def test_a_record_of_a_running_game_fails_unless_the_end_is_not_required(tiny_record: Any) -> None:
    from net.verifier import verify_local

    running = _copy(tiny_record)
    del running["inputs"][5:]
    running["end"] = {"outcome": None, "conceded": None, "final_hash": running["inputs"][4]["hash"]}
    verdict = _failed(running)
    assert (verdict.step, verdict.reason) == (5, "incomplete") and "save it after the end" in verdict.detail
    partial = verify_local(running, require_end=False)  # the client's audit of a table that stopped early
    assert partial.ok and partial.end == "unfinished", partial
    running["inputs"][2]["hash"] = bytes(32)
    assert verify_local(running, require_end=False).reason == "state hash"


def test_a_tampered_record_file_fails_tools_verify_with_exit_1(tiny_record: Any, tmp_path: Path) -> None:
    tampered = _copy(tiny_record)
    tampered["inputs"][3]["hash"] = bytes(32)
    path = tmp_path / "tampered.ft"
    path.write_bytes(encode(tampered))
    checked = _verify_file(path)
    assert checked.returncode == 1 and checked.stdout.startswith("FAILED at step 3"), checked.stdout


def test_an_old_match_log_still_verifies_and_its_tampering_is_caught(tmp_path: Path) -> None:
    """The JSON log tools.match --log wrote before the local record (format fairtable.match-log/1)."""
    old = json.loads(OLD_LOG.read_text(encoding="utf-8"))
    assert old["format"] == MATCH_LOG_FORMAT
    verdict = verify(load_raw(OLD_LOG))
    assert verdict.ok and verdict.table == "local" and verdict.outcome is not None, verdict
    assert verdict.outcome["reason"] == old["outcome"]["reason"]
    assert _verify_file(OLD_LOG).returncode == 0
    old["steps"][20]["hash"] = "00" * 32
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    verdict = verify(load_raw(path))
    assert not verdict.ok and (verdict.step, verdict.reason) == (20, "state hash")

"""Every tamper of a saved transcript makes tools.verify fail at the right
step, naming the seat responsible; an untouched transcript verifies."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from harness import identities, rider_table, tiny_table

from engine.core.encoding import decode, encode
from net.envelope import DICE_COMMIT_REVEAL, Envelope, sign_envelope
from net.poker import group as g
from net.transcript import save
from net.verifier import verify
from tools.verify import main as verify_main

ROOT = Path(__file__).resolve().parents[3]


@cache
def _tiny() -> bytes:
    table, _ = tiny_table(3)
    table.start()
    table.run()
    return encode(table.sessions[0].transcript())


@cache
def _rider() -> bytes:
    table, _, _ = rider_table(seed=4)
    table.start()
    table.run()
    return encode(table.sessions[0].transcript())


def _load(raw: bytes) -> dict[str, Any]:
    data = decode(raw)
    return {"format": data["format"], "genesis": data["genesis"], "envelopes": list(data["envelopes"])}


def _find(t: dict[str, Any], pred: Callable[[Envelope], bool]) -> int:
    for i, item in enumerate(t["envelopes"]):
        if pred(Envelope.from_data(item)):
            return i
    raise AssertionError("no such envelope")


def _step_of(t: dict[str, Any], kind: str, nth: int = 0) -> int:
    """The step of the ``nth`` distinct step that has envelopes of ``kind``."""
    steps = sorted({Envelope.from_data(e).seen.step for e in t["envelopes"] if e["kind"] == kind})
    return steps[nth]


def _resign(t: dict[str, Any], index: int, ids: list[Any], change: Callable[[dict[str, Any]], None]) -> None:
    """A cheating seat rewrites one of its envelopes and re-signs its chain from there."""
    env = Envelope.from_data(t["envelopes"][index])
    content = env.content()
    content["seen"] = env.seen.__canonical__()
    change(content)
    seat = env.seat
    prev = env.prev
    for i in range(index, len(t["envelopes"])):
        old = Envelope.from_data(t["envelopes"][i])
        if old.seat != seat:
            continue
        fields = content if i == index else {**old.content(), "seen": old.seen.__canonical__()}
        new = sign_envelope(ids[seat], game=old.game, seat=seat, seq=old.seq, prev=prev, kind=fields["kind"],
                            body=fields["body"], seen=tuple(fields["seen"]))
        t["envelopes"][i] = new.to_data()
        prev = new.digest()


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    if isinstance(value, dict):
        return {k: _thaw(v) for k, v in value.items()}
    return value


def _expect(t: dict[str, Any], step: int, seat: int, reason: str | None = None) -> None:
    verdict = verify(decode(encode(t)))
    assert not verdict.ok
    assert (verdict.step, verdict.seat) == (step, seat), str(verdict)
    if reason is not None:
        assert reason in verdict.reason, str(verdict)


@pytest.mark.slow
def test_untouched_transcripts_verify() -> None:
    assert verify(decode(_tiny())).ok
    assert verify(decode(_rider())).ok


def test_flipped_byte_in_a_signature() -> None:
    t = _load(_tiny())
    i = _find(t, lambda e: e.kind == "reveal" and e.seat == 2)
    env = dict(t["envelopes"][i])
    sig = bytearray(env["sig"])
    sig[10] ^= 0x01
    env["sig"] = bytes(sig)
    t["envelopes"][i] = env
    _expect(t, Envelope.from_data(env).seen.step, 2, "signature")


def test_altered_card_reveal_share_is_caught() -> None:
    """Seat 1 publishes a wrong decryption share for the card turned face up."""
    t = _load(_tiny())
    ids = identities(3, tag="tiny")
    reveal_step = max(Envelope.from_data(e).seen.step for e in t["envelopes"]
                      if e["kind"] == "shares" and e["seat"] == 2)
    i = _find(t, lambda e: e.kind == "shares" and e.seat == 1 and e.seen.step == reveal_step)

    def change(content: dict[str, Any]) -> None:
        body = _thaw(content["body"])
        body["parts"][0][1]["shares"][0]["share"] = g.BASE
        content["body"] = body

    _resign(t, i, ids, change)
    _expect(t, reveal_step, 1, "Proof")


def test_altered_card_opening_in_rider_is_caught() -> None:
    """Seat 0 opens a flipped face-down card as another card."""
    t = _load(_rider())
    ids = identities(2)
    i = _find(t, lambda e: e.kind == "open" and e.seat == 0)
    step = Envelope.from_data(t["envelopes"][i]).seen.step

    def change(content: dict[str, Any]) -> None:
        body = _thaw(content["body"])
        body["openings"][0][1] = "FT-001" if body["openings"][0][1] != "FT-001" else "FT-002"
        content["body"] = body

    _resign(t, i, ids, change)
    _expect(t, step, 0, "DeckListMismatch")


def test_two_envelopes_swapped() -> None:
    t = _load(_tiny())
    envs = t["envelopes"]
    i = next(k for k in range(len(envs) - 1) if envs[k]["seat"] != envs[k + 1]["seat"] and k > 5)
    moved = Envelope.from_data(envs[i])
    envs[i], envs[i + 1] = envs[i + 1], envs[i]
    _expect(t, moved.seen.step, moved.seat, "order")


@cache
def _tiny_commit_reveal() -> bytes:
    table, _ = tiny_table(3, dice=DICE_COMMIT_REVEAL)
    table.start()
    table.run()
    return encode(table.sessions[0].transcript())


def test_roll_output_changed() -> None:
    """One-phase dice: a seat re-signs its chain with another roll output; its proof fails."""
    t = _load(_tiny())
    ids = identities(3, tag="tiny")
    roll = _step_of(t, "roll")
    i = _find(t, lambda e: e.kind == "roll" and e.seat == 2 and e.seen.step == roll)

    def change(content: dict[str, Any]) -> None:
        body = _thaw(content["body"])
        body["out"] = g.base_mul(12345)  # a valid point, not its output
        content["body"] = body

    _resign(t, i, ids, change)
    _expect(t, roll, 2, "BadDiceProof")


def test_dice_key_copied_from_another_seat() -> None:
    """One-phase dice: a seat re-signs its chain with another seat's dice key announcement in its
    hello (a key it cannot prove it owns); the verifier names that seat at step 0."""
    t = _load(_tiny())
    ids = identities(3, tag="tiny")
    theirs = Envelope.from_data(t["envelopes"][_find(t, lambda e: e.kind == "hello" and e.seat == 1)])
    i = _find(t, lambda e: e.kind == "hello" and e.seat == 2)

    def change(content: dict[str, Any]) -> None:
        body = _thaw(content["body"])
        body["dice"] = _thaw(theirs.body["dice"])
        content["body"] = body

    _resign(t, i, ids, change)
    _expect(t, 0, 2, "BadDiceProof")


def test_dice_reveal_changed() -> None:
    t = _load(_tiny_commit_reveal())
    ids = identities(3, tag="tiny")
    roll = _step_of(t, "reveal", nth=1)  # the guess reveals come first, then the dice
    i = _find(t, lambda e: e.kind == "reveal" and e.seat == 2 and e.seen.step == roll)

    def change(content: dict[str, Any]) -> None:
        body = _thaw(content["body"])
        value = bytearray(body["reveal"]["value"])
        value[0] ^= 0xFF
        body["reveal"]["value"] = bytes(value)
        content["body"] = body

    _resign(t, i, ids, change)
    _expect(t, roll, 2, "DiceRevealMismatch")


@pytest.mark.parametrize("which", ["commit", "roll", "final"])
def test_envelope_removed(which: str) -> None:
    t = _load(_tiny())
    i = _find(t, lambda e: e.kind == which and e.seat == 1)
    step = Envelope.from_data(t["envelopes"][i]).seen.step
    del t["envelopes"][i]
    _expect(t, step, 1, "incomplete")


def test_signed_wrong_state_hash_is_caught() -> None:
    t = _load(_tiny())
    ids = identities(3, tag="tiny")
    i = _find(t, lambda e: e.kind == "action" and e.seat == 2)
    step = Envelope.from_data(t["envelopes"][i]).seen.step

    def change(content: dict[str, Any]) -> None:
        content["seen"] = (content["seen"][0], bytes(32))

    _resign(t, i, ids, change)
    _expect(t, step, 2, "state hash")


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.ft"
    good.write_bytes(_tiny())
    assert verify_main([str(good)]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert shown[0].startswith("ok: ") and "reached by: normal end" in shown
    keys = identities(3, tag="tiny")
    for seat in range(3):  # each seat with its key fingerprint, to check against the friends one played
        assert f"  seat {seat + 1}: (no name), key {keys[seat].fingerprint}" in shown  # printed for people
    t = _load(_tiny())
    del t["envelopes"][-1]
    bad = tmp_path / "bad.ft"
    save(bad, t)
    assert verify_main([str(bad), "--json"]) == 1
    out = capsys.readouterr().out
    assert '"ok": false' in out and '"seat": 2' in out
    junk = tmp_path / "junk.ft"
    junk.write_bytes(b"not a transcript")
    assert verify_main([str(junk)]) == 1
    assert "not canonical" in capsys.readouterr().out


def test_cli_as_a_program_on_a_rider_transcript(tmp_path: Path) -> None:
    path = tmp_path / "rider.ft"
    path.write_bytes(_rider())
    run = subprocess.run([sys.executable, "-m", "tools.verify", str(path)], check=False, cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("ok: ") and "reached by: normal end" in run.stdout, \
        run.stderr

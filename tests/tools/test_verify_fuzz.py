"""``tools.verify`` on mutated transcripts (property tests): whatever is changed,
and even when every envelope is signed again so the change reaches the replay,
the answer is a verdict (exit 0 or 1 with a reason), never a traceback.

The mutations start from a real two-seat game of the tiny test game: flipped
bytes of the file, any field of the genesis record replaced by arbitrary
canonical data, options a hostile host could choose (deadline as text, odd
names, unknown keys) with the whole record re-signed for the new game id,
and any envelope body replaced and its seat's chain re-signed.
"""

from __future__ import annotations

import json
import random
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net" / "session"))

from harness import NONCE, identities  # noqa: E402
from engine.tiny.game import RULES_ID, card_set_hash  # noqa: E402
from net.games import table_for  # noqa: E402

from engine.core.encoding import decode, encode  # noqa: E402
from net.bots.random_bot import RandomBot  # noqa: E402
from net.envelope import Envelope, Genesis, game_id, sign_envelope  # noqa: E402
from net.session import Session  # noqa: E402
from net.session.loopback import Loopback  # noqa: E402
from net.transcript import FORMAT  # noqa: E402
from net.verifier import Verdict, verify  # noqa: E402
from tools.verify import main as verify_main  # noqa: E402

IDS = identities(2, tag="fuzz")
FIELDS = ("rules_id", "rules_version", "card_set_hash", "seat_keys", "options", "nonces")

canonical = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.binary(max_size=40) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4).map(tuple)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)


@cache
def record() -> bytes:
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in IDS),
                      {"names": ["Ann", "Bo"]}, (NONCE, NONCE))
    table = table_for(genesis)
    sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=IDS[s], seat=s,
                        agent=RandomBot(random.Random(s))) for s in (0, 1)]
    net = Loopback(sessions)
    net.start()
    net.run()
    assert sessions[0].finished
    return encode(sessions[0].transcript())


def resigned(genesis: dict[str, Any], envelopes: list[dict[str, Any]]) -> dict[str, Any]:
    """The record signed again by its seats for ``genesis`` (a new game id), chains recomputed."""
    gid = game_id(genesis)
    heads = [bytes(32), bytes(32)]
    out = []
    for item in envelopes:
        env = Envelope.from_data(item)
        new = sign_envelope(IDS[env.seat], game=gid, seat=env.seat, seq=env.seq, prev=heads[env.seat],
                            kind=env.kind, body=item["body"], seen=(env.seen.step, env.seen.state_hash))
        heads[env.seat] = new.digest()
        out.append(new.to_data())
    return {"format": FORMAT, "genesis": genesis, "envelopes": out}


def check(data: Any) -> Verdict:
    verdict = verify(data)
    assert isinstance(verdict, Verdict)
    assert verdict.ok or verdict.reason, "a failed verdict always says why"
    json.dumps(verdict.to_data())  # what --json prints
    str(verdict)
    return verdict


def test_the_untouched_record_verifies() -> None:
    verdict = check(decode(record()))
    assert verdict.ok and verdict.end == "normal end"
    assert [s["name"] for s in verdict.seats] == ["Ann", "Bo"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10**9), st.integers(1, 255)), min_size=1, max_size=4))
def test_flipped_bytes_give_a_verdict(flips: list[tuple[int, int]]) -> None:
    raw = bytearray(record())
    for where, mask in flips:
        raw[where % len(raw)] ^= mask
    try:
        data = decode(bytes(raw))
    except Exception:  # noqa: BLE001 - not canonical: load_raw turns that into a TranscriptError
        return
    check(data)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FIELDS), canonical)
def test_any_genesis_field_replaced_gives_a_verdict(field: str, value: Any) -> None:
    data = dict(decode(record()))
    data["genesis"] = {**data["genesis"], field: value}
    assert not check(data).ok


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["timeout_s", "grace_s", "abandon_s", "names", "deck_sizes", "extra"]), canonical,
                       min_size=1, max_size=3))
def test_hostile_options_in_a_re_signed_record_give_a_verdict(options: dict[str, Any]) -> None:
    data = decode(record())
    genesis = {**data["genesis"], "options": {**data["genesis"]["options"], **options}}
    try:
        Genesis.from_data(genesis)
    except Exception:  # noqa: BLE001 - a genesis that cannot even be built is covered above
        return
    check(resigned(genesis, list(data["envelopes"])))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), canonical)
def test_any_envelope_body_replaced_and_re_signed_gives_a_verdict_naming_a_seat(index: int, body: Any) -> None:
    data = decode(record())
    envelopes = [dict(e) for e in data["envelopes"]]
    i = index % len(envelopes)
    envelopes[i]["body"] = body
    verdict = check(resigned(data["genesis"], envelopes))
    if not verdict.ok:
        assert verdict.reason != "unexpected", str(verdict)  # every such flaw has its own reason


@pytest.mark.parametrize("genesis", [
    {"rules_id": "x"},  # the traceback of issue 9: Genesis raised MalformedMessage, not ValueError
    {"rules_id": RULES_ID, "rules_version": "1", "card_set_hash": bytes(32), "seat_keys": (bytes(32),),
     "options": {}, "nonces": (NONCE,)},
    {"rules_id": RULES_ID, "rules_version": "1", "card_set_hash": bytes(31), "seat_keys": (),
     "options": {}, "nonces": ()},
])
def test_malformed_genesis_files_exit_1_with_a_reason(genesis: dict[str, Any], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.ft"
    path.write_bytes(encode({"format": FORMAT, "genesis": genesis, "envelopes": ()}))
    assert verify_main([str(path), "--json"]) == 1
    shown = json.loads(capsys.readouterr().out)
    assert shown["ok"] is False and shown["reason"] == "format" and "genesis" in shown["detail"]
    assert verify_main([str(path)]) == 1
    assert capsys.readouterr().out.startswith("FAILED")

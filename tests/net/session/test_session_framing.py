"""A cheater cannot frame an honest seat with a second version of its own envelope
(issue 30, item 1; net/session/inputs.py, net/verifier.py ``verify_proof``).

The attack: the cheater (seat 1) plays honestly, but also signs, and never
sends, another legal play with the same sequence number and previous hash.
Its "proof" is the real record up to there with the alternative in place of
the real play, then the honest next player's envelope: replayed, that
envelope's state hash differs, and before this fix ``tools.verify`` said
"proof holds: seat 2 cheated" (exit 0). Now every ``seen`` also signs the
digest of the inputs its signer applied; the honest seat's digest is not the
file's, so the file proves nothing (exit 1). The two versions together are
an equivocation proof against the cheater, and an honest session shown the
alternative convicts the cheater. Tiny, 3, 5 and 10 seats, in process.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harness import identities, tiny_table

from engine.core.pending import Decision
from net.envelope import Envelope, sign_envelope
from net.session import Session
from net.session.cards import make_claims
from net.session.conviction import EQUIVOCATION, FALSE_STATE_HASH
from net.transcript import PROOF_FORMAT, order_key
from net.verifier import verify, verify_proof
from tools import verify as verify_tool

CHEATER = 1


def _seen(s: Session) -> Any:
    """What the cheater's own session would sign as ``seen`` now (with the inputs digest when
    the session keeps one: the same test runs against the code before the fix)."""
    inputs = getattr(s, "inputs", None)
    return (s.step, s.hashes[s.step]) if inputs is None else (s.step, s.hashes[s.step], inputs[s.step])


def _to_the_cheaters_decision(table: Any) -> Session:
    """Run the table, the cheater guessing by hand, until its own play is due."""
    cheater: Session = table.sessions[CHEATER]
    cheater.agent = None  # it decides by hand
    table.start()
    table.run()
    while not (isinstance(cheater.pending, Decision) and cheater.pending.seat == CHEATER):
        legal = cheater.legal(CHEATER)
        assert legal, (cheater.step, cheater.pending)
        table.post(CHEATER, cheater.submit(CHEATER, legal[0]))
        table.run()
    return cheater


def _play_with_a_hidden_alternative(seats: int) -> tuple[list[Session], Envelope, Envelope]:
    """Play a whole game; at its decision the cheater also signs another legal play it never sends.
    Returns the sessions, the real play and the alternative."""
    table, genesis = tiny_table(seats, seed=5)
    cheater = _to_the_cheaters_decision(table)
    pending = cheater.pending
    assert isinstance(pending, Decision) and pending.seat == CHEATER
    legal = cheater.legal(CHEATER)
    assert len(legal) >= 2, legal
    real, other = legal[0], legal[1]
    writer = cheater._writer
    assert writer is not None and cheater.book is not None
    body = {"action": other.to_data(),
            "cards": make_claims(cheater.book, cheater.step, cheater.plan.claims(other),
                                 cheater.caps.open_cards(cheater.state))}
    key = identities(seats, tag="tiny")[CHEATER]
    alternative = sign_envelope(key, game=cheater.gid, seat=CHEATER, seq=writer.next_seq, prev=writer.head,
                                kind="action", body=body,
                                seen=_seen(cheater))
    table.post(CHEATER, cheater.submit(CHEATER, real))  # the play everybody sees
    table.run()
    for s in table.sessions:
        assert s.finished and s.verdict == "ok", (s.seat, s.phase)
    played = next(e for e in table.sessions[0].envelopes() if e.seat == CHEATER and e.seq == alternative.seq)
    assert played.kind == "action" and played.digest() != alternative.digest()
    return table.sessions, played, alternative


def _framing_file(sessions: list[Session], played: Envelope, alternative: Envelope) -> dict[str, Any]:
    """The cheater's file: the real record, its alternative in place of its real play, and
    the honest next player's envelope; the claim the old verifier drew from it."""
    record = sorted(sessions[0].envelopes(), key=order_key)
    step = played.seen.step
    kept: list[Envelope] = []
    accused: Envelope | None = None
    for env in record:
        if env.digest() == played.digest():
            kept.append(alternative)
            continue
        if env.seen.step > step and env.seat != CHEATER:
            accused = env
            kept.append(env)
            break
        kept.append(env)
    assert accused is not None
    claim = {"kind": FALSE_STATE_HASH, "seat": accused.seat, "step": accused.seen.step}
    return {"format": PROOF_FORMAT, "claim": claim, "genesis": sessions[0].genesis.to_data(),
            "envelopes": [e.to_data() for e in kept]}


@pytest.mark.parametrize("seats", [3, 5, 10])
def test_a_second_version_of_the_cheaters_own_envelope_does_not_convict_the_honest_next_player(
        seats: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sessions, played, alternative = _play_with_a_hidden_alternative(seats)
    proof = _framing_file(sessions, played, alternative)
    verdict = verify_proof(proof)
    assert not verdict.ok, str(verdict)  # before: "proof holds: seat 2 ... cheated at step ..."
    assert "other-inputs" in verdict.detail or "inputs" in verdict.detail, verdict.detail
    from net.transcript import save

    path = tmp_path / "framing.ft.proof"
    save(path, proof)
    assert verify_tool.main([str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["ok"] is False
    # the game itself is untouched: every honest record still verifies
    assert verify(sessions[0].transcript()).ok


@pytest.mark.parametrize("seats", [3, 5])
def test_the_two_versions_convict_the_equivocator_offline_and_at_the_table(seats: int) -> None:
    sessions, played, alternative = _play_with_a_hidden_alternative(seats)
    pair = {"format": PROOF_FORMAT, "claim": {"kind": EQUIVOCATION, "seat": CHEATER, "seq": played.seq},
            "genesis": sessions[0].genesis.to_data(), "envelopes": [played.to_data(), alternative.to_data()]}
    holds = verify_proof(pair)
    assert holds.ok and f"seat {CHEATER}" in holds.detail, str(holds)
    honest = sessions[2]
    honest.receive(alternative.to_bytes(), sender="peer-x")  # shown the other version after the game
    assert [p.seat for p in honest.equivocations] == [CHEATER]


def test_a_seat_shown_the_other_version_ends_convicting_the_forker_with_no_proof_against_the_honest_seat() -> None:
    """At the table: the cheater shows seat 0 the alternative and the others the real play.
    Seat 0 sees seat 2's state reached through other inputs: its judgement offers no proof
    file, and it sends its record; seat 2 finds the fork and every peer convicts the cheater."""
    table, genesis = tiny_table(3, seed=5)
    cheater = _to_the_cheaters_decision(table)
    legal = cheater.legal(CHEATER)
    real, other = legal[0], legal[1]
    writer = cheater._writer
    assert writer is not None and cheater.book is not None
    body = {"action": other.to_data(),
            "cards": make_claims(cheater.book, cheater.step, cheater.plan.claims(other),
                                 cheater.caps.open_cards(cheater.state))}
    key = identities(3, tag="tiny")[CHEATER]
    alternative = sign_envelope(key, game=cheater.gid, seat=CHEATER, seq=writer.next_seq, prev=writer.head,
                                kind="action", body=body,
                                seen=_seen(cheater))
    out = cheater.submit(CHEATER, real)
    a = table.sessions[0]
    a.receive(alternative.to_bytes(), sender="peer-1", via=CHEATER)  # seat 0 is shown the other version first
    table.post(CHEATER, out)
    table.run()
    for s in table.sessions:
        assert s.conviction is not None and s.conviction["kind"] == EQUIVOCATION, (s.seat, s.conviction)
        assert s.conviction["seat"] == CHEATER
        proof = s.proof_file()
        assert proof is not None and verify_proof(proof).ok  # the pair, against the cheater


def test_a_seat_lying_about_its_inputs_is_blamed_at_the_table_but_leaves_no_transferable_proof() -> None:
    """A liar that signs a false inputs digest (with or without a false state hash) is still
    stopped and blamed by every peer (no fork is ever found), but nobody can hand a third party
    a proof of it: the file would be the framing file's twin."""
    from engine.core.hashing import digest

    table, _ = tiny_table(3, seed=5)
    cheater = _to_the_cheaters_decision(table)
    real = cheater.inputs[cheater.step]
    cheater.inputs[cheater.step] = digest("fairtable/test-lie", real)
    try:
        out = cheater.chat("these are not the inputs I applied")
    finally:
        cheater.inputs[cheater.step] = real
    table.post(CHEATER, out)
    table.run()
    for s in table.sessions:
        if s.seat == CHEATER:
            continue
        assert s.conviction == {"kind": "other-inputs", "seat": CHEATER, "step": cheater.step}, s.conviction
        assert s.proof_file() is None

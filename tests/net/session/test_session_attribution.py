"""Attributable divergence: a seat that signs a state hash the signed record
contradicts is convicted with a proof that tools.verify confirms; in a full
mesh where the two versions of an equivocation never meet, the table finds
the equivocation before blaming anyone and convicts the equivocator, not the
honest seat whose hash differs."""

from __future__ import annotations

import random
import secrets
from pathlib import Path
from typing import Any

import pytest
from harness import NONCE, Table_, identities
from engine.tiny.game import RULES_ID, card_set_hash
from net.games import table_for

from engine.core.encoding import decode, encode
from engine.core.hashing import digest
from net.bots.random_bot import RandomBot
from net.commit import SEALED, Opening, commitment_of
from net.envelope import Envelope, Genesis, sign_envelope
from net.session import Cheat, Outgoing, Session
from net.verifier import verify_proof
from net.transcript import save
from tools.verify import main as verify_main


class Liar(Session):
    """Our own Session, except that it signs one false state hash at ``lie_at``."""

    lie_at = 9
    lied = False
    lied_at = -1

    def _send(self, kind: str, body: Any) -> Envelope:
        if self.step < self.lie_at or self.lied:
            return super()._send(kind, body)
        self.lied = True
        self.lied_at = self.step
        real = self.hashes[self.step]
        self.hashes[self.step] = digest("fairtable/test-lie", real)
        try:
            return super()._send(kind, body)
        finally:
            self.hashes[self.step] = real


def _table(seats: int, liar: int | None = None) -> tuple[Table_, list[Any]]:
    ids = identities(seats, tag="attr")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids),
                      {"names": [f"P{s}" for s in range(seats)]}, (NONCE,) * seats)
    t = table_for(genesis)
    sessions = [(Liar if s == liar else Session)(genesis, t.game, t.state, plan=t.plan, identity=ids[s], seat=s,
                                                 agent=RandomBot(random.Random(s))) for s in range(seats)]
    return Table_(sessions), ids


@pytest.mark.parametrize("seats", [2, 3])
def test_a_false_state_hash_is_a_proven_lie_of_its_signer(seats: int, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    liar = seats - 1
    table, _ = _table(seats, liar=liar)
    table.start()
    table.run()
    honest = [s for s in table.sessions if s.seat != liar]
    step = table.sessions[liar].lied_at  # type: ignore[attr-defined]
    assert step >= Liar.lie_at
    for s in honest:
        assert isinstance(s.halted, Cheat) and s.halted.seat == liar, s.halted
        assert s.conviction == {"kind": "false-state-hash", "seat": liar, "step": step}
        assert "replaying the signed record" in str(s.halted) and "bug" not in str(s.halted)
        assert s.outcome is not None and s.outcome["winner"] == (0 if seats == 2 else None)
        assert s.verdict == f"not audited: seat {liar} convicted of cheating"
    proof = honest[0].proof_file()
    assert proof is not None
    verdict = verify_proof(decode(encode(proof)))
    assert verdict.ok and f"seat {liar} (P{liar})" in str(verdict) and f"step {step}" in str(verdict)
    # tools.verify confirms the saved file, naming the liar
    path = tmp_path / "game.ft.proof"
    save(path, proof)
    assert verify_main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"proof holds: seat {liar + 1} (P{liar})")  # printed for people: counted from 1
    # and a proof that accuses someone else, or lost the lie, proves nothing
    framed = dict(proof, claim={**proof["claim"], "seat": 0})
    assert not verify_proof(framed).ok
    lying = next(i for i, e in enumerate(proof["envelopes"]) if e["seat"] == liar
                 and e["seen"][0] == step and e["seen"][1] != honest[0].hashes[step])
    cut = dict(proof, envelopes=proof["envelopes"][:lying] + proof["envelopes"][lying + 1:])
    assert not verify_proof(cut).ok
    save(path, framed)
    assert verify_main([str(path)]) == 1 and "NOT A PROOF" in capsys.readouterr().out


def test_an_equivocation_the_mesh_never_brings_together_is_found_before_anyone_is_blamed() -> None:
    """Seat 0 commits to "high" towards seat 1 and to "low" towards seat 2 (no
    peer forwards to a peer already linked to the sender). Seats 1 and 2 end
    up with different states; before convicting each other for it they swap
    their signed records, find seat 0's two versions, and both convict seat 0."""
    table, ids = _table(3)
    cheat = table.sessions[0]
    forks: dict[str, Envelope] = {}
    second: dict[str, Any] = {}

    def tap(seat: int, out: Outgoing) -> Outgoing | None:
        if seat != 0 or out.to is not None:
            return out
        value = decode(out.data)
        if not isinstance(value, dict) or value.get("kind") not in ("commit", "reveal") \
                or value.get("seat") != 0 or cheat.game.pending(cheat.state).__class__.__name__ != "SealedChoice":
            return out
        env = Envelope.from_data(value)
        step = env.seen.step
        if env.kind == "commit":
            mine = Opening.from_data(cheat._secret_store[f"opening:{step}"])
            other = Opening("low" if mine.value == "high" else "high", secrets.token_bytes(32))
            second["opening"] = other
            body = {"commit": commitment_of(cheat.gid, step, 0, other.value, other.salt,
                                            purpose=f"{SEALED}:tiny.guess")}
            fork = sign_envelope(ids[0], game=env.game, seat=0, seq=env.seq, prev=env.prev, kind="commit",
                                 body=body, seen=env.seen)
        else:
            fork = sign_envelope(ids[0], game=env.game, seat=0, seq=env.seq, prev=forks["commit"].digest(),
                                 kind="reveal", body={"reveal": second["opening"].to_data()}, seen=env.seen)
        forks[env.kind] = fork
        table.queue.append((0, Outgoing(fork.to_bytes(), 2)))  # the other version, to seat 2 only
        return Outgoing(out.data, 1)  # the genuine one to seat 1 only

    table.tap = tap
    table.start()
    table.run()
    assert set(forks) == {"commit", "reveal"}
    for s in table.sessions[1:]:
        assert isinstance(s.halted, Cheat) and s.halted.seat == 0, (s.seat, s.halted)
        assert s.conviction == {"kind": "equivocation", "seat": 0, "seq": forks["commit"].seq}
        assert any(p.seat == 0 for p in s.equivocations)
        proof = s.proof_file()
        verdict = verify_proof(proof)
        assert verdict.ok and "seat 0 (P0)" in str(verdict), str(verdict)
        assert proof is not None
        same = dict(proof, envelopes=[proof["envelopes"][0]] * 2)  # one envelope twice is no fork
        assert not verify_proof(same).ok
        assert not verify_proof(dict(proof, claim={**proof["claim"], "seat": 1})).ok
    # the honest seats were accused of a false hash only until the records met
    assert all(s.conviction is not None and s.conviction["seat"] == 0 for s in table.sessions[1:])

"""Convictions: signed, transferable proof that a seat cheated ends the game.

Two lies need no trusted referee because the signed record exposes them:

- **Equivocation**: two different envelopes signed by one seat with one
  ``seq``. The pair is the proof (:func:`net.envelope.verify_equivocation_proof`).
  Whoever sees both versions convicts the seat and forwards the pair to
  every peer (an unsigned ``{"equivocation", "game"}`` payload: the pair
  proves itself), because in a full mesh the two versions may never meet.
- **A false state hash**: the engine is deterministic and every input is
  signed, so a ``seen`` hash that differs from the replay of the signed
  record is a signed lie. The proof is the record (genesis and envelopes up
  to and including the lying one); anyone replays it with
  :func:`net.verifier.verify_proof` (``python -m tools.verify PROOF``).

A false-hash conviction holds only if the accused applied the inputs our
record holds: a seat that was shown another version of someone's envelope
computes another hash in good faith. Every ``seen`` therefore also signs the
digest of the inputs its signer applied (:mod:`net.session.inputs`). Equal
digests and another state hash: the signer lied, and the record proves it.
Another digest: the signer was shown other envelopes than ours, or lies about
what it saw. Our record cannot tell which, so the conviction
(``{"kind": "other-inputs"}``) is our own judgement only: it stops play as
before, is replaced by the equivocation proof that the record exchange below
brings when the signer was honest, and offers no proof file. So a cheater
who signs, and never sends, a second version of its own envelope cannot turn
it into a proof against the honest seat that answered the first (issue 30),
and a seat that lies about its inputs as well as its state is still stopped
and blamed at the table, only not with a proof a third party can check.

So on a mismatch we convict at once but also send our whole accepted
record to the table; a peer that holds a different version of any envelope
finds the equivocation at intake, convicts the equivocator and forwards the
pair, and an equivocation proof replaces a false-hash conviction wherever it
arrives. Every peer ends convicting the same seat.

A conviction stops play (as a cheat or a dispute does): ``Session.halted``
is a :class:`~net.session.events.Cheat`, ``Session.conviction`` names the
claim, the outcome gives the game to the others (with two seats, to the
other seat), and :func:`proof_file` is the data to save.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.encoding import encode
from net.envelope import Envelope, EquivocationProof
from net.session import catchup
from net.session.events import Cheat
from net.session.messages import Outgoing
from net.transcript import PROOF_FORMAT, order_key

if TYPE_CHECKING:
    from net.session.core import Session

EQUIVOCATION = "equivocation"
FALSE_STATE_HASH = "false-state-hash"
#: A ``seen`` reached through other inputs than our record: a stop without blame (not a conviction).
OTHER_INPUTS = "other-inputs"
#: What an equivocation proof replaces when it arrives (it names the seat that forked).
REPLACEABLE = (FALSE_STATE_HASH, OTHER_INPUTS)


def convict(s: Session, seat: int, step: int, what: str, claim: dict[str, Any],
            envelopes: list[Envelope]) -> None:
    """Stop play naming ``seat``; an equivocation proof replaces a false-hash conviction."""
    if s.conviction is not None and not (s.conviction["kind"] in REPLACEABLE
                                         and claim["kind"] == EQUIVOCATION):
        return
    kept = "" if claim["kind"] == OTHER_INPUTS else "; the signed proof is kept (python -m tools.verify checks it)"
    event = Cheat(seat, step, f"{what}{kept}")
    if s.halted is not None and s.conviction is None:
        return  # already stopped for another proven reason (a cheat found by a proof check, a dispute)
    s.conviction = claim
    s.proof_envelopes = envelopes
    others = [other for other in s.seats if other != seat]
    s.outcome = {"winner": others[0] if len(others) == 1 else None,
                 "reason": f"seat {seat} was convicted of cheating ({claim['kind']}); the table claims the game"}
    s.verdict = f"not audited: seat {seat} convicted of cheating"
    if s.halted is None:
        s._halt(event)
    else:  # the better proof replaces the false-hash conviction
        s.halted = event
        s._event(event)


def on_equivocation(s: Session, proof: EquivocationProof) -> None:
    """A seat signed two versions of one envelope: keep one proof, tell every peer, convict."""
    if any(p.seat == proof.seat for p in s.equivocations):
        return
    s.equivocations.append(proof)
    if s.seat is not None:
        s._queue(Outgoing(encode({"equivocation": proof.to_data(), "game": s.gid})))
    if s.finished:
        return  # after the end there is nothing to stop; the proof is kept and forwarded
    first, second = proof.first, proof.second
    convict(s, proof.seat, s.step,
            f"it signed two different envelopes with sequence number {proof.seq} ({first.kind!r} and "
            f"{second.kind!r}), showing different peers different games",
            {"kind": EQUIVOCATION, "seat": proof.seat, "seq": proof.seq}, [first, second])


def other_inputs(s: Session, env: Envelope, record: list[Envelope]) -> None:
    """``env``'s signer reached its step through other inputs than our record: our own judgement
    (no transferable proof), replaced by an equivocation proof if the record exchange finds a fork."""
    k = env.seen.step
    theirs = env.seen.inputs or b""
    convict(s, env.seat, k,
            f"it signed that it reached step {k} through other inputs (digest {theirs.hex()[:16]}) than the signed "
            f"record we hold ({s.inputs[k].hex()[:16]}): it was shown another version of someone's envelope, or it "
            "lies about what it saw; our record went to the table, and a fork found there replaces this judgement "
            "(this one is not a proof a third party can check)",
            {"kind": OTHER_INPUTS, "seat": env.seat, "step": k}, record)


def false_hash(s: Session, env: Envelope) -> None:
    """``env`` signs a state hash our replay of the signed record contradicts (or reached it
    through other inputs: :func:`other_inputs`)."""
    k = env.seen.step
    record = [e for e in s.envelopes() if e.digest() != env.digest()] + [env]
    if s.seat is not None:  # let the table look for an equivocation that would explain it
        s._queue(*catchup.replies(s, tuple(0 for _ in s.seats), None))
    if env.seen.inputs is not None and env.seen.inputs != s.inputs[k]:
        other_inputs(s, env, record)
        return
    convict(s, env.seat, k,
            f"it signed state hash {env.seen.state_hash.hex()[:16]} for step {k}, but replaying the signed "
            f"record gives {s.hashes[k].hex()[:16]}",
            {"kind": FALSE_STATE_HASH, "seat": env.seat, "step": k}, record)


def proof_file(s: Session) -> dict[str, Any] | None:
    """The conviction as a file anyone can check offline (None without one)."""
    if s.conviction is None or s.conviction["kind"] == OTHER_INPUTS:
        return None
    return {"format": PROOF_FORMAT, "claim": dict(s.conviction), "genesis": s.genesis.to_data(),
            "envelopes": [e.to_data() for e in sorted(s.proof_envelopes, key=order_key)]}

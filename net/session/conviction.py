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
  :func:`verify_proof` (``python -m tools.verify PROOF``).

A false-hash conviction holds only if nobody equivocated: a seat that was
shown another version of someone's envelope computes another hash in good
faith. So on a mismatch we convict at once but also send our whole accepted
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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.encoding import encode
from net.envelope import Envelope, EquivocationProof, Genesis, game_id, verify_equivocation_proof
from net.errors import InvalidProof, ProtocolError
from net.session.events import Cheat
from net.session.messages import Outgoing

if TYPE_CHECKING:
    from net.session.core import Session

PROOF_FORMAT = "fairtable-proof/1"
EQUIVOCATION = "equivocation"
FALSE_STATE_HASH = "false-state-hash"


def convict(s: Session, seat: int, step: int, what: str, claim: dict[str, Any],
            envelopes: list[Envelope]) -> None:
    """Stop play naming ``seat``; an equivocation proof replaces a false-hash conviction."""
    if s.conviction is not None and not (s.conviction["kind"] == FALSE_STATE_HASH
                                         and claim["kind"] == EQUIVOCATION):
        return
    event = Cheat(seat, step, f"{what}; the signed proof is kept (python -m tools.verify checks it)")
    if s.halted is not None and s.conviction is None:
        return  # already stopped for another proven reason (a cheat found by a proof check, a dispute)
    s.conviction = claim
    s._proof_envelopes = envelopes
    others = [other for other in s.seats if other != seat]
    s.outcome = {"winner": others[0] if len(others) == 1 else None,
                 "reason": f"seat {seat} was convicted of cheating ({claim['kind']}); the table claims the game"}
    s.verdict = f"not audited: seat {seat} convicted of cheating"
    if s.halted is None:
        s._halt(event)
    else:  # the better proof replaces the false-hash conviction
        s.halted = event
        s.events.append(event)


def on_equivocation(s: Session, proof: EquivocationProof) -> None:
    """A seat signed two versions of one envelope: keep one proof, tell every peer, convict."""
    if any(p.seat == proof.seat for p in s.equivocations):
        return
    s.equivocations.append(proof)
    if s.seat is not None:
        s._out.append(Outgoing(encode({"equivocation": proof.to_data(), "game": s.gid})))
    if s.finished:
        return  # after the end there is nothing to stop; the proof is kept and forwarded
    first, second = proof.first, proof.second
    convict(s, proof.seat, s.step,
            f"it signed two different envelopes with sequence number {proof.seq} ({first.kind!r} and "
            f"{second.kind!r}), showing different peers different games",
            {"kind": EQUIVOCATION, "seat": proof.seat, "seq": proof.seq}, [first, second])


def on_evidence(s: Session, data: Any, sender: str | None) -> None:
    """A forwarded equivocation proof: check it from scratch, then act on it."""
    try:
        parsed = EquivocationProof.from_data(data)
        if parsed.seat not in s.seats:
            raise InvalidProof(f"an equivocation proof names seat {parsed.seat}, not at this table")
        verify_equivocation_proof(parsed, s.genesis.seat_keys[parsed.seat], game=s.gid)
    except ProtocolError as exc:
        s._reject(None, sender, s.step, "equivocation proof", exc)
        return
    log = s._logs[parsed.seat]
    if parsed.seq < len(log) and log[parsed.seq].digest() in (parsed.first.digest(), parsed.second.digest()):
        on_equivocation(s, parsed)  # one version is in our record: the other is a fork of it
        return
    from net.session import intake  # not judged here yet: both versions go through intake like any envelope

    for env in (parsed.first, parsed.second):
        intake.intake(s, env, sender, from_journal=False)


def false_hash(s: Session, env: Envelope) -> None:
    """``env`` signs a state hash our replay of the signed record contradicts."""
    from net.session import catchup

    k = env.seen.step
    record = [e for e in s.envelopes() if e.digest() != env.digest()] + [env]
    if s.seat is not None:  # let the table look for an equivocation that would explain it
        s._out.extend(catchup.replies(s, tuple(0 for _ in s.seats), None))
    convict(s, env.seat, k,
            f"it signed state hash {env.seen.state_hash.hex()[:16]} for step {k}, but replaying the signed "
            f"record gives {s.hashes[k].hex()[:16]}",
            {"kind": FALSE_STATE_HASH, "seat": env.seat, "step": k}, record)


def proof_file(s: Session) -> dict[str, Any] | None:
    """The conviction as a file anyone can check offline (None without one)."""
    if s.conviction is None:
        return None
    from net.transcript import order_key

    return {"format": PROOF_FORMAT, "claim": dict(s.conviction), "genesis": s.genesis.to_data(),
            "envelopes": [e.to_data() for e in sorted(s._proof_envelopes, key=order_key)]}


class ProofVerdict:
    """Result of :func:`verify_proof`: whether the file proves its claim."""

    def __init__(self, ok: bool, claim: Mapping[str, Any] | None, detail: str) -> None:
        self.ok, self.claim, self.detail = ok, claim, detail

    def to_data(self) -> dict[str, Any]:
        return {"ok": self.ok, "claim": dict(self.claim) if self.claim is not None else None,
                "detail": self.detail}

    def __str__(self) -> str:
        return f"proof holds: {self.detail}" if self.ok else f"NOT A PROOF: {self.detail}"


def is_proof(data: Any) -> bool:
    return isinstance(data, Mapping) and data.get("format") == PROOF_FORMAT


def verify_proof(data: Any) -> ProofVerdict:
    """Check a proof file from scratch: replay its signed record as an observer
    and require exactly the claimed conviction, and nothing refused before it."""
    from net.session.core import Session
    from net.session.events import Rejected
    from net.games import table_for

    if not is_proof(data) or set(data) != {"format", "claim", "genesis", "envelopes"}:
        return ProofVerdict(False, None, f"not a {PROOF_FORMAT} file with claim, genesis and envelopes")
    claim = data["claim"]
    if not isinstance(claim, Mapping) or claim.get("kind") not in (EQUIVOCATION, FALSE_STATE_HASH):
        return ProofVerdict(False, None, "the claim is not an equivocation or a false state hash")
    try:
        genesis = Genesis.from_data(data["genesis"])
        table = table_for(genesis)
        envelopes = [Envelope.from_data(e) for e in data["envelopes"]]
    except (ProtocolError, ValueError, TypeError) as exc:
        return ProofVerdict(False, claim, f"the genesis record or an envelope is malformed: {exc}")
    names = genesis.options.get("names")
    seat = claim.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(genesis.seat_keys):
        return ProofVerdict(False, claim, f"the claim names seat {seat!r}, which is not at this table")
    from net.identity import fingerprint_of

    who = f"seat {seat}" + (f" ({names[seat]})" if isinstance(names, (list, tuple)) and seat < len(names) else "")
    key = fingerprint_of(genesis.seat_keys[seat])
    if claim["kind"] == EQUIVOCATION:
        if len(envelopes) != 2:
            return ProofVerdict(False, claim, "an equivocation proof holds exactly the two envelopes")
        try:
            pair = verify_equivocation_proof(EquivocationProof(envelopes[0], envelopes[1]),
                                             genesis.seat_keys[seat], game=game_id(genesis))
        except ProtocolError as exc:
            return ProofVerdict(False, claim, f"the two envelopes are no equivocation: {exc}")
        if pair.seat != seat or pair.seq != claim.get("seq"):
            return ProofVerdict(False, claim, f"the envelopes are seat {pair.seat}'s #{pair.seq}, not the claim's")
        return ProofVerdict(True, claim, f"{who}, key {key}, signed two different envelopes with sequence "
                                         f"number {pair.seq} ({pair.first.kind!r} at step {pair.first.seen.step} "
                                         f"and {pair.second.kind!r} at step {pair.second.seen.step})")
    observer = Session(genesis, table.game, table.state, plan=table.plan)
    for env in envelopes:
        observer.receive(env.to_bytes())
        refused = [e for e in observer.events if isinstance(e, Rejected)]
        if refused:
            return ProofVerdict(False, claim, f"the record itself is refused: {refused[0]}")
        if observer.conviction is not None:
            break
    if observer.conviction is None or dict(observer.conviction) != dict(claim):
        got = dict(observer.conviction) if observer.conviction is not None else "no conviction"
        return ProofVerdict(False, claim, f"replaying the signed record gives {got}, not the claim {dict(claim)}")
    halted = observer.halted
    assert isinstance(halted, Cheat)
    return ProofVerdict(True, claim, f"{who}, key {key}, cheated at step {halted.step}: {halted.error}")

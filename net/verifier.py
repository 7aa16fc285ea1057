"""The offline verifier: the one replayer of every game record, checked from scratch.

It reads the file formats of :mod:`net.transcript`. A networked table's
signed record is replayed through an observer
:class:`~net.session.core.Session` (the same code every peer runs), so it
verifies exactly when the table accepted it; per-seat chains are checked by
:class:`net.envelope.SeatLog`, as in the session. A local table's record
(unsigned: the table was trusted) is replayed through the engine from the
game registry's local set-up, every state hash compared (:func:`verify`
takes either, and an old ``tools.match --log`` JSON log as a local record).
``python -m tools.verify FILE`` is the command line; the client's local
end-of-game audit calls :func:`verify` too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core.encoding import encode
from engine.core.errors import EncodingError, EngineError
from engine.core.game import Outcome, hash_of
from net.envelope import CLAIM_PROTOCOLS, DICE_PROTOCOLS, Envelope, EquivocationProof, Genesis, SeatLog, game_id, verify_equivocation_proof
from net.errors import BrokenChain, ProtocolError
from net.games import game_for_rules, table_for
from net.identity import fingerprint_of
from net.session.conviction import EQUIVOCATION, FALSE_STATE_HASH
from net.session.claim_steps import report as claim_report
from net.session.core import Session
from net.session.deadlines import void_claims
from net.session.events import Applied, Cheat, Rejected
from net.transcript import (
    PROOF_FORMAT,
    LocalRecord,
    TranscriptError,
    from_match_log,
    is_local,
    is_match_log,
    is_proof,
    order_key,
    parse,
    parse_local,
)

#: Ends whose result rests on a claim of silence, which no record can prove (tools.verify exits 3).
UNPROVEN = ("forfeit claim", "abandonment claim")
#: What a local record lists for a seat's key: a trusted local table signs nothing.
UNSIGNED = "unsigned (local table)"

__all__ = ["ProofVerdict", "UNPROVEN", "UNSIGNED", "Verdict", "seat_list", "verify", "verify_local", "verify_proof"]


class Verdict:
    """Result of :func:`verify`: ``ok``, or the first bad step and the seat responsible.

    Whatever the result, ``seats`` lists each seat's name and key fingerprint
    once the genesis record could be read (so a person can check the record
    against the friends they played), and ``outcome``/``end`` say what the
    record shows and how it was reached: ``end`` is "normal end", "forfeit
    claim", "resignation (seat S's own signed message)" or "dispute" (a failed
    verdict whose evidence is a dispute). ``forfeit`` (for ``end`` "forfeit
    claim") is the signed claim the result rests on; ``void_claims`` lists
    claims the record's own answers voided. ``table`` is "networked" (a
    signed record) or "local" (a trusted table's unsigned record: it shows
    that every input follows the rules and every hash matches, not who
    played); a local record's ``end`` is "normal end" or "concession".
    """

    def __init__(self, ok: bool, step: int | None = None, seat: int | None = None, reason: str = "",
                 detail: str = "") -> None:
        self.ok, self.step, self.seat, self.reason, self.detail = ok, step, seat, reason, detail
        self.seats: list[dict[str, Any]] = []
        self.outcome: dict[str, Any] | None = None
        self.audit: str | None = None
        self.end: str | None = None
        self.forfeit: dict[str, Any] | None = None
        self.void_claims: list[dict[str, Any]] = []
        #: For ``end`` "abandonment claim": who abandoned, the silent seats, step, part, owed (words).
        self.abandoned: dict[str, Any] | None = None
        self.table = "networked"
        #: a local record's outcome was also re-judged, seat by seat, by the game's independent judge
        self.judged = False
        #: The record's dice protocol (net.envelope.DICE_PROTOCOLS), once its genesis could be read.
        self.dice: str | None = None
        #: The record's claim protocol (net.envelope.CLAIM_PROTOCOLS) and, once replayed, how many claims
        #: were proven at their step and when (net.session.claim_steps.report).
        self.claim_protocol: str | None = None
        self.claims: dict[str, Any] | None = None

    @property
    def unproven(self) -> bool:
        """An accepted record whose result rests on a claim nobody can prove offline (a forfeit or
        an abandonment: absence leaves no signature), not on the record alone."""
        return self.ok and self.end in UNPROVEN

    def to_data(self) -> dict[str, Any]:
        return {"ok": self.ok, "step": self.step, "seat": self.seat, "reason": self.reason,
                "detail": self.detail, "seats": self.seats, "outcome": self.outcome, "audit": self.audit,
                "end": self.end, "forfeit": self.forfeit, "void_claims": self.void_claims, "table": self.table,
                "abandoned": self.abandoned, "unproven": self.unproven, "dice": self.dice,
                "claim_protocol": self.claim_protocol, "claims": self.claims}

    def _who(self, seat: int) -> str:
        named = next((s["name"] for s in self.seats if s["seat"] == seat), "")
        return f"seat {seat} ({named})" if named else f"seat {seat}"

    def __str__(self) -> str:
        lines = []
        if not self.ok:
            who = f"seat {self.seat}" if self.seat is not None else "no single seat"
            lines.append(f"FAILED at step {self.step} ({who}): {self.reason}: {self.detail}")
        elif self.table == "local":
            lines.append("ok: a local game's record: every input replays under the rules and every state hash "
                         "matches (a local table is trusted and signs nothing, so the record cannot show who played)"
                         + ("; the game's independent judge agrees with every seat's result" if self.judged else ""))
        elif self.end in UNPROVEN:
            lines.append(f"ok as a record: every signature, proof and replayed step checks out, but the result "
                         f"rests on {'an' if self.end.startswith('a') else 'a'} {self.end}, and a timeout cannot be "
                         "proven offline")
        else:
            lines.append("ok: every signature, proof, replayed step and the audit check out"
                         + ("; the game's independent judge agrees with every seat's result" if self.judged else ""))
        if self.dice is not None:
            lines.append(f"  dice: {DICE_PROTOCOLS.get(self.dice, self.dice)}")
        if self.claims is not None and self.claims["claims"]:
            lines.append(f"  claims: {self.claims['proven_at_step']} of {self.claims['claims']} proven at their step, "
                         f"{self.claims['waited_for_audit']} checked at the end "
                         f"({CLAIM_PROTOCOLS.get(self.claim_protocol or '', self.claim_protocol)})")
        for s in self.seats:
            key = s["fingerprint"] if s["fingerprint"] == UNSIGNED else f"key {s['fingerprint']}"
            lines.append(f"  seat {s['seat']}: {s['name'] or '(no name)'}, {key}")
        if self.ok and self.outcome is not None:
            winner = self.outcome.get("winner")
            judged = [r["seat"] for r in self.outcome.get("seats") or () if isinstance(r, Mapping) and r.get("won")]
            result = f"{self._who(winner)} wins" if winner is not None else \
                f"{', '.join(self._who(s) for s in judged)} win" if judged else "a draw or no single winner"
            lines.append(f"outcome: {result} ({self.outcome.get('reason', '')}); audit: {self.audit}")
        if self.forfeit is not None:
            f = self.forfeit
            claimers = ", ".join(self._who(c) for c in f["claimers"])
            lines.append(f"reached by: forfeit claim: {claimers} signed that {self._who(f['staller'])} did not "
                         f"{f['owed']} in time (step {f['step']}, {f['part']}); that seat's answer is not in "
                         "this record. Whether it really was late only the players' clocks can tell")
        elif self.end is not None:
            lines.append(f"reached by: {self.end}")
        if self.abandoned is not None:
            a = self.abandoned
            silent = ", ".join(self._who(seat) for seat in a["silent"])
            lines.append(f"abandoned by: {', '.join(self._who(c) for c in a['claimers'])} signed that the game was "
                         f"abandoned while {silent} did not {a['owed']} (step {a['step']}, {a['part']}); whether "
                         "they really stayed silent that long only the players' clocks can tell")
        for v in self.void_claims:
            lines.append(f"void claim: {self._who(v['claimer'])} claimed a forfeit by {self._who(v['staller'])} "
                         f"at step {v['step']} ({v['part']}), but that seat's answer is on record (a premature "
                         "claim, or one that crossed the answer)")
        return "\n".join(lines)


def _fail(step: int | None, seat: int | None, reason: str, detail: str) -> Verdict:
    return Verdict(False, step, seat, reason, detail)


def seat_list(genesis: Genesis) -> list[dict[str, Any]]:
    """Each seat's name (from the genesis options, if any) and key fingerprint."""
    names = genesis.options.get("names")
    out = []
    for seat, key in enumerate(genesis.seat_keys):
        name = names[seat] if isinstance(names, (list, tuple)) and len(names) == len(genesis.seat_keys) \
            and isinstance(names[seat], str) else ""
        try:
            fingerprint = fingerprint_of(key)
        except ProtocolError:
            fingerprint = "(not a valid key)"
        out.append({"seat": seat, "name": name, "fingerprint": fingerprint})
    return out


#: Called with each engine input the replay applies, in order (net/replay.py collects them).
OnApplied = Callable[[Applied], None]


def verify(data: Any, *, on_applied: OnApplied | None = None) -> Verdict:
    """Check a decoded transcript completely (see docs/protocol.md §13).

    Hostile or damaged input of any shape gives a failed verdict, never an
    exception: each known class of flaw has its own reason, and anything the
    checks did not foresee is reported as reason "unexpected" with its type.
    A local record (or an old match log) is replayed by :func:`verify_local`.
    """
    if is_local(data) or is_match_log(data):
        return verify_local(data, on_applied=on_applied)
    try:
        genesis, raw = parse(data)
    except TranscriptError as exc:
        return _fail(None, None, "format", str(exc))
    replayed: list[Session] = []
    try:
        verdict = _verify(genesis, raw, on_applied, replayed)
    except Exception as exc:  # noqa: BLE001 - a verifier's answer to any input is a verdict
        verdict = _fail(None, None, "unexpected", f"the record could not be checked ({type(exc).__name__}: "
                                                  f"{exc}); it is not accepted")
    verdict.seats = seat_list(genesis)
    verdict.dice = genesis.dice
    verdict.claim_protocol = genesis.claims
    if replayed:
        verdict.claims = claim_report(replayed[0])
    return verdict


def _verify(genesis: Genesis, raw: list[Any], on_applied: OnApplied | None = None,
            replayed: list[Session] | None = None) -> Verdict:
    try:
        table = table_for(genesis)
        observer = Session(genesis, table.game, table.state, plan=table.plan)
    except (ValueError, TypeError, KeyError, ProtocolError, EngineError) as exc:
        return _fail(0, None, "genesis", f"the genesis record cannot start a game: {exc}")
    if replayed is not None:
        replayed.append(observer)  # what its replay found about claims goes into the verdict
    if on_applied is not None:
        hook = on_applied
        observer.subscribe(lambda notice: hook(notice) if isinstance(notice, Applied) else None)
    envelopes: list[Envelope] = []
    for index, item in enumerate(raw):
        try:
            envelopes.append(Envelope.from_data(item))
        except ProtocolError as exc:
            seat = item.get("seat") if isinstance(item, Mapping) else None
            return _fail(None, seat if isinstance(seat, int) else None, "malformed envelope",
                         f"envelope {index}: {exc}")
    gid = game_id(genesis)
    keys = genesis.seat_keys
    logs = [SeatLog(gid, seat, key) for seat, key in enumerate(keys)]
    previous: Envelope | None = None
    gaps: list[tuple[int, int, str]] = []
    for index, env in enumerate(envelopes):
        step, seat = env.seen.step, env.seat
        if previous is not None and order_key(env) <= order_key(previous):
            return _fail(step, seat, "order", f"envelope {index} (seat {seat} #{env.seq}, {env.kind}) is out of "
                         "the transcript order (step, seat, seq): envelopes were moved or swapped")
        previous = env
        if env.game != gid:
            return _fail(step, seat, "wrong game", f"envelope {index} was signed for another game")
        if not 0 <= seat < len(keys):
            return _fail(step, seat, "unknown seat", f"envelope {index} names seat {seat}")
        log = logs[seat]
        try:
            log.verify(env)
        except ProtocolError as exc:
            return _fail(step, seat, "bad signature", f"envelope {index} ({env.kind} #{env.seq}): {exc.detail}")
        if env.seq < log.next_seq:
            return _fail(step, seat, "repeated envelope", f"envelope {index} repeats seat {seat}'s #{env.seq}")
        if env.seq > log.next_seq:
            # A removed envelope: the replay below stops at the step that needed it; the chain resumes here.
            gaps.append((step, seat, f"seat {seat}'s envelope #{log.next_seq} is missing"))
            logs[seat] = log = SeatLog(gid, seat, keys[seat], start=env.seq, head=env.prev)
        try:
            log.append(env)
        except BrokenChain:
            return _fail(step, seat, "broken chain", f"envelope {index} ({env.kind} #{env.seq}) does not chain "
                         "onto the seat's previous envelope")

    def trouble() -> Verdict | None:
        for event in observer.events:
            if isinstance(event, Rejected):
                return _fail(event.step, event.seat, event.reason, event.error)
            if isinstance(event, Cheat):
                lie = (observer.conviction or {}).get("kind") == "false-state-hash"
                failed = _fail(event.step, event.seat, "state hash" if lie else "cheat", event.error)
                if any(e.kind == "dispute" for e in observer.envelopes()):
                    failed.end = "dispute"
                return failed
        return None

    try:
        for env in envelopes:
            observer.receive(env.to_bytes())
            failed = trouble()
            if failed is not None:
                return failed
        observer.close_record()  # claims no answer in the record voided take effect now
        failed = trouble()
        if failed is not None:
            return failed
    except (EngineError, ProtocolError, RuntimeError, ValueError) as exc:
        return _fail(observer.step, None, "replay", str(exc))
    if not observer.finished:
        for claimer, staller, claimed, part in void_claims(observer):
            if any(e.kind == "final" for e in observer.buffered(claimer)):
                return _fail(claimed, claimer, "void forfeit",
                             f"seat {claimer} signed a final record resting on its forfeit claim against seat "
                             f"{staller} at step {claimed} ({part}), but seat {staller}'s answer is in the record: "
                             "an answer on record voids the claim")
        owing = observer.waiting_for()
        missing = f" ({gaps[0][2]})" if gaps else ""
        return _fail(observer.step, owing[0] if owing else None, "incomplete",
                     f"the transcript ends while the game waits for seats {list(owing)} to "
                     f"{observer.waiting_what()}{missing}")
    if gaps:
        return _fail(gaps[0][0], gaps[0][1], "missing envelope", gaps[0][2])
    if observer.audit_findings:
        culprit, at, problem = observer.audit_findings[0]
        return _fail(observer.step if at is None else at, culprit, "audit", problem)
    entry = game_for_rules(genesis.rules_id)
    audited = observer.verdict == "ok" and observer.game.pending(observer.state) is None
    if audited and entry is not None and entry.judge is not None:  # the game's independent judge (Locke's)
        problems = entry.judge(observer.game, observer.state)
        if problems:
            return _fail(observer.step, None, "judge", "the independent judge disagrees with the engine's outcome: "
                         + "; ".join(problems))
    verdict = Verdict(True)
    verdict.judged = audited and entry is not None and entry.judge is not None
    verdict.outcome, verdict.audit = observer.outcome, observer.verdict
    verdict.forfeit = observer.forfeit
    resigned = observer.resigned
    verdict.abandoned = observer.abandoned
    verdict.end = "abandonment claim" if observer.abandoned is not None else \
        "forfeit claim" if observer.forfeit is not None else \
        f"resignation (seat {resigned}'s own signed message)" if resigned is not None else \
        f"seats leaving until one played (step {observer.ended_by_leaves})" if observer.ended_by_leaves is not None \
        else "normal end"
    verdict.void_claims = [{"claimer": c, "staller": s, "step": k, "part": p}
                           for c, s, k, p in void_claims(observer)]
    return verdict


# --- local records ----------------------------------------------------------------


def verify_local(data: Any, *, require_end: bool = True, on_applied: OnApplied | None = None) -> Verdict:
    """Replay a local record (or an old JSON match log) through the engine and check every hash.

    The first state comes from the game registry's local set-up of the
    record, and must have the recorded hash; each input is decoded by the
    game's codec, applied (the engine refuses an illegal one) and followed
    by its recorded state hash; the end must be the engine's outcome with
    the recorded final hash, or a recorded concession. ``require_end=False``
    accepts a record of a game still running (the client's audit of a table
    that stopped early); ``end`` is then "unfinished". Like :func:`verify`,
    any input gives a verdict, never an exception.
    """
    try:
        if is_match_log(data):
            entry = game_for_rules(str(data.get("rules")))
            if entry is None:
                return _fail(None, None, "set-up", f"the log's rules {data.get('rules')!r} are not installed here")
            data = from_match_log(data, entry.rules_version, entry.card_set_hash())
        record = parse_local(data)
    except TranscriptError as exc:
        return _fail(exc.index, None, "format", str(exc))
    try:
        verdict = _verify_local(record, require_end, on_applied)
    except Exception as exc:  # noqa: BLE001 - a verifier's answer to any input is a verdict
        verdict = _fail(None, None, "unexpected", f"the record could not be checked ({type(exc).__name__}: "
                                                  f"{exc}); it is not accepted")
    verdict.table = "local"
    verdict.seats = [{"seat": seat, "name": name, "fingerprint": UNSIGNED} for seat, name in enumerate(record.names)]
    return verdict


def _verify_local(record: LocalRecord, require_end: bool, on_applied: OnApplied | None = None) -> Verdict:
    entry = game_for_rules(record.rules_id)
    if entry is None:
        return _fail(0, None, "set-up", f"the record's rules {record.rules_id!r} are not installed here")
    if entry.rules_version != record.rules_version:
        return _fail(0, None, "set-up", f"the record was played with {entry.title} rules version "
                                        f"{record.rules_version!r}, and this copy of Fairtable has version "
                                        f"{entry.rules_version!r}: another version of the rules cannot replay it; "
                                        "verify it with the Fairtable version it was played with")
    if entry.card_set_hash() != record.card_set_hash:
        return _fail(0, None, "set-up", f"the record was played with another version of {entry.title}'s components "
                                        "(cards, board or charts differ); verify it with that version")
    try:
        setup = entry.local(record.setup, None)
    except ValueError as exc:
        return _fail(0, None, "set-up", f"the record's set-up cannot start a game: {exc}")
    game, state = setup.game, setup.state
    if len(setup.knowledge) != len(record.names):
        return _fail(0, None, "set-up", f"the record names {len(record.names)} seats for a table of "
                                        f"{len(setup.knowledge)}")
    if hash_of(game, state) != record.initial_hash:
        return _fail(0, None, "set-up", "the first state differs from the recorded one: the set-up was changed")
    for step, (data, recorded) in enumerate(zip(record.inputs, record.hashes)):
        try:
            action = game.codec.decode(data)
        except (EngineError, ValueError, TypeError, KeyError) as exc:
            return _fail(step, None, "malformed input", f"input {step} cannot be read as an input of "
                                                        f"{entry.title}: {exc}")
        seat = action.seat if action.seat >= 0 else None
        before = state
        try:
            state = game.apply(state, action)
        except EngineError as exc:
            return _fail(step, seat, "refused", f"input {step} ({action.KIND}) is refused by the rules: {exc}")
        if hash_of(game, state) != recorded:
            return _fail(step, seat, "state hash", f"the state after input {step} ({action.KIND}) differs from "
                                                   "the recorded one: the record was changed after the game")
        if on_applied is not None:
            on_applied(Applied(step, before, action, state))
    steps = len(record.inputs)
    if hash_of(game, state) != record.final_hash:
        return _fail(steps, None, "final hash", "the last replayed state is not the recorded final one: inputs "
                                                "were removed from the end of the record")
    outcome = game.outcome(state)
    recorded_outcome = record.outcome
    if outcome is None and record.conceded is None and not require_end:
        verdict = Verdict(True)
        verdict.audit, verdict.end = "replayed", "unfinished"
        return verdict
    if outcome is None and record.conceded is None:
        return _fail(steps, None, "incomplete", f"the record ends before the game does ({steps} inputs); "
                                                "save it after the end")
    if outcome is not None and record.conceded is not None:
        return _fail(steps, record.conceded, "concession", "the record says a seat conceded, but the game had "
                                                           "already ended by the rules")
    if outcome is not None and not _same_data(recorded_outcome, outcome.__canonical__()):
        return _fail(steps, None, "outcome", "the recorded outcome is not the one the rules reach")
    if outcome is not None and entry.judge is not None:  # the game's independent judge (e.g. Locke's)
        problems = entry.judge(game, state)
        if problems:
            return _fail(steps, None, "judge", "the independent judge disagrees with the engine's outcome: "
                                               + "; ".join(problems))
    if record.conceded is not None:
        try:
            conceded = Outcome.from_data(recorded_outcome)
        except ValueError as exc:
            return _fail(steps, record.conceded, "outcome", f"the recorded outcome is malformed: {exc}")
        if record.conceded in conceded.winners:
            return _fail(steps, record.conceded, "outcome", "the seat that conceded is recorded as a winner")
        outcome = conceded
    assert outcome is not None
    verdict = Verdict(True)
    verdict.judged = entry.judge is not None and record.conceded is None
    verdict.outcome = outcome.__canonical__()
    verdict.audit = "replayed"
    verdict.end = "normal end" if record.conceded is None else "concession"
    return verdict


def _same_data(recorded: Any, replayed: Any) -> bool:
    """Whether recorded data is the replayed data (compared by canonical bytes: lists and tuples alike)."""
    try:
        return encode(recorded) == encode(replayed)
    except (EncodingError, TypeError, ValueError):
        return False


# --- proofs of cheating ---------------------------------------------------------


class ProofVerdict:
    """Result of :func:`verify_proof`: whether the file proves its claim."""

    def __init__(self, ok: bool, claim: Mapping[str, Any] | None, detail: str) -> None:
        self.ok, self.claim, self.detail = ok, claim, detail

    def to_data(self) -> dict[str, Any]:
        return {"ok": self.ok, "claim": dict(self.claim) if self.claim is not None else None,
                "detail": self.detail}

    def __str__(self) -> str:
        return f"proof holds: {self.detail}" if self.ok else f"NOT A PROOF: {self.detail}"


def verify_proof(data: Any) -> ProofVerdict:
    """Check a proof file from scratch: replay its signed record as an observer
    and require exactly the claimed conviction, and nothing refused before it.

    A false state hash proves a lie only when the accused signed that it applied
    the very inputs the file replays (the inputs digest in its ``seen``,
    net/session/inputs.py): otherwise a cheater could put a second version of one
    of its own envelopes, never sent, before an honest seat's answer to the first."""
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
    lying = observer.proof_envelopes[-1] if observer.proof_envelopes else None
    if lying is None or lying.seen.inputs is None:
        return ProofVerdict(False, claim, "the accused's envelope does not sign the digest of the inputs it had "
                                          "applied, so this record cannot show that it saw these envelopes (it may "
                                          "have been shown another version of one): not a proof")
    halted = observer.halted
    assert isinstance(halted, Cheat)
    return ProofVerdict(True, claim, f"{who}, key {key}, cheated at step {halted.step}: {halted.error} (the "
                                     "inputs it signed as applied are the ones this record holds)")

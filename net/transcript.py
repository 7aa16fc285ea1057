"""Transcript files: the genesis record and every envelope of one game.

Format (docs/protocol.md, "Transcript"): the canonical encoding of the map
``{"format": "fairtable-transcript/2", "genesis": <genesis>, "envelopes":
[<envelope>, ...]}`` with envelopes sorted by (seen step, seat, seq). The
final audit records are envelopes of kind ``final``. Anyone can check a file
offline with ``python -m tools.verify FILE``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from net.envelope import Envelope, Genesis
from net.errors import ProtocolError

FORMAT = "fairtable-transcript/2"


class TranscriptError(ValueError):
    """The file is not a transcript; ``index`` is the envelope position at fault."""

    def __init__(self, message: str, *, index: int | None = None) -> None:
        self.index = index
        super().__init__(message)


def order_key(env: Envelope) -> tuple[int, int, int]:
    return (env.seen.step, env.seat, env.seq)


def make_transcript(genesis: Genesis, envelopes: Sequence[Envelope]) -> dict[str, Any]:
    ordered = sorted(envelopes, key=order_key)
    return {"format": FORMAT, "genesis": genesis.to_data(), "envelopes": [e.to_data() for e in ordered]}


def save(path: str | Path, transcript: dict[str, Any]) -> None:
    Path(path).write_bytes(encode(transcript))


def load_raw(path: str | Path) -> Any:
    """Decoded canonical data of a transcript file (not yet checked)."""
    try:
        return decode(Path(path).read_bytes())
    except EncodingError as exc:
        raise TranscriptError(f"not a transcript: the file is not canonical data ({exc})") from None


def parse(data: Any) -> tuple[Genesis, list[Any]]:
    """Genesis record and the raw envelope list of transcript data."""
    if not isinstance(data, Mapping) or set(data) != {"format", "genesis", "envelopes"}:
        raise TranscriptError("not a transcript: expected a map with format, genesis and envelopes")
    if data["format"] != FORMAT:
        raise TranscriptError(f"unsupported transcript format {data['format']!r}; expected {FORMAT!r}")
    try:
        genesis = Genesis.from_data(data["genesis"])
    except (ProtocolError, ValueError) as exc:  # Genesis checks raise MalformedMessage (a ProtocolError)
        raise TranscriptError(f"the genesis record is invalid: {exc}") from None
    if not isinstance(data["envelopes"], (tuple, list)):
        raise TranscriptError("the envelopes field must be a list")
    return genesis, list(data["envelopes"])


# --- offline verification ---------------------------------------------------------

class Verdict:
    """Result of :func:`verify`: ``ok``, or the first bad step and the seat responsible.

    Whatever the result, ``seats`` lists each seat's name and key fingerprint
    once the genesis record could be read (so a person can check the record
    against the friends they played), and ``outcome``/``end`` say what the
    record shows and how it was reached: ``end`` is "normal end", "forfeit
    claim", "resignation (seat S's own signed message)" or "dispute" (a failed
    verdict whose evidence is a dispute). ``forfeit`` (for ``end`` "forfeit
    claim") is the signed claim the result rests on; ``void_claims`` lists
    claims the record's own answers voided.
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

    def to_data(self) -> dict[str, Any]:
        return {"ok": self.ok, "step": self.step, "seat": self.seat, "reason": self.reason,
                "detail": self.detail, "seats": self.seats, "outcome": self.outcome, "audit": self.audit,
                "end": self.end, "forfeit": self.forfeit, "void_claims": self.void_claims}

    def _who(self, seat: int) -> str:
        named = next((s["name"] for s in self.seats if s["seat"] == seat), "")
        return f"seat {seat} ({named})" if named else f"seat {seat}"

    def __str__(self) -> str:
        lines = []
        if not self.ok:
            who = f"seat {self.seat}" if self.seat is not None else "no single seat"
            lines.append(f"FAILED at step {self.step} ({who}): {self.reason}: {self.detail}")
        elif self.end == "forfeit claim":
            lines.append("ok as a record: every signature, proof and replayed step checks out, but the result "
                         "rests on a forfeit claim, and a timeout cannot be proven offline")
        else:
            lines.append("ok: every signature, proof, replayed step and the audit check out")
        for s in self.seats:
            lines.append(f"  seat {s['seat']}: {s['name'] or '(no name)'}, key {s['fingerprint']}")
        if self.ok and self.outcome is not None:
            winner = self.outcome.get("winner")
            result = "a draw or no single winner" if winner is None else f"{self._who(winner)} wins"
            lines.append(f"outcome: {result} ({self.outcome.get('reason', '')}); audit: {self.audit}")
        if self.forfeit is not None:
            f = self.forfeit
            claimers = ", ".join(self._who(c) for c in f["claimers"])
            lines.append(f"reached by: forfeit claim: {claimers} signed that {self._who(f['staller'])} did not "
                         f"{f['owed']} in time (step {f['step']}, {f['part']}); that seat's answer is not in "
                         "this record. Whether it really was late only the players' clocks can tell")
        elif self.end is not None:
            lines.append(f"reached by: {self.end}")
        for v in self.void_claims:
            lines.append(f"void claim: {self._who(v['claimer'])} claimed a forfeit by {self._who(v['staller'])} "
                         f"at step {v['step']} ({v['part']}), but that seat's answer is on record (a premature "
                         "claim, or one that crossed the answer)")
        return "\n".join(lines)


def _fail(step: int | None, seat: int | None, reason: str, detail: str) -> Verdict:
    return Verdict(False, step, seat, reason, detail)


def seat_list(genesis: Genesis) -> list[dict[str, Any]]:
    """Each seat's name (from the genesis options, if any) and key fingerprint."""
    from net.identity import fingerprint_of

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


def verify(data: Any) -> Verdict:
    """Check a decoded transcript completely (see docs/protocol.md §13).

    Hostile or damaged input of any shape gives a failed verdict, never an
    exception: each known class of flaw has its own reason, and anything the
    checks did not foresee is reported as reason "unexpected" with its type.
    """
    try:
        genesis, raw = parse(data)
    except TranscriptError as exc:
        return _fail(None, None, "format", str(exc))
    try:
        verdict = _verify(genesis, raw)
    except Exception as exc:  # noqa: BLE001 - a verifier's answer to any input is a verdict
        verdict = _fail(None, None, "unexpected", f"the record could not be checked ({type(exc).__name__}: "
                                                  f"{exc}); it is not accepted")
    verdict.seats = seat_list(genesis)
    return verdict


def _verify(genesis: Genesis, raw: list[Any]) -> Verdict:
    from engine.core.errors import EngineError
    from net.envelope import game_id
    from net.session.core import Session
    from net.session.deadlines import void_claims
    from net.session.events import Cheat, Rejected
    from net.games import table_for

    try:
        table = table_for(genesis)
        observer = Session(genesis, table.game, table.state, plan=table.plan)
    except (ValueError, TypeError, KeyError, ProtocolError, EngineError) as exc:
        return _fail(0, None, "genesis", f"the genesis record cannot start a game: {exc}")
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
    expected = [0] * len(keys)
    heads = [bytes(32)] * len(keys)
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
        try:
            env.verify(keys[seat])
        except ProtocolError as exc:
            return _fail(step, seat, "bad signature", f"envelope {index} ({env.kind} #{env.seq}): {exc.detail}")
        if env.seq < expected[seat]:
            return _fail(step, seat, "repeated envelope", f"envelope {index} repeats seat {seat}'s #{env.seq}")
        if env.seq > expected[seat]:
            # A removed envelope: the replay below stops at the step that needed it.
            gaps.append((step, seat, f"seat {seat}'s envelope #{expected[seat]} is missing"))
            expected[seat] = env.seq
        elif env.prev != heads[seat]:
            return _fail(step, seat, "broken chain", f"envelope {index} ({env.kind} #{env.seq}) does not chain "
                         "onto the seat's previous envelope")
        expected[seat] += 1
        heads[seat] = env.digest()

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
    verdict = Verdict(True)
    verdict.outcome, verdict.audit = observer.outcome, observer.verdict
    verdict.forfeit = observer.forfeit
    resigned = observer.resigned
    verdict.end = "forfeit claim" if observer.forfeit is not None else \
        f"resignation (seat {resigned}'s own signed message)" if resigned is not None else "normal end"
    verdict.void_claims = [{"claimer": c, "staller": s, "step": k, "part": p}
                           for c, s, k, p in void_claims(observer)]
    return verdict

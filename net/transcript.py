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
    except ValueError as exc:
        raise TranscriptError(f"the genesis record is invalid: {exc}") from None
    if not isinstance(data["envelopes"], (tuple, list)):
        raise TranscriptError("the envelopes field must be a list")
    return genesis, list(data["envelopes"])


# --- offline verification ---------------------------------------------------------


class Verdict:
    """Result of :func:`verify`: ``ok``, or the first bad step and the seat responsible."""

    def __init__(self, ok: bool, step: int | None = None, seat: int | None = None, reason: str = "",
                 detail: str = "") -> None:
        self.ok, self.step, self.seat, self.reason, self.detail = ok, step, seat, reason, detail

    def to_data(self) -> dict[str, Any]:
        return {"ok": self.ok, "step": self.step, "seat": self.seat, "reason": self.reason,
                "detail": self.detail}

    def __str__(self) -> str:
        if self.ok:
            return "ok"
        who = f"seat {self.seat}" if self.seat is not None else "no single seat"
        return f"FAILED at step {self.step} ({who}): {self.reason}: {self.detail}"


def _fail(step: int | None, seat: int | None, reason: str, detail: str) -> Verdict:
    return Verdict(False, step, seat, reason, detail)


def verify(data: Any) -> Verdict:
    """Check a decoded transcript completely (see docs/protocol.md §13)."""
    from engine.core.errors import EngineError
    from net.errors import ProtocolError
    from net.session.core import Session
    from net.session.events import Cheat, Desync, Rejected
    from net.session.registry import table_for

    try:
        genesis, raw = parse(data)
    except TranscriptError as exc:
        return _fail(None, None, "format", str(exc))
    try:
        table = table_for(genesis)
    except ValueError as exc:
        return _fail(0, None, "genesis", str(exc))
    envelopes: list[Envelope] = []
    for index, item in enumerate(raw):
        try:
            envelopes.append(Envelope.from_data(item))
        except ProtocolError as exc:
            seat = item.get("seat") if isinstance(item, dict) else None
            return _fail(None, seat if isinstance(seat, int) else None, "malformed envelope",
                         f"envelope {index}: {exc}")
    from net.envelope import game_id

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
    observer = Session(genesis, table.game, table.state, plan=table.plan)
    try:
        for env in envelopes:
            observer.receive(env.to_bytes())
            for event in observer.events:
                if isinstance(event, Rejected):
                    return _fail(event.step, event.seat, event.reason, event.error)
                if isinstance(event, Cheat):
                    return _fail(event.step, event.seat, "cheat", event.error)
                if isinstance(event, Desync):
                    return _fail(event.step, event.seat, "state hash",
                                 f"seat {event.seat} signed a state hash at step {event.step} that differs "
                                 "from the replayed state")
    except (EngineError, ProtocolError, RuntimeError, ValueError) as exc:
        return _fail(observer.step, None, "replay", str(exc))
    if not observer.finished:
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
    return Verdict(True)

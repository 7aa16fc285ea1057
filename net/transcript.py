"""Transcript files: the genesis record and every envelope of one game.

Format (docs/protocol.md, "Transcript"): the canonical encoding of the map
``{"format": "fairtable-transcript/2", "genesis": <genesis>, "envelopes":
[<envelope>, ...]}`` with envelopes sorted by (seen step, seat, seq). The
final audit records are envelopes of kind ``final``. A proof of cheating
(:data:`PROOF_FORMAT`, written by :mod:`net.session.conviction`) has the
same parts plus the claim.

This module is the file format only and imports nothing of the session, so
the session can write transcripts and the offline verifier
(:mod:`net.verifier`, ``python -m tools.verify FILE``), which replays them
through an observer session, can read them, with no import cycle.
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
#: A saved proof that a seat cheated: {"format", "claim", "genesis", "envelopes"}.
PROOF_FORMAT = "fairtable-proof/1"


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


def is_proof(data: Any) -> bool:
    """Whether decoded data claims to be a proof file (checked in full by net.verifier)."""
    return isinstance(data, Mapping) and data.get("format") == PROOF_FORMAT


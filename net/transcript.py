"""Game records: the one file format of a played game, networked or local.

Every record is the canonical encoding (engine.core.encoding) of a map
whose ``format`` names it, in one style, ``fairtable-<kind>/<version>``:

- :data:`FORMAT` ``fairtable-transcript/2``, a networked table's signed
  record (docs/protocol.md §13): ``{"format", "genesis": <genesis>,
  "envelopes": [<envelope>, ...]}`` with envelopes sorted by (seen step,
  seat, seq); the final audit records are envelopes of kind ``final``.
- :data:`LOCAL_FORMAT` ``fairtable-local-transcript/1``, a trusted local
  table's record (``tools.match --save`` without ``--net``, the client's
  *Save transcript* after a local game): ``{"format", "table": {"rules_id",
  "rules_version", "card_set_hash", "names", "seed", "setup",
  "initial_hash"}, "inputs": [{"input": <action data>, "hash": <state hash
  after it>}, ...], "end": {"outcome", "conceded", "final_hash"}}``. It has
  the networked record's parts without the cryptography: ``table`` plays the
  genesis' part (``setup`` is the game registry's local record, which
  rebuilds the first state), ``inputs`` the envelopes' (every engine input,
  the table's own answers included). It is unsigned on purpose: a local
  table is trusted and holds every card, so signatures by throwaway keys
  would prove nothing about who played; the state hash after every input
  makes a changed, dropped or reordered input show, naming its step.
- :data:`PROOF_FORMAT` ``fairtable-proof/1``, a proof of cheating (written by
  :mod:`net.session.conviction`): the signed record's parts plus the claim.

:func:`load_raw` also reads the one earlier local format that a tool wrote,
``tools.match --log``'s JSON ``fairtable.match-log/1``; :func:`from_match_log`
turns it into a local record, so old logs still verify.

This module is the file format only and imports nothing of the session, so
the session can write transcripts and the offline verifier
(:mod:`net.verifier`, ``python -m tools.verify FILE``: the one replayer of
every record) can read them, with no import cycle.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from engine.core.game import Outcome
from net.envelope import Envelope, Genesis
from net.errors import ProtocolError

FORMAT = "fairtable-transcript/2"
#: A trusted local table's record (unsigned): {"format", "table", "inputs", "end"}.
LOCAL_FORMAT = "fairtable-local-transcript/1"
#: A saved proof that a seat cheated: {"format", "claim", "genesis", "envelopes"}.
PROOF_FORMAT = "fairtable-proof/1"
#: The JSON log ``tools.match --log`` wrote before the local record existed (read, never written).
MATCH_LOG_FORMAT = "fairtable.match-log/1"
#: The JSON an earlier client saved after a local game: recognised only to say it is not checked.
OLD_CLIENT_FORMAT = "fairtable.transcript/1"


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


#: The largest record file :func:`load_raw` reads (64 MiB). A whole networked Rider game is under
#: 100 KB (tests/fixtures/rider-pre-registry.ft: 68 KB) and the session bounds every envelope by kind
#: (docs/security.md), so a real record is far smaller; a bigger file is refused before it is read,
#: so a wrong or hostile file cannot make a tool or the client hold gigabytes in memory.
MAX_RECORD_BYTES = 64 * 1024 * 1024


def read_record_bytes(path: str | Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of a record file, at most ``limit`` of them: a larger file (or one that grows
    while it is read) is a :class:`TranscriptError` that says so and what to do. OSError as usual."""
    with Path(path).open("rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise TranscriptError(too_big(limit))  # refused unread
        raw = handle.read(limit + 1)  # a pipe or a growing file: read no further than the bound
    if len(raw) > limit:
        raise TranscriptError(too_big(limit))
    return raw


def too_big(limit: int) -> str:
    """What an oversized record file is told: what happened and what to do."""
    size = f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit} bytes"
    return (f"not a transcript: the file is larger than {size}, far more than any game record (they are "
            "kilobytes to a few megabytes); check that you chose the record file itself")


def load_raw(path: str | Path) -> Any:
    """Decoded canonical data of a record file (not yet checked; at most :data:`MAX_RECORD_BYTES`);
    an old JSON match log is read as the local record it holds."""
    raw = read_record_bytes(path)
    try:
        return decode(raw)
    except EncodingError as exc:
        problem = exc
    try:
        old = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        old = None
    if isinstance(old, Mapping) and old.get("format") == MATCH_LOG_FORMAT:
        return old  # the verifier turns it into a local record (from_match_log) with the registry's help
    if isinstance(old, Mapping) and old.get("format") == OLD_CLIENT_FORMAT:
        raise TranscriptError(f"this is an earlier client's local save ({OLD_CLIENT_FORMAT}), which no tool can "
                              "check (docs/architecture.md \"Game records\"); games saved by this release can be")
    raise TranscriptError(f"not a transcript: the file is not canonical data ({problem}); it may be cut short "
                          "or another kind of file: copy the record again whole (a record is saved by tools.match "
                          "--save, a peer's --save, or the client's Save transcript)")


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



# --- local records ------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class LocalRecord:
    """A parsed local record (:data:`LOCAL_FORMAT`); the inputs are still raw action data."""

    rules_id: str
    rules_version: str
    card_set_hash: bytes
    names: tuple[str, ...]
    seed: int
    setup: Mapping[str, Any]
    initial_hash: bytes
    inputs: tuple[Any, ...]
    hashes: tuple[bytes, ...]
    outcome: Any
    conceded: int | None
    final_hash: bytes


def make_local_transcript(*, rules_id: str, rules_version: str, card_set_hash: bytes, names: Sequence[str],
                          seed: int, setup: Mapping[str, Any], initial_hash: bytes, inputs: Sequence[Any],
                          hashes: Sequence[bytes], outcome: Outcome | None, final_hash: bytes,
                          conceded: int | None = None) -> dict[str, Any]:
    """The local record of a game: ``inputs`` are the applied actions' canonical data in order,
    ``hashes`` the state hash after each; ``conceded`` the seat that gave the game up, if one did
    (a concession ends a local game outside the engine, so the replay cannot reach it)."""
    if len(inputs) != len(hashes):
        raise ValueError("one state hash per input")
    return {
        "format": LOCAL_FORMAT,
        "table": {"rules_id": rules_id, "rules_version": rules_version, "card_set_hash": card_set_hash,
                  "names": list(names), "seed": seed, "setup": dict(setup), "initial_hash": initial_hash},
        "inputs": [{"input": data, "hash": h} for data, h in zip(inputs, hashes)],
        "end": {"outcome": None if outcome is None else outcome.__canonical__(), "conceded": conceded,
                "final_hash": final_hash},
    }


def is_local(data: Any) -> bool:
    """Whether decoded data claims to be a local record (checked in full by :func:`parse_local`)."""
    return isinstance(data, Mapping) and data.get("format") == LOCAL_FORMAT


def _fields(data: Any, keys: set[str], what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping) or set(data) != keys:
        raise TranscriptError(f"not a local transcript: {what} must be a map with {', '.join(sorted(keys))}")
    return data


def _digest(value: Any, what: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise TranscriptError(f"the local transcript's {what} must be a 32-byte hash")
    return value


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_local(data: Any) -> LocalRecord:
    """A local record's parts, every field's type checked; TranscriptError naming the first bad one."""
    top = _fields(data, {"format", "table", "inputs", "end"}, "the file")
    if top["format"] != LOCAL_FORMAT:
        raise TranscriptError(f"unsupported local transcript format {top['format']!r}; expected {LOCAL_FORMAT!r}")
    table = _fields(top["table"], {"rules_id", "rules_version", "card_set_hash", "names", "seed", "setup",
                                   "initial_hash"}, "its table")
    end = _fields(top["end"], {"outcome", "conceded", "final_hash"}, "its end")
    if not isinstance(table["rules_id"], str) or not isinstance(table["rules_version"], str):
        raise TranscriptError("the local transcript's rules id and version must be text")
    names = table["names"]
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise TranscriptError("the local transcript's names must be a list of text")
    if not _int(table["seed"]) or not isinstance(table["setup"], Mapping):
        raise TranscriptError("the local transcript's seed must be a number and its set-up a map")
    if not isinstance(top["inputs"], (list, tuple)):
        raise TranscriptError("the local transcript's inputs must be a list")
    inputs, hashes = [], []
    for index, item in enumerate(top["inputs"]):
        if not isinstance(item, Mapping) or set(item) != {"input", "hash"}:
            raise TranscriptError(f"input {index} of the local transcript must be a map with input and hash",
                                  index=index)
        inputs.append(item["input"])
        hashes.append(_digest(item["hash"], f"state hash after input {index}"))
    conceded = end["conceded"]
    if conceded is not None and not (_int(conceded) and 0 <= conceded < len(names)):
        raise TranscriptError(f"the local transcript's conceding seat {conceded!r} is not at the table")
    return LocalRecord(table["rules_id"], table["rules_version"], _digest(table["card_set_hash"], "components hash"),
                       tuple(names), table["seed"], table["setup"], _digest(table["initial_hash"], "first state hash"),
                       tuple(inputs), tuple(hashes), end["outcome"], conceded,
                       _digest(end["final_hash"], "final state hash"))


def _from_json(value: Any) -> Any:
    """The match log's JSON spelling of canonical data back to it: {"hex": ...} was bytes."""
    if isinstance(value, dict):
        if set(value) == {"hex"} and isinstance(value["hex"], str):
            return bytes.fromhex(value["hex"])
        return {k: _from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def is_match_log(data: Any) -> bool:
    """Whether :func:`load_raw` read an old JSON match log (:data:`MATCH_LOG_FORMAT`)."""
    return isinstance(data, Mapping) and data.get("format") == MATCH_LOG_FORMAT


def from_match_log(data: Mapping[str, Any], rules_version: str, card_set_hash: bytes) -> dict[str, Any]:
    """An old ``tools.match --log`` JSON log (:data:`MATCH_LOG_FORMAT`) as a local record.

    The log did not carry its game's rules version and components hash (its
    set-up record names the components, and the registry's local set-up
    checks them), so the caller passes the installed game's. The log's bots
    stand in for the seats' names. A field that is not what the old writer
    wrote raises TranscriptError."""
    try:
        steps = data["steps"]
        record: dict[str, Any] = {
            "format": LOCAL_FORMAT,
            "table": {"rules_id": data["rules"], "rules_version": rules_version, "card_set_hash": card_set_hash,
                      "names": [str(b) for b in data["bots"]], "seed": data["seed"], "setup": data["setup"],
                      "initial_hash": bytes.fromhex(data["initial_hash"])},
            "inputs": [{"input": _from_json(s["action"]), "hash": bytes.fromhex(s["hash"])} for s in steps],
            "end": {"outcome": _from_json(data["outcome"]) if data["outcome"].get("reason") != "unfinished" else None,
                    "conceded": None, "final_hash": bytes.fromhex(data["final_hash"])},
        }
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise TranscriptError(f"not a readable {MATCH_LOG_FORMAT} log ({type(exc).__name__}: {exc})") from None
    return record

"""Append-only, fsynced journal of one peer: envelopes and its own secrets.

A peer writes its own envelopes before sending them, others' envelopes when
it accepts them (before anything it sends can depend on them), and every
secret it will need later (card keys, salts, commitment openings) *before*
using them, so a crash or kill loses nothing it acted on: on restart the
session replays the journal and asks any peer for the rest.

The journal holds verdicts, not arrivals: an envelope that is still waiting
for its turn, or that was refused, is not in it (a refused envelope of our
own, journalled when it was sent, is followed by a ``rejected`` record). So
a replay reproduces exactly the accept/reject decisions of the first run:
the genuine replacement of a refused envelope, which carries the same seq,
is not mistaken for equivocation after a restart, and a flood of envelopes
that never fit costs no disk at all.

Two files in one directory (mode 0700):

- ``envelopes.log``: records of envelope bytes (canonical maps), and verdict
  records ``encode(["rejected", digest])`` (canonical lists);
- ``secrets.log``: owner-only (0600) records ``encode([name, value])``; the
  last record of a name wins.

A record is a 4-byte big-endian length and that many bytes. A torn last record
(the process died mid-write) is ignored on reading and cut off before the
next append.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError

ENVELOPES = "envelopes.log"
SECRETS = "secrets.log"
MAX_RECORD = 64 * 1024 * 1024
#: Tag of the verdict record that takes a journalled envelope back.
REJECTED = "rejected"


class JournalError(RuntimeError):
    """The journal cannot be used (permissions, corruption); the text says what to do."""


def _read_records(path: Path) -> tuple[list[bytes], int]:
    """All complete records and the byte length they cover."""
    if not path.exists():
        return [], 0
    data = path.read_bytes()
    records: list[bytes] = []
    pos = 0
    while pos + 4 <= len(data):
        size = int.from_bytes(data[pos:pos + 4], "big")
        if size > MAX_RECORD or pos + 4 + size > len(data):
            break
        records.append(data[pos + 4:pos + 4 + size])
        pos += 4 + size
    return records, pos


class _Log:
    """One append-only record file, fsynced on every append."""

    def __init__(self, path: Path, mode: int) -> None:
        self.path = path
        self.records, good = _read_records(path)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, mode)
        if os.name == "posix":
            os.fchmod(fd, mode)
        os.ftruncate(fd, good)  # drop a torn tail record
        os.lseek(fd, 0, os.SEEK_END)
        self._fd = fd

    def append(self, payload: bytes) -> None:
        os.write(self._fd, len(payload).to_bytes(4, "big") + payload)
        os.fsync(self._fd)
        self.records.append(payload)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


class Journal:
    """The journal directory of one peer in one game."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            mode = stat.S_IMODE(self.directory.stat().st_mode)
            if mode & 0o077:
                os.chmod(self.directory, 0o700)
        self._envelopes = _Log(self.directory / ENVELOPES, 0o600)
        self._secrets = _Log(self.directory / SECRETS, 0o600)
        self._secret_map: dict[str, Any] = {}
        for record in self._secrets.records:
            try:
                name, value = decode(record)
            except (EncodingError, ValueError, TypeError):
                raise JournalError(f"{self._secrets.path} is corrupt; the game cannot be resumed from "
                                   "this journal. Move it aside and ask the table to end the game") from None
            self._secret_map[str(name)] = value

    # --- envelopes ------------------------------------------------------------

    def append_envelope(self, data: bytes) -> None:
        """Record one envelope (bytes); durable when this returns."""
        self._envelopes.append(data)

    def mark_rejected(self, digest: bytes) -> None:
        """Record that a journalled envelope (by envelope digest) was refused:
        a replay leaves it out, as the first run did."""
        self._envelopes.append(encode((REJECTED, digest)))

    def envelopes(self) -> list[bytes]:
        """The envelopes to replay, in journal order, without the refused ones."""
        records = self._envelopes.records
        rejected = set()
        for record in records:
            if record[:1] == b"l":  # a verdict record (envelopes are maps)
                try:
                    tag, value = decode(record)
                except (EncodingError, ValueError, TypeError):
                    raise JournalError(f"{self._envelopes.path} is corrupt; the game cannot be resumed from "
                                       "this journal. Move it aside and ask the table to end the game") from None
                if tag == REJECTED and isinstance(value, bytes):
                    rejected.add(value)
        if not rejected:
            return [r for r in records if r[:1] != b"l"]
        from net.envelope import Envelope
        from net.errors import ProtocolError

        kept = []
        for record in records:
            if record[:1] == b"l":
                continue
            try:
                if Envelope.from_bytes(record).digest() in rejected:
                    continue
            except ProtocolError:
                pass  # not an envelope: the session refuses it on replay, naming no seat
            kept.append(record)
        return kept

    # --- secrets ----------------------------------------------------------------

    def put_secret(self, name: str, value: Any) -> None:
        """Record a secret (canonical data); durable when this returns."""
        self._secrets.append(encode((name, value)))
        self._secret_map[name] = value

    def secret(self, name: str) -> Any:
        return self._secret_map.get(name)

    def close(self) -> None:
        self._envelopes.close()
        self._secrets.close()

"""A peer's directory: what a restarted peer needs to rejoin its game.

Layout (mode 0700; every file owner-only):

- ``peer.ft``: how this peer was started (role, game, invite code or listen
  address, identity key path, bot, display name), written before the lobby;
- ``genesis.ft``: the genesis record and our seat, written as soon as the
  game starts (before the first envelope);
- ``journal/``: the session journal (:mod:`net.journal`): every envelope and
  our own secrets, fsynced before use.

Files are canonical data, replaced atomically (write, fsync, rename), and
read back through the one bounded reader of record files
(:func:`net.transcript.read_record_bytes`) with a bound of their own: the
directory may have been reused or tampered with, and a resume must fail
with a message, not by reading an unbounded file into memory.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from net.envelope import Genesis
from net.errors import ProtocolError
from net.transcript import TranscriptError, read_record_bytes

PEER_FILE = "peer.ft"
GENESIS_FILE = "genesis.ft"
#: A host's bot seat: its key seed, kind and name (net/peer/bot_seats.py).
BOT_FILE = "bot.ft"
JOURNAL_DIR = "journal"
FORMAT = "fairtable-peer/1"
#: Largest peer.ft or genesis.ft read back: what a peer writes is a few KiB (a genesis of ten
#: seats with its options is under 4 KiB), so 1 MiB is far above honest use.
MAX_STORE_FILE_BYTES = 1024 * 1024


class StoreError(ValueError):
    """The directory cannot be used to resume; the text says what to do."""


def prepare(directory: Path) -> Path:
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.name == "posix":
        os.chmod(directory, 0o700)
    return directory


def _write(path: Path, value: Any) -> None:
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, encode(value))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def _read(path: Path) -> Any:
    """A saved file, decoded; at most :data:`MAX_STORE_FILE_BYTES` of it is ever read."""
    try:
        raw = read_record_bytes(path, MAX_STORE_FILE_BYTES)
    except FileNotFoundError:
        raise StoreError(f"{path} is missing: this directory holds no peer of a started game. Join the "
                         "table again with the invite code") from None
    except TranscriptError:
        raise StoreError(f"{path} is larger than {MAX_STORE_FILE_BYTES // 1024} KiB, far more than a peer "
                         "ever saves (a few KiB): it is not the file this peer wrote. Check that the directory "
                         "is the one the peer was started with, or join the table again with the invite "
                         "code") from None
    except OSError as exc:
        raise StoreError(f"{path} cannot be read ({exc.strerror or exc}); check its permissions, or join the "
                         "table again with the invite code") from None
    try:
        return decode(raw)
    except EncodingError as exc:
        raise StoreError(f"{path} is cut short or damaged ({len(raw)} bytes that are not canonical data: "
                         f"{exc}), so the game cannot be resumed from this directory; join the table again "
                         "with the invite code") from None


def save_peer(directory: Path, info: Mapping[str, Any]) -> None:
    _write(prepare(directory) / PEER_FILE, {"format": FORMAT, **info})


def load_peer(directory: Path) -> dict[str, Any]:
    value = _read(directory / PEER_FILE)
    if not isinstance(value, Mapping) or value.get("format") != FORMAT:
        raise StoreError(f"{directory / PEER_FILE} is not a Fairtable peer file; check that the directory is "
                         "the one the peer was started with")
    return dict(value)


def save_bot(directory: Path, info: Mapping[str, Any]) -> None:
    """A host's bot seat: its key seed, kind and name (net/peer/bot_seats.py), private to the host."""
    _write(prepare(directory) / BOT_FILE, {"format": FORMAT, **info})


def load_bot(directory: Path) -> dict[str, Any]:
    value = _read(directory / BOT_FILE)
    if not isinstance(value, Mapping) or value.get("format") != FORMAT:
        raise StoreError(f"{directory / BOT_FILE} is not a Fairtable bot file")
    return dict(value)


def save_genesis(directory: Path, genesis: Genesis, seat: int) -> None:
    _write(prepare(directory) / GENESIS_FILE, {"genesis": genesis.to_data(), "seat": seat})


def load_genesis(directory: Path) -> tuple[Genesis, int]:
    value = _read(directory / GENESIS_FILE)
    try:
        genesis = Genesis.from_data(value["genesis"])
        seat = value["seat"]
    except (ProtocolError, KeyError, TypeError) as exc:
        raise StoreError(f"{directory / GENESIS_FILE} is damaged ({exc}); the game cannot be resumed") from None
    if not isinstance(seat, int) or not 0 <= seat < len(genesis.seat_keys):
        raise StoreError(f"{directory / GENESIS_FILE} names no valid seat")
    return genesis, seat


def journal_dir(directory: Path) -> Path:
    return directory / JOURNAL_DIR

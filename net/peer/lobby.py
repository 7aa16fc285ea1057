"""The lobby: how a host and its joiners agree on a genesis record (sans-I/O).

Before a game exists the mesh runs in lobby mode (docs/protocol.md §14).
A joiner that reached the host sends ``join`` (rules, card-set hash, its
lobby contribution, a display name); the host seats joiners in arrival order
after itself, refuses what does not fit with a ``refuse`` saying why, and once
every seat is taken broadcasts ``start`` with the genesis record. A joiner
checks it, answers ``ready`` (still in lobby mode) and binds its mesh to the
game id; when every joiner is ready the host binds its own mesh and sends
``go``, and the sessions take over. (Binding in this order means no peer ever
receives a game frame while its links still expect lobby frames.) ``done`` says a
peer has every final record, so all may leave; ``nudge`` wraps a session
catch-up request with a fresh nonce (the mesh drops repeated payloads, and a
peer asks again whenever the game stops moving).

Every lobby payload is the canonical encoding of ``{"lobby": {"t": kind, ...}}``
(one key, so a peer tells lobby payloads from session envelopes by their
first bytes without decoding); every one carries a fresh 8-byte ``nonce``
because the mesh drops a payload whose bytes it has already seen.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from net.envelope import Genesis
from net.errors import ProtocolError
from net.peer.games import GameSpec

MAX_NAME = 40
NONCE_SIZE = 16


class LobbyError(ValueError):
    """A lobby message that does not fit; the text says what to do."""


def join_message(spec: GameSpec, info: Mapping[str, Any], name: str) -> bytes:
    return _wrap({"t": "join", "rules": spec.rules_id, "version": spec.rules_version,
                  "cards": spec.card_set_hash(), "info": dict(info), "name": name[:MAX_NAME]})


def start_message(genesis: Genesis) -> bytes:
    return _wrap({"t": "start", "genesis": genesis.to_data()})


def ready_message(game: bytes) -> bytes:
    return _wrap({"t": "ready", "game": game})


def go_message(game: bytes) -> bytes:
    return _wrap({"t": "go", "game": game})


def refuse_message(reason: str) -> bytes:
    return _wrap({"t": "refuse", "reason": reason[:1000]})


def done_message(game: bytes, seat: int) -> bytes:
    return _wrap({"t": "done", "game": game, "seat": seat})


def nudge_message(request: bytes) -> bytes:
    """A session catch-up request (its bytes) with a fresh nonce."""
    return _wrap({"t": "nudge", "request": request})


def _wrap(message: dict[str, Any]) -> bytes:
    # a fresh nonce: the mesh drops a payload it has seen, and two joiners'
    # "ready" (or one peer's repeated message) would otherwise be the same bytes
    return encode({"lobby": {**message, "nonce": secrets.token_bytes(8)}})


def _prefix() -> bytes:
    sample = encode({"lobby": 0})
    return sample[:sample.index(b"lobby") + len(b"lobby")]


_LOBBY_PREFIX = _prefix()


def parse(data: bytes) -> Mapping[str, Any] | None:
    """The lobby message in ``data``, or None when it is a session payload."""
    if not data.startswith(_LOBBY_PREFIX):
        return None
    try:
        value = decode(data)
    except EncodingError:
        return None
    if isinstance(value, Mapping) and set(value) == {"lobby"} and isinstance(value["lobby"], Mapping) \
            and isinstance(value["lobby"].get("t"), str):
        inner: Mapping[str, Any] = value["lobby"]
        return inner
    return None


@dataclasses.dataclass
class Seat:
    key: bytes
    name: str
    info: Mapping[str, Any]


class HostLobby:
    """The host's side: seat joiners, then make the genesis record."""

    def __init__(self, spec: GameSpec, seats: int, host_key: bytes, host_info: Mapping[str, Any],
                 host_name: str, extra_options: Mapping[str, Any] | None = None) -> None:
        if not spec.min_seats <= seats <= spec.max_seats:
            raise LobbyError(f"{spec.name} is played by {spec.min_seats} to {spec.max_seats} seats, "
                             f"not {seats}; pick a seat count in that range")
        self.spec = spec
        self.size = seats
        self.seated: list[Seat] = [Seat(host_key, host_name, dict(host_info))]
        self.extra = dict(extra_options or {})
        self.genesis: Genesis | None = None

    @property
    def full(self) -> bool:
        return len(self.seated) == self.size

    def seat_of(self, key: bytes) -> int | None:
        return next((i for i, s in enumerate(self.seated) if s.key == key), None)

    def join(self, key: bytes, message: Mapping[str, Any]) -> int:
        """Seat the sender of a ``join``; return its seat or raise LobbyError (the reason to send back)."""
        seat = self.seat_of(key)
        if seat is not None:
            return seat  # a repeat (it reconnected): same seat
        spec = self.spec
        if message.get("rules") != spec.rules_id or message.get("version") != spec.rules_version:
            raise LobbyError(f"this table plays {spec.rules_id} version {spec.rules_version}, but you asked "
                             f"for {message.get('rules')!r} version {message.get('version')!r}; install the "
                             "same Fairtable release as the host")
        if message.get("cards") != spec.card_set_hash():
            raise LobbyError("your card set differs from the host's (card-set hashes differ); install the "
                             "same card set as the host")
        info = message.get("info")
        name = message.get("name")
        if not isinstance(info, Mapping) or not isinstance(name, str) or len(name) > MAX_NAME:
            raise LobbyError("malformed join request; update Fairtable to the host's release")
        problems = spec.check_info(info)
        if problems:
            raise LobbyError("; ".join(problems))
        if self.full:
            raise LobbyError(f"the table is full ({self.size} seats are taken); ask the host for a new table")
        self.seated.append(Seat(key, name, dict(info)))
        return len(self.seated) - 1

    def make_genesis(self, nonce: bytes | None = None) -> Genesis:
        """The genesis record once every seat is taken (host nonce from ``secrets``)."""
        if not self.full:
            raise LobbyError("not every seat is taken yet")
        if self.genesis is None:
            options = {**self.spec.options([s.info for s in self.seated]),
                       "names": [s.name or f"seat {i}" for i, s in enumerate(self.seated)], **self.extra}
            self.genesis = Genesis(self.spec.rules_id, self.spec.rules_version, self.spec.card_set_hash(),
                                   tuple(s.key for s in self.seated), options,
                                   nonce if nonce is not None else secrets.token_bytes(NONCE_SIZE))
        return self.genesis


def check_start(spec: GameSpec, message: Mapping[str, Any], my_key: bytes,
                my_info: Mapping[str, Any]) -> tuple[Genesis, int]:
    """A joiner's check of the host's ``start``: our seat in the genesis record."""
    try:
        genesis = Genesis.from_data(message.get("genesis"))
    except ProtocolError as exc:
        raise LobbyError(f"the host sent an invalid genesis record ({exc}); the host must update "
                         "Fairtable") from None
    if genesis.rules_id != spec.rules_id or genesis.card_set_hash != spec.card_set_hash():
        raise LobbyError(f"the host started {genesis.rules_id!r} with another card set than the "
                         f"{spec.name} table you joined; leave and ask the host for a new invite")
    if my_key not in genesis.seat_keys:
        raise LobbyError("the host started the game without you (your key holds no seat); ask the "
                         "host for a new table")
    seat = genesis.seat_keys.index(my_key)
    expected = spec.options([my_info] * len(genesis.seat_keys))
    for name, value in expected.items():
        theirs = genesis.options.get(name)
        per_seat = isinstance(value, Sequence) and not isinstance(value, str)
        if per_seat and (not isinstance(theirs, Sequence) or len(theirs) != len(value) or theirs[seat] != value[seat]):
            raise LobbyError(f"the host recorded option {name!r} for your seat differently from what you "
                                 "sent; leave the table and tell the host")
    return genesis, seat

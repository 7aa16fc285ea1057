"""Transport message types and their strict parsing.

Every frame payload is the canonical encoding (``engine.core.encode``) of a map
whose ``t`` field names the type. :func:`parse_message` checks every field's
type and bounds and returns a frozen dataclass, or raises
:class:`MalformedFrame` / :class:`UnknownMessageType` naming the problem.
Unknown extra fields are refused too: a map carries exactly its fields, so two
implementations cannot disagree about what a frame meant.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from net.transport.errors import MalformedFrame, UnknownMessageType

KEY_SIZE = 32
SIG_SIZE = 64
NONCE_SIZE = 32
TABLE_SIZE = 8
GAME_ID_SIZE = 32
LOBBY = "lobby"
#: A relayed message is dropped once it has been forwarded this many times.
MAX_HOPS = 8
MAX_ADDRESSES = 8
MAX_PEERS = 64
MAX_TEXT = 1000

Address = tuple[str, int]
GameRef = bytes | str  # a 32-byte game id, or LOBBY


def _field(data: Mapping[str, Any], name: str, kind: str) -> Any:
    if name not in data:
        raise MalformedFrame(f"{kind} message lacks the field {name!r}")
    return data[name]


def _bytes(data: Mapping[str, Any], name: str, kind: str, size: int | None = None) -> bytes:
    value = _field(data, name, kind)
    if not isinstance(value, bytes):
        raise MalformedFrame(f"{kind}.{name} must be bytes, not {type(value).__name__}")
    if size is not None and len(value) != size:
        raise MalformedFrame(f"{kind}.{name} must be {size} bytes, not {len(value)}")
    return value


def _int(data: Mapping[str, Any], name: str, kind: str, lo: int, hi: int) -> int:
    value = _field(data, name, kind)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise MalformedFrame(f"{kind}.{name} must be an integer in [{lo}, {hi}]")
    return value


def _text(data: Mapping[str, Any], name: str, kind: str, limit: int = MAX_TEXT) -> str:
    value = _field(data, name, kind)
    if not isinstance(value, str) or len(value) > limit:
        raise MalformedFrame(f"{kind}.{name} must be text of at most {limit} characters")
    return value


def _game(data: Mapping[str, Any], name: str, kind: str) -> GameRef:
    value = _field(data, name, kind)
    if value == LOBBY:
        return LOBBY
    if isinstance(value, bytes) and len(value) == GAME_ID_SIZE:
        return value
    raise MalformedFrame(f"{kind}.{name} must be a {GAME_ID_SIZE}-byte game id or {LOBBY!r}")


def _addresses(value: Any, kind: str) -> tuple[Address, ...]:
    if not isinstance(value, tuple) or len(value) > MAX_ADDRESSES:
        raise MalformedFrame(f"{kind}: listen must be a list of at most {MAX_ADDRESSES} addresses")
    out: list[Address] = []
    for item in value:
        if (
            not isinstance(item, tuple)
            or len(item) != 2
            or not isinstance(item[0], str)
            or not 0 < len(item[0]) <= 64
            or not isinstance(item[1], int)
            or isinstance(item[1], bool)
            or not 0 < item[1] < 65536
        ):
            raise MalformedFrame(f"{kind}: each listen address must be [host text, port 1-65535]")
        out.append((item[0], item[1]))
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class Hello:
    """First frame each side sends: who I am, what I speak, which table."""

    T: ClassVar[str] = "hello"
    versions: tuple[int, ...]
    key: bytes
    table: bytes
    game: GameRef
    nonce: bytes
    listen: tuple[Address, ...] = ()
    name: str = ""

    def to_data(self) -> dict[str, Any]:
        return {
            "t": self.T, "v": self.versions, "key": self.key, "table": self.table,
            "game": self.game, "nonce": self.nonce,
            "listen": [list(a) for a in self.listen], "name": self.name,
        }

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> Hello:
        versions = _field(d, "v", "hello")
        if (
            not isinstance(versions, tuple)
            or not 0 < len(versions) <= 16
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in versions)
        ):
            raise MalformedFrame("hello.v must be a list of 1 to 16 positive version numbers")
        return cls(
            versions=versions,
            key=_bytes(d, "key", "hello", KEY_SIZE),
            table=_bytes(d, "table", "hello", TABLE_SIZE),
            game=_game(d, "game", "hello"),
            nonce=_bytes(d, "nonce", "hello", NONCE_SIZE),
            listen=_addresses(_field(d, "listen", "hello"), "hello"),
            name=_text(d, "name", "hello", 64),
        )


@dataclasses.dataclass(frozen=True)
class Auth:
    """Second frame: a signature over the handshake transcript."""

    T: ClassVar[str] = "auth"
    sig: bytes

    def to_data(self) -> dict[str, Any]:
        return {"t": self.T, "sig": self.sig}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> Auth:
        return cls(sig=_bytes(d, "sig", "auth", SIG_SIZE))


@dataclasses.dataclass(frozen=True)
class Reject:
    """Sent just before closing: why the peer is refused, and what to do."""

    T: ClassVar[str] = "reject"
    code: str
    reason: str

    def to_data(self) -> dict[str, Any]:
        return {"t": self.T, "code": self.code, "reason": self.reason}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> Reject:
        return cls(code=_text(d, "code", "reject", 64), reason=_text(d, "reason", "reject"))


@dataclasses.dataclass(frozen=True)
class Ping:
    T: ClassVar[str] = "ping"
    n: int

    def to_data(self) -> dict[str, Any]:
        return {"t": self.T, "n": self.n}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> Ping:
        return cls(n=_int(d, "n", "ping", 0, 2**63 - 1))


@dataclasses.dataclass(frozen=True)
class Pong:
    T: ClassVar[str] = "pong"
    n: int

    def to_data(self) -> dict[str, Any]:
        return {"t": self.T, "n": self.n}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> Pong:
        return cls(n=_int(d, "n", "pong", 0, 2**63 - 1))


@dataclasses.dataclass(frozen=True)
class Relay:
    """An application payload on its way to every peer of the table.

    ``origin`` is the public key of the peer that first sent it; it is a
    routing hint only: the payload (a signed envelope) proves its own author.
    ``to`` is null for a broadcast, or the one peer's key it is meant for
    (catch-up replies); relays pass it on without delivering it themselves.
    """

    T: ClassVar[str] = "msg"
    game: GameRef
    origin: bytes
    data: bytes
    hops: int = 0
    to: bytes | None = None

    def to_data(self) -> dict[str, Any]:
        return {"t": self.T, "game": self.game, "origin": self.origin,
                "data": self.data, "hops": self.hops, "to": self.to}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> Relay:
        to = _field(d, "to", "msg")
        if to is not None and not (isinstance(to, bytes) and len(to) == KEY_SIZE):
            raise MalformedFrame(f"msg.to must be null or a {KEY_SIZE}-byte key")
        return cls(
            game=_game(d, "game", "msg"),
            origin=_bytes(d, "origin", "msg", KEY_SIZE),
            data=_bytes(d, "data", "msg"),
            hops=_int(d, "hops", "msg", 0, MAX_HOPS),
            to=to,
        )


@dataclasses.dataclass(frozen=True)
class PeerInfo:
    key: bytes
    listen: tuple[Address, ...]


@dataclasses.dataclass(frozen=True)
class Links:
    """The sender's current direct links (and where those peers listen).

    Lets a peer learn the rest of the table (to try direct links) and decide
    whom it must forward to (neighbours not linked to a message's origin).
    """

    T: ClassVar[str] = "links"
    peers: tuple[PeerInfo, ...]

    def to_data(self) -> dict[str, Any]:
        return {"t": self.T, "peers": [
            {"key": p.key, "listen": [list(a) for a in p.listen]} for p in self.peers
        ]}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> Links:
        raw = _field(d, "peers", "links")
        if not isinstance(raw, tuple) or len(raw) > MAX_PEERS:
            raise MalformedFrame(f"links.peers must be a list of at most {MAX_PEERS} peers")
        peers = []
        for item in raw:
            if not isinstance(item, dict) or set(item) != {"key", "listen"}:
                raise MalformedFrame("links.peers entries must be maps with key and listen")
            peers.append(PeerInfo(_bytes(item, "key", "links", KEY_SIZE),
                                  _addresses(item["listen"], "links")))
        return cls(tuple(peers))


@dataclasses.dataclass(frozen=True)
class Bye:
    """Orderly goodbye: the peer leaves on purpose and will not reconnect."""

    T: ClassVar[str] = "bye"
    reason: str

    def to_data(self) -> dict[str, Any]:
        return {"t": self.T, "reason": self.reason}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> Bye:
        return cls(reason=_text(d, "reason", "bye"))


Message = Hello | Auth | Reject | Ping | Pong | Relay | Links | Bye

_TYPES: dict[str, Any] = {c.T: c for c in (Hello, Auth, Reject, Ping, Pong, Relay, Links, Bye)}
_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"t", "v", "key", "table", "game", "nonce", "listen", "name"}),
    "auth": frozenset({"t", "sig"}),
    "reject": frozenset({"t", "code", "reason"}),
    "ping": frozenset({"t", "n"}),
    "pong": frozenset({"t", "n"}),
    "msg": frozenset({"t", "game", "origin", "data", "hops", "to"}),
    "links": frozenset({"t", "peers"}),
    "bye": frozenset({"t", "reason"}),
}
MESSAGE_TYPES = tuple(sorted(_TYPES))


def encode_message(message: Message) -> bytes:
    """Canonical payload bytes of ``message`` (frame it with encode_frame)."""
    return encode(message.to_data())


def parse_message(payload: bytes) -> Message:
    """Decode and validate one frame payload."""
    try:
        data = decode(payload)
    except EncodingError as exc:
        raise MalformedFrame(f"payload is not canonical data: {exc}") from None
    if not isinstance(data, dict):
        raise MalformedFrame(f"payload must be a map, not {type(data).__name__}")
    kind = data.get("t")
    if not isinstance(kind, str):
        raise MalformedFrame("payload lacks a text 't' (message type) field")
    cls = _TYPES.get(kind)
    if cls is None:
        shown = kind if len(kind) <= 32 else kind[:32] + "..."
        raise UnknownMessageType(
            f"unknown message type {shown!r}; this version knows {', '.join(MESSAGE_TYPES)}"
        )
    extra = set(data) - _FIELDS[kind]
    if extra:
        raise MalformedFrame(f"{kind} message has unexpected fields {sorted(extra)}")
    message: Message = cls.from_data(data)
    return message

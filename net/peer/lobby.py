"""The lobby: how a host and its joiners agree on a genesis record (sans-I/O).

Before a game exists the mesh runs in lobby mode (docs/protocol.md §14).
A joiner that reached the host sends ``join`` (rules, card-set hash, its
lobby contribution, a display name, and a fresh random nonce for the game
id); the host seats joiners in arrival order after itself (telling its
joiners who sits so far with ``seated``), refuses what does not fit with a
``refuse`` saying why, and once every seat is taken broadcasts
``start`` with the genesis record. A joiner checks it, answers ``ready``
(still in lobby mode) and binds its mesh to the game id; when every joiner is
ready the host binds its own mesh and sends ``go``, and the sessions take
over. (Binding in this order means no peer ever receives a game frame while
its links still expect lobby frames.) ``done`` says a peer has every final
record, so all may leave; ``nudge`` carries a session catch-up request.

**Every lobby message is signed by its author** and checked before use
(docs/security.md, "Lobby and link authentication"). The mesh forwards
payloads and its ``origin`` field is only a routing hint that nothing signs,
so a lobby message carries its author's key and Ed25519 signature inside the
payload: whoever relays it, the author is provable end to end. The signature
covers a domain tag, the table nonce and the whole message, and each message
names its context (the key it is meant for, the game id, the joiner's fresh
nonce it answers), so it cannot be replayed at another table, to another
peer or into another game. What each kind must satisfy (who may author it,
for what) is checked by the functions below, one per kind.

Wire form: the canonical encoding of
``{"lobby": {"by": author key, "msg": {"t": kind, ..., "nonce": 8 bytes}, "sig": signature}}``
(one outer key, so a peer tells lobby payloads from session envelopes by
their first bytes without decoding). The 8-byte ``nonce`` makes every
message's bytes new: the mesh drops a payload whose bytes it has seen.
"""

from __future__ import annotations

import dataclasses
import secrets
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from net.envelope import MAX_NONCE, MIN_NONCE, Genesis, game_id
from net.errors import ProtocolError
from net.identity import Identity, verify_signature
from net.seats import seat_number
from net.games import GameEntry
from net.transport.keys import key_matches, short_id

MAX_NAME = 40
#: Most keys a ``seated`` roster lists (far above any game's seats; a longer one is malformed).
MAX_ROSTER = 64
MAX_REASON = 1000
#: Longest chat line of a watcher (characters).
MAX_WATCH_CHAT = 300
#: Bytes of fresh randomness a seat puts into the genesis record (net.envelope.Genesis.nonces).
NONCE_SIZE = 16
SIGN_DOMAIN = "fairtable/lobby/v1"
KEY_SIZE = 32
SIG_SIZE = 64


class LobbyError(ValueError):
    """A lobby message that does not fit; the text says what to do."""


class LobbyForgery(LobbyError):
    """A lobby message that is not what it claims: bad signature, wrong
    author, or meant for another peer, table or game. It is dropped and
    logged; nothing it says is used."""


# --------------------------------------------------------------------------- the wire form


def _is_bytes(size: int | None = None, lo: int = 0, hi: int = 2**31) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, bytes) and (len(v) == size if size is not None else lo <= len(v) <= hi)


def _is_text(limit: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and len(v) <= limit


def _is_seat(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**16


def _any(v: Any) -> bool:
    return True  # checked by the host, which answers a verified join with a reason


_KEY = _is_bytes(KEY_SIZE)
_GAME = _is_bytes(32)


def _is_roster(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and 1 <= len(v) <= MAX_ROSTER and all(_KEY(k) for k in v)


#: kind -> its fields (besides ``t`` and ``nonce``) and what each must be.
#: A message with a missing, extra or ill-typed field is refused as malformed.
SCHEMA: Mapping[str, Mapping[str, Callable[[Any], bool]]] = {
    "join": {"rules": _is_text(200), "version": _is_text(200), "cards": _is_bytes(32),
             "info": _any, "name": _any,
             "to": _KEY, "fresh": _is_bytes(lo=MIN_NONCE, hi=MAX_NONCE)},
    "refuse": {"reason": _is_text(MAX_REASON), "to": _KEY, "re": _is_bytes(lo=MIN_NONCE, hi=MAX_NONCE)},
    "seated": {"keys": _is_roster, "size": lambda v: isinstance(v, int) and not isinstance(v, bool)
               and 2 <= v <= MAX_ROSTER},
    "start": {"genesis": lambda v: isinstance(v, Mapping)},
    "ready": {"game": _GAME, "to": _KEY},
    "go": {"game": _GAME},
    "done": {"game": _GAME, "seat": _is_seat},
    "nudge": {"game": _GAME, "request": _is_bytes()},
    # watchers (net/peer/watching.py): ask to watch, the host's answer, a pull of envelopes, a chat line
    "watch": {"rules": _is_text(200), "version": _is_text(200), "cards": _is_bytes(32), "name": _is_text(MAX_NAME),
              "to": _KEY, "fresh": _is_bytes(lo=MIN_NONCE, hi=MAX_NONCE)},
    "watching": {"genesis": lambda v: isinstance(v, Mapping), "to": _KEY, "re": _is_bytes(lo=MIN_NONCE, hi=MAX_NONCE),
                 "chat": lambda v: isinstance(v, bool)},
    "pull": {"game": _GAME, "have": lambda v: isinstance(v, (list, tuple)) and 1 <= len(v) <= MAX_ROSTER
             and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**31 for n in v)},
    "wchat": {"game": _GAME, "text": _is_text(MAX_WATCH_CHAT)},
}


@dataclasses.dataclass(frozen=True)
class LobbyMessage:
    """A lobby message whose signature verified: ``author`` really wrote ``fields``."""

    author: bytes
    kind: str
    fields: Mapping[str, Any]

    def get(self, name: str) -> Any:
        return self.fields.get(name)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]


def signed_bytes(table: bytes, author: bytes, msg: Mapping[str, Any]) -> bytes:
    """Exactly what the author signs: domain tag, table nonce, its key and the message."""
    return encode((SIGN_DOMAIN, {"by": author, "msg": msg, "table": table}))


class Author:
    """Writes our lobby messages for one table, each signed by our identity."""

    def __init__(self, identity: Identity, table: bytes) -> None:
        self.identity = identity
        self.table = table

    def _sign(self, kind: str, **fields: Any) -> bytes:
        # a fresh nonce: the mesh drops a payload it has seen, and two joiners'
        # "ready" (or one peer's repeated message) would otherwise be the same bytes
        msg = {**fields, "t": kind, "nonce": secrets.token_bytes(8)}
        me = self.identity.public_key
        sig = self.identity.sign(signed_bytes(self.table, me, msg))
        return encode({"lobby": {"by": me, "msg": msg, "sig": sig}})

    def join(self, entry: GameEntry[Any], info: Mapping[str, Any], name: str, *, host: bytes, fresh: bytes) -> bytes:
        """Ask ``host`` for a seat; ``fresh`` is our nonce for the genesis record."""
        return self._sign("join", rules=entry.rules_id, version=entry.rules_version, cards=entry.card_set_hash(),
                          info=dict(info), name=name[:MAX_NAME], to=host, fresh=fresh)

    def refuse(self, reason: str, *, to: bytes, re: bytes) -> bytes:
        """Refuse the joiner ``to``; ``re`` is the fresh nonce of the join refused."""
        return self._sign("refuse", reason=reason[:MAX_REASON], to=to, re=re)

    def seated(self, keys: Sequence[bytes], size: int) -> bytes:
        """The keys seated at our table of ``size`` seats so far, in seat order (the host tells
        its joiners whenever it changes: a seat taken, or freed before the start)."""
        return self._sign("seated", keys=list(keys), size=size)

    def start(self, genesis: Genesis) -> bytes:
        return self._sign("start", genesis=genesis.to_data())

    def ready(self, game: bytes, *, host: bytes) -> bytes:
        return self._sign("ready", game=game, to=host)

    def go(self, game: bytes) -> bytes:
        return self._sign("go", game=game)

    def done(self, game: bytes, seat: int) -> bytes:
        return self._sign("done", game=game, seat=seat)

    def watch(self, entry: GameEntry[Any], name: str, *, host: bytes, fresh: bytes) -> bytes:
        """Ask ``host`` to let us watch its table (no seat; net/peer/watching.py)."""
        return self._sign("watch", rules=entry.rules_id, version=entry.rules_version, cards=entry.card_set_hash(),
                          name=name[:MAX_NAME], to=host, fresh=fresh)

    def watching(self, genesis: Genesis, *, to: bytes, re: bytes, chat: bool) -> bytes:
        """The host lets the watcher ``to`` (whose request's nonce was ``re``) watch this game."""
        return self._sign("watching", genesis=genesis.to_data(), to=to, re=re, chat=chat)

    def pull(self, game: bytes, have: Sequence[int]) -> bytes:
        """A watcher asks for every envelope beyond ``have`` (per seat, like a catch-up request)."""
        return self._sign("pull", game=game, have=list(have))

    def wchat(self, game: bytes, text: str) -> bytes:
        """A watcher's chat line (never game input)."""
        return self._sign("wchat", game=game, text=text[:MAX_WATCH_CHAT])

    def nudge(self, game: bytes, request: bytes) -> bytes:
        """A session catch-up request (its bytes), signed so that its seat is proven."""
        return self._sign("nudge", game=game, request=request)


def _prefix(key: str) -> bytes:
    """The first bytes of the encoding of any map whose only (or first) key is ``key``."""
    sample = encode({key: 0})
    return sample[:sample.index(key.encode()) + len(key)]


_LOBBY_PREFIX = _prefix("lobby")


def is_lobby(data: bytes) -> bool:
    """Whether ``data`` claims to be a lobby payload (session payloads never start like this)."""
    return data.startswith(_LOBBY_PREFIX)


def open_message(data: bytes, table: bytes) -> LobbyMessage | None:
    """The verified lobby message in ``data``; None when it is a session payload.

    Raises :class:`LobbyForgery` for a lobby payload that is malformed or
    whose signature does not verify under the key it names for this table.
    """
    if not is_lobby(data):
        return None
    try:
        value = decode(data)
    except EncodingError:
        raise LobbyForgery("a lobby message that is not canonical data") from None
    if not isinstance(value, Mapping) or set(value) != {"lobby"} or not isinstance(value["lobby"], Mapping) \
            or set(value["lobby"]) != {"by", "msg", "sig"}:
        raise LobbyForgery("a lobby message without exactly an author, a message and a signature")
    outer = value["lobby"]
    author, msg, sig = outer["by"], outer["msg"], outer["sig"]
    if not _KEY(author) or not _is_bytes(SIG_SIZE)(sig) or not isinstance(msg, Mapping):
        raise LobbyForgery("a lobby message with a malformed author key, signature or body")
    kind = msg.get("t")
    schema = SCHEMA.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise LobbyForgery(f"a lobby message of unknown kind {str(kind)[:32]!r}")
    if set(msg) != {*schema, "t", "nonce"} or not _is_bytes(8)(msg["nonce"]) \
            or not all(check(msg[name]) for name, check in schema.items()):
        raise LobbyForgery(f"a malformed lobby {kind!r} message (missing, extra or ill-typed fields)")
    try:
        verify_signature(author, sig, signed_bytes(table, author, msg))
    except ProtocolError as exc:
        raise LobbyForgery(f"a lobby {kind!r} message signed in the name of {short_id(author)} does not "
                           f"verify for this table ({exc.detail}): forged, altered, or from another table") \
            from None
    fields = {k: v for k, v in msg.items() if k not in ("t", "nonce")}
    return LobbyMessage(author, str(kind), fields)


# --------------------------------------------------------------------------- the host


def _same(a: str, b: str) -> bool:
    """Names a person would read alike: compared after NFKC (full-width and compatibility forms)
    without case and outer spaces. Look-alike letters of other scripts are not caught."""
    return unicodedata.normalize("NFKC", a).strip().casefold() == unicodedata.normalize("NFKC", b).strip().casefold()


def distinct_name(name: str, taken: Sequence[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``... when a seated player already shows that name
    (compared without case and outer spaces): two players shown alike at one table could be
    mistaken for each other, and a joiner could pose as the host under its exact name."""
    if not name.strip() or not any(_same(name, other) for other in taken):
        return name
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = name.strip()[:MAX_NAME - len(suffix)] + suffix
        if not any(_same(candidate, other) for other in taken):
            return candidate
        number += 1


def display_names(names: Sequence[str]) -> list[str]:
    """The names a genesis records, one per seat: empty names become "Player N", and every
    name is distinct (:func:`distinct_name`), earlier seats keeping theirs."""
    out: list[str] = []
    for i, name in enumerate(names):
        out.append(distinct_name(name or f"Player {seat_number(i)}", out))
    return out


@dataclasses.dataclass
class Seat:
    key: bytes
    name: str
    info: Mapping[str, Any]
    nonce: bytes


class HostLobby:
    """The host's side: seat joiners, then make the genesis record."""

    def __init__(self, entry: GameEntry[Any], seats: int, host_key: bytes, host_info: Mapping[str, Any],
                 host_name: str, extra_options: Mapping[str, Any] | None = None) -> None:
        if not entry.min_seats <= seats <= entry.max_seats:
            raise LobbyError(f"{entry.name} is played by {entry.min_seats} to {entry.max_seats} seats, "
                             f"not {seats}; pick a seat count in that range")
        self.entry = entry
        self.size = seats
        self.host_key = host_key
        self.seated: list[Seat] = [Seat(host_key, host_name, dict(host_info), secrets.token_bytes(NONCE_SIZE))]
        self.extra = dict(extra_options or {})
        self.genesis: Genesis | None = None

    @property
    def full(self) -> bool:
        return len(self.seated) == self.size

    def seat_of(self, key: bytes) -> int | None:
        return next((i for i, s in enumerate(self.seated) if s.key == key), None)

    def join(self, key: bytes, message: Mapping[str, Any] | LobbyMessage) -> int:
        """Seat the author of a verified ``join``; return its seat or raise LobbyError (the reason to send back).

        ``key`` must be the message's proven author (:func:`open_message`): a
        seat is only ever given to the key that signed the request.
        """
        fields = message.fields if isinstance(message, LobbyMessage) else message
        if fields.get("to") != self.host_key:
            raise LobbyForgery(f"a join request from {short_id(key)} was meant for another host")
        fresh = fields.get("fresh")
        if not isinstance(fresh, bytes) or not MIN_NONCE <= len(fresh) <= MAX_NONCE:
            raise LobbyError("malformed join request; update Fairtable to the host's release")
        seat = self.seat_of(key)
        if seat is not None:
            if self.genesis is None and seat > 0:
                self.seated[seat].nonce = fresh  # it rejoined (a new process): its newest nonce
            return seat  # a repeat (it reconnected): same seat
        entry = self.entry
        if fields.get("rules") != entry.rules_id:  # another game: say which one to pick
            raise LobbyError(f"this table plays {entry.title} ({entry.rules_id}), but you asked to join with "
                             f"{fields.get('rules')!r}; choose {entry.title} in the lobby's game row (or "
                             f"tools.peer join CODE --game {entry.name}) and join again")
        if fields.get("version") != entry.rules_version:
            raise LobbyError(f"this table plays {entry.rules_id} version {entry.rules_version}, but you asked "
                             f"for version {fields.get('version')!r}; install the same Fairtable release as "
                             "the host")
        if fields.get("cards") != entry.card_set_hash():
            raise LobbyError("your card set differs from the host's (card-set hashes differ); install the "
                             "same card set as the host")
        info = fields.get("info")
        name = fields.get("name")
        if not isinstance(info, Mapping) or not isinstance(name, str) or len(name) > MAX_NAME:
            raise LobbyError("malformed join request; update Fairtable to the host's release")
        problems = entry.check_info(info)
        if problems:
            raise LobbyError("; ".join(problems))
        if self.full or self.genesis is not None:
            raise LobbyError(f"the table is full ({self.size} seats are taken); ask the host for a new table, or "
                             "watch this one if the host lets people watch (Watch, with the same code)")
        self.seated.append(Seat(key, distinct_name(name, [s.name for s in self.seated]), dict(info), fresh))
        return len(self.seated) - 1

    def leave(self, key: bytes) -> int | None:
        """Free the seat of a joiner that left before the start (its link is gone); the seats
        after it move up one. Returns the seat it held, or None (not seated, the host, or the
        game has started: then the seats are the genesis record's and stay)."""
        seat = self.seat_of(key)
        if seat is None or seat == 0 or self.genesis is not None:
            return None
        del self.seated[seat]
        return seat

    def make_genesis(self) -> Genesis:
        """The genesis record once every seat is taken: every seat's fresh nonce in seat order."""
        if not self.full:
            raise LobbyError("not every seat is taken yet")
        if self.genesis is None:
            options = {**self.entry.options([s.info for s in self.seated]),
                       "names": display_names([s.name for s in self.seated]), **self.extra}
            self.genesis = Genesis(self.entry.rules_id, self.entry.rules_version, self.entry.card_set_hash(),
                                   tuple(s.key for s in self.seated), options,
                                   tuple(s.nonce for s in self.seated))
        return self.genesis

    def check_ready(self, message: LobbyMessage) -> int:
        """The seat of a joiner's verified ``ready`` for our genesis, or LobbyForgery."""
        genesis = self.genesis
        if genesis is None:
            raise LobbyForgery(f"{short_id(message.author)} said ready before the game was started")
        if message["to"] != self.host_key or message["game"] != game_id(genesis):
            raise LobbyForgery(f"a ready from {short_id(message.author)} for another host or game")
        if message.author not in genesis.seat_keys[1:]:
            raise LobbyForgery(f"a ready from {short_id(message.author)}, which holds no joiner's seat")
        return genesis.seat_keys.index(message.author)


# --------------------------------------------------------------------------- a joiner


@dataclasses.dataclass(frozen=True)
class JoinerView:
    """What a joiner knows that the host's messages must match."""

    host_fingerprint: str  # from the invite
    me: bytes
    fresh: bytes  # the nonce we sent in our join


def check_from_host(view: JoinerView, message: LobbyMessage) -> None:
    """Only the invite's host may send a joiner ``start``, ``go`` or ``refuse``."""
    if not key_matches(message.author, view.host_fingerprint):
        raise LobbyForgery(f"a {message.kind!r} signed by {short_id(message.author)}, not by the host "
                           f"{view.host_fingerprint} of the invite: another peer tried to speak for the host")


def check_seated(view: JoinerView, message: LobbyMessage) -> tuple[tuple[bytes, ...], int]:
    """The host's roster of who sits at its table so far (seat 0 its own key) and the table's
    size, or LobbyForgery. Shown to the player (who is back for a rematch, how many more the
    table waits for); it seats nobody, but a joiner the roster lists waits for the start."""
    check_from_host(view, message)
    keys = tuple(bytes(k) for k in message["keys"])
    size = int(message["size"])
    if keys[0] != message.author or len(set(keys)) != len(keys) or len(keys) > size:
        raise LobbyForgery("a roster of seats whose first key is not the host's, with a key twice, or with "
                           "more keys than seats")
    return keys, size


def check_refuse(view: JoinerView, message: LobbyMessage) -> str:
    """The reason of the host's refusal of *our* current join, or LobbyForgery."""
    check_from_host(view, message)
    if message["to"] != view.me or message["re"] != view.fresh:
        raise LobbyForgery("a refusal meant for another joiner or for an earlier join request (a replay)")
    return str(message["reason"])


def check_start(entry: GameEntry[Any], message: LobbyMessage, view: JoinerView,
                my_info: Mapping[str, Any]) -> tuple[Genesis, int]:
    """A joiner's check of the host's ``start``: our seat in a fresh genesis record.

    The start must be signed by the invite's host, who holds seat 0; our key
    must hold a seat whose nonce is the fresh one we sent (otherwise this is
    an old genesis replayed at us, or one made for someone else).
    """
    check_from_host(view, message)
    try:
        genesis = Genesis.from_data(message.get("genesis"))
    except ProtocolError as exc:
        raise LobbyError(f"the host sent an invalid genesis record ({exc}); the host must update "
                         "Fairtable") from None
    if genesis.seat_keys[0] != message.author:
        raise LobbyForgery("a genesis record whose seat 0 is not the host that sent it")
    if genesis.rules_id != entry.rules_id or genesis.card_set_hash != entry.card_set_hash():
        raise LobbyError(f"the host started {genesis.rules_id!r} with another card set than the "
                         f"{entry.name} table you joined; leave and ask the host for a new invite")
    if view.me not in genesis.seat_keys:
        raise LobbyError("the host started the game without you (your key holds no seat); ask the "
                         "host for a new table")
    seat = genesis.seat_keys.index(view.me)
    names = genesis.options.get("names")
    if isinstance(names, Sequence) and not isinstance(names, str) \
            and display_names([str(n) for n in names]) != [str(n) for n in names]:
        raise LobbyError("the host's genesis shows two seats under one name, so the players could be "
                         "mistaken for each other; leave the table and ask the host to update Fairtable")
    if genesis.nonces[seat] != view.fresh:
        raise LobbyForgery("a genesis record without the fresh nonce we sent for this game (an old "
                           "genesis replayed, or one made for another join)")
    expected = entry.options([my_info] * len(genesis.seat_keys))
    for name, value in expected.items():
        theirs = genesis.options.get(name)
        per_seat = isinstance(value, Sequence) and not isinstance(value, str)
        if per_seat and (not isinstance(theirs, Sequence) or len(theirs) != len(value) or theirs[seat] != value[seat]):
            raise LobbyError(f"the host recorded option {name!r} for your seat differently from what you "
                             "sent; leave the table and tell the host")
    return genesis, seat


def check_go(genesis: Genesis, message: LobbyMessage) -> None:
    """The ``go`` must come from seat 0 (the host) for our game."""
    if message.author != genesis.seat_keys[0] or message["game"] != game_id(genesis):
        raise LobbyForgery(f"a go signed by {short_id(message.author)} or for another game; only the host "
                           "of this game may start it")


# --------------------------------------------------------------------------- during the game


def check_done(genesis: Genesis, message: LobbyMessage) -> int:
    """The seat a ``done`` speaks for: only its own key may say it."""
    seat = message["seat"]
    if message["game"] != game_id(genesis) or seat >= len(genesis.seat_keys) \
            or genesis.seat_keys[seat] != message.author:
        raise LobbyForgery(f"a done notice by {short_id(message.author)} for another seat or game")
    return int(seat)


CATCH_UP_PREFIX = _prefix("catch_up")


def is_catch_up_request(data: bytes) -> bool:
    """Whether a session payload is a catch-up request (they travel only inside a signed ``nudge``)."""
    return data.startswith(CATCH_UP_PREFIX)


def check_nudge(genesis: Genesis, message: LobbyMessage) -> bytes:
    """The catch-up request in a ``nudge``; it must name its author's own seat.

    A catch-up request names the seat the reply goes to, so an unsigned or
    misattributed one would let anybody direct every peer's replies at a
    seat of its choice.
    """
    if message["game"] != game_id(genesis) or message.author not in genesis.seat_keys:
        raise LobbyForgery(f"a catch-up request from {short_id(message.author)}, which holds no seat in this game")
    request = message["request"]
    try:
        inner = decode(request) if is_catch_up_request(request) else None
    except EncodingError:
        inner = None
    body = inner.get("catch_up") if isinstance(inner, Mapping) else None
    if not isinstance(body, Mapping) or body.get("seat") != genesis.seat_keys.index(message.author):
        raise LobbyForgery(f"a catch-up request signed by {short_id(message.author)} in another seat's name")
    return bytes(request)

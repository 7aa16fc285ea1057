"""Signed envelopes: every message a seat sends, bound to one game and chained.

An envelope carries ``{game, seat, seq, prev, kind, body, seen}`` and the
seat's Ed25519 signature over their canonical encoding (with a domain tag).

- ``game`` is the game id (hash of the genesis record), so a message cannot be
  replayed into another game.
- ``seq`` counts the seat's envelopes from 0 and ``prev`` is the digest of the
  seat's previous envelope (32 zero bytes at seq 0): each seat's messages form
  a hash chain, so none can be dropped, reordered or inserted unseen.
- ``seen`` is ``(step, state_hash)`` of the sender's latest applied state, or
  ``(step, state_hash, inputs)`` with the digest of the inputs that led there
  (``net.session.inputs``): the session compares it with its own, so a
  divergence shows at once, and the inputs digest tells a signed false state
  (same inputs, another hash: a lie) from another record (the signer was shown
  other envelopes: not its lie), which is what a proof of a false state hash
  must show (docs/security.md, "Attributable divergence").

:class:`SeatLog` holds the per-seat chain rules, once, for every reader
(the session, the offline verifier). Two *different* envelopes signed by
one seat with one ``seq`` can only come from that seat forking its own
history. :class:`SeatLog` turns that into an
:class:`~net.errors.Equivocation` carrying an :class:`EquivocationProof`,
which any third party can check with :func:`verify_equivocation_proof`.

Everything here is sans-I/O: bytes and values in, values and errors out.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.core.encoding import decode, encode
from engine.core.errors import EncodingError
from engine.core.hashing import digest
from net.errors import (
    BadSignature,
    BrokenChain,
    Equivocation,
    InvalidProof,
    MalformedMessage,
    ProtocolError,
    Replay,
    SequenceGap,
    UnknownSeat,
    WrongGame,
)
from net.identity import Identity, validate_public_key, verify_signature

SIGN_DOMAIN = "fairtable/envelope/v1"
DIGEST_DOMAIN = "fairtable/envelope-digest/v1"
_SIGN_PREFIX = encode(SIGN_DOMAIN)
_DIGEST_PREFIX = encode(DIGEST_DOMAIN)
_SIG_KEY = encode("sig")
GAME_ID_DOMAIN = "fairtable/game-id/v2"
ZERO32 = bytes(32)
#: Upper bound for seq and step (keeps integers small and comparisons sane).
MAX_COUNTER = 2**62
MAX_KIND_LENGTH = 64
_FIELDS = ("game", "seat", "seq", "prev", "kind", "body", "seen", "sig")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _need_hash(value: Any, name: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise MalformedMessage(f"envelope field {name!r} must be 32 bytes")
    return value


def _need_counter(value: Any, name: str) -> int:
    if not _is_int(value) or not 0 <= value < MAX_COUNTER:
        raise MalformedMessage(f"envelope field {name!r} must be an integer from 0 to 2**62-1")
    return int(value)


@dataclasses.dataclass(frozen=True)
class Seen:
    """The sender's latest applied state: its step number and state hash, and (from
    sessions since issue 30) the digest of the inputs applied to reach it."""

    step: int
    state_hash: bytes
    inputs: bytes | None = None

    def __post_init__(self) -> None:
        _need_counter(self.step, "seen.step")
        _need_hash(self.state_hash, "seen.state_hash")
        if self.inputs is not None:
            _need_hash(self.inputs, "seen.inputs")

    def __canonical__(self) -> tuple[int, bytes] | tuple[int, bytes, bytes]:
        if self.inputs is None:
            return (self.step, self.state_hash)
        return (self.step, self.state_hash, self.inputs)


#: What a writer may pass as ``seen``.
SeenLike = Seen | tuple[int, bytes] | tuple[int, bytes, bytes]


def as_seen(value: SeenLike) -> Seen:
    """Accept ``Seen``, a ``(step, state_hash)`` pair or a ``(step, state_hash, inputs)`` triple."""
    if isinstance(value, Seen):
        return value
    if not isinstance(value, (tuple, list)) or len(value) not in (2, 3):
        raise MalformedMessage("'seen' must be (step, state hash) or (step, state hash, inputs digest)")
    return Seen(*value)


@dataclasses.dataclass(frozen=True, eq=False)
class Envelope:
    """One signed message. Build with :func:`sign_envelope` or :meth:`from_data`."""

    game: bytes
    seat: int
    seq: int
    prev: bytes
    kind: str
    body: Any
    seen: Seen
    signature: bytes

    def __post_init__(self) -> None:
        _need_hash(self.game, "game")
        _need_counter(self.seat, "seat")
        _need_counter(self.seq, "seq")
        _need_hash(self.prev, "prev")
        if not isinstance(self.kind, str) or not 0 < len(self.kind) <= MAX_KIND_LENGTH:
            raise MalformedMessage(f"envelope field 'kind' must be text of 1 to {MAX_KIND_LENGTH} characters")
        if self.seq == 0 and self.prev != ZERO32:
            raise MalformedMessage("the first envelope of a seat (seq 0) must have prev = 32 zero bytes")
        if not isinstance(self.seen, Seen):
            raise MalformedMessage("envelope field 'seen' must be (step, state hash)")
        if not isinstance(self.signature, bytes) or len(self.signature) != 64:
            raise MalformedMessage("envelope signature must be 64 bytes")
        try:
            # the signed content, encoded once here (it also proves the body is canonical data):
            # the signature check, the digest and the wire bytes are all cut from it
            object.__setattr__(self, "_content", encode(self.content()))
        except EncodingError as exc:
            raise MalformedMessage(f"envelope body is not canonical data: {exc}") from None

    # --- canonical forms --------------------------------------------------

    def content(self) -> dict[str, Any]:
        """The signed fields (everything except the signature)."""
        return {"game": self.game, "seat": self.seat, "seq": self.seq, "prev": self.prev,
                "kind": self.kind, "body": self.body, "seen": self.seen}

    def _cached(self, name: str, make: Any) -> Any:
        """An encoding computed once: the envelope is immutable, and the pure-Python
        encoder is the cost of every check (a flood is mostly encoding work)."""
        value = self.__dict__.get(name)
        if value is None:
            value = make()
            object.__setattr__(self, name, value)
        return value

    def _content_bytes(self) -> bytes:
        """``encode(self.content())``, made by ``__post_init__``."""
        return self.__dict__["_content"]  # type: ignore[no-any-return]

    def signed_bytes(self) -> bytes:
        """``signed_bytes_of(self.content())``: a list of the domain and the content, framed
        around the content's one encoding (a test checks the two agree)."""
        return b"l" + _SIGN_PREFIX + self._content_bytes() + b"e"

    def digest(self) -> bytes:
        """Identity of the envelope (the next ``prev`` of its seat): hash of the
        signed content. The signature is left out, so one content has one digest.
        Equal to ``digest(DIGEST_DOMAIN, self.content())`` (a test checks it)."""
        return self._cached("_digest", lambda: hashlib.sha256(  # type: ignore[no-any-return]
            b"l" + _DIGEST_PREFIX + self._content_bytes() + b"e").digest())

    def to_data(self) -> dict[str, Any]:
        data = self.content()
        data["seen"] = self.seen.__canonical__()
        data["sig"] = self.signature
        return data

    def __canonical__(self) -> dict[str, Any]:
        return self.to_data()

    def to_bytes(self) -> bytes:
        """``encode(self.to_data())``: the content's map with ``sig``, the last key in canonical
        order, added before its end (a test checks the two agree)."""
        return self._cached("_bytes", lambda: (  # type: ignore[no-any-return]
            self._content_bytes()[:-1] + _SIG_KEY + encode(self.signature) + b"e"))

    @classmethod
    def from_data(cls, data: Any) -> Envelope:
        """Strictly parse canonical data; :class:`MalformedMessage` on any flaw."""
        if not isinstance(data, Mapping):
            raise MalformedMessage("an envelope must be a map")
        keys = set(data)
        if keys != set(_FIELDS):
            missing = sorted(set(_FIELDS) - keys)
            extra = sorted(str(k) for k in keys - set(_FIELDS))
            raise MalformedMessage(f"envelope has missing fields {missing} / unexpected fields {extra}")
        return cls(game=data["game"], seat=data["seat"], seq=data["seq"], prev=data["prev"],
                   kind=data["kind"], body=data["body"], seen=as_seen(data["seen"]),
                   signature=data["sig"])

    @classmethod
    def from_bytes(cls, raw: bytes) -> Envelope:
        try:
            data = decode(raw)
        except EncodingError as exc:
            raise MalformedMessage(f"envelope is not canonical data: {exc}") from None
        return cls.from_data(data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Envelope):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    def verify(self, public_key: bytes, *, game: bytes | None = None, sender: str | None = None) -> None:
        """Check game (if given) and the signature under ``public_key``."""
        if game is not None and self.game != game:
            raise _wrong_game(self, game, sender)
        try:
            verify_signature(public_key, self.signature, self.signed_bytes(), seat=self.seat, sender=sender)
        except BadSignature as exc:
            raise BadSignature(f"envelope {self.kind!r} #{self.seq}: {exc.detail}", seat=self.seat,
                               sender=sender) from None


def _wrong_game(env: Envelope, game: bytes, sender: str | None) -> WrongGame:
    return WrongGame(f"envelope {env.kind!r} #{env.seq} was signed for game {env.game.hex()[:12]}, "
                     f"not this game {game.hex()[:12]} (a replay from another table?)",
                     seat=env.seat, sender=sender)


def signed_bytes_of(content: Mapping[str, Any]) -> bytes:
    """Exactly the bytes a seat signs: ``encode([SIGN_DOMAIN, content])``."""
    return encode((SIGN_DOMAIN, content))


def sign_envelope(identity: Identity, *, game: bytes, seat: int, seq: int, prev: bytes, kind: str,
                  body: Any, seen: SeenLike) -> Envelope:
    """Build and sign an envelope (the fields are validated first)."""
    unsigned = Envelope(game=game, seat=seat, seq=seq, prev=prev, kind=kind, body=body,
                        seen=as_seen(seen), signature=bytes(64))
    return dataclasses.replace(unsigned, signature=identity.sign(unsigned.signed_bytes()))


class EnvelopeWriter:
    """Our own seat's outgoing chain: fills in ``seq`` and ``prev``."""

    def __init__(self, identity: Identity, game: bytes, seat: int, *, next_seq: int = 0,
                 head: bytes = ZERO32) -> None:
        self.identity = identity
        self.game = game
        self.seat = seat
        self.next_seq = next_seq
        self.head = head

    def write(self, kind: str, body: Any, seen: SeenLike) -> Envelope:
        env = sign_envelope(self.identity, game=self.game, seat=self.seat, seq=self.next_seq,
                            prev=self.head, kind=kind, body=body, seen=seen)
        self.next_seq += 1
        self.head = env.digest()
        return env


# --- verification ---------------------------------------------------------


class SeatLog:
    """Verified chain of one seat's envelopes, in sequence order.

    The one implementation of the per-seat chain rules, used by the session
    (intake and pump: it buffers envelopes that come early instead of
    refusing them), the offline verifier and :class:`EnvelopeChain`. Each
    rule is its own method so a caller can take the ones it needs in its
    own order:

    - :meth:`verify`: :class:`WrongGame`, :class:`UnknownSeat` (not this
      log's seat), :class:`BadSignature`;
    - :meth:`known`: an already accepted ``seq`` is a harmless repeat (True)
      or, with different content, an :class:`Equivocation` with its proof;
    - :meth:`check_link`: the next envelope's ``prev`` must be the head
      (:class:`BrokenChain`);
    - :meth:`append`: the next envelope, checked (:class:`SequenceGap`,
      :class:`BrokenChain`), becomes the head.

    :meth:`accept` applies all of them strictly (a repeat is a
    :class:`Replay`, an envelope ahead a :class:`SequenceGap`). A rejected
    envelope changes nothing. ``start``/``head`` begin a log after a known
    point (the offline verifier resumes after a missing envelope that way);
    sequence numbers index the log (``log[seq]``; negative from the newest).
    """

    def __init__(self, game: bytes, seat: int, public_key: bytes, *, start: int = 0, head: bytes = ZERO32) -> None:
        validate_public_key(public_key, seat=seat)
        self.game = game
        self.seat = seat
        self.public_key = public_key
        self._start = start
        self._first_prev = head
        self._envelopes: list[Envelope] = []
        self._digests: list[bytes] = []

    @property
    def next_seq(self) -> int:
        return self._start + len(self._envelopes)

    @property
    def head(self) -> bytes:
        """Digest of the last accepted envelope (``head`` given at the start before the first)."""
        return self._digests[-1] if self._digests else self._first_prev

    @property
    def envelopes(self) -> tuple[Envelope, ...]:
        return tuple(self._envelopes)

    def __len__(self) -> int:
        return len(self._envelopes)

    def __iter__(self) -> Iterator[Envelope]:
        return iter(self._envelopes)

    def __getitem__(self, seq: int) -> Envelope:
        if seq < 0:
            return self._envelopes[seq]
        if seq < self._start:
            raise IndexError(f"envelope #{seq} is before the start of this log (#{self._start})")
        return self._envelopes[seq - self._start]

    def since(self, seq: int) -> list[Envelope]:
        """The accepted envelopes from ``seq`` on."""
        return self._envelopes[max(seq - self._start, 0):]

    def newest_first(self) -> Iterator[Envelope]:
        return reversed(self._envelopes)

    # --- the rules

    def verify(self, env: Envelope, *, sender: str | None = None) -> None:
        """Game, seat and signature."""
        if env.game != self.game:
            raise _wrong_game(env, self.game, sender)
        if env.seat != self.seat:
            raise UnknownSeat(f"envelope for seat {env.seat} offered to the log of seat {self.seat}",
                              seat=env.seat, sender=sender)
        env.verify(self.public_key, sender=sender)

    def known(self, env: Envelope, *, sender: str | None = None) -> bool:
        """True when ``env`` repeats an accepted envelope; :class:`Equivocation` when it
        differs from the accepted one with its ``seq``; False for a ``seq`` not accepted yet."""
        if not self._start <= env.seq < self.next_seq:
            return False
        held = self[env.seq]
        if self._digests[env.seq - self._start] == env.digest():
            return True
        raise Equivocation(EquivocationProof(held, env), sender=sender)

    def check_link(self, env: Envelope, *, sender: str | None = None) -> None:
        """The next envelope must chain onto the head (a later one cannot be judged yet)."""
        if env.seq == self.next_seq and env.prev != self.head:
            raise BrokenChain(f"envelope #{env.seq} does not chain onto envelope #{env.seq - 1} "
                              "(its prev hash differs): the seat rewrote its history",
                              seat=self.seat, sender=sender)

    def append(self, env: Envelope, *, sender: str | None = None) -> Envelope:
        """Add the next envelope (already verified) as the new head."""
        if env.seq != self.next_seq:
            raise SequenceGap(f"envelope #{env.seq} arrived but #{self.next_seq}..#{env.seq - 1} are missing",
                              seat=self.seat, sender=sender, missing=range(self.next_seq, env.seq))
        self.check_link(env, sender=sender)
        self._envelopes.append(env)
        self._digests.append(env.digest())
        return env

    def accept(self, env: Envelope, *, sender: str | None = None) -> Envelope:
        """Every rule, strictly: a repeat is a :class:`Replay`, an envelope ahead a gap."""
        self.verify(env, sender=sender)
        if self.known(env, sender=sender):
            raise Replay(f"envelope #{env.seq} ({env.kind!r}) was already accepted", seat=self.seat,
                         sender=sender)
        if env.seq < self._start:
            raise Replay(f"envelope #{env.seq} ({env.kind!r}) is before the start of this log", seat=self.seat,
                         sender=sender)
        return self.append(env, sender=sender)


class EnvelopeChain:
    """The logs of every seat of one game; routes each envelope to its seat."""

    def __init__(self, game: bytes, seat_keys: Sequence[bytes]) -> None:
        self.game = game
        self.logs = tuple(SeatLog(game, seat, key) for seat, key in enumerate(seat_keys))

    @classmethod
    def from_genesis(cls, genesis: Genesis) -> EnvelopeChain:
        return cls(game_id(genesis), genesis.seat_keys)

    def accept(self, env: Envelope, *, sender: str | None = None) -> Envelope:
        if env.game != self.game:
            raise _wrong_game(env, self.game, sender)
        if not 0 <= env.seat < len(self.logs):
            raise UnknownSeat(f"no seat {env.seat} at this table of {len(self.logs)}", seat=env.seat,
                              sender=sender)
        return self.logs[env.seat].accept(env, sender=sender)


# --- equivocation proofs --------------------------------------------------


@dataclasses.dataclass(frozen=True)
class EquivocationProof:
    """Two validly signed, different envelopes of one seat with one ``seq``."""

    first: Envelope
    second: Envelope

    @property
    def seat(self) -> int:
        return self.first.seat

    @property
    def seq(self) -> int:
        return self.first.seq

    @property
    def game(self) -> bytes:
        return self.first.game

    def to_data(self) -> dict[str, Any]:
        return {"first": self.first.to_data(), "second": self.second.to_data()}

    def __canonical__(self) -> dict[str, Any]:
        return self.to_data()

    @classmethod
    def from_data(cls, data: Any) -> EquivocationProof:
        if not isinstance(data, Mapping) or set(data) != {"first", "second"}:
            raise MalformedMessage("an equivocation proof is a map with 'first' and 'second' envelopes")
        return cls(Envelope.from_data(data["first"]), Envelope.from_data(data["second"]))


def verify_equivocation_proof(proof: EquivocationProof | Mapping[str, Any], public_key: bytes, *,
                              game: bytes | None = None) -> EquivocationProof:
    """Re-check a proof from scratch; raise :class:`InvalidProof` if it is fake.

    ``public_key`` is the accused seat's key (from the genesis record); pass
    ``game`` to also insist the proof is about that game.
    """
    try:
        parsed = proof if isinstance(proof, EquivocationProof) else EquivocationProof.from_data(proof)
    except MalformedMessage as exc:
        raise InvalidProof(f"equivocation proof is malformed: {exc}") from None
    a, b = parsed.first, parsed.second
    if (a.game, a.seat, a.seq) != (b.game, b.seat, b.seq):
        raise InvalidProof("the two envelopes differ in game, seat or sequence number, so they do "
                           "not conflict", seat=a.seat)
    if game is not None and a.game != game:
        raise InvalidProof("the envelopes belong to another game", seat=a.seat)
    if a.digest() == b.digest():
        raise InvalidProof("both envelopes have the same content: that is not equivocation", seat=a.seat)
    for env in (a, b):
        try:
            env.verify(public_key)
        except ProtocolError as exc:
            raise InvalidProof(f"an envelope in the proof is not signed by the accused seat: {exc.detail}",
                               seat=a.seat) from None
    return parsed


# --- game id ----------------------------------------------------------------


#: Bytes of fresh randomness each seat contributes to the game id.
MIN_NONCE, MAX_NONCE = 16, 64
_GENESIS_FIELDS = frozenset({"rules_id", "rules_version", "card_set_hash", "seat_keys", "options", "nonces"})
#: The dice protocol of records made before issue 26: commit, then reveal (net.dice). Such a
#: record has no ``dice`` field, so its game id is unchanged.
DICE_COMMIT_REVEAL = "commit-reveal/v1"
#: One network phase per roll: per-seat verifiable random functions (net.dice_vrf).
DICE_VRF = "vrf-dleq/v1"
#: Dice protocols this release plays and verifies, and what tools.verify calls them.
DICE_PROTOCOLS = {
    DICE_COMMIT_REVEAL: "commit-reveal dice, two network phases per roll (records made before issue 26)",
    DICE_VRF: "one-phase dice, a verifiable random function per seat (vrf-dleq/v1)",
}
#: How decks are shuffled in records made before issue 26 item 3: every seat shuffles every
#: deck. Such a record has no ``shuffles`` field, so its game id is unchanged.
SHUFFLES_EVERY_SEAT = "every-seat/v1"
#: Only the seats that will draw from a deck shuffle it (at least two), then a public permutation
#: from every seat's VRF beacon (net/session/subset_shuffle.py, net/poker/beacon.py).
SHUFFLES_DRAWERS = "drawers-beacon/v1"
#: Shuffle rules this release plays and verifies, and what tools.verify calls them.
SHUFFLE_RULES = {
    SHUFFLES_EVERY_SEAT: "every seat shuffles every deck (records made before issue 26 item 3)",
    SHUFFLES_DRAWERS: "the seats that draw from a deck shuffle it, then a joint public permutation "
                      "(drawers-beacon/v1)",
}
#: Claims judged only at the end-of-game audit (records made before issue 31).
CLAIMS_AT_AUDIT = "audit/v1"
#: Claims about one's own hidden cards proven at their step (net/session/claim_steps.py).
CLAIMS_AT_STEP = "or-dleq/v1"
#: Claim protocols this release plays and verifies, and what tools.verify calls them.
CLAIM_PROTOCOLS = {
    CLAIMS_AT_AUDIT: "claims judged at the end-of-game audit only (records made before issue 31)",
    CLAIMS_AT_STEP: "claims about one's own cards proven at their step (or-dleq/v1)",
}


@dataclasses.dataclass(frozen=True)
class Genesis:
    """The record every seat agrees on before the first move; it names the game.

    ``nonces`` holds one fresh random contribution (16-64 bytes) per seat, in
    seat order: seat ``i`` chose ``nonces[i]`` itself just before this game
    (a joiner sends it in its signed ``join``; seat 0 is the host's). A seat
    accepts a genesis only if its own fresh nonce is in its slot, so the game
    id is new to every honest seat: no old genesis can be replayed at it, and
    its envelopes of two games can never share a game id (which would let
    anyone pair them into a false equivocation proof).

    ``dice`` names the dice protocol (:data:`DICE_PROTOCOLS`). New games
    roll with :data:`DICE_VRF` and record it; a record without the field is
    one of :data:`DICE_COMMIT_REVEAL`, made before it existed, and keeps its
    game id because the field is left out of its canonical form.

    ``shuffles`` names the shuffle rule (:data:`SHUFFLE_RULES`) the same way:
    new games record :data:`SHUFFLES_DRAWERS`; a record without the field
    replays with every seat shuffling, as it was played. The drawers' rule
    needs the one-phase dice keys, so it goes with :data:`DICE_VRF` only (a
    record of commit-reveal dice always shuffles with every seat).
    ``claims`` names how declarations about hidden cards are checked
    (:data:`CLAIM_PROTOCOLS`), in the same way: new games prove them at their
    step (:data:`CLAIMS_AT_STEP`); a record without the field judges them at
    the audit only (:data:`CLAIMS_AT_AUDIT`) and keeps its game id.
    """

    rules_id: str
    rules_version: str
    card_set_hash: bytes
    seat_keys: tuple[bytes, ...]
    options: Mapping[str, Any]
    nonces: tuple[bytes, ...]
    dice: str = DICE_VRF
    shuffles: str = SHUFFLES_DRAWERS
    claims: str = CLAIMS_AT_STEP

    def __post_init__(self) -> None:
        for name in ("seat_keys", "nonces"):
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))
        for name in ("rules_id", "rules_version"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise MalformedMessage(f"genesis field {name!r} must be non-empty text")
        if not isinstance(self.card_set_hash, bytes) or len(self.card_set_hash) != 32:
            raise MalformedMessage("genesis field 'card_set_hash' must be 32 bytes")
        if not isinstance(self.seat_keys, tuple) or len(self.seat_keys) < 1:
            raise MalformedMessage("genesis field 'seat_keys' must be a non-empty list of public keys")
        for seat, key in enumerate(self.seat_keys):
            validate_public_key(key, seat=seat)
        if len(set(self.seat_keys)) != len(self.seat_keys):
            raise MalformedMessage("one key holds two seats; every seat needs its own identity")
        if not isinstance(self.options, Mapping):
            raise MalformedMessage("genesis field 'options' must be a map")
        try:
            encode(self.options)
        except EncodingError as exc:
            raise MalformedMessage(f"genesis options are not canonical data: {exc}") from None
        if not isinstance(self.nonces, tuple) or len(self.nonces) != len(self.seat_keys) or not all(
                isinstance(n, bytes) and MIN_NONCE <= len(n) <= MAX_NONCE for n in self.nonces):
            raise MalformedMessage(f"genesis field 'nonces' must hold one nonce of {MIN_NONCE} to "
                                   f"{MAX_NONCE} random bytes per seat (a list as long as seat_keys, "
                                   "each seat's own fresh contribution)")
        if not isinstance(self.dice, str) or self.dice not in DICE_PROTOCOLS:
            raise MalformedMessage(f"this record rolls its dice with protocol {self.dice!r}, which this release "
                                   f"does not know (it knows {sorted(DICE_PROTOCOLS)}); update Fairtable to "
                                   "play or verify it")
        if not isinstance(self.shuffles, str) or self.shuffles not in SHUFFLE_RULES:
            raise MalformedMessage(f"this record shuffles its decks by rule {self.shuffles!r}, which this release "
                                   f"does not know (it knows {sorted(SHUFFLE_RULES)}); update Fairtable to "
                                   "play or verify it")
        if self.shuffles == SHUFFLES_DRAWERS and self.dice != DICE_VRF:
            # a record of commit-reveal dice predates the drawers' rule too (its beacon needs the VRF keys)
            object.__setattr__(self, "shuffles", SHUFFLES_EVERY_SEAT)
        if not isinstance(self.claims, str) or self.claims not in CLAIM_PROTOCOLS:
            raise MalformedMessage(f"this record checks its claims with protocol {self.claims!r}, which this "
                                   f"release does not know (it knows {sorted(CLAIM_PROTOCOLS)}); update "
                                   "Fairtable to play or verify it")

    def to_data(self) -> dict[str, Any]:
        data = {"rules_id": self.rules_id, "rules_version": self.rules_version,
                "card_set_hash": self.card_set_hash, "seat_keys": self.seat_keys,
                "options": self.options, "nonces": self.nonces}
        if self.dice != DICE_COMMIT_REVEAL:
            data["dice"] = self.dice
        if self.shuffles != SHUFFLES_EVERY_SEAT:
            data["shuffles"] = self.shuffles
        if self.claims != CLAIMS_AT_AUDIT:
            data["claims"] = self.claims
        return data

    def __canonical__(self) -> dict[str, Any]:
        return self.to_data()

    @classmethod
    def from_data(cls, data: Any) -> Genesis:
        if not isinstance(data, Mapping) or set(data) - {"dice", "shuffles", "claims"} != _GENESIS_FIELDS:
            raise MalformedMessage(f"a genesis record is a map with exactly the fields {sorted(_GENESIS_FIELDS)} "
                                   "and, since issues 26 and 31, 'dice', 'shuffles' and 'claims'"
                                   + (" (this looks like a record of an earlier release, with one host "
                                      "'nonce' instead of one per seat)" if isinstance(data, Mapping)
                                      and "nonce" in data else ""))
        for name in ("seat_keys", "nonces"):
            if not isinstance(data[name], (tuple, list)):
                raise MalformedMessage(f"genesis field {name!r} must be a list")
        dice = data.get("dice", DICE_COMMIT_REVEAL)
        if "dice" in data and dice == DICE_COMMIT_REVEAL:
            raise MalformedMessage(f"a genesis record of {DICE_COMMIT_REVEAL!r} dice has no 'dice' field "
                                   "(records made before issue 26 never had one)")
        shuffles = data.get("shuffles", SHUFFLES_EVERY_SEAT)
        if "shuffles" in data and shuffles == SHUFFLES_EVERY_SEAT:
            raise MalformedMessage(f"a genesis record of {SHUFFLES_EVERY_SEAT!r} shuffles has no 'shuffles' "
                                   "field (records made before issue 26 item 3 never had one)")
        if "shuffles" in data and dice == DICE_COMMIT_REVEAL:
            raise MalformedMessage(f"shuffle rule {shuffles!r} needs the {DICE_VRF!r} dice keys for its beacon; "
                                   f"this record rolls its dice with {dice!r}")
        claims = data.get("claims", CLAIMS_AT_AUDIT)
        if "claims" in data and claims == CLAIMS_AT_AUDIT:
            raise MalformedMessage(f"a genesis record of claims checked at the audit ({CLAIMS_AT_AUDIT!r}) has no "
                                   "'claims' field (records made before issue 31 never had one)")
        return cls(rules_id=data["rules_id"], rules_version=data["rules_version"],
                   card_set_hash=data["card_set_hash"], seat_keys=tuple(data["seat_keys"]),
                   options=data["options"], nonces=tuple(data["nonces"]), dice=dice, shuffles=shuffles,
                   claims=claims)

    def __hash__(self) -> int:
        return hash(encode(self.to_data()))


def game_id(genesis_record: Genesis | Mapping[str, Any]) -> bytes:
    """The game id: domain-separated SHA-256 of the canonical genesis record."""
    genesis = genesis_record if isinstance(genesis_record, Genesis) else Genesis.from_data(genesis_record)
    return digest(GAME_ID_DOMAIN, genesis.to_data())

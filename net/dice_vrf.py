"""Joint dice in one network phase: a verifiable random function per seat. Sans-I/O.

The commit-then-reveal dice of :mod:`net.dice` need two network phases per
roll. Here every seat's part of a roll is fixed before the game starts, so
one phase is enough:

1. **Key (once, in the opening).** Every seat draws a secret scalar ``d`` and
   announces its *dice key* ``D = d*G`` in its ``hello``, with a Schnorr proof
   of knowledge of ``d`` bound to (game, seat) (:func:`announce_key`,
   :func:`check_key`).
2. **Roll (one phase).** A roll's context is (game, step, purpose, dice,
   seats) (:class:`RollContext`); its base point ``P`` is a hash to the curve
   of that context, with no known discrete log. Every seat sends
   ``Y = d*P`` with a Chaum-Pedersen proof that ``log_G D = log_P Y``
   (:func:`roll_part`, :func:`check_part`). ``Y`` is the only value that
   proof accepts: a seat cannot choose its part, only send it or not.
3. **Faces.** The seed is a domain-separated hash of the context and every
   ``Y`` in seat order (:func:`vrf_seed`); the faces come from it exactly as
   in :mod:`net.dice` (:func:`net.dice.faces_from_seed`, rejection sampling).

Nobody can compute another seat's ``Y`` before it is sent (that would be
computing ``d*P`` from ``D`` and ``P``: the computational Diffie-Hellman
problem), so the seed is unpredictable while one seat is honest. The last
seat to send still sees the others first and may refuse: as with
commit-reveal, that is attributed, never re-rolled. The round names the seats
it still misses (:meth:`VrfDiceRound.missing`); the session's deadline names
them as stalling and the others may end the game as their forfeit
(net/session/deadlines.py). docs/security-cards.md ("One-phase dice") has the
whole argument.

The proof's nonce is derived from the secret and the whole statement (as in
EdDSA), so a peer that restarts from its journal sends byte for byte the
same part: nothing about a roll needs journalling beyond the key.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.actions import SYSTEM
from engine.core.hashing import digest
from engine.core.pending import Chance, DiceRolled
from net.dice import check_dice, faces_from_seed
from net.errors import InvalidProof, MalformedMessage, Replay, Stalled, UnexpectedMessage, UnknownSeat
from net.poker import group as g

#: The genesis ``dice`` field of games that roll this way (net.envelope.Genesis).
VERSION = "vrf-dleq/v1"
KEY_DOMAIN = "fairtable/dice-vrf/key-proof/v1"
BASE_DOMAIN = "fairtable/dice-vrf/base/v1"
NONCE_DOMAIN = "fairtable/dice-vrf/nonce/v1"
PROOF_DOMAIN = "fairtable/dice-vrf/proof/v1"
SEED_DOMAIN = "fairtable/dice-vrf/seed/v1"
#: Fields of a roll message: the output point and the proof's challenge and response.
PART_FIELDS = ("out", "e", "z")
KEY_FIELDS = ("key", "e", "z")


class BadDiceProof(InvalidProof):
    """A dice key or roll part whose proof does not verify; ``seat`` is to blame."""


def _fields(message: object, names: tuple[str, ...], *, seat: int, what: str) -> Mapping[str, Any]:
    if not isinstance(message, Mapping) or sorted(message) != sorted(names):
        got = sorted(str(k) for k in message) if isinstance(message, Mapping) else type(message).__name__
        raise MalformedMessage(f"{what} must be a map with exactly {sorted(names)}, not {got}", seat=seat)
    return message


# --- the dice key -------------------------------------------------------------------


def new_secret() -> int:
    """A fresh dice secret ``d`` (non-zero, uniform mod L)."""
    return g.random_scalar()


def _key_challenge(game: bytes, seat: int, key: bytes, t: bytes) -> int:
    return g.hash_to_scalar(KEY_DOMAIN, (game, seat, key, t))


def announce_key(game: bytes, seat: int, secret: int) -> dict[str, bytes]:
    """The ``dice`` part of our hello: ``{"key": D, "e", "z"}`` (Schnorr proof of ``d``)."""
    key = g.base_mul(secret)
    k = g.hash_to_scalar(NONCE_DOMAIN, ("key", g.sb(secret), game, seat))
    t = g.base_mul(k)
    e = _key_challenge(game, seat, key, t)
    return {"key": key, "e": g.sb(e), "z": g.sb((k + e * secret) % g.L)}


def check_key(game: bytes, seat: int, message: object) -> bytes:
    """A seat's announced dice key, checked; raises naming ``seat`` if it is not one."""
    fields = _fields(message, KEY_FIELDS, seat=seat, what="a dice key announcement")
    key = g.decode_point(fields["key"], seat=seat, what="dice key")
    e = g.decode_scalar(fields["e"], seat=seat, what="dice key proof challenge")
    z = g.decode_scalar(fields["z"], seat=seat, what="dice key proof response")
    t = g.sub(g.base_mul(z), g.mul(e, key))
    if _key_challenge(game, seat, key, t) != e:
        raise BadDiceProof("the proof of knowledge of its dice key does not verify (a key it does not own, "
                           "or a proof made for another game or seat)", seat=seat)
    return key


# --- one roll -------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RollContext:
    """Everything a roll's value is bound to: game, step, purpose, dice and seats."""

    game: bytes
    step: int
    purpose: str
    dice: tuple[int, ...]
    seats: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.game, bytes) or len(self.game) != 32:
            raise ValueError("game id must be 32 bytes")
        if not isinstance(self.step, int) or isinstance(self.step, bool) or self.step < 0:
            raise ValueError("step must be a non-negative integer")
        if not isinstance(self.purpose, str) or not self.purpose:
            raise ValueError("purpose must be non-empty text")
        object.__setattr__(self, "dice", check_dice(self.dice))
        seats = tuple(self.seats)
        if not seats or any(b <= a for a, b in itertools.pairwise(seats)) or seats[0] < 0:
            raise ValueError("a roll needs one or more seats in strictly ascending order")
        object.__setattr__(self, "seats", seats)

    def binding(self) -> tuple[bytes, int, str, tuple[int, ...], tuple[int, ...]]:
        return (self.game, self.step, self.purpose, self.dice, self.seats)

    def base(self) -> bytes:
        """The roll's base point ``P``: a hash to the curve of the whole context."""
        return g.hash_to_point(BASE_DOMAIN, self.binding())


def _part_challenge(ctx: RollContext, seat: int, key: bytes, base: bytes, out: bytes, t1: bytes,
                    t2: bytes) -> int:
    return g.hash_to_scalar(PROOF_DOMAIN, (ctx.binding(), seat, key, base, out, t1, t2))


def roll_part(ctx: RollContext, seat: int, secret: int, base: bytes | None = None) -> dict[str, bytes]:
    """Our part of a roll: ``{"out": d*P, "e", "z"}`` (Chaum-Pedersen, deterministic nonce)."""
    base = ctx.base() if base is None else base
    key = g.base_mul(secret)
    out = g.mul(secret, base)
    # the nonce hashes the secret and the whole statement, not just the context: a base point
    # handed in that is not ctx.base() then gets its own nonce (one nonce under two challenges
    # would give the secret away)
    k = g.hash_to_scalar(NONCE_DOMAIN, ("roll", g.sb(secret), ctx.binding(), seat, key, base, out))
    t1, t2 = g.base_mul(k), g.mul(k, base)
    e = _part_challenge(ctx, seat, key, base, out, t1, t2)
    return {"out": out, "e": g.sb(e), "z": g.sb((k + e * secret) % g.L)}


def check_part(ctx: RollContext, seat: int, key: bytes, message: object, base: bytes | None = None) -> bytes:
    """A seat's roll part, checked against its dice key; returns ``Y``. Raises naming ``seat``:
    MalformedMessage/BadPoint/BadScalar for its shape, :class:`BadDiceProof` when the proof fails
    (a forged output, or a part made for another game, step, purpose, dice, seats or seat)."""
    fields = _fields(message, PART_FIELDS, seat=seat, what="a roll message")
    base = ctx.base() if base is None else base
    out = g.decode_point(fields["out"], seat=seat, what="roll output")
    e = g.decode_scalar(fields["e"], seat=seat, what="roll proof challenge")
    z = g.decode_scalar(fields["z"], seat=seat, what="roll proof response")
    t1 = g.sub(g.base_mul(z), g.mul(e, key))
    t2 = g.sub(g.mul(z, base), g.mul(e, out))
    if _part_challenge(ctx, seat, key, base, out, t1, t2) != e:
        raise BadDiceProof(f"its part of roll {ctx.purpose!r} at step {ctx.step} does not match its dice key "
                           "(a forged value, or a part made for another step, game, roll or seat)", seat=seat)
    return out


def vrf_seed(ctx: RollContext, outputs: Sequence[bytes]) -> bytes:
    """The roll's seed: every seat's output in seat order, bound to the whole context."""
    if len(outputs) != len(ctx.seats):
        raise ValueError("one output per seat")
    return digest(SEED_DOMAIN, (ctx.binding(), tuple(outputs)))


class VrfDiceRound:
    """One roll among ``seats``: each sends its part once; complete when all are in.

    ``keys`` maps every seat of the roll to its checked dice key. Every
    rejection raises a :class:`~net.errors.ProtocolError` naming the seat and
    leaves the round unchanged.
    """

    def __init__(self, ctx: RollContext, keys: Mapping[int, bytes]) -> None:
        missing = [s for s in ctx.seats if s not in keys]
        if missing:
            raise ValueError(f"no dice key for seats {missing}")
        self.ctx = ctx
        self.keys = {s: keys[s] for s in ctx.seats}
        self.base = ctx.base()
        self._parts: dict[int, dict[str, bytes]] = {}
        self._outputs: dict[int, bytes] = {}

    @classmethod
    def from_pending(cls, game: bytes, step: int, seats: Sequence[int], chance: Chance,
                     keys: Mapping[int, bytes]) -> VrfDiceRound:
        return cls(RollContext(game, step, chance.purpose, tuple(chance.dice), tuple(seats)), keys)

    @property
    def purpose(self) -> str:
        return self.ctx.purpose

    @property
    def complete(self) -> bool:
        return len(self._outputs) == len(self.ctx.seats)

    def missing(self) -> tuple[int, ...]:
        """Seats whose part has not arrived, in seat order."""
        return tuple(s for s in self.ctx.seats if s not in self._outputs)

    def make(self, seat: int, secret: int) -> dict[str, bytes]:
        """Our own part (the same bytes every time for the same roll and secret)."""
        self._need_seat(seat)
        return roll_part(self.ctx, seat, secret, self.base)

    def receive(self, seat: int, message: object) -> None:
        """One seat's part, checked at once."""
        self._need_seat(seat)
        if seat in self._outputs:
            if isinstance(message, Mapping) and dict(message) == self._parts[seat]:
                raise Replay(f"its part of roll {self.purpose!r} was already received", seat=seat)
            raise UnexpectedMessage(f"sent a second, different part for roll {self.purpose!r} at step "
                                    f"{self.ctx.step}", seat=seat)
        out = check_part(self.ctx, seat, self.keys[seat], message, self.base)
        assert isinstance(message, Mapping)
        self._parts[seat] = {k: message[k] for k in PART_FIELDS}
        self._outputs[seat] = out

    def receive_ours(self, seat: int, part: Mapping[str, bytes]) -> None:
        """Our own part, as :meth:`make` made it: stored without checking its proof (we made
        it; a peer checks it). Only for the part of the seat this peer holds."""
        self._need_seat(seat)
        if seat in self._outputs:
            raise UnexpectedMessage(f"our part of roll {self.purpose!r} was already taken", seat=seat)
        fields = _fields(part, PART_FIELDS, seat=seat, what="our roll message")
        self._parts[seat] = {k: fields[k] for k in PART_FIELDS}
        self._outputs[seat] = fields["out"]

    def part_of_departed(self, seat: int, secret: int) -> None:
        """The part of a seat that left the game (net/session/leave.py), computed by every peer
        from the dice secret it published as it left (checked against its dice key once, there).
        The roll comes out exactly as if that seat had sent its part: leaving cannot change a
        roll. A part it sent before leaving is kept as it is (its own chain puts it first)."""
        self._need_seat(seat)
        if seat in self._outputs:
            return
        if g.base_mul(secret) != self.keys[seat]:
            raise ValueError(f"seat {seat}'s published dice secret is not the one behind its dice key")
        self._outputs[seat] = g.mul(secret, self.base)

    def _need_seat(self, seat: int) -> None:
        if seat not in self.ctx.seats:
            raise UnknownSeat(f"seat {seat} is not part of roll {self.purpose!r} at step {self.ctx.step}",
                              seat=seat)

    def stalled(self) -> Stalled | None:
        """The seats that did not roll, as a :class:`~net.errors.Stalled` record (for a caller without
        a session; a session's deadline reads :meth:`missing` through its round's waiting_for)."""
        if self.complete:
            return None
        return Stalled(f"roll {self.purpose!r} at step {self.ctx.step} cannot finish without them; this is a "
                       "forfeit, not a re-roll", seats=self.missing(), phase="roll")

    def seed(self) -> bytes:
        if not self.complete:
            raise UnexpectedMessage(f"roll {self.purpose!r} is not complete; waiting for seats {list(self.missing())}")
        return vrf_seed(self.ctx, tuple(self._outputs[s] for s in self.ctx.seats))

    def faces(self) -> tuple[int, ...]:
        return faces_from_seed(self.seed(), self.ctx.dice)

    def answer(self) -> DiceRolled:
        """The engine input for the finished roll."""
        return DiceRolled(seat=SYSTEM, purpose=self.purpose, faces=self.faces())

    def transcript(self) -> dict[str, Any]:
        """The round's record (for audits and tests), with seed and faces once complete."""
        record: dict[str, Any] = {"game": self.ctx.game, "step": self.ctx.step, "purpose": self.purpose,
                                  "dice": self.ctx.dice, "seats": self.ctx.seats,
                                  "parts": {str(s): p for s, p in sorted(self._parts.items())}}
        if self.complete:
            record["seed"] = self.seed()
            record["faces"] = self.faces()
        return record

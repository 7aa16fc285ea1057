"""Joint dice for N seats: commit, reveal, hash, rejection-sample. Sans-I/O.

Games recorded before issue 26 roll this way (two network phases per roll);
new games roll in one phase with net.dice_vrf, which reuses the face sampler
here (:func:`faces_from_seed`). A roll in which nothing is random (no dice,
or one-sided dice) needs neither: :func:`settled_faces`.

1. Every seat draws 32 secret random bytes (its *contribution*) and sends a
   commitment to them (:mod:`net.commit`, purpose ``"dice:<purpose>"``).
2. Once every commitment is in, every seat reveals; each opening is checked
   against its seat's commitment at once (:class:`~net.errors.DiceRevealMismatch`
   names the seat).
3. The seed is a domain-separated hash of (game, step, purpose, dice, seats,
   all contributions in seat order). As long as one seat's contribution is
   random and was fixed before the others were seen, the seed is uniform.
4. Faces come from a counter-mode SHA-256 stream over the seed, by rejection
   sampling: a draw of ``k`` bytes below the largest multiple of ``sides`` maps
   to ``1 + x % sides``; anything above it is thrown away and the next ``k``
   bytes are tried. Each face is then exactly equally likely (plain
   ``byte % 6`` would favour 1-4).

The last seat to reveal learns the outcome first and may refuse to reveal.
That cannot be prevented, only attributed: :meth:`CommitRevealRound.stalled`
names the seats that did not reveal by the deadline, and the session treats it
as their forfeit. A round is never re-run: a re-roll would let the refuser
choose between outcomes.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

from engine.core.actions import SYSTEM
from engine.core.encoding import encode
from engine.core.hashing import digest
from engine.core.pending import Chance, DiceRolled
from net.commit import Commitment, CommitRevealRound, Opening
from net.errors import DiceRevealMismatch, MalformedMessage

SEED_DOMAIN = "fairtable/dice-seed/v1"
STREAM_DOMAIN = "fairtable/dice-stream/v1"
CONTRIBUTION_SIZE = 32
MAX_DICE = 100
MAX_SIDES = 2**32


def check_dice(dice: Sequence[int]) -> tuple[int, ...]:
    """Validate a dice list (sides per die) and return it as a tuple.

    Zero dice and one-sided dice are allowed: the engine asks for them when
    the rules roll "one die per fighter" with no fighter left, or "pick one
    of the targets" with one target (see :func:`settled_faces`).
    """
    dice = tuple(dice)
    if not 0 <= len(dice) <= MAX_DICE:
        raise ValueError(f"roll between 0 and {MAX_DICE} dice, not {len(dice)}")
    for sides in dice:
        if not isinstance(sides, int) or isinstance(sides, bool) or not 1 <= sides <= MAX_SIDES:
            raise ValueError(f"a die has 1 to {MAX_SIDES} sides, not {sides!r}")
    return dice


def settled_faces(dice: Sequence[int]) -> tuple[int, ...] | None:
    """The faces of a roll in which nothing is random, else None.

    A roll of no dice has no faces; a one-sided die always shows 1. Such a
    roll needs no joint round: every peer derives the same answer from the
    public pending input, so a round would only add a network phase and a
    seat that could stall it. A roll with at least one die of two or more
    sides goes through the joint protocol as a whole (its one-sided dice
    still show 1 there, see :func:`faces_from_seed`).
    """
    dice = check_dice(dice)
    return (1,) * len(dice) if all(sides == 1 for sides in dice) else None


def joint_seed(game: bytes, step: int, purpose: str, dice: Sequence[int], seats: Sequence[int],
               contributions: Sequence[bytes]) -> bytes:
    """The roll's seed: hash of every contribution in seat order, bound to its context."""
    if len(contributions) != len(seats):
        raise ValueError("one contribution per seat")
    return digest(SEED_DOMAIN, (game, step, purpose, tuple(dice), tuple(seats), tuple(contributions)))


class _Stream:
    """Bytes of SHA-256(encode([STREAM_DOMAIN, [seed, counter]])) for counter = 0, 1, ..."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = hashlib.sha256(encode((STREAM_DOMAIN, (self._seed, self._counter)))).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out


def faces_from_seed(seed: bytes, dice: Sequence[int]) -> tuple[int, ...]:
    """Unbiased faces (each in 1..sides) for ``dice`` from a 32-byte seed."""
    if not isinstance(seed, bytes) or len(seed) != 32:
        raise ValueError("a dice seed is 32 bytes")
    stream = _Stream(seed)
    faces = []
    for sides in check_dice(dice):
        width = ((sides - 1).bit_length() + 7) // 8  # bytes needed to cover 0..sides-1
        span = 256**width
        limit = span - span % sides  # largest multiple of sides that fits
        while True:
            x = int.from_bytes(stream.take(width), "big")
            if x < limit:
                faces.append(1 + x % sides)
                break
    return tuple(faces)


class DiceRound(CommitRevealRound):
    """One joint roll of ``dice`` (sides per die) for ``seats`` at ``step``."""

    mismatch_error = DiceRevealMismatch

    def __init__(self, game: bytes, step: int, seats: Sequence[int], purpose: str,
                 dice: Sequence[int]) -> None:
        super().__init__(game, step, seats, purpose)
        self.dice = check_dice(dice)

    @classmethod
    def from_pending(cls, game: bytes, step: int, seats: Sequence[int], chance: Chance) -> DiceRound:
        return cls(game, step, seats, chance.purpose, chance.dice)

    @property
    def commit_purpose(self) -> str:
        return f"dice:{self.purpose}"

    def contribute(self, seat: int) -> tuple[bytes, Opening]:
        """Our seat's secret contribution: (commitment to send, opening to keep)."""
        self._need_seat(seat)
        return Commitment.create(self.game, self.step, seat, secrets.token_bytes(CONTRIBUTION_SIZE),
                                 purpose=self.commit_purpose)

    def _check_value(self, seat: int, value: Any) -> None:
        if not isinstance(value, bytes) or len(value) != CONTRIBUTION_SIZE:
            raise MalformedMessage(f"dice contribution for {self.purpose!r} must be "
                                   f"{CONTRIBUTION_SIZE} bytes (it committed to something else)",
                                   seat=seat)

    def transcript(self) -> dict[str, Any]:
        """The round's record plus the dice and, once complete, seed and faces."""
        record = super().transcript()
        record["dice"] = self.dice
        if self.complete:
            record["seed"] = self.seed()
            record["faces"] = self.faces()
        return record

    def seed(self) -> bytes:
        return joint_seed(self.game, self.step, self.purpose, self.dice, self.seats, self.values())

    def faces(self) -> tuple[int, ...]:
        return faces_from_seed(self.seed(), self.dice)

    def answer(self) -> DiceRolled:
        """The engine input for the finished roll."""
        return DiceRolled(seat=SYSTEM, purpose=self.purpose, faces=self.faces())

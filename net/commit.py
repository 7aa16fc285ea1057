"""Commitments and sealed choices (commit, then reveal), sans-I/O.

A commitment is ``digest("fairtable/commit/v1", (game, step, seat, purpose,
value, salt))``: SHA-256 over the canonical encoding, with a fresh 32-byte
salt from :mod:`secrets`. The salt hides the value (even a value from a short
list such as rock/paper/scissors); the hash binds it. Game, step, seat and
purpose are inside the hash, so a commitment cannot be copied by another seat,
nor reused in another step, game or kind of round.

:class:`CommitRevealRound` runs one round for several seats: every seat sends
its commitment; only when all are in may anyone reveal; each opening is
checked against its seat's commitment at once; when every seat has revealed,
the values come out in seat order. :meth:`~CommitRevealRound.missing` names
the seats the round is waiting for, so a deadline can name the stallers.

Hidden placements (:class:`PlacementCommitments`, :func:`commit_placement`,
:func:`open_cell`, :func:`check_placement`) commit a placer to the content
of *every* candidate cell, so one cell can be opened alone and prove either
what is there or that nothing is. net/session/placement.py plays them
between peers (Super Human Locke's ambushes and key bases); the trusted
LocalTable fulfils placements without commitments.
"""

from __future__ import annotations

import dataclasses
import itertools
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from engine.core.actions import SYSTEM
from engine.core.encoding import encode
from engine.core.errors import EncodingError
from engine.core.hashing import digest
from engine.core.pending import EMPTY, SealedChoice, SealedChoicesRevealed
from net.errors import (
    CommitmentMismatch,
    IllegalChoice,
    MalformedMessage,
    Replay,
    Stalled,
    UnexpectedMessage,
    UnknownSeat,
)

COMMIT_DOMAIN = "fairtable/commit/v1"
SALT_SIZE = 32
#: Purpose of sealed-choice commitments (dice use ``"dice:<purpose>"``).
SEALED = "sealed"

Phase = Literal["commit", "reveal", "done"]


def _check_context(game: bytes, step: int, seat: int, purpose: str) -> None:
    if not isinstance(game, bytes) or len(game) != 32:
        raise ValueError("game id must be 32 bytes")
    for name, number in (("step", step), ("seat", seat)):
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise ValueError(f"{name} must be a non-negative integer")
    if not isinstance(purpose, str) or not purpose:
        raise ValueError("purpose must be non-empty text")


@dataclasses.dataclass(frozen=True)
class Opening:
    """What a seat reveals to open its commitment: the value and the salt."""

    value: Any
    salt: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.salt, bytes) or len(self.salt) != SALT_SIZE:
            raise MalformedMessage(f"an opening's salt must be {SALT_SIZE} bytes")
        try:
            encode(self.value)
        except EncodingError as exc:
            raise MalformedMessage(f"an opening's value is not canonical data: {exc}") from None

    def to_data(self) -> dict[str, Any]:
        return {"value": self.value, "salt": self.salt}

    def __canonical__(self) -> dict[str, Any]:
        return self.to_data()

    @classmethod
    def from_data(cls, data: Any) -> Opening:
        if isinstance(data, Opening):
            return data
        if not isinstance(data, Mapping) or set(data) != {"value", "salt"}:
            raise MalformedMessage("an opening is a map with exactly 'value' and 'salt'")
        return cls(data["value"], data["salt"])


def commitment_of(game: bytes, step: int, seat: int, value: Any, salt: bytes, *,
                  purpose: str = SEALED) -> bytes:
    """The 32-byte commitment to ``value`` by ``seat`` at ``step`` of ``game``."""
    _check_context(game, step, seat, purpose)
    return digest(COMMIT_DOMAIN, (game, step, seat, purpose, value, salt))


class Commitment:
    """Namespace for making commitments."""

    @staticmethod
    def create(game: bytes, step: int, seat: int, value: Any, *,
               purpose: str = SEALED) -> tuple[bytes, Opening]:
        """Commit to ``value`` with a fresh secret salt; keep the opening private."""
        opening = Opening(value, secrets.token_bytes(SALT_SIZE))
        return commitment_of(game, step, seat, value, opening.salt, purpose=purpose), opening


def verify_opening(commitment: bytes, game: bytes, step: int, seat: int, opening: Opening, *,
                   purpose: str = SEALED,
                   error: type[CommitmentMismatch] = CommitmentMismatch) -> None:
    """Raise ``error`` naming ``seat`` unless ``opening`` opens ``commitment``."""
    if commitment_of(game, step, seat, opening.value, opening.salt, purpose=purpose) != commitment:
        raise error(f"opening for {purpose!r} at step {step} does not match this seat's commitment "
                    "(another value, salt, step, game or seat)", seat=seat)


# --- rounds -------------------------------------------------------------------


def commit_message(commitment: bytes) -> dict[str, Any]:
    """Body of a commit message for :meth:`CommitRevealRound.handle`."""
    return {"commit": commitment}


def reveal_message(opening: Opening) -> dict[str, Any]:
    """Body of a reveal message for :meth:`CommitRevealRound.handle`."""
    return {"reveal": opening.to_data()}


class CommitRevealRound:
    """One commit-then-reveal round among ``seats`` (strictly ascending).

    Feed it what each seat sent with :meth:`commit` / :meth:`reveal` (or
    :meth:`handle` for message bodies). Every rejection raises a
    :class:`~net.errors.ProtocolError` naming the seat and leaves the round
    unchanged. Subclasses check revealed values with :meth:`_check_value`.
    """

    mismatch_error: ClassVar[type[CommitmentMismatch]] = CommitmentMismatch

    def __init__(self, game: bytes, step: int, seats: Sequence[int], purpose: str) -> None:
        seats = tuple(seats)
        if not seats or any(b <= a for a, b in itertools.pairwise(seats)):
            raise ValueError("a round needs one or more seats in strictly ascending order")
        for seat in seats:
            _check_context(game, step, seat, purpose)
        self.game = game
        self.step = step
        self.seats = seats
        self.purpose = purpose
        self._commits: dict[int, bytes] = {}
        self._openings: dict[int, Opening] = {}

    # What goes into the hash for this kind of round (dice override it).
    @property
    def commit_purpose(self) -> str:
        return self.purpose

    @property
    def phase(self) -> Phase:
        if len(self._commits) < len(self.seats):
            return "commit"
        if len(self._openings) < len(self.seats):
            return "reveal"
        return "done"

    @property
    def complete(self) -> bool:
        return self.phase == "done"

    def missing(self) -> tuple[int, ...]:
        """Seats the round waits for in its current phase (seat order)."""
        have = self._commits if self.phase == "commit" else self._openings
        return tuple(seat for seat in self.seats if seat not in have)

    def stalled(self) -> Stalled | None:
        """Call when the deadline passes: the forfeit record naming the stallers."""
        if self.complete:
            return None
        verb = "commit" if self.phase == "commit" else "reveal"
        return Stalled(f"round {self.purpose!r} at step {self.step} cannot finish without them; "
                       "this is a forfeit, not a re-roll", seats=self.missing(), phase=verb)

    def _need_seat(self, seat: int) -> None:
        if seat not in self.seats:
            raise UnknownSeat(f"seat {seat} is not part of round {self.purpose!r} at step {self.step}",
                              seat=seat)

    def commit(self, seat: int, commitment: bytes) -> None:
        self._need_seat(seat)
        if not isinstance(commitment, bytes) or len(commitment) != 32:
            raise MalformedMessage("a commitment must be 32 bytes", seat=seat)
        held = self._commits.get(seat)
        if held is not None:
            if held == commitment:
                raise Replay(f"commitment for {self.purpose!r} was already received", seat=seat)
            raise UnexpectedMessage(f"sent a second, different commitment for {self.purpose!r} "
                                    f"at step {self.step}", seat=seat)
        self._commits[seat] = commitment

    def reveal(self, seat: int, opening: Opening | Mapping[str, Any]) -> None:
        self._need_seat(seat)
        try:
            parsed = Opening.from_data(opening)
        except MalformedMessage as exc:
            raise MalformedMessage(exc.detail, seat=seat) from None
        if self.phase == "commit":
            waiting = ", ".join(str(s) for s in self.missing())
            raise UnexpectedMessage(f"revealed for {self.purpose!r} before every commitment was in "
                                    f"(still waiting for seats {waiting})", seat=seat)
        held = self._openings.get(seat)
        if held is not None:
            if encode(held) == encode(parsed):
                raise Replay(f"opening for {self.purpose!r} was already received", seat=seat)
            raise UnexpectedMessage(f"sent a second opening for {self.purpose!r}", seat=seat)
        verify_opening(self._commits[seat], self.game, self.step, seat, parsed,
                       purpose=self.commit_purpose, error=self.mismatch_error)
        self._check_value(seat, parsed.value)
        self._openings[seat] = parsed

    def handle(self, seat: int, message: Mapping[str, Any]) -> None:
        """Apply a message body built by :func:`commit_message` or :func:`reveal_message`."""
        if isinstance(message, Mapping) and set(message) == {"commit"}:
            self.commit(seat, message["commit"])
        elif isinstance(message, Mapping) and set(message) == {"reveal"}:
            self.reveal(seat, message["reveal"])
        else:
            raise MalformedMessage("expected a map with exactly 'commit' or 'reveal'", seat=seat)

    def _check_value(self, seat: int, value: Any) -> None:
        """Hook: raise a seat-attributed error if ``value`` is not allowed."""

    def values(self) -> tuple[Any, ...]:
        """The revealed values in seat order; only once the round is complete."""
        if not self.complete:
            raise UnexpectedMessage(f"round {self.purpose!r} is not complete; waiting for seats "
                                    f"{list(self.missing())} to {self.phase}")
        return tuple(self._openings[seat].value for seat in self.seats)

    def commitments(self) -> tuple[bytes, ...]:
        """Commitments received so far, in seat order (for transcripts)."""
        return tuple(self._commits[s] for s in self.seats if s in self._commits)

    def transcript(self) -> dict[str, Any]:
        """Canonical record of the round, for the journal and the audit."""
        return {
            "game": self.game, "step": self.step, "purpose": self.purpose, "seats": self.seats,
            "commits": {str(s): c for s, c in self._commits.items()},
            "openings": {str(s): o.to_data() for s, o in self._openings.items()},
        }


class SealedChoiceRound(CommitRevealRound):
    """A sealed choice (rock-paper-scissors, which card to flip) for several seats.

    ``options`` (aligned with ``seats``) lists what each seat may choose; a
    seat that opens to anything else is named by :class:`IllegalChoice`.
    """

    def __init__(self, game: bytes, step: int, seats: Sequence[int], purpose: str,
                 options: Sequence[Sequence[Any]] | None = None) -> None:
        super().__init__(game, step, seats, purpose)
        if options is not None and len(options) != len(self.seats):
            raise ValueError("options must list one tuple of choices per seat")
        self._allowed: dict[int, frozenset[bytes]] | None = None
        if options is not None:
            self._allowed = {seat: frozenset(encode(o) for o in opts)
                             for seat, opts in zip(self.seats, options)}

    @classmethod
    def from_pending(cls, game: bytes, step: int, pending: SealedChoice) -> SealedChoiceRound:
        return cls(game, step, pending.seats, pending.purpose, pending.options)

    @property
    def commit_purpose(self) -> str:
        return f"{SEALED}:{self.purpose}"

    def commit_to(self, seat: int, value: Any) -> tuple[bytes, Opening]:
        """Make our own seat's commitment for this round (keep the opening secret)."""
        self._need_seat(seat)
        return Commitment.create(self.game, self.step, seat, value, purpose=self.commit_purpose)

    def _check_value(self, seat: int, value: Any) -> None:
        if self._allowed is not None and encode(value) not in self._allowed[seat]:
            raise IllegalChoice(f"opened its sealed choice for {self.purpose!r} to {value!r}, "
                                "which the rules did not offer it", seat=seat)

    def answer(self) -> SealedChoicesRevealed:
        """The engine input for the finished round (choices in seat order)."""
        return SealedChoicesRevealed(seat=SYSTEM, purpose=self.purpose, choices=self.values())


# --- hidden placements: one commitment per candidate cell -----------------------
#
# For the networked table of games with hidden placements (Super Human Locke's
# ambushes and key bases): net/session/placement.py runs the rounds; the trusted
# LocalTable fulfils placements without commitments. See docs/security-cards.md,
# "Hidden placements".

#: Purpose of per-cell placement commitments; the zone and cell are inside the value.
PLACEMENT = "placement"


def _cell_value(zone: str, cell: str, content: Any) -> tuple[str, str, Any]:
    """What a cell's commitment hashes; the opening carries only ``content`` and its salt."""
    return (zone, cell, content)


@dataclasses.dataclass(frozen=True)
class PlacementCommitments:
    """The public half of a placement: one commitment per candidate cell.

    Each commitment is ``commitment_of(game, step, seat, [zone, cell, content],
    salt, purpose="placement")``, where ``content`` is the thing on that cell
    or ``EMPTY``. An opening carries only ``content`` and ``salt``; the
    verifier supplies game, step, seat, zone and cell from its own context,
    so an opening made for one cell, placement, step, game or seat opens
    nothing else. Because *every* candidate cell is committed, opening
    one cell proves "something is here" and "nothing is here" alike, and
    reveals nothing about the other cells.
    """

    game: bytes
    step: int
    seat: int
    zone: str
    cells: tuple[str, ...]
    commitments: tuple[bytes, ...]

    def __post_init__(self) -> None:
        _check_context(self.game, self.step, self.seat, PLACEMENT)
        if not isinstance(self.zone, str) or not self.zone:
            raise MalformedMessage("a placement needs a zone name", seat=self.seat)
        if not self.cells or len(set(self.cells)) != len(self.cells) or not all(
                isinstance(c, str) and c for c in self.cells):
            raise MalformedMessage("a placement lists its candidate cells once each, as text", seat=self.seat)
        if len(self.commitments) != len(self.cells) or not all(
                isinstance(c, bytes) and len(c) == 32 for c in self.commitments):
            raise MalformedMessage("a placement has one 32-byte commitment per candidate cell", seat=self.seat)

    def commitment(self, cell: str) -> bytes:
        """The commitment of ``cell``; UnexpectedMessage (naming the placer) if it is no candidate."""
        if cell not in self.cells:
            raise UnexpectedMessage(f"cell {cell!r} is not a candidate cell of placement {self.zone!r}",
                                    seat=self.seat)
        return self.commitments[self.cells.index(cell)]

    def to_data(self) -> dict[str, Any]:
        return {"zone": self.zone, "cells": list(self.cells), "commitments": list(self.commitments)}

    @classmethod
    def from_data(cls, game: bytes, step: int, seat: int, data: Any) -> PlacementCommitments:
        """Parse a placer's message body (context from the envelope); MalformedMessage if bad."""
        if not isinstance(data, Mapping) or set(data) != {"zone", "cells", "commitments"}:
            raise MalformedMessage("a placement is a map with exactly zone, cells and commitments", seat=seat)
        cells, commits = data["cells"], data["commitments"]
        if not isinstance(cells, (list, tuple)) or not isinstance(commits, (list, tuple)):
            raise MalformedMessage("a placement's cells and commitments are lists", seat=seat)
        return cls(game, step, seat, data["zone"], tuple(cells), tuple(commits))


def commit_placement(game: bytes, step: int, seat: int, zone: str, cells: Sequence[str],
                     arrangement: Mapping[str, str]) -> tuple[PlacementCommitments, dict[str, Opening]]:
    """Commit the placer's ``arrangement`` (cell -> thing) over every candidate cell.

    Returns the public commitments and the private openings (cell -> opening),
    which the placer keeps, sends sealed to the seats it must tell, and opens
    publicly cell by cell when the rules say.
    """
    cells = tuple(cells)
    outside = sorted(set(arrangement) - set(cells))
    if outside:
        raise ValueError(f"cells {outside} are not candidate cells of placement {zone!r}")
    if any(not isinstance(t, str) or t == EMPTY for t in arrangement.values()):
        raise ValueError("a placed thing is non-empty text")
    commits: list[bytes] = []
    openings: dict[str, Opening] = {}
    for cell in cells:
        opening = Opening(arrangement.get(cell, EMPTY), secrets.token_bytes(SALT_SIZE))
        commits.append(commitment_of(game, step, seat, _cell_value(zone, cell, opening.value), opening.salt,
                                     purpose=PLACEMENT))
        openings[cell] = opening
    return PlacementCommitments(game, step, seat, zone, cells, tuple(commits)), openings


def open_cell(placed: PlacementCommitments, cell: str, opening: Opening | Mapping[str, Any]) -> str:
    """Check the placer's opening of ``cell``; return its content (a thing or ``EMPTY``).

    Raises, naming the placer: MalformedMessage (not an opening),
    UnexpectedMessage (no such candidate cell), CommitmentMismatch (the
    opening does not open this cell's commitment: another content, salt, cell,
    placement, step, game or seat), IllegalChoice (the placer committed to
    something that is not text).
    """
    try:
        parsed = Opening.from_data(opening)
    except MalformedMessage as exc:
        raise MalformedMessage(exc.detail, seat=placed.seat) from None
    expected = placed.commitment(cell)
    value = _cell_value(placed.zone, cell, parsed.value)
    if commitment_of(placed.game, placed.step, placed.seat, value, parsed.salt, purpose=PLACEMENT) != expected:
        raise CommitmentMismatch(f"opening of cell {cell!r} of placement {placed.zone!r} (step {placed.step}) does "
                                 "not match the commitment (another content, salt, cell, placement, step, game or "
                                 "seat)", seat=placed.seat)
    if not isinstance(parsed.value, str):
        raise IllegalChoice(f"committed cell {cell!r} of placement {placed.zone!r} to {parsed.value!r}, which is "
                            "neither a thing nor nothing", seat=placed.seat)
    return parsed.value


def check_placement(placed: PlacementCommitments, openings: Mapping[str, Opening | Mapping[str, Any]],
                    things: Sequence[str]) -> dict[str, str]:
    """Open every cell (a disclosure, or the end-of-game audit) and check the placement as a whole.

    Returns cell -> content. Besides every error of :func:`open_cell`, raises
    UnexpectedMessage when a candidate cell's opening is missing or an extra
    one is given, and IllegalChoice when the things placed are not exactly
    ``things`` (one thing missing, added or doubled).
    """
    if set(openings) != set(placed.cells):
        missing = sorted(set(placed.cells) - set(openings))
        extra = sorted(set(openings) - set(placed.cells))
        raise UnexpectedMessage(f"placement {placed.zone!r} must be opened for every candidate cell "
                                f"(missing {missing}, not candidates {extra})", seat=placed.seat)
    contents = {cell: open_cell(placed, cell, openings[cell]) for cell in placed.cells}
    laid = sorted(c for c in contents.values() if c != EMPTY)
    if laid != sorted(things):
        raise IllegalChoice(f"placement {placed.zone!r} holds {laid}, but the rules had it place "
                            f"{sorted(things)}", seat=placed.seat)
    return contents

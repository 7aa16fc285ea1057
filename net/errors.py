"""Typed errors of the fair-play protocols.

Every rejection says what happened and who did it. ``seat`` is the seat the
offending message is attributed to (the seat whose signature or commitment is
at fault), ``sender`` the peer it arrived from when that is known and differs
(a forwarding peer is not blamed for a message it merely passed on: messages
verify themselves). Callers such as the session layer use ``seat`` to name a
cheater or staller to the other players; the texts are written for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - imports for type hints only
    from net.envelope import Envelope, EquivocationProof


class FairPlayError(Exception):
    """Base of every error raised on purpose by ``net``'s fair-play layer."""


class IdentityError(FairPlayError):
    """The local identity key cannot be used (corrupt file, loose permissions).

    The message always ends with what to do next.
    """


class ProtocolError(FairPlayError):
    """A received message breaks the protocol; ``seat`` is to blame (if known)."""

    def __init__(self, message: str, *, seat: int | None = None, sender: str | None = None) -> None:
        self.seat = seat
        self.sender = sender
        self.detail = message
        prefix = f"seat {seat}: " if seat is not None else ""
        suffix = f" (received from {sender})" if sender is not None else ""
        super().__init__(f"{prefix}{message}{suffix}")


class MalformedMessage(ProtocolError):
    """A message has missing, extra or ill-typed fields."""


class BadPublicKey(ProtocolError):
    """A public key is not a valid, prime-order Ed25519 point."""


class BadSignature(ProtocolError):
    """A signature does not verify under the key of the seat it claims."""


class WrongGame(ProtocolError):
    """A message was signed for another game (a replay from elsewhere)."""


class UnknownSeat(ProtocolError):
    """A message names a seat that is not at this table (or not in this round)."""


class SequenceGap(ProtocolError):
    """A seat's envelope skips sequence numbers; ``missing`` lists them.

    Not proof of cheating on its own (messages can arrive out of order through
    forwarding): the caller may hold the envelope back and ask for the gap.
    """

    def __init__(self, message: str, *, seat: int | None = None, sender: str | None = None,
                 missing: Sequence[int] = ()) -> None:
        self.missing = tuple(missing)
        super().__init__(message, seat=seat, sender=sender)


class Replay(ProtocolError):
    """A message that was already accepted arrived again.

    Harmless in itself (nothing is applied twice); a forwarding transport may
    drop these silently.
    """


class BrokenChain(ProtocolError):
    """An envelope's ``prev`` is not the hash of the seat's previous envelope."""


class Equivocation(ProtocolError):
    """A seat signed two different envelopes with one sequence number.

    ``proof`` carries both envelopes; anyone holding the seat's public key can
    re-verify it with :func:`net.envelope.verify_equivocation_proof`.
    """

    def __init__(self, proof: EquivocationProof, *, sender: str | None = None) -> None:
        self.proof = proof
        super().__init__(
            f"signed two different envelopes with sequence number {proof.seq} "
            f"(kinds {proof.first.kind!r} and {proof.second.kind!r}); the signed pair is proof",
            seat=proof.seat,
            sender=sender,
        )

    @property
    def envelopes(self) -> tuple[Envelope, Envelope]:
        return (self.proof.first, self.proof.second)


class InvalidProof(ProtocolError):
    """A claimed proof (for example of equivocation) does not hold up."""


class UnexpectedMessage(ProtocolError):
    """A message came at the wrong time: wrong phase, twice, or not wanted now."""


class CommitmentMismatch(ProtocolError):
    """An opening does not match the commitment its seat made earlier."""


class DiceRevealMismatch(CommitmentMismatch):
    """A seat's dice contribution does not match its dice commitment."""


class IllegalChoice(ProtocolError):
    """A seat opened its sealed choice to a value the rules did not offer it."""


class Stalled(ProtocolError):
    """A deadline passed with seats still owing their part; ``seats`` lists them.

    Under the rules of the table this is a forfeit by those seats, never a
    re-roll or a re-deal: re-running would let the last revealer pick outcomes.
    """

    def __init__(self, message: str, *, seats: Sequence[int], phase: str) -> None:
        self.seats = tuple(seats)
        self.phase = phase
        who = ", ".join(str(s) for s in self.seats)
        super().__init__(f"seats {who} did not {phase} in time: {message}",
                         seat=self.seats[0] if len(self.seats) == 1 else None)

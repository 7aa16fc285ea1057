"""Typed errors of the card protocols (mental poker).

Every rejection names the seat at fault (``seat``) and says, in words, what
was wrong. They subclass :mod:`net.errors` so the session layer handles card
cheats like every other protocol violation: attribute, stop, forfeit.
"""

from __future__ import annotations

from net.errors import CommitmentMismatch, InvalidProof, MalformedMessage, ProtocolError


class CardProtocolError(ProtocolError):
    """Base of every card-protocol rejection; ``seat`` is the seat to blame."""


class BadPoint(CardProtocolError, MalformedMessage):
    """A received group element is not a canonical prime-order point
    (small-order, identity, off the curve, non-canonical or the wrong size)."""


class BadScalar(CardProtocolError, MalformedMessage):
    """A received scalar is not 32 bytes encoding an integer below the group order."""


class BadCardMessage(CardProtocolError, MalformedMessage):
    """A card message has missing, extra or ill-typed fields, or wrong lengths."""


class BadCardProof(CardProtocolError, InvalidProof):
    """A zero-knowledge proof (key, shuffle or decryption share) does not verify.

    ``proof`` names which proof (``"key"``, ``"shuffle"``, ``"share"``).
    """

    def __init__(self, message: str, *, seat: int | None, proof: str) -> None:
        self.proof = proof
        super().__init__(message, seat=seat)


class CardOutsideDeck(CardProtocolError):
    """A decrypted or claimed card point is not one of the deck's card points."""


class DeckListMismatch(CardProtocolError, CommitmentMismatch):
    """A secret deck list was opened to something other than what was committed."""


class BadSealedShare(CardProtocolError):
    """A share encrypted to one seat does not decrypt (tampered or misaddressed)."""


class OutOfTurn(CardProtocolError):
    """A seat sent a card message that is not expected from it now."""

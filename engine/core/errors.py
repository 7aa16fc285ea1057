"""Typed errors of the engine.

Every rejection names what was wrong in words a player can act on. A reducer
raises one of these *before* building any new state, so the state the caller
holds is never changed by a rejected input.
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class EncodingError(EngineError, ValueError):
    """A value cannot be canonically encoded, or bytes are not canonical."""


class IllegalAction(EngineError):
    """The input is well formed but the rules do not allow it now.

    ``rule`` names the rule (for example ``"rider.4"``) so logs, tests and
    players can look it up in docs/rules/.
    """

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} [{rule}]" if rule else message)


class NotYourTurn(IllegalAction):
    """A seat acted while the pending input was waiting for someone else."""


class WrongInputKind(IllegalAction):
    """The input does not answer the kind of pending input the state waits for
    (for example a card play while the engine waits for dice)."""


class MalformedAction(EngineError, ValueError):
    """The input could not be understood at all (unknown kind, bad fields)."""


class GameOver(IllegalAction):
    """The game has ended; no further input is accepted."""


class CheatDetected(IllegalAction):
    """A revealed fact contradicts an earlier commitment by ``seat``.

    Raised when, for example, a face-down card that must have been Lv.1 is
    revealed as another card. The networked session attributes it to ``seat``.
    """

    def __init__(self, message: str, *, seat: int, rule: str | None = None) -> None:
        self.seat = seat
        super().__init__(f"seat {seat}: {message}", rule=rule)


class FalseClaim(CheatDetected):
    """A declaration about hidden data (a claim) turned out false when the data was opened.

    Names the claim's seat and the step it was made in (``claim.step``), so a
    local table, a networked audit and a verifier all report the same culprit.
    ``claim`` is an :class:`engine.core.claims.Claim`.
    """

    def __init__(self, claim: Any, message: str) -> None:
        self.claim = claim
        self.step: int = claim.step
        super().__init__(f"at step {claim.step} claimed {message}, which is false", seat=claim.seat,
                         rule=claim.rule or None)


class DeckError(EngineError, ValueError):
    """A deck list breaks deck-construction rules; ``problems`` lists them all."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))

"""Claims: declarations about hidden data, logged now and judged when it opens.

Many rules work by *declaration*: "my durability is 5", "this card I keep is
an ability card", "I hold an information card". The engine cannot see the
hidden card, so it accepts a declaration that is consistent with the public
record and logs it as a :class:`Claim` (public: everyone heard it). The claim
is judged once the hidden data it is about is opened:

- a trusted local table knows every card, so it judges each claim at once
  (net.local_table.LocalTable refuses the input that makes a false claim);
- a networked table judges every claim at the end-of-game audit, when the
  handles are opened.

Both use :func:`false_claims` here, with the game's own pure predicate
(``claim_holds(claim, contents) -> bool``), so there is one implementation of
the judgement. A false claim is a :class:`~engine.core.errors.FalseClaim`
naming the seat and the step.

A game that makes claims keeps, in its public state, a step counter (the
number of inputs applied so far: the driver's step) and the claim log, and
offers ``claims(state)`` and ``claim_holds(claim, contents)``
(:class:`ClaimingGame`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

from engine.core.encoding import decode, encode
from engine.core.errors import FalseClaim


@dataclasses.dataclass(frozen=True)
class Claim:
    """``seat`` declared ``what`` (with ``value``) about the hidden ``about`` handles at ``step``.

    ``step`` is the number of inputs applied before the declaring one (the
    session's step, ``len(LocalTable.log)``). ``value`` is canonical data: the
    declared value plus whatever public context the check needs, so that the
    judgement is a function of the claim and the opened contents alone.
    ``rule`` is the rule id a false claim breaks.
    """

    seat: int
    step: int
    what: str
    about: tuple[int, ...]
    value: Any = None
    rule: str = ""

    def __post_init__(self) -> None:
        if not self.what:
            raise ValueError("a claim needs a kind (what was claimed)")
        encode(self.value)  # refuse non-canonical data (EncodingError) at once

    def describe(self) -> str:
        """Short words for logs and errors: ``what`` and the declared value."""
        return self.what if self.value is None else f"{self.what} = {self.value!r}"

    def __canonical__(self) -> dict[str, Any]:
        return {"seat": self.seat, "step": self.step, "what": self.what, "about": self.about,
                "value": self.value, "rule": self.rule}

    @classmethod
    def from_data(cls, data: Any) -> Claim:
        """Inverse of :meth:`__canonical__`; ValueError if malformed."""
        keys = {"seat", "step", "what", "about", "value", "rule"}
        if not isinstance(data, Mapping) or set(data) != keys:
            raise ValueError(f"a claim is a map with {sorted(keys)}")
        about = data["about"]
        ints = [data["seat"], data["step"], *about] if isinstance(about, (list, tuple)) else None
        if ints is None or any(not isinstance(i, int) or isinstance(i, bool) for i in ints):
            raise ValueError("a claim's seat, step and handles are integers")
        if not isinstance(data["what"], str) or not isinstance(data["rule"], str):
            raise ValueError("a claim's kind and rule are text")
        return cls(data["seat"], data["step"], data["what"], tuple(about), decode(encode(data["value"])),
                   data["rule"])


#: A game's judgement: does ``claim`` hold, given the contents of ``claim.about`` (aligned)?
ClaimCheck = Callable[[Claim, tuple[str, ...]], bool]


@runtime_checkable
class ClaimingGame(Protocol):
    """What a game that makes claims offers its drivers (beside engine.core.game.Game)."""

    def claims(self, state: Any) -> tuple[Claim, ...]: ...

    def claim_holds(self, claim: Claim, contents: tuple[str, ...]) -> bool: ...


def judge_claim(claim: Claim, contents_of: Callable[[int], str | None], check: ClaimCheck) -> bool | None:
    """True or False once every handle of ``claim.about`` is known; None while some is hidden."""
    contents = []
    for handle in claim.about:
        content = contents_of(handle)
        if content is None:
            return None
        contents.append(content)
    return bool(check(claim, tuple(contents)))


def false_claims(claims: Iterable[Claim], contents_of: Callable[[int], str | None],
                 check: ClaimCheck) -> tuple[FalseClaim, ...]:
    """Every claim proved false by the known contents, earliest step first."""
    found = [FalseClaim(c, c.describe()) for c in claims if judge_claim(c, contents_of, check) is False]
    return tuple(sorted(found, key=lambda f: (f.step, f.seat)))


def unjudged_claims(claims: Iterable[Claim], contents_of: Callable[[int], str | None]) -> tuple[Claim, ...]:
    """Claims about a handle whose content is still unknown (an audit must open them)."""
    return tuple(c for c in claims if any(contents_of(h) is None for h in c.about))

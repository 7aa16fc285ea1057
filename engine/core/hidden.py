"""Private knowledge about hidden cards, kept outside the public state.

The public state only holds opaque integer *handles* for face-down cards. What
a seat knows about them (which card a handle is) lives in a
:class:`Knowledge` value held by that seat's driver. It is never hashed and
never sent: on a networked table it is what the seat decrypted for itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType


@dataclasses.dataclass(frozen=True)
class Knowledge:
    """What one seat knows: handle -> card id. Immutable; ``learn`` copies."""

    seat: int
    cards: Mapping[int, str] = dataclasses.field(default_factory=lambda: MappingProxyType({}))

    def learn(self, pairs: Iterable[tuple[int, str]]) -> Knowledge:
        merged = dict(self.cards)
        merged.update(pairs)
        return Knowledge(self.seat, MappingProxyType(merged))

    def card(self, handle: int) -> str | None:
        """The card behind ``handle``, or None when this seat does not know it."""
        return self.cards.get(handle)

    def knows(self, handle: int) -> bool:
        return handle in self.cards

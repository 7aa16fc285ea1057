"""Private knowledge about hidden things, kept outside the public state.

The public state only holds opaque integer *handles* for face-down cards and
for the cells of a hidden placement. What a seat knows about them lives in a
:class:`Knowledge` value held by that seat's driver. It is never part of the
state hash and never sent: on a networked table it is what the seat
decrypted or was told privately.

Two parts:

- ``cards``: handle -> what is behind it. For a card, its card id; for a
  placement cell, the thing placed there or :data:`engine.core.pending.EMPTY`.
- ``notes``: what the seat has been *shown or told*, in order (another
  player's character card, a key-base map), as :class:`Note` records. Games
  read them to build legal actions and views; drivers write them when they
  fulfil a private disclosure.

Both are canonical data (:meth:`Knowledge.__canonical__`), so a seat's
knowledge can be saved, compared and restored exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from engine.core.encoding import decode, encode


@dataclasses.dataclass(frozen=True)
class Note:
    """One private fact: at driver ``step`` this seat was told ``data`` about ``topic``.

    ``topic`` is a stable id (``"shown:<zone>"``, ``"placed:<zone>"``,
    ``"disclosed:<zone>"`` or a game's own); ``data`` is canonical data, kept
    in its decoded normal form (lists become tuples) so equal notes compare
    and encode equal.
    """

    step: int
    topic: str
    data: Any

    def __canonical__(self) -> dict[str, Any]:
        return {"step": self.step, "topic": self.topic, "data": self.data}


def _note(step: int, topic: str, data: Any) -> Note:
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise ValueError(f"a note's step must be a non-negative integer, not {step!r}")
    if not isinstance(topic, str) or not topic:
        raise ValueError("a note needs a topic (non-empty text)")
    return Note(step, topic, decode(encode(data)))


@dataclasses.dataclass(frozen=True)
class Knowledge:
    """What one seat knows. Immutable: ``learn`` and ``noted`` return copies."""

    seat: int
    cards: Mapping[int, str] = dataclasses.field(default_factory=lambda: MappingProxyType({}))
    notes: tuple[Note, ...] = ()

    def learn(self, pairs: Iterable[tuple[int, str]]) -> Knowledge:
        merged = dict(self.cards)
        merged.update(pairs)
        return dataclasses.replace(self, cards=MappingProxyType(merged))

    def card(self, handle: int) -> str | None:
        """The card (or placed thing) behind ``handle``, or None when this seat does not know it."""
        return self.cards.get(handle)

    def knows(self, handle: int) -> bool:
        return handle in self.cards

    def noted(self, step: int, topic: str, data: Any) -> Knowledge:
        """A copy with one more note; raises EncodingError if ``data`` is not canonical data."""
        return dataclasses.replace(self, notes=self.notes + (_note(step, topic, data),))

    def notes_on(self, topic: str) -> tuple[Note, ...]:
        """Every note on ``topic``, oldest first."""
        return tuple(n for n in self.notes if n.topic == topic)

    def __canonical__(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "cards": [[h, self.cards[h]] for h in sorted(self.cards)],
            "notes": [n.__canonical__() for n in self.notes],
        }

    @classmethod
    def from_data(cls, data: Any) -> Knowledge:
        """Inverse of :meth:`__canonical__` (after a canonical round trip); ValueError if malformed."""
        if not isinstance(data, Mapping) or set(data) != {"seat", "cards", "notes"}:
            raise ValueError("knowledge is a map with seat, cards and notes")
        seat = data["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValueError("knowledge needs a seat number")
        cards: dict[int, str] = {}
        for pair in data["cards"]:
            if (not isinstance(pair, (list, tuple)) or len(pair) != 2 or not isinstance(pair[0], int)
                    or isinstance(pair[0], bool) or not isinstance(pair[1], str) or pair[0] in cards):
                raise ValueError(f"a known card is a unique [handle, card id] pair, not {pair!r}")
            cards[pair[0]] = pair[1]
        notes = []
        for item in data["notes"]:
            if not isinstance(item, Mapping) or set(item) != {"step", "topic", "data"}:
                raise ValueError("a note is a map with step, topic and data")
            notes.append(_note(item["step"], item["topic"], item["data"]))
        return cls(seat, MappingProxyType(cards), tuple(notes))

"""Set-up by sight: the three face-down Lv.1 cards and their columns, chosen by
dragging card faces onto columns A, B and C.

The picker never builds an action. It is made from the seat's legal list
(every :class:`~engine.rider.actions.SetUp` the engine offers, as
``client/rider/intents.py`` does for every other move) and the seat's own
knowledge; a card may go on a column only while some legal set-up still has
the cards chosen so far in their columns, and the action submitted is one of
those legal set-ups. Copies of a card are interchangeable, so each distinct
card is offered once with its number of copies.

While the other seat still places, the picker is *early*: made from the set-ups the
engine says this seat will be offered (``RiderGame.upcoming_setups``), so a person
arranges its columns instead of waiting; the table scene places the arrangement once
the real legal list arrives and still holds it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.rider.actions import SetUp
from engine.rider.state import COLUMNS


class SetupPicker:
    """Which distinct Lv.1 card goes face down in each column, so far."""

    def __init__(self, legal: Sequence[Action], knowledge: Knowledge, *, early: bool = False) -> None:
        self.setups = [a for a in legal if isinstance(a, SetUp)]
        #: Made before this seat's turn to place (nothing can be placed yet).
        self.early = early
        self.knowledge = knowledge
        copies: dict[str, set[int]] = {}
        for action in self.setups:
            for handle in action.handles:
                card = knowledge.card(handle)
                if card is not None:
                    copies.setdefault(card, set()).add(handle)
        #: Distinct cards in the order the legal list first names them (the deck's order).
        self.cards: list[str] = list(copies)
        self.copies = {card: len(handles) for card, handles in copies.items()}
        self.slots: dict[str, str | None] = dict.fromkeys(COLUMNS)
        #: Each legal set-up with the cards it puts in A, B and C.
        self._combos = [(a, tuple(knowledge.card(h) for h in a.handles)) for a in self.setups]

    def _fits(self, slots: dict[str, str | None]) -> bool:
        """Some legal set-up puts every chosen card in its column."""
        wanted = [(i, card) for i, letter in enumerate(COLUMNS) if (card := slots[letter]) is not None]
        return any(all(cards[i] == card for i, card in wanted) for _, cards in self._combos)

    def remaining(self, card: str) -> int:
        """Copies of ``card`` not yet placed."""
        return self.copies.get(card, 0) - sum(1 for c in self.slots.values() if c == card)

    def can_place(self, card: str, letter: str) -> bool:
        """``card`` may go face down in column ``letter`` (replacing what is there)."""
        if letter not in self.slots or card not in self.copies:
            return False
        trial = dict(self.slots)
        trial[letter] = card
        return self._fits(trial)

    def place(self, card: str, letter: str) -> bool:
        """Put ``card`` in column ``letter``; False (and nothing changes) if no legal set-up allows it."""
        if not self.can_place(card, letter):
            return False
        self.slots[letter] = card
        return True

    def clear(self, letter: str) -> None:
        self.slots[letter] = None

    def keep(self, slots: dict[str, str | None]) -> None:
        """Take over an arrangement made earlier, as far as a legal set-up still allows it."""
        for letter, card in slots.items():
            if card is not None:
                self.place(card, letter)

    def reset(self) -> None:
        self.slots = dict.fromkeys(COLUMNS)

    def fill(self) -> None:
        """Complete the choice with the first legal set-up that keeps the cards chosen so far."""
        for _, cards in self._combos:
            if all(self.slots[letter] in (None, cards[i]) for i, letter in enumerate(COLUMNS)):
                self.slots = dict(zip(COLUMNS, cards))
                return

    @property
    def complete(self) -> bool:
        return all(card is not None for card in self.slots.values())

    def choice(self) -> SetUp | None:
        """The legal set-up with the chosen cards in A, B and C (None until all three are chosen)."""
        if not self.complete:
            return None
        wanted = tuple(self.slots[letter] for letter in COLUMNS)
        return next((a for a, cards in self._combos if cards == wanted), None)

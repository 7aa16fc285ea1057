"""How seats are numbered for people: one convention for every tool and the client.

A seat is an index from 0 in every data structure, protocol message, JSON
field and recorded text (an engine's outcome reason lives in its hashed
state, a session's error texts go into signed records): those cannot change
without changing the hash of every game already played. People count from
one: the host is "seat 1". So the convention is:

- data and recorded texts count from 0 (``seat`` fields, ``seats`` lists);
- everything a person reads counts from 1, and is made at the edge where it
  is shown: a label from an index with :func:`seat_label` /
  :func:`seats_label`, and a recorded text passed through
  :func:`for_people` exactly once (the tools' printed lines, the peer's
  progress lines, the client's display of a session or engine text).

``tests/tools/test_seat_numbers.py`` runs the tools and fails if one prints a
seat counted from 0.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: The number people read for seat index 0.
FIRST_SEAT = 1

# "seat 3", "Seat 3" (not an option such as "--seats 4"), "seats 0, 2", "seats 0 and 2", "seats [0, 1]", "seats (0, 1)"
_SEATS = re.compile(r"(?<![-\w])([Ss]eats?) ([\[(]?)(\d+(?:(?:, | and )\d+)*)([\])]?)")
_NUMBER = re.compile(r"\d+")


def seat_number(seat: int) -> int:
    """The number a person reads for seat index ``seat`` (0 -> 1)."""
    return seat + FIRST_SEAT


def seat_label(seat: int) -> str:
    """``"seat 1"`` for seat index 0."""
    return f"seat {seat_number(seat)}"


def seats_label(seats: Iterable[int]) -> str:
    """``"seat 2"``, ``"seats 1, 3"``, or ``"no seat"`` for indices."""
    numbers = [str(seat_number(s)) for s in seats]
    if not numbers:
        return "no seat"
    return f"seat {numbers[0]}" if len(numbers) == 1 else f"seats {', '.join(numbers)}"


def for_people(text: str) -> str:
    """A text recorded counting seats from 0, renumbered for a person.

    Rewrites every "seat N" / "seats N, M" / "seats [N, M]" to count from
    one. Apply it once, where the text is shown: applying it twice would
    count from two.
    """
    def renumber(match: re.Match[str]) -> str:
        numbers = _NUMBER.sub(lambda n: str(seat_number(int(n.group()))), match.group(3))
        return f"{match.group(1)} {match.group(2)}{numbers}{match.group(4)}"

    return _SEATS.sub(renumber, text)

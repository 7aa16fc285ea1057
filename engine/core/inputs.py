"""What a seat can give a driver: an engine action, a sealed pick or a placement pick.

Three of the five pending kinds (engine/core/pending.py) are answered by a
seat: a :class:`~engine.core.pending.Decision` by one of the game's own
actions, a :class:`~engine.core.pending.SealedChoice` by a secret pick the
driver reveals together with everyone else's, and a hidden
:class:`~engine.core.pending.Placement` (``place``) by the placer's secret
arrangement, one thing at a time. The last two never reach the engine as
they are: the driver turns every seat's sealed pick into one
``SealedChoicesRevealed`` and the placer's picks into one ``PlacementMade``
(a trusted local table directly; a networked session through commitments).

A driver (net/seam.py) offers a seat a list of :data:`SeatInput` values and
takes one of them back; who plays the seat (a person behind the client, a bot,
a test) never needs to know which pending kind it answers, and only the
driver branches on it.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeAlias

from engine.core.actions import Action


@dataclasses.dataclass(frozen=True)
class SealedPick:
    """``seat``'s secret pick ``choice`` for the sealed choice ``purpose`` (one of its options)."""

    seat: int
    purpose: str
    choice: Any


@dataclasses.dataclass(frozen=True)
class PlacementPick:
    """``seat`` puts ``thing`` face down on ``cell`` of the placement ``zone``.

    Offered one thing at a time, in the order of the request's ``things``, so
    a chooser picks among at most as many options as there are free cells.
    """

    seat: int
    zone: str
    thing: str
    cell: str


#: Anything a seat may answer a driver with (see the module docstring).
SeatInput: TypeAlias = Action | SealedPick | PlacementPick

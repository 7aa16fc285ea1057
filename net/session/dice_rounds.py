"""Dice rounds that are not commit-then-reveal: a roll in which nothing is random.

:func:`settled_round` answers a :class:`~engine.core.pending.Chance` whose
faces are known in advance (no dice, or only one-sided dice, see
:func:`net.dice.settled_faces`) without any message: the round is done as
soon as it is made, and the play phase applies its answer at once
(:meth:`net.session.play.Play.successor`). Every peer, and the offline
verifier, reads the same pending input and so applies the same faces; no
seat can stall or bias such a roll because nobody sends anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.actions import SYSTEM
from engine.core.pending import Chance, DiceRolled
from net.dice import settled_faces
from net.envelope import Envelope
from net.errors import UnexpectedMessage

if TYPE_CHECKING:
    from net.session.core import Session


class Settled:
    """A roll whose faces are fixed by the pending input alone: done with no message."""

    def __init__(self, chance: Chance, faces: tuple[int, ...]) -> None:
        self.answer = DiceRolled(SYSTEM, chance.purpose, faces)

    def waiting_for(self) -> tuple[int, ...]:
        return ()

    @property
    def done(self) -> bool:
        return True

    def take(self, s: Session, env: Envelope) -> None:
        raise UnexpectedMessage(f"sent a {env.kind!r} message for a roll in which nothing is random "
                                f"({self.answer.purpose}: its faces are {list(self.answer.faces)} for every seat)",
                                seat=env.seat)

    def make_ours(self, s: Session) -> bool:
        return False

    def finish(self, s: Session) -> None:
        s._apply(self.answer)


def settled_round(chance: Chance) -> Settled | None:
    """The message-free round for ``chance`` when nothing in it is random, else None."""
    faces = settled_faces(chance.dice)
    return None if faces is None else Settled(chance, faces)

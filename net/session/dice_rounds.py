"""Dice rounds that are not commit-then-reveal: settled rolls and one-phase rolls.

:func:`dice_round` picks the round for a :class:`~engine.core.pending.Chance`:

- :class:`Settled` when nothing in the roll is random (no dice, or only
  one-sided dice, see :func:`net.dice.settled_faces`): the round is done as
  soon as it is made, with no message, and the play phase applies its answer
  at once (:meth:`net.session.play.Play.successor`). Every peer, and the
  offline verifier, reads the same pending input and so applies the same
  faces; nobody can stall or bias such a roll because nobody sends anything.
- :class:`OnePhase` when the genesis record rolls with
  :data:`~net.envelope.DICE_VRF`: every seat sends one ``roll`` message, its
  verifiable part (:mod:`net.dice_vrf`), made with the dice key it announced
  in its opening message (:mod:`net.session.opening`).
- None for a record of commit-reveal dice (made before issue 26): the
  caller runs :class:`net.session.rounds.CommitReveal` as those records did.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.actions import SYSTEM
from engine.core.pending import Chance, DiceRolled
from net.dice import settled_faces
from net.dice_vrf import VrfDiceRound
from net.envelope import DICE_VRF, Envelope
from net.errors import MalformedMessage, UnexpectedMessage

if TYPE_CHECKING:
    from net.session.core import Session

#: Name of our dice secret in the session's secret store (journalled before our hello is sent).
DICE_SECRET = "dice-key"


class Settled:
    """A roll whose faces are fixed by the pending input alone: done with no message.

    It is applied the moment its step opens, so a message signed for that step always
    arrives when the step is past; :meth:`net.session.play.Play.take` still hands it to
    :meth:`take` here, which refuses it naming the seat and saying why.
    """

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

    def excuse(self, s: Session, seat: int) -> None:
        """A seat that left changes nothing here: nobody sends anything."""

    def refuse_leave(self, seat: int) -> str | None:
        """Nothing is random here: leaving picks no outcome."""
        return None

    def finish(self, s: Session) -> None:
        s._apply(self.answer)


def settled_round(chance: Chance) -> Settled | None:
    """The message-free round for ``chance`` when nothing in it is random, else None."""
    faces = settled_faces(chance.dice)
    return None if faces is None else Settled(chance, faces)


class OnePhase:
    """A roll in one network phase: every seat sends its ``roll`` part once (net.dice_vrf)."""

    def __init__(self, rnd: VrfDiceRound) -> None:
        self.rnd = rnd

    def waiting_for(self) -> tuple[int, ...]:
        return self.rnd.missing()

    @property
    def done(self) -> bool:
        return self.rnd.complete

    def take(self, s: Session, env: Envelope) -> None:
        if env.kind != "roll":
            raise UnexpectedMessage(f"sent a {env.kind!r} message while the table rolls "
                                    f"{self.rnd.purpose!r} (one 'roll' message per seat)", seat=env.seat)
        if not isinstance(env.body, Mapping):
            raise MalformedMessage("a roll message is a map {'out', 'e', 'z'}", seat=env.seat)
        if env.digest() in s._made:
            self.rnd.receive_ours(env.seat, env.body)  # made by make_ours in this run: no proof to check
        else:
            self.rnd.receive(env.seat, env.body)

    def make_ours(self, s: Session) -> bool:
        me = s.seat
        if me is None or me not in self.rnd.missing() or (s.step, "roll") in s._sent:
            return False
        secret = s._saved_secret(DICE_SECRET)
        if secret is None:
            raise RuntimeError("our dice key is lost (it is journalled before the opening message is sent)")
        s._send("roll", self.rnd.make(me, int(secret)))
        return True

    def refuse_leave(self, seat: int) -> str | None:
        """The leaver's part is computed from the dice secret its leave publishes: the roll stands."""
        return None

    def excuse(self, s: Session, seat: int) -> None:
        """A seat that left (net.session.leave): its part is computed from the dice secret it
        published, so the roll is the one its own message would have made."""
        secret = s.left_dice.get(seat)
        if secret is None:
            raise RuntimeError(f"seat {seat} left without its dice secret, which a one-phase roll needs")
        self.rnd.part_of_departed(seat, secret)

    def finish(self, s: Session) -> None:
        s._apply(self.rnd.answer())


def dice_round(s: Session, chance: Chance) -> Settled | OnePhase | None:
    """The round for ``chance``: settled, one-phase, or None for commit-reveal dice (see the module)."""
    settled = settled_round(chance)
    if settled is not None:
        return settled
    if s.genesis.dice != DICE_VRF:
        return None
    return OnePhase(VrfDiceRound.from_pending(s.gid, s.step, s.seats, chance, s.dice_keys))

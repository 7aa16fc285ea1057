"""Follow-up combats after an escape (KMC 10.11; rulings N190-N191).

When a combat ends, each seat that escaped it, in the order they escaped,
obeys the cell it reached (N147). Then, if it is still there and able to
act and someone it may fight is there too, a follow-up combat may start:
at once when someone there shows the escaper's silhouette (the escaper
picks among them, as in the combat phase, KMC 9.2.3); otherwise every
player there who can act may declare one, the escaper first and then the
others in seat order, until one does. Nothing happens when the cell's own
instruction already started a combat (KMC: "if obeying it led to nothing").
A follow-up combat is offered on a cell at most once a turn (the etiquette
of one declared combat per cell per turn, ruling N190), which also keeps
a chain of escapes from going on without end.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.locke.actions import Fight
from engine.locke.components import Character
from engine.locke.state import NO_SEAT, OFF_BOARD, Combat, LockeState, advance, lead, log, party_of
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, answers

RULE = "locke.10.11"
CAUSE = "follow-up"


def after_escape(g: Rules, s: LockeState, seat: int) -> tuple[LockeStep, ...]:
    """The steps for one escaper once the combat is over: obey the cell, then the follow-up."""
    return (g.instruct(seat), FollowUp(seat, len(s.events)))


def _able(s: LockeState, seat: int) -> bool:
    p = s.seats[seat]
    return p.alive and p.status == "normal" and p.place != OFF_BOARD


def _foes(s: LockeState, seat: int) -> tuple[int, ...]:
    """Whom ``seat`` may fight on its cell: able players outside its party."""
    if not _able(s, seat):
        return ()
    mine = party_of(s, lead(s, seat))
    here = s.seats[seat].place
    return tuple(i for i, q in enumerate(s.seats) if i not in mine and _able(s, i) and q.place == here)


@dataclasses.dataclass(frozen=True)
class FollowUp(Automatic):
    """Escaper ``seat`` has obeyed its new cell (the log's entries from ``since`` on say what that
    did): a follow-up combat starts by itself, or the seats there are asked, or nothing happens."""

    KIND: ClassVar[str] = "cb_follow"
    seat: int
    since: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        seat = self.seat
        if s.combat is not None or not _able(s, seat):
            return advance(s)
        if any(e and e[0] == "combat" for e in s.events[self.since:]):  # the cell's card already led to a combat
            return advance(s)
        cell = s.seats[seat].place
        flag = "follow:" + cell
        foes = _foes(s, seat)
        if not foes or flag in s.turn_flags:
            return advance(s)
        s = s._replace(turn_flags=s.turn_flags + (flag,))
        face = s.seats[seat].silhouette
        if any(s.seats[i].silhouette == face for i in foes):  # KMC 10.11: a combat starts by itself
            return advance(s, FollowUpFight(seat, forced=True, cell=cell))
        others = tuple(i for i, q in enumerate(s.seats) if i != seat and q.place == cell and _foes(s, i))
        return advance(s, *(FollowUpFight(i, forced=False, cell=cell) for i in (seat,) + others))


@dataclasses.dataclass(frozen=True)
class FollowUpFight(SeatDecision):
    """Seat ``seat`` on ``cell`` may declare a follow-up combat; ``forced``: the escaper's
    silhouette is there, so the escaper must fight one who shows it."""

    KIND: ClassVar[str] = "follow_fight"
    forced: bool
    cell: str

    def options(self, s: LockeState) -> tuple[int, ...]:
        """Whom the asked seat may declare against (only the escaper's silhouette when forced)."""
        foes = _foes(s, self.seat) if s.seats[self.seat].place == self.cell else ()
        if self.forced:
            face = s.seats[self.seat].silhouette
            return tuple(i for i in foes if s.seats[i].silhouette == face)
        return foes

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        foes = self.options(s)
        out: list[Action] = [] if self.forced and foes else [Fight(self.seat, NO_SEAT)]
        return out + [Fight(self.seat, t) for t in foes]

    @answers(Fight)
    def declare(self, g: Rules, s: LockeState, action: Fight) -> LockeState:
        foes = self.options(s)
        if action.target == NO_SEAT and not (self.forced and foes):
            return advance(s)
        if action.target not in foes:
            raise IllegalAction(f"declare a follow-up combat against one of {list(foes)}"
                                + (" (the escaper's silhouette is here: the combat is compulsory)" if self.forced
                                   else ", or none (-1)"), rule=RULE)
        rest = s.queue[1:]
        while rest and isinstance(rest[0], FollowUpFight):  # one declaration starts it; the others are not asked
            rest = rest[1:]
        s = log(s._replace(queue=(self,) + rest), "cb-follow-up", self.seat, action.target, self.cell)
        sides = (party_of(s, lead(s, self.seat)), party_of(s, lead(s, action.target)))
        return g.begin_combat(advance(s), Combat(CAUSE, self.cell, sides))


#: the follow-up's step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (FollowUp, FollowUpFight)


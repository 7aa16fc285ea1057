"""Party talks inside a combat (KMC 10.3.1 (3), 10.3.4; ruling N246, which replaces N193).

KMC lets the fighters form parties at each round's pre-processing, as long as
everyone still has someone to fight afterwards, and lets a player leave its
party at each round's post-processing. The engine carries both out with the
board's own party rules (KMC 9.2.1, N46; engine/locke/turn.py), so a party
formed in a combat is a party on the board when the combat ends:

- pre-processing, after the hands are dealt: first each seat in a party may
  leave it (:class:`LeaveTalks`, as below: KMC 10.3.1 (3) speaks of forming and
  breaking), then (:class:`PartyTalks`) each seat able to lead a party (alone or a
  leader, in a normal state, awake) that has someone to invite is asked, in
  fighter order, whether it invites one seat fighter of another party (alone,
  normal, another silhouette than all of the party's; one invitation a
  round); the invited seat accepts or declines; accepted, it fights on the
  inviter's side from now on;
- post-processing, before the "go on" questions (:class:`LeaveTalks`, KMC 10.3.4):
  each seat in a party of two or more living members is asked whether it
  leaves: a partner leaves alone, a leader dissolves the party (as on the
  board); each seat so freed fights as a party of its own.

A jammer already on a seat that becomes its owner's partner stays on it until
the combat ends, as every jammer declared before round 1 does (N160).

Knocked-out fighters are asked nothing (N162); a controlled seat's answers
are its controller's (N210, engine/locke/control.py). Everything here is public.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.locke.actions import Join, Leave, Nop, Propose
from engine.locke.combat.common import alert, fight_of, parties_left, player, put, seat_index, with_fighter
from engine.locke.combat.model import Fight
from engine.locke.components import Character
from engine.locke.state import NO_SEAT, LockeState, advance, lead, log, party_of, party_candidates, with_seat
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, answers

FORM = "locke.10.3.1"
LEAVE = "locke.10.3.4"


def _new_party(fight: Fight) -> int:
    return max(f.party for f in fight.fighters) + 1


def invitees(g: Rules, s: LockeState, index: int) -> tuple[int, ...]:
    """The seats fighter ``index`` may invite now: the board's candidates (KMC 9.2.1) who fight
    here, awake, on another side, and whose joining still leaves two sides (KMC 10.3.1 (3))."""
    fight = fight_of(s)
    f = fight.fighters[index]
    if not player(f) or not alert(fight, index) or s.seats[f.seat].status != "normal":
        return ()
    board = party_candidates(s, f.seat)
    out = []
    for j, o in enumerate(fight.fighters):  # another board party (KMC 9.2.1), not only another side
        if o.seat in board and player(o) and alert(fight, j) and lead(s, o.seat) != lead(s, f.seat):
            if parties_left(with_fighter(fight, j, o._replace(party=f.party))) >= 2:
                out.append(o.seat)
    return tuple(out)


def leavers(s: LockeState, fight: Fight, index: int) -> bool:
    """Fighter ``index`` may leave its party: awake, in a party with another living member."""
    f = fight.fighters[index]
    if not player(f) or not alert(fight, index):
        return False
    p = s.seats[f.seat]
    return p.status == "partner" or len(party_of(s, f.seat)) > 1


def _ask_next(s: LockeState, start: int, question: Callable[[int, int], LockeStep],
              again: Callable[[int], LockeStep], asked: Callable[[int], bool]) -> LockeState:
    """Ask ``question(seat, fighter)`` of the next fighter from ``start`` on for whom ``asked``
    holds, then come back (``again``) for the one after it (each answer may change who is
    asked next)."""
    fight = fight_of(s)
    for i in range(start, len(fight.fighters)):
        if asked(i):
            return advance(s, question(fight.fighters[i].seat, i), again(i + 1))
    return advance(s)


@dataclasses.dataclass(frozen=True)
class PartyTalks(Automatic):
    """KMC 10.3.1 (3): the next fighter from ``start`` on that has someone to invite is asked."""

    KIND: ClassVar[str] = "cb_talks"
    start: int = 0

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return _ask_next(s, self.start, PartyInvite, PartyTalks, lambda i: bool(invitees(g, s, i)))


@dataclasses.dataclass(frozen=True)
class PartyInvite(SeatDecision):
    """Fighter ``fighter`` may invite one seat into its party (one invitation a round)."""

    KIND: ClassVar[str] = "cb_party"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Nop(self.seat)] + [Propose(self.seat, (t,)) for t in invitees(g, s, self.fighter)]

    @answers(Propose)
    def invite(self, g: Rules, s: LockeState, action: Propose) -> LockeState:
        options = invitees(g, s, self.fighter)
        if len(action.partners) != 1 or action.partners[0] not in options:
            raise IllegalAction(f"invite one of seats {list(options)} (one invitation a round; alone, in a normal "
                                "state, of another silhouette, and two sides must be left to fight)", rule=FORM)
        (t,) = action.partners
        s = log(s, "cb-party-proposed", self.seat, t)
        return advance(s, PartyInvitation(t, self.seat))

    @answers(Nop)
    def no_invitation(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


@dataclasses.dataclass(frozen=True)
class PartyInvitation(SeatDecision):
    """The invited seat accepts or declines seat ``inviter``'s invitation."""

    KIND: ClassVar[str] = "cb_party_join"
    inviter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Join(self.seat, True), Join(self.seat, False)]

    @answers(Join)
    def answer(self, g: Rules, s: LockeState, action: Join) -> LockeState:
        """Accepted, the seat is the inviter's partner on the board and fights on its side (the
        inviter leads: it was alone or a leader, N46)."""
        if not action.accept:
            return advance(log(s, "cb-party-declined", self.seat, self.inviter))
        fight = fight_of(s)
        me, host = seat_index(fight, self.seat), seat_index(fight, self.inviter)
        fight = with_fighter(fight, me, fight.fighters[me]._replace(party=fight.fighters[host].party))
        p = s.seats[self.seat]._replace(leader=self.inviter, status="partner")
        s = put(s._replace(seats=with_seat(s, self.seat, p)), fight)
        return advance(log(s, "cb-party-joined", self.seat, self.inviter))


@dataclasses.dataclass(frozen=True)
class LeaveTalks(Automatic):
    """KMC 10.3.1 (3), 10.3.4: the next fighter from ``start`` on in a party is asked whether it
    leaves."""

    KIND: ClassVar[str] = "cb_leaves"
    start: int = 0

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return _ask_next(s, self.start, PartyLeave, LeaveTalks, lambda i: leavers(s, fight_of(s), i))


@dataclasses.dataclass(frozen=True)
class PartyLeave(SeatDecision):
    """Fighter ``fighter`` may leave its party."""

    KIND: ClassVar[str] = "cb_leave"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Nop(self.seat), Leave(self.seat)]

    @answers(Leave)
    def leave(self, g: Rules, s: LockeState, action: Leave) -> LockeState:
        """A partner leaves alone; a leader dissolves its party (KMC 9.2.1, as turn.py's Leave):
        each seat freed fights as a party of its own from now on."""
        p = s.seats[self.seat]
        if p.status == "partner":
            freed: tuple[int, ...] = (self.seat,)
            s = log(s, "cb-party-left", self.seat)
        else:
            freed = party_of(s, self.seat)[1:]
            s = log(s, "cb-party-dissolved", self.seat)
        seats = list(s.seats)
        fight = fight_of(s)
        for seat in freed:
            seats[seat] = seats[seat]._replace(leader=NO_SEAT, status="normal")
            if any(f.seat == seat and player(f) for f in fight.fighters):
                i = seat_index(fight, seat)
                fight = with_fighter(fight, i, fight.fighters[i]._replace(party=_new_party(fight)))
        return advance(put(s._replace(seats=tuple(seats)), fight))

    @answers(Nop)
    def stay(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


#: the talks' step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (PartyTalks, PartyInvite, PartyInvitation, LeaveTalks, PartyLeave)


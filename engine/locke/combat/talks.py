"""Party talks inside a combat (KMC 10.3.1 (3), 10.3.4; ruling N246, which replaces N193).

KMC lets the fighters form parties at each round's pre-processing, as long as
everyone still has someone to fight afterwards, and lets a player leave its
party at each round's post-processing. The engine carries both out with the
board's own party rules (KMC 9.2.1, N46; engine/locke/turn.py), so a party
formed in a combat is a party on the board when the combat ends:

- pre-processing, after the hands are dealt: first each seat in a party may
  leave it (``cb_leaves``, as below: KMC 10.3.1 (3) speaks of forming and
  breaking), then (``cb_talks``) each seat able to lead a party (alone or a
  leader, in a normal state, awake) that has someone to invite is asked, in
  fighter order, whether it invites one seat fighter of another party (alone,
  normal, another silhouette than all of the party's; one invitation a
  round); the invited seat accepts or declines; accepted, it fights on the
  inviter's side from now on;
- post-processing, before the "go on" questions (``cb_leaves``, KMC 10.3.4):
  each seat in a party of two or more living members is asked whether it
  leaves: a partner leaves alone, a leader dissolves the party (as on the
  board); each seat so freed fights as a party of its own.

A jammer already on a seat that becomes its owner's partner stays on it until
the combat ends, as every jammer declared before round 1 does (N160).

Knocked-out fighters are asked nothing (N162); a controlled seat's answers
are its controller's (N210, engine/locke/control.py). Everything here is public.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.locke.actions import Join, Leave, Nop, Propose
from engine.locke.combat.common import alert, fight_of, player, put, seat_index, with_fighter
from engine.locke.combat.model import Fight
from engine.locke.components import Character
from engine.locke.state import NO_SEAT, LockeState, Step, advance, lead, log, party_of, seat_decision, with_seat

FORM = "locke.10.3.1"
LEAVE = "locke.10.3.4"


def _parties(fight: Fight) -> int:
    from engine.locke.combat.flow import parties_left

    return parties_left(fight)


def _new_party(fight: Fight) -> int:
    return max(f.party for f in fight.fighters) + 1


def invitees(g: Any, s: LockeState, index: int) -> tuple[int, ...]:
    """The seats fighter ``index`` may invite now: the board's candidates (KMC 9.2.1) who fight
    here, awake, on another side, and whose joining still leaves two sides (KMC 10.3.1 (3))."""
    from engine.locke.turn import party_candidates

    fight = fight_of(s)
    f = fight.fighters[index]
    if not player(f) or not alert(fight, index) or s.seats[f.seat].status != "normal":
        return ()
    board = party_candidates(g, s, f.seat)
    out = []
    for j, o in enumerate(fight.fighters):  # another board party (KMC 9.2.1), not only another side
        if o.seat in board and player(o) and alert(fight, j) and lead(s, o.seat) != lead(s, f.seat):
            if _parties(with_fighter(fight, j, o._replace(party=f.party))) >= 2:
                out.append(o.seat)
    return tuple(out)


def leavers(s: LockeState, fight: Fight, index: int) -> bool:
    """Fighter ``index`` may leave its party: awake, in a party with another living member."""
    f = fight.fighters[index]
    if not player(f) or not alert(fight, index):
        return False
    p = s.seats[f.seat]
    return p.status == "partner" or len(party_of(s, f.seat)) > 1


def _ask_next(s: LockeState, step: Step, question: str, asked: Callable[[int], bool]) -> LockeState:
    """Ask ``question`` of the next fighter from ``step.n`` on for whom ``asked`` holds, then
    come back for the one after it (each answer may change who is asked next)."""
    fight = fight_of(s)
    for i in range(step.n, len(fight.fighters)):
        if asked(i):
            return advance(s, Step(question, fight.fighters[i].seat, n=i), step._replace(n=i + 1))
    return advance(s)


def _auto_talks(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.3.1 (3): the next fighter that has someone to invite is asked."""
    return _ask_next(s, step, "cb_party", lambda i: bool(invitees(g, s, i)))


def _legal_party(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Nop(step.seat)] + [Propose(step.seat, (t,)) for t in invitees(g, s, step.n)]


def _on_party(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Propose)
    options = invitees(g, s, step.n)
    if len(action.partners) != 1 or action.partners[0] not in options:
        raise IllegalAction(f"invite one of seats {list(options)} (one invitation a round; alone, in a normal "
                            "state, of another silhouette, and two sides must be left to fight)", rule=FORM)
    (t,) = action.partners
    s = log(s, "cb-party-proposed", step.seat, t)
    return advance(s, Step("cb_party_join", t, n=step.seat))


def _on_party_nop(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    return advance(s)


def _legal_join(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Join(step.seat, True), Join(step.seat, False)]


def _on_join(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """The invited seat's answer; accepted, it is the inviter's partner on the board and fights on
    its side (the inviter leads: it was alone or a leader, N46)."""
    assert isinstance(action, Join)
    if not action.accept:
        return advance(log(s, "cb-party-declined", step.seat, step.n))
    fight = fight_of(s)
    me, host = seat_index(fight, step.seat), seat_index(fight, step.n)
    fight = with_fighter(fight, me, fight.fighters[me]._replace(party=fight.fighters[host].party))
    p = s.seats[step.seat]._replace(leader=step.n, status="partner")
    s = put(s._replace(seats=with_seat(s, step.seat, p)), fight)
    return advance(log(s, "cb-party-joined", step.seat, step.n))


def _auto_leaves(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.3.1 (3), 10.3.4: the next fighter in a party is asked whether it leaves."""
    return _ask_next(s, step, "cb_leave", lambda i: leavers(s, fight_of(s), i))


def _legal_leave(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    return [Nop(step.seat), Leave(step.seat)]


def _on_leave(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A partner leaves alone; a leader dissolves its party (KMC 9.2.1, as turn.py's Leave):
    each seat freed fights as a party of its own from now on."""
    assert isinstance(action, Leave)
    p = s.seats[step.seat]
    if p.status == "partner":
        freed: tuple[int, ...] = (step.seat,)
        s = log(s, "cb-party-left", step.seat)
    else:
        freed = party_of(s, step.seat)[1:]
        s = log(s, "cb-party-dissolved", step.seat)
    seats = list(s.seats)
    fight = fight_of(s)
    for seat in freed:
        seats[seat] = seats[seat]._replace(leader=NO_SEAT, status="normal")
        if any(f.seat == seat and player(f) for f in fight.fighters):
            i = seat_index(fight, seat)
            fight = with_fighter(fight, i, fight.fighters[i]._replace(party=_new_party(fight)))
    return advance(put(s._replace(seats=tuple(seats)), fight))


def _on_leave_nop(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    return advance(s)


MAKERS = {"cb_party": _legal_party, "cb_party_join": _legal_join, "cb_leave": _legal_leave}
PENDING = {"cb_party": seat_decision, "cb_party_join": seat_decision, "cb_leave": seat_decision}
HANDLERS = {("cb_party", Propose): _on_party, ("cb_party", Nop): _on_party_nop, ("cb_party_join", Join): _on_join,
            ("cb_leave", Leave): _on_leave, ("cb_leave", Nop): _on_leave_nop}
AUTO = {"cb_talks": _auto_talks, "cb_leaves": _auto_leaves}

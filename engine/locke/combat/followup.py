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
of one declared combat per cell per turn, LOCKE-PLAN 4.26), which also keeps
a chain of escapes from going on without end.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.locke.state import seat_decision
from engine.locke.actions import Fight
from engine.locke.components import Character
from engine.locke.state import NO_SEAT, OFF_BOARD, Combat, LockeState, Step, advance, lead, log, party_of
from engine.locke.steps import LockeStep

RULE = "locke.10.11"
CAUSE = "follow-up"


def after_escape(s: LockeState, seat: int) -> tuple[Step | LockeStep, ...]:
    """The steps for one escaper once the combat is over: obey the cell, then the follow-up."""
    from engine.locke.turn import Instruct

    return (Instruct(seat), Step("cb_follow", seat, n=len(s.events)))


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


def _auto_follow(g: Any, s: LockeState, step: Step) -> LockeState:
    seat = step.seat
    if s.combat is not None or not _able(s, seat):
        return advance(s)
    if any(e and e[0] == "combat" for e in s.events[step.n:]):  # the cell's card already led to a combat
        return advance(s)
    cell = s.seats[seat].place
    flag = "follow:" + cell
    foes = _foes(s, seat)
    if not foes or flag in s.turn_flags:
        return advance(s)
    s = s._replace(turn_flags=s.turn_flags + (flag,))
    face = s.seats[seat].silhouette
    if any(s.seats[i].silhouette == face for i in foes):  # KMC 10.11: a combat starts by itself
        return advance(s, Step("follow_fight", seat, n=1, arg=cell))
    others = tuple(i for i, q in enumerate(s.seats) if i != seat and q.place == cell and _foes(s, i))
    return advance(s, *(Step("follow_fight", i, n=0, arg=cell) for i in (seat,) + others))


def options(s: LockeState, step: Step) -> tuple[int, ...]:
    """Whom the asked seat may declare against (only the escaper's silhouette when forced)."""
    foes = _foes(s, step.seat) if s.seats[step.seat].place == step.arg else ()
    if step.n:
        face = s.seats[step.seat].silhouette
        return tuple(i for i in foes if s.seats[i].silhouette == face)
    return foes


def _on_follow_fight(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    from engine.locke.combat.flow import begin

    assert isinstance(action, Fight)
    foes = options(s, step)
    if action.target == NO_SEAT and not (step.n and foes):
        return advance(s)
    if action.target not in foes:
        raise IllegalAction(f"declare a follow-up combat against one of {list(foes)}"
                            + (" (the escaper's silhouette is here: the combat is compulsory)" if step.n else
                               ", or none (-1)"), rule=RULE)
    rest = s.queue[1:]
    while rest and rest[0].kind == "follow_fight":  # one declaration starts it; the others are not asked
        rest = rest[1:]
    s = log(s._replace(queue=(step,) + rest), "cb-follow-up", step.seat, action.target, step.arg)
    sides = (party_of(s, lead(s, step.seat)), party_of(s, lead(s, action.target)))
    return begin(advance(s), Combat(CAUSE, step.arg, sides))


def _legal(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    foes = options(s, step)
    out: list[Action] = [] if step.n and foes else [Fight(step.seat, NO_SEAT)]
    return out + [Fight(step.seat, t) for t in foes]


MAKERS = {"follow_fight": _legal}
PENDING = {"follow_fight": seat_decision}
HANDLERS = {("follow_fight", Fight): _on_follow_fight}
AUTO = {"cb_follow": _auto_follow}

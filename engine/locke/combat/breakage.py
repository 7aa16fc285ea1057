"""ESP jammers and fields broken by a stronger attack (KMC 10.7.3, 10.7.4 note, 2.3.2; N185).

An attack that gets past the escape phase (nobody escaped it) breaks every
jammer and field its target is using whose level is below the attack's,
whether the defence then works or not (fig. 10.2: the jammer/field step
stands between the escape and the defence phases). The levels of players'
items are hidden, so the owner says whether each one breaks: a claim that
its level is below the attack's (broken) or reaches it (whole). An
obstacle's jammer has a public level and breaks without a question.

One function for every source of such an item: :func:`break_steps` reads
:data:`SOURCES`, a table of (item, source) -> who uses it and how to break
it, so the kept planet cards' jammers and fields (another module) can add
their rows without touching the attack path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.core.pending import Decision, Pending
from engine.locke import claims as ck
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Broken
from engine.locke.combat.common import active, fight_of, item_level, put, with_fighter
from engine.locke.combat.model import Fight
from engine.locke.components import Character
from engine.locke.state import LockeState, Step, advance, claimed, log

RULE = "locke.10.7.3"


class Source(NamedTuple):
    """How one kind of breakable item is found on a fighter and broken.

    ``in_use(fight, index)`` says whether the fighter uses it now; ``known(fight, index)`` is
    the least level it is publicly known to have (0: nothing known); ``about(s, seat)`` the
    hidden handles the claim is about; ``level(components, contents)`` reads the item's true
    level from their opened contents (the claim's judge); ``drop(fight, index)`` breaks it.
    """

    in_use: Callable[[Fight, int], bool]
    known: Callable[[Fight, int], int]
    about: Callable[[LockeState, int], tuple[int, ...]]
    level: Callable[[Any, tuple[str, ...]], int]
    drop: Callable[[Fight, int], Fight]


def _jammer_in_use(fight: Fight, index: int) -> bool:
    seat = fight.fighters[index].seat
    return not fight.fighters[index].ball_out and any(f.jam_owner == seat for f in fight.fighters)


def _jammer_known(fight: Fight, index: int) -> int:
    seat = fight.fighters[index].seat
    return max((f.jam_known for f in fight.fighters if f.jam_owner == seat), default=0)


def _drop_jammer(fight: Fight, index: int) -> Fight:
    seat = fight.fighters[index].seat
    for j, f in enumerate(fight.fighters):
        if f.jam_owner == seat:
            fight = with_fighter(fight, j, f._replace(jam_owner=-1, jam_known=0))
    return fight


def _character(s: LockeState, seat: int) -> tuple[int, ...]:
    return (s.seats[seat].character,)


def _card_level(item: str) -> Callable[[Any, tuple[str, ...]], int]:
    return lambda components, contents: item_level(components.character(contents[0]), item)


#: (item, source) -> its Source. The character card's own jammer and field (KMC 2.3.2).
SOURCES: dict[tuple[str, str], Source] = {
    ("esp-jammer", "character"): Source(_jammer_in_use, _jammer_known, _character, _card_level("esp-jammer"),
                                        _drop_jammer),
    ("esp-field", "character"): Source(lambda fight, i: fight.fighters[i].field and not fight.fighters[i].ball_out, lambda fight, i: 0, _character,
                                       _card_level("esp-field"),
                                       lambda fight, i: with_fighter(fight, i, fight.fighters[i]._replace(field=False))),
}


def break_steps(s: LockeState, index: int) -> tuple[LockeState, tuple[Step, ...]]:
    """The attack in flight got past the escape phase of fighter ``index``: an obstacle's jammer
    below the attack's level breaks now; each of a seat's items in use that may be below it
    asks its owner (``cb_break``)."""
    fight = fight_of(s)
    strike = fight.strike
    if strike is None or not active(fight, index):
        return s, ()
    f = fight.fighters[index]
    if f.ob is not None:
        if 0 < f.ob.jammer < strike.level:
            s = put(s, with_fighter(fight, index, f._replace(ob=f.ob._replace(jammer=0))))
            s = log(s, "cb-broken", -1, f.ob.id, "esp-jammer", "obstacle", strike.level)
        return s, ()
    if f.seat < 0 or f.thought:
        return s, ()
    steps = tuple(Step("cb_break", f.seat, n=index, arg=f"{item}|{source}")
                  for (item, source), src in SOURCES.items()
                  if src.in_use(fight, index) and src.known(fight, index) < strike.level)
    return s, steps


def _on_break(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """The owner's answer: broken (a claim that the level is below the attack's) or whole."""
    assert isinstance(action, Broken)
    item, source = step.arg.split("|")
    strike = fight_of(s).strike
    assert strike is not None
    src = SOURCES[(item, source)]
    claim = ck.make(step.seat, s.step_no, cc.BROKEN, src.about(s, step.seat),
                    [item, source, strike.level, action.broken], RULE)
    s = s._replace(**claimed(s, claim))
    if not action.broken:
        return advance(log(s, "cb-item-holds", step.seat, item, source, strike.level))
    s = put(s, src.drop(fight_of(s), step.n))
    return advance(log(s, "cb-broken", step.seat, "", item, source, strike.level))


def holds(components: Any, value: Any, contents: tuple[str, ...]) -> bool:
    """The judge of a :data:`engine.locke.combat.claims.BROKEN` claim."""
    item, source, level, broken = value
    return (SOURCES[(str(item), str(source))].level(components, contents) < int(level)) == bool(broken)


def _legal_break(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    item, source = step.arg.split("|")
    strike = fight_of(s).strike
    if me is None or strike is None or source != "character":
        return [Broken(step.seat, True), Broken(step.seat, False)]
    return [Broken(step.seat, item_level(me, item) < strike.level)]


def _decision(g: Any, s: LockeState, step: Step) -> Pending:
    return Decision(step.seat, "locke." + step.kind)


MAKERS = {"cb_break": _legal_break}
PENDING = {"cb_break": _decision}
HANDLERS = {("cb_break", Broken): _on_break}

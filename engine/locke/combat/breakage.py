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
it: the character card's jammer and field, and the kept planet cards'
(face down until they break, seed 000 3.1.2; a broken card is shown, what
its owner said about its level judged on the spot, kept.py's
:class:`~engine.locke.combat.kept.BrokenCardShown`, and spent). Every claim
on such a level is judged by engine/locke/combat/claims.py's one level judge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar, NamedTuple

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.locke import claims as ck
from engine.locke.combat import claims as cc
from engine.locke.combat import kept
from engine.locke.combat.actions import Broken
from engine.locke.combat.common import active, as_now, fight_of, number, put, wear, with_fighter
from engine.locke.combat.model import Fight, Fighter
from engine.locke.components import Character
from engine.locke.state import LockeState, advance, claimed, log
from engine.locke.steps import LockeStep, Rules, SeatDecision, answers

RULE = "locke.10.7.3"


class Source(NamedTuple):
    """How one kind of breakable item is found on a fighter and broken.

    ``in_use(fight, index)`` says whether the fighter uses it now (not while an absorb ball
    keeps it knocked out, seed 000 3.1.3); ``known(fight, index)`` is what the public record
    says of its level: (the highest level it is known to reach, the lowest level it is known
    to be below), 0 for nothing known; ``learn(fight, index, level, reaches)`` records an answer
    or claim that it reaches ``level`` (or is below it); ``card(fight, index)`` the kept planet
    card it is (-1: the character card's item), which the claim is about; ``drop(fight, index)``
    breaks it.
    """

    in_use: Callable[[Fight, int], bool]
    known: Callable[[Fight, int], tuple[int, int]]
    learn: Callable[[Fight, int, int, bool], Fight]
    card: Callable[[Fight, int], int]
    drop: Callable[[Fight, int], Fight]


def _jams(fight: Fight, index: int, planet: bool) -> list[Fighter]:
    """The victims of fighter ``index``'s jammer of this source (one at most)."""
    seat = fight.fighters[index].seat
    return [f for f in fight.fighters if f.jam_owner == seat and (f.jam_card >= 0) == planet]


def _jammer(planet: bool) -> Source:
    def in_use(fight: Fight, index: int) -> bool:
        return not fight.fighters[index].ball_out and bool(_jams(fight, index, planet))

    def known(fight: Fight, index: int) -> tuple[int, int]:
        victims = _jams(fight, index, planet)
        return max((f.jam_known for f in victims), default=0), min((f.jam_through for f in victims), default=0)

    def learn(fight: Fight, index: int, level: int, reaches: bool) -> Fight:
        seat = fight.fighters[index].seat
        for j, f in enumerate(fight.fighters):
            if f.jam_owner == seat and (f.jam_card >= 0) == planet:
                f = (f._replace(jam_known=max(f.jam_known, level)) if reaches
                     else f._replace(jam_through=min(f.jam_through or level, level)))
                fight = with_fighter(fight, j, f)
        return fight

    def card(fight: Fight, index: int) -> int:
        return next((f.jam_card for f in _jams(fight, index, planet)), -1)

    def drop(fight: Fight, index: int) -> Fight:
        seat = fight.fighters[index].seat
        for j, f in enumerate(fight.fighters):
            if f.jam_owner == seat:
                fight = with_fighter(fight, j, f._replace(jam_owner=-1, jam_known=0, jam_through=0, jam_card=-1))
        return fight

    return Source(in_use, known, learn, card, drop)


def _field(planet: bool) -> Source:
    def in_use(fight: Fight, index: int) -> bool:
        f = fight.fighters[index]
        return f.field and not f.ball_out and (f.field_card >= 0) == planet

    def known(fight: Fight, index: int) -> tuple[int, int]:
        return fight.fighters[index].field_known, 0

    def learn(fight: Fight, index: int, level: int, reaches: bool) -> Fight:
        f = fight.fighters[index]
        return with_fighter(fight, index, f._replace(field_known=max(f.field_known, level))) if reaches else fight

    def drop(fight: Fight, index: int) -> Fight:
        return with_fighter(fight, index, fight.fighters[index]._replace(field=False, field_card=-1, field_known=0))

    return Source(in_use, known, learn, lambda fight, i: fight.fighters[i].field_card, drop)


#: (item, source) -> its Source: the character card's own jammer and field (KMC 2.3.2) and the
#: kept planet cards' (seed 000 3.1.2).
SOURCES: dict[tuple[str, str], Source] = {
    ("esp-jammer", "character"): _jammer(False),
    ("esp-field", "character"): _field(False),
    ("esp-jammer", "planet"): _jammer(True),
    ("esp-field", "planet"): _field(True),
}


def learn(fight: Fight, index: int, item: str, card: int, level: int, reaches: bool) -> Fight:
    """Record that fighter ``index``'s ``item`` (its kept planet ``card``, -1: the character's)
    reaches ``level``, or is below it: an answer or a claim its owner made (a jammer's stop or
    pass, a card paid through the field, "holds"), so no later question asks what is known."""
    return SOURCES[(item, "planet" if card >= 0 else "character")].learn(fight, index, level, reaches)


def break_steps(s: LockeState, index: int) -> tuple[LockeState, tuple[LockeStep, ...]]:
    """The attack in flight got past the escape phase of fighter ``index``: an obstacle's jammer
    below the attack's level breaks now; so does a seat's item known to be below it (its owner
    let a card of that level or less through its jammer, KMC 10.10); each other item in use
    that may be below it asks its owner (:class:`BreakQuestion`)."""
    fight = fight_of(s)
    strike = fight.strike
    if strike is None or not active(fight, index):
        return s, ()
    f = fight.fighters[index]
    if f.ob is not None:
        if 0 < f.ob.jammer < strike.level:
            s = put(s, with_fighter(fight, index, f._replace(ob=f.ob._replace(jammer=0))))
            s = log(s, "cb-broken", -1, f.ob.id, "esp-jammer", "obstacle", strike.level)
        return field_breaks(s, index, strike.level), ()  # a random character's field (N245)
    if f.seat < 0 or f.thought:
        return s, ()
    steps: tuple[LockeStep, ...] = ()
    for (item, source), src in SOURCES.items():
        if not src.in_use(fight_of(s), index):
            continue
        reaches, below = src.known(fight_of(s), index)
        if reaches >= strike.level:
            continue  # known to hold
        if not below or below > strike.level:
            steps += (BreakQuestion(f.seat, index, item, source),)
            continue
        card = src.card(fight_of(s), index)  # known to be below: it breaks, no question
        s = log(put(s, src.drop(fight_of(s), index)), "cb-broken", f.seat, "", item, source, strike.level)
        s = wear(s, f.seat, item, 0) if source == "character" else s  # KMC 2.3.2: gone for the next combats
        steps += kept.broken_steps(f.seat, card, item) if card >= 0 else ()
    return s, steps


@dataclasses.dataclass(frozen=True)
class BreakQuestion(SeatDecision):
    """Fighter ``fighter``'s ``item`` ("esp-jammer" or "esp-field") of ``source`` ("character" or
    "planet", a key of :data:`SOURCES`) may be below the attack's level: its owner says."""

    KIND: ClassVar[str] = "cb_break"
    fighter: int
    item: str
    source: str

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        strike = fight_of(s).strike
        card = SOURCES[(self.item, self.source)].card(fight_of(s), self.fighter)
        levels = kept.levels(g, s, self.seat, card, knowledge, as_now(s, self.seat, me), self.item)
        if strike is None:
            return [Broken(self.seat, True), Broken(self.seat, False)]
        return [Broken(self.seat, broken) for broken in (True, False)
                if levels is None or any((level < strike.level) == broken for level in levels)]

    @answers(Broken)
    def answer(self, g: Rules, s: LockeState, action: Broken) -> LockeState:
        """Broken (a claim that the level is below the attack's) or whole."""
        strike = fight_of(s).strike
        assert strike is not None
        src = SOURCES[(self.item, self.source)]
        card = src.card(fight_of(s), self.fighter)
        about = (card,) if card >= 0 else (s.seats[self.seat].character,)
        claim = ck.make(self.seat, s.step_no, cc.BROKEN, about, [self.item, self.source, strike.level, action.broken],
                        RULE)
        s = s._replace(**claimed(s, claim))
        if not action.broken:
            s = put(s, src.learn(fight_of(s), self.fighter, strike.level, True))
            return advance(log(s, "cb-item-holds", self.seat, self.item, self.source, strike.level))
        s = put(s, src.drop(fight_of(s), self.fighter))
        s = log(s, "cb-broken", self.seat, "", self.item, self.source, strike.level)
        s = wear(s, self.seat, self.item, 0) if self.source == "character" else s  # KMC 2.3.2
        return advance(s, *(kept.broken_steps(self.seat, card, self.item) if card >= 0 else ()))



def field_breaks(s: LockeState, index: int, level: int) -> LockeState:
    """An attack above the field's level got past the escape phase: the field is gone (KMC 2.3.2)."""
    fight = fight_of(s)
    f = fight.fighters[index]
    if f.ob is None or not f.field or not active(fight, index) or number(f.ob, "esp-field") >= level:
        return s
    s = put(s, with_fighter(fight, index, f._replace(field=False)))
    return log(s, "cb-broken", -1, f.ob.id, "esp-field", "obstacle", level)

#: the breakage's step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (BreakQuestion,)

"""The energy absorb ball (seed 000 3.1.3).

Up until the combat ends or a stronger attack breaks it, the ball takes every attack up to its
level (a light sword only the level-5 ball); the attacker then makes an ESP level check, and a
failure knocks it out for 1d6 rounds, this one included. Its own module because both the
defence (engine/locke/combat/escapes.py puts it up) and a hit (engine/locke/combat/suits.py
meets it first) need it.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke import fate
from engine.locke.combat import kept
from engine.locke.combat.common import fight_of, put, with_fighter, with_strike
from engine.locke.combat.model import Fight, Strike
from engine.locke.state import LockeState, advance, log
from engine.locke.steps import Automatic, LockeStep, Rules, Then, Waiting, answers


def ball_stops(g: Rules, as_card: str, strike: Strike) -> bool:
    """An absorb ball takes attacks up to its level; a light sword only when the card says so
    (the level-5 ball and the level-5 sword, seed 000 3.1.3)."""
    level = kept.level_of(g, as_card)
    if strike.light_sword:
        absorbs = g.components.planet(as_card).effect.params.get("absorbs", ())
        return isinstance(absorbs, tuple) and "light-sword" in absorbs and strike.level <= level
    return strike.level <= level


@dataclasses.dataclass(frozen=True)
class BallAbsorbs(Automatic):
    """Fighter ``fighter``'s ball takes the attack; the attacker makes an ESP level check, and a
    failure knocks it out for 1d6 rounds, this one included."""

    KIND: ClassVar[str] = "cb_ball"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        assert strike is not None
        owner = fight.fighters[self.fighter]
        attacker = fight.fighters[strike.attacker]
        s = log(with_strike(s, None), "cb-ball-absorbs", owner.seat, strike.level)
        if attacker.seat >= 0 and not attacker.thought:
            return advance(fate.check(g, s, attacker.seat, stat=fate.CheckStat.LEVEL,
                                      then=AfterBallCheck(strike.attacker)))
        if attacker.ob is not None:
            return advance(s, BallCheckObstacle(strike.attacker))
        return advance(s)


@dataclasses.dataclass(frozen=True)
class AfterBallCheck(Then):
    """The absorb ball's attacker failing its level check faints (``attacker``: its fighter)."""

    KIND: ClassVar[str] = "combat.ball"
    attacker: int

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success or s.combat is None:
            return advance(s)
        return advance(s, BallKnockOut(self.attacker))


@dataclasses.dataclass(frozen=True)
class BallCheckObstacle(Waiting):
    """Obstacle ``fighter``'s ESP level check against a ball is public: 2d6 at or below its level
    passes."""

    KIND: ClassVar[str] = "cb_ball_ob"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.check.level", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        ob = fight_of(s).fighters[self.fighter].ob
        assert ob is not None
        if sum(action.faces) <= ob.level:
            return advance(s)
        return advance(s, BallKnockOut(self.fighter))


@dataclasses.dataclass(frozen=True)
class BallKnockOut(Waiting):
    """The ball knocks fighter ``fighter`` out for 1d6 rounds, this one included (seed 000 3.1.3)."""

    KIND: ClassVar[str] = "cb_ball_faint"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.absorb-ball", (6,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        f = f._replace(fainted=True, acted=True, wake=fight.round + action.faces[0], ball_out=True)
        who = f.seat if f.seat >= 0 else (f.ob.id if f.ob is not None else "")
        s = put(s, with_fighter(fight, self.fighter, f))
        return advance(log(s, "cb-fainted", who, "absorb-ball", action.faces[0]))


@dataclasses.dataclass(frozen=True)
class BallBreaks(Automatic):
    """A stronger attack breaks fighter ``fighter``'s ball (spent) and goes on to the suit or the body."""

    KIND: ClassVar[str] = "cb_ball_break"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        s = put(s, with_fighter(fight, self.fighter, f._replace(ball=0, ball_card=-1)))
        s = log(s, "cb-ball-broken", f.seat, f.ball)
        return advance(s, kept.spend_step(f.seat, f.ball_card), g.attack.Hit())


def is_nike_attack(fight: Fight, strike: Strike) -> bool:
    """Nike's attack goes straight to its target's Nike, suit or body (KMC 10.7)."""
    return strike.card == "" and strike.level == 0 and fight.fighters[strike.attacker].nike_on


def ball_takes(level: int, strike: Strike) -> bool:
    if strike.light_sword:
        return level >= 5 and strike.level <= level and level == 5  # only the level-5 ball, seed 000 3.1.3
    return strike.level <= level


#: the ball step kinds (engine/locke/registry.py, the combat family)
STEPS: tuple[type[LockeStep], ...] = (
    BallAbsorbs, BallCheckObstacle, BallKnockOut, BallBreaks,
)

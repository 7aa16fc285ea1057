"""Nike (KMC 2.3.2) and residual thoughts' syncs (KMC 10.8.2).

Nike's check each round (at or below the declared value it is in use, 11 or more knocks its
user out until the next round, N162) and its attack (20, the turn's normal action, which nobody
escapes or defends); a residual thought may give up its own attack to add its firepower to
another's (N185). Its own module because the round (engine/locke/combat/flow.py) and the
turn's dispatch (engine/locke/combat/specials.py) reach it apart from the other items; what a
hit on Nike does is engine/locke/combat/suits.py's.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke.actions import Nop
from engine.locke.combat.actions import UseItem
from engine.locke.combat.common import (
    RESIDUAL, active, constant, fight_of, mark_attacked, put, with_fighter, with_strike,
)
from engine.locke.combat.model import Fight, Strike
from engine.locke.combat.turn_cards import turn_on
from engine.locke.components import Character
from engine.locke.state import LockeState, advance, log
from engine.locke.steps import LockeStep, Rules, SeatDecision, Waiting, answers


@dataclasses.dataclass(frozen=True)
class NikeCheck(Waiting):
    """Fighter ``fighter``'s Nike check of the round: at or below the declared value Nike is in use
    this round; 11 or more knocks its user out."""

    KIND: ClassVar[str] = "cb_nike"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.nike", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        total = sum(action.faces)
        faint = constant(g, "nike", "faint_min", 99)
        on = total <= f.nike_check and total < faint
        if total >= faint:  # KMC 2.3.2: out for this round only, it wakes as the next begins (N162)
            f = f._replace(fainted=True, wake=max(f.wake, fight.round + 1) if f.fainted else fight.round + 1)
        f = f._replace(nike_on=on)
        return advance(log(put(s, with_fighter(fight, self.fighter, f)), "cb-nike-check", f.seat, total, on))


def nike_steps(fight: Fight) -> tuple[LockeStep, ...]:
    """The round's Nike checks, for every fighter still in with a whole Nike (KMC 2.3.2)."""
    return tuple(NikeCheck(i) for i, f in enumerate(fight.fighters) if f.nike_left > 0 and active(fight, i))


def thought_syncs(s: LockeState, attacker: int) -> tuple[LockeStep, ...]:
    """KMC 10.8.2: every other residual thought still in that has not attacked this round may
    add its firepower to a thought's attack, giving up its own attack this round (N185)."""
    fight = fight_of(s)
    return tuple(ThoughtSync(f.seat, j) for j in fight.order or range(len(fight.fighters))
                 if (f := fight.fighters[j]).thought and j != attacker and active(fight, j) and not f.acted
                 and not f.done)


@dataclasses.dataclass(frozen=True)
class ThoughtSync(SeatDecision):
    """KMC 10.8.2: the residual thought ``fighter`` may sync another's attack (its firepower), or not."""

    KIND: ClassVar[str] = "cb_thought_sync"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Nop(self.seat), UseItem(self.seat, RESIDUAL, -1)]

    @answers(UseItem)
    def syncs(self, g: Rules, s: LockeState, action: UseItem) -> LockeState:
        """A thought's sync (``UseItem(seat, "residual-thought", -1)``): firepower added, no own attack."""
        if action.item != RESIDUAL or action.target != -1:
            raise IllegalAction("a residual thought syncs another's attack with its own firepower (no target)",
                                rule="locke.10.8.2")
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        strike = fight.strike
        assert strike is not None
        s = put(s, with_fighter(fight, self.fighter, f._replace(acted=True)))
        strike = strike._replace(firepower=strike.firepower + f.thought, syncers=strike.syncers + (self.fighter,),
                                 sync_power=strike.sync_power + (f.thought,))
        return advance(log(with_strike(s, strike), "cb-sync", self.seat, RESIDUAL, strike.level, strike.firepower))

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


def nike_attack(g: Rules, s: LockeState, seat: int, me: int, target: int) -> LockeState:
    """Nike's attack (20) is the turn's normal action; nobody escapes or defends it."""
    fight = fight_of(s)
    s = put(s, with_fighter(fight, me, fight.fighters[me]._replace(acted=True)))
    s = mark_attacked(with_strike(s, Strike(me, target, "", 0, constant(g, "nike", "attack"), escape_tried=True)))
    planet = ("planet",) if fight.fighters[me].nike_card >= 0 else ()
    return advance(log(s, "cb-item", seat, "nike", target, *planet), g.attack.Hit(), turn_on(seat, me))


#: the nike step kinds (engine/locke/registry.py, the combat family)
STEPS: tuple[type[LockeStep], ...] = (
    NikeCheck, ThoughtSync,
)

"""The E-buster's two answers (seed 002 trap 11; KMC 10.12; rulings N188-N189).

- A character of ESP level 2 or less may say so, before the first round or
  in its own turn, and the E-buster never picks it as a target for the rest
  of the combat: a claim that its current level is at most 2.
- A character of level 3 or more may try to persuade the E-buster in its own
  turn, once a turn: it declares its level (a claim, at least 3) and takes
  the level check on 2d6; a pass and the E-buster makes no more attacks in
  this combat (it can still be attacked).

Both are free options of the turn's decision (``cb_act``, :func:`on_option`),
after which the same decision comes back (as the special attacks are). The
question before the first round (:class:`SpareQuestion`) is asked of every
seat in the fight, so it shows nothing. The super E-buster cannot be persuaded and spares nobody;
its jammer acts on escape cards only (N156 with the trait
``jammer-vs-escape-only``).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke import fate
from engine.locke.combat.actions import EBuster
from engine.locke.combat.common import active, as_now, fight_of, player, put, targets, with_fighter
from engine.locke.combat.model import Fight
from engine.locke.components import Character
from engine.locke.state import LockeState, advance, claimed, log
from engine.locke.steps import LockeStep, Rules, SeatDecision, Waiting, answers

RULE = "locke.s002.trap.11"
SPARES = "spares-declared-level-2-or-less"
PERSUADABLE = "persuadable-by-level-check"
#: The highest level that may ask to be spared, and the least that may persuade.
SPARE_TOP, PERSUADE_MIN = 2, 3
SPARE, PERSUADE = "spare", "persuade"


def _busters(fight: Fight, trait: str) -> tuple[int, ...]:
    return tuple(i for i, f in enumerate(fight.fighters)
                 if f.ob is not None and trait in f.ob.traits and active(fight, i) and not f.fainted)


def spare_steps(fight: Fight) -> tuple[LockeStep, ...]:
    """Before round 1, with an E-buster in the fight: every seat may say its level is 2 or less."""
    if not _busters(fight, SPARES):
        return ()
    return tuple(SpareQuestion(f.seat, i) for i, f in enumerate(fight.fighters) if player(f))


def obstacle_targets(s: LockeState, fight: Fight, index: int) -> tuple[int, ...]:
    """Whom the obstacle ``index`` may pick: an E-buster never picks a spared seat."""
    options = targets(s, fight, index)
    ob = fight.fighters[index].ob
    if ob is not None and SPARES in ob.traits:
        options = tuple(j for j in options if not fight.fighters[j].spared)
    return options


def options(g: Rules, s: LockeState, seat: int, fighter: int, me: Character | None) -> list[Action]:
    """The free options of a turn (``cb_act``): be spared, or persuade (honest with ``me``, who
    holds the current stats)."""
    fight = fight_of(s)
    f = fight.fighters[fighter]
    out: list[Action] = []
    level = me.level if me is not None else None
    if _busters(fight, SPARES) and not f.spared and (level is None or level <= SPARE_TOP):
        out.append(EBuster(seat, SPARE, SPARE_TOP))
    if _busters(fight, PERSUADABLE) and PERSUADE not in f.specials:
        accepted = fate.check_range(g, s, seat, "level")
        top = accepted.stop - 1 if level is None else level
        out += [EBuster(seat, PERSUADE, v) for v in range(PERSUADE_MIN, top + 1) if v in accepted]
    return out


def on_option(g: Rules, s: LockeState, seat: int, fighter: int, action: EBuster, in_turn: bool) -> LockeState:
    """The answer of fighter ``fighter``, in its turn (``in_turn``: the same decision comes back
    after it) or to the question before round 1."""
    fight = fight_of(s)
    f = fight.fighters[fighter]
    if not player(f):
        raise IllegalAction("a residual thought only attacks", rule="locke.10.6")
    if action.what == SPARE:
        if not _busters(fight, SPARES) or f.spared or action.level != SPARE_TOP:
            raise IllegalAction("say your ESP level is 2 or less (level 2) while an E-buster fights and "
                                "has not spared you yet", rule=RULE)
        claim = fate.stat_claim(s, seat, "level", "ge", SPARE_TOP, RULE)
        s = put(s._replace(**claimed(s, claim)), with_fighter(fight, fighter, f._replace(spared=True)))
        s = log(s, "cb-spared", seat)
        return s if in_turn else advance(s)  # in a turn the decision comes back
    if action.what != PERSUADE or not in_turn:
        raise IllegalAction("persuade the E-buster in your own turn, or be spared", rule=RULE)
    if not _busters(fight, PERSUADABLE) or PERSUADE in f.specials:
        raise IllegalAction("an E-buster that can be persuaded is needed, and one try a turn", rule=RULE)
    if action.level < PERSUADE_MIN or action.level not in fate.check_range(g, s, seat, "level"):
        raise IllegalAction(f"declare your ESP level, {PERSUADE_MIN} or more, to persuade", rule=RULE)
    claim = fate.stat_claim(s, seat, "level", "le", action.level, RULE)
    s = put(s._replace(**claimed(s, claim)), with_fighter(fight, fighter, f._replace(specials=f.specials + (PERSUADE,))))
    s = log(s, "cb-persuade", seat, action.level)
    return s._replace(queue=(PersuasionRoll(seat, action.level),) + s.queue)


@dataclasses.dataclass(frozen=True)
class SpareQuestion(SeatDecision):
    """Before round 1: fighter ``fighter`` may say its level is 2 or less, or let it pass."""

    KIND: ClassVar[str] = "cb_spare"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        me = as_now(s, self.seat, me)
        keep: list[Action] = [EBuster(self.seat, "", 0)]
        if me is None or me.level <= SPARE_TOP:
            keep.append(EBuster(self.seat, SPARE, SPARE_TOP))
        return keep

    @answers(EBuster)
    def answer(self, g: Rules, s: LockeState, action: EBuster) -> LockeState:
        if action.what == "":
            return advance(s)
        return on_option(g, s, self.seat, self.fighter, action, in_turn=False)


@dataclasses.dataclass(frozen=True)
class PersuasionRoll(Waiting):
    """The persuasion's level check of ``seat`` at its declared ``level``."""

    KIND: ClassVar[str] = "cb_persuade_roll"
    seat: int
    level: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.check.level", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        """A pass and every persuadable E-buster stops attacking."""
        total = sum(action.faces)
        ok = total <= self.level
        s = log(s, "cb-persuaded", self.seat, total, ok)
        if ok:
            fight = fight_of(s)
            for i in _busters(fight, PERSUADABLE):
                fight = with_fighter(fight, i, fight.fighters[i]._replace(fainted=True))
            s = put(s, fight)
        return advance(s)


#: the E-buster's step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (SpareQuestion, PersuasionRoll)

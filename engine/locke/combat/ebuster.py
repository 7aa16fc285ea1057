"""The E-buster's two answers (seed 002 trap 11; KMC 10.12; rulings N188-N189).

- A character of ESP level 2 or less may say so, before the first round or
  in its own turn, and the E-buster never picks it as a target for the rest
  of the combat: a claim that its current level is at most 2.
- A character of level 3 or more may try to persuade the E-buster in its own
  turn, once a turn: it declares its level (a claim, at least 3) and takes
  the level check on 2d6; a pass and the E-buster makes no more attacks in
  this combat (it can still be attacked).

Both are free options of the turn's decision (``cb_act``), after which the
same decision comes back (as the special attacks are). The question before
the first round (``cb_spare``) is asked of every seat in the fight, so it
shows nothing. The super E-buster cannot be persuaded and spares nobody;
its jammer acts on escape cards only (N156 with the trait
``jammer-vs-escape-only``).
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke.state import seat_decision
from engine.locke import fate
from engine.locke.combat.actions import EBuster
from engine.locke.combat.common import active, fight_of, player, put, targets, with_fighter
from engine.locke.combat.model import Fight
from engine.locke.components import Character
from engine.locke.state import LockeState, Step, advance, claimed, log

RULE = "locke.s002.trap.11"
SPARES = "spares-declared-level-2-or-less"
PERSUADABLE = "persuadable-by-level-check"
#: The highest level that may ask to be spared, and the least that may persuade.
SPARE_TOP, PERSUADE_MIN = 2, 3
SPARE, PERSUADE = "spare", "persuade"


def _busters(fight: Fight, trait: str) -> tuple[int, ...]:
    return tuple(i for i, f in enumerate(fight.fighters)
                 if f.ob is not None and trait in f.ob.traits and active(fight, i) and not f.fainted)


def spare_steps(fight: Fight) -> tuple[Step, ...]:
    """Before round 1, with an E-buster in the fight: every seat may say its level is 2 or less."""
    if not _busters(fight, SPARES):
        return ()
    return tuple(Step("cb_spare", f.seat, n=i) for i, f in enumerate(fight.fighters) if player(f))


def obstacle_targets(s: LockeState, fight: Fight, index: int) -> tuple[int, ...]:
    """Whom the obstacle ``index`` may pick: an E-buster never picks a spared seat."""
    options = targets(s, fight, index)
    ob = fight.fighters[index].ob
    if ob is not None and SPARES in ob.traits:
        options = tuple(j for j in options if not fight.fighters[j].spared)
    return options


def options(g: Any, s: LockeState, step: Step, me: Character | None) -> list[Action]:
    """The free options of a turn (``cb_act``): be spared, or persuade (honest with ``me``)."""
    fight = fight_of(s)
    f = fight.fighters[step.n]
    out: list[Action] = []
    level = me.level if me is not None else None
    if _busters(fight, SPARES) and not f.spared and (level is None or level <= SPARE_TOP):
        out.append(EBuster(step.seat, SPARE, SPARE_TOP))
    if _busters(fight, PERSUADABLE) and PERSUADE not in f.specials:
        accepted = fate.check_range(g, s, step.seat, "level")
        top = accepted.stop - 1 if level is None else level
        out += [EBuster(step.seat, PERSUADE, v) for v in range(PERSUADE_MIN, top + 1) if v in accepted]
    return out


def _on_option(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """``cb_act`` or ``cb_spare``: the answer; in a turn the same decision comes back after it."""
    assert isinstance(action, EBuster)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    if not player(f):
        raise IllegalAction("a residual thought only attacks", rule="locke.10.6")
    if action.what == SPARE:
        if not _busters(fight, SPARES) or f.spared or action.level != SPARE_TOP:
            raise IllegalAction("say your ESP level is 2 or less (level 2) while an E-buster fights and "
                                "has not spared you yet", rule=RULE)
        claim = fate.stat_claim(s, step.seat, "level", "ge", SPARE_TOP, RULE)
        s = put(s._replace(**claimed(s, claim)), with_fighter(fight, step.n, f._replace(spared=True)))
        s = log(s, "cb-spared", step.seat)
        return s if step.kind == "cb_act" else advance(s)  # in a turn the decision comes back
    if action.what != PERSUADE or step.kind != "cb_act":
        raise IllegalAction("persuade the E-buster in your own turn, or be spared", rule=RULE)
    if not _busters(fight, PERSUADABLE) or PERSUADE in f.specials:
        raise IllegalAction("an E-buster that can be persuaded is needed, and one try a turn", rule=RULE)
    if action.level < PERSUADE_MIN or action.level not in fate.check_range(g, s, step.seat, "level"):
        raise IllegalAction(f"declare your ESP level, {PERSUADE_MIN} or more, to persuade", rule=RULE)
    claim = fate.stat_claim(s, step.seat, "level", "le", action.level, RULE)
    s = put(s._replace(**claimed(s, claim)), with_fighter(fight, step.n, f._replace(specials=f.specials + (PERSUADE,))))
    s = log(s, "cb-persuade", step.seat, action.level)
    return s._replace(queue=(Step("cb_persuade_roll", step.seat, n=action.level),) + s.queue)


def _pending_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.check.level", (6, 6))


def _on_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """The persuasion's level check: a pass and every persuadable E-buster stops attacking."""
    assert isinstance(action, DiceRolled)
    total = sum(action.faces)
    ok = total <= step.n
    s = log(s, "cb-persuaded", step.seat, total, ok)
    if ok:
        fight = fight_of(s)
        for i in _busters(fight, PERSUADABLE):
            fight = with_fighter(fight, i, fight.fighters[i]._replace(fainted=True))
        s = put(s, fight)
    return advance(s)


def _legal_spare(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    keep: list[Action] = [EBuster(step.seat, "", 0)]
    if me is None or me.level <= SPARE_TOP:
        keep.append(EBuster(step.seat, SPARE, SPARE_TOP))
    return keep


def _on_spare_question(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, EBuster)
    if action.what == "":
        return advance(s)
    return _on_option(g, s, step, action)


MAKERS = {"cb_spare": _legal_spare}
PENDING = {"cb_spare": seat_decision, "cb_persuade_roll": _pending_roll}
HANDLERS = {("cb_act", EBuster): _on_option, ("cb_spare", EBuster): _on_spare_question,
            ("cb_persuade_roll", DiceRolled): _on_roll}

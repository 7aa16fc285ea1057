"""The obstacles' automaton (KMC 10.12.2-3; ruling N141).

The rulebook has a player outside the combat run the obstacles by a fixed
strategy; the engine runs it itself, so it must see the obstacles' cards
(they are dealt face up, ruling N140). Its policy, in order:

- attack on its turn with every means it has: the strongest combat card it
  can surely play (level within its own, power enough; no mind checks), or
  its weapon (fixed firepower, or rolled on the weapon-firepower chart at
  every use); a squad with combined fire makes one attack with the summed
  firepower, a squad without it (cybers) one simultaneous attack of each
  living member's checks (seed 002 trap note 2: three cybers, six checks);
- the target is picked at random (a die with one face per possible target);
- when attacked it only defends: its ESP barrier if it has one and has not
  used it this round, else the lowest defence card that surely stops the
  attack; it never escapes;
- it blocks every teleport it surely can, with the lowest teleport that does,
  and syncs another's block when that block would fall short;
- it never syncs attacks, never uses contact telepathy or illusions;
- a seat's jammer of hidden level put on it (KMC 10.10): a card at or below a level that jammer
  is known to stop is never tried; any other card waits for the jammer's owner as a seat's
  card does (N164), and a card stopped is taken back and the automaton picks again (N239).
"""

from __future__ import annotations

from typing import Any

from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke import charts
from engine.locke.chart_data import FIREPOWER
from engine.locke.combat import randoms
from engine.locke.combat.common import (
    COMBINED,
    MACHINE,
    NO_SLEEP,
    active,
    alert,
    can_be_attacked,
    fight_of,
    jam_asks,
    jam_floor,
    mark_attacked,
    power_left,
    put,
    with_fighter,
    with_strike,
)
from engine.locke.combat.model import DEAD, TRAPPED, Fighter, Obstacle, Strike
from engine.locke.state import LockeState, Step, advance, log

#: Weapons of the weapon-check chart (seed 002) and their levels.
WEAPON_LEVELS = {"raygun": 1, "blaster": 2, "bazooka": 3, "beam-cannon": 4}
BOMB = "first-round-bomb"


def obstacle_targets(s: LockeState, fight: Any, index: int) -> tuple[int, ...]:
    from engine.locke.combat.ebuster import obstacle_targets as pick_from

    return pick_from(s, fight, index)


def _usable(g: Any, fight: Any, f: Fighter, kind: str) -> list[tuple[int, Any]]:
    """(handle, card) of the face-up cards of ``kind`` the obstacle can play: within its level and
    power, and not at or below a level a seat's jammer on it is known to stop (KMC 10.10)."""
    assert f.ob is not None
    out = []
    for handle, card_id in zip(f.hand, f.faces):
        card = g.components.combat_card(card_id)
        if not randoms.playable(f, card.level, power_left(f)) or card.level <= jam_floor(fight, f):
            continue
        if kind == "attack" and card.type == "attack":
            out.append((handle, card))
        elif kind == "defence" and card.type == "defence":
            out.append((handle, card))
        elif kind == "teleport" and "teleport-block" in card.tags:
            out.append((handle, card))
    return out


def _best_attack(g: Any, fight: Any, f: Fighter) -> tuple[int, Any] | None:
    cards = _usable(g, fight, f, "attack")
    if not cards:
        return None
    return max(cards, key=lambda hc: (hc[1].firepower, -hc[1].level, -hc[0]))


def _has_weapon(ob: Obstacle) -> bool:
    return ob.firepower > 0 or ob.weapon in FIREPOWER


def turn(g: Any, s: LockeState, index: int) -> LockeState:
    """Queue the obstacle's attacks for its turn (KMC 10.12.2 (4))."""
    fight = fight_of(s)
    f = fight.fighters[index]
    ob = f.ob
    assert ob is not None
    if BOMB in ob.traits:
        return s
    specials = randoms.special_steps(f, index)  # a random character's ship, cannon, bomb first (N245)
    if not ob.cards and not _has_weapon(ob) and not specials:
        return s
    return s._replace(queue=specials + (Step("cb_ob_attack", -1, n=index),) + s.queue)


def _jam_ask(s: LockeState, before: Any, index: int, card: Any, drop: int, step: Step) -> tuple[LockeState, tuple[Step, ...]]:
    """A seat's jammer is on the obstacle and may stop ``card`` (KMC 10.10, N239): its owner answers
    before the ``drop`` steps that carry the play on; a stop takes the play back to ``before``
    and ``step`` (the automaton's pick) comes again."""
    from engine.locke.combat.path import jam_question

    fight = fight_of(s)
    f = fight.fighters[index]
    if not jam_asks(fight, f, card):
        return s, ()
    return put(s, fight._replace(before=before)), (jam_question(f, index, card.level, drop, step),)


def _auto_ob_attack(g: Any, s: LockeState, step: Step) -> LockeState:
    fight = fight_of(s)
    before = fight
    f = fight.fighters[step.n]
    ob = f.ob
    assert ob is not None
    options = obstacle_targets(s, fight, step.n)
    if not alert(fight, step.n) or not options:  # out (its own geoid bomb, N162), or nobody to attack
        return advance(s)
    machine = MACHINE in ob.traits
    if f.nike_on:  # KMC 2.3.2: an active Nike attacks for 20 instead of any card; nobody answers it
        from engine.locke.combat.items import constant

        strike = Strike(step.n, -1, "", 0, constant(g, "nike", "attack"), escape_tried=True)
        s = log(mark_attacked(with_strike(s, strike)), "cb-ob-item", ob.id, "nike", -1)
        pick = (Step("cb_pick", -1, n=step.n),) if len(options) > 1 else ()
        if not pick:
            s = with_strike(s, strike._replace(target=options[0]))
        return advance(s, *pick, Step("cb_hit", -1))
    if not ob.cards and not _has_weapon(ob):
        return advance(s)
    if ob.cards:
        best = _best_attack(g, fight, f)
        if best is None:
            return advance(log(s, "cb-pass", -1, ob.id))
        handle, card = best
        fight = with_fighter(fight, step.n, f._replace(spent=f.spent + randoms.cost(f, card.level)))
        s = put(s, fight)
        from engine.locke.combat.path import spend_face_up

        s, _ = spend_face_up(s, step.n, handle, "attack", level=card.level)
        strike = Strike(step.n, -1, card.id, card.level, card.firepower, light_sword=card.weapon == "light-sword",
                        field=randoms.cost(f, card.level) == 0)
        s = randoms.hench_syncs(g, with_strike(s, strike), step.n)  # its henchmen join (KMC 10.8, N245)
        fight = fight_of(s)
        assert fight.strike is not None
        strike = fight.strike
    else:
        level = ob.weapon_level or ob.level
        living = sum(1 for d in f.members if d > 0)
        # seed 002 trap note 1: combined fire sums the members' firepower; note 2: a squad's
        # simultaneous attacks are one attack making every member's checks (three cybers: six)
        combined = COMBINED in ob.traits
        strike = Strike(step.n, -1, "", level, ob.firepower * (living if combined else 1),
                        machine=machine, hits=ob.hits * (1 if combined else max(living, 1)))
        s = log(s, "cb-weapon", ob.id, ob.weapon or "fixed", level)
    s = mark_attacked(with_strike(s, strike))
    steps: list[Step] = []
    if len(options) > 1:
        steps.append(Step("cb_pick", -1, n=step.n))
    else:
        s = with_strike(s, strike._replace(target=options[0]))
    if not ob.cards and ob.weapon in FIREPOWER:
        steps.append(Step("cb_fp", -1, n=step.n))
    ask: tuple[Step, ...] = ()
    if ob.cards:
        s, ask = _jam_ask(s, before, step.n, card, len(steps) + 1, step)
    return advance(s, *ask, *steps, Step("cb_strike", -1, arg="ok"))


def _pending_pick(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.pick", (len(obstacle_targets(s, fight_of(s), step.n)),))


def _on_pick(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 10.12.2 (4): the target is picked fairly at random."""
    assert isinstance(action, DiceRolled)
    options = obstacle_targets(s, fight_of(s), step.n)
    strike = fight_of(s).strike
    assert strike is not None
    return advance(with_strike(s, strike._replace(target=options[action.faces[0] - 1])))


def _rollers(s: LockeState, index: int) -> int:
    f = fight_of(s).fighters[index]
    assert f.ob is not None
    return sum(1 for d in f.members if d > 0) if COMBINED in f.ob.traits else 1


def _pending_fp(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.weapon-firepower", (6,) * _rollers(s, step.n))


def _on_fp(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 002 weapon-firepower chart: rolled at every use; combined fire sums the squad's."""
    assert isinstance(action, DiceRolled)
    f = fight_of(s).fighters[step.n]
    assert f.ob is not None
    column = FIREPOWER[f.ob.weapon]
    power = sum(column[face - 1] for face in action.faces)
    strike = fight_of(s).strike
    assert strike is not None
    return advance(log(with_strike(s, strike._replace(firepower=power)), "cb-firepower", f.ob.id, list(action.faces), power))


def _auto_ob_defend(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.12.3 defence of obstacle ``step.n``: the barrier once a round, else the lowest
    defence card that surely works (a seat's jammer on it may stop the card: then it picks
    again, N239), else a random character's psycho-pod (N245); none while its Nike is on (KMC
    2.3.2: Nike takes the hit)."""
    fight = fight_of(s)
    strike = fight.strike
    index = step.n
    f = fight.fighters[index]
    ob = f.ob
    assert ob is not None
    if strike is None or strike.light_sword or f.nike_on:
        return advance(s)
    if ob.barrier >= strike.level and not f.barrier_used:
        s = put(s, with_fighter(fight, index, f._replace(barrier_used=True)))
        return advance(log(with_strike(s, None), "cb-defend", -1, ob.id, "esp-barrier", ob.barrier))
    cards = [hc for hc in _usable(g, fight, f, "defence") if hc[1].level >= strike.level]
    if not cards:
        return advance(s, *randoms.pod_steps(g, s, index))
    handle, card = min(cards, key=lambda hc: (hc[1].level, hc[0]))
    from engine.locke.combat.path import spend_face_up

    s = put(s, with_fighter(fight, index, f._replace(spent=f.spent + randoms.cost(f, card.level))))
    s, _ = spend_face_up(s, index, handle, "defend", level=card.level)
    s, ask = _jam_ask(s, fight, index, card, 1, step)
    return advance(s, *ask, Step("cb_ob_defended", -1, n=index, arg=card.id))


def _auto_ob_defended(g: Any, s: LockeState, step: Step) -> LockeState:
    """The obstacle's defence card works (no jammer stopped it): the attack is gone."""
    ob = fight_of(s).fighters[step.n].ob
    assert ob is not None
    return advance(log(with_strike(s, None), "cb-defend", -1, ob.id, step.arg))


def _auto_ob_block(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.12.3 blocks: block alone when sure, or sync a block that falls short."""
    from engine.locke.combat.path import spend_face_up

    fight = fight_of(s)
    strike = fight.strike
    f = fight.fighters[step.n]
    if strike is None or strike.escaper < 0 or not active(fight, step.n):
        return advance(s)
    cards = _usable(g, fight, f, "teleport")
    if not strike.blockers:
        cards = [hc for hc in cards if hc[1].level > strike.escape_level]
    else:
        total = strike.block_base + len(strike.blockers) - 1
        if total > strike.escape_level:
            return advance(s)
        cards = [hc for hc in cards if hc[1].level <= strike.block_base]
    if not cards:
        return advance(s)
    handle, card = min(cards, key=lambda hc: (hc[1].level, hc[0]))
    own = randoms.cost(f, card.level)
    s = put(s, with_fighter(fight, step.n, f._replace(spent=f.spent + own)))
    s, _ = spend_face_up(s, step.n, handle, "block", level=card.level)
    s, ask = _jam_ask(s, fight, step.n, card, 1, step)  # the block stands once no jammer stops it
    return advance(s, *ask, Step("cb_blocked", -1, n=step.n, arg=f"ok:{card.level}:{handle}:{own}"))


# --- arming police from the weapon-check chart (seed 002) ----------------------------------------


def _pending_arm(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.weapon-check", (6, 6))


def _on_arm(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 002 weapon check, once at the start: arms the squad, or turns it into an
    armoured car, a G/D bomb that hits everyone at the first round's start, or a trap."""
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("weapon-check", action.faces)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    ob = f.ob
    assert ob is not None
    entry = outcome.entry
    s = log(s, "cb-weapon-check", ob.id, entry)
    if entry in WEAPON_LEVELS:
        ob = ob._replace(weapon=entry, weapon_level=WEAPON_LEVELS[entry], firepower=0)
        return advance(put(s, with_fighter(fight, step.n, f._replace(ob=ob))))
    if entry == "armored-car":
        car = Obstacle("armored-car", 4, 0, 8, weapon="beam-cannon", traits=(MACHINE, NO_SLEEP), weapon_level=4)
        return advance(put(s, with_fighter(fight, step.n, f._replace(ob=car, members=(8,)))))
    if entry in ("g-bomb", "d-bomb"):
        attack = outcome.attacks[0]
        bomb = Obstacle(entry, int(attack.level or 0), int(attack.firepower or 0), 1, traits=(MACHINE, NO_SLEEP, BOMB))
        return advance(put(s, with_fighter(fight, step.n, f._replace(ob=bomb, members=(1,)))))
    # trap: the police vanish and no combat happens; the combat's end rolls the trap chart (N224)
    s = put(s, with_fighter(fight, step.n, f._replace(state=DEAD, members=(0,) * len(f.members))))
    return advance(put(s, fight_of(s)._replace(ended=TRAPPED)))


def bombs(s: LockeState) -> tuple[Step, ...]:
    """The first round's G/D bombs: one attack at every other fighter, then they vanish. Every
    one, the obstacles' own side too (seed 002 weapon check 2 and 12: all in the combat)."""
    fight = fight_of(s)
    steps: list[Step] = []
    for i, f in enumerate(fight.fighters):
        if f.ob is not None and BOMB in f.ob.traits and active(fight, i):
            for j in (j for j in range(len(fight.fighters)) if j != i and can_be_attacked(fight, j)):
                steps.append(Step("cb_bomb", -1, n=i, arg=str(j)))
            steps.append(Step("cb_vanish", -1, n=i))
    return tuple(steps)


def _auto_bomb(g: Any, s: LockeState, step: Step) -> LockeState:
    fight = fight_of(s)
    f = fight.fighters[step.n]
    target = int(step.arg)
    assert f.ob is not None
    if not active(fight, target):
        return advance(s)
    strike = Strike(step.n, target, "", f.ob.level, f.ob.firepower, machine=True)
    s = log(mark_attacked(with_strike(s, strike)), "cb-weapon", f.ob.id, "bomb", f.ob.level)
    return advance(s, Step("cb_strike", -1, arg="ok"))


def _auto_vanish(g: Any, s: LockeState, step: Step) -> LockeState:
    fight = fight_of(s)
    f = fight.fighters[step.n]
    return advance(put(s, with_fighter(fight, step.n, f._replace(state=DEAD, members=(0,)))))


PENDING = {"cb_pick": _pending_pick, "cb_fp": _pending_fp, "cb_arm": _pending_arm}
HANDLERS = {("cb_pick", DiceRolled): _on_pick, ("cb_fp", DiceRolled): _on_fp, ("cb_arm", DiceRolled): _on_arm}
AUTO = {"cb_ob_attack": _auto_ob_attack, "cb_ob_defend": _auto_ob_defend, "cb_ob_defended": _auto_ob_defended, "cb_ob_block": _auto_ob_block, "cb_bomb": _auto_bomb, "cb_vanish": _auto_vanish}

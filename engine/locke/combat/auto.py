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

import dataclasses
from typing import ClassVar

from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke import charts
from engine.locke.chart_data import FIREPOWER
from engine.locke.combat import jammer, randoms
from engine.locke.combat.common import (
    COMBINED,
    MACHINE,
    NO_SLEEP,
    active,
    alert,
    can_be_attacked,
    constant,
    fight_of,
    jam_asks,
    jam_floor,
    mark_attacked,
    power_left,
    put,
    spend_face_up,
    with_fighter,
    with_strike,
)
from engine.locke.combat.ebuster import obstacle_targets
from engine.locke.combat.model import DEAD, TRAPPED, Fight, Fighter, Obstacle, Strike
from engine.locke.components import CombatCard
from engine.locke.state import LockeState, advance, log
from engine.locke.steps import Automatic, LockeStep, Rules, Waiting, answers

#: Weapons of the weapon-check chart (seed 002) and their levels.
WEAPON_LEVELS = {"raygun": 1, "blaster": 2, "bazooka": 3, "beam-cannon": 4}
BOMB = "first-round-bomb"


def _usable(g: Rules, fight: Fight, f: Fighter, kind: str) -> list[tuple[int, CombatCard]]:
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


def _best_attack(g: Rules, fight: Fight, f: Fighter) -> tuple[int, CombatCard] | None:
    cards = _usable(g, fight, f, "attack")
    if not cards:
        return None
    return max(cards, key=lambda hc: (hc[1].firepower, -hc[1].level, -hc[0]))


def _has_weapon(ob: Obstacle) -> bool:
    return ob.firepower > 0 or ob.weapon in FIREPOWER


def turn(g: Rules, s: LockeState, index: int) -> LockeState:
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
    return s._replace(queue=specials + (ObstacleAttack(index),) + s.queue)


def _jam_ask(s: LockeState, before: Fight, index: int, card: CombatCard, drop: int,
             step: LockeStep) -> tuple[LockeState, tuple[LockeStep, ...]]:
    """A seat's jammer is on the obstacle and may stop ``card`` (KMC 10.10, N239): its owner answers
    before the ``drop`` steps that carry the play on; a stop takes the play back to ``before``
    and ``step`` (the automaton's pick) comes again."""
    fight = fight_of(s)
    f = fight.fighters[index]
    if not jam_asks(fight, f, card):
        return s, ()
    return put(s, fight._replace(before=before)), (jammer.jam_question(f, index, card.level, drop, step),)


@dataclasses.dataclass(frozen=True)
class ObstacleAttack(Automatic):
    """Obstacle ``fighter``'s attack on its turn: Nike's, its strongest sure card, or its weapon
    (KMC 10.12.2 (4))."""

    KIND: ClassVar[str] = "cb_ob_attack"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        me = self.fighter
        fight = fight_of(s)
        before = fight
        f = fight.fighters[me]
        ob = f.ob
        assert ob is not None
        options = obstacle_targets(s, fight, me)
        if not alert(fight, me) or not options:  # out (its own geoid bomb, N162), or nobody to attack
            return advance(s)
        machine = MACHINE in ob.traits
        if f.nike_on:  # KMC 2.3.2: an active Nike attacks for 20 instead of any card; nobody answers it
            strike = Strike(me, -1, "", 0, constant(g, "nike", "attack"), escape_tried=True)
            s = log(mark_attacked(with_strike(s, strike)), "cb-ob-item", ob.id, "nike", -1)
            pick: tuple[LockeStep, ...] = (ObstacleTargetPick(me),) if len(options) > 1 else ()
            if not pick:
                s = with_strike(s, strike._replace(target=options[0]))
            return advance(s, *pick, g.attack.Hit())
        if not ob.cards and not _has_weapon(ob):
            return advance(s)
        card: CombatCard | None = None
        if ob.cards:
            best = _best_attack(g, fight, f)
            if best is None:
                return advance(log(s, "cb-pass", -1, ob.id))
            handle, card = best
            fight = with_fighter(fight, me, f._replace(spent=f.spent + randoms.cost(f, card.level)))
            s = put(s, fight)
            s, _ = spend_face_up(s, me, handle, "attack", level=card.level)
            strike = Strike(me, -1, card.id, card.level, card.firepower, light_sword=card.weapon == "light-sword",
                            field=randoms.cost(f, card.level) == 0)
            s = randoms.hench_syncs(g, with_strike(s, strike), me)  # its henchmen join (KMC 10.8, N245)
            fight = fight_of(s)
            assert fight.strike is not None
            strike = fight.strike
        else:
            level = ob.weapon_level or ob.level
            living = sum(1 for d in f.members if d > 0)
            # seed 002 trap note 1: combined fire sums the members' firepower; note 2: a squad's
            # simultaneous attacks are one attack making every member's checks (three cybers: six)
            combined = COMBINED in ob.traits
            strike = Strike(me, -1, "", level, ob.firepower * (living if combined else 1),
                            machine=machine, hits=ob.hits * (1 if combined else max(living, 1)))
            s = log(s, "cb-weapon", ob.id, ob.weapon or "fixed", level)
        s = mark_attacked(with_strike(s, strike))
        steps: list[LockeStep] = []
        if len(options) > 1:
            steps.append(ObstacleTargetPick(me))
        else:
            s = with_strike(s, strike._replace(target=options[0]))
        if not ob.cards and ob.weapon in FIREPOWER:
            steps.append(WeaponFirepower(me))
        ask: tuple[LockeStep, ...] = ()
        if card is not None:
            s, ask = _jam_ask(s, before, me, card, len(steps) + 1, self)
        return advance(s, *ask, *steps, g.attack.AttackStands())


@dataclasses.dataclass(frozen=True)
class ObstacleTargetPick(Waiting):
    """KMC 10.12.2 (4): the target of obstacle ``fighter``'s attack is picked fairly at random."""

    KIND: ClassVar[str] = "cb_pick"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.pick", (len(obstacle_targets(s, fight_of(s), self.fighter)),))

    @answers(DiceRolled)
    def picked(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        options = obstacle_targets(s, fight_of(s), self.fighter)
        strike = fight_of(s).strike
        assert strike is not None
        return advance(with_strike(s, strike._replace(target=options[action.faces[0] - 1])))


@dataclasses.dataclass(frozen=True)
class WeaponFirepower(Waiting):
    """Seed 002 weapon-firepower chart: obstacle ``fighter``'s weapon is rolled at every use;
    combined fire sums the squad's."""

    KIND: ClassVar[str] = "cb_fp"
    fighter: int

    def _rollers(self, s: LockeState) -> int:
        f = fight_of(s).fighters[self.fighter]
        assert f.ob is not None
        return sum(1 for d in f.members if d > 0) if COMBINED in f.ob.traits else 1

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.chart.weapon-firepower", (6,) * self._rollers(s))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        f = fight_of(s).fighters[self.fighter]
        assert f.ob is not None
        column = FIREPOWER[f.ob.weapon]
        power = sum(column[face - 1] for face in action.faces)
        strike = fight_of(s).strike
        assert strike is not None
        s = with_strike(s, strike._replace(firepower=power))
        return advance(log(s, "cb-firepower", f.ob.id, list(action.faces), power))


@dataclasses.dataclass(frozen=True)
class ObstacleDefence(Automatic):
    """KMC 10.12.3 defence of obstacle ``fighter``: the barrier once a round, else the lowest
    defence card that surely works (a seat's jammer on it may stop the card: then it picks
    again, N239), else a random character's psycho-pod (N245); none while its Nike is on (KMC
    2.3.2: Nike takes the hit)."""

    KIND: ClassVar[str] = "cb_ob_defend"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        index = self.fighter
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
        s = put(s, with_fighter(fight, index, f._replace(spent=f.spent + randoms.cost(f, card.level))))
        s, _ = spend_face_up(s, index, handle, "defend", level=card.level)
        s, ask = _jam_ask(s, fight, index, card, 1, self)
        return advance(s, *ask, ObstacleDefended(index, card.id))


@dataclasses.dataclass(frozen=True)
class ObstacleDefended(Automatic):
    """Obstacle ``fighter``'s defence ``card`` works (no jammer stopped it): the attack is gone."""

    KIND: ClassVar[str] = "cb_ob_defended"
    fighter: int
    card: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        ob = fight_of(s).fighters[self.fighter].ob
        assert ob is not None
        return advance(log(with_strike(s, None), "cb-defend", -1, ob.id, self.card))


@dataclasses.dataclass(frozen=True)
class ObstacleBlock(Automatic):
    """KMC 10.12.3 blocks of obstacle ``fighter``: block alone when sure, or sync a block that
    falls short."""

    KIND: ClassVar[str] = "cb_ob_block"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        f = fight.fighters[self.fighter]
        if strike is None or strike.escaper < 0 or not active(fight, self.fighter):
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
        s = put(s, with_fighter(fight, self.fighter, f._replace(spent=f.spent + own)))
        s, _ = spend_face_up(s, self.fighter, handle, "block", level=card.level)
        s, ask = _jam_ask(s, fight, self.fighter, card, 1, self)  # the block stands once no jammer stops it
        return advance(s, *ask, g.attack.BlockStands(self.fighter, card.level, handle, own))


# --- arming police from the weapon-check chart (seed 002) ----------------------------------------


@dataclasses.dataclass(frozen=True)
class WeaponCheck(Waiting):
    """Seed 002 weapon check of obstacle ``fighter``, once at the start: arms the squad, or turns
    it into an armoured car, a G/D bomb that hits everyone at the first round's start, or a trap."""

    KIND: ClassVar[str] = "cb_arm"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.chart.weapon-check", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("weapon-check", action.faces)
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        ob = f.ob
        assert ob is not None
        entry = outcome.entry
        s = log(s, "cb-weapon-check", ob.id, entry)
        if entry in WEAPON_LEVELS:
            ob = ob._replace(weapon=entry, weapon_level=WEAPON_LEVELS[entry], firepower=0)
            return advance(put(s, with_fighter(fight, self.fighter, f._replace(ob=ob))))
        if entry == "armored-car":
            car = Obstacle("armored-car", 4, 0, 8, weapon="beam-cannon", traits=(MACHINE, NO_SLEEP), weapon_level=4)
            return advance(put(s, with_fighter(fight, self.fighter, f._replace(ob=car, members=(8,)))))
        if entry in ("g-bomb", "d-bomb"):
            attack = outcome.attacks[0]
            bomb = Obstacle(entry, int(attack.level or 0), int(attack.firepower or 0), 1,
                            traits=(MACHINE, NO_SLEEP, BOMB))
            return advance(put(s, with_fighter(fight, self.fighter, f._replace(ob=bomb, members=(1,)))))
        # trap: the police vanish and no combat happens; the combat's end rolls the trap chart (N224)
        s = put(s, with_fighter(fight, self.fighter, f._replace(state=DEAD, members=(0,) * len(f.members))))
        return advance(put(s, fight_of(s)._replace(ended=TRAPPED)))


def bombs(s: LockeState) -> tuple[LockeStep, ...]:
    """The first round's G/D bombs: one attack at every other fighter, then they vanish. Every
    one, the obstacles' own side too (seed 002 weapon check 2 and 12: all in the combat)."""
    fight = fight_of(s)
    steps: list[LockeStep] = []
    for i, f in enumerate(fight.fighters):
        if f.ob is not None and BOMB in f.ob.traits and active(fight, i):
            for j in (j for j in range(len(fight.fighters)) if j != i and can_be_attacked(fight, j)):
                steps.append(BombBlast(i, j))
            steps.append(BombVanishes(i))
    return tuple(steps)


@dataclasses.dataclass(frozen=True)
class BombBlast(Automatic):
    """Bomb ``fighter``'s attack on fighter ``target`` (seed 002 weapon check 2 and 12)."""

    KIND: ClassVar[str] = "cb_bomb"
    fighter: int
    target: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        assert f.ob is not None
        if not active(fight, self.target):
            return advance(s)
        strike = Strike(self.fighter, self.target, "", f.ob.level, f.ob.firepower, machine=True)
        s = log(mark_attacked(with_strike(s, strike)), "cb-weapon", f.ob.id, "bomb", f.ob.level)
        return advance(s, g.attack.AttackStands())


@dataclasses.dataclass(frozen=True)
class BombVanishes(Automatic):
    """Bomb ``fighter`` has gone off at everyone: it is gone."""

    KIND: ClassVar[str] = "cb_vanish"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        return advance(put(s, with_fighter(fight, self.fighter, f._replace(state=DEAD, members=(0,)))))


#: the obstacles' automaton's step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (ObstacleAttack, ObstacleTargetPick, WeaponFirepower, ObstacleDefence,
                                      ObstacleDefended, ObstacleBlock, WeaponCheck, BombBlast, BombVanishes)

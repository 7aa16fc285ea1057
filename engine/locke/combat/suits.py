"""What a hit meets before the body (KMC 2.3.2; seed 000 3.1.2-3.1.3): the absorb ball, Nike, the suits.

:func:`suit_steps` picks the steps: the ball (engine/locke/combat/ball.py), Nike's own
durability, the E-suit's reflection check (KMC 11.2 (1), N163), the suit's damage check on its
durability (N5, N208), the P-suit's absorb (a claim each time, broken above its hidden level)
and an obstacle's P-suit of public level (N245). A suit declared without its kind is named at
its first hit (N225). Its own module because the attack path (engine/locke/combat/path.py)
reaches it only once a hit lands.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke import claims as ck
from engine.locke import fate
from engine.locke import planet_cards as pc
from engine.locke.combat import claims as cc
from engine.locke.combat import kept
from engine.locke.combat.actions import Absorb, SuitKind
from engine.locke.combat.ball import BallAbsorbs, BallBreaks, ball_takes, is_nike_attack
from engine.locke.combat.common import (
    as_now, constant, damage_roller, fight_of, gear_left, number, put, wear, whole_or, with_fighter, with_strike,
)
from engine.locke.combat.equip import FightTransformation
from engine.locke.combat.items import claim_item
from engine.locke.combat.model import CARD_SUITS, SUIT, SUITS, Fight, Strike
from engine.locke.components import Character
from engine.locke.damage import resolve_damage
from engine.locke.state import LockeState, advance, claimed, log
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, Then, Waiting, answers


def suit_steps(s: LockeState, target: int) -> tuple[LockeStep, ...]:
    """The steps a hit on a suited fighter ``target`` takes instead of the body ((): no suit in the way)."""
    fight = fight_of(s)
    strike = fight.strike
    f = fight.fighters[target]
    if strike is None:
        return ()
    if f.ball and not is_nike_attack(fight, strike):  # seed 000 3.1.3: the ball stays up
        return (BallAbsorbs(target) if ball_takes(f.ball, strike) else BallBreaks(target),)
    if f.nike_on and f.nike_left > 0:
        return (SuitDamageRoll(target, nike=True),)
    if not f.suit or strike.reflected:
        return ()
    if f.suit == SUIT:  # N225: the kind matters from here on, so its wearer says it first
        return (SuitKindQuestion(f.seat, target),)
    nike = is_nike_attack(fight, strike)
    if f.suit == "energy-suit" and nike:  # KMC 2.3.2: Nike hits the suit with no check; seed 000
        return () if f.suit_card >= 0 else (SuitDamageRoll(target),)  # 3.1.2: not the card's
    if f.suit == "energy-suit":
        declared = reflect_level(fight, strike) is None
        return (ReflectionCheck(target) if declared else ReflectionRoll(target),)
    if f.suit == "powered-suit" and nike:  # KMC 2.3.2: Nike's attack is not absorbed, the body takes it
        return ()
    if f.suit == "powered-suit" and f.seat < 0:  # a random character's, of public level (N245)
        return (ObstacleAbsorb(target),)
    if f.suit == "powered-suit":  # the character's or the face-down card's: its owner answers
        return (AbsorbQuestion(f.seat, target),)
    return (SuitDamageRoll(target),)


@dataclasses.dataclass(frozen=True)
class SuitKindQuestion(SeatDecision):
    """KMC 2.3.2, seed 000 3.1.2 (N225): the first attack to reach fighter ``fighter``'s suit
    declared without its kind; its wearer says the kind, a claim about the character card (it
    carries that suit) or the kept card (it is a suit card of that kind, or a wildcard, fixed to
    the kind from now on), judged when that card opens. The suit then takes the hit as that kind
    does."""

    KIND: ClassVar[str] = "cb_suit_kind"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        """The true kind of the suit (the character's, or the kept card's; a wildcard may still be
        either unless a use has fixed it). Without knowledge: every kind."""
        me = as_now(s, self.seat, me)
        f = fight_of(s).fighters[self.fighter]
        if f.suit_card < 0:
            kinds = [kind for kind in SUITS if (me is None or me.items_of(kind)) and gear_left(s, self.seat, kind) != 0]
        else:
            fixed = dict(s.wild).get(f.suit_card, "")
            card = knowledge.card(f.suit_card) if knowledge is not None else None
            kinds = ([fixed] if fixed in CARD_SUITS else [pc.kind_of(card)] if card and pc.kind_of(card) in CARD_SUITS
                     else [])
        whole = tuple(kind for kind in SUITS if gear_left(s, self.seat, kind) != 0)
        return [SuitKind(self.seat, kind) for kind in kinds or (whole if f.suit_card < 0 else CARD_SUITS)]

    @answers(SuitKind)
    def said(self, g: Rules, s: LockeState, action: SuitKind) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        kinds = SUITS if f.suit_card < 0 else CARD_SUITS
        if action.suit not in kinds:
            raise IllegalAction(f"say which suit it is: one of {', '.join(kinds)}", rule="locke.2.3.2")
        if f.suit_card < 0:
            if gear_left(s, self.seat, action.suit) == 0:
                raise IllegalAction(f"your {action.suit} broke in an earlier combat (KMC 2.3.2): say the suit you wear",
                                    rule="locke.2.3.2")
            s = claim_item(s, self.seat, action.suit)
            f = f._replace(suit=action.suit,
                           suit_left=whole_or(s, self.seat, action.suit, constant(g, action.suit, "durability")))
        else:
            s = kept.claim(s, self.seat, f.suit_card, action.suit)
            wild = tuple((h, action.suit if h == f.suit_card and was == SUIT else was) for h, was in s.wild)
            f = f._replace(suit=action.suit)
            s = s._replace(wild=wild)
        s = put(s, with_fighter(fight_of(s), self.fighter, f))
        s = log(s, "cb-suit-kind", self.seat, action.suit, *(("planet",) if f.suit_card >= 0 else ()))
        return advance(s, *suit_steps(s, self.fighter))


def reflect_level(fight: Fight, strike: Strike) -> int | None:
    """The level an E-suit's reflection check is made at (KMC 11.2 (1)): the ESP level of what
    attacked. A seat attacking with its own ESP (a combat card) declares it (None here); an esper
    or random character's is its public level; a ship, weapon or item attack's is its own level."""
    attacker = fight.fighters[strike.attacker]
    if attacker.seat >= 0 and strike.card and not attacker.thought:
        return None
    if attacker.ob is not None and attacker.ob.cards:
        return int(attacker.ob.level)
    return int(strike.level)


@dataclasses.dataclass(frozen=True)
class ReflectionRoll(Waiting):
    """Fighter ``fighter``'s E-suit against a public level (:func:`reflect_level`): 2d6 at or below
    it passes."""

    KIND: ClassVar[str] = "cb_reflect"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.reflection", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        level = reflect_level(fight_of(s), strike)
        assert level is not None
        return _reflection(g, s, self.fighter, sum(action.faces) <= level)


@dataclasses.dataclass(frozen=True)
class ReflectionCheck(Automatic):
    """Fighter ``fighter``'s E-suit against a seat's own ESP: the attacker declares its level and
    checks it (KMC 11.2 (1), a claim as every level check; ruling N163)."""

    KIND: ClassVar[str] = "cb_reflect_check"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        assert strike is not None
        seat = fight.fighters[strike.attacker].seat
        return advance(fate.check(g, s, seat, stat=fate.CheckStat.LEVEL, then=AfterReflectCheck(self.fighter)))


@dataclasses.dataclass(frozen=True)
class AfterReflectCheck(Then):
    """The E-suit's level check decides the reflection onto fighter ``target``'s suit or back."""

    KIND: ClassVar[str] = "combat.reflect"
    target: int

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if s.combat is None or fight_of(s).strike is None:
            return advance(s)
        return _reflection(g, s, self.target, success)


def _reflection(g: Rules, s: LockeState, target: int, passed: bool) -> LockeState:
    """KMC 2.3.2 E-suit: a passed check hits the suit (the planet card's breaks at once and the
    body is hit, seed 000 3.1.2); a failed one throws the attack back at the attacker. Replaces
    the queue's head (the roll, or the check's end)."""
    strike = fight_of(s).strike
    assert strike is not None
    f = fight_of(s).fighters[target]
    if passed and f.suit_card >= 0:
        s = put(s, with_fighter(fight_of(s), target, f._replace(suit="", suit_card=-1)))
        s = log(log(s, "cb-reflect", f.seat, False), "cb-suit-broken", f.seat, strike.level)
        return advance(s, *kept.broken_steps(f.seat, f.suit_card, "energy-suit"), g.attack.DurabilityQuestion(f.seat),
                       g.attack.DamageRoll())
    if passed:
        return advance(log(s, "cb-reflect", f.seat, False), SuitDamageRoll(target))
    back = strike._replace(attacker=strike.target, target=strike.attacker, reflected=True)
    return advance(log(with_strike(s, back), "cb-reflect", f.seat, True), g.attack.Hit())


@dataclasses.dataclass(frozen=True)
class SuitDamageRoll(Waiting):
    """Fighter ``fighter``'s suit (or its Nike, ``nike``) takes the damage check on its own
    durability; at 0 it is broken (N5: doubles still call the wearer's transformation check). The
    attacker rolls (KMC 10.7.4 (3)), and may re-roll its own dice (N208)."""

    KIND: ClassVar[str] = "cb_suit_damage"
    REROLL: ClassVar[bool] = True
    fighter: int
    nike: bool = False

    def pending(self, g: Rules, s: LockeState) -> Pending:
        strike = fight_of(s).strike
        assert strike is not None
        return Chance("locke.chart.damage", (6, 6) * strike.hits)

    def roller(self, s: LockeState) -> int:
        return damage_roller(s)

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        assert strike is not None
        f = fight.fighters[self.fighter]
        nike = self.nike
        first = f.nike_left if nike else f.suit_left
        left, turned, cells = first, False, []
        for k in range(0, len(action.faces), 2):
            r = resolve_damage(action.faces[k:k + 2], attack=strike.firepower, durability=first)
            left = 0 if r.eliminated else left - r.damage
            turned = turned or r.transformation
            cells.append(r.cell)
        broken = -1
        if f.seat >= 0 and (f.nike_card if nike else f.suit_card) < 0 and (nike or f.suit in SUITS):
            s = wear(s, f.seat, "nike" if nike else f.suit, left)  # KMC 2.3.2: it never recovers
        if nike:
            broken = f.nike_card if left <= 0 else -1
            f = f._replace(nike_left=max(0, left), nike_on=f.nike_on and left > 0,
                           nike_card=-1 if left <= 0 else f.nike_card)
        else:
            f = f._replace(suit=f.suit if left > 0 else "", suit_left=max(0, left))
        s = put(s, with_fighter(fight, self.fighter, f))
        shown = kept.broken_steps(f.seat, broken, "nike") if broken >= 0 else ()  # seed 000 3.1.2: shown, returned
        who = f.seat if f.seat >= 0 else (f.ob.id if f.ob is not None else "")
        s = log(s, "cb-suit-hit", who, "nike" if nike else fight.fighters[self.fighter].suit, cells, first, max(0, left))
        if turned and f.seat >= 0:  # N5: the suit took the hit, the wearer still takes the transformation check
            s = fate.transformation_check(g, s, f.seat, FightTransformation())
        return advance(with_strike(s, None), *shown)


@dataclasses.dataclass(frozen=True)
class AbsorbQuestion(SeatDecision):
    """KMC 2.3.2 P-suit: fighter ``fighter``'s suit absorbs the attack (a claim that its level
    reaches the attack's) or is broken by it (a claim that it does not) and the body takes the hit."""

    KIND: ClassVar[str] = "cb_absorb"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        strike = fight_of(s).strike
        card = fight_of(s).fighters[self.fighter].suit_card
        suit = kept.levels(g, s, self.seat, card, knowledge, as_now(s, self.seat, me), "powered-suit")
        if strike is None:
            return [Absorb(self.seat, True), Absorb(self.seat, False)]
        return [Absorb(self.seat, absorb) for absorb in (True, False)
                if kept.may_fit(suit, lambda top: (top >= strike.level) == absorb)]

    @answers(Absorb)
    def answer(self, g: Rules, s: LockeState, action: Absorb) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        f = fight_of(s).fighters[self.fighter]
        about = (f.suit_card,) if f.suit_card >= 0 else (s.seats[self.seat].character,)
        claim = ck.make(self.seat, s.step_no, cc.PSUIT, about, [strike.level, action.absorb], "locke.2.3.2")
        s = s._replace(**claimed(s, claim))
        if action.absorb:
            return advance(log(with_strike(s, None), "cb-suit-absorbs", self.seat, strike.level))
        s = put(s, with_fighter(fight_of(s), self.fighter, f._replace(suit="", suit_card=-1)))
        s = log(s, "cb-suit-broken", self.seat, strike.level)
        s = wear(s, self.seat, "powered-suit", 0) if f.suit_card < 0 else s  # KMC 2.3.2: gone for good
        shown = kept.broken_steps(self.seat, f.suit_card, "powered-suit") if f.suit_card >= 0 else ()  # seed 000 3.1.2
        return advance(s, *shown, g.attack.DurabilityQuestion(self.seat), g.attack.DamageRoll())


@dataclasses.dataclass(frozen=True)
class ObstacleAbsorb(Automatic):
    """The P-suit of obstacle ``fighter``, of public level: absorbs an attack at or below it,
    else it breaks and the character takes the hit (KMC 2.3.2)."""

    KIND: ClassVar[str] = "cb_ob_absorb"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        f = fight.fighters[self.fighter]
        assert strike is not None and f.ob is not None
        if strike.level <= number(f.ob, "powered-suit"):
            return advance(log(with_strike(s, None), "cb-suit-absorbs", f.ob.id, strike.level))
        s = put(s, with_fighter(fight, self.fighter, f._replace(suit="")))
        return advance(log(s, "cb-suit-broken", f.ob.id, strike.level), g.attack.DamageRoll())


#: the suits step kinds (engine/locke/registry.py, the combat family)
STEPS: tuple[type[LockeStep], ...] = (
    SuitKindQuestion, ReflectionRoll, ReflectionCheck, SuitDamageRoll, AbsorbQuestion, ObstacleAbsorb,
)

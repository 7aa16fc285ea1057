"""What a turn does, and the way an attack travels (KMC 10.4-10.9, fig. 10.2, ch. 5).

A seat's turn (:class:`TurnAction`) holds one normal action: attack, flee by
teleport, an illusion, a contact telepathy; the special actions
(engine/locke/combat/specials.py) come before or after it, the decision coming back
after each (turn_cards.py ``TurnGoesOn``, N235) until a pass. An attack then runs the
steps of fig. 10.2, each a step in the queue:

    AttackStands       the attack stands (after any mind checks that stretch its level)
    SyncQuestion*      seats whose turn has not come may sync (KMC 10.8.1)
    HenchmanSync       the attacker's henchmen may sync at level 2 or less (KMC 10.8)
    EscapePhase        the target may escape (:class:`EscapeDecision`): teleport (then
                       blocks, KMC 10.9) or illusion
    DefencePhase       the target may defend (:class:`DefenceDecision`) with a defence card
                       (not against a light sword)
    Hit                the target declares its durability (a claim), the damage dice roll

Every card played is a claim (the handle holds that card; the character's
level and power cover the level it uses); a card whose level is above what
the character can use needs mind checks (:class:`MindChecks`), each of which
must succeed, or the card is spent for nothing (KMC 10.5.1): the step that
carries the play on (a :class:`PlayGoesOn`) is then told it failed.

The three decisions a controller may order (KMC 4, engine/locke/control.py) are
:class:`TurnAction`, :class:`EscapeDecision` and :class:`DefenceDecision`; their item,
E-buster and disintegration answers are those modules' (specials.py, escapes.py,
ebuster.py, disintegration.py), their honest options engine/locke/combat/options.py's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import CardsRevealed, Chance, DiceRolled, HiddenOp, Pending
from engine.locke import claims as ck
from engine.locke import board, fate
from engine.locke.setup import CharacterShown
from engine.locke.actions import Land, Nop
from engine.locke.checks import MIN_MIND_DECLARATION
from engine.locke.combat import (
    auto, breakage, disintegration, ebuster, equip, escapes, items, jammer, options, specials, suits, turn_cards,
)
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Disintegrate, Durability, EBuster, Play, Sleep, UseItem
from engine.locke.combat.common import (
    HIT_ALL,
    active,
    alert,
    as_now,
    card_fits,
    damage_roller,
    effective,
    fight_of,
    forest_due,
    henchmen_of,
    is_illusion,
    is_light_sword,
    jam_asks,
    jam_floor,
    mark_attacked,
    obstacle_jam,
    player,
    put,
    seat_index,
    sleepers,
    targets,
    with_fighter,
    with_strike,
)
from engine.locke.combat.model import ASLEEP, DEAD, DECK, ESCAPED, Fight, Strike
from engine.locke.components import Character, CombatCard
from engine.locke.damage import resolve_damage
from engine.locke.state import NO_SEAT, LockeState, advance, claimed, log, with_seat
from engine.locke.steps import Automatic, LockeStep, Ordered, Rules, SeatDecision, Waiting, answers

RULES = {
    "attack": "locke.10.6", "sync": "locke.10.8", "hench": "locke.10.8", "escape": "locke.10.7.2",
    "defend": "locke.10.7.3", "block": "locke.10.9", "flee": "locke.10.4.1", "illusion": "locke.5.3.2",
    "telepathy": "locke.5.4",
}


def _s(s: LockeState) -> Strike:
    strike = fight_of(s).strike
    assert strike is not None
    return strike


def play(g: Rules, s: LockeState, index: int, action: Play, uses: tuple[str, ...],
         step: LockeStep | None = None, drop: int = 1) -> tuple[LockeState, CombatCard, tuple[LockeStep, ...]]:
    """Check a seat's card play and spend the card: the new state, the card it counts
    as, and the mind-check step to run first (if the level is stretched). ``step``: the step
    the card is played in (it comes back if a jammer stops the card); ``drop``: how many
    steps the caller queues after these to carry the play on (a jammer's stop takes them back).
    Raises IllegalAction and changes nothing when the play does not fit."""
    fight = fight_of(s)
    f = fight.fighters[index]
    rule = RULES.get(action.use, "locke.10")
    if action.use not in uses:
        raise IllegalAction(f"here you may {' or '.join(uses)} with a card, or pass", rule=rule)
    if action.handle not in f.hand:
        raise IllegalAction("play one of the combat cards in your own hand", rule="locke.10.4.1")
    if action.planet != -1 and action.use != "telepathy":
        raise IllegalAction("only contact telepathy goes with an industrial district card", rule="locke.s000.3.2.4")
    card = effective(g, action.card, action.acts_as)
    why = card_fits(card, action.use, fight.strike)
    if why:
        raise IllegalAction(why, rule=rule)
    if f.nike_on and action.use != "block":
        raise IllegalAction("while you use Nike only teleport blocks take combat cards", rule="locke.2.3.2")
    if card.type != "contact-telepathy" and card.level <= jam_floor(fight, f):
        raise IllegalAction(f"the jammer on you is known to reach level {f.jam_known}: only cards above it "
                            "can work", rule="locke.10.10")
    jammed, jammed_escape = obstacle_jam(fight, f), obstacle_jam(fight, f, escape=True)
    if card.type != "contact-telepathy" and card.level <= jammed:
        raise IllegalAction(f"an ESP jammer of level {jammed} is on you: only cards above it work "
                            "(contact telepathy ignores jammers)", rule="locke.10.10")
    if action.use in ("escape", "flee") and card.level <= jammed_escape:
        raise IllegalAction(f"a jammer of level {jammed_escape} on you stops escape cards at or below it",
                            rule="locke.s002.trap.13")
    free = action.use == "hench" or card.type == "contact-telepathy"
    if action.field and (free or not f.field or action.stretch):
        raise IllegalAction("only a declared ESP field pays for a card, and without mind checks", rule="locke.2.3.2")
    if action.field and f.ball_out:
        raise IllegalAction("knocked out by an absorb ball, your ESP field has stopped until you wake",
                            rule="locke.s000.3.1.3")
    if free and (action.stretch or action.mind):
        raise IllegalAction("this card costs no power and needs no mind checks", rule="locke.10.5.2")
    if not 0 <= action.stretch <= card.level:
        raise IllegalAction(f"stretch 0..{card.level} levels with mind checks", rule="locke.10.5.1")
    if action.stretch and action.mind < MIN_MIND_DECLARATION:
        raise IllegalAction(f"declare a mind of {MIN_MIND_DECLARATION} or more for the mind checks", rule="locke.10.5.1")
    if not action.stretch and action.mind:
        raise IllegalAction("declare a mind only when you stretch the level", rule="locke.10.5.1")
    own = 0 if free or action.field else card.level - action.stretch
    ask: tuple[LockeStep, ...] = ()
    before = fight
    if jam_asks(fight, f, card) and step is not None and action.use != "hench":
        ask = (jammer.jam_question(f, index, card.level, drop, step),)
    seat = f.seat
    character = s.seats[seat].character
    claims = [ck.make(seat, s.step_no, cc.CARD, (action.handle,), action.card, "locke.5")]
    if action.field and card.level:  # the field's hidden level reaches the card's (the character's or the card's)
        about = (f.field_card,) if f.field_card >= 0 else (character,)
        claims.append(ck.make(seat, s.step_no, cc.FIELD, about, card.level, "locke.2.3.2"))
        fight = breakage.learn(fight, index, "esp-field", f.field_card, card.level, True)
        f = fight.fighters[index]
    if action.stretch:  # KMC 10.5.1: the mind checks make up the shortfall only, so the own part is exact
        claims.append(ck.make(seat, s.step_no, cc.STRETCH, (character,), _ledger(s, seat, [own, f.spent]),
                              "locke.10.5.1"))
    elif own > 0:
        claims.append(ck.make(seat, s.step_no, cc.USE, (character,), _ledger(s, seat, [own, f.spent]), "locke.10.5.2"))
    if action.stretch:
        claims.append(fate.stat_claim(s, seat, "mind", "le", action.mind, "locke.10.5.1"))
    f = f._replace(hand=tuple(h for h in f.hand if h != action.handle), spent=f.spent + own)
    fight = forest_due(s, with_fighter(fight, index, f)._replace(used=fight.used + (action.handle,)), index,
                       card.level if action.use != "hench" else 0)
    if ask:
        fight = fight._replace(before=before)
    s = put(s._replace(**claimed(s, *claims)), fight)
    s = log(s, "cb-play", seat, action.card, card.id, action.use, action.target)
    mind: tuple[LockeStep, ...] = (MindChecks(seat, action.stretch, action.mind),) if action.stretch else ()
    shown = (PlayedCard(seat, action.handle),)  # KMC 10.4: a played card lies face up
    return s, card, shown + mind + ask  # face up, its mind checks, then the jammer's owner answers


def _ledger(s: LockeState, seat: int, declared: Any) -> list[Any]:
    """A stat claim's value with the seat's public changes (engine/locke/combat/claims.py)."""
    p = s.seats[seat]
    return cc.stat_value(p.mods, p.proofs, declared)


@dataclasses.dataclass(frozen=True)
class PlayedCard(Waiting):
    """A played card ``handle`` of ``seat`` is turned face up for everyone (KMC 10.4; ruling
    N171): the claim that the handle holds the card named is judged from the public record
    from now on."""

    KIND: ClassVar[str] = "cb_played"
    seat: int
    handle: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", DECK, (self.handle,))

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        return advance(s._replace(open_cards=s.open_cards + tuple(zip(action.handles, action.cards))))


@dataclasses.dataclass(frozen=True)
class PlayGoesOn(Automatic):
    """A step that carries a card play on once its mind checks are made: ``ok`` False when one
    failed (KMC 10.5.1: the card is spent for nothing)."""

    ok: bool = dataclasses.field(default=True, kw_only=True)


# --- the resonance-tree forest (seed 002 trap 4; ruling N187) ---------------------------------------


def forest_steps(s: LockeState) -> tuple[LockeState, tuple[LockeStep, ...]]:
    """The forest's self-damage checks still due (taken before the next turn, and after the last)."""
    fight = fight_of(s)
    if not fight.forest:
        return s, ()
    steps = tuple(ForestDamage(i, level) for i, level in fight.forest)
    return put(s, fight._replace(forest=())), steps


@dataclasses.dataclass(frozen=True)
class ForestDamage(Automatic):
    """Fighter ``fighter`` used a card of ``level`` in the forest: its own damage check, straight to
    the body, a direct hit of its own (seed 002)."""

    KIND: ClassVar[str] = "cb_forest"
    fighter: int
    level: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        if not active(fight, self.fighter):
            return advance(s)
        f = fight.fighters[self.fighter]
        strike = Strike(self.fighter, self.fighter, "", 0, self.level, escape_tried=True, direct=True)
        s = log(with_strike(s, strike), "cb-forest", f.seat if f.seat >= 0 else (f.ob.id if f.ob else ""), self.level)
        return advance(s, Hit())


# --- stretching the level with mind checks (KMC 10.5.1) -------------------------------------


@dataclasses.dataclass(frozen=True)
class MindChecks(Waiting):
    """``seat``'s ``count`` mind checks against its declared ``mind`` for a stretched card: all
    must pass; one failure and the card is spent for nothing (the next step, the play's
    :class:`PlayGoesOn`, is told it failed). The seat's own dice: it may re-roll them (N208)."""

    KIND: ClassVar[str] = "cb_mind"
    REROLL: ClassVar[bool] = True
    seat: int
    count: int
    mind: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.mind", (6, 6) * self.count)

    def roller(self, s: LockeState) -> int:
        return self.seat

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        totals = [action.faces[2 * k] + action.faces[2 * k + 1] for k in range(self.count)]
        ok = all(t <= self.mind for t in totals)
        s = log(s, "cb-stretch", self.seat, self.count, self.mind, totals, ok)
        if ok:
            return advance(s)
        nxt, rest = s.queue[1], s.queue[2:]
        if isinstance(nxt, jammer.JammerQuestion):  # KMC 10.10: a try that failed; the jammer's owner passes it over in silence
            s = put(s, fight_of(s)._replace(before=None))
            nxt, rest = rest[0], rest[1:]
        if not isinstance(nxt, PlayGoesOn):
            raise IllegalAction(f"a stretched card is carried on by {nxt!r} (an engine fault)", rule="locke.guard")
        return s._replace(queue=(dataclasses.replace(nxt, ok=False),) + rest)


# --- a seat's own turn (KMC 10.4) -----------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TurnAction(Ordered):
    """Fighter ``fighter``'s turn decision (KMC 10.4): its normal action, a special action or a
    free option (the decision comes back after each, N235), or a pass; a controller may order
    it (KMC 4)."""

    KIND: ClassVar[str] = "cb_act"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return options.turn(g, s, self.seat, self.fighter, as_now(s, self.seat, me), knowledge)

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(log(s, "cb-pass", self.seat))

    @answers(Play)
    def plays(self, g: Rules, s: LockeState, action: Play) -> LockeState:
        fight = fight_of(s)
        me = self.fighter
        if fight.fighters[me].acted:
            raise IllegalAction("you synced an attack this round: your turn has no normal action left, only "
                                "special attacks and free options (or pass)", rule="locke.10.4.1")
        if action.use in ("attack", "telepathy"):
            aims = targets(s, fight, me)
            if action.use == "telepathy":
                aims = tuple(j for j in aims if fight.fighters[j].seat >= 0)
            if action.target not in aims:
                raise IllegalAction(f"pick a target among fighters {list(aims)} (not your party; "
                                    "only those with your silhouette when one is here)", rule=RULES[action.use])
        elif action.target != -1:
            raise IllegalAction("this use takes no target (-1)", rule=RULES.get(action.use, "locke.10"))
        if action.use == "illusion" and not sleepers(s, fight, me):
            raise IllegalAction("nobody here can fall asleep: the illusion cannot be used", rule="locke.5.3.2")
        if action.use == "telepathy":
            accepted = fate.check_range(g, s, self.seat, "level")  # the public ledger's bound (N222), not 7
            if action.planet < 0 and action.level not in accepted:  # an industrial district's level is its own
                raise IllegalAction(f"declare an ESP level {accepted.start}..{accepted.stop - 1} for the level "
                                    "check", rule="locke.5.4")
        elif action.level:
            raise IllegalAction("declare a level only for contact telepathy", rule="locke.5.4")
        industrial: tuple[LockeStep, ...] = ()
        if action.planet >= 0:  # seed 000 3.2.4: the industrial district makes the check at level 6
            industrial = turn_cards.industrial(g, s, self.seat, action)
        elif action.planet != -1:
            raise IllegalAction("name a kept industrial district card, or none (-1)", rule="locke.s000.3.2.4")
        s, card, mind = play(g, s, me, action, ("attack", "flee", "illusion", "telepathy"), self, drop=2)
        fight = fight_of(s)
        f = fight.fighters[me]
        s = put(s, with_fighter(fight, me, f._replace(acted=True)))
        rest = turn_cards.turn_on(self.seat, me)  # KMC 10.4: special actions may follow the normal action (N235)
        if action.use == "attack":
            strike = Strike(me, action.target, card.id, card.level, card.firepower, light_sword=is_light_sword(card),
                            field=action.field)
            s = mark_attacked(with_strike(s, strike))
            return advance(s, *mind, AttackStands(), rest)
        if action.use == "flee":
            s = with_strike(s, Strike(me, -1, card.id, 0, 0, escaper=me, escape_level=card.level, escape_tried=True))
            return advance(s, *mind, EscapeStands(me), rest)
        if action.use == "illusion":
            return advance(s, *mind, Illusion(me, card.level), rest)
        if industrial:
            s = turn_cards.claim_industrial(s, self.seat, action)
        elif action.level:
            claim = ck.make(self.seat, s.step_no, cc.TELEPATHY, (s.seats[self.seat].character,),
                            _ledger(s, self.seat, action.level), "locke.5.4")
            s = s._replace(**claimed(s, claim))
        return advance(s, *industrial, *mind, TelepathyRoll(self.seat, action.target, action.level), rest)

    @answers(UseItem)
    def uses_item(self, g: Rules, s: LockeState, action: UseItem) -> LockeState:
        return specials.special(g, s, self.seat, self.fighter, action)

    @answers(EBuster)
    def answers_ebuster(self, g: Rules, s: LockeState, action: EBuster) -> LockeState:
        return ebuster.on_option(g, s, self.seat, self.fighter, action, in_turn=True)


# --- the attack stands: syncs (KMC 10.8) --------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class AttackStands(PlayGoesOn):
    """The attack in flight stands: the seats whose turn has not come may sync it, the attacker's
    henchmen too (KMC 10.8), then the disintegration and escape phases (fig. 10.2)."""

    KIND: ClassVar[str] = "cb_strike"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = fight_of(s).strike
        if strike is None:
            return advance(s)
        if not self.ok:
            return advance(log(with_strike(s, None), "cb-fizzle", strike.attacker, strike.card))
        fight = fight_of(s)
        attacker = fight.fighters[strike.attacker]
        steps: list[LockeStep] = []
        syncable = strike.card != "" and not strike.light_sword
        if syncable:
            target_party = fight.fighters[strike.target].party
            for j in fight.order or range(len(fight.fighters)):
                f = fight.fighters[j]
                if (player(f) and j not in (strike.attacker, strike.target) and alert(fight, j) and not f.done
                        and not f.acted and f.party != target_party):
                    steps.append(SyncQuestion(f.seat, j))
            if attacker.seat >= 0 and not attacker.thought:
                steps += henchman_syncs(attacker.seat, attacker.henchmen)
        # KMC fig. 10.2: Jessica's disintegration phase comes before the escape phase (card attacks only)
        phase = (disintegration.DisintegrationPhase(),) if strike.card and not strike.direct else ()
        return advance(s, *steps, *phase, EscapePhase())


@dataclasses.dataclass(frozen=True)
class SyncQuestion(SeatDecision):
    """Fighter ``fighter`` may sync the attack in flight with a card (KMC 10.8.1)."""

    KIND: ClassVar[str] = "cb_sync"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return options.answers("sync", g, s, self.seat, self.fighter, as_now(s, self.seat, me), knowledge)

    @answers(Play)
    def syncs(self, g: Rules, s: LockeState, action: Play) -> LockeState:
        if action.target != -1 or action.level:
            raise IllegalAction("a sync names no target and no level", rule="locke.10.8")
        s, card, mind = play(g, s, self.fighter, action, ("sync",), self)
        fight = fight_of(s)
        s = put(s, with_fighter(fight, self.fighter, fight.fighters[self.fighter]._replace(acted=True)))
        return advance(s, *mind, Synced(self.fighter, card.firepower))

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


@dataclasses.dataclass(frozen=True)
class Synced(PlayGoesOn):
    """Fighter ``fighter``'s sync adds a level and its card's ``firepower`` to the attack."""

    KIND: ClassVar[str] = "cb_synced"
    fighter: int
    firepower: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = fight_of(s).strike
        if strike is None or not self.ok:
            return advance(s)
        strike = strike._replace(level=strike.level + 1, firepower=strike.firepower + self.firepower,
                                 syncers=strike.syncers + (self.fighter,),
                                 sync_power=strike.sync_power + (self.firepower,))
        seat = fight_of(s).fighters[self.fighter].seat
        return advance(log(with_strike(s, strike), "cb-sync", seat, strike.level, strike.firepower))


def henchman_syncs(seat: int, declared: int, escape: bool = False) -> tuple["HenchmanSync", ...]:
    """The henchmen's sync questions for ``seat``'s attack or escape (KMC 10.8): those it declared
    (``declared``), then the character card's henchmen it did not declare, which may sync all the
    same (KMC 10.3.1 note 2: only their extra card is lost). Every seat gets the second question,
    so being asked gives nothing away; answering it with a card is a claim about the card."""
    asked = (HenchmanSync(seat, declared, escape),) if declared else ()
    return asked + (UndeclaredHenchmen(seat, items.MAX_HENCHMEN, escape, undeclared=True),)


@dataclasses.dataclass(frozen=True)
class HenchmanSync(SeatDecision):
    """KMC 10.8: ``seat``'s henchmen (``left`` still to ask) may sync its attack, or its escape
    teleport (``escape``), at level 2 or less, for free. ``undeclared``: the character card's
    henchmen not declared before the initiative (KMC 10.3.1 note 2), each sync a claim that the
    card has one more henchman than the seat declared and used so far."""

    KIND: ClassVar[str] = "cb_hench"
    left: int
    escape: bool = False
    undeclared: bool = False

    def _used(self, s: LockeState) -> int:
        """Henchmen of the character card this question already counts: declared, then synced undeclared."""
        f = fight_of(s).fighters[seat_index(fight_of(s), self.seat)]
        return f.own_henchmen + items.MAX_HENCHMEN - self.left

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        index = seat_index(fight_of(s), self.seat)
        if self.undeclared and me is not None and self._used(s) >= henchmen_of(me):
            return [Nop(self.seat)]
        return options.answers("hench", g, s, self.seat, index, as_now(s, self.seat, me), knowledge)

    @answers(Play)
    def syncs(self, g: Rules, s: LockeState, action: Play) -> LockeState:
        fight = fight_of(s)
        me = seat_index(fight, self.seat)
        strike = _s(s)
        if self.undeclared:
            s = items.claim_item(s, self.seat, "henchman", self._used(s) + 1)
        s, card, shown = play(g, s, me, action, ("hench",))
        if self.escape:
            strike = strike._replace(escape_level=strike.escape_level + 1, hench_escape=strike.hench_escape + 1)
            s = log(with_strike(s, strike), "cb-sync", self.seat, "henchman-teleport", strike.escape_level)
        else:
            strike = strike._replace(level=strike.level + 1, firepower=strike.firepower + card.firepower,
                                     hench_level=strike.hench_level + 1)
            s = log(with_strike(s, strike), "cb-sync", self.seat, "henchman", strike.level, strike.firepower)
        more = (dataclasses.replace(self, left=self.left - 1),) if self.left > 1 else ()
        return advance(s, *shown, *more)

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


@dataclasses.dataclass(frozen=True)
class UndeclaredHenchmen(HenchmanSync):
    """KMC 10.3.1 note 2: the character card's henchmen the seat did not declare may sync its
    attack or escape all the same (``undeclared`` is always set); a question of its own so that
    a table may tell it from the declared henchmen's."""

    KIND: ClassVar[str] = "cb_hench_more"


# --- escape phase (KMC 10.7.2) and teleport blocks (KMC 10.9) ---------------------------------


@dataclasses.dataclass(frozen=True)
class EscapePhase(Automatic):
    """KMC 10.7.2: the target may escape; obstacles never do (KMC 10.12.2 (5)), nor does a
    knocked-out fighter (N162)."""

    KIND: ClassVar[str] = "cb_escape_phase"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = fight_of(s).strike
        if strike is None:
            return advance(s)
        fight = fight_of(s)
        target = fight.fighters[strike.target]
        if not active(fight, strike.target):
            return advance(with_strike(s, None))
        if target.seat >= 0 and alert(fight, strike.target):
            return advance(s, EscapeDecision(target.seat, strike.target), DefencePhase())
        return advance(s, DefencePhase())


@dataclasses.dataclass(frozen=True)
class EscapeDecision(Ordered):
    """The target ``fighter`` may escape the attack: a teleport or illusion card, an item, or its
    own disintegration (N180); a controller may order it (KMC 4)."""

    KIND: ClassVar[str] = "cb_escape"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return options.answers("escape", g, s, self.seat, self.fighter, as_now(s, self.seat, me), knowledge)

    @answers(Play)
    def escapes(self, g: Rules, s: LockeState, action: Play) -> LockeState:
        if action.target != -1 or action.level:
            raise IllegalAction("an escape names no target and no level", rule="locke.10.7.2")
        card = effective(g, action.card, action.acts_as)
        if is_illusion(card) and not sleepers(s, fight_of(s), self.fighter):
            raise IllegalAction("nobody here can fall asleep: the illusion cannot be used", rule="locke.5.3.2")
        s, card, mind = play(g, s, self.fighter, action, ("escape",), self)
        strike = _s(s)._replace(escape_tried=True)
        if is_illusion(card):
            return advance(with_strike(s, strike), *mind, Illusion(self.fighter, card.level))
        strike = strike._replace(escaper=self.fighter, escape_level=card.level)
        return advance(with_strike(s, strike), *mind, EscapeStands(self.fighter))

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)

    @answers(UseItem)
    def uses_item(self, g: Rules, s: LockeState, action: UseItem) -> LockeState:
        return escapes.answer_item(g, s, self.seat, self.fighter, action, items.ESCAPES)

    @answers(Disintegrate)
    def disintegrates(self, g: Rules, s: LockeState, action: Disintegrate) -> LockeState:
        return disintegration.disintegrate(g, s, self.seat, action, escape=self)


@dataclasses.dataclass(frozen=True)
class EscapeStands(PlayGoesOn):
    """Fighter ``fighter``'s escape teleport stands: its henchmen may sync it, then anyone else
    may block (KMC 10.8, 10.9)."""

    KIND: ClassVar[str] = "cb_escaped"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = _s(s)
        if not self.ok:
            s = with_strike(s, strike._replace(escaper=-1) if strike.target >= 0 else None)
            return advance(log(s, "cb-escape-failed", fight_of(s).fighters[self.fighter].seat, "mind"))
        fight = fight_of(s)
        me = fight.fighters[self.fighter]
        steps: list[LockeStep] = []
        if me.seat >= 0 and not me.thought:
            steps += henchman_syncs(me.seat, me.henchmen, escape=True)
        for j in fight.order or range(len(fight.fighters)):
            f = fight.fighters[j]
            if j == self.fighter or not alert(fight, j) or f.thought:  # the knocked-out block nothing (N162)
                continue
            if f.seat >= 0:
                steps.append(BlockQuestion(f.seat, j))
            elif f.ob is not None and f.ob.cards:
                steps.append(auto.ObstacleBlock(j))
        return advance(s, *steps, BlockEnd(self.fighter))


@dataclasses.dataclass(frozen=True)
class BlockQuestion(SeatDecision):
    """Fighter ``fighter`` may block the escape teleport, or sync a block (KMC 10.9, 10.8.4)."""

    KIND: ClassVar[str] = "cb_block"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return options.answers("block", g, s, self.seat, self.fighter, as_now(s, self.seat, me), knowledge)

    @answers(Play)
    def blocks(self, g: Rules, s: LockeState, action: Play) -> LockeState:
        if action.target != -1 or action.level:
            raise IllegalAction("a block names no target and no level", rule="locke.10.9")
        strike = _s(s)
        card = effective(g, action.card, action.acts_as)
        if strike.block_base and card.level > strike.block_base:
            raise IllegalAction(f"a block stands at level {strike.block_base}: sync it with a teleport of that "
                                "level or less (KMC 10.8.4)", rule="locke.10.8.4")
        own = card.level - action.stretch
        s, card, mind = play(g, s, self.fighter, action, ("block",), self)
        return advance(s, *mind, BlockStands(self.fighter, card.level, action.handle, own))

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


def add_block(s: LockeState, index: int, level: int, handle: int, own: int) -> LockeState:
    strike = _s(s)
    base = strike.block_base or level
    strike = strike._replace(block_base=base, blockers=strike.blockers + (index,),
                             block_refunds=strike.block_refunds + ((index, handle, own),))
    f = fight_of(s).fighters[index]
    return log(with_strike(s, strike), "cb-block-try", f.seat, level, base + len(strike.blockers) - 1)


@dataclasses.dataclass(frozen=True)
class BlockStands(PlayGoesOn):
    """Fighter ``fighter``'s block of ``level`` stands (card ``handle``, ``own`` power paid, given
    back if the block falls short, N146)."""

    KIND: ClassVar[str] = "cb_blocked"
    fighter: int
    level: int
    handle: int
    own: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not self.ok:
            return advance(s)
        return advance(add_block(s, self.fighter, self.level, self.handle, self.own))


@dataclasses.dataclass(frozen=True)
class BlockEnd(Automatic):
    """KMC 10.9: a block above the teleport's level stops escaper ``fighter`` (each sync adds a
    level). A block that falls short gives its cards and power back (ruling N146)."""

    KIND: ClassVar[str] = "cb_block_end"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = _s(s)
        fight = fight_of(s)
        escaper = fight.fighters[self.fighter]
        total = strike.block_base + max(0, len(strike.blockers) - 1) if strike.blockers else 0
        if strike.blockers and total > strike.escape_level:
            s = log(s, "cb-block", escaper.seat, strike.escape_level, total,
                    [fight.fighters[j].seat for j in strike.blockers])
            return advance(with_strike(s, strike._replace(escaper=-1) if strike.target >= 0 else None))
        for j, handle, own in strike.block_refunds:
            f = fight.fighters[j]
            used = tuple(h for h in fight.used if h != handle)
            face: tuple[str, ...] = ()
            if f.seat < 0:
                face = (dict(s.open_cards).get(handle, ""),)
            fight = with_fighter(fight, j, f._replace(hand=f.hand + (handle,), faces=f.faces + face,
                                                      spent=f.spent - own))
            fight = fight._replace(used=used)
        s = put(s, fight._replace(strike=None))
        if strike.blockers:
            s = log(s, "cb-block-short", escaper.seat, strike.escape_level, total)
        return away(s, escaper.seat, self.fighter)


def away(s: LockeState, seat: int, index: int) -> LockeState:
    """The escape stands: the escaper rolls how far it goes (KMC 10.7.2), or, where the rules
    let an escape only avoid the attack (``Fight.stay``), stays where it is."""
    if fight_of(s).stay:
        return advance(log(s, "cb-evaded", seat))
    return advance(s, FleeRoll(seat, index))


@dataclasses.dataclass(frozen=True)
class FleeRoll(Waiting):
    """KMC 10.7.2: escaper ``seat`` (fighter ``fighter``) moves 1d6 like a level teleport and waits
    for the combat's end. The seat's own die: it may re-roll it (N208)."""

    KIND: ClassVar[str] = "cb_flee_roll"
    REROLL: ClassVar[bool] = True
    seat: int
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.escape", (6,))

    def roller(self, s: LockeState) -> int:
        return self.seat

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        distance = action.faces[0]
        place = s.seats[self.seat].place
        s = gone(s, self.fighter, ESCAPED)
        # off the board, or a prisoner in its prison combat (ruling N257: out of the fight, not of
        # prison, its piece stays on its arrest card): no move
        if place and s.seats[self.seat].status != "arrested" and board.teleport_targets(place, distance):
            return advance(s, EscapeLanding(self.seat, distance))
        return advance(log(s, "cb-escape", self.seat, place))


@dataclasses.dataclass(frozen=True)
class EscapeLanding(SeatDecision):
    """The escaper picks the cell its escape of ``distance`` ends on (KMC 10.7.2)."""

    KIND: ClassVar[str] = "cb_land"
    distance: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Land(self.seat, cell) for cell in board.teleport_targets(s.seats[self.seat].place, self.distance)]

    @answers(Land)
    def lands(self, g: Rules, s: LockeState, action: Land) -> LockeState:
        place = s.seats[self.seat].place
        cells = board.teleport_targets(place, self.distance)
        if action.to not in cells:
            raise IllegalAction(f"an escape of {self.distance} from {place} ends on one of {list(cells)}",
                                rule="locke.10.7.2")
        s = s._replace(seats=with_seat(s, self.seat, s.seats[self.seat]._replace(place=action.to)))
        return advance(log(s, "cb-escape", self.seat, action.to))


def gone(s: LockeState, index: int, state: str) -> LockeState:
    """A fighter leaves the fight (escaped or asleep); an escaping seat leaves its party (ruling N147).
    A prisoner escaping its prison combat leaves the fight, not the prison (ruling N257)."""
    fight = fight_of(s)
    f = fight.fighters[index]
    fight = with_fighter(fight, index, f._replace(state=state))
    if state == ESCAPED and f.seat >= 0:
        fight = fight._replace(escapers=fight.escapers + (f.seat,))
        seats = list(s.seats)
        me = seats[f.seat]
        seats[f.seat] = me._replace(leader=NO_SEAT, status="arrested" if me.status == "arrested" else "normal")
        for i, p in enumerate(seats):
            if p.leader == f.seat:
                seats[i] = p._replace(leader=NO_SEAT, status="normal")
        s = s._replace(seats=tuple(seats))
    return put(s, fight)


# --- illusion (KMC 5.3.2, table 5.4) -----------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Illusion(PlayGoesOn):
    """Fighter ``fighter``'s illusion of ``level`` stands: everyone it can put to sleep faces it."""

    KIND: ClassVar[str] = "cb_illusion"
    fighter: int
    level: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not self.ok:
            return advance(log(s, "cb-illusion-failed", fight_of(s).fighters[self.fighter].seat))
        fight = fight_of(s)
        if not sleepers(s, fight, self.fighter):
            return advance(s, IllusionEnd(self.fighter))
        return advance(s, IllusionRoll(self.fighter, self.level), IllusionEnd(self.fighter))


@dataclasses.dataclass(frozen=True)
class IllusionRoll(Waiting):
    """Each one fighter ``fighter``'s illusion of ``level`` can put to sleep faces level + 2d6
    against its level + mind: above it sleeps; at or below it chooses (a seat's choice to stay
    awake is a claim)."""

    KIND: ClassVar[str] = "cb_illusion_roll"
    fighter: int
    level: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.illusion", (6, 6) * len(sleepers(s, fight_of(s), self.fighter)))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        fight = fight_of(s)
        asks: list[LockeStep] = []
        for k, j in enumerate(sleepers(s, fight, self.fighter)):
            total = self.level + action.faces[2 * k] + action.faces[2 * k + 1]
            f = fight_of(s).fighters[j]
            if f.seat >= 0:
                asks.append(SleepQuestion(f.seat, j, total))
                continue
            assert f.ob is not None
            resist = f.ob.level + f.ob.mind
            if total > resist:
                s = log(gone(s, j, ASLEEP), "cb-asleep", -1, f.ob.id, total)
        return advance(s, *asks)


@dataclasses.dataclass(frozen=True)
class SleepQuestion(SeatDecision):
    """Fighter ``fighter`` falls asleep under an illusion ``total``, or stays awake (a claim that
    its level + mind reach it; KMC 5.3.2, table 5.4)."""

    KIND: ClassVar[str] = "cb_sleep"
    fighter: int
    total: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        me = as_now(s, self.seat, me)
        if me is not None and self.total > me.level + me.mind:
            return [Sleep(self.seat, True)]
        return [Sleep(self.seat, True), Sleep(self.seat, False)]

    @answers(Sleep)
    def answer(self, g: Rules, s: LockeState, action: Sleep) -> LockeState:
        if action.sleep:
            return advance(log(gone(s, self.fighter, ASLEEP), "cb-asleep", self.seat, "", self.total))
        claim = ck.make(self.seat, s.step_no, cc.AWAKE, (s.seats[self.seat].character,),
                        _ledger(s, self.seat, self.total), "locke.5.3.2")
        return advance(log(s._replace(**claimed(s, claim)), "cb-awake", self.seat, self.total))


@dataclasses.dataclass(frozen=True)
class IllusionEnd(Automatic):
    """KMC 5.3.2: a sleeping attacker's attack is gone; sleeping syncers' shares drop; when every
    enemy and everyone else able to act sleeps the user (``fighter``) escapes (knocked-out seats
    do not count, N237; knocked-out obstacles do)."""

    KIND: ClassVar[str] = "cb_illusion_end"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        user = fight.fighters[self.fighter]
        awake = tuple(j for j, f in enumerate(fight.fighters)  # every enemy, the players able to act (KMC 5.3.2)
                      if j != self.fighter and (alert(fight, j) if f.seat >= 0 else active(fight, j)))
        if strike is not None and strike.target == self.fighter:
            if not active(fight, strike.attacker):
                s = log(with_strike(s, None), "cb-illusion-stops", user.seat)
            else:
                keep = [(j, p) for j, p in zip(strike.syncers, strike.sync_power) if active(fight, j)]
                dropped = len(strike.syncers) - len(keep)
                power = strike.firepower - sum(p for j, p in zip(strike.syncers, strike.sync_power)
                                               if not active(fight, j))
                s = with_strike(s, strike._replace(level=strike.level - dropped, firepower=power,
                                                   syncers=tuple(j for j, _ in keep),
                                                   sync_power=tuple(p for _, p in keep)))
        if not awake and user.seat >= 0:
            s = with_strike(s, None)
            return away(log(s, "cb-illusion-escape", user.seat), user.seat, self.fighter)
        return advance(s)


# --- contact telepathy (KMC 5.4) ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TelepathyRoll(Waiting):
    """``seat``'s contact telepathy on fighter ``target``: a level check at ``level``; on success
    every awake player in the combat sees the target's card. The seat's own dice: it may re-roll
    them (N208)."""

    KIND: ClassVar[str] = "cb_tele_roll"
    REROLL: ClassVar[bool] = True
    seat: int
    target: int
    level: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.telepathy", (6, 6))

    def roller(self, s: LockeState) -> int:
        return self.seat

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        fight = fight_of(s)
        total = sum(action.faces)
        target_seat = fight.fighters[self.target].seat
        ok = total <= self.level
        s = log(s, "cb-telepathy", self.seat, target_seat, self.level, total, ok)
        if not ok:
            return advance(s)
        viewers = tuple(f.seat for j, f in enumerate(fight.fighters)
                        if player(f) and f.seat != target_seat and active(fight, j))
        return advance(s, *(TelepathyShow(v, target_seat) for v in viewers))


@dataclasses.dataclass(frozen=True)
class TelepathyShow(CharacterShown):
    """Contact telepathy (KMC 5.4): seat ``target``'s character card is shown to viewer ``seat``."""

    KIND: ClassVar[str] = "cb_show"


# --- defence phase (KMC 10.7.3) ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class DefencePhase(Automatic):
    """KMC 10.7.3, fig. 10.2: jammers and fields the attack breaks, then the target's defence."""

    KIND: ClassVar[str] = "cb_defence_phase"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = fight_of(s).strike
        if strike is None or strike.target < 0:
            return advance(with_strike(s, None) if strike is not None else s)
        fight = fight_of(s)
        if not active(fight, strike.target):
            return advance(with_strike(s, None))
        s, broken = breakage.break_steps(s, strike.target)  # KMC fig. 10.2: jammers and fields, then the defence
        if strike.escape_tried:  # an escape was tried: nothing more in the defence phase
            return advance(s, *broken, Hit())
        target = fight.fighters[strike.target]
        if not alert(fight, strike.target):  # knocked out: no defence, the body (or suit) takes it (N162)
            return advance(s, *broken, Hit())
        if target.seat >= 0:
            return advance(s, *broken, DefenceDecision(target.seat, strike.target), Hit())
        return advance(s, *broken, auto.ObstacleDefence(strike.target), Hit())  # the automaton


@dataclasses.dataclass(frozen=True)
class DefenceDecision(Ordered):
    """The target ``fighter`` may defend with a defence card or an item (KMC 10.7.3); a controller
    may order it (KMC 4)."""

    KIND: ClassVar[str] = "cb_defend"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return options.answers("defend", g, s, self.seat, self.fighter, as_now(s, self.seat, me), knowledge)

    @answers(Play)
    def defends(self, g: Rules, s: LockeState, action: Play) -> LockeState:
        if action.target != -1 or action.level:
            raise IllegalAction("a defence names no target and no level", rule="locke.10.7.3")
        s, card, mind = play(g, s, self.fighter, action, ("defend",), self)
        return advance(s, *mind, Defended(self.fighter))

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)

    @answers(UseItem)
    def uses_item(self, g: Rules, s: LockeState, action: UseItem) -> LockeState:
        return escapes.answer_item(g, s, self.seat, self.fighter, action, items.DEFENCES)


@dataclasses.dataclass(frozen=True)
class Defended(PlayGoesOn):
    """Fighter ``fighter``'s defence card works: the attack is gone."""

    KIND: ClassVar[str] = "cb_defended"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not self.ok:
            return advance(s)
        return advance(log(with_strike(s, None), "cb-defend", fight_of(s).fighters[self.fighter].seat))


# --- the hit (KMC 10.7.4) ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Hit(Automatic):
    """KMC 10.7.4: the attack reaches its target: what takes it first (an absorb ball, Nike, a
    suit; engine/locke/combat/suits.py), else the body: a seat declares its durability, the
    damage dice roll."""

    KIND: ClassVar[str] = "cb_hit"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = fight_of(s).strike
        if strike is None:
            return advance(s)
        fight = fight_of(s)
        if not active(fight, strike.target) or strike.firepower <= 0:
            if strike.firepower <= 0:
                s = log(with_strike(s, None), "cb-flash", strike.attacker, strike.target)
            else:
                s = with_strike(s, None)
            return advance(s)
        target = fight.fighters[strike.target]
        suit = () if strike.direct else suits.suit_steps(s, strike.target)  # a random character's too (N245)
        if suit:
            return advance(s, *suit)
        if target.seat >= 0:
            return advance(s, DurabilityQuestion(target.seat), DamageRoll())
        return advance(s, DamageRoll())


@dataclasses.dataclass(frozen=True)
class DurabilityQuestion(SeatDecision):
    """KMC 10.7.4: the hit seat declares its current durability (a claim)."""

    KIND: ClassVar[str] = "cb_dur"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        me = as_now(s, self.seat, me)
        if me is not None:
            return [Durability(self.seat, max(1, me.durability - s.seats[self.seat].damage))]
        return [Durability(self.seat, d) for d in range(1, fate.most(g, s, self.seat, "durability") + 1)]

    @answers(Durability)
    def declared(self, g: Rules, s: LockeState, action: Durability) -> LockeState:
        top = fate.most(g, s, self.seat, "durability")
        if not 1 <= action.value <= top:
            raise IllegalAction(f"declare your current durability (1..{top} given the damage you have taken)",
                                rule="locke.10.7.4")
        claim = fate.durability_claim(s, self.seat, action.value, "locke.10.7.4")
        return advance(with_strike(s._replace(**claimed(s, claim)), _s(s)._replace(declared=action.value)))


def _checks(fight: Fight, strike: Strike) -> int:
    target = fight.fighters[strike.target]
    if target.ob is not None and HIT_ALL in target.ob.traits:
        return strike.hits * sum(1 for d in target.members if d > 0)
    return strike.hits


@dataclasses.dataclass(frozen=True)
class DamageRoll(Waiting):
    """Seed 002 damage table: the attack's damage checks on its target. The attacker rolls them
    (KMC 10.7.4 (3)), so a seat that attacked may re-roll them with a residential district
    (seed 000 3.2.4, ruling N208)."""

    KIND: ClassVar[str] = "cb_damage"
    REROLL: ClassVar[bool] = True

    def pending(self, g: Rules, s: LockeState) -> Pending:
        fight = fight_of(s)
        return Chance("locke.chart.damage", (6, 6) * _checks(fight, _s(s)))

    def roller(self, s: LockeState) -> int:
        return damage_roller(s)

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        """Every check against the durability declared at the start (simultaneous attacks, seed
        002 note 2); 0 or E kills."""
        fight = fight_of(s)
        strike = _s(s)
        target = fight.fighters[strike.target]
        attacker = fight.fighters[strike.attacker]
        pairs = [action.faces[k:k + 2] for k in range(0, len(action.faces), 2)]
        who = attacker.seat if attacker.seat >= 0 else (attacker.ob.id if attacker.ob else "")
        if target.seat >= 0:
            before = strike.declared
            total, out, cells, turned = 0, False, [], False
            for faces in pairs:
                r = resolve_damage(faces, attack=strike.firepower, durability=before, target_is_character=True)
                total += r.damage
                out = out or r.eliminated
                cells.append(r.cell)
                turned = turned or r.transformation
            if turned:  # a natural 1-1 or 6-6 (seed 002, R9): the transformation first, the damage after it (KMC 11.4)
                p = s.seats[target.seat]
                after = HitAfterTransformation(strike.target, total, out, p.character, len(p.mods), tuple(cells))
                return advance(s, fate.transformation_step(target.seat, equip.FightTransformation()), after)
            return _land(g, s, strike.target, before, total, out, cells)
        assert target.ob is not None
        members = list(target.members)
        hit_all = HIT_ALL in target.ob.traits
        k = 0
        cells = []
        for m, d in enumerate(members):
            if d <= 0:
                continue
            first = members[m]  # every simultaneous check reads the durability at the start
            for _ in range(strike.hits):
                r = resolve_damage(pairs[k], attack=strike.firepower, durability=first, target_is_character=False)
                k += 1
                cells.append(r.cell)
                members[m] = 0 if r.eliminated or members[m] <= 0 else max(0, members[m] - r.damage)
            if not hit_all:
                break
        ob = target.ob
        if any(d <= 0 for d in members) and "jammer-lost-on-death" in ob.traits:
            ob = ob._replace(jammer=0)
        if sum(members) < sum(target.members) and "jammer-lost-when-damaged" in ob.traits:
            ob = ob._replace(jammer=0)
        state = DEAD if all(d <= 0 for d in members) else target.state
        if state == DEAD and target.state != DEAD and ob.character and attacker.seat >= 0:
            # a random character killed by a seat's own attack counts for S-Strohheim (KMC 11.8.2, C8)
            s = fate.credit_kill(s, attacker.seat, random_character=ob.character)
        fight = with_fighter(fight_of(s), strike.target, target._replace(members=tuple(members), ob=ob, state=state))
        s = log(put(s, fight), "cb-hit", who, target.ob.id, cells, list(target.members), members,
                strike.card or "weapon")
        return advance(with_strike(s, None))


@dataclasses.dataclass(frozen=True)
class HitAfterTransformation(Automatic):
    """KMC 11.4, D34: the damage of the hit on fighter ``fighter`` that called for a transformation,
    after it (``total`` damage, ``out``: eliminated, on the damage table's ``cells``): on the
    durability plus what the result added since the seat had ``mods_before`` mods, or, after a
    true self (its card is no longer ``character``), on the new card's durability, which its
    seat declares afresh (a claim, N158)."""

    KIND: ClassVar[str] = "cb_hit_apply"
    fighter: int
    total: int
    out: bool
    character: int
    mods_before: int
    cells: tuple[str, ...]

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        target = fight.fighters[self.fighter]
        p = s.seats[target.seat]
        if not p.alive or not active(fight, self.fighter) or fight.strike is None:
            return advance(with_strike(s, None) if fight.strike is not None else s)
        if p.character != self.character:  # a true self: the new character, untouched, takes the hit
            again = dataclasses.replace(self, character=p.character, mods_before=len(p.mods))
            return advance(s, DurabilityQuestion(target.seat), again)
        gained = sum(int(m[2]) for m in p.mods[self.mods_before:] if m[0] == "durability" and m[1] == "add")
        return _land(g, s, self.fighter, fight.strike.declared + gained, self.total, self.out, list(self.cells))


def _land(g: Rules, s: LockeState, index: int, before: int, total: int, out: bool, cells: list[str]) -> LockeState:
    """The hit's damage on a seat's durability ``before``: 0 or an E kills (seed 002)."""
    fight = fight_of(s)
    strike = _s(s)
    target = fight.fighters[index]
    attacker = fight.fighters[strike.attacker]
    who = attacker.seat if attacker.seat >= 0 else (attacker.ob.id if attacker.ob else "")
    after = 0 if out else before - total
    p = s.seats[target.seat]
    s = s._replace(seats=with_seat(s, target.seat, p._replace(damage=p.damage + before - max(0, after))))
    s = log(s, "cb-hit", who, target.seat, cells, before, max(0, after), strike.card or "weapon")
    if after <= 0:
        killer = attacker.seat if attacker.seat >= 0 else NO_SEAT
        s = fate.kill(g, s, target.seat, killer=killer, cause="combat")
        fight = fight_of(s)
        fight = with_fighter(fight, index, target._replace(state=DEAD))._replace(dead=fight.dead + (target.seat,))
        s = put(s, fight)
    return advance(with_strike(s, None))


#: the attack path's step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (
    PlayedCard, ForestDamage, MindChecks, TurnAction, AttackStands, SyncQuestion, Synced, HenchmanSync,
    UndeclaredHenchmen, EscapePhase, EscapeDecision, EscapeStands, BlockQuestion, BlockStands, BlockEnd, FleeRoll,
    EscapeLanding, Illusion, IllusionRoll, SleepQuestion, IllusionEnd, TelepathyRoll, TelepathyShow, DefencePhase,
    DefenceDecision, Defended, Hit, DurabilityQuestion, DamageRoll, HitAfterTransformation,
)


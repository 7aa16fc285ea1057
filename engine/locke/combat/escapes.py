"""Escapes and defences by item (KMC 10.7.2-3; seed 000 3.1.3), and the items that roll to work.

Answers to an attack (:func:`answer_item`): the Lafnor mirror (1d6 of 4 or less: an
unblockable level-7 escape), the subspace field (2d6 of 9 or less: a level-7 escape, 10 or more
knocks out), Nagato's psycho-pod (1d6 of 4 or less stops an attack up to level 6, never a light
sword), and the kept planet cards (a planet mirror escapes at its level unless a higher planet
mirror blocks it, KMC 3.1.3; the absorb ball, engine/locke/combat/ball.py). An escape on one's
own turn (N214, N236) is here too. :class:`ItemRoll` rolls every item that rolls to work, the
geoid bomb of engine/locke/combat/specials.py included. Its own module because the escape and
defence phases of engine/locke/combat/path.py reach it apart from the turn's special attacks.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke.actions import Nop
from engine.locke.combat import kept
from engine.locke.combat.actions import UseItem
from engine.locke.combat.ball import BallAbsorbs, ball_stops
from engine.locke.combat.common import (
    active, alert, constant, fight_of, mark_attacked, player, put, with_fighter, with_strike,
)
from engine.locke.combat.items import DICE, ESCAPES, PLANET_DEFENCES, PLANET_ESCAPES, claim_item
from engine.locke.combat.model import Strike
from engine.locke.combat.turn_cards import turn_on
from engine.locke.components import Character
from engine.locke.state import LockeState, advance, log
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, Waiting, answers


def answer_item(g: Rules, s: LockeState, seat: int, me: int, action: UseItem, uses: tuple[str, ...]) -> LockeState:
    """Fighter ``me`` answers the attack in flight with an item of ``uses`` (:data:`ESCAPES` in the
    escape phase, :data:`DEFENCES` in the defence phase) or a kept planet card."""
    strike = fight_of(s).strike
    assert strike is not None
    if fight_of(s).fighters[me].nike_on:
        raise IllegalAction("while you use Nike no item escapes or defends", rule="locke.2.3.2")
    if action.card >= 0:
        return _planet_answer(g, s, seat, me, action, uses)
    if action.item not in uses or action.target != -1:
        raise IllegalAction(f"answer with one of {', '.join(uses)} (no target)", rule="locke.10.7")
    if action.item in ESCAPES and strike.level > 7:
        raise IllegalAction("a level-7 escape cannot answer an attack above level 7", rule="locke.10.7.2")
    if action.item == "psycho-pod" and (strike.level > 6 or strike.light_sword):
        raise IllegalAction("the psycho-pod stops attacks up to level 6, never a light sword", rule="locke.2.3.1")
    s = claim_item(s, seat, action.item)
    if action.item in ESCAPES:
        s = with_strike(s, strike._replace(escape_tried=True))
    s = log(s, "cb-item", seat, action.item, -1)
    return advance(s, ItemRoll(seat, me, action.item))


def _planet_answer(g: Rules, s: LockeState, seat: int, me: int, action: UseItem, uses: tuple[str, ...]) -> LockeState:
    """A kept planet card answers the attack (seed 000 3.1.3; KMC 10.7.2-3): the subspace field
    (2d6, hidden until it acts), the Lafnor mirror (escape and defence at once at its level, only a
    higher planet mirror blocks the escape) or the energy absorb ball (a defence that stays up)."""
    strike = fight_of(s).strike
    assert strike is not None
    table = PLANET_ESCAPES if uses == ESCAPES else PLANET_DEFENCES
    if action.item not in table or action.target != -1:
        raise IllegalAction(f"answer with a kept {' or '.join(table)} card (no target)", rule="locke.10.7")
    kept.check_held(g, s, seat, action.card, action.as_card, (table[action.item],))
    level = kept.level_of(g, action.as_card)
    if action.item == "subspace-field" and strike.level > kept.effect(g, action.as_card, "escape_level", 7):
        raise IllegalAction("the subspace field escapes attacks up to level 7", rule="locke.s000.3.1.3")
    if action.item == "lafnor-mirror" and strike.level > level:
        raise IllegalAction(f"a level-{level} mirror answers attacks up to level {level}", rule="locke.10.7.2")
    if action.item == "absorb-ball" and not ball_stops(g, action.as_card, strike):
        raise IllegalAction(f"a level-{level} absorb ball takes attacks up to level {level} (light swords only the "
                            "level-5 ball, at level 5)", rule="locke.s000.3.1.3")
    s = kept.claim(s, seat, action.card, action.as_card)
    s = log(s, "cb-item", seat, action.item, -1, "planet")
    if action.item == "subspace-field":
        s = with_strike(s, strike._replace(escape_tried=True))
        return advance(s, ItemRoll(seat, me, "subspace-field", -1, action.card, action.as_card))
    shown = kept.reveal(seat, action.card, action.as_card)
    if action.item == "absorb-ball":  # up until the combat ends or a stronger attack hits it
        fight = fight_of(s)
        f = fight.fighters[me]._replace(ball=level, ball_card=action.card)
        s = put(s, with_fighter(fight, me, f))
        return advance(s, *shown, BallAbsorbs(me))
    # the mirror: spent at once; every other player may block its escape with a higher planet mirror
    s = with_strike(s, strike._replace(escape_tried=True, escaper=me, escape_level=level, mirror=level))
    return advance(s, *_mirror_steps(s, seat, me, action.card, action.as_card))


@dataclasses.dataclass(frozen=True)
class MirrorBlockQuestion(SeatDecision):
    """KMC 3.1.3 (facing mirrors): fighter ``fighter`` may block a planet mirror's escape, only with
    a planet-card mirror of a higher level."""

    KIND: ClassVar[str] = "cb_mirror_block"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        strike = fight_of(s).strike
        top = strike.mirror if strike is not None else 7
        return [Nop(self.seat)] + [UseItem(self.seat, "lafnor-mirror", -1, h, c)
                                   for h, c in kept.usable(g, s, self.seat, knowledge, "lafnor-mirror")
                                   if kept.level_of(g, c) > top]

    @answers(UseItem)
    def blocks(self, g: Rules, s: LockeState, action: UseItem) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        if action.item != "lafnor-mirror" or action.card < 0 or action.target != -1:
            raise IllegalAction("block a planet mirror's escape only with a kept Lafnor mirror card",
                                rule="locke.10.7.2")
        kept.check_held(g, s, self.seat, action.card, action.as_card, ("lafnor-mirror",))
        if kept.level_of(g, action.as_card) <= strike.mirror:
            raise IllegalAction(f"only a mirror above level {strike.mirror} blocks this one", rule="locke.10.7.2")
        s = kept.claim(s, self.seat, action.card, action.as_card)
        s = with_strike(s, strike._replace(blockers=strike.blockers + (self.fighter,)))
        s = log(s, "cb-block", fight_of(s).fighters[strike.escaper].seat, strike.mirror,
                kept.level_of(g, action.as_card), [self.seat])
        rest = tuple(x for x in s.queue[1:] if not isinstance(x, MirrorBlockQuestion))  # one block is enough
        s = s._replace(queue=(s.queue[0],) + rest)
        return advance(s, *kept.reveal(self.seat, action.card, action.as_card), kept.spend_step(self.seat, action.card))

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


def normal_escape(item: str, card: int) -> bool:
    """Is this escape on one's own turn the turn's normal action (KMC 10.4.1)? The Lafnor mirror
    (the character's or a kept card's) and a kept subspace field are; Dr. Wong's own subspace
    field is a special action instead, the irregular escape (KMC 2.3.1, 10.4.2 note 3; N236)."""
    return item in ESCAPES and (card >= 0 or item == "lafnor-mirror")


def own_escape(g: Rules, s: LockeState, seat: int, me: int, action: UseItem) -> LockeState:
    """An escape on one's own turn, with no attack in flight. As the normal action (N214, N236):
    a kept subspace field rolls as in answer to an attack, a kept mirror escapes at its level unless
    a higher planet mirror blocks it, the character's mirror rolls its 1d6. As a special action,
    once a round (N236): Dr. Wong's subspace field rolls its 2d6, before or after his normal action
    and special attacks. Whatever is left of the turn comes back if the seat is still there."""
    fight = fight_of(s)
    f = fight.fighters[me]
    if f.nike_on or action.target != -1:
        raise IllegalAction("escape with a subspace field or a mirror (no target; not while using Nike)",
                            rule="locke.10.4.1")
    if action.card >= 0:
        kept.check_held(g, s, seat, action.card, action.as_card, (PLANET_ESCAPES[action.item],))
        s = kept.claim(s, seat, action.card, action.as_card)
    elif normal_escape(action.item, action.card):
        s = claim_item(s, seat, action.item)
    elif action.item in f.specials:
        raise IllegalAction("the irregular escape is a special action, used once a round", rule="locke.10.4.2")
    else:
        s = claim_item(s, seat, action.item)
    if normal_escape(action.item, action.card):
        f = f._replace(acted=True)
    else:
        f = f._replace(specials=f.specials + (action.item,))
    planet = ("planet",) if action.card >= 0 else ()
    s = log(put(s, with_fighter(fight_of(s), me, f)), "cb-item", seat, action.item, -1, *planet)
    rest = turn_on(seat, me)
    if action.card < 0:  # the character's own: its dice, and nobody can block it (KMC 2.3.1)
        return advance(s, ItemRoll(seat, me, action.item), rest)
    if action.item == "subspace-field":
        return advance(s, ItemRoll(seat, me, "subspace-field", -1, action.card, action.as_card), rest)
    level = kept.level_of(g, action.as_card)
    s = with_strike(s, Strike(me, -1, "", 0, 0, escaper=me, escape_level=level, escape_tried=True, mirror=level))
    return advance(s, *_mirror_steps(s, seat, me, action.card, action.as_card), rest)


def _mirror_steps(s: LockeState, seat: int, me: int, handle: int, as_card: str) -> tuple[LockeStep, ...]:
    """The mirror is shown and spent; every other player still in may block it; then the end."""
    fight = fight_of(s)
    asks = tuple(MirrorBlockQuestion(f.seat, j) for j in fight.order or range(len(fight.fighters))
                 for f in (fight.fighters[j],) if j != me and player(f) and alert(fight, j))
    return kept.reveal(seat, handle, as_card) + (kept.spend_step(seat, handle),) + asks + (MirrorEnd(me),)


@dataclasses.dataclass(frozen=True)
class MirrorEnd(Automatic):
    """Blocked or not fighter ``fighter``'s mirror defends (the attack is gone); unblocked, its
    user escapes."""

    KIND: ClassVar[str] = "cb_mirror_end"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        s = with_strike(s, None)
        if strike.target >= 0:
            s = log(s, "cb-defend", fight_of(s).fighters[self.fighter].seat, "lafnor-mirror")
        if strike.blockers:
            return advance(s)
        return advance(s, g.attack.FleeRoll(fight_of(s).fighters[self.fighter].seat, self.fighter))


def _limits(g: Rules, item: str) -> tuple[int, int]:
    """(success at or below, knocked out at or above) of a rolled item."""
    best = constant(g, item, "die_success_max", constant(g, item, "success_max"))
    return best, constant(g, item, "faint_min", 99)


@dataclasses.dataclass(frozen=True)
class ItemRoll(Waiting):
    """The roll of fighter ``fighter``'s ``item`` (:data:`DICE`): a geoid bomb at ``target``, an
    escape or the psycho-pod (target -1). ``handle``: the kept planet card it is (-1: the
    character's, or an obstacle's when ``seat`` is -1), used as ``as_card``; its own numbers
    decide then (seed 000 3.1.3). The user's own dice: it may re-roll them (N208)."""

    KIND: ClassVar[str] = "cb_item_roll"
    REROLL: ClassVar[bool] = True
    seat: int
    fighter: int
    item: str
    target: int = -1
    handle: int = -1
    as_card: str = ""

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance(f"locke.combat.{self.item}", DICE[self.item])

    def roller(self, s: LockeState) -> int:
        return self.seat

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        if self.handle >= 0:  # the planet card's own numbers (seed 000 3.1.3)
            best, faint = kept.effect(g, self.as_card, "success_max"), kept.effect(g, self.as_card, "faint_min", 99)
        else:
            best, faint = _limits(g, self.item)
        total = sum(action.faces)
        ok = total <= best
        s = log(s, "cb-item-roll", self.seat, self.item, total, ok)
        return item_result(g, s, self.seat, self.fighter, self.item, self.target, ok, total >= faint, self.handle,
                            self.as_card)


def item_result(g: Rules, s: LockeState, seat: int, me: int, item: str, target: int, ok: bool, out: bool,
                 handle: int = -1, as_card: str = "") -> LockeState:
    """A rolled item worked (``ok``), knocked its user out (``out``), or neither; replaces the
    queue's head (the roll, or the statement of a geoid bomb announced as a ship, N226)."""
    planet = handle >= 0
    fight = fight_of(s)
    after: tuple[LockeStep, ...] = ()
    if planet and (ok or out):  # it acted: shown and discarded (seed 000 3.1.3)
        after = kept.reveal(seat, handle, as_card) + (kept.spend_step(seat, handle),)
    if out:  # knocked out by an unexplained high frequency (KMC 2.3.1): a target still
        f = fight.fighters[me]
        f = f._replace(fainted=True, acted=True, wake=fight.round + 1)  # the rest of the round (KMC 2.3.1, N162)
        s = log(put(s, with_fighter(fight, me, f)), "cb-fainted", seat, item)  # its turn is over (N162)
    if not ok:
        return advance(s, *after)
    if item == "geoid-bomb":
        if not active(fight_of(s), target):
            return advance(s, *after)
        level = kept.effect(g, as_card, "level") if planet else constant(g, item, "level")
        attack = kept.effect(g, as_card, "attack") if planet else constant(g, item, "attack")
        s = mark_attacked(with_strike(s, Strike(me, target, "", level, attack)))
        return advance(s, *after, g.attack.AttackStands())
    if item == "psycho-pod":
        return advance(log(with_strike(s, None), "cb-defend", seat, item))
    # an escape: the mirror cannot be blocked (KMC 2.3.1); the subspace field is treated alike
    return advance(with_strike(s, None), *after, g.attack.FleeRoll(seat, me))


#: the escapes step kinds (engine/locke/registry.py, the combat family)
STEPS: tuple[type[LockeStep], ...] = (
    MirrorBlockQuestion, MirrorEnd, ItemRoll,
)

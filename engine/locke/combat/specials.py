"""An item used on one's own turn (KMC 10.4) and the special attacks (KMC 10.4.2).

:func:`special` takes the turn's ``UseItem`` and sends it to its family: a residual thought's
attack (KMC 10.6-10.7), Nike's attack (engine/locke/combat/nike.py), a turn card
(engine/locke/combat/turn_cards.py), an escape (engine/locke/combat/escapes.py); what is left
are the special attacks, each once a round besides the normal action: the ship (ship-support
chart, seed 002: bombs, a beam cannon, nothing, or a misfire on oneself), E-Strohheim's beam
cannon (firepower chart), Dr. Wong's geoid bomb (2d6: 6 or less fires level 7 / 100, 10 or more
knocks him out). A character's "ship" may be its beam cannon or geoid bomb, so its user says
what it did (N226). The planet cruiser and geoid bomb are the same attacks (seed 000 3.1.1,
3.1.3). Its own module because it sits above the families it dispatches to.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke import charts, kit
from engine.locke import claims as ck
from engine.locke.chart_data import FIREPOWER
from engine.locke.combat import claims as cc
from engine.locke.combat import kept
from engine.locke.combat.actions import ShipEffect, UseItem
from engine.locke.combat.common import (
    RESIDUAL, active, as_now, fight_of, mark_attacked, may_have, put, targets, with_fighter, with_strike,
)
from engine.locke.combat.escapes import ItemRoll, item_result, normal_escape, own_escape
from engine.locke.combat.items import ESCAPES, PLANET_SPECIAL, SPECIALS, TURN_CARDS, claim_item
from engine.locke.combat.model import Strike
from engine.locke.combat.nike import nike_attack, thought_syncs
from engine.locke.combat.turn_cards import turn_card, turn_on
from engine.locke.components import Character
from engine.locke.state import LockeState, advance, claimed, log
from engine.locke.steps import LockeStep, Rules, SeatDecision, Waiting, answers


def special(g: Rules, s: LockeState, seat: int, me: int, action: UseItem) -> LockeState:
    """An item used on fighter ``me``'s own turn (``cb_act``): a special attack, Nike's attack, an
    escape, a turn card, or a residual thought's attack; the normal action may still be to come."""
    fight = fight_of(s)
    f = fight.fighters[me]
    if f.thought:  # KMC 10.6-10.7: a residual thought's attack goes to the body, unanswered
        options = targets(s, fight, me)
        if action.item != RESIDUAL or action.target not in options:
            raise IllegalAction(f"a residual thought can only attack one of fighters {list(options)}",
                                rule="locke.10.6")
        s = put(s, with_fighter(fight, me, f._replace(acted=True)))
        s = with_strike(s, Strike(me, action.target, "", 0, f.thought, escape_tried=True, direct=True))
        return advance(log(s, "cb-item", seat, RESIDUAL, action.target), *thought_syncs(s, me), g.attack.Hit())
    if f.acted and (action.item == "nike" or normal_escape(action.item, action.card)):
        raise IllegalAction("your turn has no normal action left (you took it, or synced an attack this round): "
                            "Nike's attack and an escape by a mirror or a planet subspace field are normal actions",
                            rule="locke.10.4.1")
    if action.item == "nike":
        options = targets(s, fight, me)
        if not f.nike_on or action.target not in options:
            raise IllegalAction(f"attack with Nike (in use this round) one of fighters {list(options)}",
                                rule="locke.2.3.2")
        return nike_attack(g, s, seat, me, action.target)
    if action.card >= 0 and action.item in TURN_CARDS:
        return turn_card(g, s, seat, me, action)
    if action.item in ESCAPES:
        return own_escape(g, s, seat, me, action)
    key = action.item if action.card < 0 else f"{action.item}:{action.card}"
    if action.item not in SPECIALS or key in f.specials:
        raise IllegalAction(f"a special attack ({', '.join(SPECIALS)}) is used once a round", rule="locke.10.4.2")
    options = targets(s, fight, me)
    if action.target not in options:
        raise IllegalAction(f"pick a target among fighters {list(options)}", rule="locke.10.6")
    reveal: tuple[LockeStep, ...] = ()
    if action.card >= 0:  # seed 000 3.1.1 cruiser, 3.1.3 geoid bomb
        kept.check_held(g, s, seat, action.card, action.as_card, (PLANET_SPECIAL[action.item],))
        s = kept.claim(s, seat, action.card, action.as_card)
        if action.item == "ship":  # the cruiser: kept for the game, face up from its first use
            reveal = kept.reveal(seat, action.card, action.as_card)
    else:  # "ship" may be the beam cannon or the geoid bomb: its claim comes with its effect (N226)
        s = claim_item(s, seat, action.item) if action.item != "ship" else s
        used = 1 + sum(1 for k in f.specials if k in SPECIALS)
        if used > 1:  # KMC 10.4.2: each special once a round, so a second one means a second kind
            s = claim_item(s, seat, "specials", used)
    s = put(s, with_fighter(fight_of(s), me, f._replace(specials=f.specials + (key,))))
    s = log(s, "cb-item", seat, action.item, action.target, *(("planet",) if action.card >= 0 else ()))
    again = turn_on(seat, me)
    if action.item == "ship":  # a character's "ship": its user says what it did (N226)
        return advance(s, *reveal, ShipRoll(seat, me, action.target, said=action.card < 0), again)
    if action.card >= 0:  # the planet geoid bomb stays hidden until it fires or knocks out
        return advance(s, ItemRoll(seat, me, "geoid-bomb", action.target, action.card, action.as_card), again)
    if action.item == "beam-cannon":
        s = mark_attacked(with_strike(s, Strike(me, action.target, "", 4, 0)))
        return advance(s, BeamCannonFirepower(), g.attack.AttackStands(), again)
    return advance(s, ItemRoll(seat, me, "geoid-bomb", action.target), again)


@dataclasses.dataclass(frozen=True)
class ShipRoll(Waiting):
    """Ship-support chart (seed 002) for fighter ``fighter``'s ship at fighter ``target``: bombs, a
    beam cannon, nothing, or a misfire on oneself. A character's "ship" may be its beam cannon or
    geoid bomb (KMC 10.4.2 notes 1-2), so its user then says what it does (``said``, N226); a
    cruiser card, face up, and a random character's public ship (N245, ``seat`` -1) are ships:
    the chart applies."""

    KIND: ClassVar[str] = "cb_ship"
    seat: int
    fighter: int
    target: int
    said: bool = False

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.chart.ship-support", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("ship-support", action.faces)
        s = log(s, "cb-ship", self.seat, outcome.entry)
        if self.said:
            return advance(s, ShipEffectQuestion(self.seat, self.fighter, self.target, tuple(action.faces)))
        return _ship_support(g, s, self.fighter, self.target, outcome.entry)


def _ship_support(g: Rules, s: LockeState, me: int, target: int, entry: str) -> LockeState:
    """The ship-support chart's entry ``entry`` (seed 002) for fighter ``me`` against ``target``."""
    if entry == "no-support" or not active(fight_of(s), target):
        return advance(s)
    if entry == "misfire":  # its beam cannon at itself, straight to the hit
        s = mark_attacked(with_strike(s, Strike(me, me, "", 4, 0, machine=True, escape_tried=True)))
        return advance(s, BeamCannonFirepower(), g.attack.Hit())
    attack = next(e for e in charts.chart("ship-support").entries if e.id == entry).attacks[0]
    s = mark_attacked(with_strike(s, Strike(me, target, "", int(attack.level or 0), int(attack.firepower or 0),
                                            machine=True)))
    fp: tuple[LockeStep, ...] = (BeamCannonFirepower(),) if attack.firepower is None else ()
    return advance(s, *fp, g.attack.AttackStands())


@dataclasses.dataclass(frozen=True)
class ShipEffectQuestion(SeatDecision):
    """KMC 10.4.2 notes 1-2 (N226): what fighter ``fighter``'s special announced as "a ship" at
    ``target`` does at its roll ``faces``, a claim about the character card (``claims.SHIP``). A
    chart entry (the beam cannon too: the table saw a ship) is the ship-support chart's; the geoid
    bomb fires or knocks its user out by its own numbers, as when it is named."""

    KIND: ClassVar[str] = "cb_ship_effect"
    fighter: int
    target: int
    faces: tuple[int, ...]

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        """What one's own special may do at this roll (without knowledge: whatever any of the three may do)."""
        me = as_now(s, self.seat, me)
        entry = charts.resolve("ship-support", self.faces).entry
        mine = [item for item in SPECIALS if may_have(me, item)] or list(SPECIALS)
        effects = {e for item in mine for e in cc.ship_effects(g.components, item, sum(self.faces), entry)}
        return [ShipEffect(self.seat, e) for e in cc.SHIP_EFFECTS if e in effects]

    @answers(ShipEffect)
    def said(self, g: Rules, s: LockeState, action: ShipEffect) -> LockeState:
        entry = charts.resolve("ship-support", self.faces).entry
        total = sum(self.faces)
        if not any(action.effect in cc.ship_effects(g.components, item, total, entry) for item in SPECIALS):
            effects = sorted({e for i in SPECIALS for e in cc.ship_effects(g.components, i, total, entry)})
            raise IllegalAction(f"at {total} a ship, beam cannon or geoid bomb does one of {effects}",
                                rule="locke.10.4.2")
        if not ("ship" in kit.public_items(s.seats[self.seat].mods)
                and action.effect in cc.ship_effects(g.components, "ship", total, entry)):
            # a ship the whim gave does what the chart says, in public (N275): no claim then
            s = s._replace(**claimed(s, ck.make(self.seat, s.step_no, cc.SHIP, (s.seats[self.seat].character,),
                                                [total, entry, action.effect], "locke.10.4.2")))
        s = log(s, "cb-ship-effect", self.seat, action.effect)
        if action.effect in ("geoid-bomb", "knocked-out"):
            return item_result(g, s, self.seat, self.fighter, "geoid-bomb", self.target,
                                action.effect == "geoid-bomb", action.effect == "knocked-out")
        return _ship_support(g, s, self.fighter, self.target, action.effect)


@dataclasses.dataclass(frozen=True)
class BeamCannonFirepower(Waiting):
    """The beam cannon's firepower, rolled on the weapon-firepower chart (seed 002) at every use."""

    KIND: ClassVar[str] = "cb_item_fp"

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.chart.weapon-firepower", (6,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        power = FIREPOWER["beam-cannon"][action.faces[0] - 1]
        s = with_strike(s, strike._replace(firepower=power))
        return advance(log(s, "cb-firepower", "beam-cannon", [action.faces[0]], power))


#: the specials step kinds (engine/locke/registry.py, the combat family)
STEPS: tuple[type[LockeStep], ...] = (
    ShipRoll, ShipEffectQuestion, BeamCannonFirepower,
)

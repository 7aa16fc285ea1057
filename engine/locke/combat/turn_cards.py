"""Kept cards used on one's own turn, and the turn and the combat going on (seed 000 3.1.3, 3.2.4; KMC 10.4).

The slum swaps combat cards of the hand; the ESP controller puts a player under the user's
control on a failed mind check (engine/locke/control.py) until a release roll of 1 frees it; the
industrial district makes a contact telepathy's level check at its own level. After each thing
a seat does on its turn the decision comes back (:class:`TurnGoesOn`, N235); knocked-out
fighters wake as their time runs out (N162), and the single-use cards still in play are spent
when the combat ends. Its own module because every other item family queues :func:`turn_on`,
so it must sit below them.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.errors import IllegalAction
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke import fate
from engine.locke import planet_cards as pc
from engine.locke.combat import kept
from engine.locke.combat.actions import Play, UseItem
from engine.locke.combat.common import alert, fight_of, player, put, targets, with_fighter
from engine.locke.combat.deck import DealCards
from engine.locke.combat.model import DECK, Fight
from engine.locke.state import LockeState, advance, log, zone_of
from engine.locke.steps import Automatic, LockeStep, Rules, Then, Waiting, answers


def turn_card(g: Rules, s: LockeState, seat: int, me: int, action: UseItem) -> LockeState:
    """A kept slum (swap combat cards, seed 000 3.2.4) or ESP controller (a mind check, seed 000
    3.1.3) used by fighter ``me`` on its own turn; the rest of the turn comes back after it."""
    fight = fight_of(s)
    f = fight.fighters[me]
    kept.check_held(g, s, seat, action.card, action.as_card, (action.item,))
    if action.item == "slum":
        swap = action.cards
        size = kept.effect(g, action.as_card, "count", 3)
        if action.target != -1 or len(swap) != size or len(set(swap)) != size or any(h not in f.hand for h in swap):
            raise IllegalAction(f"name {size} different combat cards of your hand to swap", rule="locke.s000.3.2.4")
        if len(zone_of(s, DECK)) < size:
            raise IllegalAction("the combat deck has too few cards left to swap", rule="locke.s000.3.2.4")
        s = kept.claim(s, seat, action.card, action.as_card)
        f = f._replace(hand=tuple(h for h in f.hand if h not in swap))
        s = put(s, with_fighter(fight, me, f)._replace(used=fight.used + swap))
        s = log(s, "cb-item", seat, "slum", -1, "planet")
        return advance(s, *kept.reveal(seat, action.card, action.as_card), kept.spend_step(seat, action.card),
                       DealCards(seat, me, size), turn_on(seat, me))
    victims = tuple(j for j in targets(s, fight, me) if player(fight.fighters[j]) and fight.fighters[j].ctl_by < 0)
    if action.target not in victims or action.cards:
        raise IllegalAction(f"name one player among fighters {list(victims)} for the ESP controller",
                            rule="locke.s000.3.1.3")
    s = kept.claim(s, seat, action.card, action.as_card)
    s = log(s, "cb-item", seat, "esp-controller", action.target, "planet")
    return advance(s, *kept.reveal(seat, action.card, action.as_card),
                   ControllerCheck(seat, action.target, action.card), turn_on(seat, me))


@dataclasses.dataclass(frozen=True)
class ControllerCheck(Automatic):
    """Fighter ``fighter``, named by ``seat``'s ESP controller (kept card ``handle``), makes a mind
    check (the ESP controller check)."""

    KIND: ClassVar[str] = "cb_ctl"
    seat: int
    fighter: int
    handle: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        victim = fight_of(s).fighters[self.fighter]
        then = AfterControllerCardCheck(self.fighter, self.seat, self.handle)
        return advance(fate.check(g, s, victim.seat, stat=fate.CheckStat.MIND, then=then))


@dataclasses.dataclass(frozen=True)
class AfterControllerCardCheck(Then):
    """A failed check puts the player (fighter ``index``) under the ``controller`` for this
    combat (engine/locke/control.py); ``handle`` is the controller's ESP controller card."""

    KIND: ClassVar[str] = "combat.controller"
    index: int
    controller: int
    handle: int

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        index, controller, handle = self.index, self.controller, self.handle
        if s.combat is None or success:
            s = log(s, "cb-controller-resisted", seat, controller)
            return advance(s, kept.spend_step(controller, handle))
        fight = fight_of(s)
        f = fight.fighters[index]._replace(ctl_by=controller, ctl_card=handle)
        return advance(log(put(s, with_fighter(fight, index, f)), "controlled", seat, controller, "esp-controller"))


@dataclasses.dataclass(frozen=True)
class ControllerRelease(Waiting):
    """Seed 000 3.1.3: each of its turns the controlled fighter ``fighter`` rolls 1d6; a 1 frees it."""

    KIND: ClassVar[str] = "cb_ctl_free"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.controller-release", (6,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        if action.faces[0] != 1:
            return advance(s)
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        s = put(s, with_fighter(fight, self.fighter, f._replace(ctl_by=-1, ctl_card=-1)))
        s = log(s, "control-released", f.seat)
        return advance(s, kept.spend_step(f.ctl_by, f.ctl_card))


def industrial(g: Rules, s: LockeState, seat: int, action: Play) -> tuple[LockeStep, ...]:
    """Check a contact telepathy with a kept industrial district (seed 000 3.2.4): its level
    check is made at the card's level whatever the character's; the card is shown and spent."""
    kept.check_held(g, s, seat, action.planet, "industrial", ("industrial",))
    level = kept.effect(g, "industrial", "level", 6)
    if action.use != "telepathy" or action.level != level:
        raise IllegalAction(f"the industrial district goes with contact telepathy, checked at level {level}",
                            rule="locke.s000.3.2.4")
    return kept.reveal(seat, action.planet, "industrial") + (kept.spend_step(seat, action.planet),)


def claim_industrial(s: LockeState, seat: int, action: Play) -> LockeState:
    """The claim and log of the industrial district checked by :func:`industrial` (seed 000 3.2.4)."""
    return log(kept.claim(s, seat, action.planet, "industrial"), "cb-item", seat, "industrial", action.target, "planet")


def turn_steps(fight: Fight, index: int) -> tuple[LockeStep, ...]:
    """What comes before a fighter's turn: the controlled player's release roll (KMC 10.4)."""
    f = fight.fighters[index]
    return (ControllerRelease(index),) if f.ctl_by >= 0 else ()


def turn_on(seat: int, index: int) -> LockeStep:
    """The rest of a seat's turn, queued after each thing it did in it (KMC 10.4: the normal action
    and the special actions in any order, N235): the same decision comes back, unless the seat
    can no longer act."""
    return TurnGoesOn(seat, index)


@dataclasses.dataclass(frozen=True)
class TurnGoesOn(Automatic):
    """Fighter ``fighter``'s turn decision comes back once what the seat did has resolved (the
    resonance forest's self-damage of its card first, N187), while the seat is still in, awake and
    not knocked out (KMC 2.3.1, N162) and has someone to attack; otherwise its turn is over."""

    KIND: ClassVar[str] = "cb_turn_on"
    seat: int
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if s.combat is None:
            return advance(s)
        s, forest = g.attack.forest_steps(s)
        if forest:
            return s._replace(queue=forest + s.queue)
        fight = fight_of(s)
        if not alert(fight, self.fighter) or not targets(s, fight, self.fighter):
            return advance(s)
        return advance(s, g.attack.TurnAction(self.seat, self.fighter))


def wake_up(fight: Fight, round_no: int) -> Fight:
    """Knocked-out fighters whose time is over wake as ``round_no`` begins (the absorb ball's
    1d6 rounds; the rest of a round for the geoid bomb, the subspace field and Nike, N162); a
    persuaded E-buster (``wake`` 0, N189) never wakes in this combat."""
    fighters = tuple(f._replace(fainted=False, wake=0, ball_out=False) if f.fainted and f.wake and round_no >= f.wake
                     else f for f in fight.fighters)
    return fight._replace(fighters=fighters)


def end_of_combat(s: LockeState) -> LockeState:
    """The combat's single-use cards still in play are used up: absorb balls and ESP
    controllers go back under the planet stock (seed 000 3.1.3)."""
    fight = fight_of(s)
    for f in fight.fighters:
        for seat, handle in ((f.seat, f.ball_card), (f.ctl_by, f.ctl_card)):
            if seat >= 0 and handle in s.seats[seat].shown:
                s = pc.spend(s, seat, handle)
    return s


#: the turn_cards step kinds (engine/locke/registry.py, the combat family)
STEPS: tuple[type[LockeStep], ...] = (
    ControllerCheck, ControllerRelease, TurnGoesOn,
)

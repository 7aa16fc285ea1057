"""Jessica's disintegration (KMC 2.2.2, 10.7.1, fig. 10.2; rulings N180-N184).

When a combat card attacks her or a member of her party, Jessica may make
the attacker take an ESP level check, after the syncs and before the escape
phase. A 2 on the dice takes the power from her for good and the attack goes
on; a pass lets the attack go on; a failure makes the attack vanish and
drops the attacker's ESP level to 0 (unless the card was played through an
ESP field: then only the attack vanishes). A disintegrated character rolls
1d6 in each of its own turns' check phases: 1 or 2 gives back one level and
10 power, never above the maximum.

Hidden information: asking only the true Jessica would tell everyone who she
is (N180). The target is asked anyway, in its escape decision, so there the
power is one more option of that decision (after which the decision comes
back, if the attack still stands); every other seat on the target's side
that could hold the power by the public record is asked before it. Using it is a claim: when the target is
herself, a claim that her character has the ability; when it is a party
member, her card is turned face up first (KMC 2.2.2 step 1), so a seat
without the ability is caught at once. The level drop and the recovery are
public mods (engine/locke/stats.py "zero" and "regain"), so every later
level declaration is judged on the level the character has now.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import CardsRevealed, Chance, DiceRolled, HiddenOp, Pending
from engine.locke import claims as ck
from engine.locke import fate, kit, stats
from engine.locke.abilities import revealed_user
from engine.locke.actions import CheckValue
from engine.locke.combat.actions import Disintegrate
from engine.locke.combat.common import active, alert, as_now, fight_of, player, put, with_fighter, with_strike
from engine.locke.components import Character
from engine.locke.state import LockeState, Seat, advance, claimed, log, with_seat
from engine.locke.steps import Automatic, LockeStep, Ordered, Rules, SeatDecision, Waiting, answers

RULE = "locke.2.2.2"
ABILITY = "disintegration"
#: The public mark of a power lost for good (a roll of 2, KMC 2.2.2): a mod no stat reads.
LOST = ("ability:" + ABILITY, "set", 0, "game")
#: Outcomes logged as ("cb-disint", user, attacker, level, total, outcome).
REVERSED, PASSED, FAILED = "reversed", "passed", "failed"


def lost(p: Seat) -> bool:
    return tuple(LOST) in (tuple(m) for m in p.mods)


def could_hold(g: Rules, s: LockeState, seat: int) -> bool:
    """By the public record, may ``seat``'s character have the power now? (Not lost for good,
    and not a card turned face up that lacks it.)"""
    p = s.seats[seat]
    if lost(p) or kit.lost(p.mods):  # Hijiri's whim takes it too (seed 002 event 11, N275)
        return False
    shown = dict(s.open_cards).get(p.character)
    return shown is None or g.components.character(shown).has_ability(ABILITY)


@dataclasses.dataclass(frozen=True)
class DisintegrationPhase(Automatic):
    """KMC 10.7.1: the disintegration phase of a combat-card attack on a seat: every other seat
    of the target's party that could hold the power is asked (N180)."""

    KIND: ClassVar[str] = "cb_disint_phase"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        if strike is None or not strike.card or strike.direct or not active(fight, strike.target):
            return advance(s)
        target = fight.fighters[strike.target]
        if not player(target):
            return advance(s)
        asks = tuple(DisintegrationQuestion(f.seat) for j, f in enumerate(fight.fighters)
                     if j != strike.target and player(f) and f.party == target.party and alert(fight, j)
                     and could_hold(g, s, f.seat))
        return advance(s, *asks)


def offered(g: Rules, s: LockeState, seat: int) -> bool:
    """May ``seat`` be offered the power against the attack in flight (by the public record)?"""
    strike = fight_of(s).strike
    return (strike is not None and bool(strike.card) and not strike.direct and not strike.disint_tried
            and could_hold(g, s, seat))


def disintegrate(g: Rules, s: LockeState, seat: int, action: Disintegrate, escape: Ordered | None = None) -> LockeState:
    """``seat``'s answer: a party member's (:class:`DisintegrationQuestion`), or the target's own
    option in its escape decision (``escape``: that decision, which comes back afterwards if the
    attack still stands)."""
    if not action.use:
        return advance(s)
    if not offered(g, s, seat):
        raise IllegalAction("disintegration answers an attack with a combat card, once, before the escape",
                            rule=RULE)
    strike = fight_of(s).strike
    assert strike is not None
    rest = s.queue[1:]
    while rest and isinstance(rest[0], DisintegrationQuestion):  # one try per attack: the others are not asked
        rest = rest[1:]
    s = with_strike(s._replace(queue=s.queue[:1] + rest), strike._replace(disint_tried=True))
    target_seat = fight_of(s).fighters[strike.target].seat
    s = log(s, "cb-disint-try", seat, target_seat)
    check = _check_step(s, seat)
    if escape is not None:  # her own: a claim judged when the card opens
        claim = ck.make(seat, s.step_no, ck.HAS_ABILITY, (s.seats[seat].character,), ABILITY, RULE)
        again = dataclasses.replace(escape, order="")  # asked anew: a controller's order for it too
        return advance(s._replace(**claimed(s, claim)), check, EscapeAgain(strike.target, again))
    return advance(s, DisintegratorShown(seat), check)


@dataclasses.dataclass(frozen=True)
class DisintegrationQuestion(SeatDecision):
    """A member of the attacked seat's party may make the attacker take the check (N180)."""

    KIND: ClassVar[str] = "cb_disint"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Disintegrate(self.seat, False)] + (options(self.seat, as_now(s, self.seat, me))
                                                   if offered(g, s, self.seat) else [])

    @answers(Disintegrate)
    def answer(self, g: Rules, s: LockeState, action: Disintegrate) -> LockeState:
        return disintegrate(g, s, self.seat, action)


@dataclasses.dataclass(frozen=True)
class EscapeAgain(Automatic):
    """The target ``fighter``'s escape decision (``again``) once more, unless the attack vanished."""

    KIND: ClassVar[str] = "cb_disint_back"
    fighter: int
    again: Ordered

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = fight_of(s).strike
        if strike is None or strike.target != self.fighter:
            return advance(s)
        return advance(s, self.again)


def _check_step(s: LockeState, user: int) -> LockeStep:
    """The attacker's level check: a seat declares its level (a claim), unless the public
    ledger fixes it; an obstacle's level is public."""
    fight = fight_of(s)
    strike = fight.strike
    assert strike is not None
    attacker = fight.fighters[strike.attacker]
    if attacker.seat < 0:
        assert attacker.ob is not None
        return DisintegrationRoll(attacker.ob.level, user)
    p = s.seats[attacker.seat]
    known = stats.public(p.mods, p.proofs, "level")
    if known is not None:
        return DisintegrationRoll(known, user)
    return DisintegrationLevel(attacker.seat, user)


@dataclasses.dataclass(frozen=True)
class DisintegratorShown(Waiting):
    """KMC 2.2.2 step 1: for a party member's sake ``seat``'s card is shown to everyone first."""

    KIND: ClassVar[str] = "cb_disint_reveal"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", "characters", (s.seats[self.seat].character,))

    @answers(CardsRevealed)
    def shown(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        s = revealed_user(g, s, self.seat, action, ABILITY, RULE)
        return advance(log(s, "cb-disint-reveal", self.seat, action.cards[0]))


@dataclasses.dataclass(frozen=True)
class DisintegrationLevel(SeatDecision):
    """The attacking seat declares its ESP level for the check disintegrator ``user`` asked."""

    KIND: ClassVar[str] = "cb_disint_level"
    user: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        """Any level up to the true (current) one."""
        me = as_now(s, self.seat, me)
        accepted = fate.check_range(g, s, self.seat, "level")
        top = me.level if me is not None else accepted.stop - 1
        return [CheckValue(self.seat, v) for v in accepted if v <= top]

    @answers(CheckValue)
    def declared(self, g: Rules, s: LockeState, action: CheckValue) -> LockeState:
        accepted = fate.check_range(g, s, self.seat, "level")
        if action.value not in accepted:
            raise IllegalAction(f"declare your ESP level ({accepted.start}..{accepted.stop - 1}) for the level "
                                "check", rule=RULE)
        claim = fate.stat_claim(s, self.seat, "level", "le", action.value, RULE)
        return advance(s._replace(**claimed(s, claim)), DisintegrationRoll(action.value, self.user))


@dataclasses.dataclass(frozen=True)
class DisintegrationRoll(Waiting):
    """The attacker's level check at ``level``, disintegrator ``user``'s doing."""

    KIND: ClassVar[str] = "cb_disint_roll"
    level: int
    user: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.disintegration", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        """A 2 reverses it (the power is gone for good, the attack goes on); at or below the level
        the attack goes on; above it the attack vanishes and the attacker's level drops to 0."""
        fight = fight_of(s)
        strike = fight.strike
        assert strike is not None
        user = self.user
        attacker = fight.fighters[strike.attacker]
        who: int | str = attacker.seat if attacker.seat >= 0 else (attacker.ob.id if attacker.ob else "")
        total = sum(action.faces)
        if total == 2:
            p = s.seats[user]
            s = s._replace(seats=with_seat(s, user, p._replace(mods=p.mods + (LOST,))))
            return advance(log(s, "cb-disint", user, who, self.level, total, REVERSED))
        if total <= self.level:
            return advance(log(s, "cb-disint", user, who, self.level, total, PASSED))
        s = log(with_strike(s, None), "cb-disint", user, who, self.level, total, FAILED)  # the attack still happened
        if strike.field:  # KMC 2.2.2: a field's attack only vanishes
            return advance(log(s, "cb-disint-field", user, who))
        if attacker.seat >= 0:
            p = s.seats[attacker.seat]
            s = s._replace(seats=with_seat(s, attacker.seat, p._replace(mods=p.mods + (("level", "zero", 0, "life"),))))
        else:
            assert attacker.ob is not None
            s = put(s, with_fighter(fight_of(s), strike.attacker, attacker._replace(ob=attacker.ob._replace(level=0))))
        return advance(log(s, "disintegrated", who))


# --- honest legal actions -------------------------------------------------------------------------


def options(seat: int, me: Character | None) -> list[Action]:
    """The use of the power, for a seat that truly has it (``me`` None: the public record allows it)."""
    if me is not None and not me.has_ability(ABILITY):
        return []
    return [Disintegrate(seat, True)]


#: the disintegration's step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (DisintegrationPhase, DisintegrationQuestion, EscapeAgain, DisintegratorShown,
                                      DisintegrationLevel, DisintegrationRoll)

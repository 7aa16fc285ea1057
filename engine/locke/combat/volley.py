"""Seed 002 trap 15, the synchronised attack of the 300: one attack made of turned-up cards.

Why here and not in the trap chart: the victim answers the attack with the
combat's own escape and defence steps (path.py), with its cards dealt from the
combat deck as a combat deals them, so everything it plays is checked and
claimed exactly as in a combat. What the trap adds is small:

    DealCards [H]    the victim is dealt a combat hand (7 cards) privately
    VolleyLevel [D]  it declares its ESP level; it may not declare lower (a claim, N223)
    FaceUpCards [H]  declared + 1 cards are turned face up from the deck
    VolleyStrike [A] every attack card among them syncs into one attack (N223); none: nothing happens
    EscapePhase      the combat's escape and defence steps; an escape avoids the attack but
                     the victim stays where it is (the seed's "no escape effect", Fight.stay)
    CombatEnd        the cards go back to the deck; the log entry "combat"
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.locke import fate, stats
from engine.locke.actions import Stat
from engine.locke.combat.common import fight_of, put, with_strike
from engine.locke.combat.deck import DealCards, FaceUpCards, gathered
from engine.locke.combat.flow import CombatEnd
from engine.locke.combat.path import EscapePhase
from engine.locke.combat.model import DECK, HAND_SIZE, OBSTACLE_PARTY, VOLLEY, Fight, Fighter, Obstacle, Strike
from engine.locke.components import Character
from engine.locke.setup import Shuffle
from engine.locke.state import Combat, LockeState, advance, claimed, log, zone_of
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, answers

RULE = "locke.s002.trap.15"
CAUSE = VOLLEY
#: The 300 as a combatant: never a target (the victim gets no turn), never escaping; its
#: cards are the ones turned up. Level and mind 0: an illusion of the attack's level puts it to sleep.
THE_300 = Obstacle("the-300", 0, 0, 1, traits=("the-300",))
VICTIM, CROWD = 0, 1


def begin(g: Rules, s: LockeState, seat: int) -> LockeState:
    """Start the trap for ``seat`` (its steps go to the front of the queue)."""
    fight = Fight(fighters=(Fighter(seat, 0), Fighter(-1, OBSTACLE_PARTY, ob=THE_300, members=(1,))), stay=True)
    s = s._replace(combat=Combat(CAUSE, s.seats[seat].place, ((seat,), ()), obstacles=(THE_300,), detail=fight))
    s = gathered(g, s)
    s = log(s, "cb-start", CAUSE, s.combat.cell if s.combat else "", [[seat], []], [THE_300.id])
    deal = min(HAND_SIZE, len(zone_of(s, DECK)))
    steps = (Shuffle(DECK), DealCards(seat, VICTIM, deal), VolleyLevel(seat))
    return s._replace(queue=steps + s.queue)


@dataclasses.dataclass(frozen=True)
class VolleyLevel(SeatDecision):
    """The victim declares its ESP level: that many cards and one more turn up."""

    KIND: ClassVar[str] = "v300_level"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        """Any level from the true one up (declaring more turns up more cards: allowed, not wise)."""
        p = s.seats[self.seat]
        low = stats.current(me, p.mods, p.proofs, "level") if me is not None else 0
        return [Stat(self.seat, "level", v) for v in range(low, fate.most(g, s, self.seat, "level") + 1)]

    @answers(Stat)
    def declared(self, g: Rules, s: LockeState, action: Stat) -> LockeState:
        """The declared level sets how many cards turn up; declaring low is the one lie the seed
        forbids, so the claim is "my level is at most this" (op ge)."""
        top = fate.most(g, s, self.seat, "level")
        if action.stat != "level" or not 0 <= action.value <= top:
            raise IllegalAction(f"declare your ESP level, not lower than it is (0..{top})", rule=RULE)
        claim = fate.stat_claim(s, self.seat, "level", "ge", action.value, RULE)
        s = log(s._replace(**claimed(s, claim)), "v300-level", self.seat, action.value)
        count = min(action.value + 1, len(zone_of(s, DECK)))
        return advance(s, FaceUpCards(CROWD, count), VolleyStrike())


@dataclasses.dataclass(frozen=True)
class VolleyStrike(Automatic):
    """Every attack card turned up syncs (the seed treats each as syncable): the highest level
    (the first turned up of equal ones) is the attack, each other one adds a level and its
    firepower, as a sync does (KMC 10.8.1; ruling N223)."""

    KIND: ClassVar[str] = "v300_strike"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        crowd = fight.fighters[CROWD]
        cards = [g.components.combat_card(c) for c in crowd.faces]
        attacks = [c for c in cards if c.type == "attack"]
        victim = fight.fighters[VICTIM].seat
        if not attacks:
            s = log(s, "v300-attack", victim, [c.id for c in cards], "", 0, 0)
            return advance(s, CombatEnd())
        base = max(attacks, key=lambda c: c.level)  # max keeps the first of equal levels
        level = base.level + len(attacks) - 1
        firepower = sum(c.firepower for c in attacks)
        strike = Strike(CROWD, VICTIM, base.id, level, firepower)
        s = log(with_strike(s, strike), "v300-attack", victim, [c.id for c in cards], base.id, level, firepower)
        s = put(s, fight_of(s)._replace(attacked=True))
        return advance(s, EscapePhase(), CombatEnd())


#: the volley's step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (VolleyLevel, VolleyStrike)

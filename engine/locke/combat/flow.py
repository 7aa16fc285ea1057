"""The combat's rounds (KMC 10.1, 10.3, fig. 10.1): start, deal, initiative,
attack turns, going on, the end.

A combat is a run of steps in the state's queue (engine/core/flow.py): :class:`CombatStart`
builds the fighters and rolls the police's weapon check, :class:`JoiningChecks` offers seed
002's joining checks once round 1 is sure, :class:`Joiners` takes the joiners in and
shuffles the combat deck, then every round is :class:`RoundStart` (deal and refill the
hands, KMC 10.3.1; engine/locke/combat/deck.py deals them), :class:`ObstacleJammer`
(obstacles' jammers, KMC 10.3.2), :class:`Initiative` (KMC 10.3.3), one :class:`AttackTurn`
per fighter in that order (engine/locke/combat/path.py does what a turn does),
:class:`PostProcessing` / :class:`GoOnQuestion` / :class:`RoundJudgement` (KMC 10.3.4-5) and
finally :class:`CombatEnd` (KMC 10.3.6, 10.11). Every hidden card moves through the engine's
hidden-card inputs: the deck is shuffled by the driver, each seat's cards are dealt to that
seat alone, obstacles' cards are revealed (ruling N140). The engine never samples anything.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke import fate, setup
from engine.locke.combat import auto, ebuster, followup, latecomers, path, randoms, turn_cards
from engine.locke.combat.actions import GoOn
from engine.locke.combat.common import active, alert, fight_of, parties_left, player, put, targets, with_fighter
from engine.locke.combat.deck import DealCards, FaceUpCards, gathered
from engine.locke.combat.equip import EquipDeclaration, reequip_steps
from engine.locke.combat.model import (
    DEAD,
    DECK,
    ESCAPED,
    HAND_SIZE,
    MAX_ROUNDS,
    OBSTACLE_PARTY,
    TRAPPED,
    VOLLEY,
    Fight,
    Fighter,
    Obstacle,
)
from engine.locke.combat.nike import nike_steps
from engine.locke.combat.talks import LeaveTalks, PartyTalks
from engine.locke.components import Character
from engine.locke.ending import end_game
from engine.locke.planet_cards import Reroll
from engine.locke.state import (
    NO_SEAT, Cell, Combat, LockeState, advance, alive_seats, cell_of, log, party_of, with_cell, with_seat, with_zone,
    zone_of,
)
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, Waiting, answers

RULE = "locke.10"
#: Logged when a combat is called, before seed 002's joining checks (their results follow it).
CALLED = "cb-called"
#: What the end of a combat logs as its resolver (the stand-in logged "resolved by the stand-in").
LOG_TAG = "kmc-10"


def begin(s: LockeState, combat: Combat) -> LockeState:
    """Start ``combat``: its steps go before whatever the queue holds now.
    :class:`CombatStart` sets the fight up and rolls the police's weapon check (seed 002), which
    may call the combat off; only then come seed 002's actually-there / actually-alive offers
    (engine/locke/fate.py, N117), once round 1 is sure (KMC 10.2.1, 10.12.1), and :class:`Joiners`."""
    s = log(s, CALLED, combat.cause, combat.cell)  # where the checks' results start in the log
    return s._replace(combat=combat._replace(detail=None), queue=(CombatStart(),) + s.queue)


def _joiners(s: LockeState) -> tuple[list[int], list[tuple[int, int]], list[tuple[int, int]]]:
    """What the actually-there / actually-alive checks logged since the combat was called
    (engine/locke/fate.py): seats here now, seats arriving in a later round, residual thoughts."""
    now: list[int] = []
    later: list[tuple[int, int]] = []
    thoughts: list[tuple[int, int]] = []
    for event in reversed(s.events):
        if event and event[0] == CALLED:
            break
        if event and event[0] == "joined" and event[4]:  # a firepower: a residual thought
            thoughts.append((event[1], event[4]))
        elif event and event[0] == "joined":
            now.append(event[1])
        elif event and event[0] == "joins-later":
            later.append((event[1], event[3]))
    return now[::-1], later[::-1], thoughts[::-1]


def _join(s: LockeState, fight: Fight, seat: int, thought: int = 0) -> tuple[Fight, tuple[LockeStep, ...]]:
    """A seat the checks brought in fights as a party of its own (N166) and declares its items;
    a residual thought (``thought``: its firepower, N167) joins for a dead seat, declaring nothing."""
    if s.seats[seat].alive == bool(thought) or any(f.seat == seat for f in fight.fighters):
        return fight, ()
    party = max((f.party for f in fight.fighters), default=OBSTACLE_PARTY) + 1
    fight = fight._replace(fighters=fight.fighters + (Fighter(seat, max(party, OBSTACLE_PARTY + 1), thought=thought),))
    return fight, () if thought else (EquipDeclaration(seat, len(fight.fighters) - 1),)


def as_obstacle(record: Any) -> Obstacle:
    """An obstacle record: an :class:`Obstacle`, or the stand-in's (id, level, firepower, durability)."""
    if isinstance(record, Obstacle):
        return record
    ident, level, firepower, durability = record[:4]
    return Obstacle(str(ident), int(level), int(firepower), int(durability))


@dataclasses.dataclass(frozen=True)
class CombatStart(Automatic):
    """The fighters of the called combat, the deck, and the police's weapon checks (seed 002)."""

    KIND: ClassVar[str] = "cb_start"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        c = s.combat
        assert c is not None
        fighters: list[Fighter] = []
        seen: set[int] = set()
        for side, seats in enumerate(c.sides):
            for seat in seats:
                if s.seats[seat].alive and seat not in seen:
                    seen.add(seat)
                    henchmen = c.henchmen if side == 0 and not fighters else 0
                    fighters.append(Fighter(seat, side, henchmen=henchmen))
        for record in c.obstacles:
            ob = as_obstacle(record)
            fighter = Fighter(-1, OBSTACLE_PARTY, ob=ob, members=(ob.durability,) * max(1, ob.squad))
            fighters.append(randoms.equip(g, fighter))  # KMC 10.12.2 (1)-(2): a random character's items
        s = put(s, Fight(fighters=tuple(fighters)))
        s = gathered(g, s)
        s = log(s, "cb-start", c.cause, c.cell, [list(x) for x in c.sides],
                [f.ob.id for f in fighters if f.ob is not None])
        s = randoms.declared(s, tuple(fighters))
        armed = tuple(auto.WeaponCheck(i) for i, f in enumerate(fighters)
                      if f.ob is not None and f.ob.weapon == "weapon-check")
        return advance(s, *armed, JoiningChecks())


@dataclasses.dataclass(frozen=True)
class JoiningChecks(Automatic):
    """KMC 10.2.1, 10.12.1: the joining checks once the combat is sure to reach round 1 (the
    weapon check did not make it a trap, N224): a called-off combat asks nobody and ends."""

    KIND: ClassVar[str] = "cb_joining"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        c = s.combat
        assert c is not None
        if fight_of(s).ended == TRAPPED:
            return advance(s, CombatEnd())
        if c.cause != PRISON_COMBAT:
            s = _prisoners_escape(s)
        joining = fate.joining_steps(s, c.cell, tuple(i for side in c.sides for i in side))
        return advance(s, *joining, Joiners())


def _prisoners_escape(s: LockeState) -> LockeState:
    """Seed 002 prison chart (lines 75-76): an arrested character who takes part in a combat the
    prison chart did not make has escaped (D11, N272) - here a prisoner the combat was called
    against (a declared combat's target on its cell, KMC 8 and 9.2.3) or gathered by the emperor
    plan; one brought by actually-there escapes as it arrives (engine/locke/fate.py ``arrive``)."""
    for f in fight_of(s).fighters:
        if player(f) and s.seats[f.seat].alive and s.seats[f.seat].status == "arrested":
            p = s.seats[f.seat]._replace(status="normal", prison_failures=0)
            s = log(s._replace(seats=with_seat(s, f.seat, p)), "escaped", f.seat, "joined-combat")
    return s


@dataclasses.dataclass(frozen=True)
class Joiners(Automatic):
    """Those the checks brought in join (N166, N167), the newcomers obey the cell (N192), then
    everyone declares its items before round 1 (N160)."""

    KIND: ClassVar[str] = "cb_join"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        now, later, thoughts = _joiners(s)
        fight = fight_of(s)._replace(arrivals=tuple(later))
        joined: tuple[int, ...] = ()
        for seat in now:  # they declare their items with everyone else below
            fight, asks = _join(s, fight, seat)
            if asks:
                s = log(s, "cb-joined", seat)
                joined += (seat,)
        for seat, firepower in thoughts:  # KMC 10.2.1: a party of its own with no cards (N167)
            before = len(fight.fighters)
            fight, _ = _join(s, fight, seat, firepower)
            if len(fight.fighters) > before:
                s = log(s, "cb-thought", seat, firepower)
        fighters = list(fight.fighters)
        s = put(s, fight)
        joined = _on_cell(s, joined)  # a prisoner in a prison combat fights from its prison (N276)
        s, obey = latecomers.obey(g, s, joined)  # KMC 10.2.2: before the cards are dealt (N192)
        equip = tuple(EquipDeclaration(f.seat, i) for i, f in enumerate(fighters) if player(f))
        spare = ebuster.spare_steps(fight_of(s))  # seed 002 trap 11: before the first round
        return advance(s, setup.Shuffle(DECK), *obey, *equip, *spare, RoundStart())


@dataclasses.dataclass(frozen=True)
class RoundStart(Automatic):
    """KMC 10.3.1: a new round; every hand is refilled (7 cards, one more per henchman).
    ``arrived``: the seats due this round have come in already (seed 002 actually-there 5-7)."""

    KIND: ClassVar[str] = "cb_round"
    arrived: bool = False
    stops: bool = False  # the prisoners were asked whether they stop this prison combat (seed 002, D10)

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        if fight.round >= MAX_ROUNDS:
            return advance(put(s, fight._replace(ended="round-limit")), CombatEnd())
        if parties_left(fight) < 2:
            return advance(put(s, fight._replace(ended=fight.ended or "no-opponents")), CombatEnd())
        if not self.stops:  # seed 002 prison 9-10: each prisoner may stop as the round begins
            stops = prison_stops(s)
            if stops:
                return advance(s, *stops, RoundStart(self.arrived, stops=True))
        if not self.arrived:  # seed 002 actually-there 5-7: they come in first, declaring their items
            s, asks = _arrive(g, s, fight, fight.round + 1)
            asks += reequip_steps(fight_of(s))  # KMC 11.4: a true self's new card declares its items (N228)
            if asks:
                return advance(s, *asks, RoundStart(arrived=True, stops=True))
            fight = fight_of(s)
        fight = turn_cards.wake_up(fight, fight.round + 1)  # seed 000 3.1.3: knocked out for some rounds
        fighters = tuple(f._replace(acted=False, done=False, barrier_used=False, jammed_by=(), specials=(),
                                    nike_on=False)
                         for f in fight.fighters)
        fight = fight._replace(round=fight.round + 1, fighters=fighters, attacked=False, wants=(), order=(),
                               rolls=tuple(() for _ in fighters))
        deals: list[LockeStep] = []
        needed = 0
        for i, f in enumerate(fighters):
            if not active(fight, i) or f.thought:  # KMC 10.3.1: no cards for residual thoughts
                continue
            if f.seat >= 0:
                need = HAND_SIZE + f.henchmen + f.extra - len(f.hand)
            elif f.ob is not None and f.ob.cards:
                need = HAND_SIZE + f.henchmen - len(f.hand)  # a random character's henchmen too (KMC 10.12.2 (1))
            else:
                continue
            if need > 0:
                needed += need
                deals.append(DealCards(f.seat, i, need) if f.seat >= 0 else FaceUpCards(i, need))
        s = log(put(s, fight), "cb-round", fight.round)
        if needed > len(zone_of(s, DECK)):  # KMC 10.3.1 note 1: out of cards, every combat ends
            return advance(put(s, fight._replace(ended="no-cards")), CombatEnd())
        jams = tuple(ObstacleJammer(i) for i, f in enumerate(fighters)
                     if f.ob is not None and f.ob.jammer > 0 and active(fight, i) and not f.ball_out)
        first = auto.bombs(s) if fight.round == 1 else ()
        nike = nike_steps(fight)
        talks = (LeaveTalks(), PartyTalks())  # KMC 10.3.1 (3): party talks after the deal (N246)
        return advance(s, *deals, *talks, *first, *nike, *jams, Initiative())




def _jam_targets(s: LockeState, index: int) -> tuple[int, ...]:
    fight = fight_of(s)
    return tuple(j for j in targets(s, fight, index) if player(fight.fighters[j]))


def _jam(s: LockeState, source: int, victim: int) -> LockeState:
    fight = fight_of(s)
    ob = fight.fighters[source].ob
    assert ob is not None
    f = fight.fighters[victim]  # its level is read live (common.obstacle_jam, N238)
    f = f._replace(jammed_by=f.jammed_by + ((source,) if source not in f.jammed_by else ()))
    s = log(put(s, with_fighter(fight, victim, f)), "cb-jammer", ob.id, f.seat, ob.jammer)
    return advance(s)


@dataclasses.dataclass(frozen=True)
class ObstacleJammer(Automatic):
    """KMC 10.12.2 (2): obstacle ``fighter``'s jammer goes on a player picked at random."""

    KIND: ClassVar[str] = "cb_jam"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        options = _jam_targets(s, self.fighter)
        if not options:
            return advance(s)
        if len(options) == 1:
            return _jam(s, self.fighter, options[0])
        return advance(s, JammerVictimPick(self.fighter))


@dataclasses.dataclass(frozen=True)
class JammerVictimPick(Waiting):
    """The player obstacle ``fighter``'s jammer goes on, picked fairly at random (KMC 10.12.2 (2))."""

    KIND: ClassVar[str] = "cb_jam_pick"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.pick", (len(_jam_targets(s, self.fighter)),))

    @answers(DiceRolled)
    def picked(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        return _jam(s, self.fighter, _jam_targets(s, self.fighter)[action.faces[0] - 1])


# --- initiative (KMC 10.3.3; ties roll again, ruling 8) ---------------------------------


@dataclasses.dataclass(frozen=True)
class Initiative(Waiting):
    """Everyone's 2d6 at once: every active fighter, or the ``rollers`` tied before (ruling 8)."""

    KIND: ClassVar[str] = "cb_init"
    rollers: tuple[int, ...] = ()

    def _rollers(self, s: LockeState) -> tuple[int, ...]:
        if self.rollers:
            return self.rollers
        fight = fight_of(s)
        return tuple(i for i in range(len(fight.fighters)) if active(fight, i))

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.initiative", (6, 6) * len(self._rollers(s)))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        """A seat holding a face-down card may re-roll its own two dice with a residential
        district (KMC 10.3.3: each rolls its own; seed 000 3.2.4, ruling N208), so its pair is
        taken as its own roll (:class:`InitiativePair`) where the re-roll is offered."""
        fight = fight_of(s)
        rolls = list(fight.rolls)
        own: list[LockeStep] = []
        for k, i in enumerate(self._rollers(s)):
            pair = (action.faces[2 * k], action.faces[2 * k + 1])
            seat = fight.fighters[i].seat
            if seat >= 0 and s.seats[seat].kept and s.seats[seat].alive:
                own += [Reroll(seat, pair), InitiativePair(seat, i)]
            else:
                rolls[i] = rolls[i] + (sum(pair),)
        s = put(s, fight._replace(rolls=tuple(rolls)))
        return advance(s, *own, InitiativeOrder())


@dataclasses.dataclass(frozen=True)
class InitiativePair(Waiting):
    """Seat ``seat``'s own two initiative dice for its fighter ``fighter`` (KMC 10.3.3), which it
    may re-roll with a residential district (seed 000 3.2.4, ruling N208)."""

    KIND: ClassVar[str] = "cb_init_pair"
    REROLL: ClassVar[bool] = True
    seat: int
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.initiative", (6, 6))

    def roller(self, s: LockeState) -> int:
        return self.seat

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        fight = fight_of(s)
        rolls = list(fight.rolls)
        rolls[self.fighter] = rolls[self.fighter] + (sum(action.faces),)
        return advance(put(s, fight._replace(rolls=tuple(rolls))))


@dataclasses.dataclass(frozen=True)
class InitiativeOrder(Automatic):
    """The order from the rolls; tied fighters roll again (ruling 8)."""

    KIND: ClassVar[str] = "cb_init_order"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        live = [i for i in range(len(fight.fighters)) if active(fight, i)]
        groups: dict[tuple[int, ...], list[int]] = {}
        for i in live:
            groups.setdefault(fight.rolls[i], []).append(i)
        tied = tuple(sorted(i for group in groups.values() if len(group) > 1 for i in group))
        if tied:
            return advance(put(s, fight), Initiative(tied))
        order = tuple(sorted(live, key=lambda i: tuple(-r for r in fight.rolls[i])))
        s = log(put(s, fight._replace(order=order)), "cb-initiative", fight.round, list(order))
        return advance(s, *(AttackTurn(i) for i in order), PostProcessing())


@dataclasses.dataclass(frozen=True)
class AttackTurn(Automatic):
    """KMC 10.4: fighter ``fighter``'s attack turn (a seat decides; an obstacle's automaton acts)."""

    KIND: ClassVar[str] = "cb_turn"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        s, forest = path.forest_steps(s)  # the resonance forest's self-damage of the turn before (N187)
        if forest:
            return s._replace(queue=forest + s.queue)
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        if not active(fight, self.fighter):
            return advance(s)
        s = put(s, with_fighter(fight, self.fighter, f._replace(done=True)))
        if f.fainted or (f.acted and not player(f)):  # knocked out (N162), or a thought that synced (N185)
            return advance(s)
        # KMC 10.4.1: a seat that synced this round (``acted``) has lost only its normal action; its turn
        # still holds the special attacks and the free options (N150)
        if f.seat >= 0:  # KMC 10.4: first the ESP controller's release roll
            return advance(s, *turn_cards.turn_steps(fight, self.fighter), path.TurnAction(f.seat, self.fighter))
        return auto.turn(g, advance(s), self.fighter)


# --- after the turns: going on or ending (KMC 10.3.4-5) -----------------------------------


@dataclasses.dataclass(frozen=True)
class PostProcessing(Automatic):
    """KMC 10.3.4: the round's post-processing; ``left``: the party leaving is done (N246)."""

    KIND: ClassVar[str] = "cb_post"
    left: bool = False

    def run(self, g: Rules, s: LockeState) -> LockeState:
        s, forest = path.forest_steps(s)  # the last turn's resonance-forest self-damage (N187)
        if forest:
            return s._replace(queue=forest + s.queue)
        if not self.left:  # KMC 10.3.4: leaving parties comes first in the post-processing (N246)
            return advance(s, LeaveTalks(), PostProcessing(left=True))
        fight = fight_of(s)
        steps: list[LockeStep] = [Breakdown(i) for i, f in enumerate(fight.fighters)
                                  if f.ob is not None and "round-end-breakdown-roll" in f.ob.traits
                                  and active(fight, i)]
        obstacles = any(f.ob is not None and active(fight, i) for i, f in enumerate(fight.fighters))
        if fight.attacked and not obstacles and parties_left(fight) >= 2:
            # a knocked-out seat answers nothing, so it is not asked (N162, N237)
            steps += [GoOnQuestion(f.seat) for i, f in enumerate(fight.fighters) if player(f) and alert(fight, i)]
        return advance(s, *steps, RoundJudgement())


@dataclasses.dataclass(frozen=True)
class Breakdown(Waiting):
    """Seed 002 trap 3: at each round's end the dark knight ``fighter`` breaks down on 1d6 of 5
    or less."""

    KIND: ClassVar[str] = "cb_breakdown"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.breakdown", (6,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        if action.faces[0] > 5:
            return advance(s)
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        s = put(s, with_fighter(fight, self.fighter, f._replace(state=DEAD, members=tuple(0 for _ in f.members))))
        assert f.ob is not None
        return advance(log(s, "cb-breakdown", f.ob.id))


@dataclasses.dataclass(frozen=True)
class GoOnQuestion(SeatDecision):
    """KMC 10.3.4: the seat says whether it wants the combat to go on."""

    KIND: ClassVar[str] = "cb_go_on"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [GoOn(self.seat, True), GoOn(self.seat, False)]

    @answers(GoOn)
    def answer(self, g: Rules, s: LockeState, action: GoOn) -> LockeState:
        fight = fight_of(s)
        if action.go_on:
            fight = fight._replace(wants=fight.wants + (self.seat,))
        return advance(put(s, fight))


@dataclasses.dataclass(frozen=True)
class RoundJudgement(Automatic):
    """KMC 10.3.5: go on when there was an attack, someone wants to go on (obstacles always
    do) and every party still has someone to attack."""

    KIND: ClassVar[str] = "cb_judge"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        fighters = list(fight.fighters)
        for i, f in enumerate(fighters):  # seed 002 trap 10: golems heal fully at each round's end
            if f.ob is not None and "round-end-full-heal" in f.ob.traits and active(fight, i):
                fighters[i] = f._replace(members=tuple(f.ob.durability if d > 0 else 0 for d in f.members))
        fight = fight._replace(fighters=tuple(fighters))
        obstacles = any(f.ob is not None and active(fight, i) for i, f in enumerate(fight.fighters))
        go_on = fight.attacked and (obstacles or bool(fight.wants)) and parties_left(fight) >= 2
        if go_on:
            return advance(put(s, fight), RoundStart())
        return advance(put(s, fight._replace(ended=fight.ended or "over")), CombatEnd())


# --- a prison combat's stop (seed 002 prison chart 9-10, KMC ch. 12; ruling D10) -----------------

#: ``Combat.cause`` of the prison chart's combat (seed 002 prison 9-10, engine/locke/fate.py).
PRISON_COMBAT = fate.PRISON_COMBAT


def prison_stops(s: LockeState) -> tuple[LockeStep, ...]:
    """In a combat the prison chart made, every character still fighting is asked, as each round
    begins, whether it stops (seed 002 prison 9-10, line 82: each character that took part in the
    combat may declare it, at the start of every round; stopping at round 1 is KMC ch. 12's
    re-arrest instead of fighting, D10; N277: not only the prisoners)."""
    c = s.combat
    if c is None or c.cause != PRISON_COMBAT:
        return ()
    fight = fight_of(s)
    return tuple(PrisonStop(f.seat, i) for i, f in enumerate(fight.fighters)
                 if player(f) and active(fight, i) and s.seats[f.seat].alive)


@dataclasses.dataclass(frozen=True)
class PrisonStop(SeatDecision):
    """Seed 002 prison 9-10 (rulings D10, N277): character ``seat`` (fighter ``fighter``) fights
    on, or stops the prison combat for itself: it leaves the fight where its piece is; a prisoner
    stays in prison, its escape counted as failed (one more on the prison chart's ledger), and
    any other character simply is out of the fight (it had no escape to fail)."""

    KIND: ClassVar[str] = "cb_prison_stop"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [GoOn(self.seat, True), GoOn(self.seat, False)]

    @answers(GoOn)
    def answer(self, g: Rules, s: LockeState, action: GoOn) -> LockeState:
        if action.go_on:
            return advance(s)
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        fight = with_fighter(fight, self.fighter, f._replace(state=ESCAPED))
        fight = fight._replace(stopped=fight.stopped + (self.seat,), ended=fight.ended or "prison-stop")
        s = log(put(s, fight), "cb-prison-stop", self.seat, fight.round + 1)
        assert s.combat is not None
        owner = s.combat.sides[0][0] if s.combat.sides[0] else -1
        # the prisoner the chart rolled for fails when the combat ends (CombatEnd); any other
        # prisoner now; a character not in prison has no escape to fail (N277)
        if self.seat == owner or s.seats[self.seat].status != "arrested":
            return advance(s)
        return advance(fate.prison_failed(s, self.seat, "prison-stop"))


# --- the end (KMC 10.3.6, 10.11) ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class CombatEnd(Automatic):
    """Collect the cards, log the combat, let escapers obey where they landed, and do what the
    combat's cause asks (prison, a cleared combat card)."""

    KIND: ClassVar[str] = "cb_end"

    def run(self, g: Rules, s: LockeState) -> LockeState:

        c = s.combat
        assert c is not None
        s = turn_cards.end_of_combat(s)
        fight = fight_of(s)
        back = zone_of(s, DECK) + fight.used + tuple(h for f in fight.fighters for h in f.hand)
        s = s._replace(zones=with_zone(s, DECK, back))
        participants = tuple(sorted(f.seat for f in fight.fighters if player(f)))
        trapped = fight.ended == TRAPPED  # no combat took place: it settles nothing but a prison (N224, N271)
        # every obstacle destroyed (seed 000 lines 90, 97; seed 002 prison 9-10): one asleep under an
        # illusion, its foe gone by the illusion's teleport (KMC 5.3.2), was not (N274)
        cleared = not trapped and all(f.state == DEAD or not any(d > 0 for d in f.members)
                                      for f in fight.fighters if f.ob is not None)
        s = log(s, "combat", c.cause, c.cell, [list(x) for x in c.sides], list(fight.dead), LOG_TAG, fight.ended,
                fight.round)
        if c.obstacles and cleared:  # read by engine/locke/base_cards.py (alarm devices)
            s = log(s, "obstacles-cleared", c.cause, c.cell)
        # a police trap or the 300's volley is no combat: Hijiri's "present at the final combat" ignores it
        s = s._replace(combat=None, last_combat=s.last_combat if trapped or c.cause == VOLLEY else participants)
        if not alive_seats(s):
            return end_game(s, "all-dead")
        follow: tuple[LockeStep, ...] = latecomers.after(g, s, c.cell, fight.newcomers, fight.escapers)  # N192
        follow += tuple(x for seat in fight.escapers if s.seats[seat].alive  # KMC 10.11 (N147, N190)
                        for x in followup.after_escape(g, s, seat))
        cause = c.cause.split(":", 1)[1] if c.cause.startswith("random-combat:") else ""
        owner = c.sides[0][0] if c.sides[0] else -1
        if trapped and owner >= 0 and s.seats[owner].alive:  # seed 002 weapon check 3: the trap chart instead
            # tied to the card the combat came from (N271): a combat card that turned into a trap catches
            # later arrivals the same way while someone is still caught (seed 000 line 98), and an arrest
            # card goes once the trap's event is over (seed 000 line 90 (2))
            follow += g.trap_steps(owner, c.cell if cause in ("card", "prison") else "")
        if cause == "prison" and owner >= 0 and s.seats[owner].alive:
            # seed 000 3.2.1: the prison is gone with its card; a prisoner that stopped (D10) or escaped
            # (N257) left the fight and stays
            if trapped:  # seed 000 line 90 (2), KMC ch. 12 note 1: the prison turned into a trap (N271)
                s = g.freed(s, owner, "prison-trap")
                return s._replace(queue=follow + s.queue)
            if cleared and owner not in fight.stopped and owner not in fight.escapers:
                if cell_of(s, c.cell).face_up == "arrest":
                    s = s._replace(cells=with_cell(s, c.cell, Cell()))
                s = g.freed(s, owner, "prison-combat")
                return s._replace(queue=follow + s.queue)
            return advance(fate.prison_failed(s, owner, "prison-combat"), *follow)
        if cause == "card" and cleared and cell_of(s, c.cell).face_up == "combat":  # seed 000 3.2.1
            s = s._replace(cells=with_cell(s, c.cell, Cell()))
        if s.phase == "planet" and not any(p.alive and not p.base_player for p in s.seats):
            return s._replace(queue=(g.no_searchers(),))
        found = _three_found(s)
        if found is not None:  # seed 000 3.2.2: a party formed in the combat holds three information cards
            return s._replace(queue=(g.information_found(found),))
        return advance(s, *follow)


def _three_found(s: LockeState) -> int | None:
    """A living party leader whose party holds three information cards in the planet phase, or None.
    A party formed inside a combat (KMC 10.3.1 (3)) is checked as the combat ends, the first moment
    the planet phase can end with every card of the combat back in the deck (seed 000 3.2.2)."""
    if s.phase != "planet":
        return None
    for i, p in enumerate(s.seats):
        if p.alive and p.leader == NO_SEAT and any(q.leader == i for q in s.seats):
            if sum(s.seats[j].info for j in party_of(s, i)) >= 3:
                return i
    return None


def _arrive(g: Rules, s: LockeState, fight: Fight, round_no: int) -> tuple[LockeState, tuple[LockeStep, ...]]:
    """Seed 002 actually-there 5-7: the seat arrives as round 2, 3 or 4 begins, if it still can
    (alive, in a normal, partner or arrested state, KMC 10.2): its piece goes onto the cell and
    it joins as N166 says."""
    assert s.combat is not None
    asks: tuple[LockeStep, ...] = ()
    came: tuple[int, ...] = ()
    for seat, due in fight.arrivals:
        p = s.seats[seat]
        if due == round_no and p.alive and p.status in ("normal", "partner", "arrested"):
            fight, more = _join(s, fight, seat)
            if more:
                s = log(fate.arrive(put(s, fight), seat, s.combat.cell), "cb-arrived", seat, round_no)
                asks += more
                came += (seat,)
    s, obey = latecomers.obey(g, put(s, fight), _on_cell(s, came))  # KMC 10.3.1 (1): before the deal (N192)
    return s, obey + asks


def _on_cell(s: LockeState, seats: tuple[int, ...]) -> tuple[int, ...]:
    """The joiners whose piece is on the combat's cell: they obey it (N192); a prisoner who
    joined a prison combat stayed on its own arrest card (N276, engine/locke/fate.py ``arrive``)."""
    assert s.combat is not None
    cell = s.combat.cell
    return tuple(seat for seat in seats if s.seats[seat].place == cell)


#: the rounds' step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (CombatStart, JoiningChecks, Joiners, RoundStart, ObstacleJammer,
                                      JammerVictimPick, Initiative, InitiativePair, InitiativeOrder, AttackTurn,
                                      PostProcessing, Breakdown, GoOnQuestion, RoundJudgement, PrisonStop, CombatEnd)


"""What happens to a character outside the combat rules: death, revival, prison,
restraint, the transformation check, ESP proofs, and checks on hidden stats.

Why one module: the combat, the planet and base cards and the trap and event charts
all kill, revive, arrest, restrain and check characters; each of those is done in
one way only, here. Fate sits under all of them (the layer order of
engine/locke/registry.py): it never imports the modules that call it. What a caller
does once a check is over is a typed value it hands to fate
(:class:`~engine.locke.steps.Then`, carried by the check's steps), and so is what a
transformation changes in a fight (:class:`TransformationEffects`), so fate never
looks the caller up.

Conventions. Every public function is ``(g, s, ...) -> LockeState``. What needs input
(dice, a declaration, a hidden-card deal) is queued *right after the queue head* (the
step being handled), so a handler that calls these and then ``advance(s)`` lets fate's
steps run next. Hidden stats are never read: the seat declares, the declaration is a
claim judged against ``stats.current(card, mods, proofs)`` when the card opens
(engine/locke/claims.py).

The steps (engine/locke/steps.py), by service:

- death and the ESP controller's release: :class:`ControlRoll`, :class:`ControlDie`;
- the check phase and ESP proofs: :class:`CheckPhase`, :class:`ProofRoll`;
- restraints: :class:`RestraintRoll`, :class:`RestraintTurn`, :class:`ReleaseRoll`;
- the transformation check: :class:`TransformationRoll`, :class:`TrueSelfDeal`,
  :class:`TrueSelfSilhouette`;
- checks: :class:`Check` -> :class:`CheckDeclaration` -> :class:`CheckRoll` ->
  :class:`CheckDone` (which runs the caller's ``then``);
- hits: :class:`Hit` -> :class:`HitDeclaration` -> :class:`HitRoll` -> :class:`HitApply`
  (-> :class:`HitRedeclare` after a true self);
- joining a starting combat: :class:`JoinOffer` -> :class:`JoinRoll` -> :class:`ThoughtRoll`.

Seed 002 and KMC sources: death and clones KMC 8 and seed 000 3.1 (clone); prison
chart and ESP proofs seed 002 "prison"; transformation check seed 002
"transformation"; restraint = the unable-to-act state of KMC 8 (ruling N101).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, ClassVar

from engine.core.actions import Action
from engine.core.claims import Claim
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import CardsDealt, Chance, Decision, DiceRolled, HiddenOp, Pending
from engine.locke import charts, stats
from engine.locke import claims as ck
from engine.locke.claims import FACTS, STAT_OPS
from engine.locke.actions import CheckValue, DeclareDurability, TryRevive
from engine.locke.components import Character
from engine.locke.damage import resolve_damage
from engine.locke.setup import Shuffle, taken_copies
from engine.locke.state import (
    NO_SEAT,
    OFF_BOARD,
    Cell,
    LockeState,
    advance,
    cell_of,
    claimed,
    log,
    with_cell,
    with_seat,
    with_zone,
    zone_of,
)
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, SeatRoll, Then, Waiting, answers

RULE_CHECK = "locke.11.2"
RULE_MIND = "locke.11.3"
RULE_PRISON = "locke.s002.prison"
RULE_TRANSFORM = "locke.s002.transformation"
RULE_CLONE = "locke.8"
RULE_DAMAGE = "locke.s002.damage"
#: Damage column for an attack on a mind already at 0 (ruling N1).
ZERO_MIND_ODDS = "50-1-or-more"
#: Restraints that take a seat out of play: no turn, no check, no hit (N2, N61).
OUT_OF_PLAY = ("black-hole", "wheat")


class Ends(enum.StrEnum):
    """How a restraint ends (ruling N101)."""

    COUNT = "count"  # counts the seat's own turns down
    HEAL = "heal"  # counts down, healing 1 a turn
    MIND = "mind"  # a mind check each own check phase
    DIE = "die"  # a 1d6 each own turn, freeing on the restraint's faces
    NEVER = "never"


@dataclasses.dataclass(frozen=True)
class Restraint:
    """One cause of rest and how it ends (``faces``: the 1d6 faces that free a seat, for DIE)."""

    ends: Ends
    faces: tuple[int, ...] = ()


#: Restraint causes and how each ends (ruling N101). The base cards (KMC 4) and the trap
#: and event charts (seed 002) restrain through this one table.
RESTRAINTS: dict[str, Restraint] = {
    "rest": Restraint(Ends.COUNT),
    "madonna": Restraint(Ends.DIE, (1, 2)),
    "dahlia": Restraint(Ends.HEAL),
    "energy-absorber": Restraint(Ends.COUNT),
    "powder-room": Restraint(Ends.COUNT),
    "goat-farm": Restraint(Ends.COUNT),
    "autograph": Restraint(Ends.COUNT),
    "audio-room": Restraint(Ends.COUNT),
    "deadline": Restraint(Ends.COUNT),  # trap 8 (R22)
    "kurukuru": Restraint(Ends.COUNT),  # event 8
    "skyhawk": Restraint(Ends.MIND),  # event 7 (D25)
    "wheat": Restraint(Ends.DIE, (5, 6)),  # event 9 (D26): back where it was taken from
    "black-hole": Restraint(Ends.NEVER),  # trap 16 (N2)
}

class CheckStat(enum.StrEnum):
    """What a check is made on."""

    LEVEL = "level"  # an ESP level check (KMC 11.2)
    MIND = "mind"  # a mind check (KMC 11.3)


class HitStat(enum.StrEnum):
    """What a hit outside combat lowers."""

    DURABILITY = "durability"  # the seed 002 damage table against the current durability
    MIND = "mind"  # psycho bomb: the mind goes down, never the durability (ruling N1)


class JoinHow(enum.StrEnum):
    """Seed 002's ways into a combat that starts elsewhere (ruling N117)."""

    ALIVE = "alive"  # a dead seat: actually alive
    THERE = "there"  # a living seat elsewhere: actually there
    RACE = "race"  # a dead seat, as the astro race starts (seed 002 event 6, N273): actually alive, to race


# --- helpers ---------------------------------------------------------------------------


def after_head(s: LockeState, *steps: LockeStep) -> LockeState:
    """Queue ``steps`` right after the step being handled (the queue head)."""
    return s._replace(queue=s.queue[:1] + steps + s.queue[1:])


def _seat(s: LockeState, seat: int, **fields: Any) -> LockeState:
    return s._replace(seats=with_seat(s, seat, s.seats[seat]._replace(**fields)))


def stat_claim(s: LockeState, seat: int, stat: str, op: str, n: int, rule: str) -> Claim:
    """The one claim about a seat's current level, power or mind (ruling N100): it carries the
    public ledger it was made against (the stat's mods and the ESP proofs) and is judged as
    ``STAT_OPS[op](n, stats.current(card, mods, proofs, stat))`` when the card opens."""
    if op not in STAT_OPS or stat not in stats.STATS:
        raise ValueError(f"stat claim: stat {stat!r}, op {op!r}")
    p = s.seats[seat]
    mods = [list(m) for m in stats.for_stat(p.mods, stat)]
    return ck.make(seat, s.step_no, ck.STAT_NOW, (p.character,), [str(stat), op, n, mods, p.proofs], rule)


def durability_claim(s: LockeState, seat: int, declared: int, rule: str) -> Claim:
    """The one claim about a seat's durability left: the current durability minus the public
    damage, never below 0 (0 = "that killed me", the astro race)."""
    p = s.seats[seat]
    mods = [list(m) for m in stats.for_stat(p.mods, "durability")]
    return ck.make(seat, s.step_no, ck.DURABILITY_NOW, (p.character,), [declared, p.damage, mods], rule)


def fact_claim(s: LockeState, seat: int, question: str, answer: bool, rule: str) -> Claim:
    if question not in FACTS:
        raise ValueError(f"unknown fact {question!r}")
    return ck.make(seat, s.step_no, ck.FACT, (s.seats[seat].character,), [question, answer], rule)


def _now(s: LockeState, seat: int, me: Character, stat: str) -> int:
    """The seat's current ``stat`` as its own card says (for its honest declarations)."""
    p = s.seats[seat]
    return stats.current(me, p.mods, p.proofs, stat)


# --- death and revival ------------------------------------------------------------------


def kill(g: Rules, s: LockeState, victim: int, *, killer: int = NO_SEAT, cause: str) -> LockeState:
    """Death or elimination (KMC 8): off the board and out of any party, its ESP proofs, its
    restraint, its controller and its until-death changes gone; a trap card that held it is
    removed once nobody else is caught. A no-op for the dead."""
    p = s.seats[victim]
    if not p.alive:
        return s
    seats = list(s.seats)
    seats[victim] = p._replace(alive=False, place=OFF_BOARD, status="normal", leader=NO_SEAT, rest=0, proofs=0,
                               restraint="", home="", controller=NO_SEAT,
                               mods=tuple(m for m in p.mods if m[3] == "game"))
    for i, q in enumerate(seats):  # its partners go on alone
        if q.leader == victim:
            seats[i] = q._replace(leader=NO_SEAT, status="normal")
    if killer != NO_SEAT and killer != victim:
        seats[killer] = seats[killer]._replace(kills=seats[killer].kills + (victim,))
        s = credit_kill(s, killer, victim=victim)
    s = s._replace(seats=tuple(seats))
    s = _let_go(log(s, "died", victim, cause, killer), victim)
    # KMC 4 ESP controller system: every death gives each controlled seat a 1d6 (1 frees it).
    rolls = tuple(ControlRoll(i) for i, q in enumerate(s.seats) if q.alive and q.controller != NO_SEAT)
    return after_head(s, *rolls) if rolls else s


def credit_kill(s: LockeState, killer: int, *, victim: int = NO_SEAT, random_character: str = "") -> LockeState:
    """Record a kill by ``killer``'s own attack in ``kill_log`` with both cards of this moment
    (KMC 11.8.2: a kill that wins stays won whatever happens afterwards; rulings C8, N25): the
    victim is a seat, or a random character of a random combat (its card is public). The
    judgement reads the cards behind the handles at the final reveal, so neither side's later
    transformation changes what was killed by whom."""
    victim_handle = s.seats[victim].character if victim != NO_SEAT else NO_SEAT
    entry = (killer, s.seats[killer].character, victim, victim_handle, random_character)
    return s._replace(kill_log=s.kill_log + (entry,))


def revive(g: Rules, s: LockeState, seat: int, *, cell: str, how: str) -> LockeState:
    """Back alive with full durability (KMC 8, seed 002 actually-alive); E/G back to Evil
    (KMC 6.3, seed 000 clone); the Nova and King-room tries come back (KMC 4); the character
    card's items are whole again (KMC 2.3.2)."""
    s = _seat(s, seat, alive=True, place=cell, status="normal", leader=NO_SEAT, damage=0, rest=0, restraint="",
              home="", converted=False, tried=(), prison_failures=0, proofs=0, gear=())
    return log(forget(s, seat, own=True), "revived", seat, how, cell)


def forget(s: LockeState, seat: int, *, own: bool) -> LockeState:
    """KMC 2.2.1 note: when ``seat`` changes character or comes back to life every player's
    conversion try on it is cleared (and, coming back to life, its own tries too); a new
    character has not shown it can shape-change."""
    seats = [q._replace(converts=tuple(t for t in q.converts if t != seat)) for q in s.seats]
    seats[seat] = seats[seat]._replace(shifter=False, converts=() if own else seats[seat].converts)
    return s._replace(seats=tuple(seats))


@dataclasses.dataclass(frozen=True)
class ControlRoll(Automatic):
    """KMC 4 ESP controller system: after a death, a seat still controlled rolls to be freed."""

    KIND: ClassVar[str] = "ctl_roll"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not s.seats[self.seat].alive or s.seats[self.seat].controller == NO_SEAT:
            return advance(s)
        return advance(s, ControlDie(self.seat))


@dataclasses.dataclass(frozen=True)
class ControlDie(SeatRoll):
    """The controlled seat's 1d6: a 1 frees it (KMC 4)."""

    KIND: ClassVar[str] = "ctl_die"
    PURPOSE: ClassVar[str] = "locke.controller-release"
    DICE: ClassVar[tuple[int, ...]] = (6,)

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        if action.faces[0] == 1:
            s = log(_seat(s, self.seat, controller=NO_SEAT), "control-released", self.seat)
        return advance(s)


# --- prison (seed 000 3.2.1, seed 002 prison chart) ---------------------------------------


def arrest(s: LockeState, seat: int) -> LockeState:
    """Arrest ``seat`` (a leader's partners stay behind, free: ruling N49)."""
    seats = list(s.seats)
    seats[seat] = seats[seat]._replace(status="arrested", leader=NO_SEAT)
    for i, q in enumerate(seats):
        if q.leader == seat:
            seats[i] = q._replace(leader=NO_SEAT, status="normal")
    return s._replace(seats=tuple(seats))


def imprison(g: Rules, s: LockeState, seat: int, *, cause: str) -> LockeState:
    s = arrest(s, seat)
    return log(s, "arrested", seat, s.seats[seat].place, cause)


def escape_from_prison(g: Rules, s: LockeState, seat: int, *, how: str) -> LockeState:
    s = _seat(s, seat, status="normal", prison_failures=0)
    return log(s, "escaped", seat, how)


def add_esp_proof(g: Rules, s: LockeState, seat: int) -> LockeState:
    p = s.seats[seat]
    s = _seat(s, seat, proofs=p.proofs + 1)
    return log(s, "esp-proof", seat, p.proofs + 1)


@dataclasses.dataclass(frozen=True)
class CheckPhase(Automatic):
    """KMC 9.1 check phase: an ESP proof may be removed on 1d6 <= 2, one proof per phase; a
    disintegrated character rolls to get a level back (KMC 2.2.2, engine/locke/combat/disintegration.py)."""

    KIND: ClassVar[str] = "check_phase"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        p = s.seats[self.seat]
        steps: tuple[LockeStep, ...] = (ProofRoll(self.seat),) if p.alive and p.proofs > 0 else ()
        if p.alive and stats.recovering(g.components.characters, p.mods):
            steps += (RecoveryRoll(self.seat),)
        return advance(s, *steps)


@dataclasses.dataclass(frozen=True)
class RecoveryRoll(SeatRoll):
    """KMC 2.2.2: disintegrated ``seat`` rolls 1d6 in its turn's check phase; 1 or 2 gives back
    one level and 10 power (the check phase, :class:`CheckPhase`, queues it)."""

    KIND: ClassVar[str] = "dis_recover"
    PURPOSE: ClassVar[str] = "locke.disintegration-recovery"
    DICE: ClassVar[tuple[int, ...]] = (6,)

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        face = action.faces[0]
        back = face <= 2
        if back:
            p = s.seats[self.seat]
            s = s._replace(seats=with_seat(s, self.seat, p._replace(
                mods=p.mods + (("level", "regain", 1, "life"), ("power", "regain", 10, "life")))))
        return advance(log(s, "disint-recovery", self.seat, face, back))


@dataclasses.dataclass(frozen=True)
class ProofRoll(SeatRoll):
    """Seed 002 prison: the ESP-proof removal roll of the check phase."""

    KIND: ClassVar[str] = "proof_roll"
    PURPOSE: ClassVar[str] = "locke.chart.esp-proof-removal"
    DICE: ClassVar[tuple[int, ...]] = (6,)

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("esp-proof-removal", action.faces)
        if outcome.entry == "removed":
            left = s.seats[self.seat].proofs - 1
            s = log(_seat(s, self.seat, proofs=left), "esp-proof-removed", self.seat, left)
        return advance(s)


# --- restraint (KMC 8 unable to act; seed 002 "restraint", ruling N101) ------------------------


def restrain(g: Rules, s: LockeState, seat: int, *, cause: str, turns: int, cell: str = "") -> LockeState:
    """The seat rests (KMC 8) for ``turns`` of its own turns or until ``cause``'s own release
    (RESTRAINTS); its partners go on alone. ``cell`` names the trap card whose event now holds
    it (seed 000 3.2.1: the card stays until nobody is caught; a newcomer is caught the same way)."""
    if cause not in RESTRAINTS:
        raise ValueError(f"unknown restraint {cause!r}")
    p = s.seats[seat]
    if not p.alive:
        return s
    seats = list(s.seats)
    seats[seat] = p._replace(status="resting", rest=max(0, turns), restraint=cause, leader=NO_SEAT,
                             home=p.place if cause == "wheat" else p.home)
    for i, q in enumerate(seats):
        if q.leader == seat:
            seats[i] = q._replace(leader=NO_SEAT, status="normal")
    s = s._replace(seats=tuple(seats), ongoing=s.ongoing + ((cell, cause, seat),) if cell else s.ongoing)
    if s.current == seat:
        s = s._replace(turn_flags=s.turn_flags + ("no_combat",))
    return log(s, "restrained", seat, cause, turns)


def restrain_roll(g: Rules, s: LockeState, seat: int, *, cause: str, sides: int = 6, times: int = 1) -> LockeState:
    """The seat rests ``times`` x 1d``sides`` turns (the roll right after the queue head)."""
    return after_head(s, RestraintRoll(seat, cause=cause, sides=sides, times=times))


@dataclasses.dataclass(frozen=True)
class RestraintRoll(SeatRoll):
    """How many turns a restraint lasts: ``times`` x 1d``sides``."""

    KIND: ClassVar[str] = "restrain_roll"
    cause: str
    sides: int = 6
    times: int = 1

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.restraint", (self.sides,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        return advance(restrain(g, s, self.seat, cause=self.cause, turns=action.faces[0] * self.times))


def cannot_refuse(s: LockeState, seat: int) -> bool:
    """Deadline (N8), the black hole (N2) and the wheat field (N61) take away the right to refuse
    a victory declaration (KMC 11.1.2)."""
    return s.seats[seat].restraint in ("deadline", "black-hole", "wheat")


def wake(s: LockeState, seat: int, how: str) -> LockeState:
    """The restraint is over: the seat acts again, and a trap card that held it is removed
    once nobody else is caught in it."""
    s = _seat(s, seat, status="normal", rest=0, restraint="", home="")
    s = log(s, "woke", seat, how)
    return _let_go(s, seat)


def _let_go(s: LockeState, seat: int) -> LockeState:
    cells = [c for c, _, i in s.ongoing if i == seat]
    s = s._replace(ongoing=tuple(o for o in s.ongoing if o[2] != seat))
    for cell in cells:
        s = trap_card_done(s, cell)
    return s


def trap_card_done(s: LockeState, cell: str) -> LockeState:
    """Seed 000 3.2.1: a trap or arrest card is removed once its event is over (nobody is still caught)."""
    if not cell or any(o[0] == cell for o in s.ongoing):
        return s
    if cell_of(s, cell).face_up in ("trap", "arrest"):
        return log(s._replace(cells=with_cell(s, cell, Cell())), "card-removed", cell, cell_of(s, cell).face_up)
    return s


@dataclasses.dataclass(frozen=True)
class RestraintTurn(Automatic):
    """A resting seat's turn (KMC 8): count down, or the cause's own release check."""

    KIND: ClassVar[str] = "restraint_turn"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        p = s.seats[self.seat]
        release = RESTRAINTS.get(p.restraint or "rest", RESTRAINTS["rest"])
        if release.ends == Ends.NEVER:
            return advance(s)
        if release.ends == Ends.MIND:
            return advance(check(g, s, self.seat, stat=CheckStat.MIND, then=SkyhawkResisted()))
        if release.ends == Ends.DIE:
            return advance(s, ReleaseRoll(self.seat, release.faces))
        if release.ends == Ends.HEAL and p.damage > 0:
            s = log(_seat(s, self.seat, damage=p.damage - 1), "healed", self.seat, p.restraint)
        rest = max(0, p.rest - 1)
        if rest == 0:
            return advance(wake(s, self.seat, "counted"))
        return advance(_seat(s, self.seat, rest=rest))


@dataclasses.dataclass(frozen=True)
class SkyhawkResisted(Then):
    """Skyhawk Dandy (event 7, D25): a passed mind check in the seat's check phase frees it."""

    KIND: ClassVar[str] = "fate.skyhawk"

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        return advance(wake(s, seat, "mind-check") if success else s)


@dataclasses.dataclass(frozen=True)
class ReleaseRoll(SeatRoll):
    """A restraint that ends on a die (ruling N101): ``faces`` free the seat."""

    KIND: ClassVar[str] = "release_roll"
    PURPOSE: ClassVar[str] = "locke.release"
    DICE: ClassVar[tuple[int, ...]] = (6,)
    REROLL: ClassVar[bool] = True
    faces: tuple[int, ...]

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        p = s.seats[self.seat]
        if action.faces[0] not in self.faces:
            return advance(log(s, "still-restrained", self.seat, p.restraint, action.faces[0]))
        s = wake(s, self.seat, "roll")
        if p.restraint == "wheat":  # D26: harvested back onto the cell it was taken from, if that board is still out
            back = p.home if p.home.startswith("P:" if s.phase == "planet" else "B:") else OFF_BOARD
            s = log(_seat(s, self.seat, place=back), "wheat-harvested", self.seat, back)
        return advance(s)


# --- the transformation check (seed 002) ----------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TransformationEffects:
    """What a transformation changes besides the seat's card and stats: in a fight its fighter
    gains extra combat cards (N186) or, after a true self, loses the old card's items (KMC 11.4,
    N228). Fate's own hits land outside any fight (a newcomer to a combat obeys only cards that
    hit nobody, KMC 10.1, N192), so this base changes nothing but the log; the combat hands fate
    its own (engine/locke/combat/equip.py ``FightTransformation``). The state hash covers it as
    ``[KIND]``."""

    KIND: ClassVar[str] = "fate.no-fight"

    def extra_cards(self, s: LockeState, seat: int, count: int) -> LockeState:
        return log(s, "cb-extra-cards", seat, 0)

    def new_character(self, s: LockeState, seat: int) -> LockeState:
        return s

    def __canonical__(self) -> list[Any]:
        return [self.KIND]


NO_FIGHT = TransformationEffects()


def transformation_step(seat: int, effects: TransformationEffects = NO_FIGHT) -> TransformationRoll:
    """The transformation check's roll (seed 002), for a caller that queues what follows it: the
    damage of the hit that called for it comes after (KMC 11.4, D34)."""
    return TransformationRoll(seat, effects)


def transformation_check(g: Rules, s: LockeState, seat: int,
                         effects: TransformationEffects = NO_FIGHT) -> LockeState:
    return after_head(s, transformation_step(seat, effects))


#: Transformation entries that raise a stat for the rest of the game (seed 002).
_TF_MODS = {"esp-power-plus-10": ("power", 10), "durability-plus-1": ("durability", 1),
            "mind-plus-1": ("mind", 1), "esp-level-plus-1": ("level", 1)}


@dataclasses.dataclass(frozen=True)
class TransformationRoll(SeatRoll):
    """Seed 002 transformation check: 2d6 on the transformation chart."""

    KIND: ClassVar[str] = "tf_roll"
    PURPOSE: ClassVar[str] = "locke.chart.transformation"
    effects: TransformationEffects = NO_FIGHT

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        entry = charts.resolve("transformation", action.faces).entry
        s = log(s, "transformation", self.seat, entry)
        p = s.seats[self.seat]
        if not p.alive:
            return advance(s)
        if entry in _TF_MODS:
            stat, amount = _TF_MODS[entry]
            return advance(_seat(s, self.seat, mods=p.mods + ((stat, "add", amount, "game"),)))
        if entry == "true-self" and zone_of(s, "chars:unused"):
            return advance(s, Shuffle("chars:unused"), TrueSelfDeal(self.seat, self.effects),
                           TrueSelfSilhouette(self.seat))
        if entry == "extra-combat-cards":  # seed 002: two more combat cards, and two more in hand, in a combat
            return advance(self.effects.extra_cards(s, self.seat, 2))
        return advance(s)  # nothing


@dataclasses.dataclass(frozen=True)
class TrueSelfDeal(Waiting):
    """True self (seed 002 transformation): a new character card from the unused pile."""

    KIND: ClassVar[str] = "tf_deal"
    seat: int
    effects: TransformationEffects = NO_FIGHT

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", "chars:unused", zone_of(s, "chars:unused")[:1], to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        """The old card is discarded, the dealt one is the seat's character now."""
        p = s.seats[self.seat]
        unused = zone_of(s, "chars:unused")
        s = s._replace(zones=with_zone(s, "chars:unused", unused[1:]))
        s = s._replace(zones=with_zone(s, "chars:discarded", zone_of(s, "chars:discarded") + (p.character,)))
        s = forget(s, self.seat, own=False)  # KMC 2.2.1 note: a new character, untried
        s = _seat(s, self.seat, character=unused[0], mods=(), seen_by=(), exposed=False, tried=(), damage=0,
                  converted=False, gear=())  # the new card's items are its own, whole (KMC 2.3.2)
        # KMC 11.4: in a combat, the old card's items go (N228)
        return advance(self.effects.new_character(s, self.seat))


def silhouette_copies(g: Rules, s: LockeState) -> tuple[str, ...]:
    """Every silhouette card nobody holds, one entry per copy, in data order."""
    taken = taken_copies(s)
    out: list[str] = []
    for sil in g.components.silhouettes:
        out += [sil.id] * max(0, sil.count - taken.get(sil.id, 0))
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class TrueSelfSilhouette(Waiting):
    """True self: a random free silhouette for the new character."""

    KIND: ClassVar[str] = "tf_silhouette"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.random-silhouette", (max(1, len(silhouette_copies(g, s))),))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        copies = silhouette_copies(g, s)
        if copies:
            new = copies[action.faces[0] - 1]
            old = s.seats[self.seat].silhouette
            s = log(_seat(s, self.seat, silhouette=new), "true-self", self.seat, old, new)
        return advance(s)


# --- checks on hidden stats, and hits outside combat ------------------------------------------
#
# The one implementation of both (issue 12): the planet and base cards, the trap and event
# charts, the abilities and the restraints all queue these steps. A stat the public ledger
# fixes (``stats.public``) is never declared; any other declaration is a claim.


def most(g: Rules, s: LockeState, seat: int, stat: str) -> int:
    """The highest value a declaration of ``stat`` may name for ``seat``: the best character
    card with the seat's public changes (``stats.ceiling``), durability less the damage taken."""
    p = s.seats[seat]
    top = stats.ceiling(g.components.characters, p.mods, p.proofs, stat)
    return max(0, top - p.damage) if stat == "durability" else top


def in_play(s: LockeState, seat: int) -> bool:
    """Alive and able to be checked or hit: not inside the black hole or the wheat field (N2, N61)."""
    p = s.seats[seat]
    return p.alive and p.restraint not in OUT_OF_PLAY


def present(s: LockeState, cell: str) -> tuple[int, ...]:
    """Living characters on ``cell`` (partners included), in seat order."""
    if cell == OFF_BOARD:
        return ()
    return tuple(i for i, p in enumerate(s.seats) if p.alive and p.place == cell)


def check_step(seat: int, *, stat: CheckStat, then: Then) -> Check:
    """An ESP level check (KMC 11.2) or a mind check (KMC 11.3) by ``seat``; ``then.after(g, s,
    seat, success)`` runs after it (not for a seat that is dead or out of play by then)."""
    return Check(seat, stat, then)


def check(g: Rules, s: LockeState, seat: int, *, stat: CheckStat, then: Then) -> LockeState:
    return after_head(s, check_step(seat, stat=stat, then=then))


def check_range(g: Rules, s: LockeState, seat: int, stat: str) -> range:
    """Values the engine accepts for a check declaration (the claim says the rest): a level
    from 0, a mind from 2 (R10), up to what the public ledger allows."""
    return range(0 if stat == "level" else 2, most(g, s, seat, stat) + 1)


def declared_check(s: LockeState, seat: int, *, stat: CheckStat, value: int,
                   then: Then) -> tuple[LockeState, CheckDone | CheckRoll]:
    """The one way to roll a check whose value is already declared (and claimed) or public:
    the state and the step to queue next. 2d6 never make less than 2, so a value below 2 (or
    -1, giving up, ruling N102) fails at once without dice (N221); ``then`` continues as for
    :func:`check_step`."""
    if value < 2:
        return log(s, "check", seat, stat.value, value, 0, False), CheckDone(seat, False, then)
    return s, CheckRoll(seat, stat, value, then)


@dataclasses.dataclass(frozen=True)
class Check(Automatic):
    """A check by ``seat`` on ``stat``: declared unless the public ledger fixes the stat (a mind
    below 2 cannot pass, R10)."""

    KIND: ClassVar[str] = "check"
    seat: int
    stat: CheckStat
    then: Then

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not in_play(s, self.seat):
            return advance(s)
        p = s.seats[self.seat]
        known = stats.public(p.mods, p.proofs, self.stat)
        if known is None:
            return advance(s, CheckDeclaration(self.seat, self.stat, self.then))
        s, roll = declared_check(s, self.seat, stat=self.stat, then=self.then,
                                 value=known if self.stat == CheckStat.LEVEL or known >= 2 else -1)
        return advance(s, roll)


@dataclasses.dataclass(frozen=True)
class CheckDeclaration(SeatDecision):
    """The checked seat declares the value it checks against (a claim that it is within its
    current stat), or -1 to give up (ruling N102)."""

    KIND: ClassVar[str] = "check_value"
    stat: CheckStat
    then: Then

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        accepted = check_range(g, s, self.seat, self.stat)
        top = _now(s, self.seat, me, self.stat) if me is not None else accepted.stop - 1
        out: list[Action] = [CheckValue(self.seat, v) for v in accepted if v <= top]
        return out + [CheckValue(self.seat, -1)]

    @answers(CheckValue)
    def declared(self, g: Rules, s: LockeState, action: CheckValue) -> LockeState:
        rule = RULE_CHECK if self.stat == CheckStat.LEVEL else RULE_MIND
        if action.value != -1:
            accepted = check_range(g, s, self.seat, self.stat)
            if action.value not in accepted:
                raise IllegalAction(f"declare a {self.stat.value} from {accepted.start} to yours, or -1 to fail",
                                    rule=rule)
            s = s._replace(**claimed(s, stat_claim(s, self.seat, self.stat, "le", action.value, rule)))
        s, roll = declared_check(s, self.seat, stat=self.stat, value=action.value, then=self.then)
        return advance(s, roll)


@dataclasses.dataclass(frozen=True)
class CheckRoll(SeatRoll):
    """2d6 at or below the declared ``target`` pass the check (KMC 11.2, 11.3)."""

    KIND: ClassVar[str] = "check_roll"
    REROLL: ClassVar[bool] = True
    stat: CheckStat
    target: int
    then: Then

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.check." + self.stat.value, (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        total = sum(action.faces)
        success = total <= self.target
        s = log(s, "check", self.seat, self.stat.value, self.target, total, success)
        return advance(s, CheckDone(self.seat, success, self.then))


@dataclasses.dataclass(frozen=True)
class CheckDone(Automatic):
    """The check is over: what the caller asked for follows (not for a seat that died or went
    out of play meanwhile)."""

    KIND: ClassVar[str] = "check_done"
    seat: int
    success: bool
    then: Then

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not in_play(s, self.seat):
            return advance(s)
        return self.then.after(g, s, self.seat, self.success)


@dataclasses.dataclass(frozen=True)
class Harm:
    """What hits a seat outside combat (seed 002 damage table): the attack's ``firepower``
    against the current durability, or a fixed ``odds`` column ("10-1"); on the mind instead
    (``stat`` MIND, ruling N1) the mind goes down, never the durability. ``cause`` names it
    in the log and as the cause of a death."""

    cause: str
    firepower: int = 0
    odds: str = ""
    stat: HitStat = HitStat.DURABILITY

    def __canonical__(self) -> list[Any]:
        return [self.cause, self.firepower, self.odds, self.stat.value]


def hit_step(seat: int, *, cause: str, firepower: int = 0, odds: str = "",
             stat: HitStat = HitStat.DURABILITY) -> Hit:
    """A damage check on ``seat`` outside combat (see :class:`Harm`)."""
    return Hit(seat, Harm(cause, firepower, odds, stat))


def take_hit(g: Rules, s: LockeState, seat: int, *, firepower: int, cause: str, odds: str = "",
             stat: HitStat = HitStat.DURABILITY) -> LockeState:
    """An attack on the seat itself outside combat, right after the queue head."""
    return after_head(s, hit_step(seat, cause=cause, firepower=firepower, odds=odds, stat=stat))


def hit_range(g: Rules, s: LockeState, seat: int, stat: str) -> range:
    """Values a hit's declaration may name: a durability left of 1 or more (a seat at 0 is
    dead), a mind from 0 (a mind at 0 reads its own column, N1)."""
    return range(1 if stat == "durability" else 0, most(g, s, seat, stat) + 1)


def _hit_declarations(g: Rules, s: LockeState, seat: int, me: Character | None, stat: HitStat) -> list[Action]:
    """A hit's honest declaration (the stat left; durability after the damage taken), or
    without the card every value the public record allows."""
    accepted = hit_range(g, s, seat, stat)
    if me is not None:
        value = _now(s, seat, me, stat) - (s.seats[seat].damage if stat == HitStat.DURABILITY else 0)
        return [DeclareDurability(seat, max(accepted.start, value))]
    return [DeclareDurability(seat, v) for v in accepted]


def _hit_claim(s: LockeState, seat: int, stat: HitStat, value: int) -> Claim:
    if stat == HitStat.MIND:
        return stat_claim(s, seat, "mind", "eq", value, RULE_MIND)
    return durability_claim(s, seat, value, RULE_DAMAGE)


@dataclasses.dataclass(frozen=True)
class Hit(Automatic):
    """A hit outside combat: the hit stat is declared unless the public ledger fixes it."""

    KIND: ClassVar[str] = "hit"
    seat: int
    harm: Harm

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not in_play(s, self.seat):
            return advance(s)
        stat = self.harm.stat
        p = s.seats[self.seat]
        known = stats.public(p.mods, p.proofs, stat)
        if known is None:
            return advance(s, HitDeclaration(self.seat, self.harm))
        value = max(0, known - p.damage) if stat == HitStat.DURABILITY else known
        return advance(s, HitRoll(self.seat, value, self.harm))


@dataclasses.dataclass(frozen=True)
class HitDeclaration(SeatDecision):
    """The hit seat declares its current durability left (or mind): a claim."""

    KIND: ClassVar[str] = "hit_value"
    harm: Harm

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return _hit_declarations(g, s, self.seat, me, self.harm.stat)

    @answers(DeclareDurability)
    def declared(self, g: Rules, s: LockeState, action: DeclareDurability) -> LockeState:
        stat = self.harm.stat
        accepted = hit_range(g, s, self.seat, stat)
        if action.value not in accepted:
            what = "mind" if stat == HitStat.MIND else "durability (given the damage you have taken)"
            raise IllegalAction(f"declare your current {what}: {accepted.start}..{accepted.stop - 1}",
                                rule=RULE_MIND if stat == HitStat.MIND else RULE_DAMAGE)
        s = s._replace(**claimed(s, _hit_claim(s, self.seat, stat, action.value)))
        return advance(s, HitRoll(self.seat, action.value, self.harm))


@dataclasses.dataclass(frozen=True)
class HitRoll(SeatRoll):
    """2d6 on the damage table against the stat ``before`` the hit. Ruling D34: a
    transformation check the roll calls for comes first, the damage after."""

    KIND: ClassVar[str] = "hit_roll"
    PURPOSE: ClassVar[str] = "locke.chart.damage"
    REROLL: ClassVar[bool] = True
    before: int
    harm: Harm

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        harm, before = self.harm, self.before
        if harm.stat == HitStat.MIND and before <= 0:
            result = resolve_damage(action.faces, odds=ZERO_MIND_ODDS)
        elif harm.odds:
            result = resolve_damage(action.faces, odds=harm.odds)
        else:
            result = resolve_damage(action.faces, attack=harm.firepower, durability=before)
        p = s.seats[self.seat]
        after = 0 if result.eliminated else max(0, before - result.damage)
        s = log(s, "damage", harm.cause, self.seat, harm.stat.value, result.column, result.cell, before, after)
        apply = HitApply(self.seat, before, result.damage, result.eliminated, harm, p.character, len(p.mods))
        if result.transformation:
            return advance(s, transformation_step(self.seat), apply)
        return advance(s, apply)


@dataclasses.dataclass(frozen=True)
class HitApply(Automatic):
    """The rolled damage lands (after any transformation the roll called for): ``character``
    and ``mods_before`` are the seat's card and ledger length at the roll, so a true self
    meanwhile asks the new card to declare, and a gain meanwhile counts."""

    KIND: ClassVar[str] = "hit_apply"
    seat: int
    before: int
    damage: int
    eliminated: bool
    harm: Harm
    character: int
    mods_before: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        p = s.seats[self.seat]
        if not p.alive:
            return advance(s)
        if p.character != self.character:  # true self: the new character declares its durability
            return advance(s, HitRedeclare(self.seat, self.damage, self.eliminated, self.harm))
        stat = self.harm.stat
        gained = sum(int(m[2]) for m in p.mods[self.mods_before:] if m[0] == stat and m[1] == "add")
        return _apply_hit(g, s, self.seat, self.before + gained, self.damage, self.eliminated, self.harm)


def _apply_hit(g: Rules, s: LockeState, seat: int, before: int, damage: int, eliminated: bool,
               harm: Harm) -> LockeState:
    """The damage lands: on the durability (0 kills), or on the mind (ruling N1: lowered until
    death, never below 0, and only an E kills)."""
    p = s.seats[seat]
    after = max(0, before - damage)
    if harm.stat == HitStat.MIND:
        if after != before:
            s = _seat(s, seat, mods=p.mods + (("mind", "add", after - before, "life"),))
    else:
        s = _seat(s, seat, damage=p.damage + (before - after))
    if eliminated or (harm.stat == HitStat.DURABILITY and after <= 0):
        return advance(kill(g, s, seat, cause="eliminated" if eliminated else harm.cause))
    return advance(s)


@dataclasses.dataclass(frozen=True)
class HitRedeclare(SeatDecision):
    """After a true self the new character declares (its damage and changes start afresh)."""

    KIND: ClassVar[str] = "hit_redeclare"
    damage: int
    eliminated: bool
    harm: Harm

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return _hit_declarations(g, s, self.seat, me, self.harm.stat)

    @answers(DeclareDurability)
    def declared(self, g: Rules, s: LockeState, action: DeclareDurability) -> LockeState:
        stat = self.harm.stat
        accepted = hit_range(g, s, self.seat, stat)
        if action.value not in accepted:
            raise IllegalAction(f"declare your new character's {stat.value}: {accepted.start}..{accepted.stop - 1}",
                                rule=RULE_DAMAGE)
        s = s._replace(**claimed(s, _hit_claim(s, self.seat, stat, action.value)))
        return _apply_hit(g, s, self.seat, action.value, self.damage, self.eliminated, self.harm)


# --- when a combat starts: actually there / actually alive / residual thought (seed 002) --------


def joining_steps(s: LockeState, cell: str, fighters: tuple[int, ...]) -> tuple[JoinOffer, ...]:
    """The optional checks seed 002 offers when a combat starts on ``cell`` (ruling N117):
    each dead seat may roll actually-alive; each living seat elsewhere that can act (normal,
    partner or arrested; not restrained, KMC 8) may roll actually-there. Put them before the
    combat's own steps; results land in the log and in ``joined`` events the combat reads."""
    steps = []
    for i, p in enumerate(s.seats):
        if i in fighters:
            continue
        if not p.alive:
            steps.append(JoinOffer(i, JoinHow.ALIVE, cell))
        elif p.status in ("normal", "partner", "arrested") and p.place != cell:
            steps.append(JoinOffer(i, JoinHow.THERE, cell))
    return tuple(steps)


#: ``Combat.cause`` of the prison chart's combat (seed 002 prison 9-10; engine/locke/combat/flow.py).
PRISON_COMBAT = "random-combat:prison"


def arrive(s: LockeState, seat: int, cell: str) -> LockeState:
    """Seed 002 actually-there: the seat's piece goes onto the combat's cell, out of its party
    (its partners are freed too); a prisoner joining a combat escapes (D11). A prisoner joining
    a combat the prison chart made does not (seed 002 prison chart, lines 75-76: only a combat
    not made by the prison chart frees): it fights from its prison, its piece staying on its own
    arrest card, and it is still arrested there after the combat (ruling N276)."""
    p = s.seats[seat]
    if p.status == "arrested" and s.combat is not None and s.combat.cause == PRISON_COMBAT:
        return log(s, "joined-from-prison", seat, p.place)
    seats = list(s.seats)
    seats[seat] = p._replace(place=cell, leader=NO_SEAT, status="normal",
                             prison_failures=0 if p.status == "arrested" else p.prison_failures)
    for i, q in enumerate(seats):
        if q.leader == seat:
            seats[i] = q._replace(leader=NO_SEAT, status="normal")
    s = s._replace(seats=tuple(seats))
    if p.status == "arrested":
        s = log(s, "escaped", seat, "joined-combat")
    return s


@dataclasses.dataclass(frozen=True)
class JoinOffer(SeatDecision):
    """Whether the seat tries actually-alive (``how`` ALIVE) or actually-there (THERE) for the
    combat starting on ``cell``."""

    KIND: ClassVar[str] = "try_revive"
    #: The astro race's offer to the dead (N273) is asked apart: it is no combat to turn up in.
    RACE_PROMPT: ClassVar[str] = "locke.try_revive_race"
    how: JoinHow
    cell: str

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Decision(self.seat, self.RACE_PROMPT) if self.how == JoinHow.RACE else super().pending(g, s)

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [TryRevive(self.seat, True), TryRevive(self.seat, False)]

    @answers(TryRevive)
    def chosen(self, g: Rules, s: LockeState, action: TryRevive) -> LockeState:
        if not action.attempt:
            return advance(s)
        return advance(s, JoinRoll(self.seat, self.how, self.cell))


@dataclasses.dataclass(frozen=True)
class JoinRoll(SeatRoll):
    """Seed 002 actually-alive: 2/12 back alive on the combat cell, 3-5 a residual thought
    (its firepower from the residual-thought chart), else nothing. Actually-there: 2-4 on the
    cell now, 5-7 from round 2-4 (moved when the combat reaches that round), 8-12 not there."""

    KIND: ClassVar[str] = "join_roll"
    how: JoinHow
    cell: str

    @property
    def chart(self) -> str:
        return "actually-there" if self.how == JoinHow.THERE else "actually-alive"

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.chart." + self.chart, (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        chart, seat, cell = self.chart, self.seat, self.cell
        outcome = charts.resolve(chart, action.faces)
        s = log(s, "chart-entry", chart, outcome.entry, seat)
        if self.how == JoinHow.RACE:  # N273: back alive on the race's cell; a residual thought cannot race
            if outcome.entry == "alive" and not s.seats[seat].alive:
                s = revive(g, s, seat, cell=cell, how="actually-alive")
            return advance(s)
        if self.how == JoinHow.ALIVE:
            if outcome.entry == "alive" and not s.seats[seat].alive:
                s = revive(g, s, seat, cell=cell, how="actually-alive")
                return advance(log(s, "joined", seat, cell, 1, 0))
            if outcome.entry == "residual-thought":
                return advance(s, ThoughtRoll(seat, cell))
            return advance(s)
        if outcome.entry == "there-now" and s.seats[seat].alive:
            return advance(log(arrive(s, seat, cell), "joined", seat, cell, 1, 0))
        if outcome.value and int(outcome.value) > 1:
            return advance(log(s, "joins-later", seat, cell, int(outcome.value)))
        return advance(s)


@dataclasses.dataclass(frozen=True)
class ThoughtRoll(SeatRoll):
    """Seed 002 residual thought: its firepower, from the residual-thought chart."""

    KIND: ClassVar[str] = "thought_roll"
    PURPOSE: ClassVar[str] = "locke.chart.residual-thought"
    cell: str

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("residual-thought", action.faces)
        s = log(s, "chart-entry", "residual-thought", outcome.entry, self.seat)
        firepower = int(outcome.value or 0)
        if firepower:
            s = log(s, "joined", self.seat, self.cell, 1, firepower)  # a residual thought with this firepower
        return advance(s)



#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (
    ControlRoll, ControlDie, CheckPhase, ProofRoll, RestraintRoll, RestraintTurn, ReleaseRoll,
    TransformationRoll, TrueSelfDeal, TrueSelfSilhouette, Check, CheckDeclaration, CheckRoll, CheckDone,
    Hit, HitDeclaration, HitRoll, HitApply, HitRedeclare, JoinOffer, JoinRoll, ThoughtRoll, RecoveryRoll,
)


def prison_failed(s: LockeState, seat: int, how: str) -> LockeState:
    """A failed try to leave prison (seed 002 prison chart): one more failure on the ledger."""
    p = s.seats[seat]
    p = p._replace(prison_failures=p.prison_failures + 1)
    return log(s._replace(seats=with_seat(s, seat, p)), "prison-failed", seat, how)

"""The trap chart and the event chart of seed 002, in play (outside combat).

Who rolls: the character that obeys a trap card (seed 000 3.2.1), escapes
prison on row 11, obeys the trap base card (KMC 4), or reaches event 12 (trap
+4); all of them queue :func:`trap_steps`. Every entry logs ``("trap", entry,
seat)`` or ``("event", entry, seat)`` when it fires (the coverage test reads
these). What each entry does is one function in :data:`TRAP_ENTRIES` or
:data:`EVENT_ENTRIES` (keyed by the entry ids of engine/locke/chart_data.py),
and the steps it queues follow it in this module; docs/rules/locke.md ("Trap
and event charts in play") says it in words; the rulings are N1-N10 and N60-N99
in docs/rules/locke-rulings.md.

Entries that start a combat (dark knights, resonance forest, hell divers,
cybers, golems, E-busters, emperor plan) call the combat entry point
(engine/locke/combat/flow.py ``begin``) with cause ``"trap:<entry>"``. Deaths, hits,
checks and restraints go through engine/locke/fate.py; what follows a check is a
typed :class:`~engine.locke.steps.Then` defined here (``After...``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar, NamedTuple

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import (
    EMPTY,
    CardsDealt,
    CardsRevealed,
    CellsOpened,
    Chance,
    DiceRolled,
    HiddenOp,
    Pending,
    Placement,
)
from engine.locke import board, charts, fate, kit, stats
from engine.locke import claims as ck
from engine.locke import planet_cards as pc
from engine.locke.actions import Choose, Keep, Nop, Stat, UseCard
from engine.locke.chart_data import TRAP_PLUS
from engine.locke.combat import volley
from engine.locke.combat.flow import begin
from engine.locke.combat.obstacles import obstacles_from
from engine.locke.components import Character, kind_of
from engine.locke.ending import end_game
from engine.locke.fate import CheckStat, HitStat, check_step, hit_step, present, trap_card_done
from engine.locke.fate import in_play as acts
from engine.locke.outcomes import Context, Opponent, Outcome
from engine.locke.setup import Shuffle, cheat
from engine.locke.state import (
    NO_SEAT,
    OFF_BOARD,
    Cell,
    Combat,
    LockeState,
    advance,
    cell_of,
    claimed,
    lead,
    log,
    party_of,
    with_cell,
    with_seat,
    with_zone,
    zone_of,
)
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, SeatRoll, Then, Waiting, answers

RACE_GOAL = 18
#: The effect type (assets/locke/planets.json) of the Lafnor mirrors, two of which save a seat from
#: the black hole (D27); a kept mirror's level stays hidden, so a use may name its kind.
MIRROR = "mirror-card"


def push(s: LockeState, *steps: LockeStep) -> LockeState:
    """Put ``steps`` at the front of the queue (before whatever waits now)."""
    return s._replace(queue=steps + s.queue)


def trap_steps(seat: int, cell: str, modifier: int = 0) -> tuple[TrapRoll, TrapDone]:
    """Steps for ``seat`` to roll the trap chart (``cell``: where, for the trap card's removal)."""
    return (TrapRoll(seat, modifier, cell), TrapDone(seat, cell))


def enter_trap(g: Rules, s: LockeState, seat: int, cell: str) -> LockeState:
    """Seed 000 3.2.1: a face-up trap card. If someone is still caught in its trap, the new
    arrival is caught by the same kind; otherwise it rolls the trap chart."""
    return caught_again(s, seat, cell) or advance(s, *trap_steps(seat, cell))


def caught_again(s: LockeState, seat: int, cell: str) -> LockeState | None:
    """Seed 000 lines 98 and 100: a trap someone on ``cell`` is still caught in (a trap card's, or
    a combat card's that turned into a trap, N271) catches ``seat`` the same way; None when
    nobody is caught there."""
    ongoing = [kind for c, kind, i in s.ongoing if c == cell and s.seats[i].alive]
    if not ongoing:
        return None
    kind = ongoing[0]
    s = log(s, "trap", "ongoing-" + kind, seat)
    return advance(s, CAUGHT_AGAIN[kind](seat, cell), TrapDone(seat, cell))


def _stat_value(s: LockeState, seat: int, me: Character | None, stat: str) -> int | None:
    """The seat's current ``stat`` as it knows it (durability: what is left after the damage), else None."""
    if me is None:
        return None
    p = s.seats[seat]
    value = stats.current(me, p.mods, p.proofs, stat)
    return value - p.damage if stat == "durability" else value


def _face_up_locke(g: Rules, s: LockeState, seat: int) -> bool:
    p = s.seats[seat]
    card = dict(s.open_cards).get(p.character)
    return bool(p.exposed and card and "locke" in g.components.character(card).counts_as)


def _expose(s: LockeState, seat: int, action: CardsRevealed) -> LockeState:
    p = s.seats[seat]._replace(exposed=True)
    known = dict(s.open_cards)
    opened = tuple((h, c) for h, c in zip(action.handles, action.cards) if h not in known)
    return log(s._replace(seats=with_seat(s, seat, p), open_cards=s.open_cards + opened), "exposed", seat,
               action.cards[0])


def with_zone_state(s: LockeState, name: str, handles: tuple[int, ...]) -> LockeState:
    return s._replace(zones=with_zone(s, name, handles))


# --- the trap chart ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TrapRoll(SeatRoll):
    """2d6 (+ ``modifier``) on the trap chart; the entry's code is :data:`TRAP_ENTRIES`."""

    KIND: ClassVar[str] = "trap_roll"
    PURPOSE: ClassVar[str] = "locke.chart.trap"
    REROLL: ClassVar[bool] = True
    modifier: int
    cell: str

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("trap", action.faces, self.modifier)
        s = log(advance(s), "trap", outcome.entry, self.seat)
        if not acts(s, self.seat):
            return s
        return TRAP_ENTRIES[outcome.entry](g, s, self.seat, self.cell, outcome)


@dataclasses.dataclass(frozen=True)
class TrapDone(Automatic):
    """The trap's event is over for ``seat``: the trap card goes once nobody is caught in it."""

    KIND: ClassVar[str] = "trap_done"
    seat: int
    cell: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return advance(trap_card_done(s, self.cell))


def _combat(g: Rules, s: LockeState, seat: int, cause: str, opponents: tuple[Opponent, ...]) -> LockeState:
    """The seat's party fights the chart's obstacles where it stands."""
    here = s.seats[seat].place
    sides = (party_of(s, lead(s, seat)), ())
    return begin(s, Combat(cause, here, sides, obstacles=obstacles_from(g, opponents, ())))


TrapEntry = Callable[[Rules, LockeState, int, str, Outcome], LockeState]


def _psycho_bomb(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Trap 2: an attack of firepower 20 on the mind (ruling N1)."""
    return push(s, hit_step(seat, cause="psycho-bomb", firepower=20, stat=HitStat.MIND))


def _fight(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Dark knights, hell divers, cybers, E-busters: a combat against the chart's obstacles."""
    return _combat(g, s, seat, "trap:" + outcome.entry, outcome.opponents)


def _forest(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Resonance forest: the random-combat chain (the forest's own rules are the combat's)."""
    return push(s, g.random_combat(seat))


def _golems(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    return push(s, GolemRoll(seat, cell))


def _hallucination(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    return push(s, HallucinationDeclaration(seat))


def _event(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    return push(s, EventRoll(seat, cell))


def _deadline(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Trap 8: every character present rolls its own 1d3 (R22)."""
    here = s.seats[seat].place
    return push(s, *(DeadlineRoll(i, cell) for i in present(s, here) if acts(s, i)))


def _chronos(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Trap 12: mind checks until one passes; each failure is a 1:1 hit."""
    return push(s, check_step(seat, stat=CheckStat.MIND, then=AfterChronosCheck()))


def _genocide(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    return push(s, GenocideRoll(seat))


def _volley(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """The sync attack of the 300 (engine/locke/combat/volley.py)."""
    return volley.begin(g, s, seat)


def _black_hole(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Trap 16 and over (D27): a level check, then two Lafnor mirrors or the fall."""
    return push(s, check_step(seat, stat=CheckStat.LEVEL, then=AfterBlackHoleCheck(cell)))


#: What each trap chart entry does once logged (the roll is off the queue; push what follows).
TRAP_ENTRIES: dict[str, TrapEntry] = {
    "psycho-bomb": _psycho_bomb,
    "dark-knights": _fight, "hell-divers": _fight, "cybers": _fight, "e-buster": _fight, "super-e-buster": _fight,
    "resonance-forest": _forest,
    "golems": _golems,
    "hallucination-attack": _hallucination,
    "event": _event,
    "deadline": _deadline,
    "chronos-trap": _chronos,
    "genocide": _genocide,
    "sync-attack-of-300": _volley,
    "black-hole": _black_hole,
}


@dataclasses.dataclass(frozen=True)
class GolemRoll(SeatRoll):
    """Golems (trap): 1d6 of them to fight."""

    KIND: ClassVar[str] = "golem_roll"
    PURPOSE: ClassVar[str] = "locke.chart.golem-count"
    DICE: ClassVar[tuple[int, ...]] = (6,)
    cell: str

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("golem-count", action.faces)
        if not acts(advance(s), self.seat):
            return advance(s)
        return _combat(g, advance(s), self.seat, "trap:golems", outcome.opponents)


# hallucination attack (trap 6): the exact current ESP level is declared, then 2d6 (R6)


@dataclasses.dataclass(frozen=True)
class HallucinationDeclaration(SeatDecision):
    """Trap 6: the seat declares its exact current ESP level (a claim unless it is public)."""

    KIND: ClassVar[str] = "hallu_declare"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        p = s.seats[self.seat]
        known = stats.public(p.mods, p.proofs, "level")
        level = known if known is not None else _stat_value(s, self.seat, me, "level")
        if level is not None:
            return [Stat(self.seat, "level", level)]
        return [Stat(self.seat, "level", v) for v in range(0, fate.most(g, s, self.seat, "level") + 1)]

    @answers(Stat)
    def declared(self, g: Rules, s: LockeState, action: Stat) -> LockeState:
        p = s.seats[self.seat]
        top = fate.most(g, s, self.seat, "level")
        if action.stat != "level" or not 0 <= action.value <= top:
            raise IllegalAction(f"declare your current ESP level (0..{top})", rule="locke.s002.trap.6")
        known = stats.public(p.mods, p.proofs, "level")
        if known is not None:
            if action.value != known:
                raise IllegalAction(f"your ESP level is {known} (public: a set change or an ESP proof)",
                                    rule="locke.s002.trap.6")
        else:
            claim = fate.stat_claim(s, self.seat, "level", "eq", action.value, "locke.s002.trap.6")
            s = s._replace(**claimed(s, claim))
        return advance(s, HallucinationRoll(self.seat, action.value, 0))


@dataclasses.dataclass(frozen=True)
class HallucinationRoll(SeatRoll):
    """Trap 6: 2d6 against the declared ``level``; doubles roll again, ``carry`` holding the
    firepower so far (R6)."""

    KIND: ClassVar[str] = "hallu_roll"
    PURPOSE: ClassVar[str] = "locke.chart.hallucination"
    REROLL: ClassVar[bool] = True
    level: int
    carry: int

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("hallucination", action.faces, context=Context(esp_level=self.level, carry=self.carry))
        s = log(s, "hallucination", self.seat, outcome.entry, outcome.value)
        if outcome.entry == "miss":
            return advance(s)
        if outcome.next is not None:
            return advance(s, HallucinationRoll(self.seat, self.level, int(outcome.value or 0)))
        return advance(s, hit_step(self.seat, cause="hallucination-attack", firepower=int(outcome.value or 0)))


# deadline (trap 8): each present character rolls its own 1d3 (R22)


@dataclasses.dataclass(frozen=True)
class DeadlineRoll(SeatRoll):
    """Deadline: the seat rests 1d3 turns, held by the trap card on ``cell``."""

    KIND: ClassVar[str] = "deadline_roll"
    PURPOSE: ClassVar[str] = "locke.restraint.deadline"
    DICE: ClassVar[tuple[int, ...]] = (3,)
    cell: str

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        if not acts(s, self.seat):
            return advance(s)
        return advance(fate.restrain(g, s, self.seat, cause="deadline", turns=action.faces[0], cell=self.cell))


# Chronos trap (trap 12): mind checks until one passes; each failure is a 1:1 check


@dataclasses.dataclass(frozen=True)
class AfterChronosCheck(Then):
    """Chronos trap: a passed mind check escapes; a failure is a 1:1 hit, then another check."""

    KIND: ClassVar[str] = "trap.chronos"

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success:
            return advance(log(s, "chronos-trap-escaped", seat))
        return advance(s, hit_step(seat, cause="chronos-trap", odds="1-1"),
                       check_step(seat, stat=CheckStat.MIND, then=self))


# Genocide (trap 14)


@dataclasses.dataclass(frozen=True)
class GenocideRoll(SeatRoll):
    """Genocide: 2d6 for the weapon; the B-bomb is a mind check, the rest a hit."""

    KIND: ClassVar[str] = "genocide_roll"
    PURPOSE: ClassVar[str] = "locke.chart.genocide"
    REROLL: ClassVar[bool] = True

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("genocide", action.faces)
        s = log(advance(s), "genocide", self.seat, outcome.entry)
        if outcome.entry == "b-bomb":
            return push(s, check_step(self.seat, stat=CheckStat.MIND, then=AfterBBombCheck()))
        attack = outcome.attacks[0]
        if attack.odds:
            return push(s, hit_step(self.seat, cause="genocide:" + outcome.entry, odds=attack.odds))
        return push(s, hit_step(self.seat, cause="genocide:" + outcome.entry, firepower=int(attack.firepower or 0)))


@dataclasses.dataclass(frozen=True)
class AfterBBombCheck(Then):
    """Genocide's B-bomb: a failed mind check kills."""

    KIND: ClassVar[str] = "trap.b-bomb"

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        return advance(s if success else fate.kill(g, s, seat, cause="b-bomb"))


# black hole (trap 16 and over, D27)


@dataclasses.dataclass(frozen=True)
class AfterBlackHoleCheck(Then):
    """Black hole: a failed level check falls in, unless two Lafnor mirrors are used (``cell``:
    the trap card's)."""

    KIND: ClassVar[str] = "trap.black-hole"
    cell: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success:
            return advance(log(s, "black-hole-avoided", seat, "check"))
        if len(s.seats[seat].kept) >= 2:
            return advance(s, MirrorChoice(seat))
        return advance(s, BlackHoleFall(seat))


@dataclasses.dataclass(frozen=True)
class MirrorChoice(SeatDecision):
    """The black hole: two kept Lafnor mirrors save the seat (D27), or it falls."""

    KIND: ClassVar[str] = "mirrors"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        mine = pc.known_cards(s, self.seat, knowledge)
        out: list[Action] = [Nop(self.seat)]
        cards = g.components.planets_of(MIRROR)
        lowest = cards[0]  # what an unknown card or a wildcard is named as
        mirrors = [(h, c if c != "wildcard" else "") for h, c in mine
                   if c == "?" or c in cards or pc.can_be(s, h, c, lowest)]
        for a in range(len(mirrors)):
            for b in range(a + 1, len(mirrors)):
                (h1, c1), (h2, c2) = mirrors[a], mirrors[b]
                out.append(UseCard(self.seat, h1, c1 if c1 not in ("", "?") else lowest, other=h2,
                                   choice=c2 if c2 not in ("", "?") else lowest))
        return out

    @answers(Nop)
    def none(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s, BlackHoleFall(self.seat))

    @answers(UseCard)
    def used(self, g: Rules, s: LockeState, action: UseCard) -> LockeState:
        kept = s.seats[self.seat].kept
        named = (g.components.planet_effect(kind_of(action.card)), g.components.planet_effect(kind_of(action.choice)))
        if action.handle not in kept or action.other not in kept or action.handle == action.other \
                or named != (MIRROR, MIRROR):
            raise IllegalAction("name two of your kept cards as Lafnor mirrors (card and choice), or none",
                                rule="locke.s002.trap.16")
        return advance(s, *pc.use_steps(self.seat, action.handle, action.card),
                       *pc.use_steps(self.seat, action.other, action.choice),
                       BlackHoleMirrored(self.seat))


@dataclasses.dataclass(frozen=True)
class BlackHoleMirrored(Automatic):
    """The two mirrors were shown: the black hole is avoided."""

    KIND: ClassVar[str] = "bh_mirrored"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return advance(log(s, "black-hole-avoided", self.seat, "mirrors"))


@dataclasses.dataclass(frozen=True)
class BlackHoleFall(Automatic):
    """D27: in the planet phase the White Hole is always among the unused base cards: death.
    In the base phase the unused base cards are turned up to see."""

    KIND: ClassVar[str] = "bh_fall"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if s.phase == "planet":
            s = log(s, "black-hole-fell", self.seat, "white-hole-unused")
            return advance(fate.kill(g, s, self.seat, cause="black-hole"))
        if not zone_of(s, "base:stock"):
            return _inside(g, s, self.seat)
        return advance(s, BlackHoleStock(self.seat))


def _inside(g: Rules, s: LockeState, seat: int) -> LockeState:
    s = fate.restrain(g, s, seat, cause="black-hole", turns=0)
    s = s._replace(seats=with_seat(s, seat, s.seats[seat]._replace(place=OFF_BOARD)))
    return advance(log(s, "black-hole-fell", seat, "inside"))


@dataclasses.dataclass(frozen=True)
class BlackHoleStock(Waiting):
    """The unused base cards are turned up: a white hole among them kills."""

    KIND: ClassVar[str] = "bh_stock"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", "base:stock", zone_of(s, "base:stock"))

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        known = dict(s.open_cards)
        s = s._replace(open_cards=s.open_cards + tuple((h, c) for h, c in zip(action.handles, action.cards)
                                                       if h not in known))
        if "white-hole" in action.cards:
            s = log(s, "black-hole-fell", self.seat, "white-hole-unused")
            return advance(fate.kill(g, s, self.seat, cause="black-hole"))
        return _inside(g, s, self.seat)


# --- the event chart (trap 7) --------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class EventRoll(SeatRoll):
    """2d6 on the event chart; the entry's code is :data:`EVENT_ENTRIES`."""

    KIND: ClassVar[str] = "event_roll"
    PURPOSE: ClassVar[str] = "locke.chart.event"
    REROLL: ClassVar[bool] = True
    cell: str

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("event", action.faces)
        s = log(advance(s), "event", outcome.entry, self.seat)
        if not acts(s, self.seat):
            return s
        return EVENT_ENTRIES[outcome.entry](g, s, self.seat, self.cell, outcome)


def _necra(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Event 2 (D24): Lockes may turn face up first; then 10:1 for every other living one."""
    asks = tuple(LockeRevealChoice(i) for i in range(s.n) if acts(s, i) and not s.seats[i].exposed)
    return push(s, *asks, NecraHits(seat))


def _psycho_blast(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Event 3 (R19)."""
    if _face_up_locke(g, s, seat):
        return push(s, BlastBacklash(seat))
    return push(s, BlastChoice(seat))


def _misfire(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Event 4 (R20, N9)."""
    return push(s, MisfireRoll(seat))


def _hypno(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Event 5: everyone present turns face up."""
    here = s.seats[seat].place
    return push(s, *(HypnoReveal(i) for i in present(s, here) if not s.seats[i].exposed))


def _astro_race(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Event 6 (N6)."""
    shuffle = (Shuffle("planet:stock"),) if zone_of(s, "planet:stock") else ()
    return push(s, *shuffle, RaceTry(seat), RaceRevivals(seat), RaceStart(seat))


def _skyhawk(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    return push(s, SexDeclaration(seat, cell))


def _kurukuru(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    return push(s, KurukuruRoll(seat, cell))


def _wheat(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    return push(s, WheatHarvest(seat, cell))


def _emperor(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Event 10 (N3): everyone able gathers on the cell, and the seat's party fights the rest."""
    here = s.seats[seat].place
    gathered = tuple(i for i in range(s.n) if acts(s, i))
    seats = list(s.seats)
    for i in gathered:
        seats[i] = seats[i]._replace(place=here)
    s = log(s._replace(seats=tuple(seats)), "emperor-plan", seat, here, list(gathered))
    mine = party_of(s, lead(s, seat))
    others = tuple(i for i in gathered if i not in mine)
    if not others:
        return s
    return begin(s, Combat("emperor-plan", here, (mine, others)))


def _whim(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    return push(s, WhimChoice(seat))


def _trap_plus(g: Rules, s: LockeState, seat: int, cell: str, outcome: Outcome) -> LockeState:
    """Event 12 (R21): the trap chart again with +4."""
    return push(s, TrapRoll(seat, TRAP_PLUS, cell))


#: What each event chart entry does once logged (the roll is off the queue; push what follows).
EVENT_ENTRIES: dict[str, TrapEntry] = {
    "necra-crawley": _necra,
    "psycho-blast": _psycho_blast,
    "d-bomb-misfire": _misfire,
    "hypno-crystal": _hypno,
    "astro-race": _astro_race,
    "skyhawk-dandy": _skyhawk,
    "kurukuru-pa-x": _kurukuru,
    "wheat-harvest": _wheat,
    "emperor-plan": _emperor,
    "hijiri-whim": _whim,
    "trap-plus-4": _trap_plus,
}


@dataclasses.dataclass(frozen=True)
class CharacterReveal(Waiting):
    """The seat's character card is turned face up for everyone."""

    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", "characters", (s.seats[self.seat].character,))


# necra crawley (event 2, D24): Lockes may turn face up first; then 10:1 for every other living one


@dataclasses.dataclass(frozen=True)
class LockeRevealChoice(SeatDecision):
    """Necra Crawley: a Locke may turn its card face up to be spared (D24)."""

    KIND: ClassVar[str] = "locke_reveal"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        out: list[Action] = [Choose(self.seat, "no")]
        if me is None or "locke" in me.counts_as:
            out.append(Choose(self.seat, "reveal"))
        return out

    @answers(Choose)
    def chosen(self, g: Rules, s: LockeState, action: Choose) -> LockeState:
        if action.option == "no":
            return advance(s)
        if action.option != "reveal":
            raise IllegalAction("turn your card face up as a Locke (reveal), or not (no)", rule="locke.s002.event.2")
        return advance(s, LockeReveal(self.seat))


@dataclasses.dataclass(frozen=True)
class LockeReveal(CharacterReveal):
    """A card turned face up as a Locke must be one (a cheat otherwise)."""

    KIND: ClassVar[str] = "locke_reveal_do"

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        if "locke" not in g.components.character(action.cards[0]).counts_as:
            raise cheat(self.seat, f"turned {action.cards[0]} face up as a Locke", "locke.s002.event.2")
        return advance(_expose(s, self.seat, action))


@dataclasses.dataclass(frozen=True)
class NecraHits(Automatic):
    """Necra Crawley's 10:1 hit on every living character but a face-up Locke."""

    KIND: ClassVar[str] = "necra_hits"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        hits = tuple(hit_step(i, cause="necra-crawley", odds="10-1") for i in range(s.n)
                     if acts(s, i) and not _face_up_locke(g, s, i))
        return advance(s, *hits)


# psycho blast (event 3, R19)


@dataclasses.dataclass(frozen=True)
class BlastChoice(SeatDecision):
    """Psycho blast: reveal a Locke (the blast backlashes), say the ESP level is 0, or be blasted
    (+1 level, mind 3): a claim about the level unless it is public."""

    KIND: ClassVar[str] = "blast_choice"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        p = s.seats[self.seat]
        level = stats.public(p.mods, p.proofs, "level")
        if level is None and me is not None:
            level = _stat_value(s, self.seat, me, "level")
        if level is None:
            return [Choose(self.seat, o) for o in ("blast", "level-0", "reveal")]
        if level == 0:
            return [Choose(self.seat, "level-0")]
        out: list[Action] = [Choose(self.seat, "blast")]
        if me is not None and "locke" in me.counts_as:
            out.append(Choose(self.seat, "reveal"))
        return out

    @answers(Choose)
    def chosen(self, g: Rules, s: LockeState, action: Choose) -> LockeState:
        p = s.seats[self.seat]
        known = stats.public(p.mods, p.proofs, "level")
        if action.option == "reveal":
            return advance(s, LockeReveal(self.seat), BlastBacklash(self.seat))
        if action.option not in ("level-0", "blast"):
            raise IllegalAction("choose reveal (a Locke), level-0 or blast", rule="locke.s002.event.3")
        zero = action.option == "level-0"
        if known is not None:
            if zero != (known == 0):
                raise IllegalAction(f"your ESP level is {known} (public)", rule="locke.s002.event.3")
        else:
            claim = fate.stat_claim(s, self.seat, "level", "ge" if zero else "le", 0 if zero else 1,
                                    "locke.s002.event.3")
            s = s._replace(**claimed(s, claim))
        if zero:
            return advance(log(s, "psycho-blast", self.seat, "level-0"))
        p = s.seats[self.seat]
        p = p._replace(mods=p.mods + (("level", "add", 1, "life"), ("mind", "set", 3, "life")))
        return advance(log(s._replace(seats=with_seat(s, self.seat, p)), "psycho-blast", self.seat, "level+1 mind=3"))


@dataclasses.dataclass(frozen=True)
class BlastBacklash(Automatic):
    """A face-up Locke's psycho blast backlashes: 10:1 on everyone present."""

    KIND: ClassVar[str] = "blast_backlash"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        here = s.seats[self.seat].place
        s = log(s, "psycho-blast", self.seat, "backlash")
        return advance(s, *(hit_step(i, cause="psycho-blast", odds="10-1") for i in present(s, here) if acts(s, i)))


# D-bomb misfire (event 4, R20, N9)


@dataclasses.dataclass(frozen=True)
class MisfireRoll(SeatRoll):
    """D-bomb misfire: a random cell of the board in play; its card is destroyed and everyone
    on it makes a level check (a hidden key base there is opened and destroyed)."""

    KIND: ClassVar[str] = "misfire_roll"
    PURPOSE: ClassVar[str] = "locke.chart.random-cell"

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        a, b = action.faces
        cell = (board.random_planet_cell(a, b) if s.phase == "planet" else board.random_base_cell(a, b)).key
        s = log(advance(s), "misfire", self.seat, cell)
        here = cell_of(s, cell)
        checks = tuple(check_step(i, stat=CheckStat.LEVEL, then=AfterMisfireCheck())
                       for i in present(s, cell) if acts(s, i))
        if here.handle is not None:
            destroyed = zone_of(s, "destroyed") + (here.handle,)
            s = s._replace(cells=with_cell(s, cell, Cell()), zones=with_zone(s, "destroyed", destroyed))
            s = log(s, "card-destroyed", cell, "face-down")
        elif here.face_up and here.face_up != "destroyed":
            s = log(s._replace(cells=with_cell(s, cell, Cell())), "card-destroyed", cell, here.face_up)
        if s.phase == "base" and any(p[0] == "keybases" for p in s.placements):
            return push(s, MisfireKeyBase(self.seat, cell), *checks)
        return push(s, *checks)


@dataclasses.dataclass(frozen=True)
class MisfireKeyBase(Waiting):
    """A misfire onto a hidden key base destroys it: the placement of ``cell`` is opened."""

    KIND: ClassVar[str] = "misfire_key"
    seat: int
    cell: str

    def pending(self, g: Rules, s: LockeState) -> Pending:
        zone, placer, cells, handles = next(p for p in s.placements if p[0] == "keybases")[:4]
        return Placement("open", zone, placer, (self.cell,), handles=(handles[cells.index(self.cell)],))

    @answers(CellsOpened)
    def opened(self, g: Rules, s: LockeState, action: CellsOpened) -> LockeState:
        content = action.contents[0]
        known = dict(s.open_cards)
        if action.handles[0] not in known:
            s = s._replace(open_cards=s.open_cards + ((action.handles[0], content),))
        if content == EMPTY:
            return advance(s)
        s = s._replace(cells=with_cell(s, self.cell, Cell(face_up="destroyed")),
                       key_bases_destroyed=s.key_bases_destroyed + 1)
        s = log(s, "key-base-destroyed", NO_SEAT, content, self.cell)
        if s.key_bases_destroyed >= 4:
            return end_game(s, "key-bases", NO_SEAT, present(s, self.cell))
        return advance(s)


@dataclasses.dataclass(frozen=True)
class AfterMisfireCheck(Then):
    """D-bomb misfire: each character on the cell that fails its level check takes a 10:1 hit."""

    KIND: ClassVar[str] = "trap.misfire"

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        return advance(s) if success else advance(s, hit_step(seat, cause="d-bomb-misfire", odds="10-1"))


# hypno crystal (event 5): everyone present turns face up


@dataclasses.dataclass(frozen=True)
class HypnoReveal(CharacterReveal):
    """Hypno crystal: the seat's card is turned face up."""

    KIND: ClassVar[str] = "hypno_reveal"

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        return advance(_expose(s, self.seat, action))


# astro race (event 6, N6)


class Racer(NamedTuple):
    """One racer of the astro race: its total so far and its sixes in a row."""

    seat: int
    total: int = 0
    sixes: int = 0


def _hidden_top(s: LockeState) -> int | None:
    """The first stock card nobody has seen turned up (shown cards wait face up under it)."""
    opened = dict(s.open_cards)
    return next((h for h in zone_of(s, "planet:stock") if h not in opened), None)


@dataclasses.dataclass(frozen=True)
class RaceTry(Automatic):
    """The prize is drawn: stock cards until an ability card (shown cards go under the stock)."""

    KIND: ClassVar[str] = "race_try"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if _hidden_top(s) is None:  # no ability card left to be the prize
            return advance(log(s, "astro-race-prize", self.seat, "none"))
        return advance(s, RaceDraw(self.seat))


@dataclasses.dataclass(frozen=True)
class RaceDraw(Waiting):
    """The top hidden stock card is dealt to the seat alone."""

    KIND: ClassVar[str] = "race_draw"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        top = _hidden_top(s)
        if top is None:
            raise IllegalAction("the planet stock has no hidden card to draw (an engine fault)", rule="locke.guard")
        return HiddenOp("deal", "planet:stock", (top,), to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        return advance(s, RaceKeep(self.seat, action.handles[0]))


@dataclasses.dataclass(frozen=True)
class RaceKeep(SeatDecision):
    """The drawn card ``handle`` becomes the prize, face down (a claim that it is an ability
    card), or is shown and goes under the stock."""

    KIND: ClassVar[str] = "race_keep"
    handle: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        card = knowledge.card(self.handle) if knowledge is not None else None
        if card is None:
            return [Keep(self.seat, True), Keep(self.seat, False)]
        return [Keep(self.seat, g.components.planet(card).kind == "ability")]

    @answers(Keep)
    def chosen(self, g: Rules, s: LockeState, action: Keep) -> LockeState:
        rest = tuple(h for h in zone_of(s, "planet:stock") if h != self.handle)
        if action.keep:  # the prize, face down (a claim that it is an ability card)
            claim = ck.make(self.seat, s.step_no, ck.KEEPS_ABILITY, (self.handle,), None, "locke.s002.event.6")
            s = s._replace(zones=with_zone(with_zone_state(s, "planet:stock", rest), "race:prize", (self.handle,)),
                           **claimed(s, claim))
            return advance(log(s, "astro-race-prize", self.seat, "drawn"))
        return advance(s, RaceShow(self.seat, self.handle))


@dataclasses.dataclass(frozen=True)
class RaceShow(Waiting):
    """The drawn card is shown (an ability card shown is a cheat) and goes under the stock."""

    KIND: ClassVar[str] = "race_show"
    seat: int
    handle: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", "planet:stock", (self.handle,))

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        if g.components.planet(action.cards[0]).kind == "ability":
            raise cheat(self.seat, f"showed the ability card {action.cards[0]} instead of keeping it as the prize",
                        "locke.s002.event.6")
        rest = tuple(h for h in zone_of(s, "planet:stock") if h != self.handle) + (self.handle,)  # under the stock
        s = s._replace(zones=with_zone(s, "planet:stock", rest),
                       open_cards=s.open_cards + ((self.handle, action.cards[0]),))
        return advance(s, RaceTry(self.seat))


@dataclasses.dataclass(frozen=True)
class RaceRevivals(Automatic):
    """Seed 002 event 6: once the prize is drawn, every dead character may roll actually-alive;
    2 or 12 brings it back on the roller's cell in time to race (N273)."""

    KIND: ClassVar[str] = "race_revivals"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not zone_of(s, "race:prize"):
            return advance(s)
        here = s.seats[self.seat].place
        return advance(s, *(fate.JoinOffer(i, fate.JoinHow.RACE, here) for i, p in enumerate(s.seats) if not p.alive))


@dataclasses.dataclass(frozen=True)
class RaceStart(Automatic):
    """Everyone able races, if there is a prize."""

    KIND: ClassVar[str] = "race_start"
    seat: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        racers = tuple(i for i in range(s.n) if acts(s, i))
        if not zone_of(s, "race:prize") or not racers:
            return advance(s)
        s = log(s, "astro-race-start", self.seat, list(racers))
        return advance(s, RaceRoll(self.seat, tuple(Racer(i) for i in racers)))


@dataclasses.dataclass(frozen=True)
class RaceRoll(Waiting):
    """Everyone rolls 1d6 at once; a second six in a row costs 1 durability or retires, a third retires."""

    KIND: ClassVar[str] = "race_roll"
    seat: int
    racers: tuple[Racer, ...]

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.astro-race", tuple(6 for _ in self.racers))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        racers = []
        asks = []
        for (i, total, sixes), face in zip(self.racers, action.faces):
            sixes = sixes + 1 if face == 6 else 0
            if sixes >= 3:
                s = log(s, "astro-race-retired", i, "three-sixes")
                continue
            if sixes == 2:
                asks.append(RaceSix(i))
            racers.append(Racer(i, total + face, sixes))
        return advance(s, *asks, RaceNext(self.seat, tuple(racers)))


def _retired(s: LockeState, seat: int) -> LockeState:
    """``seat`` leaves the race: out of the racers of the race's next step."""
    queue = list(s.queue)
    for k, step in enumerate(queue):
        if isinstance(step, RaceNext):
            queue[k] = dataclasses.replace(step, racers=tuple(r for r in step.racers if r.seat != seat))
            break
    return s._replace(queue=tuple(queue))


@dataclasses.dataclass(frozen=True)
class RaceSix(SeatDecision):
    """A second six in a row: 1 damage (then say whether still alive) or retire."""

    KIND: ClassVar[str] = "race_six"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Choose(self.seat, "damage"), Choose(self.seat, "retire")]

    @answers(Choose)
    def chosen(self, g: Rules, s: LockeState, action: Choose) -> LockeState:
        if action.option not in ("damage", "retire"):
            raise IllegalAction("take 1 damage (damage) or retire from the race (retire)", rule="locke.s002.event.6")
        s = advance(s)
        if action.option == "damage":
            p = s.seats[self.seat]
            s = log(s._replace(seats=with_seat(s, self.seat, p._replace(damage=p.damage + 1))), "astro-race-crash",
                    self.seat)
            return push(s, RaceHurt(self.seat))
        return log(_retired(s, self.seat), "astro-race-retired", self.seat, "chose")


@dataclasses.dataclass(frozen=True)
class RaceHurt(SeatDecision):
    """After the 1 damage the racer says whether it is still alive (a claim on its durability)."""

    KIND: ClassVar[str] = "race_hurt"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        value = _stat_value(s, self.seat, me, "durability")
        if value is not None:
            return [Stat(self.seat, "durability", max(0, value))]
        return [Stat(self.seat, "durability", v) for v in range(0, fate.most(g, s, self.seat, "durability") + 1)]

    @answers(Stat)
    def declared(self, g: Rules, s: LockeState, action: Stat) -> LockeState:
        p = s.seats[self.seat]
        if action.stat != "durability" or not 0 <= action.value <= 20:
            raise IllegalAction("declare your current durability (0: the crash killed you)", rule="locke.s002.event.6")
        known = stats.public(p.mods, p.proofs, "durability")
        if known is not None:
            if action.value != max(0, known - p.damage):
                raise IllegalAction("your durability is public since the change", rule="locke.s002.event.6")
        else:
            s = s._replace(**claimed(s, fate.durability_claim(s, self.seat, action.value, "locke.s002.event.6")))
        if action.value <= 0:
            s = _retired(fate.kill(g, s, self.seat, cause="astro-race"), self.seat)
        return advance(s)


@dataclasses.dataclass(frozen=True)
class RaceNext(Automatic):
    """After a round: the race goes on, or the nearest to 18 past it wins (a tie races again
    among the tied, from the start); nobody left returns the prize under the stock."""

    KIND: ClassVar[str] = "race_next"
    seat: int
    racers: tuple[Racer, ...]

    def run(self, g: Rules, s: LockeState) -> LockeState:
        racers = self.racers
        if not racers:
            s = s._replace(zones=with_zone(s, "planet:stock", zone_of(s, "planet:stock") + zone_of(s, "race:prize")))
            return advance(log(with_zone_state(s, "race:prize", ()), "astro-race-won", NO_SEAT))
        done = [r for r in racers if r.total >= RACE_GOAL]
        if not done:
            return advance(s, RaceRoll(self.seat, racers))
        best = min(r.total for r in done)  # nearest to 18 wins
        first = [r for r in done if r.total == best]
        if len(first) > 1:  # a final among the tied, from the start
            s = log(s, "astro-race-final", [r.seat for r in first])
            return advance(s, RaceRoll(self.seat, tuple(Racer(r.seat) for r in first)))
        winner = first[0].seat
        s = log(s, "astro-race-won", winner)
        return advance(s, RacePrize(winner))


@dataclasses.dataclass(frozen=True)
class RacePrize(Waiting):
    """The winner is dealt the prize, face down."""

    KIND: ClassVar[str] = "race_prize"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", "race:prize", zone_of(s, "race:prize"), to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        p = s.seats[self.seat]
        p = p._replace(kept=p.kept + action.handles)
        return advance(with_zone_state(s._replace(seats=with_seat(s, self.seat, p)), "race:prize", ()))


# Skyhawk Dandy (event 7, D25)


@dataclasses.dataclass(frozen=True)
class SexDeclaration(SeatDecision):
    """Skyhawk Dandy: a female character (a claim) is held until a passed mind check."""

    KIND: ClassVar[str] = "sex_declare"
    cell: str

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        if me is None:
            return [Choose(self.seat, "female"), Choose(self.seat, "not-female")]
        return [Choose(self.seat, "female" if me.sex == "female" else "not-female")]

    @answers(Choose)
    def chosen(self, g: Rules, s: LockeState, action: Choose) -> LockeState:
        if action.option not in ("female", "not-female"):
            raise IllegalAction("say whether your character is female (female / not-female)",
                                rule="locke.s002.event.7")
        female = action.option == "female"
        s = s._replace(**claimed(s, fate.fact_claim(s, self.seat, "female", female, "locke.s002.event.7")))
        if not female:
            return advance(log(s, "skyhawk-dandy", self.seat, "unaffected"))
        return advance(fate.restrain(g, s, self.seat, cause="skyhawk", turns=0, cell=self.cell))


# Kurukuru Pa X (event 8)


@dataclasses.dataclass(frozen=True)
class KurukuruRoll(SeatRoll):
    """Kurukuru Pa X: the seat rests 1d6 turns, held by the trap card on ``cell``."""

    KIND: ClassVar[str] = "kuru_roll"
    PURPOSE: ClassVar[str] = "locke.restraint.kurukuru"
    DICE: ClassVar[tuple[int, ...]] = (6,)
    cell: str

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        if not acts(s, self.seat):
            return advance(s)
        return advance(fate.restrain(g, s, self.seat, cause="kurukuru", turns=action.faces[0], cell=self.cell))


# wheat harvest (event 9)


@dataclasses.dataclass(frozen=True)
class WheatHarvest(Automatic):
    """D26: the seat is taken off the board into the wheat field; engine/locke/fate.py rolls its
    1d6 each turn (5-6 harvests it back where it was)."""

    KIND: ClassVar[str] = "wheat_go"
    seat: int
    cell: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        home = s.seats[self.seat].place
        s = fate.restrain(g, s, self.seat, cause="wheat", turns=0, cell=self.cell)
        s = s._replace(seats=with_seat(s, self.seat, s.seats[self.seat]._replace(place=OFF_BOARD)))
        return advance(log(s, "wheat-field", self.seat, home))


#: A newcomer to a trap card whose event still holds someone is caught the same way
#: (seed 000 3.2.1), by the restraint that holds them (the causes ``fate.restrain`` ties to a cell).
CAUGHT_AGAIN: dict[str, Callable[[int, str], LockeStep]] = {
    "deadline": DeadlineRoll, "kurukuru": KurukuruRoll, "skyhawk": SexDeclaration, "wheat": WheatHarvest,
}


# Hijiri's whim (event 11, N4)


@dataclasses.dataclass(frozen=True)
class WhimChoice(SeatDecision):
    """Hijiri's whim: rolled stats and abilities (a), or four unused characters' stats (b)."""

    KIND: ClassVar[str] = "whim_choice"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        out: list[Action] = [Choose(self.seat, "a")]
        return out + ([Choose(self.seat, "b")] if len(zone_of(s, "chars:unused")) >= 4 else [])

    @answers(Choose)
    def chosen(self, g: Rules, s: LockeState, action: Choose) -> LockeState:
        if action.option == "a":
            return advance(s, WhimStats(self.seat))
        if action.option == "b":
            if len(zone_of(s, "chars:unused")) < 4:
                raise IllegalAction("fewer than four unused characters are left; choose a",
                                    rule="locke.s002.event.11")
            return advance(s, WhimCards(self.seat))
        raise IllegalAction("choose a (rolled stats) or b (four unused characters)", rule="locke.s002.event.11")


def _set_stats(s: LockeState, seat: int, level: int, power: int, durability: int, mind: int, how: str) -> LockeState:
    p = s.seats[seat]
    mods = tuple((stat, "set", value, "life") for stat, value in
                 (("level", level), ("power", power), ("durability", durability), ("mind", mind)))
    p = p._replace(mods=p.mods + mods, damage=0)
    return log(s._replace(seats=with_seat(s, seat, p)), "hijiri-whim", seat, how, [level, power, durability, mind])


@dataclasses.dataclass(frozen=True)
class WhimStats(SeatRoll):
    """Option a: four dice on the whim-stats chart set level, power, durability and mind for
    life, and the abilities are rolled afresh."""

    KIND: ClassVar[str] = "whim_stats"
    PURPOSE: ClassVar[str] = "locke.chart.whim-stats"
    DICE: ClassVar[tuple[int, ...]] = (6, 6, 6, 6)

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("whim-stats", action.faces)
        params = dict(outcome.effects[0].params)
        s = _set_stats(s, self.seat, int(params["esp_level"]), int(params["esp_power"]), int(params["durability"]),
                       int(params["mind"]), "a")
        p = s.seats[self.seat]
        s = s._replace(seats=with_seat(s, self.seat, p._replace(mods=p.mods + (kit.LOST,))))
        return advance(s, WhimAbility(self.seat, ()))


@dataclasses.dataclass(frozen=True)
class WhimAbility(SeatRoll):
    """Abilities: roll 1d6 until two different ones are gained; a second 1 gives experience
    and stops (``got``: the rolls so far, "nothing" for a first 1). An ability rolled again
    is rolled anew (ruling N275: the seed counts abilities, and one ability held twice is
    one). The henchman's own 1d6 follows once the abilities are settled (:class:`WhimHenchman`)."""

    KIND: ClassVar[str] = "whim_ability"
    PURPOSE: ClassVar[str] = "locke.chart.whim-ability"
    DICE: ClassVar[tuple[int, ...]] = (6,)
    got: tuple[str, ...]

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("whim-ability", action.faces)
        got = list(self.got)
        if outcome.entry == "nothing":
            if "nothing" in got:
                got = [x for x in got if x != "nothing"] + ["experience"]
                return _settled(s, self.seat, got)
            got.append("nothing")
        elif outcome.entry in got:  # N275: the same ability again is no second ability
            return advance(log(s, "hijiri-whim-again", self.seat, outcome.entry), WhimAbility(self.seat, self.got))
        else:
            got.append(outcome.entry)
        real = [x for x in got if x != "nothing"]
        if len(real) >= 2:
            return _settled(s, self.seat, real)
        return advance(s, WhimAbility(self.seat, tuple(got)))


def _settled(s: LockeState, seat: int, names: list[str]) -> LockeState:
    """The abilities go on the public ledger (engine/locke/kit.py reads them); a henchman
    ability rolls its 1d6 for the henchman itself (N275)."""
    p = s.seats[seat]
    p = p._replace(mods=p.mods + tuple((kit.PREFIX + n, "set", 1, "life") for n in names))
    s = log(s._replace(seats=with_seat(s, seat, p)), "hijiri-whim-abilities", seat, names)
    return advance(s, WhimHenchman(seat)) if "henchman" in names else advance(s)


@dataclasses.dataclass(frozen=True)
class WhimHenchman(SeatRoll):
    """The whim's henchman ability (seed 002 line 169, entry 5): 1d6, and 4-6 gives one
    henchman (level 2, as KMC's) until death. Rolled once, as the ability is gained (N275):
    the [pre-combat] tag says when a henchman is declared, as KMC 10.3.2 has every henchman
    declared before initiative (T8), and the seed gives no other moment for the roll."""

    KIND: ClassVar[str] = "whim_henchman"
    PURPOSE: ClassVar[str] = "locke.chart.whim-henchman"
    DICE: ClassVar[tuple[int, ...]] = (6,)

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        effect = charts.resolve("whim-ability", (5,)).effects[0]
        gain_min = int(str(dict(effect.params)["gain_min"]))
        if action.faces[0] < gain_min:
            return advance(log(s, "hijiri-whim-henchman", self.seat, action.faces[0], 0))
        p = s.seats[self.seat]
        s = s._replace(seats=with_seat(s, self.seat, p._replace(mods=p.mods + (kit.HENCHMAN,))))
        return advance(log(s, "hijiri-whim-henchman", self.seat, action.faces[0], 1))


@dataclasses.dataclass(frozen=True)
class WhimCards(Waiting):
    """Option b: four unused characters, in order, give level, power, durability and mind."""

    KIND: ClassVar[str] = "whim_cards"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", "chars:unused", zone_of(s, "chars:unused")[:4])

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        unused = zone_of(s, "chars:unused")
        known = dict(s.open_cards)
        s = s._replace(zones=with_zone(s, "chars:unused", unused[4:] + unused[:4]),
                       open_cards=s.open_cards + tuple((h, c) for h, c in zip(action.handles, action.cards)
                                                       if h not in known))
        c = [g.components.character(x) for x in action.cards]
        return advance(_set_stats(s, self.seat, c[0].level, c[1].power, c[2].durability, c[3].mind, "b"))



#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (
    TrapRoll, TrapDone, GolemRoll, HallucinationDeclaration, HallucinationRoll, DeadlineRoll, GenocideRoll,
    MirrorChoice, BlackHoleMirrored, BlackHoleFall, BlackHoleStock, EventRoll, LockeRevealChoice, LockeReveal,
    NecraHits, BlastChoice, BlastBacklash, MisfireRoll, MisfireKeyBase, HypnoReveal, RaceTry, RaceDraw, RaceKeep,
    RaceShow, RaceRevivals, RaceStart, RaceRoll, RaceSix, RaceHurt, RaceNext, RacePrize, SexDeclaration, KurukuruRoll,
    WheatHarvest, WhimChoice, WhimStats, WhimAbility, WhimHenchman, WhimCards,
)


"""The trap chart and the event chart of seed 002, in play (outside combat).

Who rolls: the character that obeys a trap card (seed 000 3.2.1), escapes
prison on row 11, or reaches event 12 (trap +4). Every entry logs
``("trap", entry, seat)`` or ``("event", entry, seat)`` when it fires (the
coverage test reads these). What each entry does is documented per entry in
docs/rules/locke.md ("Trap and event charts in play"); the rulings are N1-N10
and N60-N99 in docs/rules/locke-rulings.md.

Entries that start a combat (dark knights, resonance forest, hell divers,
cybers, golems, E-busters, emperor plan) call the combat entry point
(``engine.locke.combat.begin``) with cause
``"trap:<entry>"``. Deaths and revivals go through engine/locke/fate.py
(``effects.die`` / ``effects.revive``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from engine.core.errors import IllegalAction
from engine.core.pending import (
    EMPTY,
    CardsDealt,
    CardsRevealed,
    CellsOpened,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    Pending,
    Placement,
)
from engine.locke import board, charts, fate, stats
from engine.locke import claims as ck
from engine.locke.actions import Choose, Keep, Nop, Stat, UseCard
from engine.locke.fate import CheckStat, HitStat, check_step, hit_step, present, trap_card_done
from engine.locke.fate import in_play as acts
from engine.locke.chart_data import TRAP_PLUS
from engine.locke.outcomes import Context
from engine.locke.setup import cheat
from engine.locke.state import (
    untyped,
    NO_SEAT,
    OFF_BOARD,
    Cell,
    Combat,
    LockeState,
    Step,
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
from engine.locke.steps import LockeStep, Rules, Then

#: Trap entries that are a combat against the chart's obstacles.
COMBAT_ENTRIES = ("dark-knights", "hell-divers", "cybers", "e-buster", "super-e-buster")
RACE_GOAL = 18


def push(s: LockeState, *steps: Step | LockeStep) -> LockeState:
    """Put ``steps`` at the front of the queue (before whatever waits now)."""
    return s._replace(queue=steps + s.queue)


def trap_steps(seat: int, cell: str, modifier: int = 0) -> tuple[Step, ...]:
    """Steps for ``seat`` to roll the trap chart (``cell``: where, for the trap card's removal)."""
    return (Step("trap_roll", seat, n=modifier, arg=cell), Step("trap_done", seat, arg=cell))


def enter_trap(g: Any, s: LockeState, seat: int, cell: str) -> LockeState:
    """Seed 000 3.2.1: a face-up trap card. If someone is still caught in its trap, the new
    arrival is caught by the same kind; otherwise it rolls the trap chart."""
    ongoing = [kind for c, kind, i in s.ongoing if c == cell and s.seats[i].alive]
    if ongoing:
        kind = ongoing[0]
        s = log(s, "trap", "ongoing-" + kind, seat)
        return advance(s, *_caught_again(s, seat, cell, kind), Step("trap_done", seat, arg=cell))
    return advance(s, *trap_steps(seat, cell))


def _caught_again(s: LockeState, seat: int, cell: str, kind: str) -> tuple[Step, ...]:
    if kind == "deadline":
        return (Step("deadline_roll", seat, arg=cell),)
    if kind == "kurukuru":
        return (Step("kuru_roll", seat, arg=cell),)
    if kind == "skyhawk":
        return (Step("sex_declare", seat, arg=cell),)
    return (Step("wheat_go", seat, arg=cell),)


# --- the trap chart ------------------------------------------------------------------------


def _pending_2d6(purpose: str) -> Any:
    def pending(g: Any, s: LockeState, step: Step) -> Pending:
        return Chance(purpose, (6, 6))
    return pending


def _pending_d6(purpose: str) -> Any:
    def pending(g: Any, s: LockeState, step: Step) -> Pending:
        return Chance(purpose, (6,))
    return pending


def _on_trap_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    seat, cell = step.seat, step.arg
    outcome = charts.resolve("trap", action.faces, step.n)
    s = log(advance(s), "trap", outcome.entry, seat)
    if not acts(s, seat):
        return s
    entry = outcome.entry
    if entry == "psycho-bomb":
        return push(s, hit_step(seat, cause="psycho-bomb", firepower=20, stat=HitStat.MIND))
    if entry in COMBAT_ENTRIES:
        return _combat(g, s, seat, "trap:" + entry, outcome.opponents)
    if entry == "resonance-forest":  # random-combat chain (the forest's own rules are combat's)
        return push(s, Step("rc_roll", seat, arg="forest"))
    if entry == "golems":
        return push(s, Step("golem_roll", seat, arg=cell))
    if entry == "hallucination-attack":
        return push(s, Step("hallu_declare", seat, arg=cell))
    if entry == "event":
        return push(s, Step("event_roll", seat, arg=cell))
    if entry == "deadline":
        here = s.seats[seat].place
        return push(s, *(Step("deadline_roll", i, arg=cell) for i in present(s, here) if acts(s, i)))
    if entry == "chronos-trap":
        return push(s, check_step(seat, stat=CheckStat.MIND, then=AfterChronosCheck()))
    if entry == "genocide":
        return push(s, Step("genocide_roll", seat, arg=cell))
    if entry == "sync-attack-of-300":
        from engine.locke.combat import volley

        return volley.begin(g, s, seat)
    assert entry == "black-hole", entry
    return push(s, check_step(seat, stat=CheckStat.LEVEL, then=AfterBlackHoleCheck(cell)))


def _combat(g: Any, s: LockeState, seat: int, cause: str, opponents: Any) -> LockeState:
    from engine.locke.combat import begin
    from engine.locke.combat import obstacles_from as obstacles_of

    here = s.seats[seat].place
    sides = (party_of(s, lead(s, seat)), ())
    return begin(s, Combat(cause, here, sides, obstacles=obstacles_of(g, opponents, ())))


def _on_trap_done(g: Any, s: LockeState, step: Step) -> LockeState:
    return advance(trap_card_done(s, step.arg))


def _on_golem_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("golem-count", action.faces)
    if not acts(advance(s), step.seat):
        return advance(s)
    return _combat(g, advance(s), step.seat, "trap:golems", outcome.opponents)


# hallucination attack (trap 6): the exact current ESP level is declared, then 2d6 (R6)


def _on_hallu_declare(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Stat)
    p = s.seats[step.seat]
    top = fate.most(g, s, step.seat, "level")
    if action.stat != "level" or not 0 <= action.value <= top:
        raise IllegalAction(f"declare your current ESP level (0..{top})", rule="locke.s002.trap.6")
    known = stats.public(p.mods, p.proofs, "level")
    if known is not None:
        if action.value != known:
            raise IllegalAction(f"your ESP level is {known} (public: a set change or an ESP proof)",
                                rule="locke.s002.trap.6")
    else:
        s = s._replace(**claimed(s, fate.stat_claim(s, step.seat, "level", "eq", action.value, "locke.s002.trap.6")))
    return advance(s, Step("hallu_roll", step.seat, n=action.value, arg="0"))


def _on_hallu_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    carry = int(step.arg)
    outcome = charts.resolve("hallucination", action.faces, context=Context(esp_level=step.n, carry=carry))
    s = log(s, "hallucination", step.seat, outcome.entry, outcome.value)
    if outcome.entry == "miss":
        return advance(s)
    if outcome.next is not None:
        return advance(s, Step("hallu_roll", step.seat, n=step.n, arg=str(outcome.value)))
    return advance(s, hit_step(step.seat, cause="hallucination-attack", firepower=int(outcome.value or 0)))


# deadline (trap 8): each present character rolls its own 1d3 (R22)


def _pending_d3(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.restraint.deadline", (3,))


def _on_deadline_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    if not acts(s, step.seat):
        return advance(s)
    return advance(fate.restrain(g, s, step.seat, cause="deadline", turns=action.faces[0], cell=step.arg))


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


def _on_genocide_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("genocide", action.faces)
    s = log(advance(s), "genocide", step.seat, outcome.entry)
    if outcome.entry == "b-bomb":
        return push(s, check_step(step.seat, stat=CheckStat.MIND, then=AfterBBombCheck()))
    attack = outcome.attacks[0]
    if attack.odds:
        return push(s, hit_step(step.seat, cause="genocide:" + outcome.entry, odds=attack.odds))
    return push(s, hit_step(step.seat, cause="genocide:" + outcome.entry, firepower=int(attack.firepower or 0)))


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
            return advance(s, Step("mirrors", seat, arg=self.cell))
        return advance(s, Step("bh_fall", seat, arg=self.cell))


def _on_mirrors(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    from engine.locke.planet_cards import use_steps

    if isinstance(action, Nop):
        return advance(s, Step("bh_fall", step.seat, arg=step.arg))
    assert isinstance(action, UseCard)
    kept = s.seats[step.seat].kept
    if action.handle not in kept or action.other not in kept or action.handle == action.other \
            or not action.card.startswith("lafnor-mirror") or not action.choice.startswith("lafnor-mirror"):
        raise IllegalAction("name two of your kept cards as Lafnor mirrors (card and choice), or none",
                            rule="locke.s002.trap.16")
    return advance(s, *use_steps(step.seat, action.handle, action.card),
                   *use_steps(step.seat, action.other, action.choice),
                   Step("bh_mirrored", step.seat))


def _auto_bh_mirrored(g: Any, s: LockeState, step: Step) -> LockeState:
    return advance(log(s, "black-hole-avoided", step.seat, "mirrors"))


def _auto_bh_fall(g: Any, s: LockeState, step: Step) -> LockeState:
    """D27: in the planet phase the White Hole is always among the unused base cards: death.
    In the base phase the unused base cards are turned up to see."""
    if s.phase == "planet":
        s = log(s, "black-hole-fell", step.seat, "white-hole-unused")
        return advance(fate.kill(g, s, step.seat, cause="black-hole"))
    if not zone_of(s, "base:stock"):
        return _inside(g, s, step.seat)
    return advance(s, Step("bh_stock", step.seat))


def _inside(g: Any, s: LockeState, seat: int) -> LockeState:
    s = fate.restrain(g, s, seat, cause="black-hole", turns=0)
    s = s._replace(seats=with_seat(s, seat, s.seats[seat]._replace(place=OFF_BOARD)))
    return advance(log(s, "black-hole-fell", seat, "inside"))


def _pending_bh_stock(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "base:stock", zone_of(s, "base:stock"))


def _on_bh_stock(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """The unused base cards are turned up (LOCKE-PLAN 4.28): a white hole among them kills."""
    assert isinstance(action, CardsRevealed)
    known = dict(s.open_cards)
    s = s._replace(open_cards=s.open_cards + tuple((h, c) for h, c in zip(action.handles, action.cards)
                                                   if h not in known))
    if "white-hole" in action.cards:
        s = log(s, "black-hole-fell", step.seat, "white-hole-unused")
        return advance(fate.kill(g, s, step.seat, cause="black-hole"))
    return _inside(g, s, step.seat)


# --- the event chart (trap 7) --------------------------------------------------------------


def _on_event_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    seat, cell = step.seat, step.arg
    outcome = charts.resolve("event", action.faces)
    entry = outcome.entry
    s = log(advance(s), "event", entry, seat)
    if not acts(s, seat):
        return s
    here = s.seats[seat].place
    if entry == "necra-crawley":
        asks = tuple(Step("locke_reveal", i, arg="necra") for i in range(s.n) if acts(s, i) and not s.seats[i].exposed)
        return push(s, *asks, Step("necra_hits", seat))
    if entry == "psycho-blast":
        if _face_up_locke(g, s, seat):
            return push(s, Step("blast_backlash", seat))
        return push(s, Step("blast_choice", seat))
    if entry == "d-bomb-misfire":
        return push(s, Step("misfire_roll", seat))
    if entry == "hypno-crystal":
        return push(s, *(Step("hypno_reveal", i) for i in present(s, here) if not s.seats[i].exposed))
    if entry == "astro-race":
        shuffle = (Step("shuffle", -1, arg="planet:stock"),) if zone_of(s, "planet:stock") else ()
        return push(s, *shuffle, Step("race_try", seat), Step("race_start", seat))
    if entry == "skyhawk-dandy":
        return push(s, Step("sex_declare", seat, arg=cell))
    if entry == "kurukuru-pa-x":
        return push(s, Step("kuru_roll", seat, arg=cell))
    if entry == "wheat-harvest":
        return push(s, Step("wheat_go", seat, arg=cell))
    if entry == "emperor-plan":
        return _emperor(g, s, seat)
    if entry == "hijiri-whim":
        return push(s, Step("whim_choice", seat))
    assert entry == "trap-plus-4", entry
    return push(s, Step("trap_roll", seat, n=TRAP_PLUS, arg=cell))


def _face_up_locke(g: Any, s: LockeState, seat: int) -> bool:
    p = s.seats[seat]
    card = dict(s.open_cards).get(p.character)
    return bool(p.exposed and card and "locke" in g.components.character(card).counts_as)


def _pending_reveal_character(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "characters", (s.seats[step.seat].character,))


def _expose(s: LockeState, seat: int, action: CardsRevealed) -> LockeState:
    p = s.seats[seat]._replace(exposed=True)
    known = dict(s.open_cards)
    opened = tuple((h, c) for h, c in zip(action.handles, action.cards) if h not in known)
    return log(s._replace(seats=with_seat(s, seat, p), open_cards=s.open_cards + opened), "exposed", seat,
               action.cards[0])


# necra crawley (event 2, D24): Lockes may turn face up first; then 10:1 for every other living one


def _on_locke_reveal(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Choose)
    if action.option == "no":
        return advance(s)
    if action.option != "reveal":
        raise IllegalAction("turn your card face up as a Locke (reveal), or not (no)", rule="locke.s002.event.2")
    return advance(s, Step("locke_reveal_do", step.seat))


def _on_locke_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    if "locke" not in g.components.character(action.cards[0]).counts_as:
        raise cheat(step.seat, f"turned {action.cards[0]} face up as a Locke", "locke.s002.event.2")
    return advance(_expose(s, step.seat, action))


def _auto_necra_hits(g: Any, s: LockeState, step: Step) -> LockeState:
    hits = tuple(hit_step(i, cause="necra-crawley", odds="10-1") for i in range(s.n) if acts(s, i) and not _face_up_locke(g, s, i))
    return advance(s, *hits)


# psycho blast (event 3, R19)


def _on_blast_choice(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Choose)
    p = s.seats[step.seat]
    known = stats.public(p.mods, p.proofs, "level")
    if action.option == "reveal":
        return advance(s, Step("locke_reveal_do", step.seat), Step("blast_backlash", step.seat))
    if action.option not in ("level-0", "blast"):
        raise IllegalAction("choose reveal (a Locke), level-0 or blast", rule="locke.s002.event.3")
    zero = action.option == "level-0"
    if known is not None:
        if zero != (known == 0):
            raise IllegalAction(f"your ESP level is {known} (public)", rule="locke.s002.event.3")
    else:
        claim = fate.stat_claim(s, step.seat, "level", "ge" if zero else "le", 0 if zero else 1, "locke.s002.event.3")
        s = s._replace(**claimed(s, claim))
    if zero:
        return advance(log(s, "psycho-blast", step.seat, "level-0"))
    p = s.seats[step.seat]
    p = p._replace(mods=p.mods + (("level", "add", 1, "life"), ("mind", "set", 3, "life")))
    return advance(log(s._replace(seats=with_seat(s, step.seat, p)), "psycho-blast", step.seat, "level+1 mind=3"))


def _auto_blast_backlash(g: Any, s: LockeState, step: Step) -> LockeState:
    here = s.seats[step.seat].place
    s = log(s, "psycho-blast", step.seat, "backlash")
    return advance(s, *(hit_step(i, cause="psycho-blast", odds="10-1") for i in present(s, here) if acts(s, i)))


# D-bomb misfire (event 4, R20, N9)


def _on_misfire_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    a, b = action.faces
    cell = (board.random_planet_cell(a, b) if s.phase == "planet" else board.random_base_cell(a, b)).key
    s = log(advance(s), "misfire", step.seat, cell)
    here = cell_of(s, cell)
    checks = tuple(check_step(i, stat=CheckStat.LEVEL, then=AfterMisfireCheck()) for i in present(s, cell) if acts(s, i))
    if here.handle is not None:
        destroyed = zone_of(s, "destroyed") + (here.handle,)
        s = s._replace(cells=with_cell(s, cell, Cell()), zones=with_zone(s, "destroyed", destroyed))
        s = log(s, "card-destroyed", cell, "face-down")
    elif here.face_up and here.face_up != "destroyed":
        s = log(s._replace(cells=with_cell(s, cell, Cell())), "card-destroyed", cell, here.face_up)
    if s.phase == "base" and any(p[0] == "keybases" for p in s.placements):
        return push(s, Step("misfire_key", step.seat, arg=cell), *checks)
    return push(s, *checks)


def _pending_misfire_key(g: Any, s: LockeState, step: Step) -> Pending:
    zone, placer, cells, handles = next(p for p in s.placements if p[0] == "keybases")[:4]
    return Placement("open", zone, placer, (step.arg,), handles=(handles[cells.index(step.arg)],))


def _on_misfire_key(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """LOCKE-PLAN 4.28: a misfire onto a hidden key base destroys it."""
    from engine.locke.declare import end_game

    assert isinstance(action, CellsOpened)
    content = action.contents[0]
    known = dict(s.open_cards)
    if action.handles[0] not in known:
        s = s._replace(open_cards=s.open_cards + ((action.handles[0], content),))
    if content == EMPTY:
        return advance(s)
    s = s._replace(cells=with_cell(s, step.arg, Cell(face_up="destroyed")),
                   key_bases_destroyed=s.key_bases_destroyed + 1)
    s = log(s, "key-base-destroyed", NO_SEAT, content, step.arg)
    if s.key_bases_destroyed >= 4:
        return end_game(s, "key-bases", NO_SEAT, present(s, step.arg))
    return advance(s)


@dataclasses.dataclass(frozen=True)
class AfterMisfireCheck(Then):
    """D-bomb misfire: each character on the cell that fails its level check takes a 10:1 hit."""

    KIND: ClassVar[str] = "trap.misfire"

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        return advance(s) if success else advance(s, hit_step(seat, cause="d-bomb-misfire", odds="10-1"))


# hypno crystal (event 5): everyone present turns face up


def _on_hypno_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    return advance(_expose(s, step.seat, action))


# astro race (event 6, N6)


def _hidden_top(s: LockeState) -> int | None:
    """The first stock card nobody has seen turned up (shown cards wait face up under it)."""
    opened = dict(s.open_cards)
    return next((h for h in zone_of(s, "planet:stock") if h not in opened), None)


def _auto_race_try(g: Any, s: LockeState, step: Step) -> LockeState:
    if _hidden_top(s) is None:  # no ability card left to be the prize
        return advance(log(s, "astro-race-prize", step.seat, "none"))
    return advance(s, Step("race_draw", step.seat))


def _pending_race_draw(g: Any, s: LockeState, step: Step) -> Pending:
    top = _hidden_top(s)
    assert top is not None
    return HiddenOp("deal", "planet:stock", (top,), to_seat=step.seat)


def _on_race_drawn(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsDealt)
    return advance(s, Step("race_keep", step.seat, n=action.handles[0]))


def _on_race_keep(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Keep)
    rest = tuple(h for h in zone_of(s, "planet:stock") if h != step.n)
    if action.keep:  # the prize, face down (a claim that it is an ability card)
        claim = ck.make(step.seat, s.step_no, ck.KEEPS_ABILITY, (step.n,), None, "locke.s002.event.6")
        s = s._replace(zones=with_zone(with_zone_state(s, "planet:stock", rest), "race:prize", (step.n,)),
                       **claimed(s, claim))
        return advance(log(s, "astro-race-prize", step.seat, "drawn"))
    return advance(s, Step("race_show", step.seat, n=step.n))


def with_zone_state(s: LockeState, name: str, handles: tuple[int, ...]) -> LockeState:
    return s._replace(zones=with_zone(s, name, handles))


def _pending_race_show(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "planet:stock", (step.n,))


def _on_race_shown(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    if g.components.planet(action.cards[0]).kind == "ability":
        raise cheat(step.seat, f"showed the ability card {action.cards[0]} instead of keeping it as the prize",
                    "locke.s002.event.6")
    rest = tuple(h for h in zone_of(s, "planet:stock") if h != step.n) + (step.n,)  # under the stock, face up
    s = s._replace(zones=with_zone(s, "planet:stock", rest), open_cards=s.open_cards + ((step.n, action.cards[0]),))
    return advance(s, Step("race_try", step.seat))


def _auto_race_start(g: Any, s: LockeState, step: Step) -> LockeState:
    racers = tuple(i for i in range(s.n) if acts(s, i))
    if not zone_of(s, "race:prize") or not racers:
        return advance(s)
    s = log(s, "astro-race-start", step.seat, list(racers))
    return advance(s, Step("race_roll", step.seat, arg=_race_text([(i, 0, 0) for i in racers])))


def _race_text(racers: list[tuple[int, int, int]]) -> str:
    return ";".join(f"{i}:{t}:{k}" for i, t, k in racers)


def _race_parse(text: str) -> list[tuple[int, int, int]]:
    out = []
    for part in text.split(";") if text else []:
        i, t, k = part.split(":")
        out.append((int(i), int(t), int(k)))
    return out


def _pending_race_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.astro-race", tuple(6 for _ in _race_parse(step.arg)))


def _on_race_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Everyone rolls 1d6 at once; a second six in a row costs 1 durability or retires, a third retires."""
    assert isinstance(action, DiceRolled)
    racers = []
    asks = []
    for (i, total, sixes), face in zip(_race_parse(step.arg), action.faces):
        sixes = sixes + 1 if face == 6 else 0
        if sixes >= 3:
            s = log(s, "astro-race-retired", i, "three-sixes")
            continue
        if sixes == 2:
            asks.append(Step("race_six", i))
        racers.append((i, total + face, sixes))
    return advance(s, *asks, Step("race_next", step.seat, arg=_race_text(racers)))


def _on_race_six(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Choose)
    if action.option not in ("damage", "retire"):
        raise IllegalAction("take 1 damage (damage) or retire from the race (retire)", rule="locke.s002.event.6")
    s = advance(s)
    if action.option == "damage":
        p = s.seats[step.seat]
        s = log(s._replace(seats=with_seat(s, step.seat, p._replace(damage=p.damage + 1))), "astro-race-crash", step.seat)
        return push(s, Step("race_hurt", step.seat))
    index = next(k for k, q in enumerate(s.queue) if q.kind == "race_next")
    nxt = untyped(s.queue[index])
    racers = [r for r in _race_parse(nxt.arg) if r[0] != step.seat]
    queue = list(s.queue)
    queue[index] = nxt._replace(arg=_race_text(racers))
    return log(s._replace(queue=tuple(queue)), "astro-race-retired", step.seat, "chose")


def _pending_race_hurt(g: Any, s: LockeState, step: Step) -> Pending:
    return Decision(step.seat, "locke.race_hurt")


def _on_race_hurt(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """After the 1 damage the racer says whether it is still alive (a claim on its durability)."""
    assert isinstance(action, Stat)
    p = s.seats[step.seat]
    if action.stat != "durability" or not 0 <= action.value <= 20:
        raise IllegalAction("declare your current durability (0: the crash killed you)", rule="locke.s002.event.6")
    known = stats.public(p.mods, p.proofs, "durability")
    if known is not None:
        if action.value != max(0, known - p.damage):
            raise IllegalAction("your durability is public since the change", rule="locke.s002.event.6")
    else:
        s = s._replace(**claimed(s, fate.durability_claim(s, step.seat, action.value, "locke.s002.event.6")))
    if action.value <= 0:
        s = fate.kill(g, s, step.seat, cause="astro-race")
        index = next(k for k, q in enumerate(s.queue) if q.kind == "race_next")
        nxt = untyped(s.queue[index])
        queue = list(s.queue)
        queue[index] = nxt._replace(arg=_race_text([r for r in _race_parse(nxt.arg) if r[0] != step.seat]))
        s = s._replace(queue=tuple(queue))
    return advance(s)


def _auto_race_next(g: Any, s: LockeState, step: Step) -> LockeState:
    racers = _race_parse(step.arg)
    if not racers:
        s = s._replace(zones=with_zone(s, "planet:stock", zone_of(s, "planet:stock") + zone_of(s, "race:prize")))
        return advance(log(with_zone_state(s, "race:prize", ()), "astro-race-won", NO_SEAT))
    done = [r for r in racers if r[1] >= RACE_GOAL]
    if not done:
        return advance(s, Step("race_roll", step.seat, arg=_race_text(racers)))
    best = min(r[1] for r in done)  # nearest to 18 wins
    first = [r for r in done if r[1] == best]
    if len(first) > 1:  # a final among the tied, from the start
        s = log(s, "astro-race-final", [r[0] for r in first])
        return advance(s, Step("race_roll", step.seat, arg=_race_text([(r[0], 0, 0) for r in first])))
    winner = first[0][0]
    s = log(s, "astro-race-won", winner)
    return advance(s, Step("race_prize", winner))


def _pending_race_prize(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", "race:prize", zone_of(s, "race:prize"), to_seat=step.seat)


def _on_race_prize(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsDealt)
    p = s.seats[step.seat]
    p = p._replace(kept=p.kept + action.handles)
    return advance(with_zone_state(s._replace(seats=with_seat(s, step.seat, p)), "race:prize", ()))


# Skyhawk Dandy (event 7, D25)


def _on_sex_declare(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Choose)
    if action.option not in ("female", "not-female"):
        raise IllegalAction("say whether your character is female (female / not-female)", rule="locke.s002.event.7")
    female = action.option == "female"
    s = s._replace(**claimed(s, fate.fact_claim(s, step.seat, "female", female, "locke.s002.event.7")))
    if not female:
        return advance(log(s, "skyhawk-dandy", step.seat, "unaffected"))
    return advance(fate.restrain(g, s, step.seat, cause="skyhawk", turns=0, cell=step.arg))


# Kurukuru Pa X (event 8)


def _on_kuru_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    if not acts(s, step.seat):
        return advance(s)
    return advance(fate.restrain(g, s, step.seat, cause="kurukuru", turns=action.faces[0], cell=step.arg))


# wheat harvest (event 9)


def _auto_wheat_go(g: Any, s: LockeState, step: Step) -> LockeState:
    """D26: the seat is taken off the board into the wheat field; engine/locke/fate.py rolls its
    1d6 each turn (5-6 harvests it back where it was)."""
    home = s.seats[step.seat].place
    s = fate.restrain(g, s, step.seat, cause="wheat", turns=0, cell=step.arg)
    s = s._replace(seats=with_seat(s, step.seat, s.seats[step.seat]._replace(place=OFF_BOARD)))
    return advance(log(s, "wheat-field", step.seat, home))


# emperor plan (event 10, N3)


def _emperor(g: Any, s: LockeState, seat: int) -> LockeState:
    from engine.locke.combat import begin

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


# Hijiri's whim (event 11, N4)


def _on_whim_choice(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Choose)
    if action.option == "a":
        return advance(s, Step("whim_stats", step.seat))
    if action.option == "b":
        if len(zone_of(s, "chars:unused")) < 4:
            raise IllegalAction("fewer than four unused characters are left; choose a", rule="locke.s002.event.11")
        return advance(s, Step("whim_cards", step.seat))
    raise IllegalAction("choose a (rolled stats) or b (four unused characters)", rule="locke.s002.event.11")


def _pending_whim_stats(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.whim-stats", (6, 6, 6, 6))


def _set_stats(s: LockeState, seat: int, level: int, power: int, durability: int, mind: int, how: str) -> LockeState:
    p = s.seats[seat]
    mods = tuple((stat, "set", value, "life") for stat, value in
                 (("level", level), ("power", power), ("durability", durability), ("mind", mind)))
    p = p._replace(mods=p.mods + mods, damage=0)
    return log(s._replace(seats=with_seat(s, seat, p)), "hijiri-whim", seat, how, [level, power, durability, mind])


def _on_whim_stats(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("whim-stats", action.faces)
    params = dict(outcome.effects[0].params)
    s = _set_stats(s, step.seat, int(params["esp_level"]), int(params["esp_power"]), int(params["durability"]),
                   int(params["mind"]), "a")
    p = s.seats[step.seat]
    s = s._replace(seats=with_seat(s, step.seat, p._replace(mods=p.mods + (("abilities", "set", 0, "life"),))))
    return advance(s, Step("whim_ability", step.seat, arg=""))


def _on_whim_ability(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Abilities: roll 1d6 until two are gained; a second 1 gives experience and stops."""
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("whim-ability", action.faces)
    got = [x for x in step.arg.split(",") if x]
    if outcome.entry == "nothing":
        if "nothing" in got:
            got = [x for x in got if x != "nothing"] + ["experience"]
            return advance(_abilities(s, step.seat, got))
        got.append("nothing")
    else:
        got.append(outcome.entry)
    real = [x for x in got if x != "nothing"]
    if len(real) >= 2:
        return advance(_abilities(s, step.seat, real))
    return advance(s, Step("whim_ability", step.seat, arg=",".join(got)))


def _abilities(s: LockeState, seat: int, names: list[str]) -> LockeState:
    p = s.seats[seat]
    p = p._replace(mods=p.mods + tuple(("ability:" + n, "set", 1, "life") for n in names))
    return log(s._replace(seats=with_seat(s, seat, p)), "hijiri-whim-abilities", seat, names)


def _pending_whim_cards(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "chars:unused", zone_of(s, "chars:unused")[:4])


def _on_whim_cards(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Option b: four unused characters, in order, give level, power, durability and mind."""
    assert isinstance(action, CardsRevealed)
    unused = zone_of(s, "chars:unused")
    known = dict(s.open_cards)
    s = s._replace(zones=with_zone(s, "chars:unused", unused[4:] + unused[:4]),
                   open_cards=s.open_cards + tuple((h, c) for h, c in zip(action.handles, action.cards) if h not in known))
    c = [g.components.character(x) for x in action.cards]
    return advance(_set_stats(s, step.seat, c[0].level, c[1].power, c[2].durability, c[3].mind, "b"))


def cannot_refuse(s: LockeState, seat: int) -> bool:
    """Deadline (N8), the black hole (N2) and the wheat field (N61) take away the right to refuse."""
    return s.seats[seat].restraint in ("deadline", "black-hole", "wheat")


def _decision(g: Any, s: LockeState, step: Step) -> Pending:
    return Decision(step.seat, "locke." + step.kind)


PENDING = {
    "trap_roll": _pending_2d6("locke.chart.trap"), "event_roll": _pending_2d6("locke.chart.event"),
    "golem_roll": _pending_d6("locke.chart.golem-count"), "hallu_declare": _decision,
    "hallu_roll": _pending_2d6("locke.chart.hallucination"), "deadline_roll": _pending_d3,
    "genocide_roll": _pending_2d6("locke.chart.genocide"), "mirrors": _decision,
    "bh_stock": _pending_bh_stock, "locke_reveal": _decision, "locke_reveal_do": _pending_reveal_character,
    "blast_choice": _decision, "misfire_roll": _pending_2d6("locke.chart.random-cell"),
    "misfire_key": _pending_misfire_key, "hypno_reveal": _pending_reveal_character,
    "race_draw": _pending_race_draw, "race_keep": _decision, "race_show": _pending_race_show,
    "race_roll": _pending_race_roll, "race_six": _decision, "race_hurt": _pending_race_hurt,
    "race_prize": _pending_race_prize, "sex_declare": _decision,
    "kuru_roll": _pending_d6("locke.restraint.kurukuru"),
    "whim_choice": _decision, "whim_stats": _pending_whim_stats,
    "whim_ability": _pending_d6("locke.chart.whim-ability"), "whim_cards": _pending_whim_cards,
}
HANDLERS = {
    ("trap_roll", DiceRolled): _on_trap_roll, ("event_roll", DiceRolled): _on_event_roll,
    ("golem_roll", DiceRolled): _on_golem_roll, ("hallu_declare", Stat): _on_hallu_declare,
    ("hallu_roll", DiceRolled): _on_hallu_roll, ("deadline_roll", DiceRolled): _on_deadline_roll,
    ("genocide_roll", DiceRolled): _on_genocide_roll, ("mirrors", Nop): _on_mirrors, ("mirrors", UseCard): _on_mirrors,
    ("bh_stock", CardsRevealed): _on_bh_stock, ("locke_reveal", Choose): _on_locke_reveal,
    ("locke_reveal_do", CardsRevealed): _on_locke_revealed, ("blast_choice", Choose): _on_blast_choice,
    ("misfire_roll", DiceRolled): _on_misfire_roll, ("misfire_key", CellsOpened): _on_misfire_key,
    ("hypno_reveal", CardsRevealed): _on_hypno_revealed, ("race_draw", CardsDealt): _on_race_drawn,
    ("race_keep", Keep): _on_race_keep, ("race_show", CardsRevealed): _on_race_shown,
    ("race_roll", DiceRolled): _on_race_roll, ("race_six", Choose): _on_race_six, ("race_hurt", Stat): _on_race_hurt,
    ("race_prize", CardsDealt): _on_race_prize, ("sex_declare", Choose): _on_sex_declare,
    ("kuru_roll", DiceRolled): _on_kuru_roll, 
    ("whim_choice", Choose): _on_whim_choice, ("whim_stats", DiceRolled): _on_whim_stats,
    ("whim_ability", DiceRolled): _on_whim_ability, ("whim_cards", CardsRevealed): _on_whim_cards,
}
AUTO = {
    "trap_done": _on_trap_done, "bh_mirrored": _auto_bh_mirrored, "bh_fall": _auto_bh_fall,
    "necra_hits": _auto_necra_hits, "blast_backlash": _auto_blast_backlash, "race_start": _auto_race_start,
    "race_next": _auto_race_next, "race_try": _auto_race_try, "wheat_go": _auto_wheat_go,
}

#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = ()

"""Secret-base cards (KMC ch. 4): what each of the 21 kinds does when obeyed.

Why its own module: the flow (engine/locke/turn.py) turns a base card face up
and calls :func:`obey` for whoever must obey it; every kind's effect lives
here, and every check, restraint, hit and death goes through
engine/locke/fate.py. Each time a card is obeyed the public log gets
``("base-effect", card, seat, what)`` so coverage can count every kind.

Hidden data is never read: questions about the obeying character ("is your
character male?", "is your level above the illusion?") are answered by the
seat and logged as claims; combat cards are dealt or revealed through the
engine's hidden-card operations from the combat deck (zone ``combat:deck``,
shuffled when first needed; spent cards go to ``combat:discard``).

Handled by the flow itself (engine/locke/turn.py, declare.py): random
teleport, barracks (the random-combat chart), the key bases (destroyed in the
move phase), the Nova and the King editorial room (their checks come in the
destruction phase). Corridor and white hole do nothing.

The steps a card sets going are typed classes next to their code (engine/locke/steps.py):
the yes/no questions (:class:`FactQuestion`, :class:`IllusionLevel`, :class:`LoopHit`, each
with its honest ``legal`` answer), the controller pick, the card loops (``LoopNext`` ->
``LoopCard`` -> a mind check -> ``LoopHit``/``LoopNext``) and the stacked vortex.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
import enum
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import CardsDealt, CardsRevealed, Chance, DiceRolled, HiddenOp, Pending
from engine.locke import claims as ck
from engine.locke import fate, stats, traps
from engine.locke.combat.model import DECK, DISCARD
from engine.locke.fate import CheckStat
from engine.locke.actions import Fact, PlayTeleport
from engine.locke.combat.flow import begin
from engine.locke.combat.obstacles import alarm_device
from engine.locke.components import Character, CombatCard, Params, Silhouette
from engine.locke.setup import Shuffle, cheat, fresh_zone
from engine.locke.state import (
    OFF_BOARD,
    Cell,
    Combat,
    LockeState,
    advance,
    cell_of,
    claimed,
    lead,
    log,
    move_party,
    party_of,
    with_cell,
    with_zone,
    zone_of,
)
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, Then, Waiting, answers

RULE = "locke.4"
#: Bound on cards turned by one E.K. or illusion-room loop (the deck has 86).
MAX_LOOP = 86
#: KMC 4 gives an alarm device no durability; ours is its attack level (ruling N104).
VORTEX_ODDS = "10-1"


def _silhouette(g: Rules, s: LockeState, seat: int) -> Silhouette:
    return g.components.silhouette(s.seats[seat].silhouette)


def _number(params: Params, key: str) -> int:
    """A number parameter of a base card's effect (assets/locke/bases.json, checked when loaded)."""
    value = params[key]
    if not isinstance(value, int):
        raise TypeError(f"base-card parameter {key!r} is {value!r}, not a number")
    return value


def _effect(s: LockeState, card: str, seat: int, what: str) -> LockeState:
    return log(s, "base-effect", card, seat, what)


def obey(g: Rules, s: LockeState, seat: int, card: str) -> LockeState:
    """Carry out base card ``card`` for ``seat`` (the head is the step that obeys it): the code
    of its effect type (:data:`EFFECTS`, keyed by assets/locke/bases.json ``effect.type``)."""
    effect = g.components.base(card).effect
    run = EFFECTS.get(effect.type)
    if run is None:  # a key base or a blank card: nothing happens (the turn handled the others, ELSEWHERE)
        return advance(_effect(s, card, seat, "nothing"))
    return run(Obeying(g, seat, card, effect.params), s)


@dataclasses.dataclass(frozen=True)
class Obeying:
    """Who obeys which base card, with the card's effect parameters."""

    g: Rules
    seat: int
    card: str
    params: Params

    def said(self, s: LockeState, what: str) -> LockeState:
        """Log what the card did to the seat."""
        return _effect(s, self.card, self.seat, what)

    def silhouette(self, s: LockeState) -> Silhouette:
        return _silhouette(self.g, s, self.seat)

    def number(self, key: str) -> int:
        return _number(self.params, key)


def _chart(o: Obeying, s: LockeState) -> LockeState:
    """Trap (KMC 4): the trap chart (the random-combat chart is the turn's, engine/locke/turn.py)."""
    if o.params["chart"] != "trap":
        return advance(o.said(s, "nothing"))
    return advance(fate.after_head(o.said(s, "trap-chart"), *traps.trap_steps(o.seat, "")))


def _energy_absorber(o: Obeying, s: LockeState) -> LockeState:
    """Energy absorber: a level check, or rest 1d6 turns."""
    return advance(fate.check(o.g, o.said(s, "level-check"), o.seat, stat=CheckStat.LEVEL,
                              then=AfterRestCheck("energy-absorber", o.card, True)))


def _madonna(o: Obeying, s: LockeState) -> LockeState:
    """Madonna of Khan: an Evil face is exempt; a male character takes a mind check."""
    if o.silhouette(s).attribute == "evil":
        return advance(o.said(s, "evil-face-exempt"))
    return advance(ask(o.said(s, "asked-male"), o.seat, "male", MadonnaMale(o.card)))


def _illusion_room(o: Obeying, s: LockeState) -> LockeState:
    """Illusion room: a level above the illusion's is not affected (asked as a claim)."""
    return advance(o.said(s, "asked-level"), IllusionLevel(o.seat, o.number("level"), o.card))


def _alarm_device(o: Obeying, s: LockeState) -> LockeState:
    return _alarm(o.g, s, o.seat, o.card, o.number("jammer_level"), o.number("attack_level"))


def _controller_system(o: Obeying, s: LockeState) -> LockeState:
    """ESP controller system: an Evil face is exempt; others take a mind check."""
    if o.silhouette(s).attribute == "evil":
        return advance(o.said(s, "evil-face-exempt"))
    return advance(fate.check(o.g, o.said(s, "mind-check"), o.seat, stat=CheckStat.MIND,
                              then=AfterControllerSystemCheck(o.card)))


def _ek(o: Obeying, s: LockeState) -> LockeState:
    """E.K.: the card loop."""
    return advance(o.said(s, "card-loop"), *_loop_start(s, o.seat, LoopCause.EK))


def _audio_room(o: Obeying, s: LockeState) -> LockeState:
    """Audio room: the author rests; others take a mind check, or rest one turn."""
    if "author" in o.silhouette(s).traits:
        return advance(fate.restrain_roll(o.g, o.said(s, "author-rests"), o.seat, cause="audio-room"))
    return advance(fate.check(o.g, o.said(s, "mind-check"), o.seat, stat=CheckStat.MIND,
                              then=AfterRestCheck("audio-room", o.card, False)))


def _cafe_dahlia(o: Obeying, s: LockeState) -> LockeState:
    """Cafe Dahlia: rest and heal (the author longer)."""
    times = o.number("author_multiplier") if "author" in o.silhouette(s).traits else 1
    return advance(fate.restrain_roll(o.g, o.said(s, "rests"), o.seat, cause="dahlia", times=times))


def _powder_room(o: Obeying, s: LockeState) -> LockeState:
    """Powder room: a female face takes a mind check, or rests 1d6 turns."""
    if o.silhouette(s).sex != o.params["silhouette_sex"]:
        return advance(o.said(s, "not-female-face"))
    return advance(fate.check(o.g, o.said(s, "mind-check"), o.seat, stat=CheckStat.MIND,
                              then=AfterRestCheck("powder-room", o.card, True)))


def _autograph_session(o: Obeying, s: LockeState) -> LockeState:
    return _autograph(o.g, o.said(s, "everyone-rests"), o.number("locke_multiplier"))


def _vortex(o: Obeying, s: LockeState) -> LockeState:
    """Stacked vortex: seven combat cards, and a teleport must be played."""
    return advance(o.said(s, "seven-cards"), *_need_deck(s), Vortex(o.seat, o.number("cards")))


def _black_hole(o: Obeying, s: LockeState) -> LockeState:
    """Black hole: with a white hole on the board, a level check or the party is taken there."""
    if not any(c.face_up == o.params["exit"] for _, c in s.cells):
        return advance(o.said(s, "no-white-hole"))
    return advance(fate.check(o.g, o.said(s, "level-check"), o.seat, stat=CheckStat.LEVEL,
                              then=AfterBlackHoleCheck(o.card)))


def _goat_farm(o: Obeying, s: LockeState) -> LockeState:
    """Goat farm: a Locke face rests."""
    if o.params["silhouette_trait"] not in o.silhouette(s).traits:
        return advance(o.said(s, "not-locke-face"))
    return advance(fate.restrain_roll(o.g, o.said(s, "locke-rests"), o.seat, cause="goat-farm"))


#: What each base card does, by its effect type (assets/locke/bases.json; KMC 4).
EFFECTS: dict[str, Callable[[Obeying, LockeState], LockeState]] = {
    "chart": _chart, "level-check-or-rest": _energy_absorber, "captor": _madonna, "illusion-room": _illusion_room,
    "alarm-device": _alarm_device, "controller-system": _controller_system, "ek": _ek, "audio-room": _audio_room,
    "rest-and-heal": _cafe_dahlia, "mind-check-or-rest": _powder_room, "autograph-session": _autograph_session,
    "vortex": _vortex, "black-hole": _black_hole, "silhouette-rest": _goat_farm,
}
#: Effect types the turn carries out before a card reaches :func:`obey` (engine/locke/turn.py
#: obey_base: the random teleport, the random-combat chart, the Nova and the King editorial room)
#: or that do nothing when obeyed (a key base, a blank card).
ELSEWHERE = ("random-teleport", "nova", "author-victory-attempt", "key-base", "none")


# --- yes/no questions about the obeying character ------------------------------------------


def ask(s: LockeState, seat: int, question: str, then: Then) -> LockeState:
    """Queue a yes/no fact question (a claim) after the head; ``then`` follows the answer."""
    return fate.after_head(s, FactQuestion(seat, question, then))


@dataclasses.dataclass(frozen=True)
class FactQuestion(SeatDecision):
    """A yes/no question about the obeying character (``question``: a key of fate.FACTS),
    answered by the seat as a claim; ``then`` carries on with the answer."""

    KIND: ClassVar[str] = "fact"
    question: str
    then: Then

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        if me is None:
            return [Fact(self.seat, True), Fact(self.seat, False)]
        return [Fact(self.seat, ck.FACTS[self.question](me))]

    @answers(Fact)
    def answered(self, g: Rules, s: LockeState, action: Fact) -> LockeState:
        claim = fate.fact_claim(s, self.seat, self.question, action.holds, RULE)
        s = s._replace(**claimed(s, claim))
        return self.then.after(g, s, self.seat, action.holds)


@dataclasses.dataclass(frozen=True)
class MadonnaMale(Then):
    """KMC 4 Madonna of Khan: a male character takes a mind check (a female one is left alone)."""

    KIND: ClassVar[str] = "base.madonna-male"
    card: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if not success:
            return advance(_effect(s, self.card, seat, "not-male"))
        return advance(fate.check(g, s, seat, stat=CheckStat.MIND, then=AfterMadonnaCheck(self.card)))


@dataclasses.dataclass(frozen=True)
class AfterMadonnaCheck(Then):
    """KMC 4 Madonna of Khan: a male character failing the mind check is held (released on 1-2)."""

    KIND: ClassVar[str] = "base.madonna"
    card: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success:
            return advance(_effect(s, self.card, seat, "resisted"))
        return advance(fate.restrain(g, _effect(s, self.card, seat, "held"), seat, cause="madonna", turns=0))


@dataclasses.dataclass(frozen=True)
class AfterRestCheck(Then):
    """Fail a check: rest (restraint ``cause``) 1d6 turns (``rolled``) or one turn."""

    KIND: ClassVar[str] = "base.rest-on-fail"
    cause: str
    card: str
    rolled: bool

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success:
            return advance(_effect(s, self.card, seat, "passed"))
        s = _effect(s, self.card, seat, "failed")
        if self.rolled:
            return advance(fate.restrain_roll(g, s, seat, cause=self.cause))
        return advance(fate.restrain(g, s, seat, cause=self.cause, turns=1))


@dataclasses.dataclass(frozen=True)
class AfterBlackHoleCheck(Then):
    """KMC 4 black hole: failing the level check takes the seat (and its party) to the white hole."""

    KIND: ClassVar[str] = "base.black-hole"
    card: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success:
            return advance(_effect(s, self.card, seat, "passed"))
        exit_cell = next(key for key, c in s.cells if c.face_up == "white-hole")
        s = move_party(s, lead(s, seat), exit_cell)
        return advance(_effect(s, self.card, seat, "to-white-hole"))


@dataclasses.dataclass(frozen=True)
class AfterControllerSystemCheck(Then):
    """KMC 4 ESP controller system: a failed mind check puts the seat under a base player's
    orders (the highest 2d6 among several; ruling N105); released at its death or on a 1 rolled
    at anyone's death (engine/locke/fate.py)."""

    KIND: ClassVar[str] = "base.controller"
    card: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        card = self.card
        if success:
            return advance(_effect(s, card, seat, "resisted"))
        base = tuple(i for i, p in enumerate(s.seats) if p.base_player and p.alive and i != seat)
        if not base:
            return advance(_effect(s, card, seat, "no-base-player"))
        if len(base) == 1:
            return advance(_controlled(s, seat, base[0], card))
        return advance(s, ControllerPick(seat, base))


def _controlled(s: LockeState, seat: int, controller: int, card: str) -> LockeState:
    seats = list(s.seats)
    seats[seat] = seats[seat]._replace(controller=controller)
    return _effect(s._replace(seats=tuple(seats)), card, seat, f"controlled-by-{controller}")


@dataclasses.dataclass(frozen=True)
class ControllerPick(Waiting):
    """Ruling N105: among several base players the highest 2d6 controls ``seat``; the tied
    roll again."""

    KIND: ClassVar[str] = "ctl_pick"
    seat: int
    base: tuple[int, ...]  # the base players rolling

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.controller-pick", tuple(6 for _ in self.base) * 2)

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        k = len(self.base)
        totals = [action.faces[i] + action.faces[k + i] for i in range(k)]
        best = max(totals)
        winners = tuple(b for b, t in zip(self.base, totals) if t == best)
        if len(winners) > 1:  # ruling N105: the tied base players roll again
            return advance(s, ControllerPick(self.seat, winners))
        return advance(_controlled(s, self.seat, winners[0], "esp-controller-system"))




# --- alarm devices: an automatic combat (KMC 4, 10.12) -------------------------------------------


def _alarm(g: Rules, s: LockeState, seat: int, card: str, jammer: int, attack: int) -> LockeState:
    s = _effect(s, card, seat, f"combat-jammer-{jammer}")
    place = s.seats[seat].place
    obstacle = alarm_device(g, card, attack, jammer)
    sides = (party_of(s, lead(s, seat)), ())
    s = s._replace(turn_flags=s.turn_flags + ("no_combat",))
    return begin(advance(s, AlarmAfter(seat, place)), Combat("alarm", place, sides, obstacles=(obstacle,)))


@dataclasses.dataclass(frozen=True)
class AlarmAfter(Automatic):
    """An alarm device whose obstacle was destroyed is broken for good (the cell goes quiet)."""

    KIND: ClassVar[str] = "alarm_after"
    seat: int
    cell: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        here = cell_of(s, self.cell)
        for event in reversed(s.events):
            if event and event[0] == "combat":
                break
            if event and event[0] == "obstacles-cleared" and event[2] == self.cell and here.face_up.startswith("alarm-"):
                return advance(_effect(s._replace(cells=with_cell(s, self.cell, Cell(face_up="destroyed"))),
                                       here.face_up, self.seat, "broken"))
        return advance(s)


# --- autograph session (KMC 4; ruling N106) -------------------------------------------------------


def _autograph(g: Rules, s: LockeState, locke_times: int) -> LockeState:
    """Every living seat on the board, awake (normal or partner), rests 1d6 (Locke faces twice)."""
    steps = []
    for i, p in enumerate(s.seats):
        if not p.alive or p.place == OFF_BOARD or p.status not in ("normal", "partner"):
            continue
        times = locke_times if "locke" in g.components.silhouette(p.silhouette).traits else 1
        steps.append(fate.RestraintRoll(i, cause="autograph", times=times))
    return advance(s, *steps)


# --- the combat deck, and card loops (E.K., illusion room) --------------------------------------


def _need_deck(s: LockeState) -> tuple[LockeStep, ...]:
    return (CombatDeckReady(),)


@dataclasses.dataclass(frozen=True)
class CombatDeckReady(Automatic):
    """The combat deck exists and holds cards: made and shuffled on first use; once empty,
    the spent cards are shuffled into a new deck (as the planet rules do for stocks)."""

    KIND: ClassVar[str] = "deck_ready"

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not any(z[0] == DECK for z in s.zones):
            return advance(fresh_zone(s, DECK, g.components.deck("combat_cards")), Shuffle(DECK))
        if zone_of(s, DECK) or not zone_of(s, DISCARD):
            return advance(s)
        s = s._replace(zones=with_zone(s, DECK, zone_of(s, DISCARD)))
        s = s._replace(zones=with_zone(s, DISCARD, ()))
        return advance(s, Shuffle(DECK))


def _level_now(s: LockeState, seat: int, me: Character) -> int:
    p = s.seats[seat]
    return stats.current(me, p.mods, p.proofs, "level")


@dataclasses.dataclass(frozen=True)
class IllusionLevel(SeatDecision):
    """KMC 4 illusion room: "my level is above the illusion's ``level``" (a claim, no lying);
    above it the seat is not affected, otherwise a mind check, and a failure starts the card
    loop."""

    KIND: ClassVar[str] = "above"
    level: int
    card: str

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        if me is None:
            return [Fact(self.seat, True), Fact(self.seat, False)]
        return [Fact(self.seat, _level_now(s, self.seat, me) > self.level)]

    @answers(Fact)
    def answered(self, g: Rules, s: LockeState, action: Fact) -> LockeState:
        op, n = ("le", self.level + 1) if action.holds else ("ge", self.level)
        s = s._replace(**claimed(s, fate.stat_claim(s, self.seat, "level", op, n, RULE)))
        if action.holds:
            return advance(_effect(s, self.card, self.seat, "not-affected"))
        return advance(fate.check(g, s, self.seat, stat=CheckStat.MIND, then=AfterIllusionCheck(self.card)))


@dataclasses.dataclass(frozen=True)
class AfterIllusionCheck(Then):
    """KMC 4 illusion room: a failed mind check starts the card loop."""

    KIND: ClassVar[str] = "base.illusion"
    card: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success:
            return advance(_effect(s, self.card, seat, "resisted"))
        return advance(_effect(s, self.card, seat, "card-loop"), *_loop_start(s, seat, "illusion"))


class LoopCause(enum.StrEnum):
    """What turns the cards of a loop (KMC 4): the E.K., or a failed illusion-room check."""

    EK = "ek"
    ILLUSION = "illusion"


def _loop_start(s: LockeState, seat: int, how: str) -> tuple[LockeStep, ...]:
    return _need_deck(s) + (LoopNext(seat, 0, LoopCause(how)),)


@dataclasses.dataclass(frozen=True)
class LoopCard(Waiting):
    """A card of the loop is turned face up; the mind check decides whether the loop ends
    (``count`` cards were turned before it)."""

    KIND: ClassVar[str] = "loop_card"
    seat: int
    count: int
    how: LoopCause

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", DECK, zone_of(s, DECK)[:1])

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        handle, card = action.handles[0], action.cards[0]
        deck = zone_of(s, DECK)
        s = s._replace(zones=with_zone(s, DECK, deck[1:]), open_cards=s.open_cards + ((handle, card),))
        s = s._replace(zones=with_zone(s, DISCARD, zone_of(s, DISCARD) + (handle,)))
        s = log(s, "loop-card", self.seat, self.how.value, card)
        return advance(fate.check(g, s, self.seat, stat=CheckStat.MIND, then=AfterLoopCheck(self.how, self.count, card)))


@dataclasses.dataclass(frozen=True)
class AfterLoopCheck(Then):
    """A card loop's mind check (E.K., illusion room): a pass ends the loop; a failure turns
    the next card, and an attack card asks whether it is within the seat's level."""

    KIND: ClassVar[str] = "base.loop"
    how: LoopCause
    count: int
    card: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success or not s.seats[seat].alive:
            return advance(log(s, "loop-ended", seat, self.how.value, self.count + 1))
        combat = _combat_card(g, self.card)
        nxt = _next_card(s, seat, self.how.value, self.count + 1)
        if combat.type != "attack":
            return advance(s, *nxt)
        return advance(s, LoopHit(seat, combat.level, self.how, self.card), *nxt)


def is_teleport(card: str) -> bool:
    """The teleport escape cards (KMC 5), as opposed to the illusions."""
    return card.startswith("teleport-")


def _combat_card(g: Rules, card: str) -> CombatCard:
    return next(c for c in g.components.combat_cards if c.id == card)


def _next_card(s: LockeState, seat: int, how: str, count: int) -> tuple[LockeStep, ...]:
    if count >= MAX_LOOP:
        return (LoopEnd(seat, count, LoopCause(how)),)
    return (LoopNext(seat, count, LoopCause(how)),)


@dataclasses.dataclass(frozen=True)
class LoopNext(Automatic):
    """The loop goes on with the next card, unless the seat died or the deck ran out."""

    KIND: ClassVar[str] = "loop_next"
    seat: int
    count: int
    how: LoopCause

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not s.seats[self.seat].alive or not zone_of(s, DECK):
            return advance(log(s, "loop-ended", self.seat, self.how.value, self.count))
        return advance(s, LoopCard(self.seat, self.count, self.how))


@dataclasses.dataclass(frozen=True)
class LoopEnd(Automatic):
    """The loop stops after ``MAX_LOOP`` cards (our bound: the deck has 86)."""

    KIND: ClassVar[str] = "loop_end"
    seat: int
    count: int
    how: LoopCause

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return advance(log(s, "loop-ended", self.seat, self.how.value, self.count))


@dataclasses.dataclass(frozen=True)
class LoopHit(SeatDecision):
    """An attack card of the loop at or below your level hits you (E.K.: "usable"); above:
    "unusable" (a claim either way)."""

    KIND: ClassVar[str] = "loop_hit"
    level: int  # the attack card's level
    how: LoopCause
    card: str

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        if me is None:
            return [Fact(self.seat, True), Fact(self.seat, False)]
        return [Fact(self.seat, self.level <= _level_now(s, self.seat, me))]

    @answers(Fact)
    def answered(self, g: Rules, s: LockeState, action: Fact) -> LockeState:
        if not s.seats[self.seat].alive:
            return advance(s)
        op, n = ("le", self.level) if action.holds else ("ge", self.level - 1)
        s = s._replace(**claimed(s, fate.stat_claim(s, self.seat, "level", op, n, RULE)))
        if not action.holds:
            return advance(log(s, "loop-unusable", self.seat, self.card))
        card = _combat_card(g, self.card)
        return advance(fate.take_hit(g, s, self.seat, firepower=card.firepower, cause=self.how.value))


# --- stacked vortex (KMC 4) -----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Vortex(Automatic):
    """KMC 4 stacked vortex: ``cards`` combat cards are dealt to the seat (fewer if the deck
    is short; none: no teleport to play, the 10:1 hit)."""

    KIND: ClassVar[str] = "vortex"
    seat: int
    cards: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if not zone_of(s, DECK):  # an empty deck deals nothing: no teleport to play
            s = log(s, "base-effect", "stacked-vortex", self.seat, "no-teleport")
            return advance(fate.take_hit(g, s, self.seat, firepower=0, cause="stacked-vortex", odds=VORTEX_ODDS))
        return advance(s, VortexDeal(self.seat, min(self.cards, len(zone_of(s, DECK)))))


def _hand(seat: int) -> str:
    """The zone of the vortex's cards dealt to ``seat``."""
    return "vortex:" + str(seat)


@dataclasses.dataclass(frozen=True)
class VortexDeal(Waiting):
    KIND: ClassVar[str] = "vortex_deal"
    seat: int
    count: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", DECK, zone_of(s, DECK)[: self.count], to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        deck = zone_of(s, DECK)
        dealt = deck[: self.count]
        s = s._replace(zones=with_zone(s, DECK, deck[self.count:]))
        s = s._replace(zones=with_zone(s, _hand(self.seat), dealt))
        return advance(s, VortexPlay(self.seat))


@dataclasses.dataclass(frozen=True)
class VortexPlay(SeatDecision):
    """The seat shows a teleport among its cards (then a mind check), or says it has none
    (a claim: ``handle`` -1)."""

    KIND: ClassVar[str] = "vortex_play"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        hand = zone_of(s, _hand(self.seat))
        if knowledge is None:
            out: list[Action] = [PlayTeleport(self.seat, -1)]
            return out + [PlayTeleport(self.seat, h) for h in hand]
        teleports = [h for h in hand if (c := knowledge.card(h)) and is_teleport(c)]
        if teleports:  # KMC 4: try to play a teleport if there is one
            return [PlayTeleport(self.seat, teleports[0])]
        return [PlayTeleport(self.seat, -1)]

    @answers(PlayTeleport)
    def played(self, g: Rules, s: LockeState, action: PlayTeleport) -> LockeState:
        hand = zone_of(s, _hand(self.seat))
        if action.handle == -1:
            claim = ck.make(self.seat, s.step_no, ck.NO_TELEPORT, hand, None, RULE)
            return advance(s._replace(**claimed(s, claim)), VortexOpen(self.seat))
        if action.handle not in hand:
            raise IllegalAction(f"show one of the seven cards {list(hand)} (a teleport), or -1", rule=RULE)
        return advance(s, VortexShow(self.seat, action.handle))


@dataclasses.dataclass(frozen=True)
class VortexOpen(Waiting):
    """No teleport among the seven (a claim, checked on the spot: they are turned face up as they
    go to the spent pile, ruling N172); then the 10:1 hit."""

    KIND: ClassVar[str] = "vortex_open"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", _hand(self.seat), zone_of(s, _hand(self.seat)))

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        s = s._replace(open_cards=s.open_cards + tuple(zip(action.handles, action.cards)))
        s = log(_discard_vortex(s, self.seat), "base-effect", "stacked-vortex", self.seat, "no-teleport")
        return advance(fate.take_hit(g, s, self.seat, firepower=0, cause="stacked-vortex", odds=VORTEX_ODDS))


@dataclasses.dataclass(frozen=True)
class VortexShow(Waiting):
    """The shown card must be a teleport (else a cheat); then the mind check."""

    KIND: ClassVar[str] = "vortex_show"
    seat: int
    handle: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", _hand(self.seat), (self.handle,))

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        card = _combat_card(g, action.cards[0])
        if not is_teleport(card.id):
            raise cheat(self.seat, f"showed {card.id} as a teleport", RULE)
        s = s._replace(open_cards=s.open_cards + ((self.handle, card.id),))
        s = _discard_vortex(s, self.seat)
        s = log(s, "base-effect", "stacked-vortex", self.seat, "teleport-played")
        return advance(fate.check(g, s, self.seat, stat=CheckStat.MIND, then=AfterVortexCheck("stacked-vortex")))


@dataclasses.dataclass(frozen=True)
class AfterVortexCheck(Then):
    """KMC 4 stacked vortex: after the teleport is played, a failed mind check is a 10:1 hit."""

    KIND: ClassVar[str] = "base.vortex"
    card: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success:
            return advance(_effect(s, self.card, seat, "passed"))
        return advance(fate.take_hit(g, s, seat, firepower=0, cause=self.card, odds=VORTEX_ODDS))


def _discard_vortex(s: LockeState, seat: int) -> LockeState:
    hand = zone_of(s, _hand(seat))
    s = s._replace(zones=with_zone(s, DISCARD, zone_of(s, DISCARD) + hand))
    return s._replace(zones=tuple(z for z in s.zones if z[0] != _hand(seat)))


#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (
    FactQuestion, ControllerPick, AlarmAfter, CombatDeckReady, IllusionLevel, LoopCard, LoopNext, LoopEnd, LoopHit,
    Vortex, VortexDeal, VortexPlay, VortexOpen, VortexShow,
)

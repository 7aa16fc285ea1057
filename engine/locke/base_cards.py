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
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from engine.core.errors import IllegalAction
from engine.core.pending import CardsDealt, CardsRevealed, Chance, DiceRolled, HiddenOp, Pending
from engine.locke.state import seat_decision
from engine.locke import claims as ck
from engine.locke import fate, traps
from engine.locke.fate import CheckStat
from engine.locke.actions import Fact, PlayTeleport
from engine.locke.setup import cheat, fresh_zone
from engine.locke.state import (
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
    with_zone,
    zone_of,
)
from engine.locke.steps import LockeStep, Rules, Then

RULE = "locke.4"
DECK = "combat:deck"
DISCARD = "combat:discard"
#: Bound on cards turned by one E.K. or illusion-room loop (the deck has 86).
MAX_LOOP = 86
#: KMC 4 gives an alarm device no durability; ours is its attack level (ruling N104).
VORTEX_ODDS = "10-1"


def _silhouette(g: Any, s: LockeState, seat: int) -> Any:
    return g.components.silhouette(s.seats[seat].silhouette)


def _effect(s: LockeState, card: str, seat: int, what: str) -> LockeState:
    return log(s, "base-effect", card, seat, what)


def obey(g: Any, s: LockeState, seat: int, card: str) -> LockeState:
    """Carry out base card ``card`` for ``seat`` (the head is the step that obeys it)."""
    base = g.components.base(card)
    kind = base.effect.type
    params = base.effect.params
    sil = _silhouette(g, s, seat)
    if kind == "chart" and params["chart"] == "trap":
        s = _effect(s, card, seat, "trap-chart")
        return advance(fate.after_head(s, *traps.trap_steps(seat, "")))
    if kind == "level-check-or-rest":  # energy absorber
        return advance(fate.check(g, _effect(s, card, seat, "level-check"), seat, stat=CheckStat.LEVEL,
                                  then=AfterRestCheck("energy-absorber", card, True)))
    if kind == "captor":  # Madonna of Khan
        if sil.attribute == "evil":
            return advance(_effect(s, card, seat, "evil-face-exempt"))
        return advance(ask(g, _effect(s, card, seat, "asked-male"), seat, "male", then="madonna", arg=card))
    if kind == "illusion-room":
        level = int(params["level"])
        return advance(_effect(s, card, seat, "asked-level"), Step("above", seat, n=level, arg=card))
    if kind == "alarm-device":
        return _alarm(g, s, seat, card, int(params["jammer_level"]), int(params["attack_level"]))
    if kind == "controller-system":
        if sil.attribute == "evil":
            return advance(_effect(s, card, seat, "evil-face-exempt"))
        return advance(fate.check(g, _effect(s, card, seat, "mind-check"), seat, stat=CheckStat.MIND,
                                  then=AfterControllerSystemCheck(card)))
    if kind == "ek":
        return advance(_effect(s, card, seat, "card-loop"), *_loop_start(s, seat, "ek"))
    if kind == "audio-room":
        if "author" in sil.traits:
            return advance(fate.restrain_roll(g, _effect(s, card, seat, "author-rests"), seat, cause="audio-room"))
        return advance(fate.check(g, _effect(s, card, seat, "mind-check"), seat, stat=CheckStat.MIND,
                                  then=AfterRestCheck("audio-room", card, False)))
    if kind == "rest-and-heal":  # cafe Dahlia
        times = int(params["author_multiplier"]) if "author" in sil.traits else 1
        return advance(fate.restrain_roll(g, _effect(s, card, seat, "rests"), seat, cause="dahlia", times=times))
    if kind == "mind-check-or-rest":  # powder room
        if sil.sex != params["silhouette_sex"]:
            return advance(_effect(s, card, seat, "not-female-face"))
        return advance(fate.check(g, _effect(s, card, seat, "mind-check"), seat, stat=CheckStat.MIND,
                                  then=AfterRestCheck("powder-room", card, True)))
    if kind == "autograph-session":
        return _autograph(g, _effect(s, card, seat, "everyone-rests"), int(params["locke_multiplier"]))
    if kind == "vortex":
        return advance(_effect(s, card, seat, "seven-cards"), *_need_deck(s),
                       Step("vortex", seat, n=int(params["cards"])))
    if kind == "black-hole":
        if not any(c.face_up == params["exit"] for _, c in s.cells):
            return advance(_effect(s, card, seat, "no-white-hole"))
        return advance(fate.check(g, _effect(s, card, seat, "level-check"), seat, stat=CheckStat.LEVEL,
                                  then=AfterBlackHoleCheck(card)))
    if kind == "silhouette-rest":  # goat farm
        if params["silhouette_trait"] not in sil.traits:
            return advance(_effect(s, card, seat, "not-locke-face"))
        return advance(fate.restrain_roll(g, _effect(s, card, seat, "locke-rests"), seat, cause="goat-farm"))
    return advance(_effect(s, card, seat, "nothing"))


# --- yes/no questions about the obeying character ------------------------------------------


def ask(g: Any, s: LockeState, seat: int, question: str, *, then: str, arg: str = "") -> LockeState:
    """Queue a yes/no fact question (a claim) after the head; then ANSWERS[then]."""
    return fate.after_head(s, Step("fact", seat, arg=f"{question}|{then}|{arg}"))


def _on_fact(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Fact)
    question, then, arg = step.arg.split("|", 2)
    claim = fate.fact_claim(s, step.seat, question, action.holds, RULE)
    s = s._replace(**claimed(s, claim))
    return ANSWERS[then](g, s, step.seat, action.holds, arg)


def _madonna(g: Any, s: LockeState, seat: int, male: bool, card: str) -> LockeState:
    if not male:
        return advance(_effect(s, card, seat, "not-male"))
    return advance(fate.check(g, s, seat, stat=CheckStat.MIND, then=AfterMadonnaCheck(card)))


ANSWERS = {"madonna": _madonna}


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
        from engine.locke.turn import move_party

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
        return advance(s, Step("ctl_pick", seat, arg=",".join(str(i) for i in base)))


def _controlled(s: LockeState, seat: int, controller: int, card: str) -> LockeState:
    seats = list(s.seats)
    seats[seat] = seats[seat]._replace(controller=controller)
    return _effect(s._replace(seats=tuple(seats)), card, seat, f"controlled-by-{controller}")


def _pending_ctl_pick(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.controller-pick", tuple(6 for _ in step.arg.split(",")) * 2)


def _on_ctl_pick(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    base = [int(x) for x in step.arg.split(",")]
    k = len(base)
    totals = [action.faces[i] + action.faces[k + i] for i in range(k)]
    best = max(totals)
    winners = [b for b, t in zip(base, totals) if t == best]
    if len(winners) > 1:  # ruling N105: the tied base players roll again
        return advance(s, Step("ctl_pick", step.seat, arg=",".join(str(i) for i in winners)))
    return advance(_controlled(s, step.seat, winners[0], "esp-controller-system"))


# --- alarm devices: an automatic combat (KMC 4, 10.12) -------------------------------------------


def _alarm(g: Any, s: LockeState, seat: int, card: str, jammer: int, attack: int) -> LockeState:
    from engine.locke.combat import alarm_device, begin

    s = _effect(s, card, seat, f"combat-jammer-{jammer}")
    place = s.seats[seat].place
    obstacle = alarm_device(g, card, attack, jammer)
    sides = (party_of(s, lead(s, seat)), ())
    s = s._replace(turn_flags=s.turn_flags + ("no_combat",))
    return begin(advance(s, Step("alarm_after", seat, arg=place)), Combat("alarm", place, sides, obstacles=(obstacle,)))


def _auto_alarm_after(g: Any, s: LockeState, step: Step) -> LockeState:
    """An alarm device whose obstacle was destroyed is broken for good (the cell goes quiet)."""
    here = cell_of(s, step.arg)
    for event in reversed(s.events):
        if event and event[0] == "combat":
            break
        if event and event[0] == "obstacles-cleared" and event[2] == step.arg and here.face_up.startswith("alarm-"):
            return advance(_effect(s._replace(cells=with_cell(s, step.arg, Cell(face_up="destroyed"))),
                                   here.face_up, step.seat, "broken"))
    return advance(s)


# --- autograph session (KMC 4; ruling N106) -------------------------------------------------------


def _autograph(g: Any, s: LockeState, locke_times: int) -> LockeState:
    """Every living seat on the board, awake (normal or partner), rests 1d6 (Locke faces twice)."""
    steps = []
    for i, p in enumerate(s.seats):
        if not p.alive or p.place == OFF_BOARD or p.status not in ("normal", "partner"):
            continue
        times = locke_times if "locke" in g.components.silhouette(p.silhouette).traits else 1
        steps.append(fate.RestraintRoll(i, cause="autograph", times=times))
    return advance(s, *steps)


# --- the combat deck, and card loops (E.K., illusion room) --------------------------------------


def _need_deck(s: LockeState) -> tuple[Step, ...]:
    return (Step("deck_ready", -1),)


def _auto_deck_ready(g: Any, s: LockeState, step: Step) -> LockeState:
    """The combat deck exists and holds cards: made and shuffled on first use; once empty,
    the spent cards are shuffled into a new deck (as the planet rules do for stocks)."""
    if not any(z[0] == DECK for z in s.zones):
        return advance(fresh_zone(s, DECK, g.components.deck("combat_cards")), Step("shuffle", -1, arg=DECK))
    if zone_of(s, DECK) or not zone_of(s, DISCARD):
        return advance(s)
    s = s._replace(zones=with_zone(s, DECK, zone_of(s, DISCARD)))
    s = s._replace(zones=with_zone(s, DISCARD, ()))
    return advance(s, Step("shuffle", -1, arg=DECK))


def _on_above(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 4 illusion room: a level above the illusion's is not affected (a claim, no lying);
    otherwise a mind check, and a failure starts the card loop."""
    assert isinstance(action, Fact)
    op, n = ("le", step.n + 1) if action.holds else ("ge", step.n)
    s = s._replace(**claimed(s, fate.stat_claim(s, step.seat, "level", op, n, RULE)))
    if action.holds:
        return advance(_effect(s, step.arg, step.seat, "not-affected"))
    return advance(fate.check(g, s, step.seat, stat=CheckStat.MIND, then=AfterIllusionCheck(step.arg)))


@dataclasses.dataclass(frozen=True)
class AfterIllusionCheck(Then):
    """KMC 4 illusion room: a failed mind check starts the card loop."""

    KIND: ClassVar[str] = "base.illusion"
    card: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success:
            return advance(_effect(s, self.card, seat, "resisted"))
        return advance(_effect(s, self.card, seat, "card-loop"), *_loop_start(s, seat, "illusion"))


def _loop_start(s: LockeState, seat: int, how: str) -> tuple[Step, ...]:
    return _need_deck(s) + (Step("loop_next", seat, n=0, arg=how),)


def _pending_loop_card(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", DECK, zone_of(s, DECK)[:1])


def _on_loop_card(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A card of the loop is turned face up; the mind check decides whether the loop ends."""
    assert isinstance(action, CardsRevealed)
    handle, card = action.handles[0], action.cards[0]
    deck = zone_of(s, DECK)
    s = s._replace(zones=with_zone(s, DECK, deck[1:]), open_cards=s.open_cards + ((handle, card),))
    s = s._replace(zones=with_zone(s, DISCARD, zone_of(s, DISCARD) + (handle,)))
    s = log(s, "loop-card", step.seat, step.arg, card)
    return advance(fate.check(g, s, step.seat, stat=CheckStat.MIND, then=AfterLoopCheck(step.arg, step.n, card)))


@dataclasses.dataclass(frozen=True)
class AfterLoopCheck(Then):
    """A card loop's mind check (E.K., illusion room): a pass ends the loop; a failure turns
    the next card, and an attack card asks whether it is within the seat's level."""

    KIND: ClassVar[str] = "base.loop"
    how: str
    count: int
    card: str

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        how, count, card = self.how, self.count, self.card
        if success or not s.seats[seat].alive:
            return advance(log(s, "loop-ended", seat, how, count + 1))
        combat = _combat_card(g, card)
        nxt = _next_card(s, seat, how, count + 1)
        if combat.type != "attack":
            return advance(s, *nxt)
        return advance(s, Step("loop_hit", seat, n=combat.level, arg=f"{how}|{count}|{card}"), *nxt)


def is_teleport(card: str) -> bool:
    """The teleport escape cards (KMC 5), as opposed to the illusions."""
    return card.startswith("teleport-")


def _combat_card(g: Any, card: str) -> Any:
    return next(c for c in g.components.combat_cards if c.id == card)


def _next_card(s: LockeState, seat: int, how: str, count: int) -> tuple[Step, ...]:
    if count >= MAX_LOOP:
        return (Step("loop_end", seat, n=count, arg=how),)
    return (Step("loop_next", seat, n=count, arg=how),)


def _auto_loop_next(g: Any, s: LockeState, step: Step) -> LockeState:
    if not s.seats[step.seat].alive or not zone_of(s, DECK):
        return advance(log(s, "loop-ended", step.seat, step.arg, step.n))
    return advance(s, Step("loop_card", step.seat, n=step.n, arg=step.arg))


def _auto_loop_end(g: Any, s: LockeState, step: Step) -> LockeState:
    return advance(log(s, "loop-ended", step.seat, step.arg, step.n))


def _on_loop_hit(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """An attack card at or below your level hits you (E.K.: "usable"); above: "unusable"."""
    assert isinstance(action, Fact)
    if not s.seats[step.seat].alive:
        return advance(s)
    op, n = ("le", step.n) if action.holds else ("ge", step.n - 1)
    s = s._replace(**claimed(s, fate.stat_claim(s, step.seat, "level", op, n, RULE)))
    if not action.holds:
        return advance(log(s, "loop-unusable", step.seat, step.arg.split("|")[2]))
    card = _combat_card(g, step.arg.split("|")[2])
    return advance(fate.take_hit(g, s, step.seat, firepower=card.firepower, cause=step.arg.split("|")[0]))


# --- stacked vortex (KMC 4) -----------------------------------------------------------------------


def _pending_vortex_deal(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", DECK, zone_of(s, DECK)[: step.n], to_seat=step.seat)


def _auto_vortex(g: Any, s: LockeState, step: Step) -> LockeState:
    if not zone_of(s, DECK):  # an empty deck deals nothing: no teleport to play
        s = log(s, "base-effect", "stacked-vortex", step.seat, "no-teleport")
        return advance(fate.take_hit(g, s, step.seat, firepower=0, cause="stacked-vortex", odds=VORTEX_ODDS))
    return advance(s, Step("vortex_deal", step.seat, n=min(step.n, len(zone_of(s, DECK)))))


def _on_vortex_dealt(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsDealt)
    deck = zone_of(s, DECK)
    dealt = deck[: step.n]
    s = s._replace(zones=with_zone(s, DECK, deck[step.n:]))
    s = s._replace(zones=with_zone(s, "vortex:" + str(step.seat), dealt))
    return advance(s, Step("vortex_play", step.seat))


def _on_vortex_play(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, PlayTeleport)
    hand = zone_of(s, "vortex:" + str(step.seat))
    if action.handle == -1:
        claim = ck.make(step.seat, s.step_no, ck.NO_TELEPORT, hand, None, RULE)
        return advance(s._replace(**claimed(s, claim)), Step("vortex_open", step.seat))
    if action.handle not in hand:
        raise IllegalAction(f"show one of the seven cards {list(hand)} (a teleport), or -1", rule=RULE)
    return advance(s, Step("vortex_show", step.seat, n=action.handle))


def _pending_vortex_open(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "vortex:" + str(step.seat), zone_of(s, "vortex:" + str(step.seat)))


def _on_vortex_opened(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """No teleport among the seven (a claim, checked on the spot: they are turned face up as they
    go to the spent pile, ruling N172); then the 10:1 hit."""
    assert isinstance(action, CardsRevealed)
    s = s._replace(open_cards=s.open_cards + tuple(zip(action.handles, action.cards)))
    s = log(_discard_vortex(s, step.seat), "base-effect", "stacked-vortex", step.seat, "no-teleport")
    return advance(fate.take_hit(g, s, step.seat, firepower=0, cause="stacked-vortex", odds=VORTEX_ODDS))


def _pending_vortex_show(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", "vortex:" + str(step.seat), (step.n,))


def _on_vortex_shown(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    card = _combat_card(g, action.cards[0])
    if not is_teleport(card.id):
        raise cheat(step.seat, f"showed {card.id} as a teleport", RULE)
    s = s._replace(open_cards=s.open_cards + ((step.n, card.id),))
    s = _discard_vortex(s, step.seat)
    s = log(s, "base-effect", "stacked-vortex", step.seat, "teleport-played")
    return advance(fate.check(g, s, step.seat, stat=CheckStat.MIND, then=AfterVortexCheck("stacked-vortex")))


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
    hand = zone_of(s, "vortex:" + str(seat))
    s = s._replace(zones=with_zone(s, DISCARD, zone_of(s, DISCARD) + hand))
    return s._replace(zones=tuple(z for z in s.zones if z[0] != "vortex:" + str(seat)))


PENDING: dict[str, Any] = {
    "vortex_open": _pending_vortex_open,
    "fact": seat_decision, "above": seat_decision, "loop_hit": seat_decision, "vortex_play": seat_decision,
    "ctl_pick": _pending_ctl_pick, "loop_card": _pending_loop_card, "vortex_deal": _pending_vortex_deal,
    "vortex_show": _pending_vortex_show,
}
HANDLERS: dict[tuple[str, type], Any] = {
    ("vortex_open", CardsRevealed): _on_vortex_opened,
    ("fact", Fact): _on_fact, ("above", Fact): _on_above, ("loop_hit", Fact): _on_loop_hit,
    ("ctl_pick", DiceRolled): _on_ctl_pick, ("loop_card", CardsRevealed): _on_loop_card,
    ("vortex_deal", CardsDealt): _on_vortex_dealt, ("vortex_play", PlayTeleport): _on_vortex_play,
    ("vortex_show", CardsRevealed): _on_vortex_shown,
}
AUTO: dict[str, Any] = {
    "alarm_after": _auto_alarm_after, "deck_ready": _auto_deck_ready, "loop_next": _auto_loop_next,
    "loop_end": _auto_loop_end, "vortex": _auto_vortex,
}

#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = ()

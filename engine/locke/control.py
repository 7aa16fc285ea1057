"""One control mechanism for the ESP controller (planet card, seed 000 3.1.3) and the
ESP controller system (base card, KMC 4): while seat V is controlled by seat C, the
decisions V would make are made by C (rulings N210-N213).

Hidden information decides the split. C must never be asked to choose anything that
rests on V's hidden cards (its character, its kept planet cards, its combat hand), or
the question itself would tell C what they are, and C could not answer honestly anyway.
So:

- *dictated* decisions (:data:`DICTATED`) are public choices: where V moves, where it
  lands, whom it fights, whether it declares victory or accepts another's declaration
  (KMC 4, 11.1.1: a controlled player does not declare of its own will), whether it goes
  on in a combat. The pending ``Decision`` names C; C's action (of the usual kinds, from
  the public options) is applied for V. Options that rest on V's hidden cards (a
  teleport's level, a card or ability use, destroying a key base as a Good character)
  are not offered while V is controlled;
- *ordered* decisions (the :class:`~engine.locke.steps.Ordered` steps: engine/locke/combat/path.py's
  turn, escape and defence decisions) have a public part and a hidden part: C gives an
  :class:`Order` first (V's combat turn: act freely, do nothing, or attack fighter t;
  V's escape and defence: answer freely, or take the hit), then V carries it out with
  its own hidden cards. V unable to obey an attack order passes and its hand is turned
  face up for everyone (a claim judged on the spot, :data:`claims.NO_ATTACK`);
- everything else (item declarations, syncs, blocks, durability, checks, ...) V answers
  itself.

C is the combat controller while the combat lasts (``Fighter.ctl_by``), else the base
controller (``Seat.controller``); a dead controller gives no orders.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.pending import CardsRevealed, Decision, HiddenOp, Pending
from engine.locke import claims as ck
from engine.locke.actions import EnterBase, Fly, Leave, Nop, Propose, Recover, Walk
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Order, Play, UseItem
from engine.locke.combat.common import fight_of, jam_floor, obstacle_jam, targets
from engine.locke.combat.model import DECK, Fight
from engine.locke.combat.path import TurnAction
from engine.locke.state import NO_SEAT, LockeState, claimed, log
from engine.locke.steps import LockeStep, Ordered, Rules, Waiting, answers

RULE = "locke.4"
#: Decisions C makes for V outright (their options are public); ``None``: any action of the step.
DICTATED: dict[str, tuple[type[Action], ...] | None] = {
    "move": (Nop, Walk, Fly, Propose, Leave, Recover, EnterBase), "land": None, "enter_place": None,
    "info_entry": None, "fight": None, "declaring": None, "answer": None, "join": None, "surrender": None,
    "identify": None, "cb_go_on": None, "cb_land": None,
    "cb_party": None, "cb_party_join": None, "cb_leave": None,  # parties in a combat (N246)
}


class UnderControl(NotYourTurn):
    """The controlled seat tried to make a decision its controller makes (KMC 4, seed 000 3.1.3)."""


def controller_of(s: LockeState, seat: int) -> int:
    """The seat that decides for ``seat`` now (NO_SEAT: nobody)."""
    if not 0 <= seat < s.n or not s.seats[seat].alive:
        return NO_SEAT
    if s.combat is not None and isinstance(s.combat.detail, Fight):
        for f in s.combat.detail.fighters:
            if f.seat == seat and f.ctl_by >= 0 and s.seats[f.ctl_by].alive:
                return f.ctl_by
    c = s.seats[seat].controller
    return c if c >= 0 and s.seats[c].alive else NO_SEAT


def decider(step: LockeStep) -> int:
    """The seat whose decision ``step`` is (before control says who makes it)."""
    return step.decider() if isinstance(step, Waiting) else NO_SEAT


def _order_of(step: LockeStep) -> str:
    return step.order if isinstance(step, Ordered) else ""


def who_decides(s: LockeState, step: LockeStep, pending: Pending) -> Pending:
    """The pending input with the controller named where it decides (what a networked
    table waits for: the controller's signed action)."""
    if not isinstance(pending, Decision) or pending.seat != decider(step):
        return pending
    c = controller_of(s, decider(step))
    if c == NO_SEAT:
        return pending
    if step.kind in DICTATED:
        return Decision(c, pending.prompt)
    if isinstance(step, Ordered) and not step.order:
        return Decision(c, "locke.order")
    return pending


def orders(s: LockeState, step: Ordered) -> tuple[str, ...]:
    """The orders C may give for V's step (public: built from the public fight only): its combat
    turn's, or its escape's and defence's."""
    if isinstance(step, TurnAction):
        if fight_of(s).fighters[step.fighter].acted:  # synced this round: no attack left to order (KMC 10.4.1)
            return ("free", "pass")
        return ("free", "pass") + tuple(f"attack:{t}" for t in targets(s, fight_of(s), step.fighter))
    return ("free", "take")


def check(g: Rules, s: LockeState, step: LockeStep, pending: Pending, action: Action) -> None:
    """Refuse V's own input where C decides, a dictated option C may not take, and V's
    action that does not obey C's order (typed errors, rule ids)."""
    if not isinstance(pending, Decision):
        return
    seat = decider(step)
    c = controller_of(s, seat)
    if pending.seat != seat and action.seat == seat:
        raise UnderControl(f"seat {seat} is under seat {c}'s control: seat {c} decides this for it", rule=RULE)
    if pending.seat != seat and step.kind in DICTATED:
        allowed = DICTATED[step.kind]
        if allowed is not None and (not isinstance(action, allowed)
                                    or (isinstance(action, EnterBase) and action.level)):
            raise IllegalAction("a controller decides only what rests on no hidden card: no teleport, card, "
                                "ability or key-base destruction for the seat it controls", rule=RULE)
    order = _order_of(step)
    if order and not obeys(order, action):
        raise IllegalAction(f"you are under orders ({order}): carry them out", rule=RULE)


def obeys(order: str, action: Action) -> bool:
    if order == "free":
        return True
    if order in ("pass", "take"):
        return isinstance(action, Nop)
    target = int(order.split(":")[1])
    if isinstance(action, Nop):
        return True  # it cannot attack: its hand is shown (on_pass)
    if isinstance(action, UseItem):
        return action.item == "nike" and action.target == target
    return isinstance(action, Play) and action.use == "attack" and action.target == target


def on_order(g: Rules, s: LockeState, step: Ordered, action: Order) -> LockeState:
    """C's order for V's step: written into the step; V carries it out next."""
    options = orders(s, step)
    if action.order not in options:
        raise IllegalAction(f"give one of the orders {list(options)}", rule=RULE)
    s = log(s, "order", action.seat, decider(step), step.kind, action.order)
    return s._replace(queue=(dataclasses.replace(step, order=action.order),) + s.queue[1:])


def after(g: Rules, s: LockeState, new: LockeState, step: LockeStep, action: Action) -> LockeState:
    """V passed under an attack order: its hand is turned face up, judging its claim that no
    card of it could attack (ruling N211)."""
    order = _order_of(step)
    if not isinstance(step, Ordered) or not order.startswith("attack:") or not isinstance(action, Nop) \
            or new.combat is None:
        return new
    seat, fighter = decider(step), step.fighter
    f = fight_of(s).fighters[fighter]
    p = s.seats[seat]
    floor = max(obstacle_jam(fight_of(s), f), jam_floor(fight_of(s), f))
    value = [floor, f.spent, [list(m) for m in p.mods], p.proofs]
    claim = ck.make(seat, s.step_no, cc.NO_ATTACK, f.hand + (p.character,), value, RULE)
    new = new._replace(**claimed(new, claim))
    if not f.hand:
        return new
    return new._replace(queue=(ShowHand(seat, f.hand),) + new.queue)


@dataclasses.dataclass(frozen=True)
class ShowHand(Waiting):
    """A controlled seat that could not carry out an attack order turns its combat hand
    face up for everyone (ruling N211); the claim was recorded when it passed."""

    KIND: ClassVar[str] = "ctl_show"
    seat: int
    hand: tuple[int, ...]

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", DECK, self.hand)

    @answers(CardsRevealed)
    def shown(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        s = s._replace(open_cards=s.open_cards + tuple(zip(action.handles, action.cards)))
        return log(s._replace(queue=s.queue[1:]), "hand-shown", self.seat)


def legal_for_controller(g: Rules, s: LockeState, step: LockeStep, seat: int) -> list[Action]:
    """C's options for V's step, from the public state alone (no knowledge of V's cards)."""
    if isinstance(step, Ordered):
        return [Order(seat, order) for order in orders(s, step)]
    allowed = DICTATED[step.kind]
    options = step.legal(g, s, None, None) if isinstance(step, Waiting) else []
    out = []
    for a in options:
        if allowed is not None and (not isinstance(a, allowed) or (isinstance(a, EnterBase) and a.level)):
            continue
        out.append(dataclasses.replace(a, seat=seat))
    return out


def obeying(step: LockeStep, options: list[Action]) -> list[Action]:
    """V's honest options under C's order (an attack order it cannot carry out: pass)."""
    order = _order_of(step)
    if not order:
        return options
    out = [a for a in options if obeys(order, a) and not (order.startswith("attack:") and isinstance(a, Nop))]
    return out or [a for a in options if isinstance(a, Nop)]



#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (ShowHand,)

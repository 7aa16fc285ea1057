"""Kept planet cards in play (seed 000 3.1, 3.2.4, 3.1.5) and the Evil-face exceptions.

A kept card is a face-down handle in ``Seat.kept``; nobody but its holder knows
it. Using it turns it face up through the engine's hidden-card operation (a
``reveal`` of zone ``kept:<seat>``), and the revealed card must be the card the
seat said it used (or a wildcard standing in for it): anything else is a cheat
by that seat. After use, by lifetime (assets/locke/planets.json):

- single use: spent, face up back under the planet stock (:func:`spend`);
- permanent: held face up in ``Seat.shown`` (combat reads it);
- until broken: the combat keeps them face down until they break, then turns
  them up and spends them (engine/locke/combat/kept.py ``FACE_DOWN``);
- a wildcard takes the chosen card's lifetime and is fixed to that card
  (``LockeState.wild``); given away, the receiver may choose again.

Out of combat the engine runs these uses itself, as free options of the
seat's own decisions (LOCKE-PLAN 4.9): frontier, entertainment district and
shape change in the movement decision; the residential re-roll right after
the seat's own rolls; the clone on a dead seat's turn; the Evil faces'
identity cards when the planet phase ends or on revival. The combat-only
kinds are used by the combat through :func:`use_steps` and :func:`spend`
(notes/API-effects.md).
"""

from __future__ import annotations

from functools import lru_cache
from collections.abc import Callable
from typing import Any

from engine.core.actions import SYSTEM
from engine.core.errors import IllegalAction
from engine.core.pending import CardsDealt, CardsRevealed, Decision, DiceRolled, HiddenOp, Pending
from engine.locke import claims as ck
from engine.locke import fate
from engine.locke.actions import InfoCheck, Nop, UseCard, Walk
from engine.locke.setup import cheat, free_silhouettes, open_information
from engine.locke.state import (
    untyped,
    OFF_BOARD,
    LockeState,
    Step,
    advance,
    claimed,
    log,
    with_seat,
    with_zone,
    zone_of,
)
from engine.locke.steps import LockeStep, Waiting, answer_methods

RULE = "locke.s000.3.1"
#: Cards a seat may use in its movement decision (seed 000 3.1.3 shape change, 3.2.4 districts).
MOVE_CARDS = ("frontier", "entertainment", "shape-change")
#: Effect types of the identity cards an Evil face keeps hidden until the planet phase ends (3.2.3).
IDENTITY = ("reveal-self", "peek-identity")
#: Rolls after which the roller may use a residential district (its own dice, seed 000 3.2.4).
REROLLABLE = ("tele_roll", "prison_roll", "enter_roll", "trap_roll", "event_roll", "genocide_roll",
              "hallu_roll",
              # the seat's own dice in a combat (ruling N208): mind stretches, item rolls, escape, telepathy,
              # and the attacker's damage dice (KMC 10.7.4 (3): the attacker rolls them; combat.ROLLERS names it)
              "cb_mind", "cb_item_roll", "cb_flee_roll", "cb_tele_roll", "cb_damage", "cb_suit_damage",
              "cb_init_pair")  # a seat's own two initiative dice (KMC 10.3.3), combat/flow.py


_KIND_PREFIXES = ("lafnor-mirror", "absorb-ball", "powered-suit", "esp-jammer", "esp-field", "ambush")


@lru_cache(maxsize=256)  # a pure function of a card id, asked for half a million times a 300-game run
def kind_of(card: str) -> str:
    """One id per planet-card kind (28 kinds): the card id without its level or letter."""
    for kind in _KIND_PREFIXES:
        if card.startswith(kind + "-"):
            return kind
    return card


def card_of(s: LockeState, handle: int) -> str:
    """The card behind a revealed handle ("" while it is face down)."""
    return dict(s.open_cards).get(handle, "")


def stands_for(s: LockeState, handle: int) -> str:
    """What a revealed handle acts as: a wildcard's fixed choice, else the card itself."""
    return dict(s.wild).get(handle, "") or card_of(s, handle)


def held_items(s: LockeState, seat: int) -> tuple[tuple[int, str], ...]:
    """(handle, card it acts as) for each face-up card the seat still holds (combat items)."""
    return tuple((h, stands_for(s, h)) for h in s.seats[seat].shown)


def face_down(s: LockeState, seat: int) -> tuple[int, ...]:
    return s.seats[seat].kept


# --- using a card ------------------------------------------------------------------------


def use_steps(seat: int, handle: int, as_card: str) -> tuple[Step, ...]:
    """Steps that turn ``handle`` face up (if it is not yet) and check it is ``as_card``."""
    return (Step("use_card", seat, n=handle, arg=as_card),)


def _auto_use_card(g: Any, s: LockeState, step: Step) -> LockeState:
    if card_of(s, step.n):
        return advance(_verified(g, s, step.seat, step.n, card_of(s, step.n), step.arg))
    return advance(s, Step("use_reveal", step.seat, n=step.n, arg=step.arg))


def _pending_use_reveal(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", f"kept:{step.seat}", (step.n,))


def _on_use_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    s = s._replace(open_cards=s.open_cards + ((step.n, action.cards[0]),))
    return advance(_verified(g, s, step.seat, step.n, action.cards[0], step.arg))


def _verified(g: Any, s: LockeState, seat: int, handle: int, card: str, as_card: str) -> LockeState:
    """The revealed card must be ``as_card``, or a wildcard free to be it (then fixed to it)."""
    if card == "wildcard":
        fixed = dict(s.wild).get(handle, "")
        if fixed and fixed != as_card:
            raise cheat(seat, f"used the wildcard fixed as {fixed} as {as_card}", "locke.s000.3.1.5")
        if as_card == "clone" and handle in s.no_clone:
            raise cheat(seat, "used as a clone a wildcard that missed its first dead turn", "locke.s000.3.1.5")
        if not fixed:
            s = log(s._replace(wild=s.wild + ((handle, as_card),)), "planet", "wildcard", seat, as_card)
    elif card != as_card and kind_of(card) != as_card:  # a kind: a card whose level stays hidden
        raise cheat(seat, f"used the kept card {card} as {as_card}", RULE)
    p = s.seats[seat]
    if handle in p.kept:  # face up from now on, still held until spent
        p = p._replace(kept=tuple(h for h in p.kept if h != handle), shown=p.shown + (handle,))
        s = s._replace(seats=with_seat(s, seat, p))
    return log(s, "planet", kind_of(as_card), seat, as_card)


def spend(s: LockeState, seat: int, handle: int) -> LockeState:
    """A used single-use card, or a broken one, goes face up back under the planet stock."""
    p = s.seats[seat]
    p = p._replace(kept=tuple(h for h in p.kept if h != handle), shown=tuple(h for h in p.shown if h != handle))
    s = s._replace(seats=with_seat(s, seat, p), wild=tuple(w for w in s.wild if w[0] != handle),
                   zones=with_zone(s, "planet:stock", zone_of(s, "planet:stock") + (handle,)))
    return log(s, "planet-card-spent", seat, card_of(s, handle))


def single_use(g: Any, card: str) -> bool:
    return bool(g.components.planet(card).lifetime == "single-use")


# --- the movement decision: frontier, entertainment district, shape change ----------------------


def on_move_use(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A free option of the movement decision: the move is still to come afterwards."""
    assert isinstance(action, UseCard)
    p = s.seats[step.seat]
    if action.card not in MOVE_CARDS or action.handle not in p.kept + p.shown:
        raise IllegalAction(f"in the movement phase you may use a kept {', '.join(MOVE_CARDS)} card", rule=RULE)
    if p.status != "normal" and action.card != "frontier":
        raise IllegalAction("only a player in a normal state can do that now", rule=RULE)
    if action.card == "frontier" and p.damage <= 0:
        raise IllegalAction("the frontier heals lost durability; you have lost none", rule="locke.s000.3.2.4")
    if action.card == "entertainment":
        others = p.kept + p.shown
        if action.other not in others or action.other == action.handle:
            raise IllegalAction("name another of your kept ability cards to give away", rule="locke.s000.3.2.4")
        if not (0 <= action.target < s.n and action.target != step.seat and s.seats[action.target].alive):
            raise IllegalAction("give it to another living player", rule="locke.s000.3.2.4")
    if action.card == "shape-change" and action.choice != "character" and action.choice not in free_silhouettes(g, s):
        raise IllegalAction("change into a new character ('character') or a free silhouette", rule="locke.s000.3.1.3")
    detail = f"{action.target}|{action.other}|{action.choice}"
    steps = use_steps(step.seat, action.handle, action.card) + (
        Step("use_apply", step.seat, n=action.handle, arg=f"{action.card}|{detail}"),)
    return s._replace(queue=steps + s.queue)  # the movement decision stays at the head


def _auto_use_apply(g: Any, s: LockeState, step: Step) -> LockeState:
    card, target, other, choice = step.arg.split("|")
    seat, handle = step.seat, step.n
    s = spend(s, seat, handle)
    if card == "frontier":  # seed 000 3.2.4: one lost durability back
        p = s.seats[seat]
        s = s._replace(seats=with_seat(s, seat, p._replace(damage=max(0, p.damage - 1))))
        return advance(log(s, "healed", seat, 1))
    if card == "entertainment":
        return advance(s, Step("give", seat, n=int(other), arg=target))
    if choice == "character":
        return advance(s, Step("shuffle", -1, arg="chars:unused"), Step("new_character", seat))
    p = s.seats[seat]._replace(silhouette=choice)
    return advance(log(s._replace(seats=with_seat(s, seat, p)), "shape-changed", seat, "silhouette", choice))


# entertainment district: a kept card changes hands (a deal to the receiver when face down)


def _auto_give(g: Any, s: LockeState, step: Step) -> LockeState:
    p = s.seats[step.seat]
    if step.n in p.shown:  # face up already: the transfer is public
        return advance(_moved(s, step.seat, int(step.arg), step.n))
    return advance(s, Step("give_deal", step.seat, n=step.n, arg=step.arg))


def _pending_give_deal(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", f"kept:{step.seat}", (step.n,), to_seat=int(step.arg))


def _on_give_dealt(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsDealt)
    claim = ck.make(step.seat, s.step_no, ck.KEEPS_ABILITY, (step.n,), None, "locke.s000.3.2.4")
    return advance(_moved(s._replace(**claimed(s, claim)), step.seat, int(step.arg), step.n))


def _moved(s: LockeState, giver: int, receiver: int, handle: int) -> LockeState:
    g_ = s.seats[giver]
    face_up = handle in g_.shown
    g_ = g_._replace(kept=tuple(h for h in g_.kept if h != handle), shown=tuple(h for h in g_.shown if h != handle))
    r = s.seats[receiver]
    r = r._replace(shown=r.shown + (handle,)) if face_up else r._replace(kept=r.kept + (handle,))
    seats = list(s.seats)
    seats[giver], seats[receiver] = g_, r
    # seed 000 3.1.5: a wildcard given away may be chosen afresh by its receiver, the clone too: the
    # first dead turn that matters is the receiver's own, so the giver's "no clone" does not follow it
    return log(s._replace(seats=tuple(seats), wild=tuple(w for w in s.wild if w[0] != handle),
                          no_clone=tuple(h for h in s.no_clone if h != handle)),
               "card-given", giver, receiver)


# shape change: a new random character from the unused pile (LOCKE-PLAN 4.10)


def _pending_new_character(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", "chars:unused", zone_of(s, "chars:unused")[:1], to_seat=step.seat)


def _on_new_character(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 3.1.3: the old card is set aside for good (its appearance erased); 'has seen'
    flags, one-try flags and the damage start afresh (LOCKE-PLAN 4.29, KMC 4 Nova; seed 000
    line 71: a wholly new person, the old card ignored; ruling N65)."""
    assert isinstance(action, CardsDealt)
    p = s.seats[step.seat]
    new = action.handles[0]
    s = s._replace(zones=with_zone(s, "chars:unused", zone_of(s, "chars:unused")[1:]))
    s = s._replace(zones=with_zone(s, "chars:erased", zone_of(s, "chars:erased") + (p.character,)))
    p = p._replace(character=new, seen_by=(), exposed=False, tried=(), mods=(), damage=0)
    from engine.locke.abilities import forget

    s = forget(s._replace(seats=with_seat(s, step.seat, p)), step.seat, own=False)  # KMC 2.2.1 note: untried
    return advance(log(s, "shape-changed", step.seat, "character"))


# --- residential district: re-roll the seat's own dice ------------------------------------------


def rerollable(original: Any, roller: Any = None) -> Any:
    """Wrap a dice handler: the roller holding face-down cards may first re-roll (N62).
    ``roller(state, step)`` names the rolling seat (-1: none) when it is not the step's seat."""
    def handler(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
        assert isinstance(action, DiceRolled)
        seat = roller(s, step) if roller is not None else step.seat
        offered = _offer_reroll(s, seat, action.faces)
        if offered is None:
            new: LockeState = original(g, s, step, action)
            return new
        return offered
    return handler


def _offer_reroll(s: LockeState, seat: int, faces: tuple[int, ...]) -> LockeState | None:
    """The state asking ``seat`` whether to re-roll ``faces`` (None: it holds no kept card)."""
    if seat < 0 or not s.seats[seat].kept or not s.seats[seat].alive:
        return None
    return s._replace(queue=(Step("reroll", seat, arg=",".join(str(f) for f in faces)),) + s.queue)


def rerollable_step(answer: Callable[..., LockeState]) -> Callable[..., LockeState]:
    """Wrap the dice answer of a typed ``REROLL`` step (engine/locke/steps.py) with the
    residential district's offer (N62)."""
    def wrapped(step: Waiting, g: Any, s: LockeState, action: DiceRolled) -> LockeState:
        offered = _offer_reroll(s, step.roller(s), action.faces)
        return offered if offered is not None else answer(step, g, s, action)
    return wrapped


def _on_reroll_nop(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    s = advance(s)
    pending = g.pending(s)
    faces = tuple(int(f) for f in step.arg.split(","))
    if isinstance(s.queue[0], Waiting):  # the roll's own answer, without the offer again
        typed = s.queue[0]
        answer = dict(answer_methods(type(typed)))[DiceRolled]
        return answer(typed, g, s, DiceRolled(SYSTEM, pending.purpose, faces))
    roll = untyped(s.queue[0])
    from engine.locke.game import ORIGINAL_ROLLS

    new: LockeState = ORIGINAL_ROLLS[roll.kind](g, s, roll, DiceRolled(SYSTEM, pending.purpose, faces))
    return new


def _on_reroll_use(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, UseCard)
    if action.card != "residential" or action.handle not in s.seats[step.seat].kept:
        raise IllegalAction("re-roll with a kept residential district card, or keep the roll (nop)",
                            rule="locke.s000.3.2.4")
    s = advance(s)  # the roll step is at the head again: it is asked anew
    s = log(s, "rerolled", step.seat, step.arg)
    return s._replace(queue=use_steps(step.seat, action.handle, "residential")
                      + (Step("spend", step.seat, n=action.handle),) + s.queue)


def _auto_spend(g: Any, s: LockeState, step: Step) -> LockeState:
    return advance(spend(s, step.seat, step.n))


# --- the clone (seed 000 3.1.3, 3.1.5; KMC 8) ----------------------------------------------------


def takes_dead_turn(s: LockeState, seat: int) -> bool:
    """A dead seat has a turn only to use a clone: when it holds a face-down card that could be one."""
    p = s.seats[seat]
    return any(h not in s.no_clone for h in p.kept)


def dead_turn(g: Any, s: LockeState, seat: int) -> LockeState:
    return advance(s, Step("clone", seat), Step("end_turn", seat))


def _on_clone_nop(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """No clone: a claim that no kept card is one; a wildcard held now can never be one."""
    p = s.seats[step.seat]
    claim = ck.make(step.seat, s.step_no, ck.NONE_OF, p.kept, ["clone"], "locke.s000.3.1.3")
    s = s._replace(no_clone=s.no_clone + tuple(h for h in p.kept if h not in s.no_clone), **claimed(s, claim))
    return advance(s)


def _on_clone_use(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, UseCard)
    if action.card != "clone" or action.handle not in s.seats[step.seat].kept:
        raise IllegalAction("use a kept clone card, or say you have none (nop)", rule="locke.s000.3.1.3")
    return advance(s, *use_steps(step.seat, action.handle, "clone"), Step("clone_apply", step.seat, n=action.handle))


def _auto_clone_apply(g: Any, s: LockeState, step: Step) -> LockeState:
    s = fate.revive(g, spend(s, step.seat, step.n), step.seat, cell=OFF_BOARD, how="clone")
    tail = tuple(identity_steps(s, step.seat)) if s.phase == "base" else ()
    return advance(s, Step("clone_place", step.seat), *tail, Step("instruct", step.seat))


def clone_cells(s: LockeState) -> tuple[str, ...]:
    from engine.locke.turn import ENTRY, OUTER

    return ENTRY if s.phase == "planet" else OUTER


def _on_clone_place(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 8: back on any printed spaceport (planet phase) or any outer cell (base phase)."""
    assert isinstance(action, Walk)
    if action.to not in clone_cells(s):
        raise IllegalAction(f"come back on one of {list(clone_cells(s))}", rule="locke.8")
    p = s.seats[step.seat]._replace(place=action.to)
    return advance(log(s._replace(seats=with_seat(s, step.seat, p)), "clone-placed", step.seat, action.to))


# --- Evil faces' identity cards (seed 000 3.2.3) and information (3.2.2) --------------------------


def identity_steps(s: LockeState, seat: int) -> tuple[Step, ...]:
    """A base player still holding face-down initial cards says whether an identity card is among them."""
    p = s.seats[seat]
    return (Step("identity", seat),) if p.base_player and p.alive and p.kept else ()


def phase_end_identity(s: LockeState) -> tuple[Step, ...]:
    return tuple(st for i in range(s.n) for st in identity_steps(s, i))


def _on_identity_nop(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    p = s.seats[step.seat]
    others = any(q.alive for i, q in enumerate(s.seats) if i != step.seat)
    kinds = list(IDENTITY) if others else ["reveal-self"]  # nobody left to look at: that card cannot act
    claim = ck.make(step.seat, s.step_no, ck.NONE_OF, p.kept, kinds, "locke.s000.3.2.3")
    return advance(s._replace(**claimed(s, claim)))


def _on_identity_use(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, UseCard)
    p = s.seats[step.seat]
    if action.card not in ("expose-self", "identify-other") or action.handle not in p.kept:
        raise IllegalAction("use a kept expose-self or identify-other card, or say you have none (nop)",
                            rule="locke.s000.3.2.3")
    if action.card == "identify-other" and not (
            0 <= action.target < s.n and action.target != step.seat and s.seats[action.target].alive):
        raise IllegalAction("name another living player to look at", rule="locke.s000.3.2.3")
    effect = Step("expose", step.seat) if action.card == "expose-self" else Step("show_char", step.seat, n=action.target)
    return advance(s, *use_steps(step.seat, action.handle, action.card), Step("spend", step.seat, n=action.handle),
                   Step("evil_exception", step.seat, arg="identity"), effect, Step("identity", step.seat))


def _auto_evil_exception(g: Any, s: LockeState, step: Step) -> LockeState:
    return advance(log(s, "evil-exception", step.arg, step.seat))


def evil_info_steps(s: LockeState, seat: int) -> tuple[Step, ...]:
    """Seed 000 3.2.2: a base player who shows a newly drawn information card says whether its
    hidden initial ones make three with those shown."""
    p = s.seats[seat]
    return (Step("evil_info", seat),) if p.base_player and p.kept else ()


def _on_evil_info(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, InfoCheck)
    p = s.seats[step.seat]
    need = max(0, 3 - p.info)
    if not action.handles:
        claim = ck.make(step.seat, s.step_no, ck.INFO_BELOW, p.kept, need, "locke.s000.3.2.2")
        return advance(s._replace(**claimed(s, claim)))
    if len(action.handles) < need or len(set(action.handles)) != len(action.handles) or any(
            h not in p.kept for h in action.handles):
        raise IllegalAction(f"show at least {need} of your hidden information cards, or none",
                            rule="locke.s000.3.2.2")
    return advance(s, Step("evil_info_reveal", step.seat, arg=",".join(str(h) for h in action.handles)))


def _pending_evil_info_reveal(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", f"kept:{step.seat}", tuple(int(h) for h in step.arg.split(",")))


def _on_evil_info_revealed(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsRevealed)
    s = open_information(g, s, step.seat, action)
    return advance(log(s, "evil-exception", "information", step.seat, len(action.handles)))


def _decision(g: Any, s: LockeState, step: Step) -> Pending:
    return Decision(step.seat, "locke." + step.kind)


PENDING = {
    "use_reveal": _pending_use_reveal, "give_deal": _pending_give_deal, "new_character": _pending_new_character,
    "reroll": _decision, "clone": _decision, "clone_place": _decision, "identity": _decision,
    "evil_info": _decision, "evil_info_reveal": _pending_evil_info_reveal,
}
HANDLERS = {
    ("move", UseCard): on_move_use, ("use_reveal", CardsRevealed): _on_use_revealed,
    ("give_deal", CardsDealt): _on_give_dealt, ("new_character", CardsDealt): _on_new_character,
    ("reroll", Nop): _on_reroll_nop, ("reroll", UseCard): _on_reroll_use,
    ("clone", Nop): _on_clone_nop, ("clone", UseCard): _on_clone_use, ("clone_place", Walk): _on_clone_place,
    ("identity", Nop): _on_identity_nop, ("identity", UseCard): _on_identity_use,
    ("evil_info", InfoCheck): _on_evil_info, ("evil_info_reveal", CardsRevealed): _on_evil_info_revealed,
}
AUTO = {
    "use_card": _auto_use_card, "use_apply": _auto_use_apply, "give": _auto_give, "spend": _auto_spend,
    "clone_apply": _auto_clone_apply, "evil_exception": _auto_evil_exception,
}

#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = ()

"""Kept planet cards in play (seed 000 3.1, 3.2.4, 3.1.5) and the Evil-face exceptions.

A kept card is a face-down handle in ``Seat.kept``; nobody but its holder knows
it. Using it turns it face up through the engine's hidden-card operation (a
``reveal`` of zone ``kept:<seat>``), and the revealed card must be the card the
seat said it used (or a wildcard standing in for it): anything else is a cheat
by that seat. After use, by lifetime (assets/locke/planets.json):

- single use: spent, face up back under the planet stock (:class:`Spend`);
- permanent: held face up in ``Seat.shown`` (combat reads it);
- until broken: the combat keeps them face down until they break, then turns
  them up and spends them (engine/locke/combat/kept.py ``FACE_DOWN``);
- a wildcard takes the chosen card's lifetime and is fixed to that card
  (``LockeState.wild``); given away, the receiver may choose again.

Out of combat the engine runs these uses itself, as free options of the
seat's own decisions: frontier, entertainment district and shape change in the
movement decision (:func:`on_move_use`, :func:`move_uses`); the residential
re-roll right after the seat's own rolls (:class:`Reroll`, offered around every
``REROLL`` step's dice, engine/locke/steps.py); the clone on a dead seat's turn
(:class:`CloneChoice`); the Evil faces' identity cards when the planet phase ends
or on revival (:class:`IdentityChoice`). The combat-only kinds are used by the
combat (engine/locke/combat/kept.py) through :func:`use_steps` and
:class:`Spend`.

A card's behaviour is found from its ``effect.type`` in the card data, never from
its id: :data:`EFFECT_CODE` names the files that carry out each type, the uses
here dispatch on the type (:data:`MOVE_EFFECTS` for the movement decision), and a
card's *kind* (its id without a level, ``components.kind_of``) shares one type
with every card of the kind, checked when the cards load.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from typing import ClassVar

from engine.core.actions import SYSTEM, Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import CardsDealt, CardsRevealed, Chance, DiceRolled, HiddenOp, Pending
from engine.locke import claims as ck
from engine.locke import board, fate
from engine.locke.actions import InfoCheck, Nop, UseCard, Walk
from engine.locke.components import Character
from engine.locke.components import kind_of as kind_of  # the combat reads a used card's kind here too
from engine.locke.setup import Shuffle, check_information_shown, cheat, free_silhouettes, open_information
from engine.locke.state import OFF_BOARD, LockeState, advance, claimed, log, with_seat, with_zone, zone_of
from engine.locke.steps import Automatic, LockeStep, Rules, SeatDecision, Waiting, answer_methods, answers

RULE = "locke.s000.3.1"
#: Effect types (assets/locke/planets.json) of the kept cards used out of combat, besides the
#: movement decision's (:class:`MoveEffect`): the residential district's re-roll (seed 000 3.2.4),
#: the clone (3.1.3), and the identity cards an Evil face keeps hidden until the planet phase ends (3.2.3).
REROLL, CLONE, REVEAL_SELF, PEEK_IDENTITY = "reroll", "clone", "reveal-self", "peek-identity"
IDENTITY = (REVEAL_SELF, PEEK_IDENTITY)


class MoveEffect(enum.StrEnum):
    """The effect types (assets/locke/planets.json) of the cards a seat may use in its movement
    decision, in the order they are offered."""

    HEAL = "heal"  # the frontier (seed 000 3.2.4)
    GIVE = "give-ability-card"  # the entertainment district (3.2.4)
    CHANGE_IDENTITY = "change-identity"  # the shape change (3.1.3)


#: Where the code of each planet-card effect type is: from a card's ``effect.type`` in
#: assets/locke/planets.json to the files that carry it out. Its keys are exactly the types the
#: component loader accepts (components.PLANET_EFFECTS refuses any other when the cards load;
#: tests/engine/locke/test_planet_cards.py holds the two together).
EFFECT_CODE: dict[str, tuple[str, ...]] = {
    # kept ability cards used out of combat (this module: MOVE_EFFECTS, Reroll, CloneChoice)
    MoveEffect.HEAL: ("engine/locke/planet_cards.py",),
    MoveEffect.GIVE: ("engine/locke/planet_cards.py",),
    MoveEffect.CHANGE_IDENTITY: ("engine/locke/planet_cards.py",),
    REROLL: ("engine/locke/planet_cards.py",),
    CLONE: ("engine/locke/planet_cards.py",),
    # a wildcard stands for any ability card (seed 000 3.1.5): CardUse here, the combat's FACE_DOWN
    "wildcard": ("engine/locke/planet_cards.py", "engine/locke/combat/kept.py"),
    # two mirrors against the black hole (traps.MirrorChoice), one against an attack in a combat
    "mirror-card": ("engine/locke/traps.py", "engine/locke/combat/escapes.py"),
    # kept ability cards used in a combat (engine/locke/combat/kept.py PLANET_ITEMS)
    "subspace-escape": ("engine/locke/combat/escapes.py",),
    "absorb-ball": ("engine/locke/combat/escapes.py", "engine/locke/combat/ball.py"),
    "grant-item": ("engine/locke/combat/kept.py", "engine/locke/combat/equip.py"),
    "energy-suit-card": ("engine/locke/combat/equip.py", "engine/locke/combat/suits.py"),
    "special-attack": ("engine/locke/combat/specials.py",),
    "esp-controller": ("engine/locke/combat/turn_cards.py",),
    "contact-telepathy-level": ("engine/locke/combat/turn_cards.py",),
    "swap-combat-cards": ("engine/locke/combat/turn_cards.py",),
    # instruction cards, obeyed when drawn or walked onto (turn.obey_planet); ambushes are placed
    # at set-up and sprung on the board; identity cards kept by a base player (IdentityChoice here)
    "ambush": ("engine/locke/setup.py", "engine/locke/turn.py"),
    "information": ("engine/locke/turn.py", "engine/locke/setup.py", "engine/locke/planet_cards.py"),
    "chart": ("engine/locke/turn.py",),
    "spaceport": ("engine/locke/turn.py",),
    "arrest": ("engine/locke/turn.py",),
    PEEK_IDENTITY: ("engine/locke/turn.py", "engine/locke/planet_cards.py"),
    REVEAL_SELF: ("engine/locke/turn.py", "engine/locke/planet_cards.py"),
}

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


def known_cards(s: LockeState, seat: int, k: Knowledge | None) -> list[tuple[int, str]]:
    """(handle, card) of the seat's face-down cards as it knows them ("?" without knowledge)."""
    return [(h, (k.card(h) or "?") if k is not None else "?") for h in s.seats[seat].kept]


def can_be(s: LockeState, handle: int, card: str, wanted: str) -> bool:
    """Whether a kept card (``card`` as its holder knows it, "?" unknown) may be used as ``wanted``:
    a wildcard not fixed to another card (nor, as a clone, one that missed its first dead turn)."""
    if card == "?":
        return True
    if card == "wildcard":
        fixed = dict(s.wild).get(handle, "")
        return (not fixed or fixed == wanted) and not (wanted == "clone" and handle in s.no_clone)
    return card == wanted


# --- using a card ------------------------------------------------------------------------


def use_steps(seat: int, handle: int, as_card: str) -> tuple[CardUse]:
    """Steps that turn ``handle`` face up (if it is not yet) and check it is ``as_card``."""
    return (CardUse(seat, handle, as_card),)


@dataclasses.dataclass(frozen=True)
class CardUse(Automatic):
    """The seat uses kept card ``handle`` as ``as_card``: turned face up first if it is not yet."""

    KIND: ClassVar[str] = "use_card"
    seat: int
    handle: int
    as_card: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if card_of(s, self.handle):
            return advance(_verified(s, self.seat, self.handle, card_of(s, self.handle), self.as_card))
        return advance(s, CardUseReveal(self.seat, self.handle, self.as_card))


@dataclasses.dataclass(frozen=True)
class CardUseReveal(Waiting):
    """The used card is turned face up for everyone (a hidden-card reveal of ``kept:<seat>``)."""

    KIND: ClassVar[str] = "use_reveal"
    seat: int
    handle: int
    as_card: str

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", f"kept:{self.seat}", (self.handle,))

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        s = s._replace(open_cards=s.open_cards + ((self.handle, action.cards[0]),))
        return advance(_verified(s, self.seat, self.handle, action.cards[0], self.as_card))


def _verified(s: LockeState, seat: int, handle: int, card: str, as_card: str) -> LockeState:
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


@dataclasses.dataclass(frozen=True)
class Spend(Automatic):
    """The seat's used (or broken) card ``handle`` is spent (:func:`spend`)."""

    KIND: ClassVar[str] = "spend"
    seat: int
    handle: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return advance(spend(s, self.seat, self.handle))


def single_use(g: Rules, card: str) -> bool:
    return bool(g.components.planet(card).lifetime == "single-use")


# --- the movement decision: frontier, entertainment district, shape change ----------------------


def move_uses(g: Rules, s: LockeState, seat: int, me: Character | None, k: Knowledge | None) -> list[Action]:
    """Frontier, entertainment district and shape change, offered inside the movement decision."""
    p = s.seats[seat]
    out: list[Action] = []
    mine = known_cards(s, seat, k)
    heal, give, change = (g.components.planets_of(effect) for effect in MoveEffect)
    for h, card in mine:
        out += [UseCard(seat, h, cid) for cid in heal if p.damage > 0 and can_be(s, h, card, cid)]
        if p.status != "normal":
            continue
        for cid in give:
            if can_be(s, h, card, cid):
                gifts = [o for o, c in mine if o != h and (c == "?" or g.components.planet(c).kind == "ability")]
                gifts += list(p.shown)
                out += [UseCard(seat, h, cid, target=target, other=other) for other in gifts
                        for target, q in enumerate(s.seats) if target != seat and q.alive]
        for cid in change:
            if can_be(s, h, card, cid):
                out.append(UseCard(seat, h, cid, choice="character"))
                out += [UseCard(seat, h, cid, choice=sid) for sid in free_silhouettes(g, s) if sid != p.silhouette]
    return out


def on_move_use(g: Rules, s: LockeState, seat: int, action: UseCard) -> LockeState:
    """A free option of ``seat``'s movement decision (engine/locke/turn.py Move): the move is
    still to come afterwards. What the card does is found from its effect type (:data:`MOVE_EFFECTS`)."""
    p = s.seats[seat]
    effect = g.components.planet_effect(action.card)
    if action.card not in g.components.planets_of(effect) or effect not in MOVE_EFFECTS \
            or action.handle not in p.kept + p.shown:
        names = ", ".join(cid for e in MoveEffect for cid in g.components.planets_of(e))
        raise IllegalAction(f"in the movement phase you may use a kept {names} card", rule=RULE)
    if p.status != "normal" and effect != MoveEffect.HEAL:
        raise IllegalAction("only a player in a normal state can do that now", rule=RULE)
    if effect == MoveEffect.HEAL and p.damage <= 0:
        raise IllegalAction("the frontier heals lost durability; you have lost none", rule="locke.s000.3.2.4")
    if effect == MoveEffect.GIVE:
        others = p.kept + p.shown
        if action.other not in others or action.other == action.handle:
            raise IllegalAction("name another of your kept ability cards to give away", rule="locke.s000.3.2.4")
        if not (0 <= action.target < s.n and action.target != seat and s.seats[action.target].alive):
            raise IllegalAction("give it to another living player", rule="locke.s000.3.2.4")
    if effect == MoveEffect.CHANGE_IDENTITY and action.choice != "character" \
            and action.choice not in free_silhouettes(g, s):
        raise IllegalAction("change into a new character ('character') or a free silhouette", rule="locke.s000.3.1.3")
    then = MoveCardEffect(seat, action.handle, MoveEffect(effect), action.target, action.other, action.choice)
    return s._replace(queue=use_steps(seat, action.handle, action.card) + (then,) + s.queue)  # the move stays


@dataclasses.dataclass(frozen=True)
class MoveCardEffect(Automatic):
    """A movement-phase card takes effect once shown and spent (:data:`MOVE_EFFECTS`):
    ``target``, ``other`` and ``choice`` are the use's details."""

    KIND: ClassVar[str] = "use_apply"
    seat: int
    handle: int
    effect: MoveEffect
    target: int
    other: int
    choice: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return MOVE_EFFECTS[self.effect](g, spend(s, self.seat, self.handle), self)


def _heal(g: Rules, s: LockeState, use: MoveCardEffect) -> LockeState:
    """Seed 000 3.2.4 frontier: one lost durability back."""
    p = s.seats[use.seat]
    s = s._replace(seats=with_seat(s, use.seat, p._replace(damage=max(0, p.damage - 1))))
    return advance(log(s, "healed", use.seat, 1))


def _give(g: Rules, s: LockeState, use: MoveCardEffect) -> LockeState:
    """Seed 000 3.2.4 entertainment district: another kept ability card (``other``) goes to ``target``."""
    return advance(s, Gift(use.seat, use.other, use.target))


def _change_identity(g: Rules, s: LockeState, use: MoveCardEffect) -> LockeState:
    """Seed 000 3.1.3 shape change: a new random character, or the free silhouette ``choice``."""
    if use.choice == "character":
        return advance(s, Shuffle("chars:unused"), ShapeChangeDeal(use.seat))
    p = s.seats[use.seat]._replace(silhouette=use.choice)
    return advance(log(s._replace(seats=with_seat(s, use.seat, p)), "shape-changed", use.seat, "silhouette",
                       use.choice))


#: What a card used in the movement decision does, by its effect type.
MOVE_EFFECTS: dict[str, Callable[[Rules, LockeState, MoveCardEffect], LockeState]] = {
    MoveEffect.HEAL: _heal, MoveEffect.GIVE: _give, MoveEffect.CHANGE_IDENTITY: _change_identity,
}


# entertainment district: a kept card changes hands (a deal to the receiver when face down)


@dataclasses.dataclass(frozen=True)
class Gift(Automatic):
    """The entertainment district's gift of ``handle`` to ``receiver``: public when face up."""

    KIND: ClassVar[str] = "give"
    seat: int
    handle: int
    receiver: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if self.handle in s.seats[self.seat].shown:  # face up already: the transfer is public
            return advance(_moved(s, self.seat, self.receiver, self.handle))
        return advance(s, GiftDeal(self.seat, self.handle, self.receiver))


@dataclasses.dataclass(frozen=True)
class GiftDeal(Waiting):
    """A face-down gift is dealt to its receiver alone (a claim that it is an ability card)."""

    KIND: ClassVar[str] = "give_deal"
    seat: int
    handle: int
    receiver: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", f"kept:{self.seat}", (self.handle,), to_seat=self.receiver)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        claim = ck.make(self.seat, s.step_no, ck.KEEPS_ABILITY, (self.handle,), None, "locke.s000.3.2.4")
        return advance(_moved(s._replace(**claimed(s, claim)), self.seat, self.receiver, self.handle))


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


# shape change: a new random character from the unused pile


@dataclasses.dataclass(frozen=True)
class ShapeChangeDeal(Waiting):
    """KMC 3.1.3: the old card is set aside for good (its appearance erased); 'has seen'
    flags, one-try flags and the damage start afresh (KMC 4 Nova; seed 000 line 71: a wholly
    new person, the old card ignored; ruling N65)."""

    KIND: ClassVar[str] = "new_character"
    seat: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("deal", "chars:unused", zone_of(s, "chars:unused")[:1], to_seat=self.seat)

    @answers(CardsDealt)
    def dealt(self, g: Rules, s: LockeState, action: CardsDealt) -> LockeState:
        p = s.seats[self.seat]
        new = action.handles[0]
        s = s._replace(zones=with_zone(s, "chars:unused", zone_of(s, "chars:unused")[1:]))
        s = s._replace(zones=with_zone(s, "chars:erased", zone_of(s, "chars:erased") + (p.character,)))
        # a new character: nobody has seen it, and a conversion was of the old card (KMC 2.2.1)
        p = p._replace(character=new, seen_by=(), exposed=False, tried=(), mods=(), damage=0, converted=False,
                       gear=())  # the new card's items are its own, whole (KMC 2.3.2)
        s = fate.forget(s._replace(seats=with_seat(s, self.seat, p)), self.seat, own=False)  # KMC 2.2.1 note: untried
        return advance(log(s, "shape-changed", self.seat, "character"))


# --- residential district: re-roll the seat's own dice ------------------------------------------


def _offer_reroll(s: LockeState, seat: int, faces: tuple[int, ...]) -> LockeState | None:
    """The state asking ``seat`` whether to re-roll ``faces`` (None: it holds no kept card)."""
    if seat < 0 or not s.seats[seat].kept or not s.seats[seat].alive:
        return None
    return s._replace(queue=(Reroll(seat, faces),) + s.queue)


def rerollable_step(answer: Callable[..., LockeState]) -> Callable[..., LockeState]:
    """Wrap the dice answer of a typed ``REROLL`` step (engine/locke/steps.py) with the
    residential district's offer (N62)."""
    def wrapped(step: Waiting, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        offered = _offer_reroll(s, step.roller(s), action.faces)
        return offered if offered is not None else answer(step, g, s, action)
    return wrapped


def _rolling_card(s: LockeState) -> int:
    """The kept card whose own roll waits behind the re-roll offer (a planet geoid bomb, subspace
    field: combat/escapes.py ItemRoll ``handle``), or -1. Seed 000 3.1.5: a wildcard is one card
    at a time, so the wildcard being used as that item cannot be a residential district as well
    (it was spent twice, putting one handle under the stock twice)."""
    roll = s.queue[1] if len(s.queue) > 1 else None
    handle = getattr(roll, "handle", -1)
    return handle if isinstance(handle, int) else -1


@dataclasses.dataclass(frozen=True)
class Reroll(SeatDecision):
    """Seed 000 3.2.4 residential district (ruling N62): the roller of ``faces`` keeps them, or
    spends a kept residential district to roll again (the roll step is asked anew)."""

    KIND: ClassVar[str] = "reroll"
    faces: tuple[int, ...]

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        out: list[Action] = [Nop(self.seat)]
        busy = _rolling_card(s)
        return out + [UseCard(self.seat, h, cid) for h, c in known_cards(s, self.seat, knowledge)
                      for cid in g.components.planets_of(REROLL) if can_be(s, h, c, cid) and h != busy]

    @answers(Nop)
    def kept(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        """The roll's own answer, without the offer again."""
        s = advance(s)
        pending = g.pending(s)
        if not isinstance(pending, Chance):
            raise IllegalAction("no roll waits after this re-roll offer (an engine fault)", rule="locke.guard")
        faces = DiceRolled(SYSTEM, pending.purpose, self.faces)
        roll = s.queue[0]
        if not isinstance(roll, Waiting):
            raise IllegalAction("no roll waits after this re-roll offer (an engine fault)", rule="locke.guard")
        answer = dict(answer_methods(type(roll)))[DiceRolled]
        return answer(roll, g, s, faces)

    @answers(UseCard)
    def used(self, g: Rules, s: LockeState, action: UseCard) -> LockeState:
        if action.card not in g.components.planets_of(REROLL) or action.handle not in s.seats[self.seat].kept:
            raise IllegalAction("re-roll with a kept residential district card, or keep the roll (nop)",
                                rule="locke.s000.3.2.4")
        if action.handle == _rolling_card(s):
            raise IllegalAction("the card being rolled for cannot also pay for its re-roll: use another "
                                "residential district, or keep the roll (nop)", rule="locke.s000.3.1.5")
        s = advance(s)  # the roll step is at the head again: it is asked anew
        s = log(s, "rerolled", self.seat, ",".join(str(f) for f in self.faces))
        return s._replace(queue=use_steps(self.seat, action.handle, action.card)
                          + (Spend(self.seat, action.handle),) + s.queue)


# --- the clone (seed 000 3.1.3, 3.1.5; KMC 8) ----------------------------------------------------


def takes_dead_turn(s: LockeState, seat: int) -> bool:
    """A dead seat has a turn only to use a clone: when it holds a face-down card that could be one."""
    p = s.seats[seat]
    return any(h not in s.no_clone for h in p.kept)


def dead_turn(g: Rules, s: LockeState, seat: int) -> LockeState:
    return advance(s, CloneChoice(seat), g.end_turn(seat))


@dataclasses.dataclass(frozen=True)
class CloneChoice(SeatDecision):
    """A dead seat's turn: use a kept clone (seed 000 3.1.3: a clone held must be used), or say
    it holds none."""

    KIND: ClassVar[str] = "clone"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        mine = known_cards(s, self.seat, knowledge)
        clones = g.components.planets_of(CLONE)
        real: list[Action] = [UseCard(self.seat, h, c) for h, c in mine if c in clones]
        if real:  # seed 000 3.1.3: a clone you hold must be used
            return real
        out: list[Action] = [Nop(self.seat)]
        return out + [UseCard(self.seat, h, cid) for h, c in mine for cid in clones if can_be(s, h, c, cid)]

    @answers(Nop)
    def none(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        """No clone: a claim that no kept card is one; a wildcard held now can never be one."""
        p = s.seats[self.seat]
        claim = ck.make(self.seat, s.step_no, ck.NONE_OF, p.kept, [CLONE], "locke.s000.3.1.3")
        s = s._replace(no_clone=s.no_clone + tuple(h for h in p.kept if h not in s.no_clone), **claimed(s, claim))
        return advance(s)

    @answers(UseCard)
    def used(self, g: Rules, s: LockeState, action: UseCard) -> LockeState:
        if action.card not in g.components.planets_of(CLONE) or action.handle not in s.seats[self.seat].kept:
            raise IllegalAction("use a kept clone card, or say you have none (nop)", rule="locke.s000.3.1.3")
        return advance(s, *use_steps(self.seat, action.handle, action.card), CloneRevival(self.seat, action.handle))


@dataclasses.dataclass(frozen=True)
class CloneRevival(Automatic):
    """The clone is spent and the seat comes back (KMC 8), then places itself and, in the base
    phase, says whether it holds an identity card (seed 000 3.2.3). Its turn then goes on from
    the instruction phase (KMC 8): the cell's card, the combat phase and, in the base phase, the
    destruction phase; only the victory declaration is left out (ruling N66). The turn flag
    ``revived`` stands for the movement phase it skips, so a combat may be declared."""

    KIND: ClassVar[str] = "clone_apply"
    seat: int
    handle: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        s = fate.revive(g, spend(s, self.seat, self.handle), self.seat, cell=OFF_BOARD, how="clone")
        s = s._replace(turn_flags=s.turn_flags + ("revived",))
        tail = tuple(identity_steps(s, self.seat)) if s.phase == "base" else ()
        return advance(s, ClonePlacement(self.seat), *tail, *g.revived_turn(self.seat))


def clone_cells(s: LockeState) -> tuple[str, ...]:
    """Where a clone comes back (KMC 8): the printed spaceports, or the base's outer cells."""
    return tuple(c.key for c in (board.PRINTED_SPACEPORTS if s.phase == "planet" else board.OUTER_CELLS))


@dataclasses.dataclass(frozen=True)
class ClonePlacement(SeatDecision):
    """KMC 8: back on any printed spaceport (planet phase) or any outer cell (base phase)."""

    KIND: ClassVar[str] = "clone_place"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Walk(self.seat, cell) for cell in clone_cells(s)]

    @answers(Walk)
    def placed(self, g: Rules, s: LockeState, action: Walk) -> LockeState:
        if action.to not in clone_cells(s):
            raise IllegalAction(f"come back on one of {list(clone_cells(s))}", rule="locke.8")
        p = s.seats[self.seat]._replace(place=action.to)
        return advance(log(s._replace(seats=with_seat(s, self.seat, p)), "clone-placed", self.seat, action.to))


# --- Evil faces' identity cards (seed 000 3.2.3) and information (3.2.2) --------------------------


def identity_steps(s: LockeState, seat: int) -> tuple[IdentityChoice, ...]:
    """A base player still holding face-down initial cards says whether an identity card is among them."""
    p = s.seats[seat]
    return (IdentityChoice(seat),) if p.base_player and p.alive and p.kept else ()


def phase_end_identity(s: LockeState) -> tuple[IdentityChoice, ...]:
    return tuple(st for i in range(s.n) for st in identity_steps(s, i))


@dataclasses.dataclass(frozen=True)
class IdentityChoice(SeatDecision):
    """Seed 000 3.2.3: a base player uses a kept expose-self or identify-other card, or claims
    it holds none (an honest seat holding one must use it)."""

    KIND: ClassVar[str] = "identity"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        out: list[Action] = []
        others = [i for i, q in enumerate(s.seats) if i != self.seat and q.alive]
        expose, peek = g.components.planets_of(REVEAL_SELF), g.components.planets_of(PEEK_IDENTITY)
        for h, c in known_cards(s, self.seat, knowledge):
            out += [UseCard(self.seat, h, cid) for cid in expose if c in (cid, "?")]
            out += [UseCard(self.seat, h, cid, target=t) for cid in peek if c in (cid, "?") for t in others]
        if knowledge is None or not out:  # with such a card the honest seat must use it
            out.append(Nop(self.seat))
        return out

    @answers(Nop)
    def none(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        p = s.seats[self.seat]
        others = any(q.alive for i, q in enumerate(s.seats) if i != self.seat)
        kinds = list(IDENTITY) if others else ["reveal-self"]  # nobody left to look at: that card cannot act
        claim = ck.make(self.seat, s.step_no, ck.NONE_OF, p.kept, kinds, "locke.s000.3.2.3")
        return advance(s._replace(**claimed(s, claim)))

    @answers(UseCard)
    def used(self, g: Rules, s: LockeState, action: UseCard) -> LockeState:
        seat = self.seat
        p = s.seats[seat]
        effect = g.components.planet_effect(action.card)
        if effect not in IDENTITY or action.card not in g.components.planets_of(effect) or action.handle not in p.kept:
            raise IllegalAction("use a kept expose-self or identify-other card, or say you have none (nop)",
                                rule="locke.s000.3.2.3")
        if effect == PEEK_IDENTITY and not (
                0 <= action.target < s.n and action.target != seat and s.seats[action.target].alive):
            raise IllegalAction("name another living player to look at", rule="locke.s000.3.2.3")
        then = g.expose(seat) if effect == REVEAL_SELF else g.show_character(seat, action.target)
        return advance(s, *use_steps(seat, action.handle, action.card), Spend(seat, action.handle),
                       EvilException(seat, "identity"), then, IdentityChoice(seat))


@dataclasses.dataclass(frozen=True)
class EvilException(Automatic):
    """The log's record that a base player used an Evil-face exception (``what``: "identity")."""

    KIND: ClassVar[str] = "evil_exception"
    seat: int
    what: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        return advance(log(s, "evil-exception", self.what, self.seat))


def evil_info_steps(s: LockeState, seat: int) -> tuple[EvilInfo, ...]:
    """Seed 000 3.2.2: a base player who shows a newly drawn information card says whether its
    hidden initial ones make three with those shown."""
    p = s.seats[seat]
    return (EvilInfo(seat),) if p.base_player and p.kept else ()


@dataclasses.dataclass(frozen=True)
class EvilInfo(SeatDecision):
    """Seed 000 3.2.2: the base player shows enough hidden information cards to make three, or
    none (a claim that it holds too few)."""

    KIND: ClassVar[str] = "evil_info"

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        need = max(0, 3 - s.seats[self.seat].info)
        if knowledge is not None:
            info = tuple(h for h, c in known_cards(s, self.seat, knowledge)
                         if c != "?" and g.components.planet(c).effect.type == "information")
            if len(info) >= need:
                return [InfoCheck(self.seat, info)]
        return [InfoCheck(self.seat, ())]

    @answers(InfoCheck)
    def answered(self, g: Rules, s: LockeState, action: InfoCheck) -> LockeState:
        p = s.seats[self.seat]
        need = max(0, 3 - p.info)
        if not action.handles:
            claim = ck.make(self.seat, s.step_no, ck.INFO_BELOW, p.kept, need, "locke.s000.3.2.2")
            return advance(s._replace(**claimed(s, claim)))
        check_information_shown(p.kept, action.handles, need, f"show at least {need} of your hidden information "
                                "cards, or none")
        return advance(s, EvilInfoReveal(self.seat, action.handles))


@dataclasses.dataclass(frozen=True)
class EvilInfoReveal(Waiting):
    """The shown information cards are turned face up (a card that is not one is a cheat)."""

    KIND: ClassVar[str] = "evil_info_reveal"
    seat: int
    handles: tuple[int, ...]

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return HiddenOp("reveal", f"kept:{self.seat}", self.handles)

    @answers(CardsRevealed)
    def revealed(self, g: Rules, s: LockeState, action: CardsRevealed) -> LockeState:
        s = open_information(g, s, self.seat, action)
        return advance(log(s, "evil-exception", "information", self.seat, len(action.handles)))



#: typed step kinds of this family (engine/locke/registry.py)
STEPS: tuple[type[LockeStep], ...] = (
    CardUse, CardUseReveal, Spend, MoveCardEffect, Gift, GiftDeal, ShapeChangeDeal, Reroll, CloneChoice,
    CloneRevival, ClonePlacement, IdentityChoice, EvilException, EvilInfo, EvilInfoReveal,
)


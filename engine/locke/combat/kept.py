"""Items from kept planet cards in combat (seed 000 3.1, KMC 3.1 and 10; rulings N200-N209).

A kept planet card is a face-down handle only its holder knows (``Seat.kept``).
The combat uses it as an item through the same code as the character cards'
items (engine/locke/combat/items.py), with the *source* as data: the action
names the handle (``card``) and the planet card it is used as (``as_card``).
Naming it is a claim (:data:`claims.PLANET`: the handle holds that card, or a
wildcard), and using it turns it face up through the hidden-card reveal of
engine/locke/planet_cards.py (ruling N60), which checks the claim on the spot.

Lifetimes are the planet cards' own (assets/locke/planets.json):

- permanent (cruiser, henchman): turned up at first use and held face up
  (``Seat.shown``);
- until broken (jammer, field, suits, Nike, :data:`FACE_DOWN`): named by their
  kind and kept face down until they break (seed 000 3.1.2 shows them only
  then), when they are shown, judged and go back under the planet stock
  (:func:`broken_steps`);
- single use (mirror, absorb ball, ESP controller, industrial, slum): turned
  up when used, spent when used up (the ball and the controller at the end of
  their combat, or when broken / released);
- hidden until they act (geoid bomb, subspace field): the roll comes first,
  and only a roll that fires or knocks the user out turns the card up.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar

from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.locke import claims as ck
from engine.locke import planet_cards as pc
from engine.locke.combat import claims as cc
from engine.locke.combat.common import item_level
from engine.locke.combat.model import CARD_SUITS, SUIT
from engine.locke.components import Character, ComponentError
from engine.locke.setup import cheat
from engine.locke.state import LockeState, advance, claimed
from engine.locke.steps import Automatic, LockeStep, Rules

#: Planet-card kinds the combat uses, and the item each one is (seed 000 3.1.1-3.1.3, 3.2.4).
ITEM_OF = {
    "cruiser": "ship", "henchman": "henchman", "esp-jammer": "esp-jammer", "esp-field": "esp-field",
    "energy-suit": "energy-suit", "powered-suit": "powered-suit", "nike": "nike", "geoid-bomb": "geoid-bomb",
    "subspace-field": "subspace-field", "lafnor-mirror": "lafnor-mirror", "absorb-ball": "absorb-ball",
    "esp-controller": "esp-controller", "industrial": "industrial", "slum": "slum",
}
PLANET_ITEMS = tuple(ITEM_OF)
#: Kinds declared before round 1 with the character's items (``Equip.cards``).
EQUIP_KINDS = ("henchman", "esp-jammer", "esp-field", "energy-suit", "powered-suit", SUIT, "nike")
#: The until-broken kinds: named by their kind alone and kept face down until they break (seed
#: 000 3.1.2 shows such a card only when it breaks), so which card the handle is stays hidden:
#: for the jammer, field and P-suit their printed level (each answer resting on it is a claim
#: about the card, engine/locke/combat/claims.py), for the E-suit and Nike (no printed level)
#: only which card it is; the kind claim is judged when the card is shown at its break or,
#: still held, at the final reveal (N173). A suit card may also be named as :data:`SUIT`, its
#: kind unsaid until an attack first reaches it (N225).
FACE_DOWN = ("esp-jammer", "esp-field", "energy-suit", "powered-suit", SUIT, "nike")
RULE = "locke.s000.3.1"


def level_of(g: Rules, card: str) -> int:
    """A planet card's printed level (0 for the cards without one)."""
    return int(g.components.planet(card).level)


def effect(g: Rules, card: str, key: str, default: int = 0) -> int:
    """A number of a planet card's effect (its success and knock-out rolls, absorb levels ...)."""
    value = g.components.planet(card).effect.params.get(key, default)
    return value if isinstance(value, int) else default


def check_held(g: Rules, s: LockeState, seat: int, handle: int, as_card: str, kinds: tuple[str, ...]) -> None:
    """Raise unless ``handle`` is a planet card the seat holds and ``as_card`` a card of ``kinds``;
    a face-up handle must already be that card (or a wildcard free to become it)."""
    p = s.seats[seat]
    if as_card in FACE_DOWN:
        kind = as_card
    else:
        try:
            kind = pc.kind_of(g.components.planet(as_card).id)
        except ComponentError as err:
            raise IllegalAction(f"there is no planet card {as_card!r}", rule=RULE) from err
        if kind in FACE_DOWN:
            raise IllegalAction(f"name the kind only ({kind}): its level stays hidden until it breaks",
                                rule="locke.s000.3.1.2")
    if kind not in kinds:
        raise IllegalAction(f"here a kept planet card may be used as {', '.join(kinds)}", rule=RULE)
    if handle not in p.kept + p.shown:
        raise IllegalAction("use one of your own kept planet cards", rule=RULE)
    if kind in FACE_DOWN and handle not in p.kept:
        raise IllegalAction("use a face-down card as a jammer, field, suit or Nike", rule="locke.s000.3.1.2")
    if handle in p.shown and not _may_be(s, handle, pc.card_of(s, handle), as_card):
        raise IllegalAction(f"your face-up card is {pc.stands_for(s, handle)}, not {as_card}", rule=RULE)
    if in_use(g, s, handle):
        raise IllegalAction("that single-use card is already in play in this combat", rule="locke.s000.3.1.3")


def in_use(g: Rules, s: LockeState, handle: int) -> bool:
    """A single-use card lies face up only while it acts (an absorb ball, an ESP controller):
    it cannot be used a second time."""
    card = pc.stands_for(s, handle)
    return bool(card) and card != "wildcard" and card not in FACE_DOWN and pc.single_use(g, card)


def _may_be(s: LockeState, handle: int, card: str, as_card: str) -> bool:
    if card == "wildcard":
        fixed = dict(s.wild).get(handle, "")
        return not fixed or fixed == as_card
    return card == as_card


def claim(s: LockeState, seat: int, handle: int, as_card: str) -> LockeState:
    """The use's claim: the handle holds ``as_card`` (or a wildcard). A face-down card is judged
    when it is turned up (at once, or for the hidden-until-effect cards at the latest at the
    final reveal, N173)."""
    c = ck.make(seat, s.step_no, cc.PLANET, (handle,), as_card, RULE)
    return s._replace(**claimed(s, c))


def reveal(seat: int, handle: int, as_card: str) -> tuple[pc.CardUse, ...]:
    """Turn the card up (if it is not yet) and check it is ``as_card`` (ruling N60)."""
    return pc.use_steps(seat, handle, as_card)


def spend_step(seat: int, handle: int) -> pc.Spend:
    """Back face up under the planet stock (single use spent, or broken)."""
    return pc.Spend(seat, handle)


def broken_steps(seat: int, handle: int, kind: str) -> tuple[LockeStep, ...]:
    """A face-down item of :data:`FACE_DOWN` broke (seed 000 3.1.2): it is shown (a card of
    another kind is caught, N60), everything the seat said about its level is judged on the
    spot (:class:`BrokenCardShown`), and it goes back under the stock."""
    return reveal(seat, handle, kind) + (BrokenCardShown(seat, handle), spend_step(seat, handle))


@dataclasses.dataclass(frozen=True)
class BrokenCardShown(Automatic):
    """A broken item card ``handle`` of ``seat`` is face up now: everything its owner said about
    its level must fit one level of it (a wildcard's too: it stood for one card), else the owner
    is caught (seed 000 3.1.2)."""

    KIND: ClassVar[str] = "cb_shown"
    seat: int
    handle: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        content = pc.card_of(s, self.handle)
        said = cc.said_about(s.claims, self.seat, self.handle)
        if not cc.consistent(g.components, said, content):
            raise cheat(self.seat, f"said of its {content} what no one level of it fits", "locke.s000.3.1.2")
        return advance(s)


#: the kept cards' step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (BrokenCardShown,)


def levels(g: Rules, s: LockeState, seat: int, handle: int, k: Knowledge | None, me: Character | None, item: str) -> tuple[int, ...] | None:
    """The levels the seat's own knowledge allows the hidden item to have (None: unknown, any
    answer): the character's (``handle`` -1) or the kept card's, a wildcard's narrowed to the
    levels that fit everything the seat already said about it."""
    if handle < 0:
        return None if me is None else (item_level(me, item),)
    card = k.card(handle) if k is not None else None
    if card is None:
        return None
    said = cc.said_about(s.claims, seat, handle)
    return tuple(level for level in cc.item_levels(g.components, card, item)
                 if all(cc.holds_at(c, level) for c in said))

def may_fit(levels: tuple[int, ...] | None, fits: Callable[[int], bool]) -> bool:
    """Some level the seat's hidden item may have (:func:`levels`) fits (None: the level is not
    known here, any answer)."""
    return levels is None or any(fits(level) for level in levels)


# --- the honest options: which of my kept cards may be used as what -------------------------------


def usable(g: Rules, s: LockeState, seat: int, k: Knowledge | None, kind: str) -> list[tuple[int, str]]:
    """(handle, planet card id) the seat may name for ``kind``: its own cards of that kind, a
    wildcard not yet fixed as every card of the kind (seed 000 3.1.5: it stands for any one),
    a fixed one only as its card. A kind of :data:`FACE_DOWN` is named by the kind alone,
    face-down cards only; :data:`SUIT` is offered for every handle that may be either suit card
    (N225). Without knowledge: every kept handle as every card of the kind."""
    if kind == SUIT:
        either = [h for suit in CARD_SUITS for h, _ in usable(g, s, seat, k, suit)]
        return [(h, SUIT) for h in dict.fromkeys(either + [h for h, _ in _usable(g, s, seat, k, SUIT)])]
    return _usable(g, s, seat, k, kind)


def _usable(g: Rules, s: LockeState, seat: int, k: Knowledge | None, kind: str) -> list[tuple[int, str]]:
    p = s.seats[seat]
    every = _cards(g, kind)
    out: list[tuple[int, str]] = []
    for h in p.kept + p.shown:
        if h in p.shown and in_use(g, s, h):
            continue
        fixed = dict(s.wild).get(h, "")
        card = pc.card_of(s, h) if h in p.shown else (k.card(h) if k is not None else None)
        if card is None and k is not None:
            continue  # a face-down card its holder does not know (none in play, but be safe)
        if fixed or (card is not None and card != "wildcard"):
            if pc.kind_of(fixed or str(card)) == kind:
                out.append((h, fixed or str(card)))
        else:
            out += [(h, c) for c in every]
    if kind in FACE_DOWN:  # named by the kind, and only while face down (seed 000 3.1.2)
        return list(dict.fromkeys((h, kind) for h, _ in out if h in p.kept))
    return out


def _cards(g: Rules, kind: str) -> list[str]:
    """Every planet card of ``kind``, one per id, lowest level first."""
    ids: list[str] = []
    for c in sorted(g.components.planets, key=lambda c: (c.level, c.id)):
        if pc.kind_of(c.id) == kind and c.id not in ids:
            ids.append(c.id)
    return ids

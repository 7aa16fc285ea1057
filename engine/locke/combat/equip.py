"""Items declared before the first initiative (KMC 10.3.2, 2.3), and again by a true self's new card (KMC 11.4, N228).

Each item declared is a claim about the character card (engine/locke/combat/items.py
``claim_item``): henchmen (one more combat card each, syncs at level 2 or less), a suit (E-suit:
the attacker's reflection check, durability 5; H-suit: durability 8; P-suit: absorbs attacks up
to its hidden level), an ESP field (cards up to its hidden level cost no power), an ESP jammer
put on a fighter, and Nike with its check value. Kept planet cards are declared here too (seed
000 3.1.1-3.1.2). A transformation in a fight (extra cards, N186; a true self's lost items, N228)
changes what the fighter holds, so :class:`FightTransformation` and :class:`HandTrim` live here.
Its own module because it only sets the fighter up: nothing here answers an attack.
"""

from __future__ import annotations

import dataclasses
from itertools import combinations
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.locke import claims as ck
from engine.locke import fate
from engine.locke import planet_cards as pc
from engine.locke.combat import claims as cc
from engine.locke.combat import kept
from engine.locke.combat.actions import Equip, Trim
from engine.locke.combat.common import (
    active, as_now, constant, fight_of, grant_int, henchmen_of, player, put, targets, whole_or, with_fighter,
)
from engine.locke.combat.deck import DealCards
from engine.locke.combat.items import MAX_HENCHMEN, claim_item
from engine.locke.combat.model import CARD_SUITS, DECK, HAND_SIZE, SUIT, SUITS, Fight
from engine.locke.components import Character
from engine.locke.state import LockeState, advance, claimed, log, zone_of
from engine.locke.steps import LockeStep, Rules, SeatDecision, answers


@dataclasses.dataclass(frozen=True)
class EquipDeclaration(SeatDecision):
    """KMC 10.3.2, 2.3: fighter ``fighter`` declares the items it brings before the first
    initiative (or, after a true self, its new card's, N228): each one a claim."""

    KIND: ClassVar[str] = "cb_equip"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        me = as_now(s, self.seat, me)
        aims = [-1] + list(targets(s, fight_of(s), self.fighter))
        # KMC 2.3.2: an item broken in an earlier combat stays gone (until death and revival)
        broken = {kind for kind, left in s.seats[self.seat].gear if left == 0}
        if me is None:
            counts, suits, fields, jams, nikes = [0, 1, 2], [""] + list(SUITS) + [SUIT], [False, True], aims, [0, 10]
        else:
            counts = sorted({0, henchmen_of(me)})
            suits = [""] + [suit for suit in SUITS if me.items_of(suit) and suit not in broken]
            suits += [SUIT] if len(suits) > 1 else []  # N225: its kind said, or not (both cost nothing)
            fields = [False] + ([True] if me.items_of("esp-field") else [])
            jams = aims if me.items_of("esp-jammer") else [-1]
            nikes = [0] + [grant_int(x, "check_max", me.mind) for x in me.items_of("nike")][:1]
        suits = [x for x in suits if x not in broken and not (x == SUIT and all(k in broken for k in SUITS))]
        fields = [x for x in fields if not x or "esp-field" not in broken]
        jams = [x for x in jams if x == -1 or "esp-jammer" not in broken]
        nikes = [x for x in nikes if not x or "nike" not in broken]
        if fight_of(s).fighters[self.fighter].reequip:  # N228: the new card's own items, none doubling a card's still in use
            on = worn(fight_of(s), self.fighter)
            suits = [x for x in suits if not x or ("suit" not in on and "nike" not in on)]
            fields = [x for x in fields if not x or "esp-field" not in on]
            jams = [x for x in jams if x == -1 or "esp-jammer" not in on]
            nikes = [x for x in nikes if not x or ("nike" not in on and "suit" not in on)]
        out: list[Action] = [Equip(self.seat, h, suit, field, jam, nike) for h in counts for suit in suits
                             for field in fields for jam in jams for nike in nikes if not (suit and nike)]
        if fight_of(s).fighters[self.fighter].reequip:
            return out
        return out + self._card_options(g, s, me, knowledge, aims[1:])

    def _card_options(self, g: Rules, s: LockeState, me: Character | None, k: Knowledge | None,
                      victims: list[int]) -> list[Action]:
        """Kept planet cards declared as items (seed 000 3.1.1-3.1.2), one card per option (with no
        item of the character's), and all the henchman cards together."""
        seat = self.seat
        out: list[Action] = []
        hench = kept.usable(g, s, seat, k, "henchman")
        if hench:
            out.append(Equip(seat, 0, "", False, cards=tuple(h for h, _ in hench), kinds=tuple(c for _, c in hench)))
        for kind in ("esp-field", *CARD_SUITS, SUIT):
            out += [Equip(seat, 0, "", False, cards=(h,), kinds=(c,)) for h, c in kept.usable(g, s, seat, k, kind)]
        out += [Equip(seat, 0, "", False, jam, cards=(h,), kinds=(c,))
                for h, c in kept.usable(g, s, seat, k, "esp-jammer") for jam in victims]
        mind = me.mind if me is not None else 0  # ``me`` holds the current stats already (as_now)
        if 2 <= mind <= 12 or me is None:
            out += [Equip(seat, 0, "", False, nike=mind or 10, cards=(h,), kinds=(c,))
                    for h, c in kept.usable(g, s, seat, k, "nike")]
        return out

    @answers(Equip)
    def declared(self, g: Rules, s: LockeState, action: Equip) -> LockeState:
        seat = self.seat
        if not 0 <= action.henchmen <= MAX_HENCHMEN or (action.suit and action.suit not in SUITS + (SUIT,)):
            raise IllegalAction(f"declare 0..{MAX_HENCHMEN} henchmen and a suit among {sorted(SUITS)}, or just "
                                f"{SUIT!r} (or none)", rule="locke.10.3.2")
        cards = _equip_cards(g, s, seat, action)
        _check_whole(s, seat, action, cards)
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        if f.reequip:
            _check_reequip(fight, self.fighter, action)
        if action.henchmen:
            s = claim_item(s, seat, "henchman", action.henchmen)
        if action.suit:
            s = claim_item(s, seat, action.suit)
        if action.field:
            s = claim_item(s, seat, "esp-field")
        if action.nike and not 2 <= action.nike <= 12:
            raise IllegalAction("declare Nike's check value 2..12 (or 0: no Nike)", rule="locke.2.3.2")
        suited = bool(action.suit) or any(kind in cards for kind in CARD_SUITS + (SUIT,))
        if (action.nike or "nike" in cards) and suited:
            raise IllegalAction("a suit cannot be worn with Nike", rule="locke.2.3.2")
        if "nike" in cards and not action.nike:
            raise IllegalAction("declare the value of Nike's check (your mind) with the Nike card",
                                rule="locke.s000.3.1.2")
        victims = targets(s, fight, self.fighter)
        if action.jammer != -1 and action.jammer not in victims:
            raise IllegalAction(f"put the jammer on one of fighters {list(victims)}", rule="locke.10.10")
        if "esp-jammer" in cards and action.jammer == -1:
            raise IllegalAction("say which fighter the jammer card goes on", rule="locke.10.10")
        if action.jammer != -1 and "esp-jammer" not in cards:
            s = claim_item(s, seat, "esp-jammer")
        if action.nike and "nike" not in cards:
            s = claim_item(s, seat, "nike")
            claim = ck.make(seat, s.step_no, cc.NIKE, (s.seats[seat].character,), action.nike, "locke.2.3.2")
            s = s._replace(**claimed(s, claim))
        if "nike" in cards:  # seed 000 3.1.2: the planet Nike is checked against the mind
            s = s._replace(**claimed(s, fate.stat_claim(s, seat, "mind", "le", action.nike, "locke.s000.3.1.2")))
        extra = sum(1 for kind in cards.values() if kind == "henchman")
        f = f._replace(henchmen=f.henchmen + action.henchmen + extra, own_henchmen=f.own_henchmen + action.henchmen,
                       suit=action.suit or f.suit, field=action.field or f.field, reequip=False,
                       suit_left=(whole_or(s, seat, action.suit, constant(g, action.suit, "durability"))
                                  if action.suit in SUITS else f.suit_left),
                       nike_left=(whole_or(s, seat, "nike", constant(g, "nike", "durability")) if action.nike
                                  else f.nike_left),
                       nike_check=action.nike or f.nike_check)
        jam_card = -1
        for h, as_card in zip(action.cards, action.kinds):
            kind = cards[as_card] if as_card in cards else pc.kind_of(as_card)
            s = kept.claim(s, seat, h, as_card)
            if as_card in kept.FACE_DOWN:  # face down: used as this kind from now on (3.1.5), logged as a use
                s = log(s._replace(wild=s.wild + (((h, as_card),) if h not in dict(s.wild) else ())),
                        "planet", as_card, seat, as_card)
            if kind in CARD_SUITS + (SUIT,):
                f = f._replace(suit=kind, suit_card=h, suit_left=0)
            elif kind == "esp-field":
                f = f._replace(field=True, field_card=h)
            elif kind == "nike":
                f = f._replace(nike_card=h)
            elif kind == "esp-jammer":
                jam_card = h
        fight = with_fighter(fight_of(s), self.fighter, f)
        if action.jammer != -1:  # one hidden-level jammer, the character's or a face-down card's (KMC 10.10)
            victim = fight.fighters[action.jammer]._replace(jam_owner=seat, jam_known=0, jam_card=jam_card)
            fight = with_fighter(fight, action.jammer, victim)
        s = put(s, fight)
        if action.henchmen or action.suit or action.field or action.jammer != -1 or action.nike or action.cards:
            own_jam = action.jammer if "esp-jammer" not in cards else -1  # the character's items, then the cards
            own_nike = action.nike if "nike" not in cards else 0
            s = log(s, "cb-equip", seat, action.henchmen, action.suit, action.field, own_jam, own_nike,
                    list(action.kinds))
        reveals = tuple(x for h, as_card in zip(action.cards, action.kinds) if as_card not in kept.FACE_DOWN
                        for x in kept.reveal(seat, h, as_card))  # seed 000 3.1.2: those stay face down
        return advance(s, *reveals)


def _check_whole(s: LockeState, seat: int, action: Equip, cards: dict[str, str]) -> None:
    """KMC 2.3.2: a character-card item broken in an earlier combat cannot be declared again
    (until the character dies and comes back, or a new card comes, Seat.gear)."""
    broken = {kind for kind, left in s.seats[seat].gear if left == 0}
    used = ((action.suit, action.suit in SUITS), ("esp-field", action.field),
            ("esp-jammer", action.jammer != -1 and "esp-jammer" not in cards),
            ("nike", bool(action.nike) and "nike" not in cards))
    gone = [kind for kind, on in used if on and kind in broken]
    if action.suit == SUIT and all(kind in broken for kind in SUITS):
        gone.append(SUIT)
    if gone:
        raise IllegalAction(f"{', '.join(gone)} broke in an earlier combat and stays gone until you die and come "
                            "back (KMC 2.3.2): declare your other items", rule="locke.2.3.2")


def worn(fight: Fight, index: int) -> tuple[str, ...]:
    """The item kinds fighter ``index`` still uses from kept planet cards after a true self took
    its old card's away (N228): a new card's item may not double one of them."""
    f = fight.fighters[index]
    jam = any(v.jam_owner == f.seat for v in fight.fighters)
    return tuple(kind for kind, on in (("suit", bool(f.suit)), ("esp-field", f.field), ("esp-jammer", jam),
                                       ("nike", f.nike_left > 0)) if on)


def _check_reequip(fight: Fight, index: int, action: Equip) -> None:
    """KMC 11.4, 2.3.2 (N228): the new card declares its own items before the next initiative; the
    kept planet cards the seat uses stay as they were, and one item of each kind at a time."""
    on = worn(fight, index)
    doubled = [kind for kind, new in (("suit", bool(action.suit)), ("esp-field", action.field),
                                      ("esp-jammer", action.jammer != -1), ("nike", bool(action.nike)))
               if new and kind in on]
    if action.cards or doubled or (action.nike and "suit" in on) or (action.suit and "nike" in on):
        raise IllegalAction("after a true self declare only the new character card's items, none of a kind still "
                            f"in use ({', '.join(on) or 'none'}; no suit with Nike)", rule="locke.11.4")


@dataclasses.dataclass(frozen=True)
class FightTransformation(fate.TransformationEffects):
    """A transformation check rolled in a fight (the combat's hits, N5): the seat's fighter gains
    the extra combat cards (N186), or a true self loses the old card's items (KMC 11.4, N228)."""

    KIND: ClassVar[str] = "combat.fight"

    def extra_cards(self, s: LockeState, seat: int, count: int) -> LockeState:
        return extra_cards(s, seat, count)

    def new_character(self, s: LockeState, seat: int) -> LockeState:
        return new_character(s, seat)


def extra_cards(s: LockeState, seat: int, count: int) -> LockeState:
    """Seed 002 transformation 7 in a combat (N186): the seat is dealt ``count`` more combat cards
    at once (as many as the deck still has) and keeps ``count`` more in hand until the combat
    ends. Queued right after the step being handled (engine/locke/fate.py's convention)."""
    if s.combat is None or not isinstance(s.combat.detail, Fight):
        return log(s, "cb-extra-cards", seat, 0)
    fight = fight_of(s)
    index = next((i for i, f in enumerate(fight.fighters) if f.seat == seat and player(f)), -1)
    if index < 0 or not active(fight, index):
        return log(s, "cb-extra-cards", seat, 0)
    f = fight.fighters[index]
    s = put(s, with_fighter(fight, index, f._replace(extra=f.extra + count)))
    dealt = min(count, len(zone_of(s, DECK)))
    s = log(s, "cb-extra-cards", seat, dealt)
    if not dealt:
        return s
    return s._replace(queue=s.queue[:1] + (DealCards(seat, index, dealt),) + s.queue[1:])


def new_character(s: LockeState, seat: int) -> LockeState:
    """KMC 11.4 (N228): a true self inside a combat. The new card starts afresh: the ESP power
    spent is no longer counted, the old card's items are gone (its henchmen, suit, field, jammer
    and Nike; those of kept planet cards stay, they are the seat's), and the new card declares
    its own before the next initiative (``reequip``). A hand left larger than it may be now is
    trimmed at once (:class:`HandTrim`, right after the step being handled, fate.py's convention)."""
    if s.combat is None or not isinstance(s.combat.detail, Fight):
        return s
    fight = fight_of(s)
    index = next((i for i, f in enumerate(fight.fighters) if f.seat == seat and player(f) and not f.thought), -1)
    if index < 0:
        return s
    f = fight.fighters[index]
    gone = (("henchman",) if f.own_henchmen else ()) + ((f.suit,) if f.suit and f.suit_card < 0 else ()) + (
        ("esp-field",) if f.field and f.field_card < 0 else ()) + (("nike",) if f.nike_left and f.nike_card < 0 else ())
    f = f._replace(spent=0, henchmen=f.henchmen - f.own_henchmen, own_henchmen=0, reequip=True)
    if f.suit_card < 0:
        f = f._replace(suit="", suit_left=0)
    if f.field_card < 0:
        f = f._replace(field=False, field_known=0)
    if f.nike_card < 0:
        f = f._replace(nike_left=0, nike_check=0, nike_on=False)
    fighters = list(with_fighter(fight, index, f).fighters)
    for j, v in enumerate(fighters):  # the old card's jammer is off its victim
        if v.jam_owner == seat and v.jam_card < 0:
            fighters[j] = v._replace(jam_owner=-1, jam_known=0, jam_through=0)
            gone += ("esp-jammer",)
    s = log(put(s, fight._replace(fighters=tuple(fighters))), "cb-items-gone", seat, list(gone))
    excess = len(f.hand) - (HAND_SIZE + f.henchmen + f.extra)
    if excess > 0:
        s = s._replace(queue=s.queue[:1] + (HandTrim(seat, index, excess),) + s.queue[1:])
    return s


def reequip_steps(fight: Fight) -> tuple[LockeStep, ...]:
    """The item declarations of new character cards (N228), as the next round begins."""
    return tuple(EquipDeclaration(f.seat, i) for i, f in enumerate(fight.fighters) if f.reequip and active(fight, i))


@dataclasses.dataclass(frozen=True)
class HandTrim(SeatDecision):
    """KMC 11.4: fighter ``fighter`` puts back the ``count`` cards beyond its new hand size (face
    down, played pile)."""

    KIND: ClassVar[str] = "cb_trim"
    fighter: int
    count: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        """N228: every way to put back the cards beyond the new hand size (the seat's choice)."""
        hand = fight_of(s).fighters[self.fighter].hand
        return [Trim(self.seat, tuple(c)) for c in combinations(hand, self.count)]

    @answers(Trim)
    def trimmed(self, g: Rules, s: LockeState, action: Trim) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        count = self.count
        if (len(action.handles) != count or len(set(action.handles)) != count
                or any(h not in f.hand for h in action.handles)):
            raise IllegalAction(f"put back {count} different cards of your hand", rule="locke.11.4")
        f = f._replace(hand=tuple(h for h in f.hand if h not in action.handles))
        s = put(s, with_fighter(fight, self.fighter, f)._replace(used=fight.used + action.handles))
        return advance(log(s, "cb-trim", self.seat, count))


def _equip_cards(g: Rules, s: LockeState, seat: int, action: Equip) -> dict[str, str]:
    """Check the planet cards of a declaration (seed 000 3.1.1-3.1.2): one suit, one field, one
    jammer and one Nike at most, none doubling the character's own (KMC 10.3.2 one of each kind
    in use); returns {as_card: kind} for the cards used."""
    if len(action.cards) != len(action.kinds) or len(set(action.cards)) != len(action.cards):
        raise IllegalAction("name each kept planet card once, with the card it is used as", rule=kept.RULE)
    kinds: dict[str, str] = {}
    count: dict[str, int] = {}
    for h, as_card in zip(action.cards, action.kinds):
        kept.check_held(g, s, seat, h, as_card, kept.EQUIP_KINDS)
        kind = pc.kind_of(as_card)
        kinds[as_card] = kind
        group = SUIT if kind in CARD_SUITS + (SUIT,) else kind
        count[group] = count.get(group, 0) + 1
    if any(n > 1 for group, n in count.items() if group != "henchman"):
        raise IllegalAction("use one suit, one field, one jammer and one Nike at most", rule="locke.s000.3.1.2")
    if (count.get(SUIT) and action.suit) or (count.get("esp-field") and action.field):
        raise IllegalAction("one suit and one field at a time (the card's or the character's)", rule="locke.s000.3.1.2")
    return {kind: kind for kind in kinds.values()} | kinds


#: the equip step kinds (engine/locke/registry.py, the combat family)
STEPS: tuple[type[LockeStep], ...] = (
    EquipDeclaration, HandTrim,
)

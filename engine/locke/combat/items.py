"""Items of the character cards in combat (KMC 2.3, 10.3.2, 10.4.2, 10.7).

Each use is a claim that the character card carries the item (the card is
secret until the end); the numbers are the card's own (assets/locke/characters.json):

- declared before the first initiative (:class:`EquipDeclaration`): henchmen (one
  more card each, syncs at level 2 or less), a suit (E-suit: the attacker's
  reflection check, durability 5; H-suit: durability 8; P-suit: absorbs
  attacks up to its hidden level, a claim each time, broken above it) and
  an ESP field (cards up to its hidden level cost no power, a claim);
- special attacks on one's own turn (:func:`special`), each once a round besides
  the normal action: the ship (ship-support chart: bombs, a beam cannon, nothing,
  or a misfire on oneself), E-Strohheim's beam cannon (firepower chart), Dr.
  Wong's geoid bomb (2d6: 6 or less fires level 7 / 100, 10 or more knocks
  him out);
- answers to an attack (:func:`answer_item`): the Lafnor mirror (1d6 of 4 or
  less: an unblockable level-7 escape), the subspace field (2d6 of 9 or less: a
  level-7 escape, 10 or more knocks out), Nagato's psycho-pod (1d6 of 4 or
  less stops an attack up to level 6, never a light sword);
- what a hit meets before the body (:func:`suit_steps`): the absorb ball, Nike,
  the suits.

The same code serves the kept planet cards used as items (seed 000 3.1,
engine/locke/combat/kept.py) and a controlled fighter's release (seed 000 3.1.3).
The decisions that take these answers are engine/locke/combat/path.py's.
"""

from __future__ import annotations

import dataclasses
from itertools import combinations
from typing import ClassVar

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.hidden import Knowledge
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke import charts, fate
from engine.locke import claims as ck
from engine.locke import planet_cards as pc
from engine.locke.actions import Nop
from engine.locke.chart_data import FIREPOWER
from engine.locke.combat import breakage, kept
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Absorb, Equip, JamVeto, Play, ShipEffect, SuitKind, Trim, UseItem
from engine.locke.combat.common import (
    RESIDUAL,
    active,
    alert,
    as_now,
    constant,
    damage_roller,
    fight_of,
    grant_int,
    henchmen_of,
    mark_attacked,
    may_have,
    number,
    player,
    put,
    seat_index,
    targets,
    with_fighter,
    with_strike,
)
from engine.locke.combat.deck import DealCards
from engine.locke.combat.model import CARD_SUITS, DECK, HAND_SIZE, SUIT, SUITS, Fight, Fighter, Strike
from engine.locke.components import Character
from engine.locke.damage import resolve_damage
from engine.locke.state import LockeState, advance, claimed, log, zone_of
from engine.locke.steps import Automatic, LockeStep, Ordered, Rules, SeatDecision, Then, Waiting, answers

SPECIALS = cc.SPECIALS
ESCAPES = ("lafnor-mirror", "subspace-field")
DEFENCES = ("psycho-pod",)
#: The planet cards that give a special attack (seed 000 3.1.1, 3.1.3) and the turn's other card uses.
PLANET_SPECIAL = {"ship": "cruiser", "geoid-bomb": "geoid-bomb"}
TURN_CARDS = ("slum", "esp-controller")
PLANET_ESCAPES = {"lafnor-mirror": "lafnor-mirror", "subspace-field": "subspace-field"}
PLANET_DEFENCES = {"absorb-ball": "absorb-ball"}
#: Dice of the items that roll to work (their success and knock-out numbers are the items' own constants).
DICE = {"lafnor-mirror": (6,), "subspace-field": (6, 6), "psycho-pod": (6,), "geoid-bomb": (6, 6)}
MAX_HENCHMEN = 9


def _limits(g: Rules, item: str) -> tuple[int, int]:
    """(success at or below, knocked out at or above) of a rolled item."""
    best = constant(g, item, "die_success_max", constant(g, item, "success_max"))
    return best, constant(g, item, "faint_min", 99)


def _claim(s: LockeState, seat: int, item: str, count: int = 1) -> LockeState:
    claim = ck.make(seat, s.step_no, cc.ITEM, (s.seats[seat].character,), [item, count], "locke.2.3")
    return s._replace(**claimed(s, claim))


# --- declarations before the first initiative (KMC 10.3.2) -------------------------------------


@dataclasses.dataclass(frozen=True)
class EquipDeclaration(SeatDecision):
    """KMC 10.3.2, 2.3: fighter ``fighter`` declares the items it brings before the first
    initiative (or, after a true self, its new card's, N228): each one a claim."""

    KIND: ClassVar[str] = "cb_equip"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        me = as_now(s, self.seat, me)
        aims = [-1] + list(targets(s, fight_of(s), self.fighter))
        if me is None:
            counts, suits, fields, jams, nikes = [0, 1, 2], [""] + list(SUITS) + [SUIT], [False, True], aims, [0, 10]
        else:
            counts = sorted({0, henchmen_of(me)})
            suits = [""] + [suit for suit in SUITS if me.items_of(suit)]
            suits += [SUIT] if len(suits) > 1 else []  # N225: its kind said, or not (both cost nothing)
            fields = [False] + ([True] if me.items_of("esp-field") else [])
            jams = aims if me.items_of("esp-jammer") else [-1]
            nikes = [0] + [grant_int(x, "check_max", me.mind) for x in me.items_of("nike")][:1]
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
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        if f.reequip:
            _check_reequip(fight, self.fighter, action)
        if action.henchmen:
            s = _claim(s, seat, "henchman", action.henchmen)
        if action.suit:
            s = _claim(s, seat, action.suit)
        if action.field:
            s = _claim(s, seat, "esp-field")
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
            s = _claim(s, seat, "esp-jammer")
        if action.nike and "nike" not in cards:
            s = _claim(s, seat, "nike")
            claim = ck.make(seat, s.step_no, cc.NIKE, (s.seats[seat].character,), action.nike, "locke.2.3.2")
            s = s._replace(**claimed(s, claim))
        if "nike" in cards:  # seed 000 3.1.2: the planet Nike is checked against the mind
            s = s._replace(**claimed(s, fate.stat_claim(s, seat, "mind", "le", action.nike, "locke.s000.3.1.2")))
        extra = sum(1 for kind in cards.values() if kind == "henchman")
        f = f._replace(henchmen=f.henchmen + action.henchmen + extra, own_henchmen=f.own_henchmen + action.henchmen,
                       suit=action.suit or f.suit, field=action.field or f.field, reequip=False,
                       suit_left=constant(g, action.suit, "durability") if action.suit in SUITS else f.suit_left,
                       nike_left=constant(g, "nike", "durability") if action.nike else f.nike_left,
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


# --- a player's ESP jammer of hidden level (KMC 10.10) -------------------------------------------


def jam_question(f: Fighter, index: int, level: int, drop: int, step: LockeStep) -> JammerQuestion:
    """The jammer's owner answers the card fighter ``index`` plays (KMC 10.10): stopped, the play is
    taken back (the ``drop`` steps of its continuation with it) and ``step`` comes again (afresh:
    a controller's order for it is asked again)."""
    again = dataclasses.replace(step, order="") if isinstance(step, Ordered) else step
    return JammerQuestion(f.jam_owner, index, level, drop, again)


@dataclasses.dataclass(frozen=True)
class JammerQuestion(SeatDecision):
    """The owner ``seat`` of the jammer of hidden level on fighter ``fighter`` says whether it
    stops the card of ``level`` just played (KMC 10.10). Stopped, the ``drop`` steps that carry
    the play on go and ``again`` (the step the card was played in) comes back."""

    KIND: ClassVar[str] = "cb_jam_ask"
    fighter: int
    level: int
    drop: int
    again: LockeStep

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        card = fight_of(s).fighters[self.fighter].jam_card
        jammer = kept.levels(g, s, self.seat, card, knowledge, as_now(s, self.seat, me), "esp-jammer")
        return [JamVeto(self.seat, veto) for veto in (False, True)
                if jammer is None or any((top >= self.level) == veto for top in jammer)]

    @answers(JamVeto)
    def answer(self, g: Rules, s: LockeState, action: JamVeto) -> LockeState:
        """The owner stops the card (a claim that its jammer reaches the card's level: the play is
        taken back, card and power returned, and the player chooses again) or lets it work (a
        claim that the jammer is below it, KMC 10.10: the level stays hidden only until a card
        works). Either answer is recorded (breakage.learn), so neither level is asked again."""
        fight = fight_of(s)
        victim = fight.fighters[self.fighter]
        about = (victim.jam_card,) if victim.jam_card >= 0 else (s.seats[self.seat].character,)
        what = cc.JAMMER if action.veto else cc.JAM_PASS
        s = s._replace(**claimed(s, ck.make(self.seat, s.step_no, what, about, self.level, "locke.10.10")))
        owner = seat_index(fight_of(s), self.seat)
        if not action.veto or fight.before is None:
            fight = breakage.learn(fight, owner, "esp-jammer", victim.jam_card, self.level, False)
            return advance(put(s, fight._replace(before=None)))
        back = breakage.learn(fight.before, owner, "esp-jammer", victim.jam_card, self.level, True)
        s = log(put(s, back), "cb-jam-veto", self.seat, victim.seat, self.level)
        return s._replace(queue=(self.again,) + s.queue[1 + self.drop:])


# --- Nike (KMC 2.3.2) --------------------------------------------------------------------------------
# --- Nike (KMC 2.3.2) --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class NikeCheck(Waiting):
    """Fighter ``fighter``'s Nike check of the round: at or below the declared value Nike is in use
    this round; 11 or more knocks its user out."""

    KIND: ClassVar[str] = "cb_nike"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.nike", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        total = sum(action.faces)
        faint = constant(g, "nike", "faint_min", 99)
        on = total <= f.nike_check and total < faint
        if total >= faint:  # KMC 2.3.2: out for this round only, it wakes as the next begins (N162)
            f = f._replace(fainted=True, wake=max(f.wake, fight.round + 1) if f.fainted else fight.round + 1)
        f = f._replace(nike_on=on)
        return advance(log(put(s, with_fighter(fight, self.fighter, f)), "cb-nike-check", f.seat, total, on))


def nike_steps(fight: Fight) -> tuple[LockeStep, ...]:
    """The round's Nike checks, for every fighter still in with a whole Nike (KMC 2.3.2)."""
    return tuple(NikeCheck(i) for i, f in enumerate(fight.fighters) if f.nike_left > 0 and active(fight, i))


def thought_syncs(s: LockeState, attacker: int) -> tuple[LockeStep, ...]:
    """KMC 10.8.2: every other residual thought still in that has not attacked this round may
    add its firepower to a thought's attack, giving up its own attack this round (N185)."""
    fight = fight_of(s)
    return tuple(ThoughtSync(f.seat, j) for j in fight.order or range(len(fight.fighters))
                 if (f := fight.fighters[j]).thought and j != attacker and active(fight, j) and not f.acted
                 and not f.done)


@dataclasses.dataclass(frozen=True)
class ThoughtSync(SeatDecision):
    """KMC 10.8.2: the residual thought ``fighter`` may sync another's attack (its firepower), or not."""

    KIND: ClassVar[str] = "cb_thought_sync"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        return [Nop(self.seat), UseItem(self.seat, RESIDUAL, -1)]

    @answers(UseItem)
    def syncs(self, g: Rules, s: LockeState, action: UseItem) -> LockeState:
        """A thought's sync (``UseItem(seat, "residual-thought", -1)``): firepower added, no own attack."""
        if action.item != RESIDUAL or action.target != -1:
            raise IllegalAction("a residual thought syncs another's attack with its own firepower (no target)",
                                rule="locke.10.8.2")
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        strike = fight.strike
        assert strike is not None
        s = put(s, with_fighter(fight, self.fighter, f._replace(acted=True)))
        strike = strike._replace(firepower=strike.firepower + f.thought, syncers=strike.syncers + (self.fighter,),
                                 sync_power=strike.sync_power + (f.thought,))
        return advance(log(with_strike(s, strike), "cb-sync", self.seat, RESIDUAL, strike.level, strike.firepower))

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


def _nike_attack(g: Rules, s: LockeState, seat: int, me: int, target: int) -> LockeState:
    """Nike's attack (20) is the turn's normal action; nobody escapes or defends it."""
    fight = fight_of(s)
    s = put(s, with_fighter(fight, me, fight.fighters[me]._replace(acted=True)))
    s = mark_attacked(with_strike(s, Strike(me, target, "", 0, constant(g, "nike", "attack"), escape_tried=True)))
    planet = ("planet",) if fight.fighters[me].nike_card >= 0 else ()
    return advance(log(s, "cb-item", seat, "nike", target, *planet), g.attack.Hit(), turn_on(seat, me))


# --- special attacks (KMC 10.4.2) ----------------------------------------------------------------


def special(g: Rules, s: LockeState, seat: int, me: int, action: UseItem) -> LockeState:
    """An item used on fighter ``me``'s own turn (``cb_act``): a special attack, Nike's attack, an
    escape, a turn card, or a residual thought's attack; the normal action may still be to come."""
    fight = fight_of(s)
    f = fight.fighters[me]
    if f.thought:  # KMC 10.6-10.7: a residual thought's attack goes to the body, unanswered
        options = targets(s, fight, me)
        if action.item != RESIDUAL or action.target not in options:
            raise IllegalAction(f"a residual thought can only attack one of fighters {list(options)}",
                                rule="locke.10.6")
        s = put(s, with_fighter(fight, me, f._replace(acted=True)))
        s = with_strike(s, Strike(me, action.target, "", 0, f.thought, escape_tried=True, direct=True))
        return advance(log(s, "cb-item", seat, RESIDUAL, action.target), *thought_syncs(s, me), g.attack.Hit())
    if f.acted and (action.item == "nike" or normal_escape(action.item, action.card)):
        raise IllegalAction("your turn has no normal action left (you took it, or synced an attack this round): "
                            "Nike's attack and an escape by a mirror or a planet subspace field are normal actions",
                            rule="locke.10.4.1")
    if action.item == "nike":
        options = targets(s, fight, me)
        if not f.nike_on or action.target not in options:
            raise IllegalAction(f"attack with Nike (in use this round) one of fighters {list(options)}",
                                rule="locke.2.3.2")
        return _nike_attack(g, s, seat, me, action.target)
    if action.card >= 0 and action.item in TURN_CARDS:
        return _turn_card(g, s, seat, me, action)
    if action.item in ESCAPES:
        return _own_escape(g, s, seat, me, action)
    key = action.item if action.card < 0 else f"{action.item}:{action.card}"
    if action.item not in SPECIALS or key in f.specials:
        raise IllegalAction(f"a special attack ({', '.join(SPECIALS)}) is used once a round", rule="locke.10.4.2")
    options = targets(s, fight, me)
    if action.target not in options:
        raise IllegalAction(f"pick a target among fighters {list(options)}", rule="locke.10.6")
    reveal: tuple[LockeStep, ...] = ()
    if action.card >= 0:  # seed 000 3.1.1 cruiser, 3.1.3 geoid bomb
        kept.check_held(g, s, seat, action.card, action.as_card, (PLANET_SPECIAL[action.item],))
        s = kept.claim(s, seat, action.card, action.as_card)
        if action.item == "ship":  # the cruiser: kept for the game, face up from its first use
            reveal = kept.reveal(seat, action.card, action.as_card)
    else:  # "ship" may be the beam cannon or the geoid bomb: its claim comes with its effect (N226)
        s = _claim(s, seat, action.item) if action.item != "ship" else s
        used = 1 + sum(1 for k in f.specials if k in SPECIALS)
        if used > 1:  # KMC 10.4.2: each special once a round, so a second one means a second kind
            s = _claim(s, seat, "specials", used)
    s = put(s, with_fighter(fight_of(s), me, f._replace(specials=f.specials + (key,))))
    s = log(s, "cb-item", seat, action.item, action.target, *(("planet",) if action.card >= 0 else ()))
    again = turn_on(seat, me)
    if action.item == "ship":  # a character's "ship": its user says what it did (N226)
        return advance(s, *reveal, ShipRoll(seat, me, action.target, said=action.card < 0), again)
    if action.card >= 0:  # the planet geoid bomb stays hidden until it fires or knocks out
        return advance(s, ItemRoll(seat, me, "geoid-bomb", action.target, action.card, action.as_card), again)
    if action.item == "beam-cannon":
        s = mark_attacked(with_strike(s, Strike(me, action.target, "", 4, 0)))
        return advance(s, BeamCannonFirepower(), g.attack.AttackStands(), again)
    return advance(s, ItemRoll(seat, me, "geoid-bomb", action.target), again)


@dataclasses.dataclass(frozen=True)
class ShipRoll(Waiting):
    """Ship-support chart (seed 002) for fighter ``fighter``'s ship at fighter ``target``: bombs, a
    beam cannon, nothing, or a misfire on oneself. A character's "ship" may be its beam cannon or
    geoid bomb (KMC 10.4.2 notes 1-2), so its user then says what it does (``said``, N226); a
    cruiser card, face up, and a random character's public ship (N245, ``seat`` -1) are ships:
    the chart applies."""

    KIND: ClassVar[str] = "cb_ship"
    seat: int
    fighter: int
    target: int
    said: bool = False

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.chart.ship-support", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        outcome = charts.resolve("ship-support", action.faces)
        s = log(s, "cb-ship", self.seat, outcome.entry)
        if self.said:
            return advance(s, ShipEffectQuestion(self.seat, self.fighter, self.target, tuple(action.faces)))
        return _ship_support(g, s, self.fighter, self.target, outcome.entry)


def _ship_support(g: Rules, s: LockeState, me: int, target: int, entry: str) -> LockeState:
    """The ship-support chart's entry ``entry`` (seed 002) for fighter ``me`` against ``target``."""
    if entry == "no-support" or not active(fight_of(s), target):
        return advance(s)
    if entry == "misfire":  # its beam cannon at itself, straight to the hit
        s = mark_attacked(with_strike(s, Strike(me, me, "", 4, 0, machine=True, escape_tried=True)))
        return advance(s, BeamCannonFirepower(), g.attack.Hit())
    attack = next(e for e in charts.chart("ship-support").entries if e.id == entry).attacks[0]
    s = mark_attacked(with_strike(s, Strike(me, target, "", int(attack.level or 0), int(attack.firepower or 0),
                                            machine=True)))
    fp: tuple[LockeStep, ...] = (BeamCannonFirepower(),) if attack.firepower is None else ()
    return advance(s, *fp, g.attack.AttackStands())


@dataclasses.dataclass(frozen=True)
class ShipEffectQuestion(SeatDecision):
    """KMC 10.4.2 notes 1-2 (N226): what fighter ``fighter``'s special announced as "a ship" at
    ``target`` does at its roll ``faces``, a claim about the character card (``claims.SHIP``). A
    chart entry (the beam cannon too: the table saw a ship) is the ship-support chart's; the geoid
    bomb fires or knocks its user out by its own numbers, as when it is named."""

    KIND: ClassVar[str] = "cb_ship_effect"
    fighter: int
    target: int
    faces: tuple[int, ...]

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        """What one's own special may do at this roll (without knowledge: whatever any of the three may do)."""
        me = as_now(s, self.seat, me)
        entry = charts.resolve("ship-support", self.faces).entry
        mine = [item for item in SPECIALS if may_have(me, item)] or list(SPECIALS)
        effects = {e for item in mine for e in cc.ship_effects(g.components, item, sum(self.faces), entry)}
        return [ShipEffect(self.seat, e) for e in cc.SHIP_EFFECTS if e in effects]

    @answers(ShipEffect)
    def said(self, g: Rules, s: LockeState, action: ShipEffect) -> LockeState:
        entry = charts.resolve("ship-support", self.faces).entry
        total = sum(self.faces)
        if not any(action.effect in cc.ship_effects(g.components, item, total, entry) for item in SPECIALS):
            effects = sorted({e for i in SPECIALS for e in cc.ship_effects(g.components, i, total, entry)})
            raise IllegalAction(f"at {total} a ship, beam cannon or geoid bomb does one of {effects}",
                                rule="locke.10.4.2")
        claim = ck.make(self.seat, s.step_no, cc.SHIP, (s.seats[self.seat].character,),
                        [total, entry, action.effect], "locke.10.4.2")
        s = log(s._replace(**claimed(s, claim)), "cb-ship-effect", self.seat, action.effect)
        if action.effect in ("geoid-bomb", "knocked-out"):
            return _item_result(g, s, self.seat, self.fighter, "geoid-bomb", self.target,
                                action.effect == "geoid-bomb", action.effect == "knocked-out")
        return _ship_support(g, s, self.fighter, self.target, action.effect)


@dataclasses.dataclass(frozen=True)
class BeamCannonFirepower(Waiting):
    """The beam cannon's firepower, rolled on the weapon-firepower chart (seed 002) at every use."""

    KIND: ClassVar[str] = "cb_item_fp"

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.chart.weapon-firepower", (6,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        power = FIREPOWER["beam-cannon"][action.faces[0] - 1]
        s = with_strike(s, strike._replace(firepower=power))
        return advance(log(s, "cb-firepower", "beam-cannon", [action.faces[0]], power))


# --- escapes and defences by item (KMC 10.7.2-3) --------------------------------------------------


def answer_item(g: Rules, s: LockeState, seat: int, me: int, action: UseItem, uses: tuple[str, ...]) -> LockeState:
    """Fighter ``me`` answers the attack in flight with an item of ``uses`` (:data:`ESCAPES` in the
    escape phase, :data:`DEFENCES` in the defence phase) or a kept planet card."""
    strike = fight_of(s).strike
    assert strike is not None
    if fight_of(s).fighters[me].nike_on:
        raise IllegalAction("while you use Nike no item escapes or defends", rule="locke.2.3.2")
    if action.card >= 0:
        return _planet_answer(g, s, seat, me, action, uses)
    if action.item not in uses or action.target != -1:
        raise IllegalAction(f"answer with one of {', '.join(uses)} (no target)", rule="locke.10.7")
    if action.item in ESCAPES and strike.level > 7:
        raise IllegalAction("a level-7 escape cannot answer an attack above level 7", rule="locke.10.7.2")
    if action.item == "psycho-pod" and (strike.level > 6 or strike.light_sword):
        raise IllegalAction("the psycho-pod stops attacks up to level 6, never a light sword", rule="locke.2.3.1")
    s = _claim(s, seat, action.item)
    if action.item in ESCAPES:
        s = with_strike(s, strike._replace(escape_tried=True))
    s = log(s, "cb-item", seat, action.item, -1)
    return advance(s, ItemRoll(seat, me, action.item))


def _planet_answer(g: Rules, s: LockeState, seat: int, me: int, action: UseItem, uses: tuple[str, ...]) -> LockeState:
    """A kept planet card answers the attack (seed 000 3.1.3; KMC 10.7.2-3): the subspace field
    (2d6, hidden until it acts), the Lafnor mirror (escape and defence at once at its level, only a
    higher planet mirror blocks the escape) or the energy absorb ball (a defence that stays up)."""
    strike = fight_of(s).strike
    assert strike is not None
    table = PLANET_ESCAPES if uses == ESCAPES else PLANET_DEFENCES
    if action.item not in table or action.target != -1:
        raise IllegalAction(f"answer with a kept {' or '.join(table)} card (no target)", rule="locke.10.7")
    kept.check_held(g, s, seat, action.card, action.as_card, (table[action.item],))
    level = kept.level_of(g, action.as_card)
    if action.item == "subspace-field" and strike.level > kept.effect(g, action.as_card, "escape_level", 7):
        raise IllegalAction("the subspace field escapes attacks up to level 7", rule="locke.s000.3.1.3")
    if action.item == "lafnor-mirror" and strike.level > level:
        raise IllegalAction(f"a level-{level} mirror answers attacks up to level {level}", rule="locke.10.7.2")
    if action.item == "absorb-ball" and not ball_stops(g, action.as_card, strike):
        raise IllegalAction(f"a level-{level} absorb ball takes attacks up to level {level} (light swords only the "
                            "level-5 ball, at level 5)", rule="locke.s000.3.1.3")
    s = kept.claim(s, seat, action.card, action.as_card)
    s = log(s, "cb-item", seat, action.item, -1, "planet")
    if action.item == "subspace-field":
        s = with_strike(s, strike._replace(escape_tried=True))
        return advance(s, ItemRoll(seat, me, "subspace-field", -1, action.card, action.as_card))
    shown = kept.reveal(seat, action.card, action.as_card)
    if action.item == "absorb-ball":  # up until the combat ends or a stronger attack hits it
        fight = fight_of(s)
        f = fight.fighters[me]._replace(ball=level, ball_card=action.card)
        s = put(s, with_fighter(fight, me, f))
        return advance(s, *shown, BallAbsorbs(me))
    # the mirror: spent at once; every other player may block its escape with a higher planet mirror
    s = with_strike(s, strike._replace(escape_tried=True, escaper=me, escape_level=level, mirror=level))
    return advance(s, *_mirror_steps(s, seat, me, action.card, action.as_card))


def ball_stops(g: Rules, as_card: str, strike: Strike) -> bool:
    """An absorb ball takes attacks up to its level; a light sword only when the card says so
    (the level-5 ball and the level-5 sword, seed 000 3.1.3)."""
    level = kept.level_of(g, as_card)
    if strike.light_sword:
        absorbs = g.components.planet(as_card).effect.params.get("absorbs", ())
        return isinstance(absorbs, tuple) and "light-sword" in absorbs and strike.level <= level
    return strike.level <= level


@dataclasses.dataclass(frozen=True)
class MirrorBlockQuestion(SeatDecision):
    """KMC 3.1.3 (facing mirrors): fighter ``fighter`` may block a planet mirror's escape, only with
    a planet-card mirror of a higher level."""

    KIND: ClassVar[str] = "cb_mirror_block"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        strike = fight_of(s).strike
        top = strike.mirror if strike is not None else 7
        return [Nop(self.seat)] + [UseItem(self.seat, "lafnor-mirror", -1, h, c)
                                   for h, c in kept.usable(g, s, self.seat, knowledge, "lafnor-mirror")
                                   if kept.level_of(g, c) > top]

    @answers(UseItem)
    def blocks(self, g: Rules, s: LockeState, action: UseItem) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        if action.item != "lafnor-mirror" or action.card < 0 or action.target != -1:
            raise IllegalAction("block a planet mirror's escape only with a kept Lafnor mirror card",
                                rule="locke.10.7.2")
        kept.check_held(g, s, self.seat, action.card, action.as_card, ("lafnor-mirror",))
        if kept.level_of(g, action.as_card) <= strike.mirror:
            raise IllegalAction(f"only a mirror above level {strike.mirror} blocks this one", rule="locke.10.7.2")
        s = kept.claim(s, self.seat, action.card, action.as_card)
        s = with_strike(s, strike._replace(blockers=strike.blockers + (self.fighter,)))
        s = log(s, "cb-block", fight_of(s).fighters[strike.escaper].seat, strike.mirror,
                kept.level_of(g, action.as_card), [self.seat])
        rest = tuple(x for x in s.queue[1:] if not isinstance(x, MirrorBlockQuestion))  # one block is enough
        s = s._replace(queue=(s.queue[0],) + rest)
        return advance(s, *kept.reveal(self.seat, action.card, action.as_card), kept.spend_step(self.seat, action.card))

    @answers(Nop)
    def passes(self, g: Rules, s: LockeState, action: Nop) -> LockeState:
        return advance(s)


def normal_escape(item: str, card: int) -> bool:
    """Is this escape on one's own turn the turn's normal action (KMC 10.4.1)? The Lafnor mirror
    (the character's or a kept card's) and a kept subspace field are; Dr. Wong's own subspace
    field is a special action instead, the irregular escape (KMC 2.3.1, 10.4.2 note 3; N236)."""
    return item in ESCAPES and (card >= 0 or item == "lafnor-mirror")


def _own_escape(g: Rules, s: LockeState, seat: int, me: int, action: UseItem) -> LockeState:
    """An escape on one's own turn, with no attack in flight. As the normal action (N214, N236):
    a kept subspace field rolls as in answer to an attack, a kept mirror escapes at its level unless
    a higher planet mirror blocks it, the character's mirror rolls its 1d6. As a special action,
    once a round (N236): Dr. Wong's subspace field rolls its 2d6, before or after his normal action
    and special attacks. Whatever is left of the turn comes back if the seat is still there."""
    fight = fight_of(s)
    f = fight.fighters[me]
    if f.nike_on or action.target != -1:
        raise IllegalAction("escape with a subspace field or a mirror (no target; not while using Nike)",
                            rule="locke.10.4.1")
    if action.card >= 0:
        kept.check_held(g, s, seat, action.card, action.as_card, (PLANET_ESCAPES[action.item],))
        s = kept.claim(s, seat, action.card, action.as_card)
    elif normal_escape(action.item, action.card):
        s = _claim(s, seat, action.item)
    elif action.item in f.specials:
        raise IllegalAction("the irregular escape is a special action, used once a round", rule="locke.10.4.2")
    else:
        s = _claim(s, seat, action.item)
    if normal_escape(action.item, action.card):
        f = f._replace(acted=True)
    else:
        f = f._replace(specials=f.specials + (action.item,))
    planet = ("planet",) if action.card >= 0 else ()
    s = log(put(s, with_fighter(fight_of(s), me, f)), "cb-item", seat, action.item, -1, *planet)
    rest = turn_on(seat, me)
    if action.card < 0:  # the character's own: its dice, and nobody can block it (KMC 2.3.1)
        return advance(s, ItemRoll(seat, me, action.item), rest)
    if action.item == "subspace-field":
        return advance(s, ItemRoll(seat, me, "subspace-field", -1, action.card, action.as_card), rest)
    level = kept.level_of(g, action.as_card)
    s = with_strike(s, Strike(me, -1, "", 0, 0, escaper=me, escape_level=level, escape_tried=True, mirror=level))
    return advance(s, *_mirror_steps(s, seat, me, action.card, action.as_card), rest)


def _mirror_steps(s: LockeState, seat: int, me: int, handle: int, as_card: str) -> tuple[LockeStep, ...]:
    """The mirror is shown and spent; every other player still in may block it; then the end."""
    fight = fight_of(s)
    asks = tuple(MirrorBlockQuestion(f.seat, j) for j in fight.order or range(len(fight.fighters))
                 for f in (fight.fighters[j],) if j != me and player(f) and alert(fight, j))
    return kept.reveal(seat, handle, as_card) + (kept.spend_step(seat, handle),) + asks + (MirrorEnd(me),)


@dataclasses.dataclass(frozen=True)
class MirrorEnd(Automatic):
    """Blocked or not fighter ``fighter``'s mirror defends (the attack is gone); unblocked, its
    user escapes."""

    KIND: ClassVar[str] = "cb_mirror_end"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        s = with_strike(s, None)
        if strike.target >= 0:
            s = log(s, "cb-defend", fight_of(s).fighters[self.fighter].seat, "lafnor-mirror")
        if strike.blockers:
            return advance(s)
        return advance(s, g.attack.FleeRoll(fight_of(s).fighters[self.fighter].seat, self.fighter))


@dataclasses.dataclass(frozen=True)
class ItemRoll(Waiting):
    """The roll of fighter ``fighter``'s ``item`` (:data:`DICE`): a geoid bomb at ``target``, an
    escape or the psycho-pod (target -1). ``handle``: the kept planet card it is (-1: the
    character's, or an obstacle's when ``seat`` is -1), used as ``as_card``; its own numbers
    decide then (seed 000 3.1.3). The user's own dice: it may re-roll them (N208)."""

    KIND: ClassVar[str] = "cb_item_roll"
    REROLL: ClassVar[bool] = True
    seat: int
    fighter: int
    item: str
    target: int = -1
    handle: int = -1
    as_card: str = ""

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance(f"locke.combat.{self.item}", DICE[self.item])

    def roller(self, s: LockeState) -> int:
        return self.seat

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        if self.handle >= 0:  # the planet card's own numbers (seed 000 3.1.3)
            best, faint = kept.effect(g, self.as_card, "success_max"), kept.effect(g, self.as_card, "faint_min", 99)
        else:
            best, faint = _limits(g, self.item)
        total = sum(action.faces)
        ok = total <= best
        s = log(s, "cb-item-roll", self.seat, self.item, total, ok)
        return _item_result(g, s, self.seat, self.fighter, self.item, self.target, ok, total >= faint, self.handle,
                            self.as_card)


def _item_result(g: Rules, s: LockeState, seat: int, me: int, item: str, target: int, ok: bool, out: bool,
                 handle: int = -1, as_card: str = "") -> LockeState:
    """A rolled item worked (``ok``), knocked its user out (``out``), or neither; replaces the
    queue's head (the roll, or the statement of a geoid bomb announced as a ship, N226)."""
    planet = handle >= 0
    fight = fight_of(s)
    after: tuple[LockeStep, ...] = ()
    if planet and (ok or out):  # it acted: shown and discarded (seed 000 3.1.3)
        after = kept.reveal(seat, handle, as_card) + (kept.spend_step(seat, handle),)
    if out:  # knocked out by an unexplained high frequency (KMC 2.3.1): a target still
        f = fight.fighters[me]
        f = f._replace(fainted=True, acted=True, wake=fight.round + 1)  # the rest of the round (KMC 2.3.1, N162)
        s = log(put(s, with_fighter(fight, me, f)), "cb-fainted", seat, item)  # its turn is over (N162)
    if not ok:
        return advance(s, *after)
    if item == "geoid-bomb":
        if not active(fight_of(s), target):
            return advance(s, *after)
        level = kept.effect(g, as_card, "level") if planet else constant(g, item, "level")
        attack = kept.effect(g, as_card, "attack") if planet else constant(g, item, "attack")
        s = mark_attacked(with_strike(s, Strike(me, target, "", level, attack)))
        return advance(s, *after, g.attack.AttackStands())
    if item == "psycho-pod":
        return advance(log(with_strike(s, None), "cb-defend", seat, item))
    # an escape: the mirror cannot be blocked (KMC 2.3.1); the subspace field is treated alike
    return advance(with_strike(s, None), *after, g.attack.FleeRoll(seat, me))


# --- the energy absorb ball (seed 000 3.1.3) ------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class BallAbsorbs(Automatic):
    """Fighter ``fighter``'s ball takes the attack; the attacker makes an ESP level check, and a
    failure knocks it out for 1d6 rounds, this one included."""

    KIND: ClassVar[str] = "cb_ball"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        assert strike is not None
        owner = fight.fighters[self.fighter]
        attacker = fight.fighters[strike.attacker]
        s = log(with_strike(s, None), "cb-ball-absorbs", owner.seat, strike.level)
        if attacker.seat >= 0 and not attacker.thought:
            return advance(fate.check(g, s, attacker.seat, stat=fate.CheckStat.LEVEL,
                                      then=AfterBallCheck(strike.attacker)))
        if attacker.ob is not None:
            return advance(s, BallCheckObstacle(strike.attacker))
        return advance(s)



@dataclasses.dataclass(frozen=True)
class AfterBallCheck(Then):
    """The absorb ball's attacker failing its level check faints (``attacker``: its fighter)."""

    KIND: ClassVar[str] = "combat.ball"
    attacker: int

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success or s.combat is None:
            return advance(s)
        return advance(s, BallKnockOut(self.attacker))


@dataclasses.dataclass(frozen=True)
class BallCheckObstacle(Waiting):
    """Obstacle ``fighter``'s ESP level check against a ball is public: 2d6 at or below its level
    passes."""

    KIND: ClassVar[str] = "cb_ball_ob"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.check.level", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        ob = fight_of(s).fighters[self.fighter].ob
        assert ob is not None
        if sum(action.faces) <= ob.level:
            return advance(s)
        return advance(s, BallKnockOut(self.fighter))


@dataclasses.dataclass(frozen=True)
class BallKnockOut(Waiting):
    """The ball knocks fighter ``fighter`` out for 1d6 rounds, this one included (seed 000 3.1.3)."""

    KIND: ClassVar[str] = "cb_ball_faint"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.absorb-ball", (6,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        f = f._replace(fainted=True, acted=True, wake=fight.round + action.faces[0], ball_out=True)
        who = f.seat if f.seat >= 0 else (f.ob.id if f.ob is not None else "")
        s = put(s, with_fighter(fight, self.fighter, f))
        return advance(log(s, "cb-fainted", who, "absorb-ball", action.faces[0]))


@dataclasses.dataclass(frozen=True)
class BallBreaks(Automatic):
    """A stronger attack breaks fighter ``fighter``'s ball (spent) and goes on to the suit or the body."""

    KIND: ClassVar[str] = "cb_ball_break"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        s = put(s, with_fighter(fight, self.fighter, f._replace(ball=0, ball_card=-1)))
        s = log(s, "cb-ball-broken", f.seat, f.ball)
        return advance(s, kept.spend_step(f.seat, f.ball_card), g.attack.Hit())


def is_nike_attack(fight: Fight, strike: Strike) -> bool:
    """Nike's attack goes straight to its target's Nike, suit or body (KMC 10.7)."""
    return strike.card == "" and strike.level == 0 and fight.fighters[strike.attacker].nike_on


# --- the slum and the ESP controller, on one's own turn (seed 000 3.2.4, 3.1.3) ----------------------


def _turn_card(g: Rules, s: LockeState, seat: int, me: int, action: UseItem) -> LockeState:
    fight = fight_of(s)
    f = fight.fighters[me]
    kept.check_held(g, s, seat, action.card, action.as_card, (action.item,))
    if action.item == "slum":
        swap = action.cards
        size = kept.effect(g, action.as_card, "count", 3)
        if action.target != -1 or len(swap) != size or len(set(swap)) != size or any(h not in f.hand for h in swap):
            raise IllegalAction(f"name {size} different combat cards of your hand to swap", rule="locke.s000.3.2.4")
        if len(zone_of(s, DECK)) < size:
            raise IllegalAction("the combat deck has too few cards left to swap", rule="locke.s000.3.2.4")
        s = kept.claim(s, seat, action.card, action.as_card)
        f = f._replace(hand=tuple(h for h in f.hand if h not in swap))
        s = put(s, with_fighter(fight, me, f)._replace(used=fight.used + swap))
        s = log(s, "cb-item", seat, "slum", -1, "planet")
        return advance(s, *kept.reveal(seat, action.card, action.as_card), kept.spend_step(seat, action.card),
                       DealCards(seat, me, size), turn_on(seat, me))
    victims = tuple(j for j in targets(s, fight, me) if player(fight.fighters[j]) and fight.fighters[j].ctl_by < 0)
    if action.target not in victims or action.cards:
        raise IllegalAction(f"name one player among fighters {list(victims)} for the ESP controller",
                            rule="locke.s000.3.1.3")
    s = kept.claim(s, seat, action.card, action.as_card)
    s = log(s, "cb-item", seat, "esp-controller", action.target, "planet")
    return advance(s, *kept.reveal(seat, action.card, action.as_card),
                   ControllerCheck(seat, action.target, action.card), turn_on(seat, me))


@dataclasses.dataclass(frozen=True)
class ControllerCheck(Automatic):
    """Fighter ``fighter``, named by ``seat``'s ESP controller (kept card ``handle``), makes a mind
    check (the ESP controller check)."""

    KIND: ClassVar[str] = "cb_ctl"
    seat: int
    fighter: int
    handle: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        victim = fight_of(s).fighters[self.fighter]
        then = AfterControllerCardCheck(self.fighter, self.seat, self.handle)
        return advance(fate.check(g, s, victim.seat, stat=fate.CheckStat.MIND, then=then))


@dataclasses.dataclass(frozen=True)
class AfterControllerCardCheck(Then):
    """A failed check puts the player (fighter ``index``) under the ``controller`` for this
    combat (engine/locke/control.py); ``handle`` is the controller's ESP controller card."""

    KIND: ClassVar[str] = "combat.controller"
    index: int
    controller: int
    handle: int

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        index, controller, handle = self.index, self.controller, self.handle
        if s.combat is None or success:
            s = log(s, "cb-controller-resisted", seat, controller)
            return advance(s, kept.spend_step(controller, handle))
        fight = fight_of(s)
        f = fight.fighters[index]._replace(ctl_by=controller, ctl_card=handle)
        return advance(log(put(s, with_fighter(fight, index, f)), "controlled", seat, controller, "esp-controller"))


@dataclasses.dataclass(frozen=True)
class ControllerRelease(Waiting):
    """Seed 000 3.1.3: each of its turns the controlled fighter ``fighter`` rolls 1d6; a 1 frees it."""

    KIND: ClassVar[str] = "cb_ctl_free"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.controller-release", (6,))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        if action.faces[0] != 1:
            return advance(s)
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        s = put(s, with_fighter(fight, self.fighter, f._replace(ctl_by=-1, ctl_card=-1)))
        s = log(s, "control-released", f.seat)
        return advance(s, kept.spend_step(f.ctl_by, f.ctl_card))


def industrial(g: Rules, s: LockeState, seat: int, action: Play) -> tuple[LockeStep, ...]:
    """Check a contact telepathy with a kept industrial district (seed 000 3.2.4): its level
    check is made at the card's level whatever the character's; the card is shown and spent."""
    kept.check_held(g, s, seat, action.planet, "industrial", ("industrial",))
    level = kept.effect(g, "industrial", "level", 6)
    if action.use != "telepathy" or action.level != level:
        raise IllegalAction(f"the industrial district goes with contact telepathy, checked at level {level}",
                            rule="locke.s000.3.2.4")
    return kept.reveal(seat, action.planet, "industrial") + (kept.spend_step(seat, action.planet),)


def claim_industrial(s: LockeState, seat: int, action: Play) -> LockeState:
    return log(kept.claim(s, seat, action.planet, "industrial"), "cb-item", seat, "industrial", action.target, "planet")


def turn_steps(fight: Fight, index: int) -> tuple[LockeStep, ...]:
    """What comes before a fighter's turn: the controlled player's release roll (KMC 10.4)."""
    f = fight.fighters[index]
    return (ControllerRelease(index),) if f.ctl_by >= 0 else ()


def turn_on(seat: int, index: int) -> LockeStep:
    """The rest of a seat's turn, queued after each thing it did in it (KMC 10.4: the normal action
    and the special actions in any order, N235): the same decision comes back, unless the seat
    can no longer act."""
    return TurnGoesOn(seat, index)


@dataclasses.dataclass(frozen=True)
class TurnGoesOn(Automatic):
    """Fighter ``fighter``'s turn decision comes back once what the seat did has resolved (the
    resonance forest's self-damage of its card first, N187), while the seat is still in, awake and
    not knocked out (KMC 2.3.1, N162) and has someone to attack; otherwise its turn is over."""

    KIND: ClassVar[str] = "cb_turn_on"
    seat: int
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        if s.combat is None:
            return advance(s)
        s, forest = g.attack.forest_steps(s)
        if forest:
            return s._replace(queue=forest + s.queue)
        fight = fight_of(s)
        if not alert(fight, self.fighter) or not targets(s, fight, self.fighter):
            return advance(s)
        return advance(s, g.attack.TurnAction(self.seat, self.fighter))


def wake_up(fight: Fight, round_no: int) -> Fight:
    """Knocked-out fighters whose time is over wake as ``round_no`` begins (the absorb ball's
    1d6 rounds; the rest of a round for the geoid bomb, the subspace field and Nike, N162); a
    persuaded E-buster (``wake`` 0, N189) never wakes in this combat."""
    fighters = tuple(f._replace(fainted=False, wake=0, ball_out=False) if f.fainted and f.wake and round_no >= f.wake
                     else f for f in fight.fighters)
    return fight._replace(fighters=fighters)


def end_of_combat(s: LockeState) -> LockeState:
    """The combat's single-use cards still in play are used up: absorb balls and ESP
    controllers go back under the planet stock (seed 000 3.1.3)."""
    fight = fight_of(s)
    for f in fight.fighters:
        for seat, handle in ((f.seat, f.ball_card), (f.ctl_by, f.ctl_card)):
            if seat >= 0 and handle in s.seats[seat].shown:
                s = pc.spend(s, seat, handle)
    return s


# --- suits (KMC 2.3.2) -------------------------------------------------------------------------------


def suit_steps(s: LockeState, target: int) -> tuple[LockeStep, ...]:
    """The steps a hit on a suited fighter ``target`` takes instead of the body ((): no suit in the way)."""
    fight = fight_of(s)
    strike = fight.strike
    f = fight.fighters[target]
    if strike is None:
        return ()
    if f.ball and not is_nike_attack(fight, strike):  # seed 000 3.1.3: the ball stays up
        return (BallAbsorbs(target) if _ball_takes(f.ball, strike) else BallBreaks(target),)
    if f.nike_on and f.nike_left > 0:
        return (SuitDamageRoll(target, nike=True),)
    if not f.suit or strike.reflected:
        return ()
    if f.suit == SUIT:  # N225: the kind matters from here on, so its wearer says it first
        return (SuitKindQuestion(f.seat, target),)
    nike = is_nike_attack(fight, strike)
    if f.suit == "energy-suit" and nike:  # KMC 2.3.2: Nike hits the suit with no check; seed 000
        return () if f.suit_card >= 0 else (SuitDamageRoll(target),)  # 3.1.2: not the card's
    if f.suit == "energy-suit":
        declared = reflect_level(fight, strike) is None
        return (ReflectionCheck(target) if declared else ReflectionRoll(target),)
    if f.suit == "powered-suit" and nike:  # KMC 2.3.2: Nike's attack is not absorbed, the body takes it
        return ()
    if f.suit == "powered-suit" and f.seat < 0:  # a random character's, of public level (N245)
        return (ObstacleAbsorb(target),)
    if f.suit == "powered-suit":  # the character's or the face-down card's: its owner answers
        return (AbsorbQuestion(f.seat, target),)
    return (SuitDamageRoll(target),)


@dataclasses.dataclass(frozen=True)
class SuitKindQuestion(SeatDecision):
    """KMC 2.3.2, seed 000 3.1.2 (N225): the first attack to reach fighter ``fighter``'s suit
    declared without its kind; its wearer says the kind, a claim about the character card (it
    carries that suit) or the kept card (it is a suit card of that kind, or a wildcard, fixed to
    the kind from now on), judged when that card opens. The suit then takes the hit as that kind
    does."""

    KIND: ClassVar[str] = "cb_suit_kind"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        """The true kind of the suit (the character's, or the kept card's; a wildcard may still be
        either unless a use has fixed it). Without knowledge: every kind."""
        me = as_now(s, self.seat, me)
        f = fight_of(s).fighters[self.fighter]
        if f.suit_card < 0:
            kinds = [kind for kind in SUITS if me is None or me.items_of(kind)]
        else:
            fixed = dict(s.wild).get(f.suit_card, "")
            card = knowledge.card(f.suit_card) if knowledge is not None else None
            kinds = ([fixed] if fixed in CARD_SUITS else [pc.kind_of(card)] if card and pc.kind_of(card) in CARD_SUITS
                     else [])
        return [SuitKind(self.seat, kind) for kind in kinds or (SUITS if f.suit_card < 0 else CARD_SUITS)]

    @answers(SuitKind)
    def said(self, g: Rules, s: LockeState, action: SuitKind) -> LockeState:
        fight = fight_of(s)
        f = fight.fighters[self.fighter]
        kinds = SUITS if f.suit_card < 0 else CARD_SUITS
        if action.suit not in kinds:
            raise IllegalAction(f"say which suit it is: one of {', '.join(kinds)}", rule="locke.2.3.2")
        if f.suit_card < 0:
            s = _claim(s, self.seat, action.suit)
            f = f._replace(suit=action.suit, suit_left=constant(g, action.suit, "durability"))
        else:
            s = kept.claim(s, self.seat, f.suit_card, action.suit)
            wild = tuple((h, action.suit if h == f.suit_card and was == SUIT else was) for h, was in s.wild)
            f = f._replace(suit=action.suit)
            s = s._replace(wild=wild)
        s = put(s, with_fighter(fight_of(s), self.fighter, f))
        s = log(s, "cb-suit-kind", self.seat, action.suit, *(("planet",) if f.suit_card >= 0 else ()))
        return advance(s, *suit_steps(s, self.fighter))


def reflect_level(fight: Fight, strike: Strike) -> int | None:
    """The level an E-suit's reflection check is made at (KMC 11.2 (1)): the ESP level of what
    attacked. A seat attacking with its own ESP (a combat card) declares it (None here); an esper
    or random character's is its public level; a ship, weapon or item attack's is its own level."""
    attacker = fight.fighters[strike.attacker]
    if attacker.seat >= 0 and strike.card and not attacker.thought:
        return None
    if attacker.ob is not None and attacker.ob.cards:
        return int(attacker.ob.level)
    return int(strike.level)


def _ball_takes(level: int, strike: Strike) -> bool:
    if strike.light_sword:
        return level >= 5 and strike.level <= level and level == 5  # only the level-5 ball, seed 000 3.1.3
    return strike.level <= level


@dataclasses.dataclass(frozen=True)
class ReflectionRoll(Waiting):
    """Fighter ``fighter``'s E-suit against a public level (:func:`reflect_level`): 2d6 at or below
    it passes."""

    KIND: ClassVar[str] = "cb_reflect"
    fighter: int

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.reflection", (6, 6))

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        level = reflect_level(fight_of(s), strike)
        assert level is not None
        return _reflection(g, s, self.fighter, sum(action.faces) <= level)


@dataclasses.dataclass(frozen=True)
class ReflectionCheck(Automatic):
    """Fighter ``fighter``'s E-suit against a seat's own ESP: the attacker declares its level and
    checks it (KMC 11.2 (1), a claim as every level check; ruling N163)."""

    KIND: ClassVar[str] = "cb_reflect_check"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        assert strike is not None
        seat = fight.fighters[strike.attacker].seat
        return advance(fate.check(g, s, seat, stat=fate.CheckStat.LEVEL, then=AfterReflectCheck(self.fighter)))


@dataclasses.dataclass(frozen=True)
class AfterReflectCheck(Then):
    """The E-suit's level check decides the reflection onto fighter ``target``'s suit or back."""

    KIND: ClassVar[str] = "combat.reflect"
    target: int

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if s.combat is None or fight_of(s).strike is None:
            return advance(s)
        return _reflection(g, s, self.target, success)


def _reflection(g: Rules, s: LockeState, target: int, passed: bool) -> LockeState:
    """KMC 2.3.2 E-suit: a passed check hits the suit (the planet card's breaks at once and the
    body is hit, seed 000 3.1.2); a failed one throws the attack back at the attacker. Replaces
    the queue's head (the roll, or the check's end)."""
    strike = fight_of(s).strike
    assert strike is not None
    f = fight_of(s).fighters[target]
    if passed and f.suit_card >= 0:
        s = put(s, with_fighter(fight_of(s), target, f._replace(suit="", suit_card=-1)))
        s = log(log(s, "cb-reflect", f.seat, False), "cb-suit-broken", f.seat, strike.level)
        return advance(s, *kept.broken_steps(f.seat, f.suit_card, "energy-suit"), g.attack.DurabilityQuestion(f.seat),
                       g.attack.DamageRoll())
    if passed:
        return advance(log(s, "cb-reflect", f.seat, False), SuitDamageRoll(target))
    back = strike._replace(attacker=strike.target, target=strike.attacker, reflected=True)
    return advance(log(with_strike(s, back), "cb-reflect", f.seat, True), g.attack.Hit())


@dataclasses.dataclass(frozen=True)
class SuitDamageRoll(Waiting):
    """Fighter ``fighter``'s suit (or its Nike, ``nike``) takes the damage check on its own
    durability; at 0 it is broken (N5: doubles still call the wearer's transformation check). The
    attacker rolls (KMC 10.7.4 (3)), and may re-roll its own dice (N208)."""

    KIND: ClassVar[str] = "cb_suit_damage"
    REROLL: ClassVar[bool] = True
    fighter: int
    nike: bool = False

    def pending(self, g: Rules, s: LockeState) -> Pending:
        strike = fight_of(s).strike
        assert strike is not None
        return Chance("locke.chart.damage", (6, 6) * strike.hits)

    def roller(self, s: LockeState) -> int:
        return damage_roller(s)

    @answers(DiceRolled)
    def rolled(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        assert strike is not None
        f = fight.fighters[self.fighter]
        nike = self.nike
        first = f.nike_left if nike else f.suit_left
        left, turned, cells = first, False, []
        for k in range(0, len(action.faces), 2):
            r = resolve_damage(action.faces[k:k + 2], attack=strike.firepower, durability=first)
            left = 0 if r.eliminated else left - r.damage
            turned = turned or r.transformation
            cells.append(r.cell)
        broken = -1
        if nike:
            broken = f.nike_card if left <= 0 else -1
            f = f._replace(nike_left=max(0, left), nike_on=f.nike_on and left > 0,
                           nike_card=-1 if left <= 0 else f.nike_card)
        else:
            f = f._replace(suit=f.suit if left > 0 else "", suit_left=max(0, left))
        s = put(s, with_fighter(fight, self.fighter, f))
        shown = kept.broken_steps(f.seat, broken, "nike") if broken >= 0 else ()  # seed 000 3.1.2: shown, returned
        who = f.seat if f.seat >= 0 else (f.ob.id if f.ob is not None else "")
        s = log(s, "cb-suit-hit", who, "nike" if nike else fight.fighters[self.fighter].suit, cells, first, max(0, left))
        if turned and f.seat >= 0:  # N5: the suit took the hit, the wearer still takes the transformation check
            s = fate.transformation_check(g, s, f.seat, FightTransformation())
        return advance(with_strike(s, None), *shown)


@dataclasses.dataclass(frozen=True)
class AbsorbQuestion(SeatDecision):
    """KMC 2.3.2 P-suit: fighter ``fighter``'s suit absorbs the attack (a claim that its level
    reaches the attack's) or is broken by it (a claim that it does not) and the body takes the hit."""

    KIND: ClassVar[str] = "cb_absorb"
    fighter: int

    def legal(self, g: Rules, s: LockeState, me: Character | None, knowledge: Knowledge | None) -> list[Action]:
        strike = fight_of(s).strike
        card = fight_of(s).fighters[self.fighter].suit_card
        suit = kept.levels(g, s, self.seat, card, knowledge, as_now(s, self.seat, me), "powered-suit")
        if strike is None:
            return [Absorb(self.seat, True), Absorb(self.seat, False)]
        return [Absorb(self.seat, absorb) for absorb in (True, False)
                if kept.may_fit(suit, lambda top: (top >= strike.level) == absorb)]

    @answers(Absorb)
    def answer(self, g: Rules, s: LockeState, action: Absorb) -> LockeState:
        strike = fight_of(s).strike
        assert strike is not None
        f = fight_of(s).fighters[self.fighter]
        about = (f.suit_card,) if f.suit_card >= 0 else (s.seats[self.seat].character,)
        claim = ck.make(self.seat, s.step_no, cc.PSUIT, about, [strike.level, action.absorb], "locke.2.3.2")
        s = s._replace(**claimed(s, claim))
        if action.absorb:
            return advance(log(with_strike(s, None), "cb-suit-absorbs", self.seat, strike.level))
        s = put(s, with_fighter(fight_of(s), self.fighter, f._replace(suit="", suit_card=-1)))
        s = log(s, "cb-suit-broken", self.seat, strike.level)
        shown = kept.broken_steps(self.seat, f.suit_card, "powered-suit") if f.suit_card >= 0 else ()  # seed 000 3.1.2
        return advance(s, *shown, g.attack.DurabilityQuestion(self.seat), g.attack.DamageRoll())


@dataclasses.dataclass(frozen=True)
class ObstacleAbsorb(Automatic):
    """The P-suit of obstacle ``fighter``, of public level: absorbs an attack at or below it,
    else it breaks and the character takes the hit (KMC 2.3.2)."""

    KIND: ClassVar[str] = "cb_ob_absorb"
    fighter: int

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        strike = fight.strike
        f = fight.fighters[self.fighter]
        assert strike is not None and f.ob is not None
        if strike.level <= number(f.ob, "powered-suit"):
            return advance(log(with_strike(s, None), "cb-suit-absorbs", f.ob.id, strike.level))
        s = put(s, with_fighter(fight, self.fighter, f._replace(suit="")))
        return advance(log(s, "cb-suit-broken", f.ob.id, strike.level), g.attack.DamageRoll())


#: the items' step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (
    EquipDeclaration, HandTrim, JammerQuestion, NikeCheck, ThoughtSync, ShipRoll, ShipEffectQuestion,
    BeamCannonFirepower, MirrorBlockQuestion, MirrorEnd, ItemRoll, BallAbsorbs, BallCheckObstacle, BallKnockOut,
    BallBreaks, ControllerCheck, ControllerRelease, TurnGoesOn, SuitKindQuestion, ReflectionRoll, ReflectionCheck,
    SuitDamageRoll, AbsorbQuestion, ObstacleAbsorb,
)

"""Items of the character cards in combat (KMC 2.3, 10.3.2, 10.4.2, 10.7).

Each use is a claim that the character card carries the item (the card is
secret until the end); the numbers are the card's own (assets/locke/characters.json):

- declared before the first initiative (``cb_equip``): henchmen (one more
  card each, syncs at level 2 or less), a suit (E-suit: the attacker's
  reflection check, durability 5; H-suit: durability 8; P-suit: absorbs
  attacks up to its hidden level, a claim each time, broken above it) and
  an ESP field (cards up to its hidden level cost no power, a claim);
- special attacks on one's own turn, each once a round besides the normal
  action: the ship (ship-support chart: bombs, a beam cannon, nothing, or
  a misfire on oneself), E-Strohheim's beam cannon (firepower chart), Dr.
  Wong's geoid bomb (2d6: 6 or less fires level 7 / 100, 10 or more knocks
  him out);
- answers to an attack: the Lafnor mirror (1d6 of 4 or less: an
  unblockable level-7 escape), the subspace field (2d6 of 9 or less: a
  level-7 escape, 10 or more knocks out), Nagato's psycho-pod (1d6 of 4 or
  less stops an attack up to level 6, never a light sword).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from engine.core.errors import IllegalAction
from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke.state import seat_decision
from engine.locke import charts, fate
from engine.locke import claims as ck
from engine.locke import planet_cards as pc
from engine.locke.chart_data import FIREPOWER
from engine.locke.combat import claims as cc
from engine.locke.combat import breakage, kept
from engine.locke.combat.actions import Absorb, Equip, JamVeto, ShipEffect, SuitKind, Trim, UseItem
from engine.locke.combat.common import (
    RESIDUAL,
    active,
    alert,
    fight_of,
    mark_attacked,
    player,
    put,
    seat_index,
    targets,
    with_fighter,
    with_strike,
)
from engine.locke.combat.model import CARD_SUITS, DECK, HAND_SIZE, SUIT, SUITS, Fight
from engine.locke.combat.model import Strike
from engine.locke.actions import Nop
from engine.locke.damage import resolve_damage
from engine.locke.state import LockeState, Step, advance, claimed, log, zone_of
from engine.locke.steps import LockeStep, Rules, Then

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


def constant(g: Any, item: str, key: str, default: int = 0) -> int:
    """A fixed number of an item (assets/locke/characters.json), so no rule number lives twice."""
    value = g.components.catalogue.items[item].constants.get(key, default)
    return value if isinstance(value, int) else default


def _limits(g: Any, item: str) -> tuple[int, int]:
    """(success at or below, knocked out at or above) of a rolled item."""
    best = constant(g, item, "die_success_max", constant(g, item, "success_max"))
    return best, constant(g, item, "faint_min", 99)
MAX_HENCHMEN = 9



def _claim(s: LockeState, seat: int, item: str, count: int = 1) -> LockeState:
    claim = ck.make(seat, s.step_no, cc.ITEM, (s.seats[seat].character,), [item, count], "locke.2.3")
    return s._replace(**claimed(s, claim))


# --- declarations before the first initiative (KMC 10.3.2) -------------------------------------


def _on_equip(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Equip)
    if not 0 <= action.henchmen <= MAX_HENCHMEN or (action.suit and action.suit not in SUITS + (SUIT,)):
        raise IllegalAction(f"declare 0..{MAX_HENCHMEN} henchmen and a suit among {sorted(SUITS)}, or just "
                            f"{SUIT!r} (or none)", rule="locke.10.3.2")
    cards = _equip_cards(g, s, step.seat, action)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    if f.reequip:
        _check_reequip(fight, step.n, action)
    if action.henchmen:
        s = _claim(s, step.seat, "henchman", action.henchmen)
    if action.suit:
        s = _claim(s, step.seat, action.suit)
    if action.field:
        s = _claim(s, step.seat, "esp-field")
    if action.nike and not 2 <= action.nike <= 12:
        raise IllegalAction("declare Nike's check value 2..12 (or 0: no Nike)", rule="locke.2.3.2")
    suited = bool(action.suit) or any(kind in cards for kind in CARD_SUITS + (SUIT,))
    if (action.nike or "nike" in cards) and suited:
        raise IllegalAction("a suit cannot be worn with Nike", rule="locke.2.3.2")
    if "nike" in cards and not action.nike:
        raise IllegalAction("declare the value of Nike's check (your mind) with the Nike card", rule="locke.s000.3.1.2")
    victims = targets(s, fight, step.n)
    if action.jammer != -1 and action.jammer not in victims:
        raise IllegalAction(f"put the jammer on one of fighters {list(victims)}", rule="locke.10.10")
    if "esp-jammer" in cards and action.jammer == -1:
        raise IllegalAction("say which fighter the jammer card goes on", rule="locke.10.10")
    if action.jammer != -1 and "esp-jammer" not in cards:
        s = _claim(s, step.seat, "esp-jammer")
    if action.nike and "nike" not in cards:
        s = _claim(s, step.seat, "nike")
        claim = ck.make(step.seat, s.step_no, cc.NIKE, (s.seats[step.seat].character,), action.nike, "locke.2.3.2")
        s = s._replace(**claimed(s, claim))
    if "nike" in cards:  # seed 000 3.1.2: the planet Nike is checked against the mind
        s = s._replace(**claimed(s, fate.stat_claim(s, step.seat, "mind", "le", action.nike, "locke.s000.3.1.2")))
    extra = sum(1 for kind in cards.values() if kind == "henchman")
    f = f._replace(henchmen=f.henchmen + action.henchmen + extra, own_henchmen=f.own_henchmen + action.henchmen,
                   suit=action.suit or f.suit, field=action.field or f.field, reequip=False,
                   suit_left=constant(g, action.suit, "durability") if action.suit in SUITS else f.suit_left,
                   nike_left=constant(g, "nike", "durability") if action.nike else f.nike_left,
                   nike_check=action.nike or f.nike_check)
    jam_card = -1
    for h, as_card in zip(action.cards, action.kinds):
        kind = cards[as_card] if as_card in cards else pc.kind_of(as_card)
        s = kept.claim(s, step.seat, h, as_card)
        if as_card in kept.FACE_DOWN:  # face down: used as this kind from now on (3.1.5), logged as a use
            s = log(s._replace(wild=s.wild + (((h, as_card),) if h not in dict(s.wild) else ())),
                    "planet", as_card, step.seat, as_card)
        if kind in CARD_SUITS + (SUIT,):
            f = f._replace(suit=kind, suit_card=h, suit_left=0)
        elif kind == "esp-field":
            f = f._replace(field=True, field_card=h)
        elif kind == "nike":
            f = f._replace(nike_card=h)
        elif kind == "esp-jammer":
            jam_card = h
    fight = with_fighter(fight_of(s), step.n, f)
    if action.jammer != -1:  # one hidden-level jammer, the character's or a face-down card's (KMC 10.10)
        victim = fight.fighters[action.jammer]._replace(jam_owner=step.seat, jam_known=0, jam_card=jam_card)
        fight = with_fighter(fight, action.jammer, victim)
    s = put(s, fight)
    if action.henchmen or action.suit or action.field or action.jammer != -1 or action.nike or action.cards:
        own_jam = action.jammer if "esp-jammer" not in cards else -1  # the character's items, then the cards
        own_nike = action.nike if "nike" not in cards else 0
        s = log(s, "cb-equip", step.seat, action.henchmen, action.suit, action.field, own_jam, own_nike,
                list(action.kinds))
    reveals = tuple(x for h, as_card in zip(action.cards, action.kinds) if as_card not in kept.FACE_DOWN
                    for x in kept.reveal(step.seat, h, as_card))  # seed 000 3.1.2: those stay face down
    return advance(s, *reveals)


def worn(fight: Any, index: int) -> tuple[str, ...]:
    """The item kinds fighter ``index`` still uses from kept planet cards after a true self took
    its old card's away (N228): a new card's item may not double one of them."""
    f = fight.fighters[index]
    jam = any(v.jam_owner == f.seat for v in fight.fighters)
    return tuple(kind for kind, on in (("suit", bool(f.suit)), ("esp-field", f.field), ("esp-jammer", jam),
                                       ("nike", f.nike_left > 0)) if on)


def _check_reequip(fight: Any, index: int, action: Equip) -> None:
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
    return s._replace(queue=s.queue[:1] + (Step("cb_deal", seat, n=dealt, arg=str(index)),) + s.queue[1:])


def new_character(s: LockeState, seat: int) -> LockeState:
    """KMC 11.4 (N228): a true self inside a combat. The new card starts afresh: the ESP power
    spent is no longer counted, the old card's items are gone (its henchmen, suit, field, jammer
    and Nike; those of kept planet cards stay, they are the seat's), and the new card declares
    its own before the next initiative (``reequip``). A hand left larger than it may be now is
    trimmed at once (``cb_trim``, right after the step being handled, fate.py's convention)."""
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
        s = s._replace(queue=s.queue[:1] + (Step("cb_trim", seat, n=index, arg=str(excess)),) + s.queue[1:])
    return s


def reequip_steps(fight: Any) -> tuple[Step, ...]:
    """The item declarations of new character cards (N228), as the next round begins."""
    return tuple(Step("cb_equip", f.seat, n=i) for i, f in enumerate(fight.fighters) if f.reequip and active(fight, i))


def _on_trim(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 11.4: the seat puts back the cards beyond its new hand size (face down, played pile)."""
    assert isinstance(action, Trim)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    count = int(step.arg)
    if len(action.handles) != count or len(set(action.handles)) != count or any(h not in f.hand for h in action.handles):
        raise IllegalAction(f"put back {count} different cards of your hand", rule="locke.11.4")
    f = f._replace(hand=tuple(h for h in f.hand if h not in action.handles))
    s = put(s, with_fighter(fight, step.n, f)._replace(used=fight.used + action.handles))
    return advance(log(s, "cb-trim", step.seat, count))


def _equip_cards(g: Any, s: LockeState, seat: int, action: Equip) -> dict[str, str]:
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


def _on_jam_veto(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """The jammer's owner stops the card (a claim that its jammer reaches the card's level: the
    play is taken back, card and power returned, and the player chooses again) or lets it work
    (a claim that the jammer is below it, KMC 10.10: the level stays hidden only until a card
    works). Either answer is recorded (breakage.learn), so neither level is asked again."""
    assert isinstance(action, JamVeto)
    fight = fight_of(s)
    level, drop, kind, n = step.arg.split("|")
    victim = fight.fighters[step.n]
    about = (victim.jam_card,) if victim.jam_card >= 0 else (s.seats[step.seat].character,)
    what = cc.JAMMER if action.veto else cc.JAM_PASS
    s = s._replace(**claimed(s, ck.make(step.seat, s.step_no, what, about, int(level), "locke.10.10")))
    owner = seat_index(fight_of(s), step.seat)
    if not action.veto or fight.before is None:
        fight = breakage.learn(fight, owner, "esp-jammer", victim.jam_card, int(level), False)
        return advance(put(s, fight._replace(before=None)))
    back = breakage.learn(fight.before, owner, "esp-jammer", victim.jam_card, int(level), True)
    s = log(put(s, back), "cb-jam-veto", step.seat, victim.seat, int(level))
    return s._replace(queue=(Step(kind, victim.seat, n=int(n)),) + s.queue[1 + int(drop):])


# --- Nike (KMC 2.3.2) --------------------------------------------------------------------------------


def _pending_nike(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.nike", (6, 6))


def _on_nike(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """The round's Nike check: at or below the declared value Nike is in use this round;
    11 or more knocks its user out."""
    assert isinstance(action, DiceRolled)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    total = sum(action.faces)
    faint = constant(g, "nike", "faint_min", 99)
    on = total <= f.nike_check and total < faint
    if total >= faint:  # KMC 2.3.2: out for this round only, it wakes as the next begins (N162)
        f = f._replace(fainted=True, wake=max(f.wake, fight.round + 1) if f.fainted else fight.round + 1)
    f = f._replace(nike_on=on)
    return advance(log(put(s, with_fighter(fight, step.n, f)), "cb-nike-check", f.seat, total, on))


def thought_syncs(s: LockeState, attacker: int) -> tuple[Step, ...]:
    """KMC 10.8.2: every other residual thought still in that has not attacked this round may
    add its firepower to a thought's attack, giving up its own attack this round (N185)."""
    fight = fight_of(s)
    return tuple(Step("cb_thought_sync", f.seat, n=j) for j in fight.order or range(len(fight.fighters))
                 if (f := fight.fighters[j]).thought and j != attacker and active(fight, j) and not f.acted
                 and not f.done)


def _on_thought_sync(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A thought's sync (``UseItem(seat, "residual-thought", -1)``): firepower added, no own attack."""
    assert isinstance(action, UseItem)
    if action.item != RESIDUAL or action.target != -1:
        raise IllegalAction("a residual thought syncs another's attack with its own firepower (no target)",
                            rule="locke.10.8.2")
    fight = fight_of(s)
    f = fight.fighters[step.n]
    strike = fight.strike
    assert strike is not None
    s = put(s, with_fighter(fight, step.n, f._replace(acted=True)))
    strike = strike._replace(firepower=strike.firepower + f.thought, syncers=strike.syncers + (step.n,),
                             sync_power=strike.sync_power + (f.thought,))
    return advance(log(with_strike(s, strike), "cb-sync", step.seat, RESIDUAL, strike.level, strike.firepower))


def _on_thought_pass(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Nop)
    return advance(s)


def _on_nike_attack(g: Any, s: LockeState, step: Step, me: int, target: int) -> LockeState:
    """Nike's attack (20) is the turn's normal action; nobody escapes or defends it."""
    fight = fight_of(s)
    s = put(s, with_fighter(fight, me, fight.fighters[me]._replace(acted=True)))
    s = mark_attacked(with_strike(s, Strike(me, target, "", 0, constant(g, "nike", "attack"), escape_tried=True)))
    planet = ("planet",) if fight.fighters[me].nike_card >= 0 else ()
    return advance(log(s, "cb-item", step.seat, "nike", target, *planet), Step("cb_hit", -1), turn_on(step.seat, me))


# --- special attacks (KMC 10.4.2) ----------------------------------------------------------------


def _on_special(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A special attack on one's own turn; the normal action is still to come."""
    assert isinstance(action, UseItem)
    fight = fight_of(s)
    me = step.n
    f = fight.fighters[me]
    if f.thought:  # KMC 10.6-10.7: a residual thought's attack goes to the body, unanswered
        options = targets(s, fight, me)
        if action.item != RESIDUAL or action.target not in options:
            raise IllegalAction(f"a residual thought can only attack one of fighters {list(options)}", rule="locke.10.6")
        s = put(s, with_fighter(fight, me, f._replace(acted=True)))
        s = with_strike(s, Strike(me, action.target, "", 0, f.thought, escape_tried=True, direct=True))
        return advance(log(s, "cb-item", step.seat, RESIDUAL, action.target), *thought_syncs(s, me),
                       Step("cb_hit", -1))
    if f.acted and (action.item == "nike" or normal_escape(action.item, action.card)):
        raise IllegalAction("your turn has no normal action left (you took it, or synced an attack this round): "
                            "Nike's attack and an escape by a mirror or a planet subspace field are normal actions",
                            rule="locke.10.4.1")
    if action.item == "nike":
        options = targets(s, fight, me)
        if not f.nike_on or action.target not in options:
            raise IllegalAction(f"attack with Nike (in use this round) one of fighters {list(options)}", rule="locke.2.3.2")
        return _on_nike_attack(g, s, step, me, action.target)
    if action.card >= 0 and action.item in TURN_CARDS:
        return _on_turn_card(g, s, step, action)
    if action.item in ESCAPES:
        return _on_own_escape(g, s, step, action)
    key = action.item if action.card < 0 else f"{action.item}:{action.card}"
    if action.item not in SPECIALS or key in f.specials:
        raise IllegalAction(f"a special attack ({', '.join(SPECIALS)}) is used once a round", rule="locke.10.4.2")
    options = targets(s, fight, me)
    if action.target not in options:
        raise IllegalAction(f"pick a target among fighters {list(options)}", rule="locke.10.6")
    reveal: tuple[Step | LockeStep, ...] = ()
    if action.card >= 0:  # seed 000 3.1.1 cruiser, 3.1.3 geoid bomb
        kept.check_held(g, s, step.seat, action.card, action.as_card, (PLANET_SPECIAL[action.item],))
        s = kept.claim(s, step.seat, action.card, action.as_card)
        if action.item == "ship":  # the cruiser: kept for the game, face up from its first use
            reveal = kept.reveal(step.seat, action.card, action.as_card)
    else:  # "ship" may be the beam cannon or the geoid bomb: its claim comes with its effect (N226)
        s = _claim(s, step.seat, action.item) if action.item != "ship" else s
        used = 1 + sum(1 for k in f.specials if k in SPECIALS)
        if used > 1:  # KMC 10.4.2: each special once a round, so a second one means a second kind
            s = _claim(s, step.seat, "specials", used)
    s = put(s, with_fighter(fight_of(s), me, f._replace(specials=f.specials + (key,))))
    s = log(s, "cb-item", step.seat, action.item, action.target, *(("planet",) if action.card >= 0 else ()))
    again = turn_on(step.seat, me)
    if action.item == "ship":
        said = ":said" if action.card < 0 else ""  # a character's "ship": its user says what it did (N226)
        return advance(s, *reveal, Step("cb_ship", step.seat, n=me, arg=f"{action.target}{said}"), again)
    if action.card >= 0:  # the planet geoid bomb stays hidden until it fires or knocks out
        return advance(s, Step("cb_item_roll", step.seat, n=me,
                               arg=f"geoid-bomb:{action.target}:{action.card}:{action.as_card}"), again)
    if action.item == "beam-cannon":
        s = mark_attacked(with_strike(s, Strike(me, action.target, "", 4, 0)))
        return advance(s, Step("cb_item_fp", -1, n=me), Step("cb_strike", -1, arg="ok"), again)
    return advance(s, Step("cb_item_roll", step.seat, n=me, arg=f"geoid-bomb:{action.target}"), again)


def _pending_ship(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.ship-support", (6, 6))


def _on_ship(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Ship-support chart (seed 002): bombs, a beam cannon, nothing, or a misfire on oneself. A
    character's "ship" may be its beam cannon or geoid bomb (KMC 10.4.2 notes 1-2), so its user
    then says what it does (N226); a cruiser card, face up, and a random character's public ship
    (N245) are ships: the chart applies."""
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("ship-support", action.faces)
    s = log(s, "cb-ship", step.seat, outcome.entry)
    target, _, said = step.arg.partition(":")
    if said:
        faces = ":".join(str(x) for x in action.faces)
        return advance(s, Step("cb_ship_effect", step.seat, n=step.n, arg=f"{target}:{faces}"))
    return _ship_support(s, step.n, int(target), outcome.entry)


def _ship_support(s: LockeState, me: int, target: int, entry: str) -> LockeState:
    """The ship-support chart's entry ``entry`` (seed 002) for fighter ``me`` against ``target``."""
    if entry == "no-support" or not active(fight_of(s), target):
        return advance(s)
    if entry == "misfire":  # its beam cannon at itself, straight to the hit
        s = mark_attacked(with_strike(s, Strike(me, me, "", 4, 0, machine=True, escape_tried=True)))
        return advance(s, Step("cb_item_fp", -1, n=me), Step("cb_hit", -1))
    attack = next(e for e in charts.chart("ship-support").entries if e.id == entry).attacks[0]
    s = mark_attacked(with_strike(s, Strike(me, target, "", int(attack.level or 0), int(attack.firepower or 0),
                                            machine=True)))
    fp = (Step("cb_item_fp", -1, n=me),) if attack.firepower is None else ()
    return advance(s, *fp, Step("cb_strike", -1, arg="ok"))


def _on_ship_effect(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 10.4.2 notes 1-2 (N226): what the special announced as "a ship" does at its roll, a
    claim about the character card (``claims.SHIP``). A chart entry (the beam cannon too: the
    table saw a ship) is the ship-support chart's; the geoid bomb fires or knocks its user out by
    its own numbers, as when it is named."""
    assert isinstance(action, ShipEffect)
    target, *faces = (int(x) for x in step.arg.split(":"))
    entry = charts.resolve("ship-support", tuple(faces)).entry
    total = sum(faces)
    if not any(action.effect in cc.ship_effects(g.components, item, total, entry) for item in SPECIALS):
        raise IllegalAction(f"at {total} a ship, beam cannon or geoid bomb does one of "
                            f"{sorted({e for i in SPECIALS for e in cc.ship_effects(g.components, i, total, entry)})}",
                            rule="locke.10.4.2")
    claim = ck.make(step.seat, s.step_no, cc.SHIP, (s.seats[step.seat].character,), [total, entry, action.effect],
                    "locke.10.4.2")
    s = log(s._replace(**claimed(s, claim)), "cb-ship-effect", step.seat, action.effect)
    if action.effect in ("geoid-bomb", "knocked-out"):
        return _item_result(g, s, step.seat, step.n, "geoid-bomb", str(target), action.effect == "geoid-bomb",
                            action.effect == "knocked-out")
    return _ship_support(s, step.n, target, action.effect)


def _pending_item_fp(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.weapon-firepower", (6,))


def _on_item_fp(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    strike = fight_of(s).strike
    assert strike is not None
    power = FIREPOWER["beam-cannon"][action.faces[0] - 1]
    return advance(log(with_strike(s, strike._replace(firepower=power)), "cb-firepower", "beam-cannon", [action.faces[0]], power))


# --- escapes and defences by item (KMC 10.7.2-3) --------------------------------------------------


def _on_answer(uses: tuple[str, ...]) -> Any:
    def handle(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
        assert isinstance(action, UseItem)
        strike = fight_of(s).strike
        assert strike is not None
        if fight_of(s).fighters[step.n].nike_on:
            raise IllegalAction("while you use Nike no item escapes or defends", rule="locke.2.3.2")
        if action.card >= 0:
            return _on_planet_answer(g, s, step, action, uses)
        if action.item not in uses or action.target != -1:
            raise IllegalAction(f"answer with one of {', '.join(uses)} (no target)", rule="locke.10.7")
        if action.item in ESCAPES and strike.level > 7:
            raise IllegalAction("a level-7 escape cannot answer an attack above level 7", rule="locke.10.7.2")
        if action.item == "psycho-pod" and (strike.level > 6 or strike.light_sword):
            raise IllegalAction("the psycho-pod stops attacks up to level 6, never a light sword", rule="locke.2.3.1")
        s = _claim(s, step.seat, action.item)
        if action.item in ESCAPES:
            s = with_strike(s, strike._replace(escape_tried=True))
        s = log(s, "cb-item", step.seat, action.item, -1)
        return advance(s, Step("cb_item_roll", step.seat, n=step.n, arg=f"{action.item}:-1"))
    return handle


def _on_planet_answer(g: Any, s: LockeState, step: Step, action: UseItem, uses: tuple[str, ...]) -> LockeState:
    """A kept planet card answers the attack (seed 000 3.1.3; KMC 10.7.2-3): the subspace field
    (2d6, hidden until it acts), the Lafnor mirror (escape and defence at once at its level, only a
    higher planet mirror blocks the escape) or the energy absorb ball (a defence that stays up)."""
    strike = fight_of(s).strike
    assert strike is not None
    table = PLANET_ESCAPES if uses == ESCAPES else PLANET_DEFENCES
    if action.item not in table or action.target != -1:
        raise IllegalAction(f"answer with a kept {' or '.join(table)} card (no target)", rule="locke.10.7")
    kept.check_held(g, s, step.seat, action.card, action.as_card, (table[action.item],))
    level = kept.level_of(g, action.as_card)
    if action.item == "subspace-field" and strike.level > kept.effect(g, action.as_card, "escape_level", 7):
        raise IllegalAction("the subspace field escapes attacks up to level 7", rule="locke.s000.3.1.3")
    if action.item == "lafnor-mirror" and strike.level > level:
        raise IllegalAction(f"a level-{level} mirror answers attacks up to level {level}", rule="locke.10.7.2")
    if action.item == "absorb-ball" and not ball_stops(g, action.as_card, strike):
        raise IllegalAction(f"a level-{level} absorb ball takes attacks up to level {level} (light swords only the "
                            "level-5 ball, at level 5)", rule="locke.s000.3.1.3")
    s = kept.claim(s, step.seat, action.card, action.as_card)
    s = log(s, "cb-item", step.seat, action.item, -1, "planet")
    if action.item == "subspace-field":
        s = with_strike(s, strike._replace(escape_tried=True))
        return advance(s, Step("cb_item_roll", step.seat, n=step.n,
                               arg=f"subspace-field:-1:{action.card}:{action.as_card}"))
    shown = kept.reveal(step.seat, action.card, action.as_card)
    if action.item == "absorb-ball":  # up until the combat ends or a stronger attack hits it
        fight = fight_of(s)
        f = fight.fighters[step.n]._replace(ball=level, ball_card=action.card)
        s = put(s, with_fighter(fight, step.n, f))
        return advance(s, *shown, Step("cb_ball", -1, n=step.n))
    # the mirror: spent at once; every other player may block its escape with a higher planet mirror
    s = with_strike(s, strike._replace(escape_tried=True, escaper=step.n, escape_level=level, mirror=level))
    return advance(s, *_mirror_steps(s, step.seat, step.n, action.card, action.as_card))


def ball_stops(g: Any, as_card: str, strike: Strike) -> bool:
    """An absorb ball takes attacks up to its level; a light sword only when the card says so
    (the level-5 ball and the level-5 sword, seed 000 3.1.3)."""
    level = kept.level_of(g, as_card)
    if strike.light_sword:
        return "light-sword" in g.components.planet(as_card).effect.params.get("absorbs", ()) and strike.level <= level
    return strike.level <= level


def _on_mirror_block(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 3.1.3 (facing mirrors): only a planet-card mirror of a higher level blocks the escape."""
    assert isinstance(action, UseItem)
    strike = fight_of(s).strike
    assert strike is not None
    if action.item != "lafnor-mirror" or action.card < 0 or action.target != -1:
        raise IllegalAction("block a planet mirror's escape only with a kept Lafnor mirror card", rule="locke.10.7.2")
    kept.check_held(g, s, step.seat, action.card, action.as_card, ("lafnor-mirror",))
    if kept.level_of(g, action.as_card) <= strike.mirror:
        raise IllegalAction(f"only a mirror above level {strike.mirror} blocks this one", rule="locke.10.7.2")
    s = kept.claim(s, step.seat, action.card, action.as_card)
    s = with_strike(s, strike._replace(blockers=strike.blockers + (step.n,)))
    s = log(s, "cb-block", fight_of(s).fighters[strike.escaper].seat, strike.mirror,
            kept.level_of(g, action.as_card), [step.seat])
    rest = tuple(x for x in s.queue[1:] if x.kind != "cb_mirror_block")  # one block is enough
    s = s._replace(queue=(s.queue[0],) + rest)
    return advance(s, *kept.reveal(step.seat, action.card, action.as_card), kept.spend_step(step.seat, action.card))


def _on_nop(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    return advance(s)


def normal_escape(item: str, card: int) -> bool:
    """Is this escape on one's own turn the turn's normal action (KMC 10.4.1)? The Lafnor mirror
    (the character's or a kept card's) and a kept subspace field are; Dr. Wong's own subspace
    field is a special action instead, the irregular escape (KMC 2.3.1, 10.4.2 note 3; N236)."""
    return item in ESCAPES and (card >= 0 or item == "lafnor-mirror")


def _on_own_escape(g: Any, s: LockeState, step: Step, action: UseItem) -> LockeState:
    """An escape on one's own turn, with no attack in flight. As the normal action (N214, N236):
    a kept subspace field rolls as in answer to an attack, a kept mirror escapes at its level unless
    a higher planet mirror blocks it, the character's mirror rolls its 1d6. As a special action,
    once a round (N236): Dr. Wong's subspace field rolls its 2d6, before or after his normal action
    and special attacks. Whatever is left of the turn comes back if the seat is still there."""
    fight = fight_of(s)
    me = step.n
    f = fight.fighters[me]
    if f.nike_on or action.target != -1:
        raise IllegalAction("escape with a subspace field or a mirror (no target; not while using Nike)",
                            rule="locke.10.4.1")
    if action.card >= 0:
        kept.check_held(g, s, step.seat, action.card, action.as_card, (PLANET_ESCAPES[action.item],))
        s = kept.claim(s, step.seat, action.card, action.as_card)
    elif normal_escape(action.item, action.card):
        s = _claim(s, step.seat, action.item)
    elif action.item in f.specials:
        raise IllegalAction("the irregular escape is a special action, used once a round", rule="locke.10.4.2")
    else:
        s = _claim(s, step.seat, action.item)
    if normal_escape(action.item, action.card):
        f = f._replace(acted=True)
    else:
        f = f._replace(specials=f.specials + (action.item,))
    planet = ("planet",) if action.card >= 0 else ()
    s = log(put(s, with_fighter(fight_of(s), me, f)), "cb-item", step.seat, action.item, -1, *planet)
    rest = turn_on(step.seat, me)
    if action.card < 0:  # the character's own: its dice, and nobody can block it (KMC 2.3.1)
        return advance(s, Step("cb_item_roll", step.seat, n=me, arg=f"{action.item}:-1"), rest)
    if action.item == "subspace-field":
        return advance(s, Step("cb_item_roll", step.seat, n=me,
                               arg=f"subspace-field:-1:{action.card}:{action.as_card}"), rest)
    level = kept.level_of(g, action.as_card)
    s = with_strike(s, Strike(me, -1, "", 0, 0, escaper=me, escape_level=level, escape_tried=True, mirror=level))
    return advance(s, *_mirror_steps(s, step.seat, me, action.card, action.as_card), rest)


def _mirror_steps(s: LockeState, seat: int, me: int, handle: int, as_card: str) -> tuple[Step | LockeStep, ...]:
    """The mirror is shown and spent; every other player still in may block it; then the end."""
    fight = fight_of(s)
    asks = tuple(Step("cb_mirror_block", f.seat, n=j) for j in fight.order or range(len(fight.fighters))
                 for f in (fight.fighters[j],) if j != me and player(f) and alert(fight, j))
    return kept.reveal(seat, handle, as_card) + (kept.spend_step(seat, handle),) + asks + (
        Step("cb_mirror_end", -1, n=me),)


def _auto_mirror_end(g: Any, s: LockeState, step: Step) -> LockeState:
    """Blocked or not the mirror defends (the attack is gone); unblocked, its user escapes."""
    strike = fight_of(s).strike
    assert strike is not None
    s = with_strike(s, None)
    if strike.target >= 0:
        s = log(s, "cb-defend", fight_of(s).fighters[step.n].seat, "lafnor-mirror")
    if strike.blockers:
        return advance(s)
    return advance(s, Step("cb_flee_roll", fight_of(s).fighters[step.n].seat, n=step.n))


def _pending_item_roll(g: Any, s: LockeState, step: Step) -> Pending:
    item = step.arg.partition(":")[0]
    return Chance(f"locke.combat.{item}", DICE[item])


def _on_item_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    item, target, handle, as_card = (step.arg.split(":") + ["", ""])[:4]
    planet = bool(handle)
    if planet:  # the planet card's own numbers (seed 000 3.1.3)
        best, faint = kept.effect(g, as_card, "success_max"), kept.effect(g, as_card, "faint_min", 99)
    else:
        best, faint = _limits(g, item)
    total = sum(action.faces)
    ok = total <= best
    s = log(s, "cb-item-roll", step.seat, item, total, ok)
    return _item_result(g, s, step.seat, step.n, item, target, ok, total >= faint, handle, as_card)


def _item_result(g: Any, s: LockeState, seat: int, me: int, item: str, target: str, ok: bool, out: bool,
                 handle: str = "", as_card: str = "") -> LockeState:
    """A rolled item worked (``ok``), knocked its user out (``out``), or neither; replaces the
    queue's head (the roll, or the statement of a geoid bomb announced as a ship, N226)."""
    planet = bool(handle)
    fight = fight_of(s)
    after: tuple[Step | LockeStep, ...] = ()
    if planet and (ok or out):  # it acted: shown and discarded (seed 000 3.1.3)
        after = kept.reveal(seat, int(handle), as_card) + (kept.spend_step(seat, int(handle)),)
    if out:  # knocked out by an unexplained high frequency (KMC 2.3.1): a target still
        f = fight.fighters[me]
        f = f._replace(fainted=True, acted=True, wake=fight.round + 1)  # the rest of the round (KMC 2.3.1, N162)
        s = log(put(s, with_fighter(fight, me, f)), "cb-fainted", seat, item)  # its turn is over (N162)
    if not ok:
        return advance(s, *after)
    if item == "geoid-bomb":
        t = int(target)
        if not active(fight_of(s), t):
            return advance(s, *after)
        level = kept.effect(g, as_card, "level") if planet else constant(g, item, "level")
        attack = kept.effect(g, as_card, "attack") if planet else constant(g, item, "attack")
        s = mark_attacked(with_strike(s, Strike(me, t, "", level, attack)))
        return advance(s, *after, Step("cb_strike", -1, arg="ok"))
    if item == "psycho-pod":
        return advance(log(with_strike(s, None), "cb-defend", seat, item))
    # an escape: the mirror cannot be blocked (KMC 2.3.1); the subspace field is treated alike
    return advance(with_strike(s, None), *after, Step("cb_flee_roll", seat, n=me))


# --- the energy absorb ball (seed 000 3.1.3) ------------------------------------------------------


def _ball_card(level: int) -> str:
    return f"absorb-ball-{level}"


def _auto_ball(g: Any, s: LockeState, step: Step) -> LockeState:
    """The ball takes the attack; the attacker makes an ESP level check, and a failure knocks
    it out for 1d6 rounds, this one included."""
    fight = fight_of(s)
    strike = fight.strike
    assert strike is not None
    owner = fight.fighters[step.n]
    attacker = fight.fighters[strike.attacker]
    s = log(with_strike(s, None), "cb-ball-absorbs", owner.seat, strike.level)
    if attacker.seat >= 0 and not attacker.thought:
        return advance(fate.check(g, s, attacker.seat, stat=fate.CheckStat.LEVEL, then=AfterBallCheck(strike.attacker)))
    if attacker.ob is not None:
        return advance(s, Step("cb_ball_ob", -1, n=strike.attacker))
    return advance(s)


@dataclasses.dataclass(frozen=True)
class AfterBallCheck(Then):
    """The absorb ball's attacker failing its level check faints (``attacker``: its fighter)."""

    KIND: ClassVar[str] = "combat.ball"
    attacker: int

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if success or s.combat is None:
            return advance(s)
        return advance(s, Step("cb_ball_faint", -1, n=self.attacker))


def _pending_ball_ob(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.check.level", (6, 6))


def _on_ball_ob(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """An obstacle's ESP level check is public: 2d6 at or below its level passes."""
    assert isinstance(action, DiceRolled)
    ob = fight_of(s).fighters[step.n].ob
    assert ob is not None
    if sum(action.faces) <= ob.level:
        return advance(s)
    return advance(s, Step("cb_ball_faint", -1, n=step.n))


def _pending_ball_faint(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.absorb-ball", (6,))


def _on_ball_faint(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    f = f._replace(fainted=True, acted=True, wake=fight.round + action.faces[0], ball_out=True)
    who = f.seat if f.seat >= 0 else (f.ob.id if f.ob is not None else "")
    return advance(log(put(s, with_fighter(fight, step.n, f)), "cb-fainted", who, "absorb-ball", action.faces[0]))


def _auto_ball_break(g: Any, s: LockeState, step: Step) -> LockeState:
    """A stronger attack breaks the ball (spent) and goes on to the suit or the body."""
    fight = fight_of(s)
    f = fight.fighters[step.n]
    s = put(s, with_fighter(fight, step.n, f._replace(ball=0, ball_card=-1)))
    s = log(s, "cb-ball-broken", f.seat, f.ball)
    return advance(s, kept.spend_step(f.seat, f.ball_card), Step("cb_hit", -1))


def is_nike_attack(fight: Any, strike: Strike) -> bool:
    """Nike's attack goes straight to its target's Nike, suit or body (KMC 10.7)."""
    return strike.card == "" and strike.level == 0 and fight.fighters[strike.attacker].nike_on


# --- the slum and the ESP controller, on one's own turn (seed 000 3.2.4, 3.1.3) ----------------------


def _on_turn_card(g: Any, s: LockeState, step: Step, action: UseItem) -> LockeState:
    fight = fight_of(s)
    me = step.n
    f = fight.fighters[me]
    kept.check_held(g, s, step.seat, action.card, action.as_card, (action.item,))
    if action.item == "slum":
        swap = action.cards
        size = kept.effect(g, action.as_card, "count", 3)
        if action.target != -1 or len(swap) != size or len(set(swap)) != size or any(h not in f.hand for h in swap):
            raise IllegalAction(f"name {size} different combat cards of your hand to swap", rule="locke.s000.3.2.4")
        if len(zone_of(s, DECK)) < size:
            raise IllegalAction("the combat deck has too few cards left to swap", rule="locke.s000.3.2.4")
        s = kept.claim(s, step.seat, action.card, action.as_card)
        f = f._replace(hand=tuple(h for h in f.hand if h not in swap))
        s = put(s, with_fighter(fight, me, f)._replace(used=fight.used + swap))
        s = log(s, "cb-item", step.seat, "slum", -1, "planet")
        return advance(s, *kept.reveal(step.seat, action.card, action.as_card), kept.spend_step(step.seat, action.card),
                       Step("cb_deal", step.seat, n=size, arg=str(me)), turn_on(step.seat, me))
    options = tuple(j for j in targets(s, fight, me) if player(fight.fighters[j]) and fight.fighters[j].ctl_by < 0)
    if action.target not in options or action.cards:
        raise IllegalAction(f"name one player among fighters {list(options)} for the ESP controller",
                            rule="locke.s000.3.1.3")
    s = kept.claim(s, step.seat, action.card, action.as_card)
    s = log(s, "cb-item", step.seat, "esp-controller", action.target, "planet")
    return advance(s, *kept.reveal(step.seat, action.card, action.as_card),
                   Step("cb_ctl", step.seat, n=action.target, arg=str(action.card)), turn_on(step.seat, me))


def _auto_ctl(g: Any, s: LockeState, step: Step) -> LockeState:
    """The named player makes a mind check (the ESP controller check)."""
    victim = fight_of(s).fighters[step.n]
    then = AfterControllerCardCheck(step.n, step.seat, int(step.arg))
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


def _pending_ctl_free(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.controller-release", (6,))


def _on_ctl_free(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 000 3.1.3: each of its turns the controlled player rolls 1d6; a 1 frees it."""
    assert isinstance(action, DiceRolled)
    if action.faces[0] != 1:
        return advance(s)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    s = put(s, with_fighter(fight, step.n, f._replace(ctl_by=-1, ctl_card=-1)))
    s = log(s, "control-released", f.seat)
    return advance(s, kept.spend_step(f.ctl_by, f.ctl_card))


def industrial(g: Any, s: LockeState, seat: int, action: Any) -> tuple[Step | LockeStep, ...]:
    """Check a contact telepathy with a kept industrial district (seed 000 3.2.4): its level
    check is made at the card's level whatever the character's; the card is shown and spent."""
    kept.check_held(g, s, seat, action.planet, "industrial", ("industrial",))
    level = kept.effect(g, "industrial", "level", 6)
    if action.use != "telepathy" or action.level != level:
        raise IllegalAction(f"the industrial district goes with contact telepathy, checked at level {level}",
                            rule="locke.s000.3.2.4")
    return kept.reveal(seat, action.planet, "industrial") + (kept.spend_step(seat, action.planet),)


def claim_industrial(s: LockeState, seat: int, action: Any) -> LockeState:
    return log(kept.claim(s, seat, action.planet, "industrial"), "cb-item", seat, "industrial", action.target, "planet")


def turn_steps(fight: Any, index: int) -> tuple[Step, ...]:
    """What comes before a fighter's turn: the controlled player's release roll (KMC 10.4)."""
    f = fight.fighters[index]
    return (Step("cb_ctl_free", -1, n=index),) if f.ctl_by >= 0 else ()


def turn_on(seat: int, index: int) -> Step:
    """The rest of a seat's turn, queued after each thing it did in it (KMC 10.4: the normal action
    and the special actions in any order, N235): the same decision comes back, unless the seat
    can no longer act."""
    return Step("cb_turn_on", seat, n=index)


def _auto_turn_on(g: Any, s: LockeState, step: Step) -> LockeState:
    """The turn's decision comes back once what the seat did has resolved (the resonance forest's
    self-damage of its card first, N187), while the seat is still in, awake and not knocked out
    (KMC 2.3.1, N162) and has someone to attack; otherwise its turn is over."""
    from engine.locke.combat.path import forest_steps

    if s.combat is None:
        return advance(s)
    s, forest = forest_steps(s)
    if forest:
        return s._replace(queue=forest + s.queue)
    fight = fight_of(s)
    if not alert(fight, step.n) or not targets(s, fight, step.n):
        return advance(s)
    return advance(s, Step("cb_act", step.seat, n=step.n))


def wake_up(fight: Any, round_no: int) -> Any:
    """Knocked-out fighters whose time is over wake as ``round_no`` begins (the absorb ball's
    1d6 rounds; the rest of a round for the geoid bomb, the subspace field and Nike, N162); a
    persuaded E-buster (``wake`` 0, N189) never wakes in this combat."""
    fighters = tuple(f._replace(fainted=False, wake=0, ball_out=False) if f.fainted and f.wake and round_no >= f.wake else f
                     for f in fight.fighters)
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


def suit_steps(s: LockeState, target: int) -> tuple[Step, ...]:
    """The steps a hit on a suited seat takes instead of the body ((): no suit in the way)."""
    fight = fight_of(s)
    strike = fight.strike
    f = fight.fighters[target]
    if strike is None:
        return ()
    if f.ball and not is_nike_attack(fight, strike):  # seed 000 3.1.3: the ball stays up
        return (Step("cb_ball" if _ball_takes(f.ball, strike) else "cb_ball_break", -1, n=target),)
    if f.nike_on and f.nike_left > 0:
        return (Step("cb_suit_damage", -1, n=target, arg="nike"),)
    if not f.suit or strike.reflected:
        return ()
    if f.suit == SUIT:  # N225: the kind matters from here on, so its wearer says it first
        return (Step("cb_suit_kind", f.seat, n=target),)
    nike = is_nike_attack(fight, strike)
    if f.suit == "energy-suit" and nike:  # KMC 2.3.2: Nike hits the suit with no check; seed 000
        return () if f.suit_card >= 0 else (Step("cb_suit_damage", -1, n=target),)  # 3.1.2: not the card's
    if f.suit == "energy-suit":
        declared = reflect_level(fight, strike) is None
        return (Step("cb_reflect_check" if declared else "cb_reflect", -1, n=target),)
    if f.suit == "powered-suit" and nike:  # KMC 2.3.2: Nike's attack is not absorbed, the body takes it
        return ()
    if f.suit == "powered-suit" and f.seat < 0:  # a random character's, of public level (N245)
        return (Step("cb_ob_absorb", -1, n=target),)
    if f.suit == "powered-suit":  # the character's or the face-down card's: its owner answers
        return (Step("cb_absorb", f.seat, n=target),)
    return (Step("cb_suit_damage", -1, n=target),)


def _on_suit_kind(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 2.3.2, seed 000 3.1.2 (N225): the first attack to reach a suit declared without its
    kind; its wearer says the kind, a claim about the character card (it carries that suit) or
    the kept card (it is a suit card of that kind, or a wildcard, fixed to the kind from now
    on), judged when that card opens. The suit then takes the hit as that kind does."""
    assert isinstance(action, SuitKind)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    kinds = SUITS if f.suit_card < 0 else CARD_SUITS
    if action.suit not in kinds:
        raise IllegalAction(f"say which suit it is: one of {', '.join(kinds)}", rule="locke.2.3.2")
    if f.suit_card < 0:
        s = _claim(s, step.seat, action.suit)
        f = f._replace(suit=action.suit, suit_left=constant(g, action.suit, "durability"))
    else:
        s = kept.claim(s, step.seat, f.suit_card, action.suit)
        wild = tuple((h, action.suit if h == f.suit_card and was == SUIT else was) for h, was in s.wild)
        f = f._replace(suit=action.suit)
        s = s._replace(wild=wild)
    s = put(s, with_fighter(fight_of(s), step.n, f))
    s = log(s, "cb-suit-kind", step.seat, action.suit, *(("planet",) if f.suit_card >= 0 else ()))
    return advance(s, *suit_steps(s, step.n))


def reflect_level(fight: Any, strike: Strike) -> int | None:
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


def _pending_reflect(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.reflection", (6, 6))


def _on_reflect(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """E-suit, a public level (reflect_level): 2d6 at or below it passes."""
    assert isinstance(action, DiceRolled)
    strike = fight_of(s).strike
    assert strike is not None
    level = reflect_level(fight_of(s), strike)
    assert level is not None
    return _reflection(s, step.n, sum(action.faces) <= level)


def _auto_reflect_check(g: Any, s: LockeState, step: Step) -> LockeState:
    """E-suit against a seat's own ESP: the attacker declares its level and checks it (KMC 11.2
    (1), a claim as every level check; ruling N163)."""
    fight = fight_of(s)
    strike = fight.strike
    assert strike is not None
    seat = fight.fighters[strike.attacker].seat
    return advance(fate.check(g, s, seat, stat=fate.CheckStat.LEVEL, then=AfterReflectCheck(step.n)))


@dataclasses.dataclass(frozen=True)
class AfterReflectCheck(Then):
    """The E-suit's level check decides the reflection onto fighter ``target``'s suit or back."""

    KIND: ClassVar[str] = "combat.reflect"
    target: int

    def after(self, g: Rules, s: LockeState, seat: int, success: bool) -> LockeState:
        if s.combat is None or fight_of(s).strike is None:
            return advance(s)
        return _reflection(s, self.target, success)


def _reflection(s: LockeState, target: int, passed: bool) -> LockeState:
    """KMC 2.3.2 E-suit: a passed check hits the suit (the planet card's breaks at once and the
    body is hit, seed 000 3.1.2); a failed one throws the attack back at the attacker. Replaces
    the queue's head (the roll, or the check's end)."""
    strike = fight_of(s).strike
    assert strike is not None
    f = fight_of(s).fighters[target]
    if passed and f.suit_card >= 0:
        s = put(s, with_fighter(fight_of(s), target, f._replace(suit="", suit_card=-1)))
        s = log(log(s, "cb-reflect", f.seat, False), "cb-suit-broken", f.seat, strike.level)
        return advance(s, *kept.broken_steps(f.seat, f.suit_card, "energy-suit"), Step("cb_dur", f.seat, n=target),
                       Step("cb_damage", -1, n=target))
    if passed:
        return advance(log(s, "cb-reflect", f.seat, False), Step("cb_suit_damage", -1, n=target))
    back = strike._replace(attacker=strike.target, target=strike.attacker, reflected=True)
    return advance(log(with_strike(s, back), "cb-reflect", f.seat, True), Step("cb_hit", -1))


def _pending_suit_damage(g: Any, s: LockeState, step: Step) -> Pending:
    strike = fight_of(s).strike
    assert strike is not None
    return Chance("locke.chart.damage", (6, 6) * strike.hits)


def _on_suit_damage(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """The suit takes the damage check on its own durability; at 0 it is broken (N5: doubles
    still call the wearer's transformation check)."""
    assert isinstance(action, DiceRolled)
    fight = fight_of(s)
    strike = fight.strike
    assert strike is not None
    f = fight.fighters[step.n]
    nike = step.arg == "nike"
    first = f.nike_left if nike else f.suit_left
    left, turn, cells = first, False, []
    for k in range(0, len(action.faces), 2):
        r = resolve_damage(action.faces[k:k + 2], attack=strike.firepower, durability=first)
        left = 0 if r.eliminated else left - r.damage
        turn = turn or r.transformation
        cells.append(r.cell)
    broken = -1
    if nike:
        broken = f.nike_card if left <= 0 else -1
        f = f._replace(nike_left=max(0, left), nike_on=f.nike_on and left > 0, nike_card=-1 if left <= 0 else f.nike_card)
    else:
        f = f._replace(suit=f.suit if left > 0 else "", suit_left=max(0, left))
    s = put(s, with_fighter(fight, step.n, f))
    shown = kept.broken_steps(f.seat, broken, "nike") if broken >= 0 else ()  # seed 000 3.1.2: shown, returned
    who = f.seat if f.seat >= 0 else (f.ob.id if f.ob is not None else "")
    s = log(s, "cb-suit-hit", who, "nike" if nike else fight.fighters[step.n].suit, cells, first, max(0, left))
    if turn and f.seat >= 0:  # N5: the suit took the hit, the wearer still takes the transformation check
        from engine.locke import fate

        s = fate.transformation_check(g, s, f.seat, FightTransformation())
    return advance(with_strike(s, None), *shown)


def _on_absorb(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Absorb)
    strike = fight_of(s).strike
    assert strike is not None
    f = fight_of(s).fighters[step.n]
    about = (f.suit_card,) if f.suit_card >= 0 else (s.seats[step.seat].character,)
    claim = ck.make(step.seat, s.step_no, cc.PSUIT, about, [strike.level, action.absorb], "locke.2.3.2")
    s = s._replace(**claimed(s, claim))
    if action.absorb:
        return advance(log(with_strike(s, None), "cb-suit-absorbs", step.seat, strike.level))
    s = put(s, with_fighter(fight_of(s), step.n, f._replace(suit="", suit_card=-1)))
    s = log(s, "cb-suit-broken", step.seat, strike.level)
    shown = kept.broken_steps(step.seat, f.suit_card, "powered-suit") if f.suit_card >= 0 else ()  # seed 000 3.1.2
    return advance(s, *shown, Step("cb_dur", step.seat, n=step.n), Step("cb_damage", -1, n=step.n))


PENDING = {
    "cb_mirror_block": seat_decision, "cb_ball_ob": _pending_ball_ob, "cb_ball_faint": _pending_ball_faint,
    "cb_ctl_free": _pending_ctl_free,
    "cb_equip": seat_decision, "cb_suit_kind": seat_decision, "cb_ship_effect": seat_decision, "cb_trim": seat_decision, "cb_jam_ask": seat_decision, "cb_thought_sync": seat_decision, "cb_nike": _pending_nike, "cb_absorb": seat_decision, "cb_ship": _pending_ship, "cb_item_fp": _pending_item_fp,
    "cb_item_roll": _pending_item_roll, "cb_reflect": _pending_reflect, "cb_suit_damage": _pending_suit_damage,
}
HANDLERS = {
    ("cb_equip", Equip): _on_equip, ("cb_act", UseItem): _on_special,
    ("cb_escape", UseItem): _on_answer(ESCAPES), ("cb_defend", UseItem): _on_answer(DEFENCES),
    ("cb_absorb", Absorb): _on_absorb, ("cb_suit_kind", SuitKind): _on_suit_kind, ("cb_trim", Trim): _on_trim, ("cb_ship_effect", ShipEffect): _on_ship_effect, ("cb_ship", DiceRolled): _on_ship, ("cb_item_fp", DiceRolled): _on_item_fp,
    ("cb_item_roll", DiceRolled): _on_item_roll, ("cb_reflect", DiceRolled): _on_reflect,
    ("cb_suit_damage", DiceRolled): _on_suit_damage, ("cb_jam_ask", JamVeto): _on_jam_veto,
    ("cb_nike", DiceRolled): _on_nike, ("cb_thought_sync", UseItem): _on_thought_sync,
    ("cb_thought_sync", Nop): _on_thought_pass,
    ("cb_mirror_block", UseItem): _on_mirror_block, ("cb_mirror_block", Nop): _on_nop,
    ("cb_ball_ob", DiceRolled): _on_ball_ob, ("cb_ball_faint", DiceRolled): _on_ball_faint,
    ("cb_ctl_free", DiceRolled): _on_ctl_free,
}
AUTO = {
    "cb_turn_on": _auto_turn_on, "cb_mirror_end": _auto_mirror_end, "cb_ball": _auto_ball, "cb_ball_break": _auto_ball_break,
    "cb_ctl": _auto_ctl, "cb_reflect_check": _auto_reflect_check,
}


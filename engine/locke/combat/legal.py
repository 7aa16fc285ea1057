"""Legal combat actions of a seat (registered into engine/locke/legal.py).

With the seat's knowledge the list is honest: it names the true cards in its
hand, pays with its true level and power (stretching with mind checks only
what they do not cover, declaring its true mind), declares its true
durability, and stays awake under an illusion only when its level and mind
allow. Without knowledge it lists what the public record allows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.locke import stats
from engine.locke.actions import Land, Nop
from engine.locke.checks import MIN_MIND_DECLARATION
from engine.locke.combat.actions import Absorb, Durability, Equip, GoOn, JamVeto, Play, ShipEffect, Sleep, SuitKind, Trim, UseItem
from engine.locke.combat import disintegration, ebuster, kept
from engine.locke.combat.claims import own_part
from engine.locke.combat.items import DEFENCES, ESCAPES, PLANET_SPECIAL, SPECIALS, ball_stops, worn
from engine.locke.combat.claims import SHIP_EFFECTS, ship_effects
from engine.locke.combat.common import (
    RESIDUAL,
    WILDCARD,
    card_fits,
    fight_of,
    grant_int,
    henchmen_of,
    item_level,
    jam_floor,
    obstacle_jam,
    targets,
)
from engine.locke.combat.model import CARD_SUITS, SUIT, SUITS, Fighter, Strike
from engine.locke.components import Character, CombatCard, ComponentSet
from engine.locke.state import LockeState, Step


_STAND_INS: dict[int, tuple[str, ...]] = {}


Maker = Callable[[Any, LockeState, Step, Character | None, Knowledge | None], list[Action]]

def _stand_ins(components: ComponentSet) -> tuple[str, ...]:
    """What the wildcard is offered as: each defence, teleport and illusion card, contact
    telepathy, and the strongest attack of every level (light swords apart)."""
    if id(components) in _STAND_INS:
        return _STAND_INS[id(components)]
    best: dict[tuple[int, bool], CombatCard] = {}
    out: list[str] = []
    for card in components.combat_cards:
        if card.id == WILDCARD:
            continue
        if card.type == "attack":
            key = (card.level, card.weapon == "light-sword")
            if key not in best or card.firepower > best[key].firepower:
                best[key] = card
        else:
            out.append(card.id)
    result = tuple(out) + tuple(best[key].id for key in sorted(best))
    _STAND_INS[id(components)] = result
    return result


def _hand(g: Any, f: Fighter, k: Knowledge | None) -> list[tuple[int, str, str, CombatCard]]:
    """(handle, card, acts_as, the card it counts as) for every card the seat may name."""
    out = []
    for h in f.hand:
        known = k.card(h) if k is not None else None
        ids = (known,) if known else tuple(c.id for c in g.components.combat_cards)
        for cid in ids:
            if cid == WILDCARD:
                out += [(h, cid, a, g.components.combat_card(a)) for a in _stand_ins(g.components)]
            else:
                out.append((h, cid, "", g.components.combat_card(cid)))
    return out


def _costs(me: Character | None, f: Fighter, card: CombatCard, free: bool) -> list[tuple[int, int]]:
    """(stretch, mind) ways to pay for ``card`` (KMC 10.5.1-2)."""
    if free or card.level == 0:
        return [(0, 0)]
    if me is None:
        return [(0, 0)]
    usable = own_part(me, f.spent)  # what the claim of a stretch says exactly (KMC 10.5.1)
    if card.level <= usable:
        return [(0, 0)]
    if me.mind < MIN_MIND_DECLARATION:
        return []
    return [(card.level - usable, me.mind)]


def _plays(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None,
           uses: tuple[str, ...], strike: Strike | None) -> list[Action]:
    fight = fight_of(s)
    index = step.n if step.kind != "cb_hench" else next(i for i, f in enumerate(fight.fighters) if f.seat == step.seat)
    f = fight.fighters[index]
    field = kept.levels(g, s, step.seat, f.field_card, k, me, "esp-field")
    out: list[Action] = []
    jammed, jammed_escape = obstacle_jam(fight, f), obstacle_jam(fight, f, escape=True)
    for handle, cid, acts_as, card in _hand(g, f, k):
        if card.type != "contact-telepathy" and card.level <= max(jammed, jam_floor(fight, f)):
            continue
        for use in uses:
            if card_fits(card, use, strike):
                continue
            if use in ("escape", "flee") and card.level <= jammed_escape:
                continue  # seed 002 trap 13: the super E-buster's jammer stops escape cards
            if use == "block" and strike is not None and strike.block_base and card.level > strike.block_base:
                continue
            free = use == "hench" or card.type == "contact-telepathy"
            if use in ("attack", "telepathy"):
                aims = targets(s, fight, index)
                if use == "telepathy":
                    aims = tuple(j for j in aims if fight.fighters[j].seat >= 0)
            else:
                aims = (-1,)
            if use == "illusion" or (use == "escape" and "puts-to-sleep" in card.tags):
                from engine.locke.combat.path import sleepers

                if not sleepers(s, fight, index):
                    continue
            level = (me.level if me is not None else 0) if use == "telepathy" else 0
            for stretch, mind in _costs(me, f, card, free):
                out += [Play(step.seat, use, handle, cid, acts_as, t, stretch, mind, level) for t in aims]
            if f.ball_out:
                continue  # seed 000 3.1.3: knocked out by an absorb ball, its field has stopped
            if f.field and not free and card.level and _may(field, lambda top: top >= card.level):
                out += [Play(step.seat, use, handle, cid, acts_as, t, 0, 0, level, True) for t in aims]
            if use == "telepathy":  # seed 000 3.2.4: with an industrial district, the check at level 6
                for h, _ in kept.usable(g, s, step.seat, k, "industrial"):
                    out += [Play(step.seat, use, handle, cid, acts_as, t, 0, 0, 6, False, h) for t in aims]
    return out


def _has(me: Character | None, item: str) -> bool:
    return me is None or bool(me.items_of(item))


def _planet_answers(g: Any, s: LockeState, step: Step, k: Knowledge | None, use: str) -> list[Action]:
    """Kept planet cards answering the attack in flight (seed 000 3.1.3): the subspace field and
    the Lafnor mirror in the escape phase, the absorb ball in the defence phase."""
    strike = fight_of(s).strike
    if strike is None:
        return []
    out: list[Action] = []
    if use == "escape":
        if strike.level <= 7:
            out += [UseItem(step.seat, "subspace-field", -1, h, c) for h, c in kept.usable(g, s, step.seat, k, "subspace-field")]
        out += [UseItem(step.seat, "lafnor-mirror", -1, h, c) for h, c in kept.usable(g, s, step.seat, k, "lafnor-mirror")
                if kept.level_of(g, c) >= strike.level]
    if use == "defend":
        out += [UseItem(step.seat, "absorb-ball", -1, h, c) for h, c in kept.usable(g, s, step.seat, k, "absorb-ball")
                if ball_stops(g, c, strike)]
    return out


def _mirror_block(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    strike = fight_of(s).strike
    top = strike.mirror if strike is not None else 7
    return [Nop(step.seat)] + [UseItem(step.seat, "lafnor-mirror", -1, h, c)
                               for h, c in kept.usable(g, s, step.seat, k, "lafnor-mirror") if kept.level_of(g, c) > top]


def _turn_cards(g: Any, s: LockeState, step: Step, k: Knowledge | None, aims: tuple[int, ...],
                normal: bool = True) -> list[Action]:
    """The turn's planet-card uses (seed 000): the cruiser and the geoid bomb (special attacks,
    once a round each), the slum (swap three combat cards) and the ESP controller."""
    fight = fight_of(s)
    f = fight.fighters[step.n]
    out: list[Action] = []
    for item, kind in PLANET_SPECIAL.items():
        for h, c in kept.usable(g, s, step.seat, k, kind):
            if f"{item}:{h}" not in f.specials:
                out += [UseItem(step.seat, item, t, h, c) for t in aims]
    from engine.locke.state import zone_of
    from engine.locke.combat.model import DECK

    if len(f.hand) >= 3 and len(zone_of(s, DECK)) >= 3:
        out += [UseItem(step.seat, "slum", -1, h, c, f.hand[:3]) for h, c in kept.usable(g, s, step.seat, k, "slum")]
    if normal and not f.nike_on:  # KMC 10.4.1: the planet field's and mirror's escapes as the normal action (N214)
        for item in ("subspace-field", "lafnor-mirror"):
            out += [UseItem(step.seat, item, -1, h, c) for h, c in kept.usable(g, s, step.seat, k, item)]
    victims = [j for j in aims if fight.fighters[j].seat >= 0 and not fight.fighters[j].thought
               and fight.fighters[j].ctl_by < 0]
    out += [UseItem(step.seat, "esp-controller", j, h, c) for h, c in kept.usable(g, s, step.seat, k, "esp-controller")
            for j in victims]
    return out


def _items(s: LockeState, step: Step, me: Character | None, names: tuple[str, ...]) -> list[Action]:
    """Item answers to the attack in flight (mirror, subspace field, psycho-pod)."""
    strike = fight_of(s).strike
    out: list[Action] = []
    for item in names:
        if not _has(me, item) or strike is None:
            continue
        if item in ESCAPES and strike.level > 7:
            continue
        if item == "psycho-pod" and (strike.level > 6 or strike.light_sword):
            continue
        out.append(UseItem(step.seat, item, -1))
    return out


def _act(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    fight = fight_of(s)
    f = fight.fighters[step.n]
    aims = targets(s, fight, step.n)
    if f.thought:  # KMC 10.6: a residual thought attacks with its firepower, or lets the turn go
        return [Nop(step.seat)] + [UseItem(step.seat, RESIDUAL, t) for t in aims]
    specials: list[Action] = [UseItem(step.seat, item, t) for item in _specials(f, me) for t in aims]
    if not f.nike_on and "subspace-field" not in f.specials and _has(me, "subspace-field"):
        specials.append(UseItem(step.seat, "subspace-field", -1))  # Dr. Wong's irregular escape (N236)
    specials += ebuster.options(g, s, step.seat, step.n, me)  # seed 002 trap 11: free options of the turn
    specials += _turn_cards(g, s, step, k, aims, normal=not f.acted)
    if f.acted:  # KMC 10.4.1: the normal action was taken, or it synced this round (N150, N235)
        return [Nop(step.seat)] + specials
    if f.nike_on:  # KMC 2.3.2: Nike's attack replaces every card action
        return [Nop(step.seat)] + specials + [UseItem(step.seat, "nike", t) for t in aims]
    mirror = [UseItem(step.seat, "lafnor-mirror", -1)] if _has(me, "lafnor-mirror") else []  # KMC 10.4.1 (N236)
    return [Nop(step.seat)] + specials + mirror + _plays(g, s, step, me, k, ("attack", "flee", "illusion", "telepathy"),
                                                         None)


def _specials(f: Fighter, me: Character | None) -> list[str]:
    """The character card's specials still free this round (KMC 10.4.2): each once, and as many
    as it has kinds; "ship" may announce any of them (notes 1-2, N226)."""
    owned = [item for item in SPECIALS if _has(me, item)]
    if sum(1 for k in f.specials if k in SPECIALS) >= len(owned):
        return []
    return [item for item in SPECIALS if item not in f.specials and (item in owned or (item == "ship" and owned))]


def _ship_effect(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    """N226: what one's own special announced as "a ship" may do at this roll (without
    knowledge: whatever any of the three may do)."""
    from engine.locke import charts

    faces = tuple(int(x) for x in step.arg.split(":")[1:])
    entry = charts.resolve("ship-support", faces).entry
    mine = [item for item in SPECIALS if _has(me, item)] or list(SPECIALS)
    effects = {e for item in mine for e in ship_effects(g.components, item, sum(faces), entry)}
    return [ShipEffect(step.seat, e) for e in SHIP_EFFECTS if e in effects]


def _answer(use: str) -> Any:
    extra = {"escape": ESCAPES, "defend": DEFENCES}.get(use, ())

    def make(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
        # KMC 10.7.1: the target's own disintegration is an option of its escape decision (N180)
        power = disintegration.options(step.seat, me) if use == "escape" and disintegration.offered(g, s, step.seat) else []
        if use != "block" and use != "hench" and fight_of(s).fighters[step.n].nike_on:
            return [Nop(step.seat)] + power
        planet = _planet_answers(g, s, step, k, use) if use in ("escape", "defend") else []
        return [Nop(step.seat)] + power + _items(s, step, me, extra) + planet + _plays(g, s, step, me, k, (use,),
                                                                                        fight_of(s).strike)
    return make


def _equip(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    aims = [-1] + list(targets(s, fight_of(s), step.n))
    if me is None:
        counts, suits, fields, jams, nikes = [0, 1, 2], [""] + list(SUITS) + [SUIT], [False, True], aims, [0, 10]
    else:
        counts = sorted({0, henchmen_of(me)})
        suits = [""] + [suit for suit in SUITS if me.items_of(suit)]
        suits += [SUIT] if len(suits) > 1 else []  # N225: its kind said, or not (both cost nothing)
        fields = [False] + ([True] if me.items_of("esp-field") else [])
        jams = aims if me.items_of("esp-jammer") else [-1]
        nikes = [0] + [grant_int(x, "check_max", me.mind) for x in me.items_of("nike")][:1]
    if fight_of(s).fighters[step.n].reequip:  # N228: the new card's own items, none doubling a card's still in use
        on = worn(fight_of(s), step.n)
        suits = [x for x in suits if not x or ("suit" not in on and "nike" not in on)]
        fields = [x for x in fields if not x or "esp-field" not in on]
        jams = [x for x in jams if x == -1 or "esp-jammer" not in on]
        nikes = [x for x in nikes if not x or ("nike" not in on and "suit" not in on)]
    out: list[Action] = [Equip(step.seat, h, suit, field, jam, nike) for h in counts for suit in suits for field in fields
                         for jam in jams for nike in nikes if not (suit and nike)]
    if fight_of(s).fighters[step.n].reequip:
        return out
    return out + _equip_cards(g, s, step, me, k, aims[1:])


def _equip_cards(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None,
                 victims: list[int]) -> list[Action]:
    """Kept planet cards declared as items (seed 000 3.1.1-3.1.2), one card per option (with no
    item of the character's), and all the henchman cards together."""
    seat = step.seat
    out: list[Action] = []
    hench = kept.usable(g, s, seat, k, "henchman")
    if hench:
        out.append(Equip(seat, 0, "", False, cards=tuple(h for h, _ in hench), kinds=tuple(c for _, c in hench)))
    for kind in ("esp-field", *CARD_SUITS, SUIT):
        out += [Equip(seat, 0, "", False, cards=(h,), kinds=(c,)) for h, c in kept.usable(g, s, seat, k, kind)]
    out += [Equip(seat, 0, "", False, jam, cards=(h,), kinds=(c,)) for h, c in kept.usable(g, s, seat, k, "esp-jammer")
            for jam in victims]
    mind = me.mind if me is not None else 0  # ``me`` holds the current stats already (_as_now)
    if 2 <= mind <= 12 or me is None:
        out += [Equip(seat, 0, "", False, nike=mind or 10, cards=(h,), kinds=(c,)) for h, c in kept.usable(g, s, seat, k, "nike")]
    return out


def _may(levels: tuple[int, ...] | None, fits: Any) -> bool:
    """Some level the seat's hidden item may have fits (None: the level is not known here)."""
    return levels is None or any(fits(level) for level in levels)


def _absorb(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    strike = fight_of(s).strike
    suit = kept.levels(g, s, step.seat, fight_of(s).fighters[step.n].suit_card, k, me, "powered-suit")
    if strike is None:
        return [Absorb(step.seat, True), Absorb(step.seat, False)]
    return [Absorb(step.seat, absorb) for absorb in (True, False)
            if _may(suit, lambda top: (top >= strike.level) == absorb)]


def _suit_kind(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    """N225: the true kind of the suit declared without it (the character's, or the kept card's;
    a wildcard may still be either unless a use has fixed it). Without knowledge: every kind."""
    f = fight_of(s).fighters[step.n]
    if f.suit_card < 0:
        kinds = [kind for kind in SUITS if me is None or me.items_of(kind)]
    else:
        from engine.locke import planet_cards as pc

        fixed = dict(s.wild).get(f.suit_card, "")
        card = k.card(f.suit_card) if k is not None else None
        kinds = [fixed] if fixed in CARD_SUITS else [pc.kind_of(card)] if card and pc.kind_of(card) in CARD_SUITS else []
    return [SuitKind(step.seat, kind) for kind in kinds or (SUITS if f.suit_card < 0 else CARD_SUITS)]


def _trim(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    """N228: every way to put back the cards beyond the new hand size (the seat's choice)."""
    from itertools import combinations

    hand = fight_of(s).fighters[step.n].hand
    return [Trim(step.seat, tuple(c)) for c in combinations(hand, int(step.arg))]


def _durability(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    from engine.locke import fate

    if me is not None:  # ``me`` holds the current stats already (_as_now)
        return [Durability(step.seat, max(1, me.durability - s.seats[step.seat].damage))]
    return [Durability(step.seat, d) for d in range(1, fate.most(g, s, step.seat, "durability") + 1)]


def _sleep(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    if me is not None and step.n > me.level + me.mind:
        return [Sleep(step.seat, True)]
    return [Sleep(step.seat, True), Sleep(step.seat, False)]


def _thought_sync(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    """KMC 10.8.2: a residual thought may sync another's attack (its firepower), or not."""
    return [Nop(step.seat), UseItem(step.seat, RESIDUAL, -1)]


def _land(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
    from engine.locke.turn import teleport_targets

    return [Land(step.seat, cell) for cell in teleport_targets(s, s.seats[step.seat].place, step.n)]


def _as_now(maker: Maker) -> Maker:
    """The honest options read the character's current stats: printed plus the public
    changes (engine/locke/stats.py, ruling N100), as the claims are judged."""
    def current(g: Any, s: LockeState, step: Step, me: Character | None, k: Knowledge | None) -> list[Action]:
        if me is not None:
            p = s.seats[step.seat]
            me = stats.now(me, p.mods, p.proofs)
        return maker(g, s, step, me, k)
    return current


_MAKERS: dict[str, Maker] = {
    "cb_act": _act, "cb_sync": _answer("sync"), "cb_hench": _answer("hench"), "cb_escape": _answer("escape"),
    "cb_block": _answer("block"), "cb_defend": _answer("defend"), "cb_dur": _durability, "cb_sleep": _sleep,
    "cb_land": _land, "cb_equip": _equip, "cb_absorb": _absorb, "cb_suit_kind": _suit_kind, "cb_ship_effect": _ship_effect, "cb_trim": _trim,
    "cb_thought_sync": _thought_sync,
    "cb_mirror_block": _mirror_block,
}
MAKERS = {kind: _as_now(maker) for kind, maker in _MAKERS.items()}

"""The honest card and item options of a seat in a combat: what its turn
(engine/locke/combat/path.py ``TurnAction``) and its answers to an attack (``SyncQuestion``,
``HenchmanSync``, ``EscapeDecision``, ``BlockQuestion``, ``DefenceDecision``) offer.

With the seat's knowledge the list is honest: it names the true cards in its
hand, pays with its true level and power (stretching with mind checks only
what they do not cover, declaring its true mind), and offers items and kept
planet cards it truly has. Without knowledge it lists what the public record
allows. ``me`` is the character with its current stats (common.as_now). The
other questions' options are their steps' own ``legal``.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.locke.actions import Nop
from engine.locke.checks import MIN_MIND_DECLARATION
from engine.locke.combat import ball, disintegration, ebuster, items, kept
from engine.locke.combat.actions import Play, UseItem
from engine.locke.combat.claims import own_part
from engine.locke.combat.common import (
    RESIDUAL,
    WILDCARD,
    card_fits,
    fight_of,
    jam_floor,
    may_have,
    obstacle_jam,
    sleepers,
    targets,
)
from engine.locke.combat.model import DECK, Fighter, Strike
from engine.locke.components import Character, CombatCard, ComponentSet
from engine.locke.state import LockeState, zone_of
from engine.locke.steps import Rules

_STAND_INS: dict[int, tuple[str, ...]] = {}


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


def _hand(g: Rules, f: Fighter, k: Knowledge | None) -> list[tuple[int, str, str, CombatCard]]:
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


def _plays(g: Rules, s: LockeState, seat: int, index: int, me: Character | None, k: Knowledge | None,
           uses: tuple[str, ...], strike: Strike | None) -> list[Action]:
    """The cards fighter ``index`` (of ``seat``) may play for ``uses``."""
    fight = fight_of(s)
    f = fight.fighters[index]
    field = kept.levels(g, s, seat, f.field_card, k, me, "esp-field")
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
                if not sleepers(s, fight, index):
                    continue
            level = (me.level if me is not None else 0) if use == "telepathy" else 0
            for stretch, mind in _costs(me, f, card, free):
                out += [Play(seat, use, handle, cid, acts_as, t, stretch, mind, level) for t in aims]
            if f.ball_out:
                continue  # seed 000 3.1.3: knocked out by an absorb ball, its field has stopped
            if f.field and not free and card.level and kept.may_fit(field, lambda top: top >= card.level):
                out += [Play(seat, use, handle, cid, acts_as, t, 0, 0, level, True) for t in aims]
            if use == "telepathy":  # seed 000 3.2.4: with an industrial district, the check at level 6
                for h, _ in kept.usable(g, s, seat, k, "industrial"):
                    out += [Play(seat, use, handle, cid, acts_as, t, 0, 0, 6, False, h) for t in aims]
    return out


def _planet_answers(g: Rules, s: LockeState, seat: int, k: Knowledge | None, use: str) -> list[Action]:
    """Kept planet cards answering the attack in flight (seed 000 3.1.3): the subspace field and
    the Lafnor mirror in the escape phase, the absorb ball in the defence phase."""
    strike = fight_of(s).strike
    if strike is None:
        return []
    out: list[Action] = []
    if use == "escape":
        if strike.level <= 7:
            out += [UseItem(seat, "subspace-field", -1, h, c) for h, c in kept.usable(g, s, seat, k, "subspace-field")]
        out += [UseItem(seat, "lafnor-mirror", -1, h, c) for h, c in kept.usable(g, s, seat, k, "lafnor-mirror")
                if kept.level_of(g, c) >= strike.level]
    if use == "defend":
        out += [UseItem(seat, "absorb-ball", -1, h, c) for h, c in kept.usable(g, s, seat, k, "absorb-ball")
                if ball.ball_stops(g, c, strike)]
    return out


def _turn_cards(g: Rules, s: LockeState, seat: int, index: int, k: Knowledge | None, aims: tuple[int, ...],
                normal: bool = True) -> list[Action]:
    """The turn's planet-card uses (seed 000): the cruiser and the geoid bomb (special attacks,
    once a round each), the slum (swap three combat cards) and the ESP controller."""
    fight = fight_of(s)
    f = fight.fighters[index]
    out: list[Action] = []
    for item, kind in items.PLANET_SPECIAL.items():
        for h, c in kept.usable(g, s, seat, k, kind):
            if f"{item}:{h}" not in f.specials:
                out += [UseItem(seat, item, t, h, c) for t in aims]
    if len(f.hand) >= 3 and len(zone_of(s, DECK)) >= 3:
        out += [UseItem(seat, "slum", -1, h, c, f.hand[:3]) for h, c in kept.usable(g, s, seat, k, "slum")]
    if normal and not f.nike_on:  # KMC 10.4.1: the planet field's and mirror's escapes as the normal action (N214)
        for item in ("subspace-field", "lafnor-mirror"):
            out += [UseItem(seat, item, -1, h, c) for h, c in kept.usable(g, s, seat, k, item)]
    victims = [j for j in aims if fight.fighters[j].seat >= 0 and not fight.fighters[j].thought
               and fight.fighters[j].ctl_by < 0]
    out += [UseItem(seat, "esp-controller", j, h, c) for h, c in kept.usable(g, s, seat, k, "esp-controller")
            for j in victims]
    return out


def _items(s: LockeState, seat: int, me: Character | None, names: tuple[str, ...]) -> list[Action]:
    """Item answers to the attack in flight (mirror, subspace field, psycho-pod)."""
    strike = fight_of(s).strike
    out: list[Action] = []
    for item in names:
        if not may_have(me, item) or strike is None:
            continue
        if item in items.ESCAPES and strike.level > 7:
            continue
        if item == "psycho-pod" and (strike.level > 6 or strike.light_sword):
            continue
        out.append(UseItem(seat, item, -1))
    return out


def turn(g: Rules, s: LockeState, seat: int, index: int, me: Character | None, k: Knowledge | None) -> list[Action]:
    """Fighter ``index``'s turn (KMC 10.4): a pass, the special actions and free options, and its
    normal action while it has one."""
    fight = fight_of(s)
    f = fight.fighters[index]
    aims = targets(s, fight, index)
    if f.thought:  # KMC 10.6: a residual thought attacks with its firepower, or lets the turn go
        return [Nop(seat)] + [UseItem(seat, RESIDUAL, t) for t in aims]
    specials: list[Action] = [UseItem(seat, item, t) for item in _specials(f, me) for t in aims]
    if not f.nike_on and "subspace-field" not in f.specials and may_have(me, "subspace-field"):
        specials.append(UseItem(seat, "subspace-field", -1))  # Dr. Wong's irregular escape (N236)
    specials += ebuster.options(g, s, seat, index, me)  # seed 002 trap 11: free options of the turn
    specials += _turn_cards(g, s, seat, index, k, aims, normal=not f.acted)
    if f.acted:  # KMC 10.4.1: the normal action was taken, or it synced this round (N150, N235)
        return [Nop(seat)] + specials
    if f.nike_on:  # KMC 2.3.2: Nike's attack replaces every card action
        return [Nop(seat)] + specials + [UseItem(seat, "nike", t) for t in aims]
    mirror = [UseItem(seat, "lafnor-mirror", -1)] if may_have(me, "lafnor-mirror") else []  # KMC 10.4.1 (N236)
    return [Nop(seat)] + specials + mirror + _plays(g, s, seat, index, me, k,
                                                    ("attack", "flee", "illusion", "telepathy"), None)


def _specials(f: Fighter, me: Character | None) -> list[str]:
    """The character card's specials still free this round (KMC 10.4.2): each once, and as many
    as it has kinds; "ship" may announce any of them (notes 1-2, N226)."""
    owned = [item for item in items.SPECIALS if may_have(me, item)]
    if sum(1 for k in f.specials if k in items.SPECIALS) >= len(owned):
        return []
    return [item for item in items.SPECIALS if item not in f.specials and (item in owned or (item == "ship" and owned))]


def answers(use: str, g: Rules, s: LockeState, seat: int, index: int, me: Character | None,
            k: Knowledge | None) -> list[Action]:
    """Fighter ``index``'s answers to the attack in flight for ``use`` (sync, hench, escape, block,
    defend): a pass, its disintegration (KMC 10.7.1: an option of the target's escape decision,
    N180), items and kept planet cards, and cards."""
    extra = {"escape": items.ESCAPES, "defend": items.DEFENCES}.get(use, ())
    power = disintegration.options(seat, me) if use == "escape" and disintegration.offered(g, s, seat) else []
    if use != "block" and use != "hench" and fight_of(s).fighters[index].nike_on:
        return [Nop(seat)] + power
    planet = _planet_answers(g, s, seat, k, use) if use in ("escape", "defend") else []
    return [Nop(seat)] + power + _items(s, seat, me, extra) + planet + _plays(g, s, seat, index, me, k, (use,),
                                                                              fight_of(s).strike)

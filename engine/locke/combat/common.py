"""Small helpers every combat module shares: reading and writing the fight,
who may be attacked or put to sleep, an obstacle's face-up plays, and the card rules that
do not depend on a step."""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.locke import stats
from engine.locke.combat.model import IN, Fight, Fighter, Obstacle, Strike
from engine.locke.components import Character, CombatCard, ComponentError, Grant
from engine.locke.state import LockeState, log
from engine.locke.steps import Rules

WILDCARD = "combat-wildcard"
#: Obstacle traits (seed 002 chart notes; engine/locke/chart_data.py).
HIT_ALL = "one-attack-hits-all"
COMBINED = "combined-fire"
MACHINE = "machine"
NO_SLEEP = "ignores-hallucination"


def fight_of(s: LockeState) -> Fight:
    assert s.combat is not None and isinstance(s.combat.detail, Fight)
    return s.combat.detail


def put(s: LockeState, fight: Fight) -> LockeState:
    assert s.combat is not None
    return s._replace(combat=s.combat._replace(detail=fight))


def with_fighter(fight: Fight, index: int, fighter: Fighter) -> Fight:
    fighters = list(fight.fighters)
    fighters[index] = fighter
    return fight._replace(fighters=tuple(fighters))


def with_strike(s: LockeState, strike: Strike | None) -> LockeState:
    return put(s, fight_of(s)._replace(strike=strike))


def jammer_on(fight: Fight, f: Fighter) -> bool:
    """A seat's ESP jammer is on ``f`` and works: its owner is not knocked out by an absorb
    ball (seed 000 3.1.3: the knocked-out fighter's jammer and field stop, its suit stays on)."""
    return f.jam_owner >= 0 and not any(x.seat == f.jam_owner and x.ball_out for x in fight.fighters)


def obstacle_jam(fight: Fight, f: Fighter, escape: bool = False) -> int:
    """The level of the obstacles' ESP jammers on ``f`` now (KMC 10.10, N156; 0: none), read from
    each jamming obstacle as it is at this moment (N238): a jammer broken by a stronger attack
    (N184), lost with a policeman or by the super E-buster's damage, stopped by an absorb ball's
    knock-out (N206), or whose obstacle has left the fight stops nothing more. ``escape``: the
    super E-buster's instead, which stops escape cards only (seed 002 trap 13, N191)."""
    level = 0
    for i in f.jammed_by:
        source = fight.fighters[i]
        ob = source.ob
        if ob is None or source.ball_out or not active(fight, i):
            continue
        if ("jammer-vs-escape-only" in ob.traits) == escape:
            level = max(level, ob.jammer)
    return level


def jam_floor(fight: Fight, f: Fighter) -> int:
    """Cards at or below this level are known to be stopped by the seat's jammer on ``f``
    (KMC 10.10: a known level may not even be tried; 0: nothing known, or no working jammer).
    With :func:`jam_asks` the one reading of what is known of a hidden-level jammer; what is
    learnt is recorded by engine/locke/combat/breakage.py (``Source.learn``)."""
    return f.jam_known if jammer_on(fight, f) else 0


def jam_asks(fight: Fight, f: Fighter, card: CombatCard) -> bool:
    """Does a card ``f`` plays wait for its jammer's owner? A working seat's jammer, a card other
    than contact telepathy, and an answer not known already: a card at or above a level that
    got through before (``jam_through``) just works (KMC 10.10)."""
    return (jammer_on(fight, f) and card.type != "contact-telepathy"
            and not (f.jam_through and card.level >= f.jam_through))


def index_of_seat(fight: Fight, seat: int) -> int:
    for i, f in enumerate(fight.fighters):
        if f.seat == seat:
            return i
    return -1


def active(fight: Fight, index: int) -> bool:
    """Still fighting: not asleep, not escaped, not dead (and an obstacle with members left)."""
    f = fight.fighters[index]
    if f.state != IN:
        return False
    return f.ob is None or any(d > 0 for d in f.members)


def seat_index(fight: Fight, seat: int) -> int:
    """The fighter index of ``seat`` (a seat fights as one fighter at most)."""
    return next(i for i, f in enumerate(fight.fighters) if f.seat == seat)


def alert(fight: Fight, index: int) -> bool:
    """Still fighting and not knocked out, so it may act and answer: a knocked-out fighter (geoid
    bomb, subspace field, Nike, absorb ball) does nothing until it wakes, KMC 2.3.1-2.3.2 and seed
    000 3.1.3, but stays a target and its body takes what reaches it (ruling N162)."""
    return active(fight, index) and not fight.fighters[index].fainted


def can_be_attacked(fight: Fight, index: int) -> bool:
    """KMC 10.6: the illusion's sleepers cannot be attacked, nor what has no durability (a
    residual thought); everyone else still in can."""
    return active(fight, index) and not fight.fighters[index].thought


def player(f: Fighter) -> bool:
    """A seat fighting with its character (cards, items, declarations), not a residual thought."""
    return f.seat >= 0 and not f.thought


#: The item name of a residual thought's attack (``UseItem``), KMC 10.6.
RESIDUAL = "residual-thought"


def targets(s: LockeState, fight: Fight, attacker: int) -> tuple[int, ...]:
    """Fighters ``attacker`` may attack or touch: another party, still in; when someone
    with the attacker's silhouette is among them, only those (KMC 10.6)."""
    me = fight.fighters[attacker]
    out = tuple(j for j, f in enumerate(fight.fighters)
                if j != attacker and f.party != me.party and can_be_attacked(fight, j))
    if me.seat >= 0:
        face = s.seats[me.seat].silhouette
        same = tuple(j for j in out if fight.fighters[j].seat >= 0 and s.seats[fight.fighters[j].seat].silhouette == face)
        if same:
            return same
    return out


def effective(g: Rules, card: str, acts_as: str) -> CombatCard:
    """The card a play counts as: itself, or what the wildcard stands for (KMC 5.5)."""
    try:
        real = g.components.combat_card(card)
        if real.id == WILDCARD:
            if not acts_as or acts_as == WILDCARD:
                raise IllegalAction("say which combat card the wildcard stands for", rule="locke.5.5")
            return g.components.combat_card(acts_as)
    except ComponentError as err:
        raise IllegalAction(f"there is no combat card {card!r} / {acts_as!r}", rule="locke.5") from err
    if acts_as:
        raise IllegalAction("only the wildcard stands for another card; leave acts_as empty", rule="locke.5.5")
    return real


def is_light_sword(card: CombatCard) -> bool:
    return card.weapon == "light-sword"


def is_teleport(card: CombatCard) -> bool:
    return "teleport-block" in card.tags


def is_illusion(card: CombatCard) -> bool:
    return "puts-to-sleep" in card.tags


def card_fits(card: CombatCard, use: str, strike: Strike | None) -> str:
    """Why ``card`` cannot be played for ``use`` against ``strike`` ("" when it can)."""
    level = strike.level if strike is not None else 0
    if use == "attack":
        return "" if card.type == "attack" else "attack with an attack card"
    if use == "hench" and strike is not None and strike.escaper >= 0:
        top = min(2, strike.escape_level - strike.hench_escape)  # at or below the master's own teleport
        ok = is_teleport(card) and card.level <= top
        return "" if ok else (f"a henchman syncs a teleport with a teleport card of level {top} or less "
                              "(2 at most, and not above the teleport's own level; KMC 10.8, 10.8.3)")
    if use in ("sync", "hench"):
        if card.type != "attack" or is_light_sword(card):
            return "sync an attack with an attack card other than a light sword (KMC 10.8)"
        assert strike is not None
        base = strike.level - len(strike.syncers) - strike.hench_level  # the attack card's own level
        top = min(base, 2) if use == "hench" else base
        return "" if card.level <= top else f"a sync card's level must be at most {top} (KMC 10.8)"
    if use == "escape":
        assert strike is not None
        if is_teleport(card) or is_illusion(card):
            if is_illusion(card) and strike.machine:
                return "an illusion cannot answer a machine's attack (KMC 10.7.2)"
            return "" if card.level >= level else f"an escape must be at least the attack's level {level} (KMC 10.7.2)"
        return "escape with a teleport or an illusion card"
    if use == "defend":
        assert strike is not None
        if card.type != "defence":
            return "defend with a defence card"
        if strike.light_sword:
            return "no defence card stops a light sword (KMC 5.1)"
        return "" if card.level >= level else f"a defence must be at least the attack's level {level} (KMC 10.7.3)"
    if use in ("block", "flee"):
        return "" if is_teleport(card) else "use a teleport card"
    if use == "illusion":
        return "" if is_illusion(card) else "use an illusion card"
    if use == "telepathy":
        return "" if card.type == "contact-telepathy" else "use a contact-telepathy card"
    return f"unknown use {use!r}"


def grant_int(grant: Grant, key: str, default: int) -> int:
    """An integer parameter of an item or ability on a card (its default when absent)."""
    value = grant.params.get(key, default)
    return value if isinstance(value, int) else default


def item_level(character: Character, item: str) -> int:
    """The best level of ``item`` on the card (-1: the card has none)."""
    return max((grant_int(g, "level", 0) for g in character.items_of(item)), default=-1)


def henchmen_of(character: Character) -> int:
    return sum(grant_int(g, "count", 1) for g in character.items_of("henchman"))


def power_left(fighter: Fighter) -> int:
    """An obstacle's ESP power left (a large number for the espers' infinite power)."""
    ob = fighter.ob
    if ob is None or ob.power < 0:
        return 1_000_000
    return ob.power - fighter.spent


def mark_attacked(s: LockeState) -> LockeState:
    """Mark that this round saw an attack (KMC 10.3.5)."""
    return put(s, fight_of(s)._replace(attacked=True))


def parties_left(fight: Fight) -> int:
    """Parties still fighting; residual thoughts keep no combat going (KMC 10.3.5)."""
    return len({f.party for i, f in enumerate(fight.fighters) if active(fight, i) and not f.thought})


def sleepers(s: LockeState, fight: Fight, user: int) -> tuple[int, ...]:
    """Everyone still in (but the user) whom an illusion can put to sleep: every enemy but
    machines and obstacles immune to hallucination (KMC 5.3.2, seed 002), and the players able
    to act: a knocked-out seat is not "行動可能" and answers nothing (KMC 5.3.2, N162, N237),
    while a knocked-out obstacle is still an enemy the user must put to sleep (its check is the
    engine's, N155)."""
    out = []
    for j, f in enumerate(fight.fighters):
        if j == user or not active(fight, j) or f.thought or (f.seat >= 0 and not alert(fight, j)):
            continue
        if f.ob is not None and (MACHINE in f.ob.traits or NO_SLEEP in f.ob.traits):
            continue
        out.append(j)
    return tuple(out)


def gear_left(s: LockeState, seat: int, kind: str) -> int | None:
    """What is left of the seat's character-card item ``kind`` after earlier combats (KMC 2.3.2):
    its durability left, 0 when broken, None when it is whole (Seat.gear)."""
    return dict(s.seats[seat].gear).get(kind)


def whole_or(s: LockeState, seat: int, kind: str, full: int) -> int:
    """The durability the item ``kind`` brings to this combat: what earlier combats left, else ``full``."""
    left = gear_left(s, seat, kind)
    return full if left is None else left


def wear(s: LockeState, seat: int, kind: str, left: int) -> LockeState:
    """The seat's character-card item ``kind`` now has ``left`` durability (0: broken), and keeps
    it into the next combats (KMC 2.3.2: a suit's durability never recovers, a broken item is
    gone until the character dies and comes back, engine/locke/fate.py revive)."""
    p = s.seats[seat]
    gear = tuple(sorted([(k, v) for k, v in p.gear if k != kind] + [(kind, max(0, left))]))
    seats = list(s.seats)
    seats[seat] = p._replace(gear=gear)
    return s._replace(seats=tuple(seats))


def constant(g: Rules, item: str, key: str, default: int = 0) -> int:
    """A fixed number of an item (assets/locke/characters.json), so no rule number lives twice."""
    value = g.components.catalogue.items[item].constants.get(key, default)
    return value if isinstance(value, int) else default


def as_now(s: LockeState, seat: int, me: Character | None) -> Character | None:
    """The seat's character with its current stats: printed plus the public changes
    (engine/locke/stats.py, ruling N100), as its claims are judged, so the honest options
    read them too."""
    if me is None:
        return None
    p = s.seats[seat]
    return stats.now(me, p.mods, p.proofs)


# --- the resonance-tree forest (seed 002 trap 4; ruling N187) ---------------------------------------

#: The cause of a combat in the resonance-tree forest (its random combat, engine/locke/traps.py).
FOREST = "random-combat:forest"


def forest_due(s: LockeState, fight: Fight, index: int, level: int) -> Fight:
    """In the forest every combat card used hurts its user with its level as firepower (seed 002);
    the check is made once the action the card was played in has resolved (N187)."""
    if s.combat is None or s.combat.cause != FOREST or level <= 0:
        return fight
    return fight._replace(forest=fight.forest + ((index, level),))


def spend_face_up(s: LockeState, index: int, handle: int, use: str, target: int = -1,
                  level: int = 0) -> tuple[LockeState, str]:
    """An obstacle plays one of its face-up cards (no claim: everyone sees it); ``level`` is the
    card's (for the resonance forest)."""
    fight = fight_of(s)
    f = fight.fighters[index]
    k = f.hand.index(handle)
    card = f.faces[k]
    f = f._replace(hand=f.hand[:k] + f.hand[k + 1:], faces=f.faces[:k] + f.faces[k + 1:])
    fight = with_fighter(fight, index, f)._replace(used=fight.used + (handle,))
    s = put(s, forest_due(s, fight, index, level))
    assert f.ob is not None
    return log(s, "cb-play", -1, card, card, use, target, f.ob.id), card


def may_have(me: Character | None, item: str) -> bool:
    """May the seat's character carry ``item``? (``me`` None: its card is not known here, so it may.)"""
    return me is None or bool(me.items_of(item))


def damage_roller(s: LockeState) -> int:
    """KMC 10.7.4 (3): the attacker rolls the damage dice, so a seat that attacked may re-roll
    them with a residential district (seed 000 3.2.4, ruling N208); an obstacle's are the engine's."""
    strike = fight_of(s).strike
    return -1 if strike is None else fight_of(s).fighters[strike.attacker].seat


def number(ob: Obstacle | None, item: str) -> int:
    """A random character's (obstacle's) card number for ``item`` (-1: the obstacle has no such item)."""
    if ob is None:
        return -1
    return next((n for i, n in ob.items if i == item), -1)

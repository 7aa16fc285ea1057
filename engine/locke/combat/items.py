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

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.pending import Chance, Decision, DiceRolled, Pending
from engine.locke.actions import Nop
from engine.locke import charts
from engine.locke import claims as ck
from engine.locke.chart_data import FIREPOWER
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Absorb, Equip, JamVeto, UseItem
from engine.locke.combat.common import RESIDUAL, active, fight_of, mark_attacked, put, targets, with_fighter, with_strike
from engine.locke.combat.model import Strike
from engine.locke.damage import resolve_damage
from engine.locke.state import LockeState, Step, advance, claimed, log

SUITS = ("energy-suit", "powered-suit", "hell-diver-suit")
SPECIALS = ("ship", "beam-cannon", "geoid-bomb")
ESCAPES = ("lafnor-mirror", "subspace-field")
DEFENCES = ("psycho-pod",)
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


def _seat_fighter(s: LockeState, seat: int) -> int:
    return next(i for i, f in enumerate(fight_of(s).fighters) if f.seat == seat)


# --- declarations before the first initiative (KMC 10.3.2) -------------------------------------


def _on_equip(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Equip)
    if not 0 <= action.henchmen <= MAX_HENCHMEN or (action.suit and action.suit not in SUITS):
        raise IllegalAction(f"declare 0..{MAX_HENCHMEN} henchmen and a suit among {sorted(SUITS)} (or none)",
                            rule="locke.10.3.2")
    fight = fight_of(s)
    f = fight.fighters[step.n]
    if action.henchmen:
        s = _claim(s, step.seat, "henchman", action.henchmen)
    if action.suit:
        s = _claim(s, step.seat, action.suit)
    if action.field:
        s = _claim(s, step.seat, "esp-field")
    if action.nike and not 2 <= action.nike <= 12:
        raise IllegalAction("declare Nike's check value 2..12 (or 0: no Nike)", rule="locke.2.3.2")
    if action.nike and action.suit:
        raise IllegalAction("a suit cannot be worn with Nike", rule="locke.2.3.2")
    victims = targets(s, fight, step.n)
    if action.jammer != -1 and action.jammer not in victims:
        raise IllegalAction(f"put the jammer on one of fighters {list(victims)}", rule="locke.10.10")
    if action.jammer != -1:
        s = _claim(s, step.seat, "esp-jammer")
    if action.nike:
        s = _claim(s, step.seat, "nike")
        claim = ck.make(step.seat, s.step_no, cc.NIKE, (s.seats[step.seat].character,), action.nike, "locke.2.3.2")
        s = s._replace(**claimed(s, claim))
    f = f._replace(henchmen=f.henchmen + action.henchmen, suit=action.suit,
                   suit_left=constant(g, action.suit, "durability") if action.suit else 0, field=action.field,
                   nike_left=constant(g, "nike", "durability") if action.nike else 0, nike_check=action.nike)
    fight = with_fighter(fight_of(s), step.n, f)
    if action.jammer != -1:
        fight = with_fighter(fight, action.jammer, fight.fighters[action.jammer]._replace(jam_owner=step.seat))
    s = put(s, fight)
    if action.henchmen or action.suit or action.field or action.jammer != -1 or action.nike:
        s = log(s, "cb-equip", step.seat, action.henchmen, action.suit, action.field, action.jammer, action.nike)
    return advance(s)


# --- a player's ESP jammer of hidden level (KMC 10.10) -------------------------------------------


def _on_jam_veto(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """The jammer's owner stops the card (a claim on its jammer's level: the play is taken
    back, card and power returned, and the player chooses again) or lets it work."""
    assert isinstance(action, JamVeto)
    fight = fight_of(s)
    level, drop, kind, n = step.arg.split("|")
    if not action.veto or fight.before is None:
        return advance(put(s, fight._replace(before=None)))
    claim = ck.make(step.seat, s.step_no, cc.JAMMER, (s.seats[step.seat].character,), int(level), "locke.10.10")
    back = fight.before
    victim = back.fighters[step.n]
    back = with_fighter(back, step.n, victim._replace(jam_known=max(victim.jam_known, int(level))))
    s = log(put(s._replace(**claimed(s, claim)), back), "cb-jam-veto", step.seat, victim.seat, int(level))
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
    f = f._replace(nike_on=on, fainted=f.fainted or total >= faint)
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
    return advance(log(s, "cb-item", step.seat, "nike", target), Step("cb_hit", -1))


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
    if action.item == "nike":
        options = targets(s, fight, me)
        if not f.nike_on or action.target not in options:
            raise IllegalAction(f"attack with Nike (in use this round) one of fighters {list(options)}", rule="locke.2.3.2")
        return _on_nike_attack(g, s, step, me, action.target)
    if action.item not in SPECIALS or action.item in f.specials:
        raise IllegalAction(f"a special attack ({', '.join(SPECIALS)}) is used once a round", rule="locke.10.4.2")
    options = targets(s, fight, me)
    if action.target not in options:
        raise IllegalAction(f"pick a target among fighters {list(options)}", rule="locke.10.6")
    s = _claim(s, step.seat, action.item)
    s = put(s, with_fighter(fight_of(s), me, f._replace(specials=f.specials + (action.item,))))
    s = log(s, "cb-item", step.seat, action.item, action.target)
    again = Step("cb_act", step.seat, n=me)
    if action.item == "ship":
        return advance(s, Step("cb_ship", step.seat, n=me, arg=str(action.target)), again)
    if action.item == "beam-cannon":
        s = mark_attacked(with_strike(s, Strike(me, action.target, "", 4, 0)))
        return advance(s, Step("cb_item_fp", -1, n=me), Step("cb_strike", -1, arg="ok"), again)
    return advance(s, Step("cb_item_roll", step.seat, n=me, arg=f"geoid-bomb:{action.target}"), again)


def _pending_ship(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.ship-support", (6, 6))


def _on_ship(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Ship-support chart (seed 002): bombs, a beam cannon, nothing, or a misfire on oneself."""
    assert isinstance(action, DiceRolled)
    outcome = charts.resolve("ship-support", action.faces)
    s = log(s, "cb-ship", step.seat, outcome.entry)
    target = int(step.arg)
    if outcome.entry == "no-support" or not active(fight_of(s), target):
        return advance(s)
    if outcome.entry == "misfire":  # its beam cannon at itself, straight to the hit
        s = mark_attacked(with_strike(s, Strike(step.n, step.n, "", 4, 0, machine=True, escape_tried=True)))
        return advance(s, Step("cb_item_fp", -1, n=step.n), Step("cb_hit", -1))
    attack = outcome.attacks[0]
    s = mark_attacked(with_strike(s, Strike(step.n, target, "", int(attack.level or 0), int(attack.firepower or 0),
                                            machine=True)))
    fp = (Step("cb_item_fp", -1, n=step.n),) if attack.firepower is None else ()
    return advance(s, *fp, Step("cb_strike", -1, arg="ok"))


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


def _pending_item_roll(g: Any, s: LockeState, step: Step) -> Pending:
    item = step.arg.partition(":")[0]
    return Chance(f"locke.combat.{item}", DICE[item])


def _on_item_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    item, _, target = step.arg.partition(":")
    best, faint = _limits(g, item)
    total = sum(action.faces)
    ok = total <= best
    s = log(s, "cb-item-roll", step.seat, item, total, ok)
    fight = fight_of(s)
    if total >= faint:  # knocked out by an unexplained high frequency (KMC 2.3.1): a target still
        f = fight.fighters[step.n]
        s = log(put(s, with_fighter(fight, step.n, f._replace(fainted=True, acted=True))), "cb-fainted", step.seat, item)
    if not ok:
        return advance(s)
    if item == "geoid-bomb":
        t = int(target)
        if not active(fight_of(s), t):
            return advance(s)
        s = mark_attacked(with_strike(s, Strike(step.n, t, "", constant(g, item, "level"), constant(g, item, "attack"))))
        return advance(s, Step("cb_strike", -1, arg="ok"))
    if item == "psycho-pod":
        return advance(log(with_strike(s, None), "cb-defend", step.seat, item))
    # an escape: the mirror cannot be blocked (KMC 2.3.1); the subspace field is treated alike
    return advance(with_strike(s, None), Step("cb_flee_roll", step.seat, n=step.n))


# --- suits (KMC 2.3.2) -------------------------------------------------------------------------------


def suit_steps(s: LockeState, target: int) -> tuple[Step, ...]:
    """The steps a hit on a suited seat takes instead of the body ((): no suit in the way)."""
    fight = fight_of(s)
    strike = fight.strike
    f = fight.fighters[target]
    if strike is None:
        return ()
    if f.nike_on and f.nike_left > 0:
        return (Step("cb_suit_damage", -1, n=target, arg="nike"),)
    if not f.suit or strike.reflected:
        return ()
    if f.suit == "energy-suit":
        return (Step("cb_reflect", -1, n=target),)
    if f.suit == "powered-suit":
        return (Step("cb_absorb", f.seat, n=target),)
    return (Step("cb_suit_damage", -1, n=target),)


def _pending_reflect(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.reflection", (6, 6))


def _on_reflect(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """E-suit: the attacker makes a level check at its attack's level; on a failure the attack
    is thrown back at it, on a success it hits the suit."""
    assert isinstance(action, DiceRolled)
    strike = fight_of(s).strike
    assert strike is not None
    total = sum(action.faces)
    if total <= strike.level:
        return advance(log(s, "cb-reflect", fight_of(s).fighters[step.n].seat, total, False), Step("cb_suit_damage", -1, n=step.n))
    back = strike._replace(attacker=strike.target, target=strike.attacker, reflected=True)
    s = log(with_strike(s, back), "cb-reflect", fight_of(s).fighters[step.n].seat, total, True)
    return advance(s, Step("cb_hit", -1))


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
    if nike:
        f = f._replace(nike_left=max(0, left), nike_on=f.nike_on and left > 0)
    else:
        f = f._replace(suit=f.suit if left > 0 else "", suit_left=max(0, left))
    s = put(s, with_fighter(fight, step.n, f))
    s = log(s, "cb-suit-hit", f.seat, "nike" if nike else fight.fighters[step.n].suit, cells, first, max(0, left))
    if turn:  # N5: the suit took the hit, the wearer still takes the transformation check
        from engine.locke import fate

        s = fate.transformation_check(g, s, f.seat)
    return advance(with_strike(s, None))


def _on_absorb(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Absorb)
    strike = fight_of(s).strike
    assert strike is not None
    claim = ck.make(step.seat, s.step_no, cc.PSUIT, (s.seats[step.seat].character,), [strike.level, action.absorb],
                    "locke.2.3.2")
    s = s._replace(**claimed(s, claim))
    if action.absorb:
        return advance(log(with_strike(s, None), "cb-suit-absorbs", step.seat, strike.level))
    fight = fight_of(s)
    f = fight.fighters[step.n]
    s = log(put(s, with_fighter(fight, step.n, f._replace(suit=""))), "cb-suit-broken", step.seat, strike.level)
    return advance(s, Step("cb_dur", step.seat, n=step.n), Step("cb_damage", -1, n=step.n))


def _decision(g: Any, s: LockeState, step: Step) -> Pending:
    return Decision(step.seat, "locke." + step.kind)


PENDING = {
    "cb_equip": _decision, "cb_jam_ask": _decision, "cb_thought_sync": _decision, "cb_nike": _pending_nike, "cb_absorb": _decision, "cb_ship": _pending_ship, "cb_item_fp": _pending_item_fp,
    "cb_item_roll": _pending_item_roll, "cb_reflect": _pending_reflect, "cb_suit_damage": _pending_suit_damage,
}
HANDLERS = {
    ("cb_equip", Equip): _on_equip, ("cb_act", UseItem): _on_special,
    ("cb_escape", UseItem): _on_answer(ESCAPES), ("cb_defend", UseItem): _on_answer(DEFENCES),
    ("cb_absorb", Absorb): _on_absorb, ("cb_ship", DiceRolled): _on_ship, ("cb_item_fp", DiceRolled): _on_item_fp,
    ("cb_item_roll", DiceRolled): _on_item_roll, ("cb_reflect", DiceRolled): _on_reflect,
    ("cb_suit_damage", DiceRolled): _on_suit_damage, ("cb_jam_ask", JamVeto): _on_jam_veto,
    ("cb_nike", DiceRolled): _on_nike, ("cb_thought_sync", UseItem): _on_thought_sync,
    ("cb_thought_sync", Nop): _on_thought_pass,
}

"""What a turn does, and the way an attack travels (KMC 10.4-10.9, fig. 10.2, ch. 5).

A seat's turn (``cb_act``) holds one normal action: attack, flee by teleport,
an illusion, a contact telepathy; the special actions (engine/locke/combat/items.py)
come before or after it, the decision coming back after each (``cb_turn_on``,
N235) until a pass. An attack then runs the steps of fig. 10.2, each a step in
the queue:

    cb_strike        the attack stands (after any mind checks that stretch its level)
    cb_sync*         seats whose turn has not come may sync (KMC 10.8.1)
    cb_hench         the attacker's henchmen may sync at level 2 or less (KMC 10.8)
    cb_escape_phase  the target may escape: teleport (then blocks, KMC 10.9) or illusion
    cb_defence_phase the target may defend with a defence card (not against a light sword)
    cb_hit           the target declares its durability (a claim), the damage dice roll

Every card played is a claim (the handle holds that card; the character's
level and power cover the level it uses); a card whose level is above what
the character can use needs mind checks (``cb_mind``), each of which must
succeed, or the card is spent for nothing (KMC 10.5.1).
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.pending import CardsRevealed, CardsShownTo, Chance, DiceRolled, HiddenOp, Pending
from engine.locke.state import seat_decision
from engine.locke import claims as ck
from engine.locke import fate
from engine.locke import planet_cards as pc
from engine.locke.actions import Land, Nop
from engine.locke.checks import MIN_MIND_DECLARATION
from engine.locke.combat import claims as cc
from engine.locke.combat import breakage, items
from engine.locke.combat.actions import Durability, Play, Sleep
from engine.locke.combat.common import (
    HIT_ALL,
    MACHINE,
    NO_SLEEP,
    active,
    alert,
    card_fits,
    mark_attacked,
    effective,
    obstacle_jam,
    fight_of,
    is_illusion,
    is_light_sword,
    jam_asks,
    jam_floor,
    player,
    put,
    seat_index,
    targets,
    with_fighter,
    with_strike,
)
from engine.locke.combat.model import ASLEEP, DEAD, DECK, ESCAPED, Fight, Fighter, Strike
from engine.locke.components import CombatCard
from engine.locke.damage import resolve_damage
from engine.locke.state import NO_SEAT, LockeState, Step, advance, claimed, log, untyped, with_seat
from engine.locke.steps import LockeStep

RULES = {
    "attack": "locke.10.6", "sync": "locke.10.8", "hench": "locke.10.8", "escape": "locke.10.7.2",
    "defend": "locke.10.7.3", "block": "locke.10.9", "flee": "locke.10.4.1", "illusion": "locke.5.3.2",
    "telepathy": "locke.5.4",
}


def _s(s: LockeState) -> Strike:
    strike = fight_of(s).strike
    assert strike is not None
    return strike


def play(g: Any, s: LockeState, index: int, action: Play, uses: tuple[str, ...],
         step: Step | None = None, drop: int = 1) -> tuple[LockeState, CombatCard, tuple[Step, ...]]:
    """Check a seat's card play and spend the card: the new state, the card it counts
    as, and the mind-check step to run first (if the level is stretched). ``drop``: how many
    steps the caller queues after these to carry the play on (a jammer's stop takes them back).
    Raises IllegalAction and changes nothing when the play does not fit."""
    fight = fight_of(s)
    f = fight.fighters[index]
    rule = RULES.get(action.use, "locke.10")
    if action.use not in uses:
        raise IllegalAction(f"here you may {' or '.join(uses)} with a card, or pass", rule=rule)
    if action.handle not in f.hand:
        raise IllegalAction("play one of the combat cards in your own hand", rule="locke.10.4.1")
    if action.planet != -1 and action.use != "telepathy":
        raise IllegalAction("only contact telepathy goes with an industrial district card", rule="locke.s000.3.2.4")
    card = effective(g, action.card, action.acts_as)
    why = card_fits(card, action.use, fight.strike)
    if why:
        raise IllegalAction(why, rule=rule)
    if f.nike_on and action.use != "block":
        raise IllegalAction("while you use Nike only teleport blocks take combat cards", rule="locke.2.3.2")
    if card.type != "contact-telepathy" and card.level <= jam_floor(fight, f):
        raise IllegalAction(f"the jammer on you is known to reach level {f.jam_known}: only cards above it "
                            "can work", rule="locke.10.10")
    jammed, jammed_escape = obstacle_jam(fight, f), obstacle_jam(fight, f, escape=True)
    if card.type != "contact-telepathy" and card.level <= jammed:
        raise IllegalAction(f"an ESP jammer of level {jammed} is on you: only cards above it work "
                            "(contact telepathy ignores jammers)", rule="locke.10.10")
    if action.use in ("escape", "flee") and card.level <= jammed_escape:
        raise IllegalAction(f"a jammer of level {jammed_escape} on you stops escape cards at or below it",
                            rule="locke.s002.trap.13")
    free = action.use == "hench" or card.type == "contact-telepathy"
    if action.field and (free or not f.field or action.stretch):
        raise IllegalAction("only a declared ESP field pays for a card, and without mind checks", rule="locke.2.3.2")
    if action.field and f.ball_out:
        raise IllegalAction("knocked out by an absorb ball, your ESP field has stopped until you wake",
                            rule="locke.s000.3.1.3")
    if free and (action.stretch or action.mind):
        raise IllegalAction("this card costs no power and needs no mind checks", rule="locke.10.5.2")
    if not 0 <= action.stretch <= card.level:
        raise IllegalAction(f"stretch 0..{card.level} levels with mind checks", rule="locke.10.5.1")
    if action.stretch and action.mind < MIN_MIND_DECLARATION:
        raise IllegalAction(f"declare a mind of {MIN_MIND_DECLARATION} or more for the mind checks", rule="locke.10.5.1")
    if not action.stretch and action.mind:
        raise IllegalAction("declare a mind only when you stretch the level", rule="locke.10.5.1")
    own = 0 if free or action.field else card.level - action.stretch
    ask: tuple[Step, ...] = ()
    if jam_asks(fight, f, card) and step is not None and action.use != "hench":
        ask = (jam_question(f, index, card.level, drop, step),)
        before = fight
    seat = f.seat
    character = s.seats[seat].character
    claims = [ck.make(seat, s.step_no, cc.CARD, (action.handle,), action.card, "locke.5")]
    if action.field and card.level:  # the field's hidden level reaches the card's (the character's or the card's)
        about = (f.field_card,) if f.field_card >= 0 else (character,)
        claims.append(ck.make(seat, s.step_no, cc.FIELD, about, card.level, "locke.2.3.2"))
        fight = breakage.learn(fight, index, "esp-field", f.field_card, card.level, True)
        f = fight.fighters[index]
    if action.stretch:  # KMC 10.5.1: the mind checks make up the shortfall only, so the own part is exact
        claims.append(ck.make(seat, s.step_no, cc.STRETCH, (character,), _ledger(s, seat, [own, f.spent]),
                              "locke.10.5.1"))
    elif own > 0:
        claims.append(ck.make(seat, s.step_no, cc.USE, (character,), _ledger(s, seat, [own, f.spent]), "locke.10.5.2"))
    if action.stretch:
        claims.append(fate.stat_claim(s, seat, "mind", "le", action.mind, "locke.10.5.1"))
    f = f._replace(hand=tuple(h for h in f.hand if h != action.handle), spent=f.spent + own)
    fight = forest_due(s, with_fighter(fight, index, f)._replace(used=fight.used + (action.handle,)), index,
                       card.level if action.use != "hench" else 0)
    if ask:
        fight = fight._replace(before=before)
    s = put(s._replace(**claimed(s, *claims)), fight)
    s = log(s, "cb-play", seat, action.card, card.id, action.use, action.target)
    mind = (Step("cb_mind", seat, n=action.stretch, arg=str(action.mind)),) if action.stretch else ()
    shown = (Step("cb_played", seat, n=action.handle),)  # KMC 10.4: a played card lies face up
    return s, card, shown + mind + ask  # face up, its mind checks, then the jammer's owner answers


def jam_question(f: Fighter, index: int, level: int, drop: int, step: Step) -> Step:
    """The jammer's owner answers the card fighter ``index`` plays (KMC 10.10): stopped, the play is
    taken back (the ``drop`` steps of its continuation with it) and ``step`` comes again."""
    return Step("cb_jam_ask", f.jam_owner, n=index, arg=f"{level}|{drop}|{step.kind}|{step.n}")


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


# --- the resonance-tree forest (seed 002 trap 4; ruling N187) ---------------------------------------

#: The cause of a combat in the resonance-tree forest (its random combat, engine/locke/traps.py).
FOREST = "random-combat:forest"


def forest_due(s: LockeState, fight: Fight, index: int, level: int) -> Fight:
    """In the forest every combat card used hurts its user with its level as firepower (seed 002);
    the check is made once the action the card was played in has resolved (N187)."""
    if s.combat is None or s.combat.cause != FOREST or level <= 0:
        return fight
    return fight._replace(forest=fight.forest + ((index, level),))


def forest_steps(s: LockeState) -> tuple[LockeState, tuple[Step, ...]]:
    """The forest's self-damage checks still due (taken before the next turn, and after the last)."""
    fight = fight_of(s)
    if not fight.forest:
        return s, ()
    steps = tuple(Step("cb_forest", -1, n=i, arg=str(level)) for i, level in fight.forest)
    return put(s, fight._replace(forest=())), steps


def _auto_forest(g: Any, s: LockeState, step: Step) -> LockeState:
    """The user's own damage check, straight to the body: a direct hit of its own (seed 002)."""
    fight = fight_of(s)
    if not active(fight, step.n):
        return advance(s)
    f = fight.fighters[step.n]
    s = log(with_strike(s, Strike(step.n, step.n, "", 0, int(step.arg), escape_tried=True, direct=True)),
            "cb-forest", f.seat if f.seat >= 0 else (f.ob.id if f.ob else ""), int(step.arg))
    return advance(s, Step("cb_hit", -1))


def _pending_played(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", DECK, (step.n,))


def _on_played(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A played card is turned face up for everyone (KMC 10.4; ruling N171): the claim that
    the handle holds the card named is judged from the public record from now on."""
    assert isinstance(action, CardsRevealed)
    return advance(s._replace(open_cards=s.open_cards + tuple(zip(action.handles, action.cards))))


def _index(s: LockeState, step: Step) -> int:
    return step.n



def _ledger(s: LockeState, seat: int, declared: Any) -> list[Any]:
    """A stat claim's value with the seat's public changes (engine/locke/combat/claims.py)."""
    p = s.seats[seat]
    return cc.stat_value(p.mods, p.proofs, declared)


# --- stretching the level with mind checks (KMC 10.5.1) -------------------------------------


def _pending_mind(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.mind", (6, 6) * step.n)


def _on_mind(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """All checks must pass; one failure and the card is spent for nothing (the next
    step, the play's continuation, is told ``failed``)."""
    assert isinstance(action, DiceRolled)
    mind = int(step.arg)
    totals = [action.faces[2 * k] + action.faces[2 * k + 1] for k in range(step.n)]
    ok = all(t <= mind for t in totals)
    s = log(s, "cb-stretch", step.seat, step.n, mind, totals, ok)
    if ok:
        return advance(s)
    nxt, rest = untyped(s.queue[1]), s.queue[2:]
    if nxt.kind == "cb_jam_ask":  # KMC 10.10: a try that failed; the jammer's owner passes it over in silence
        s = put(s, fight_of(s)._replace(before=None))
        nxt, rest = untyped(rest[0]), rest[1:]
    return s._replace(queue=(nxt._replace(arg="failed:" + nxt.arg.partition(":")[2]),) + rest)


def _ok(step: Step) -> bool:
    return not step.arg.startswith("failed")


def _value(step: Step) -> int:
    return int(step.arg.partition(":")[2] or 0)


# --- a seat's own turn (KMC 10.4) -----------------------------------------------------------


def _on_act_pass(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Nop)
    return advance(log(s, "cb-pass", step.seat))


def _on_act(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Play)
    fight = fight_of(s)
    me = step.n
    if fight.fighters[me].acted:
        raise IllegalAction("you synced an attack this round: your turn has no normal action left, only "
                            "special attacks and free options (or pass)", rule="locke.10.4.1")
    if action.use in ("attack", "telepathy"):
        options = targets(s, fight, me)
        if action.use == "telepathy":
            options = tuple(j for j in options if fight.fighters[j].seat >= 0)
        if action.target not in options:
            raise IllegalAction(f"pick a target among fighters {list(options)} (not your party; "
                                "only those with your silhouette when one is here)", rule=RULES[action.use])
    elif action.target != -1:
        raise IllegalAction("this use takes no target (-1)", rule=RULES.get(action.use, "locke.10"))
    if action.use == "illusion" and not sleepers(s, fight, me):
        raise IllegalAction("nobody here can fall asleep: the illusion cannot be used", rule="locke.5.3.2")
    if action.use == "telepathy":
        accepted = fate.check_range(g, s, step.seat, "level")  # the public ledger's bound (N222), not 7
        if action.planet < 0 and action.level not in accepted:  # an industrial district's level is its own
            raise IllegalAction(f"declare an ESP level {accepted.start}..{accepted.stop - 1} for the level check",
                                rule="locke.5.4")
    elif action.level:
        raise IllegalAction("declare a level only for contact telepathy", rule="locke.5.4")
    industrial: tuple[Step | LockeStep, ...] = ()
    if action.planet >= 0:  # seed 000 3.2.4: the industrial district makes the check at level 6
        industrial = items.industrial(g, s, step.seat, action)
    elif action.planet != -1:
        raise IllegalAction("name a kept industrial district card, or none (-1)", rule="locke.s000.3.2.4")
    s, card, mind = play(g, s, me, action, ("attack", "flee", "illusion", "telepathy"), step, drop=2)
    fight = fight_of(s)
    f = fight.fighters[me]
    s = put(s, with_fighter(fight, me, f._replace(acted=True)))
    rest = items.turn_on(step.seat, me)  # KMC 10.4: special actions may follow the normal action (N235)
    if action.use == "attack":
        strike = Strike(me, action.target, card.id, card.level, card.firepower, light_sword=is_light_sword(card),
                        field=action.field)
        s = mark_attacked(with_strike(s, strike))
        return advance(s, *mind, Step("cb_strike", -1, arg="ok"), rest)
    if action.use == "flee":
        s = with_strike(s, Strike(me, -1, card.id, 0, 0, escaper=me, escape_level=card.level, escape_tried=True))
        return advance(s, *mind, Step("cb_escaped", -1, n=me, arg="ok"), rest)
    if action.use == "illusion":
        return advance(s, *mind, Step("cb_illusion", -1, n=me, arg=f"ok:{card.level}"), rest)
    if industrial:
        s = items.claim_industrial(s, step.seat, action)
    elif action.level:
        claim = ck.make(step.seat, s.step_no, cc.TELEPATHY, (s.seats[step.seat].character,),
                        _ledger(s, step.seat, action.level), "locke.5.4")
        s = s._replace(**claimed(s, claim))
    return advance(s, *industrial, *mind, Step("cb_tele_roll", step.seat, n=action.target, arg=str(action.level)), rest)


# --- the attack stands: syncs (KMC 10.8) --------------------------------------------------------


def _auto_strike(g: Any, s: LockeState, step: Step) -> LockeState:
    strike = fight_of(s).strike
    if strike is None:
        return advance(s)
    if not _ok(step):
        return advance(log(with_strike(s, None), "cb-fizzle", strike.attacker, strike.card))
    fight = fight_of(s)
    attacker = fight.fighters[strike.attacker]
    steps: list[Step] = []
    syncable = strike.card != "" and not strike.light_sword
    if syncable:
        target_party = fight.fighters[strike.target].party
        for j in fight.order or range(len(fight.fighters)):
            f = fight.fighters[j]
            if (player(f) and j not in (strike.attacker, strike.target) and alert(fight, j) and not f.done
                    and not f.acted and f.party != target_party):
                steps.append(Step("cb_sync", f.seat, n=j))
        if attacker.seat >= 0 and attacker.henchmen:
            steps.append(Step("cb_hench", attacker.seat, n=attacker.henchmen))
    # KMC fig. 10.2: Jessica's disintegration phase comes before the escape phase (card attacks only)
    phase = (Step("cb_disint_phase", -1),) if strike.card and not strike.direct else ()
    return advance(s, *steps, *phase, Step("cb_escape_phase", -1))


def _on_sync(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Play)
    if action.target != -1 or action.level:
        raise IllegalAction("a sync names no target and no level", rule="locke.10.8")
    s, card, mind = play(g, s, step.n, action, ("sync",), step)
    fight = fight_of(s)
    s = put(s, with_fighter(fight, step.n, fight.fighters[step.n]._replace(acted=True)))
    return advance(s, *mind, Step("cb_synced", -1, n=step.n, arg=f"ok:{card.firepower}"))


def _auto_synced(g: Any, s: LockeState, step: Step) -> LockeState:
    strike = fight_of(s).strike
    if strike is None or not _ok(step):
        return advance(s)
    power = _value(step)
    strike = strike._replace(level=strike.level + 1, firepower=strike.firepower + power,
                             syncers=strike.syncers + (step.n,), sync_power=strike.sync_power + (power,))
    return advance(log(with_strike(s, strike), "cb-sync", fight_of(s).fighters[step.n].seat, strike.level, strike.firepower))


def _on_hench(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 10.8: a henchman syncs its master's attack or escape teleport at level 2 or less, for free."""
    assert isinstance(action, Play)
    fight = fight_of(s)
    me = seat_index(fight, step.seat)
    strike = _s(s)
    s, card, shown = play(g, s, me, action, ("hench",))
    if step.arg == "escape":
        strike = strike._replace(escape_level=strike.escape_level + 1, hench_escape=strike.hench_escape + 1)
        s = log(with_strike(s, strike), "cb-sync", step.seat, "henchman-teleport", strike.escape_level)
    else:
        strike = strike._replace(level=strike.level + 1, firepower=strike.firepower + card.firepower,
                                 hench_level=strike.hench_level + 1)
        s = log(with_strike(s, strike), "cb-sync", step.seat, "henchman", strike.level, strike.firepower)
    more = (Step("cb_hench", step.seat, n=step.n - 1, arg=step.arg),) if step.n > 1 else ()
    return advance(s, *shown, *more)


def _on_pass(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Nop)
    return advance(s)


def _on_hench_pass(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Nop)
    return advance(s)


# --- escape phase (KMC 10.7.2) and teleport blocks (KMC 10.9) ---------------------------------


def _auto_escape_phase(g: Any, s: LockeState, step: Step) -> LockeState:
    strike = fight_of(s).strike
    if strike is None:
        return advance(s)
    fight = fight_of(s)
    target = fight.fighters[strike.target]
    if not active(fight, strike.target):
        return advance(with_strike(s, None))
    if target.seat >= 0 and alert(fight, strike.target):  # obstacles never escape (KMC 10.12.2 (5))
        return advance(s, Step("cb_escape", target.seat, n=strike.target), Step("cb_defence_phase", -1))
    return advance(s, Step("cb_defence_phase", -1))  # nor does a knocked-out fighter (N162)


def _on_escape(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Play)
    if action.target != -1 or action.level:
        raise IllegalAction("an escape names no target and no level", rule="locke.10.7.2")
    card = effective(g, action.card, action.acts_as)
    if is_illusion(card) and not sleepers(s, fight_of(s), step.n):
        raise IllegalAction("nobody here can fall asleep: the illusion cannot be used", rule="locke.5.3.2")
    s, card, mind = play(g, s, step.n, action, ("escape",), step)
    strike = _s(s)._replace(escape_tried=True)
    if is_illusion(card):
        return advance(with_strike(s, strike), *mind, Step("cb_illusion", -1, n=step.n, arg=f"ok:{card.level}"))
    strike = strike._replace(escaper=step.n, escape_level=card.level)
    return advance(with_strike(s, strike), *mind, Step("cb_escaped", -1, n=step.n, arg="ok"))


def _auto_escaped(g: Any, s: LockeState, step: Step) -> LockeState:
    """The escape teleport stands: the escaper's henchmen may sync it, then anyone else may block."""
    strike = _s(s)
    if not _ok(step):
        s = with_strike(s, strike._replace(escaper=-1) if strike.target >= 0 else None)
        return advance(log(s, "cb-escape-failed", fight_of(s).fighters[step.n].seat, "mind"))
    fight = fight_of(s)
    me = fight.fighters[step.n]
    steps: list[Step] = []
    if me.seat >= 0 and me.henchmen:
        steps.append(Step("cb_hench", me.seat, n=me.henchmen, arg="escape"))
    for j in fight.order or range(len(fight.fighters)):
        f = fight.fighters[j]
        if j == step.n or not alert(fight, j) or f.thought:  # the knocked-out block nothing (N162)
            continue
        if f.seat >= 0:
            steps.append(Step("cb_block", f.seat, n=j))
        elif f.ob is not None and f.ob.cards:
            steps.append(Step("cb_ob_block", -1, n=j))
    return advance(s, *steps, Step("cb_block_end", -1, n=step.n))


def _on_block(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Play)
    if action.target != -1 or action.level:
        raise IllegalAction("a block names no target and no level", rule="locke.10.9")
    strike = _s(s)
    card = effective(g, action.card, action.acts_as)
    if strike.block_base and card.level > strike.block_base:
        raise IllegalAction(f"a block stands at level {strike.block_base}: sync it with a teleport of that level "
                            "or less (KMC 10.8.4)", rule="locke.10.8.4")
    own = card.level - action.stretch
    s, card, mind = play(g, s, step.n, action, ("block",), step)
    return advance(s, *mind, Step("cb_blocked", -1, n=step.n, arg=f"ok:{card.level}:{action.handle}:{own}"))


def add_block(s: LockeState, index: int, level: int, handle: int, own: int) -> LockeState:
    strike = _s(s)
    base = strike.block_base or level
    strike = strike._replace(block_base=base, blockers=strike.blockers + (index,),
                             block_refunds=strike.block_refunds + ((index, handle, own),))
    f = fight_of(s).fighters[index]
    return log(with_strike(s, strike), "cb-block-try", f.seat, level, base + len(strike.blockers) - 1)


def _auto_blocked(g: Any, s: LockeState, step: Step) -> LockeState:
    if not _ok(step):
        return advance(s)
    _, level, handle, own = step.arg.split(":")
    return advance(add_block(s, step.n, int(level), int(handle), int(own)))


def _auto_block_end(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.9: a block above the teleport's level stops it (each sync adds a level).
    A block that falls short gives its cards and power back (ruling N146)."""
    strike = _s(s)
    fight = fight_of(s)
    escaper = fight.fighters[step.n]
    total = strike.block_base + max(0, len(strike.blockers) - 1) if strike.blockers else 0
    if strike.blockers and total > strike.escape_level:
        s = log(s, "cb-block", escaper.seat, strike.escape_level, total, [fight.fighters[j].seat for j in strike.blockers])
        return advance(with_strike(s, strike._replace(escaper=-1) if strike.target >= 0 else None))
    for j, handle, own in strike.block_refunds:
        f = fight.fighters[j]
        used = tuple(h for h in fight.used if h != handle)
        face: tuple[str, ...] = ()
        if f.seat < 0:
            face = (dict(s.open_cards).get(handle, ""),)
        fight = with_fighter(fight, j, f._replace(hand=f.hand + (handle,), faces=f.faces + face, spent=f.spent - own))
        fight = fight._replace(used=used)
    s = put(s, fight._replace(strike=None))
    if strike.blockers:
        s = log(s, "cb-block-short", escaper.seat, strike.escape_level, total)
    return away(s, escaper.seat, step.n)


def away(s: LockeState, seat: int, index: int) -> LockeState:
    """The escape stands: the escaper rolls how far it goes (KMC 10.7.2), or, where the rules
    let an escape only avoid the attack (``Fight.stay``), stays where it is."""
    if fight_of(s).stay:
        return advance(log(s, "cb-evaded", seat))
    return advance(s, Step("cb_flee_roll", seat, n=index))


def _pending_flee_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.escape", (6,))


def _on_flee_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """KMC 10.7.2: an escaper moves 1d6 like a level teleport and waits for the combat's end."""
    from engine.locke.turn import teleport_targets

    assert isinstance(action, DiceRolled)
    distance = action.faces[0]
    place = s.seats[step.seat].place
    s = gone(s, step.n, ESCAPED)
    if place and teleport_targets(s, place, distance):  # off the board (prison): no move
        return advance(s, Step("cb_land", step.seat, n=distance))
    return advance(log(s, "cb-escape", step.seat, place))


def _on_land(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    from engine.locke.turn import teleport_targets

    assert isinstance(action, Land)
    place = s.seats[step.seat].place
    options = teleport_targets(s, place, step.n)
    if action.to not in options:
        raise IllegalAction(f"an escape of {step.n} from {place} ends on one of {list(options)}", rule="locke.10.7.2")
    s = s._replace(seats=with_seat(s, step.seat, s.seats[step.seat]._replace(place=action.to)))
    return advance(log(s, "cb-escape", step.seat, action.to))


def gone(s: LockeState, index: int, state: str) -> LockeState:
    """A fighter leaves the fight (escaped or asleep); an escaping seat leaves its party (ruling N147)."""
    fight = fight_of(s)
    f = fight.fighters[index]
    fight = with_fighter(fight, index, f._replace(state=state))
    if state == ESCAPED and f.seat >= 0:
        fight = fight._replace(escapers=fight.escapers + (f.seat,))
        seats = list(s.seats)
        seats[f.seat] = seats[f.seat]._replace(leader=NO_SEAT, status="normal")
        for i, p in enumerate(seats):
            if p.leader == f.seat:
                seats[i] = p._replace(leader=NO_SEAT, status="normal")
        s = s._replace(seats=tuple(seats))
    return put(s, fight)


# --- illusion (KMC 5.3.2, table 5.4) -----------------------------------------------------------


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


def _auto_illusion(g: Any, s: LockeState, step: Step) -> LockeState:
    if not _ok(step):
        return advance(log(s, "cb-illusion-failed", fight_of(s).fighters[step.n].seat))
    fight = fight_of(s)
    if not sleepers(s, fight, step.n):
        return advance(s, Step("cb_illusion_end", -1, n=step.n))
    return advance(s, Step("cb_illusion_roll", -1, n=step.n, arg=step.arg), Step("cb_illusion_end", -1, n=step.n))


def _pending_illusion_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.illusion", (6, 6) * len(sleepers(s, fight_of(s), step.n)))


def _on_illusion_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Each one faces illusion level + 2d6 against its level + mind: above it sleeps; at or
    below it chooses (a seat's choice to stay awake is a claim)."""
    assert isinstance(action, DiceRolled)
    level = _value(step)
    fight = fight_of(s)
    asks: list[Step] = []
    for k, j in enumerate(sleepers(s, fight, step.n)):
        total = level + action.faces[2 * k] + action.faces[2 * k + 1]
        f = fight_of(s).fighters[j]
        if f.seat >= 0:
            asks.append(Step("cb_sleep", f.seat, n=total, arg=str(j)))
            continue
        assert f.ob is not None
        resist = f.ob.level + f.ob.mind
        if total > resist:
            s = log(gone(s, j, ASLEEP), "cb-asleep", -1, f.ob.id, total)
    return advance(s, *asks)


def _on_sleep(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Sleep)
    index = int(step.arg)
    if action.sleep:
        return advance(log(gone(s, index, ASLEEP), "cb-asleep", step.seat, "", step.n))
    claim = ck.make(step.seat, s.step_no, cc.AWAKE, (s.seats[step.seat].character,), _ledger(s, step.seat, step.n),
                    "locke.5.3.2")
    return advance(log(s._replace(**claimed(s, claim)), "cb-awake", step.seat, step.n))


def _auto_illusion_end(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 5.3.2: a sleeping attacker's attack is gone; sleeping syncers' shares drop;
    when every enemy and everyone else able to act sleeps the user escapes (knocked-out seats
    do not count, N237; knocked-out obstacles do)."""
    fight = fight_of(s)
    strike = fight.strike
    user = fight.fighters[step.n]
    awake = tuple(j for j, f in enumerate(fight.fighters)  # every enemy, the players able to act (KMC 5.3.2)
                  if j != step.n and (alert(fight, j) if f.seat >= 0 else active(fight, j)))
    if strike is not None and strike.target == step.n:
        if not active(fight, strike.attacker):
            s = log(with_strike(s, None), "cb-illusion-stops", user.seat)
        else:
            keep = [(j, p) for j, p in zip(strike.syncers, strike.sync_power) if active(fight, j)]
            dropped = len(strike.syncers) - len(keep)
            power = strike.firepower - sum(p for j, p in zip(strike.syncers, strike.sync_power) if not active(fight, j))
            s = with_strike(s, strike._replace(level=strike.level - dropped, firepower=power,
                                               syncers=tuple(j for j, _ in keep), sync_power=tuple(p for _, p in keep)))
    if not awake and user.seat >= 0:
        s = with_strike(s, None)
        return away(log(s, "cb-illusion-escape", user.seat), user.seat, step.n)
    return advance(s)


# --- contact telepathy (KMC 5.4) ---------------------------------------------------------------


def _pending_tele_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.telepathy", (6, 6))


def _on_tele_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """A level check; on success every awake player in the combat sees the target's card."""
    assert isinstance(action, DiceRolled)
    fight = fight_of(s)
    level = int(step.arg)
    total = sum(action.faces)
    target_seat = fight.fighters[step.n].seat
    ok = total <= level
    s = log(s, "cb-telepathy", step.seat, target_seat, level, total, ok)
    if not ok:
        return advance(s)
    viewers = tuple(f.seat for j, f in enumerate(fight.fighters)
                    if player(f) and f.seat != target_seat and active(fight, j))
    return advance(s, *(Step("cb_show", v, n=target_seat) for v in viewers))


def _pending_show(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("show_to", "characters", (s.seats[step.n].character,), to_seat=step.seat)


def _on_shown(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsShownTo)
    target = s.seats[step.n]
    if step.seat not in target.seen_by:
        target = target._replace(seen_by=tuple(sorted(target.seen_by + (step.seat,))))
    return advance(log(s._replace(seats=with_seat(s, step.n, target)), "identified", step.seat, step.n))


# --- defence phase (KMC 10.7.3) ---------------------------------------------------------------


def _auto_defence_phase(g: Any, s: LockeState, step: Step) -> LockeState:
    strike = fight_of(s).strike
    if strike is None or strike.target < 0:
        return advance(with_strike(s, None) if strike is not None else s)
    fight = fight_of(s)
    if not active(fight, strike.target):
        return advance(with_strike(s, None))
    s, broken = breakage.break_steps(s, strike.target)  # KMC fig. 10.2: jammers and fields, then the defence
    if strike.escape_tried:  # an escape was tried: nothing more in the defence phase
        return advance(s, *broken, Step("cb_hit", -1))
    target = fight.fighters[strike.target]
    if not alert(fight, strike.target):  # knocked out: no defence, the body (or suit) takes it (N162)
        return advance(s, *broken, Step("cb_hit", -1))
    if target.seat >= 0:
        return advance(s, *broken, Step("cb_defend", target.seat, n=strike.target), Step("cb_hit", -1))
    return advance(s, *broken, Step("cb_ob_defend", -1, n=strike.target), Step("cb_hit", -1))  # the automaton


def _on_defend(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Play)
    if action.target != -1 or action.level:
        raise IllegalAction("a defence names no target and no level", rule="locke.10.7.3")
    s, card, mind = play(g, s, step.n, action, ("defend",), step)
    return advance(s, *mind, Step("cb_defended", -1, n=step.n, arg="ok"))


def _auto_defended(g: Any, s: LockeState, step: Step) -> LockeState:
    if not _ok(step):
        return advance(s)
    return advance(log(with_strike(s, None), "cb-defend", fight_of(s).fighters[step.n].seat))


# --- the hit (KMC 10.7.4) ------------------------------------------------------------------------


def _auto_hit(g: Any, s: LockeState, step: Step) -> LockeState:
    strike = fight_of(s).strike
    if strike is None:
        return advance(s)
    fight = fight_of(s)
    if not active(fight, strike.target) or strike.firepower <= 0:
        s = log(with_strike(s, None), "cb-flash", strike.attacker, strike.target) if strike.firepower <= 0 else with_strike(s, None)
        return advance(s)
    target = fight.fighters[strike.target]
    suit = () if strike.direct else items.suit_steps(s, strike.target)  # a random character's too (N245)
    if suit:
        return advance(s, *suit)
    if target.seat >= 0:
        return advance(s, Step("cb_dur", target.seat, n=strike.target), Step("cb_damage", -1, n=strike.target))
    return advance(s, Step("cb_damage", -1, n=strike.target))


def _on_durability(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, Durability)
    top = fate.most(g, s, step.seat, "durability")
    if not 1 <= action.value <= top:
        raise IllegalAction(f"declare your current durability (1..{top} given the damage you have taken)",
                            rule="locke.10.7.4")
    claim = fate.durability_claim(s, step.seat, action.value, "locke.10.7.4")
    return advance(with_strike(s._replace(**claimed(s, claim)), _s(s)._replace(declared=action.value)))


def _checks(fight: Fight, strike: Strike) -> int:
    target = fight.fighters[strike.target]
    if target.ob is not None and HIT_ALL in target.ob.traits:
        return strike.hits * sum(1 for d in target.members if d > 0)
    return strike.hits


def damage_roller(s: LockeState, step: Step) -> int:
    """KMC 10.7.4 (3): the attacker rolls the damage dice, so a seat that attacked may re-roll
    them with a residential district (seed 000 3.2.4, ruling N208); an obstacle's are the engine's."""
    strike = fight_of(s).strike
    return -1 if strike is None else fight_of(s).fighters[strike.attacker].seat


#: Rolls whose roller is not the step's seat (engine/locke/game.py hands them to planet_cards.rerollable).
ROLLERS = {"cb_damage": damage_roller, "cb_suit_damage": damage_roller}


def _pending_damage(g: Any, s: LockeState, step: Step) -> Pending:
    fight = fight_of(s)
    return Chance("locke.chart.damage", (6, 6) * _checks(fight, _s(s)))


def _on_damage(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 002 damage table: every check against the durability declared at the start
    (simultaneous attacks, seed 002 note 2); 0 or E kills."""
    assert isinstance(action, DiceRolled)
    fight = fight_of(s)
    strike = _s(s)
    target = fight.fighters[strike.target]
    attacker = fight.fighters[strike.attacker]
    pairs = [action.faces[k:k + 2] for k in range(0, len(action.faces), 2)]
    who = attacker.seat if attacker.seat >= 0 else (attacker.ob.id if attacker.ob else "")
    if target.seat >= 0:
        before = strike.declared
        total, out, cells, turn = 0, False, [], False
        for faces in pairs:
            r = resolve_damage(faces, attack=strike.firepower, durability=before, target_is_character=True)
            total += r.damage
            out = out or r.eliminated
            cells.append(r.cell)
            turn = turn or r.transformation
        if turn:  # a natural 1-1 or 6-6 (seed 002, R9): the transformation first, the damage after it (KMC 11.4)
            p = s.seats[target.seat]
            arg = f"{total}|{int(out)}|{p.character}|{len(p.mods)}|{','.join(cells)}"
            return advance(s, fate.transformation_step(target.seat, items.FightTransformation()),
                           Step("cb_hit_apply", -1, n=strike.target, arg=arg))
        return _land(g, s, strike.target, before, total, out, cells)
    assert target.ob is not None
    members = list(target.members)
    hit_all = HIT_ALL in target.ob.traits
    k = 0
    cells = []
    for m, d in enumerate(members):
        if d <= 0:
            continue
        first = members[m]  # every simultaneous check reads the durability at the start
        for _ in range(strike.hits):
            r = resolve_damage(pairs[k], attack=strike.firepower, durability=first, target_is_character=False)
            k += 1
            cells.append(r.cell)
            members[m] = 0 if r.eliminated or members[m] <= 0 else max(0, members[m] - r.damage)
        if not hit_all:
            break
    ob = target.ob
    if any(d <= 0 for d in members) and "jammer-lost-on-death" in ob.traits:
        ob = ob._replace(jammer=0)
    if sum(members) < sum(target.members) and "jammer-lost-when-damaged" in ob.traits:
        ob = ob._replace(jammer=0)
    state = DEAD if all(d <= 0 for d in members) else target.state
    fight = with_fighter(fight_of(s), strike.target, target._replace(members=tuple(members), ob=ob, state=state))
    s = log(put(s, fight), "cb-hit", who, target.ob.id, cells, list(target.members), members, strike.card or "weapon")
    return advance(with_strike(s, None))


def _auto_hit_apply(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 11.4, D34: the damage of the hit that called for a transformation, after it: on the
    durability plus what the result added, or, after a true self, on the new card's durability,
    which its seat declares afresh (a claim, N158)."""
    total, out, character, mods_before, cells = step.arg.split("|")
    fight = fight_of(s)
    target = fight.fighters[step.n]
    p = s.seats[target.seat]
    if not p.alive or not active(fight, step.n) or fight.strike is None:
        return advance(with_strike(s, None) if fight.strike is not None else s)
    if p.character != int(character):  # a true self: the new character, untouched, takes the hit
        again = step._replace(arg=f"{total}|{out}|{p.character}|{len(p.mods)}|{cells}")
        return advance(s, Step("cb_dur", target.seat, n=step.n), again)
    gained = sum(int(m[2]) for m in p.mods[int(mods_before):] if m[0] == "durability" and m[1] == "add")
    return _land(g, s, step.n, fight.strike.declared + gained, int(total), bool(int(out)), cells.split(","))


def _land(g: Any, s: LockeState, index: int, before: int, total: int, out: bool, cells: list[str]) -> LockeState:
    """The hit's damage on a seat's durability ``before``: 0 or an E kills (seed 002)."""
    fight = fight_of(s)
    strike = _s(s)
    target = fight.fighters[index]
    attacker = fight.fighters[strike.attacker]
    who = attacker.seat if attacker.seat >= 0 else (attacker.ob.id if attacker.ob else "")
    after = 0 if out else before - total
    p = s.seats[target.seat]
    s = s._replace(seats=with_seat(s, target.seat, p._replace(damage=p.damage + before - max(0, after))))
    s = log(s, "cb-hit", who, target.seat, cells, before, max(0, after), strike.card or "weapon")
    if after <= 0:
        killer = attacker.seat if attacker.seat >= 0 else NO_SEAT
        s = fate.kill(g, s, target.seat, killer=killer, cause="combat")
        fight = fight_of(s)
        fight = with_fighter(fight, index, target._replace(state=DEAD))._replace(dead=fight.dead + (target.seat,))
        s = put(s, fight)
    return advance(with_strike(s, None))


PENDING = {
    "cb_played": _pending_played,
    "cb_act": seat_decision, "cb_sync": seat_decision, "cb_hench": seat_decision, "cb_escape": seat_decision,
    "cb_block": seat_decision, "cb_defend": seat_decision, "cb_dur": seat_decision, "cb_sleep": seat_decision,
    "cb_land": seat_decision, "cb_mind": _pending_mind, "cb_flee_roll": _pending_flee_roll,
    "cb_illusion_roll": _pending_illusion_roll, "cb_tele_roll": _pending_tele_roll, "cb_show": _pending_show,
    "cb_damage": _pending_damage,
}
HANDLERS = {
    ("cb_played", CardsRevealed): _on_played,
    ("cb_act", Play): _on_act, ("cb_act", Nop): _on_act_pass,
    ("cb_sync", Play): _on_sync, ("cb_sync", Nop): _on_pass,
    ("cb_hench", Play): _on_hench, ("cb_hench", Nop): _on_hench_pass,
    ("cb_escape", Play): _on_escape, ("cb_escape", Nop): _on_pass,
    ("cb_block", Play): _on_block, ("cb_block", Nop): _on_pass,
    ("cb_defend", Play): _on_defend, ("cb_defend", Nop): _on_pass,
    ("cb_dur", Durability): _on_durability, ("cb_sleep", Sleep): _on_sleep, ("cb_land", Land): _on_land,
    ("cb_mind", DiceRolled): _on_mind, ("cb_flee_roll", DiceRolled): _on_flee_roll,
    ("cb_illusion_roll", DiceRolled): _on_illusion_roll, ("cb_tele_roll", DiceRolled): _on_tele_roll,
    ("cb_show", CardsShownTo): _on_shown, ("cb_damage", DiceRolled): _on_damage,
}
AUTO = {
    "cb_strike": _auto_strike, "cb_synced": _auto_synced, "cb_escape_phase": _auto_escape_phase,
    "cb_escaped": _auto_escaped, "cb_blocked": _auto_blocked, "cb_block_end": _auto_block_end,
    "cb_illusion": _auto_illusion, "cb_illusion_end": _auto_illusion_end,
    "cb_defence_phase": _auto_defence_phase, "cb_defended": _auto_defended, "cb_hit": _auto_hit,
    "cb_forest": _auto_forest, "cb_hit_apply": _auto_hit_apply,
}

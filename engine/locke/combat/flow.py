"""The combat's rounds (KMC 10.1, 10.3, fig. 10.1): start, deal, initiative,
attack turns, going on, the end.

A combat is a run of steps in the state's queue (as in engine/rider/game.py):
``cb_start`` builds the fighters and rolls the police's weapon check, ``cb_joining``
offers seed 002's joining checks once round 1 is sure, ``cb_join`` takes the joiners
in and shuffles the combat deck, then every
round is ``cb_round`` (deal and refill the hands, KMC 10.3.1), ``cb_jam``
(obstacles' jammers, KMC 10.3.2), ``cb_init`` (initiative, KMC 10.3.3),
one ``cb_turn`` per fighter in that order (engine/locke/combat/path.py does
what a turn does), ``cb_post`` / ``cb_go_on`` / ``cb_judge`` (KMC 10.3.4-5)
and finally ``cb_end`` (KMC 10.3.6, 10.11). Every hidden card moves through
the engine's hidden-card inputs: the deck is shuffled by the driver, each
seat's cards are dealt to that seat alone, obstacles' cards are revealed
(ruling N140). The engine never samples anything.
"""

from __future__ import annotations

from typing import Any

from engine.core.pending import CardsDealt, CardsRevealed, Chance, DiceRolled, HiddenOp, Pending
from engine.locke.state import seat_decision
from engine.locke.combat import auto, ebuster, followup, items, latecomers, path, randoms
from engine.locke.combat.actions import GoOn
from engine.locke.combat.common import active, alert, fight_of, player, put, targets, with_fighter
from engine.locke.combat.model import (
    DEAD,
    DECK,
    HAND_SIZE,
    IN,
    MAX_ROUNDS,
    OBSTACLE_PARTY,
    TRAPPED,
    Fight,
    Fighter,
    Obstacle,
)
from engine.locke.planet_cards import Reroll
from engine.locke.state import Cell, Combat, LockeState, Step, advance, cell_of, log, with_cell, with_zone, zone_of
from engine.locke.steps import LockeStep

RULE = "locke.10"
#: Logged when a combat is called, before seed 002's joining checks (their results follow it).
CALLED = "cb-called"
#: What the end of a combat logs as its resolver (the stand-in logged "resolved by the stand-in").
LOG_TAG = "kmc-10"


def begin(s: LockeState, combat: Combat) -> LockeState:
    """Start ``combat`` (API-combat.md): its steps go before whatever the queue holds now.
    ``cb_start`` sets the fight up and rolls the police's weapon check (seed 002), which may
    call the combat off; only then come seed 002's actually-there / actually-alive offers
    (engine/locke/fate.py, N117), once round 1 is sure (KMC 10.2.1, 10.12.1), and ``cb_join``."""
    s = log(s, CALLED, combat.cause, combat.cell)  # where the checks' results start in the log
    return s._replace(combat=combat._replace(detail=None), queue=(Step("cb_start", -1),) + s.queue)


def _joiners(s: LockeState) -> tuple[list[int], list[tuple[int, int]], list[tuple[int, int]]]:
    """What the actually-there / actually-alive checks logged since the combat was called
    (engine/locke/fate.py): seats here now, seats arriving in a later round, residual thoughts."""
    now: list[int] = []
    later: list[tuple[int, int]] = []
    thoughts: list[tuple[int, int]] = []
    for event in reversed(s.events):
        if event and event[0] == CALLED:
            break
        if event and event[0] == "joined" and event[4]:  # a firepower: a residual thought
            thoughts.append((event[1], event[4]))
        elif event and event[0] == "joined":
            now.append(event[1])
        elif event and event[0] == "joins-later":
            later.append((event[1], event[3]))
    return now[::-1], later[::-1], thoughts[::-1]


def _join(s: LockeState, fight: Fight, seat: int, thought: int = 0) -> tuple[Fight, tuple[Step, ...]]:
    """A seat the checks brought in fights as a party of its own (N166) and declares its items;
    a residual thought (``thought``: its firepower, N167) joins for a dead seat, declaring nothing."""
    if s.seats[seat].alive == bool(thought) or any(f.seat == seat for f in fight.fighters):
        return fight, ()
    party = max((f.party for f in fight.fighters), default=OBSTACLE_PARTY) + 1
    fight = fight._replace(fighters=fight.fighters + (Fighter(seat, max(party, OBSTACLE_PARTY + 1), thought=thought),))
    return fight, () if thought else (Step("cb_equip", seat, n=len(fight.fighters) - 1),)


def as_obstacle(record: Any) -> Obstacle:
    """An obstacle record: an :class:`Obstacle`, or the stand-in's (id, level, firepower, durability)."""
    if isinstance(record, Obstacle):
        return record
    ident, level, firepower, durability = record[:4]
    return Obstacle(str(ident), int(level), int(firepower), int(durability))


def _auto_start(g: Any, s: LockeState, step: Step) -> LockeState:
    from engine.locke.setup import fresh_zone

    c = s.combat
    assert c is not None
    fighters: list[Fighter] = []
    seen: set[int] = set()
    for side, seats in enumerate(c.sides):
        for seat in seats:
            if s.seats[seat].alive and seat not in seen:
                seen.add(seat)
                henchmen = c.henchmen if side == 0 and not fighters else 0
                fighters.append(Fighter(seat, side, henchmen=henchmen))
    for record in c.obstacles:
        ob = as_obstacle(record)
        fighter = Fighter(-1, OBSTACLE_PARTY, ob=ob, members=(ob.durability,) * max(1, ob.squad))
        fighters.append(randoms.equip(g, fighter))  # KMC 10.12.2 (1)-(2): a random character's items
    s = put(s, Fight(fighters=tuple(fighters)))
    if not any(name == DECK for name, _ in s.zones):
        s = fresh_zone(s, DECK, g.components.deck("combat_cards"))
    s = log(s, "cb-start", c.cause, c.cell, [list(x) for x in c.sides],
            [f.ob.id for f in fighters if f.ob is not None])
    s = randoms.declared(s, tuple(fighters))
    armed = tuple(Step("cb_arm", -1, n=i) for i, f in enumerate(fighters) if f.ob is not None and f.ob.weapon == "weapon-check")
    return advance(s, *armed, Step("cb_joining", -1))


def _auto_joining(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.2.1, 10.12.1: the joining checks once the combat is sure to reach round 1 (the
    weapon check did not make it a trap, N224): a called-off combat asks nobody and ends."""
    from engine.locke.fate import joining_steps

    c = s.combat
    assert c is not None
    if fight_of(s).ended == TRAPPED:
        return advance(s, Step("cb_end", -1))
    joining = joining_steps(s, c.cell, tuple(i for side in c.sides for i in side))
    return advance(s, *joining, Step("cb_join", -1))


def _auto_join(g: Any, s: LockeState, step: Step) -> LockeState:
    """Those the checks brought in join (N166, N167), the newcomers obey the cell (N192), then
    everyone declares its items before round 1 (N160)."""
    now, later, thoughts = _joiners(s)
    fight = fight_of(s)._replace(arrivals=tuple(later))
    joined: tuple[int, ...] = ()
    for seat in now:  # they declare their items with everyone else below
        fight, asks = _join(s, fight, seat)
        if asks:
            s = log(s, "cb-joined", seat)
            joined += (seat,)
    for seat, firepower in thoughts:  # KMC 10.2.1: a party of its own with no cards (N167)
        before = len(fight.fighters)
        fight, _ = _join(s, fight, seat, firepower)
        if len(fight.fighters) > before:
            s = log(s, "cb-thought", seat, firepower)
    fighters = list(fight.fighters)
    s = put(s, fight)
    s, obey = latecomers.obey(g, s, joined)  # KMC 10.2.2: before the cards are dealt (N192)
    equip = tuple(Step("cb_equip", f.seat, n=i) for i, f in enumerate(fighters) if player(f))
    spare = ebuster.spare_steps(fight_of(s))  # seed 002 trap 11: before the first round
    return advance(s, Step("shuffle", -1, arg=DECK), *obey, *equip, *spare, Step("cb_round", -1))


def parties_left(fight: Fight) -> int:
    """Parties still fighting; residual thoughts keep no combat going (KMC 10.3.5)."""
    return len({f.party for i, f in enumerate(fight.fighters) if active(fight, i) and not f.thought})


def _auto_round(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.3.1: a new round; every hand is refilled (7 cards, one more per henchman)."""
    fight = fight_of(s)
    if fight.round >= MAX_ROUNDS:
        return advance(put(s, fight._replace(ended="round-limit")), Step("cb_end", -1))
    if parties_left(fight) < 2:
        return advance(put(s, fight._replace(ended=fight.ended or "no-opponents")), Step("cb_end", -1))
    if step.arg != "arrived":  # seed 002 actually-there 5-7: they come in first, declaring their items
        s, asks = _arrive(g, s, fight, fight.round + 1)
        asks += items.reequip_steps(fight_of(s))  # KMC 11.4: a true self's new card declares its items (N228)
        if asks:
            return advance(s, *asks, Step("cb_round", -1, arg="arrived"))
        fight = fight_of(s)
    fight = items.wake_up(fight, fight.round + 1)  # seed 000 3.1.3: knocked out for some rounds
    fighters = tuple(f._replace(acted=False, done=False, barrier_used=False, jammed_by=(), specials=(),
                                nike_on=False)
                     for f in fight.fighters)
    fight = fight._replace(round=fight.round + 1, fighters=fighters, attacked=False, wants=(), order=(),
                           rolls=tuple(() for _ in fighters))
    deals: list[Step] = []
    needed = 0
    for i, f in enumerate(fighters):
        if not active(fight, i) or f.thought:  # KMC 10.3.1: no cards for residual thoughts
            continue
        if f.seat >= 0:
            need = HAND_SIZE + f.henchmen + f.extra - len(f.hand)
        elif f.ob is not None and f.ob.cards:
            need = HAND_SIZE + f.henchmen - len(f.hand)  # a random character's henchmen too (KMC 10.12.2 (1))
        else:
            continue
        if need > 0:
            needed += need
            deals.append(Step("cb_deal", f.seat, n=need, arg=str(i)) if f.seat >= 0 else Step("cb_faceup", -1, n=need, arg=str(i)))
    s = log(put(s, fight), "cb-round", fight.round)
    if needed > len(zone_of(s, DECK)):  # KMC 10.3.1 note 1: out of cards, every combat ends
        return advance(put(s, fight._replace(ended="no-cards")), Step("cb_end", -1))
    jams = tuple(Step("cb_jam", -1, n=i) for i, f in enumerate(fighters)
                 if f.ob is not None and f.ob.jammer > 0 and active(fight, i) and not f.ball_out)
    first = auto.bombs(s) if fight.round == 1 else ()
    nike = tuple(Step("cb_nike", -1, n=i) for i, f in enumerate(fighters) if f.nike_left > 0 and active(fight, i))
    talks = (Step("cb_leaves", -1), Step("cb_talks", -1))  # KMC 10.3.1 (3): party talks after the deal (N246)
    return advance(s, *deals, *talks, *first, *nike, *jams, Step("cb_init", -1))


def _pending_deal(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("deal", DECK, zone_of(s, DECK)[: step.n], to_seat=step.seat)


def _on_dealt(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, CardsDealt)
    return _take(s, int(step.arg), step.n, ())


def _pending_faceup(g: Any, s: LockeState, step: Step) -> Pending:
    return HiddenOp("reveal", DECK, zone_of(s, DECK)[: step.n])


def _on_faceup(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Ruling N140: an obstacle's combat cards are dealt face up (the automaton reads them)."""
    assert isinstance(action, CardsRevealed)
    s = s._replace(open_cards=s.open_cards + tuple(zip(action.handles, action.cards)))
    return _take(s, int(step.arg), step.n, tuple(action.cards))


def _take(s: LockeState, index: int, count: int, faces: tuple[str, ...]) -> LockeState:
    deck = zone_of(s, DECK)
    fight = fight_of(s)
    f = fight.fighters[index]
    f = f._replace(hand=f.hand + deck[:count], faces=f.faces + faces)
    s = s._replace(zones=with_zone(s, DECK, deck[count:]))
    return advance(put(s, with_fighter(fight, index, f)))


def _pending_pick(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.pick", (len(_jam_targets(s, step.n)),))


def _jam_targets(s: LockeState, index: int) -> tuple[int, ...]:
    fight = fight_of(s)
    return tuple(j for j in targets(s, fight, index) if player(fight.fighters[j]))


def _auto_jam(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.12.2 (2): an obstacle's jammer goes on a player picked at random."""
    options = _jam_targets(s, step.n)
    if not options:
        return advance(s)
    if len(options) == 1:
        return _jam(s, step.n, options[0])
    return advance(s, Step("cb_jam_pick", -1, n=step.n))


def _on_jam_pick(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    return _jam(s, step.n, _jam_targets(s, step.n)[action.faces[0] - 1])


def _jam(s: LockeState, source: int, victim: int) -> LockeState:
    fight = fight_of(s)
    ob = fight.fighters[source].ob
    assert ob is not None
    f = fight.fighters[victim]  # its level is read live (common.obstacle_jam, N238)
    f = f._replace(jammed_by=f.jammed_by + ((source,) if source not in f.jammed_by else ()))
    s = log(put(s, with_fighter(fight, victim, f)), "cb-jammer", ob.id, f.seat, ob.jammer)
    return advance(s)


# --- initiative (KMC 10.3.3; ties roll again, ruling 8) ---------------------------------


def _rollers(s: LockeState, step: Step) -> tuple[int, ...]:
    if step.arg:
        return tuple(int(x) for x in step.arg.split(","))
    fight = fight_of(s)
    return tuple(i for i in range(len(fight.fighters)) if active(fight, i))


def _pending_init(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.initiative", (6, 6) * len(_rollers(s, step)))


def _on_init(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Everyone's 2d6 at once; a seat holding a face-down card may re-roll its own two dice
    with a residential district (KMC 10.3.3: each rolls its own; seed 000 3.2.4, ruling N208),
    so its pair is taken as its own roll (``cb_init_pair``) where the re-roll is offered."""
    assert isinstance(action, DiceRolled)
    fight = fight_of(s)
    rollers = _rollers(s, step)
    rolls = list(fight.rolls)
    own: list[Step | LockeStep] = []
    for k, i in enumerate(rollers):
        pair = (action.faces[2 * k], action.faces[2 * k + 1])
        seat = fight.fighters[i].seat
        if seat >= 0 and s.seats[seat].kept and s.seats[seat].alive:
            own += [Reroll(seat, pair), Step("cb_init_pair", seat, n=i)]
        else:
            rolls[i] = rolls[i] + (sum(pair),)
    s = put(s, fight._replace(rolls=tuple(rolls)))
    return advance(s, *own, Step("cb_init_order", -1))


def _pending_pair(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.initiative", (6, 6))


def _on_pair(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled)
    fight = fight_of(s)
    rolls = list(fight.rolls)
    rolls[step.n] = rolls[step.n] + (sum(action.faces),)
    return advance(put(s, fight._replace(rolls=tuple(rolls))))


def _auto_order(g: Any, s: LockeState, step: Step) -> LockeState:
    """The order from the rolls; tied fighters roll again (ruling 8)."""
    fight = fight_of(s)
    live = [i for i in range(len(fight.fighters)) if active(fight, i)]
    groups: dict[tuple[int, ...], list[int]] = {}
    for i in live:
        groups.setdefault(fight.rolls[i], []).append(i)
    tied = sorted(i for group in groups.values() if len(group) > 1 for i in group)
    if tied:
        return advance(put(s, fight), Step("cb_init", -1, arg=",".join(str(i) for i in tied)))
    order = tuple(sorted(live, key=lambda i: tuple(-r for r in fight.rolls[i])))
    s = log(put(s, fight._replace(order=order)), "cb-initiative", fight.round, list(order))
    return advance(s, *(Step("cb_turn", -1, n=i) for i in order), Step("cb_post", -1))


def _auto_turn(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.4: the fighter's attack turn (a seat decides; an obstacle's automaton acts)."""
    s, forest = path.forest_steps(s)  # the resonance forest's self-damage of the turn before (N187)
    if forest:
        return s._replace(queue=forest + s.queue)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    if not active(fight, step.n):
        return advance(s)
    s = put(s, with_fighter(fight, step.n, f._replace(done=True)))
    if f.fainted or (f.acted and not player(f)):  # knocked out (N162), or a thought that synced (N185)
        return advance(s)
    # KMC 10.4.1: a seat that synced this round (``acted``) has lost only its normal action; its turn
    # still holds the special attacks and the free options (N150)
    if f.seat >= 0:  # KMC 10.4: first the ESP controller's release roll
        return advance(s, *items.turn_steps(fight, step.n), Step("cb_act", f.seat, n=step.n))
    return auto.turn(g, advance(s), step.n)


# --- after the turns: going on or ending (KMC 10.3.4-5) -----------------------------------


def _auto_post(g: Any, s: LockeState, step: Step) -> LockeState:
    s, forest = path.forest_steps(s)  # the last turn's resonance-forest self-damage (N187)
    if forest:
        return s._replace(queue=forest + s.queue)
    if step.arg != "left":  # KMC 10.3.4: leaving parties comes first in the post-processing (N246)
        return advance(s, Step("cb_leaves", -1), Step("cb_post", -1, arg="left"))
    fight = fight_of(s)
    steps = [Step("cb_breakdown", -1, n=i) for i, f in enumerate(fight.fighters)
             if f.ob is not None and "round-end-breakdown-roll" in f.ob.traits and active(fight, i)]
    obstacles = any(f.ob is not None and active(fight, i) for i, f in enumerate(fight.fighters))
    if fight.attacked and not obstacles and parties_left(fight) >= 2:
        # a knocked-out seat answers nothing, so it is not asked (N162, N237)
        steps += [Step("cb_go_on", f.seat, n=i) for i, f in enumerate(fight.fighters) if player(f) and alert(fight, i)]
    return advance(s, *steps, Step("cb_judge", -1))


def _pending_breakdown(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.combat.breakdown", (6,))


def _on_breakdown(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    """Seed 002 trap 3: at each round's end the dark knights break down on 1d6 of 5 or less."""
    assert isinstance(action, DiceRolled)
    if action.faces[0] > 5:
        return advance(s)
    fight = fight_of(s)
    f = fight.fighters[step.n]
    s = put(s, with_fighter(fight, step.n, f._replace(state=DEAD, members=tuple(0 for _ in f.members))))
    assert f.ob is not None
    return advance(log(s, "cb-breakdown", f.ob.id))


def _on_go_on(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, GoOn)
    fight = fight_of(s)
    if action.go_on:
        fight = fight._replace(wants=fight.wants + (step.seat,))
    return advance(put(s, fight))


def _auto_judge(g: Any, s: LockeState, step: Step) -> LockeState:
    """KMC 10.3.5: go on when there was an attack, someone wants to go on (obstacles always
    do) and every party still has someone to attack."""
    fight = fight_of(s)
    fighters = list(fight.fighters)
    for i, f in enumerate(fighters):  # seed 002 trap 10: golems heal fully at each round's end
        if f.ob is not None and "round-end-full-heal" in f.ob.traits and active(fight, i):
            fighters[i] = f._replace(members=tuple(f.ob.durability if d > 0 else 0 for d in f.members))
    fight = fight._replace(fighters=tuple(fighters))
    obstacles = any(f.ob is not None and active(fight, i) for i, f in enumerate(fight.fighters))
    go_on = fight.attacked and (obstacles or bool(fight.wants)) and parties_left(fight) >= 2
    if go_on:
        return advance(put(s, fight), Step("cb_round", -1))
    return advance(put(s, fight._replace(ended=fight.ended or "over")), Step("cb_end", -1))


# --- the end (KMC 10.3.6, 10.11) ---------------------------------------------------------------


def _auto_end(g: Any, s: LockeState, step: Step) -> LockeState:
    """Collect the cards, log the combat, let escapers obey where they landed, and do
    what the combat's cause asks (prison, a cleared combat card)."""
    from engine.locke.declare import end_game
    from engine.locke.turn import alive_seats, failed, freed

    c = s.combat
    assert c is not None
    s = items.end_of_combat(s)
    fight = fight_of(s)
    back = zone_of(s, DECK) + fight.used + tuple(h for f in fight.fighters for h in f.hand)
    s = s._replace(zones=with_zone(s, DECK, back))
    participants = tuple(sorted(f.seat for f in fight.fighters if player(f)))
    trapped = fight.ended == TRAPPED  # no combat took place: nothing it would settle is settled (N224)
    cleared = not trapped and all(not active(fight, i) or f.state != IN
                                  for i, f in enumerate(fight.fighters) if f.ob is not None)
    s = log(s, "combat", c.cause, c.cell, [list(x) for x in c.sides], list(fight.dead), LOG_TAG, fight.ended, fight.round)
    if c.obstacles and cleared:  # read by engine/locke/base_cards.py (alarm devices)
        s = log(s, "obstacles-cleared", c.cause, c.cell)
    from engine.locke.combat.volley import CAUSE as VOLLEY

    # a police trap or the 300's volley is no combat: Hijiri's "present at the final combat" ignores it
    s = s._replace(combat=None, last_combat=s.last_combat if trapped or c.cause == VOLLEY else participants)
    if not alive_seats(s):
        return end_game(s, "all-dead")
    follow: tuple[Step | LockeStep, ...] = latecomers.after(s, c.cell, fight.newcomers, fight.escapers)  # N192
    follow += tuple(x for seat in fight.escapers if s.seats[seat].alive  # KMC 10.11 (N147, N190)
                    for x in followup.after_escape(s, seat))
    cause = c.cause.split(":", 1)[1] if c.cause.startswith("random-combat:") else ""
    owner = c.sides[0][0] if c.sides[0] else -1
    if trapped and owner >= 0 and s.seats[owner].alive:  # seed 002 weapon check 3: the trap chart instead
        from engine.locke.traps import trap_steps

        follow += trap_steps(owner, "")
    if cause == "prison" and owner >= 0 and s.seats[owner].alive:
        if cleared:  # seed 000 3.2.1: the prison is gone with its card
            if cell_of(s, c.cell).face_up == "arrest":
                s = s._replace(cells=with_cell(s, c.cell, Cell()))
            return freed(s, owner, "prison-combat")
        return advance(failed(s, owner, "prison-combat"), *follow)
    if cause == "card" and cleared and cell_of(s, c.cell).face_up == "combat":  # seed 000 3.2.1
        s = s._replace(cells=with_cell(s, c.cell, Cell()))
    if s.phase == "planet" and not any(p.alive and not p.base_player for p in s.seats):
        return s._replace(queue=(Step("phase_change", -1, arg="no-searchers"),))
    return advance(s, *follow)


PENDING = {
    "cb_deal": _pending_deal, "cb_faceup": _pending_faceup, "cb_jam_pick": _pending_pick,
    "cb_init": _pending_init, "cb_init_pair": _pending_pair, "cb_breakdown": _pending_breakdown, "cb_go_on": seat_decision,
}
HANDLERS = {
    ("cb_deal", CardsDealt): _on_dealt, ("cb_faceup", CardsRevealed): _on_faceup,
    ("cb_jam_pick", DiceRolled): _on_jam_pick, ("cb_init", DiceRolled): _on_init,
    ("cb_init_pair", DiceRolled): _on_pair,
    ("cb_breakdown", DiceRolled): _on_breakdown, ("cb_go_on", GoOn): _on_go_on,
}
AUTO = {
    "cb_start": _auto_start, "cb_joining": _auto_joining, "cb_join": _auto_join, "cb_init_order": _auto_order, "cb_round": _auto_round, "cb_jam": _auto_jam, "cb_turn": _auto_turn,
    "cb_post": _auto_post, "cb_judge": _auto_judge, "cb_end": _auto_end,
}


def _arrive(g: Any, s: LockeState, fight: Fight, round_no: int) -> tuple[LockeState, tuple[Step, ...]]:
    """Seed 002 actually-there 5-7: the seat arrives as round 2, 3 or 4 begins, if it still can
    (alive, in a normal, partner or arrested state, KMC 10.2): its piece goes onto the cell and
    it joins as N166 says."""
    from engine.locke.fate import arrive

    assert s.combat is not None
    asks: tuple[Step, ...] = ()
    came: tuple[int, ...] = ()
    for seat, due in fight.arrivals:
        p = s.seats[seat]
        if due == round_no and p.alive and p.status in ("normal", "partner", "arrested"):
            fight, more = _join(s, fight, seat)
            if more:
                s = log(arrive(put(s, fight), seat, s.combat.cell), "cb-arrived", seat, round_no)
                asks += more
                came += (seat,)
    s, obey = latecomers.obey(g, put(s, fight), came)  # KMC 10.3.1 (1): before the deal (N192)
    return s, obey + asks

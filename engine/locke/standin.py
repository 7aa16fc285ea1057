"""The combat stand-in: one deterministic rule until the combat issue (KMC 10) lands.

Ruling N48, in short: every character in the combat declares its ESP level
and its current durability (two claims, judged when its card opens). Then
each combatant attacks once, in a fixed order - side 0's characters in seat
order, its ambush henchmen, side 1's characters in seat order, then the
obstacles in chart order - at the first living opponent in the same order.
The firepower is the best printed attack card at or below the attacker's
level (light swords left out); henchmen fight at level 2 (KMC 2.3). Each hit
rolls real dice (a Chance input) on the real damage table
(engine/locke/damage.py) against the target's current durability; a
character at 0 or an E dies. A transformation roll is logged as pending part
3. Every combat resolved this way is logged as ``"resolved by the stand-in"``.

The flow only calls :func:`begin` with a :class:`~engine.locke.state.Combat`
and continues when ``state.combat`` is None again, so the real combat can
replace this module without touching the flow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.pending import Chance, Decision, DiceRolled, Pending
from engine.locke import claims as ck
from engine.locke.actions import StandIn
from engine.locke.components import ComponentSet
from engine.locke.damage import resolve_damage
from engine.locke.outcomes import Opponent
from engine.locke.state import claimed, Cell, Combat, LockeState, Step, advance, cell_of, log, with_cell, with_seat

RULE = "locke.standin"
STANDIN_LOG = "resolved by the stand-in"
HENCHMAN_LEVEL = 2
#: Highest printed durability of any character card (Yuki Hijiri's 7): a declared
#: durability above this minus the public damage cannot be true.
MAX_DURABILITY = 7


def firepower_table(components: ComponentSet) -> tuple[int, ...]:
    """Best printed firepower at or below each level 0..7 (light swords left out)."""
    best = [0] * 8
    for card in components.combat_cards:
        if card.type == "attack" and card.weapon != "light-sword":
            for level in range(card.level, 8):
                best[level] = max(best[level], card.firepower)
    return tuple(best)


def _weapon_firepower(components: ComponentSet, weapon: str) -> int:
    return max((c.firepower for c in components.combat_cards if c.weapon == weapon), default=0)


def obstacles_of(g: Any, opponents: Sequence[Opponent], randoms: Sequence[str]) -> tuple[tuple[str, int, int, int], ...]:
    """Chart opponents as stand-in members: (id, level, firepower, durability)."""
    out: list[tuple[str, int, int, int]] = []
    pending_randoms = list(randoms)
    for o in opponents:
        for _ in range(o.count):
            if o.random_characters and pending_randoms:
                character = g.components.character(pending_randoms.pop(0))
                out.append((character.id, character.level, g.firepower[character.level], character.durability))
                continue
            level = o.esp_level or 0
            if o.weapon is not None:
                fp = o.weapon.firepower or _weapon_firepower(g.components, o.weapon.id)
            else:  # unarmed police: the weapon-check chain is part 3, so they do not attack here
                fp = g.firepower[level] if o.esp_level else (o.melee or 0)
            out.append((o.id, level, fp, o.durability or 1))
    return tuple(out)


def begin(s: LockeState, combat: Combat) -> LockeState:
    """Start ``combat``: its steps go before whatever the queue holds now."""
    from engine.locke.fate import joining_steps

    seats = tuple(i for side in combat.sides for i in side if s.seats[i].alive)
    declare = tuple(Step("standin_declare", i) for i in seats)
    joining = joining_steps(s, combat.cell, tuple(i for side in combat.sides for i in side))  # seed 002 checks
    s = s._replace(combat=combat, queue=joining + declare + (Step("standin_attacks", -1), Step("standin_end", -1))
                   + s.queue)
    return s


def _on_declare(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, StandIn) and s.combat is not None
    from engine.locke import fate

    p = s.seats[step.seat]
    top = fate.MAX_DURABILITY - p.damage
    if not 0 <= action.level <= fate.MAX_LEVEL or not 1 <= action.durability <= top:
        raise IllegalAction(
            f"declare your ESP level and your current durability (1..{top} given the damage you have taken)",
            rule=RULE)
    # the current stats: printed plus the public changes (engine/locke/stats.py, ruling N100)
    claims = (fate.stat_claim(s, step.seat, "level", "le", action.level, RULE),
              fate.stat_claim(s, step.seat, "level", "ge", action.level, RULE),
              fate.durability_claim(s, step.seat, action.durability, RULE))
    combat = s.combat._replace(declared=s.combat.declared + ((step.seat, action.level, action.durability),))
    return advance(s._replace(combat=combat, **claimed(s, *claims)))


# combatant labels: ("s", seat) a character, ("h", k) a henchman, ("o", k) an obstacle


def _members(c: Combat) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    side0 = [("s", i) for i in c.sides[0]] + [("h", k) for k in range(c.henchmen)]
    side1 = [("s", i) for i in c.sides[1]] + [("o", k) for k in range(len(c.obstacles))]
    return side0, side1


def _durability(c: Combat, who: tuple[str, int]) -> int:
    if who[0] == "o":
        return c.obstacles[who[1]][3]
    if who[0] == "h":
        return 1
    for seat, _, durability in c.declared:
        if seat == who[1]:
            return durability
    return 0


def _firepower(g: Any, c: Combat, who: tuple[str, int]) -> int:
    if who[0] == "o":
        return c.obstacles[who[1]][2]
    if who[0] == "h":
        fp: int = g.firepower[HENCHMAN_LEVEL]
        return fp
    for seat, level, _ in c.declared:
        if seat == who[1]:
            fp = g.firepower[level]
            return fp
    return 0


def _auto_attacks(g: Any, s: LockeState, step: Step) -> LockeState:
    """Queue one attack per combatant in the stand-in's fixed order."""
    assert s.combat is not None
    side0, side1 = _members(s.combat)
    order = side0 + side1
    hits = tuple(Step("standin_hit", -1, n=k) for k in range(len(order)))
    return advance(s, *hits)


def _target(c: Combat, attacker: tuple[str, int]) -> tuple[str, int] | None:
    side0, side1 = _members(c)
    enemies = side1 if attacker in side0 else side0
    for who in enemies:
        if who[0] != "h" and _durability(c, who) > 0:
            return who
    return None


def _attacker(c: Combat, k: int) -> tuple[str, int]:
    side0, side1 = _members(c)
    return (side0 + side1)[k]


def _auto_hit(g: Any, s: LockeState, step: Step) -> LockeState:
    assert s.combat is not None
    attacker = _attacker(s.combat, step.n)
    alive = attacker[0] == "h" or _durability(s.combat, attacker) > 0
    if not alive or _firepower(g, s.combat, attacker) <= 0 or _target(s.combat, attacker) is None:
        return advance(s)
    return advance(s, Step("standin_roll", -1, n=step.n))


def _pending_roll(g: Any, s: LockeState, step: Step) -> Pending:
    return Chance("locke.chart.damage", (6, 6))


def _on_roll(g: Any, s: LockeState, step: Step, action: Any) -> LockeState:
    assert isinstance(action, DiceRolled) and s.combat is not None
    c = s.combat
    attacker = _attacker(c, step.n)
    target = _target(c, attacker)
    assert target is not None
    before = _durability(c, target)
    result = resolve_damage(action.faces, attack=_firepower(g, c, attacker), durability=before,
                            target_is_character=target[0] == "s")
    after = 0 if result.eliminated else before - result.damage
    if target[0] == "o":
        obstacles = list(c.obstacles)
        ob = obstacles[target[1]]
        obstacles[target[1]] = (ob[0], ob[1], ob[2], max(0, after))
        c = c._replace(obstacles=tuple(obstacles))
    else:
        seat = target[1]
        c = c._replace(declared=tuple((i, lv, max(0, after) if i == seat else d) for i, lv, d in c.declared))
        p = s.seats[seat]
        s = s._replace(seats=with_seat(s, seat, p._replace(damage=p.damage + (before - max(0, after)))))
    s = log(s, "hit", list(attacker), list(target), result.cell, before, max(0, after))
    if result.transformation and target[0] == "s" and after > 0:  # seed 002: natural 1-1 or 6-6
        from engine.locke import fate

        s = fate.transformation_check(g, s, target[1])
    if target[0] == "s" and after <= 0:
        s = log(s, "killed", target[1], attacker[1] if attacker[0] == "s" else -1)
    return advance(s._replace(combat=c))


def _auto_end(g: Any, s: LockeState, step: Step) -> LockeState:
    """Apply deaths, log the combat, and do what its cause asks (prison, combat card)."""
    from engine.locke.declare import end_game
    from engine.locke import fate
    from engine.locke.turn import alive_seats, failed, freed

    c = s.combat
    assert c is not None
    dead = [seat for seat, _, durability in c.declared if durability <= 0]
    killers = {e[1]: e[2] for e in s.events if e and e[0] == "killed"}
    for seat in dead:
        s = fate.kill(g, s, seat, killer=killers.get(seat, -1), cause="combat")
    participants = tuple(sorted(i for side in c.sides for i in side))
    obstacles_cleared = all(ob[3] <= 0 for ob in c.obstacles)
    s = log(s, "combat", c.cause, c.cell, [list(x) for x in c.sides], dead, STANDIN_LOG)
    if c.obstacles and obstacles_cleared:  # read by engine/locke/base_cards.py (alarm devices)
        s = log(s, "obstacles-cleared", c.cause, c.cell)
    s = s._replace(combat=None, last_combat=participants)  # the head is still standin_end
    if not alive_seats(s):
        return end_game(s, "all-dead")
    cause = c.cause.split(":", 1)[1] if c.cause.startswith("random-combat:") else ""
    owner = c.sides[0][0] if c.sides[0] else -1
    if cause == "prison" and s.seats[owner].alive:
        if obstacles_cleared:  # seed 000 3.2.1: the prison is gone with its card
            here = cell_of(s, c.cell)
            if here.face_up == "arrest":
                s = s._replace(cells=with_cell(s, c.cell, Cell()))
            return freed(s, owner, "prison-combat")
        return advance(failed(s, owner, "prison-combat"))
    if cause == "card" and obstacles_cleared:  # seed 000 3.2.1: a cleared combat card is removed
        if cell_of(s, c.cell).face_up == "combat":
            s = s._replace(cells=with_cell(s, c.cell, Cell()))
    if s.phase == "planet" and not any(p.alive and not p.base_player for p in s.seats):
        return s._replace(queue=(Step("phase_change", -1, arg="no-searchers"),))
    return advance(s)


def _decision(g: Any, s: LockeState, step: Step) -> Pending:
    return Decision(step.seat, "locke." + step.kind)


PENDING = {"standin_declare": _decision, "standin_roll": _pending_roll}
HANDLERS = {("standin_declare", StandIn): _on_declare, ("standin_roll", DiceRolled): _on_roll}
AUTO = {"standin_attacks": _auto_attacks, "standin_hit": _auto_hit, "standin_end": _auto_end}

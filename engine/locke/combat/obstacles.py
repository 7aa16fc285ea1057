"""Chart opponents (seed 002, engine/locke/outcomes.Opponent) as combat obstacles.

Random characters (KMC 10.12) fight with their revealed card's numbers,
combat cards and items (engine/locke/combat/randoms.py); espers with combat
cards and infinite power; squads and
machines with their weapon: a fixed firepower, or a weapon-firepower column
rolled at every use; police of the jammer rows roll the weapon check at the
start (engine/locke/combat/auto.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from engine.locke.chart_data import FIREPOWER
from engine.locke.combat.common import MACHINE, NO_SLEEP
from engine.locke.combat.model import Obstacle
from engine.locke.combat.randoms import items_of
from engine.locke.outcomes import Opponent
from engine.locke.steps import Rules


def obstacles_from(g: Rules, opponents: Sequence[Opponent], randoms: Sequence[str]) -> tuple[Obstacle, ...]:
    """One obstacle per random character, esper, squad or machine (squads keep their members together)."""
    out: list[Obstacle] = []
    pending = list(randoms)
    for o in opponents:
        if o.random_characters:
            for _ in range(o.count):
                if not pending:
                    break
                c = g.components.character(pending.pop(0))
                items = items_of(c)  # KMC 10.12.2 (1)-(2): it brings its card's items (N245)
                jammer = next((n for i, n in items if i == "esp-jammer"), 0)
                out.append(Obstacle(c.id, c.level, 0, c.durability, cards=True, power=c.power, mind=c.mind,
                                    character=c.id, traits=o.traits, jammer=jammer, items=items))
            continue
        if o.count <= 0:  # a count still to be rolled (golems) that nobody rolled: nothing fights
            continue
        level = o.esp_level or 0
        weapon, firepower, weapon_level, hits = "", 0, 0, 1
        if o.weapon is not None:
            weapon_level = o.weapon.level or 0
            hits = o.weapon.count
            if o.weapon.firepower is None and o.weapon.firepower_chart in FIREPOWER:
                weapon = o.weapon.firepower_chart
            else:
                firepower = o.weapon.firepower or 0
        elif o.weapon_chart == "weapon-check":
            weapon = "weapon-check"
        elif o.melee:
            firepower = o.melee
        cards = o.esp_level is not None and o.weapon is None
        out.append(Obstacle(
            o.id, level, firepower, o.durability or 1, weapon=weapon, traits=o.traits, jammer=o.esp_jammer or 0,
            cards=cards, power=-1 if o.esp_power_infinite or o.esp_power is None else o.esp_power,
            mind=o.mind or 0, squad=o.count if o.esp_level is None else 1, hits=hits,
            barrier=o.esp_barrier or 0, weapon_level=weapon_level,
        ))
    return tuple(out)


def best_firepower(g: Rules, level: int) -> int:
    """The best printed firepower of an attack card at or below ``level``, light swords left out
    (KMC 4 gives an alarm device only an attack level; ruling N104)."""
    return max((c.firepower for c in g.components.combat_cards
                if c.type == "attack" and c.weapon != "light-sword" and c.level <= level), default=0)


def alarm_device(g: Rules, card: str, attack: int, jammer: int) -> Obstacle:
    """An alarm device (KMC 4, 10.12): a machine that attacks at its level every turn, with an
    ESP jammer of the card's level; its durability is its attack level (ruling N104)."""
    return Obstacle(card, attack, best_firepower(g, attack), attack, traits=(MACHINE, NO_SLEEP), jammer=jammer,
                    weapon_level=attack)

"""Random characters' items (KMC 10.12.2 (1)-(2), 10.12.3; ruling N245).

A random character (random combat 0-2, seed 002) is an obstacle fighting with
its revealed character card, and KMC has it bring everything the card
carries: it always declares its henchmen (one more face-up card each) and
uses every item it can. Its card is face up, so nothing here is hidden or
claimed: the numbers are the card's (assets/locke/characters.json), read once
when the fight is built (:func:`items_of`) into ``Obstacle.items``.

What the automaton (engine/locke/combat/auto.py) does with them, in the
spirit of its KMC 10.12.3 strategy (attack with every means, defend when
sure, never escape):

- henchmen: one more card each a round; on its own card attack each
  henchman syncs with the strongest attack card it may add (level 2 or
  less and at most the attack card's own level, KMC 10.8, ruling N148);
- suits: the E-suit's reflection check (made by the attacker), the H-suit's
  durability, the P-suit absorbing at or below its public level and broken
  above it; Nike checked every round and, when on, attacking for 20 as the
  normal action and taking the hits;
- the ESP field: cards up to its level, whatever the character's own ESP
  level, at no power (KMC 2.3.2), and an attack above its level that gets
  past the escape phase breaks it;
- the ESP jammer: put on a player picked at random every round, as the
  police's (``Obstacle.jammer``);
- special attacks, each once a round before its normal attack, at a target
  picked at random: the ship (ship-support chart), the beam cannon, the
  geoid bomb (2d6; 10 or more knocks it out for the round);
- the psycho-pod: when no card surely stops an attack of level 6 or less
  (never a light sword), it tries the pod (1d6 of 4 or less).

Escapes (the Lafnor mirror, the subspace field) are never tried (KMC 10.12.3).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.core.pending import Chance, DiceRolled, Pending
from engine.locke.combat import escapes, specials
from engine.locke.combat.claims import SPECIALS  # the order the automaton uses them (KMC 10.4.2)
from engine.locke.combat.common import (
    alert,
    card_fits,
    constant,
    fight_of,
    grant_int,
    jam_floor,
    mark_attacked,
    number,
    put,
    spend_face_up,
    with_fighter,
    with_strike,
)
from engine.locke.combat.ebuster import obstacle_targets
from engine.locke.combat.model import SUITS, Fighter, Strike
from engine.locke.components import Character
from engine.locke.state import LockeState, advance, log
from engine.locke.steps import Automatic, LockeStep, Rules, Waiting, answers

#: The items a random character brings into the fight, with the number that matters for each
#: (henchmen: the count; a P-suit, field or jammer: its level; Nike: its fixed check value, 0 = mind).
CARRIED = ("henchman", "energy-suit", "powered-suit", "hell-diver-suit", "esp-field", "esp-jammer", "nike",
           "ship", "beam-cannon", "geoid-bomb", "psycho-pod")
#: The psycho-pod's dice (its success number and level bound are the item's constants).
POD = "psycho-pod"


def items_of(character: Character) -> tuple[tuple[str, int], ...]:
    """(item, number) for each item of ``CARRIED`` the card has, in the card's order."""
    out: list[tuple[str, int]] = []
    for grant in character.items:
        if grant.id not in CARRIED:
            continue
        key = {"henchman": "count", "nike": "check_max"}.get(grant.id, "level")
        out.append((grant.id, grant_int(grant, key, 0)))
    return tuple(out)


def equip(g: Rules, f: Fighter) -> Fighter:
    """KMC 10.12.2 (1)-(2): the henchmen always declared, every suit, field and Nike put on."""
    ob = f.ob
    if ob is None or not ob.items:
        return f
    henchmen = max(0, number(ob, "henchman"))
    suit = next((i for i, _ in ob.items if i in SUITS), "")
    nike = number(ob, "nike")
    return f._replace(
        henchmen=henchmen, suit=suit, suit_left=constant(g, suit, "durability") if suit else 0,
        field=number(ob, "esp-field") > 0,
        nike_left=constant(g, "nike", "durability") if nike >= 0 and not suit else 0,
        nike_check=(nike or ob.mind) if nike >= 0 and not suit else 0,
    )


def declared(s: LockeState, fighters: tuple[Fighter, ...]) -> LockeState:
    """Log what each random character brings, so the table reads it as a seat's declaration."""
    for f in fighters:
        if f.ob is not None and f.ob.items:
            s = log(s, "cb-ob-equip", f.ob.id, [[i, n] for i, n in f.ob.items])
    return s


def _through_field(f: Fighter, level: int) -> bool:
    """KMC 2.3.2 (Yamaki-1's field): ESP up to the field's level, whatever the character's own
    level, costing no power; not once broken, nor while an absorb ball keeps it out (seed 000 3.1.3)."""
    return f.field and not f.ball_out and 0 < level <= number(f.ob, "esp-field")


def playable(f: Fighter, level: int, power: int) -> bool:
    """The obstacle can surely play a card of ``level`` with ``power`` left: through its field,
    or at or below its ESP level with the power to pay."""
    assert f.ob is not None
    return _through_field(f, level) or (level <= f.ob.level and level <= power)


def cost(f: Fighter, level: int) -> int:
    """The ESP power a card of ``level`` costs the obstacle (nothing through its field)."""
    return 0 if _through_field(f, level) else level


# --- henchmen on its own attack (KMC 10.8, N148) -------------------------------------------------


def hench_syncs(g: Rules, s: LockeState, index: int) -> LockeState:
    """Each henchman adds the strongest attack card it may (no power: henchmen have unlimited
    power), raising the attack in flight by a level and the card's firepower."""
    for _ in range(fight_of(s).fighters[index].henchmen):
        fight = fight_of(s)
        strike = fight.strike
        f = fight.fighters[index]
        if strike is None or not strike.card or strike.light_sword:
            return s
        cards = [(h, g.components.combat_card(c)) for h, c in zip(f.hand, f.faces)]
        fits = [(h, c) for h, c in cards if not card_fits(c, "hench", strike) and c.level > jam_floor(fight, f)]
        if not fits:
            return s
        handle, card = max(fits, key=lambda hc: (hc[1].firepower, -hc[1].level, -hc[0]))
        s, _ = spend_face_up(s, index, handle, "hench", level=card.level)
        strike = strike._replace(level=strike.level + 1, firepower=strike.firepower + card.firepower,
                                 hench_level=strike.hench_level + 1)
        s = log(with_strike(s, strike), "cb-sync", f.ob.id if f.ob else "", "henchman", strike.level, strike.firepower)
    return s


# --- special attacks on its turn (KMC 10.4.2) ----------------------------------------------------


def special_steps(f: Fighter, index: int) -> tuple[LockeStep, ...]:
    """One :class:`ObstacleSpecial` per special attack the card has, before the normal attack."""
    return tuple(ObstacleSpecial(index, item) for item in SPECIALS if number(f.ob, item) >= 0)


@dataclasses.dataclass(frozen=True)
class ObstacleSpecial(Automatic):
    """Obstacle ``fighter``'s special attack ``item`` ("ship", "beam-cannon" or "geoid-bomb"), at a
    target picked at random (KMC 10.12.2 (4))."""

    KIND: ClassVar[str] = "cb_ob_special"
    fighter: int
    item: str

    def run(self, g: Rules, s: LockeState) -> LockeState:
        fight = fight_of(s)
        options = obstacle_targets(s, fight, self.fighter)
        if not alert(fight, self.fighter) or not options:  # knocked out by its own geoid bomb: nothing more
            return advance(s)
        if len(options) == 1:
            return _fire(g, s, self.fighter, self.item, options[0])
        return advance(s, ObstacleSpecialAim(self.fighter, self.item))


@dataclasses.dataclass(frozen=True)
class ObstacleSpecialAim(Waiting):
    """The target of obstacle ``fighter``'s special attack ``item``, picked fairly at random
    (KMC 10.12.2 (4))."""

    KIND: ClassVar[str] = "cb_ob_aim"
    fighter: int
    item: str

    def pending(self, g: Rules, s: LockeState) -> Pending:
        return Chance("locke.combat.pick", (len(obstacle_targets(s, fight_of(s), self.fighter)),))

    @answers(DiceRolled)
    def picked(self, g: Rules, s: LockeState, action: DiceRolled) -> LockeState:
        options = obstacle_targets(s, fight_of(s), self.fighter)
        return _fire(g, s, self.fighter, self.item, options[action.faces[0] - 1])


def _fire(g: Rules, s: LockeState, me: int, item: str, target: int) -> LockeState:
    """The special attack's own steps, the ones a seat's use queues (engine/locke/combat/specials.py)."""
    fight = fight_of(s)
    f = fight.fighters[me]
    assert f.ob is not None
    s = put(s, with_fighter(fight, me, f._replace(specials=f.specials + (item,))))
    s = log(s, "cb-ob-item", f.ob.id, item, target)
    if item == "ship":
        return advance(s, specials.ShipRoll(-1, me, target))
    if item == "beam-cannon":
        level = constant(g, "beam-cannon", "level")  # a character's weapon, as a seat's (no machine)
        s = mark_attacked(with_strike(s, Strike(me, target, "", level, 0)))
        return advance(s, specials.BeamCannonFirepower(), g.attack.AttackStands())
    return advance(s, escapes.ItemRoll(-1, me, "geoid-bomb", target))


# --- answers to an attack ------------------------------------------------------------------------


def pod_steps(g: Rules, s: LockeState, index: int) -> tuple[LockeStep, ...]:
    """The psycho-pod, tried when nothing surely stops the attack (KMC 2.3.1: level 6 or less,
    never a light sword; no power spent)."""
    strike = fight_of(s).strike
    f = fight_of(s).fighters[index]
    if strike is None or number(f.ob, POD) < 0 or strike.light_sword or strike.level > constant(g, POD, "max_level"):
        return ()
    assert f.ob is not None
    return (escapes.ItemRoll(-1, index, POD),)


#: the random characters' step kinds (engine/locke/combat/__init__.py STEPS)
STEPS: tuple[type[LockeStep], ...] = (ObstacleSpecial, ObstacleSpecialAim)

"""Combat coverage over the shared 300 random-bot games (issue 13 acceptance).

Reads only the public event log of each game and prints a table: every combat-card
id played (by a seat or an obstacle), every step of the attack path that resolved,
and every seed-002 opponent met. It fails on a gap in what the combat claims done
(docs/rules/locke.md chapter 10); what is not yet built (N159) is listed, not required.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.locke.combat.common import RESIDUAL
from tests.engine.locke.flow_helpers import game
from tests.engine.locke.three_hundred import played_games

#: Attack-path steps and mechanics, each by the public event that shows it resolved.
STEPS = {
    "combat started": "cb-start", "combat ended": "combat", "attack hit": "cb-hit", "defence": "cb-defend",
    "sync": "cb-sync", "escape": "cb-escape", "teleport block": "cb-block", "short block returned": "cb-block-short",
    "illusion sleep": "cb-asleep", "stayed awake (claim)": "cb-awake", "illusion stops attack": "cb-illusion-stops",
    "illusion escape": "cb-illusion-escape", "contact telepathy": "cb-telepathy", "mind stretch": "cb-stretch",
    "stretch failed": "cb-fizzle", "jammer": "cb-jammer", "weapon check": "cb-weapon-check",
    "weapon firepower roll": "cb-firepower", "killed": "died-in-combat", "pass": "cb-pass",
    "suit hit": "cb-suit-hit", "E-suit reflection": "cb-reflect", "P-suit absorbs": "cb-suit-absorbs",
    "ship support": "cb-ship", "item roll": "cb-item-roll", "jammer stops a card": "cb-jam-veto",
    "jammer or field broken": "cb-broken",
}
#: Opponents the random-combat chart and its weapon check bring (seed 002), as combat obstacles.
OPPONENTS = ("unused-character", "esper", "police", "armored-car", "g-bomb", "d-bomb")
#: Seed-002 opponents that only the trap chart brings (its entries are issue 12's): listed, not required.
TRAP_OPPONENTS = ("dark-knight", "hell-diver", "cyber", "golem", "e-buster", "super-e-buster")
#: The character cards' items in combat (N160-N163), by the event that shows each in use.
ITEMS = ("henchman", "energy-suit", "powered-suit", "hell-diver-suit", "esp-field", "ship", "beam-cannon",
         "geoid-bomb", "lafnor-mirror", "subspace-field", "psycho-pod", "esp-jammer", "nike")
#: Who joins a combat from outside (N166-N167), by its event.
JOINS = {"joined at the start": "cb-joined", "arrived in round 2-4": "cb-arrived", "residual thought": "cb-thought",
         "residual-thought attack": "residual-thought"}
#: The characters' abilities outside combat (N168-N170), by ("ability", seat, id, ...) events.
ABILITIES = ("conversion-check", "shape-change", "authors-privilege")
#: Jessica's disintegration (KMC 2.2.2, N180-N184): used, and each outcome, by its event.
DISINTEGRATION = ("used", "passed", "failed", "reversed")
#: The chance of a 2 on 2d6 (the reversed outcome, KMC 2.2.2): rare enough to be reported, not
#: required, when the games use the power too few times for it to be expected (as the rare trap
#: rows of test_coverage_planet.py); it has its named scenario test in test_combat_disintegration.py.
REVERSED_ODDS = 1 / 36
#: The last rules of issue 13 (N185-N191), by their events; each required unless too rare (below).
REST_EVENTS = {"cb-follow-up": "follow-up combat", "cb-persuade": "persuasion tried", "cb-spared": "spared by an E-buster",
               "cb-forest": "resonance-forest self-damage", "cb-newcomer-obeys": "newcomer obeys the cell"}
#: Too rare to require when the games hold fewer than this many chances (reported instead, as
#: test_coverage_planet.py does for rare trap rows; each has its scenario test in test_combat_more.py
#: or test_combat_joining.py): thought syncs need two thoughts in one combat, persuasion and sparing
#: an E-buster (trap chart 11, 2 in 36 of the trap rolls), the forest's self-damage trap row 4.
RARE_BELOW = 3
#: Not yet in the combat (N159): listed as missing.
NOT_YET = ("planet-card items",)


@pytest.mark.slow
@pytest.mark.xdist_group("locke300")
def test_combat_coverage_over_the_300_games() -> None:
    cards: Counter[str] = Counter()
    steps: Counter[str] = Counter()
    met: Counter[str] = Counter()
    items: Counter[str] = Counter()
    abilities: Counter[str] = Counter()
    disint: Counter[str] = Counter()
    rest: Counter[str] = Counter()
    thoughts_here = 0
    characters = {c.id for c in game().components.characters}
    for played in played_games():
        for e in played.table.state.events:
            kind = e[0]
            steps[kind] += 1
            if kind == "died" and e[2] == "combat":
                steps["died-in-combat"] += 1
            if kind == "cb-play":
                cards[e[2]] += 1
            elif kind == "cb-start":
                rest["forest combats"] += e[1] == "random-combat:forest"
                for ob in e[4]:
                    met["unused-character" if ob in characters else ob] += 1
            elif kind == "cb-weapon-check" and e[2] in ("armored-car", "g-bomb", "d-bomb"):
                met[e[2]] += 1
            elif kind == "cb-equip":
                items["henchman"] += e[2] > 0
                items[e[3]] += bool(e[3])
                items["esp-field"] += bool(e[4])
                items["esp-jammer"] += e[5] >= 0
                items["nike"] += bool(e[6])
            elif kind == "cb-item" and e[-1] != "planet":  # kept planet cards: test_coverage_planet.py
                items[e[2]] += 1
            elif kind == "ability":
                abilities[e[2]] += 1
            elif kind == "cb-disint-try":
                disint["used"] += 1
            elif kind == "cb-disint":
                disint[e[5]] += 1
            elif kind == "cb-sync" and e[2] == RESIDUAL:
                rest["thought sync"] += 1
            elif kind == "cb-called":
                thoughts_here = 0
            elif kind == "cb-thought":
                thoughts_here += 1
                rest["combats with two thoughts"] += thoughts_here == 2
            elif kind == "cb-extra-cards" and e[2] > 0:
                rest["transformation 7 cards dealt"] += 1
            elif kind in REST_EVENTS:
                rest[REST_EVENTS[kind]] += 1
    ids = [c.id for c in game().components.combat_cards]
    print("\ncombat-card id            plays")
    for cid in ids:
        print(f"  {cid:24} {cards[cid]}")
    print("attack-path step          events")
    for name, kind in STEPS.items():
        print(f"  {name:24} {steps[kind]}")
    print("seed-002 opponent         combats")
    for name in OPPONENTS + TRAP_OPPONENTS:
        print(f"  {name:24} {met[name]}" + ("  (trap chart, not required)" if name in TRAP_OPPONENTS else ""))
    print("item (character cards)    uses")
    for name in ITEMS:
        print(f"  {name:24} {items[name]}")
    print("joining from outside      events")
    joined = {name: (items[kind] if kind == "residual-thought" else steps[kind]) for name, kind in JOINS.items()}
    for name, count in joined.items():
        print(f"  {name:24} {count}")
    print("ability (outside combat)  uses")
    for name in ABILITIES:
        print(f"  {name:24} {abilities[name]}")
    print(f"  {'conversion passed':24} {steps['conversion']}")
    print("disintegration (N180)     events")
    for name in DISINTEGRATION:
        print(f"  {name:24} {disint[name]}")
    expected = disint["used"] * REVERSED_ODDS
    print(f"  {'reversed, expected':24} {expected:.2f}")
    chances = {"thought sync": rest["combats with two thoughts"], "persuasion tried": met["e-buster"],
               "spared by an E-buster": met["e-buster"], "resonance-forest self-damage": rest["forest combats"],
               "follow-up combat": steps["cb-escape"], "transformation 7 cards dealt": steps["transformation"]}
    print("the rest of issue 13      events  chances")
    for name, chance in chances.items():
        print(f"  {name:24} {rest[name]:6}  {chance}" + ("  (too rare to require)" if chance < RARE_BELOW else ""))
    print(f"  {'newcomer obeys the cell':24} {rest['newcomer obeys the cell']:6}  (reported: needs a face-up card on the "
          "combat's cell; scenario tests in test_combat_more.py)")
    print("not yet built (N159):", ", ".join(NOT_YET))
    assert [cid for cid in ids if not cards[cid]] == []
    assert [name for name, kind in STEPS.items() if not steps[kind]] == []
    assert [name for name in OPPONENTS if not met[name]] == []
    assert [name for name in ITEMS if not items[name]] == []
    assert [name for name, count in joined.items() if not count] == []
    assert [name for name in ABILITIES if not abilities[name]] == [] and steps["conversion"]
    rare = ("reversed",) if expected < 3 else ()  # reported above when too rare to expect
    assert [name for name in DISINTEGRATION if not disint[name] and name not in rare] == []
    assert [name for name, chance in chances.items() if not rest[name] and chance >= RARE_BELOW] == []

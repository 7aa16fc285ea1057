"""Coverage over the shared 300 random-bot games (issue 12 acceptance, l3-planet's share):
every planet-card kind, every Evil-face exception and every trap/event entry of
l3-planet's list fires, read from the public event log. The test prints the table.

A kind counts when a card of it is used (its "planet" event: turned up by the use, or
named by its kind when its level stays hidden) or shown; test_coverage_combat.py counts
the combat items among them by the combat's own events too. One honest exception,
printed in the table:

- *rare entries*: some chart rows are so unlikely with fair dice that 300 games
  cannot be expected to reach them (the black hole is 1 trap roll in 7776). Each
  entry's expected count is worked out from the number of trap rolls the games made
  and the chart's own probabilities; an entry expected fewer than :data:`RARE` times
  is reported, not failed, and has its named scenario test in test_traps.py.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from engine.locke import planet_cards as pc
from tests.engine.locke.flow_helpers import game
from tests.engine.locke.three_hundred import played_games
from tests.engine.locke.trap_odds import EVENT_ENTRIES, chance_per_trap_roll, trap_row

RARE = 3
#: instruction kinds: the event that shows the card's effect was carried out
INSTRUCTION_EFFECT = {
    "spaceport": "card-shown", "arrest": "arrested", "combat": "random-combat", "trap": "trap",
    "information": "card-shown", "identify-other": "identified", "expose-self": "exposed", "ambush": "ambush",
}
TRAP_ENTRIES = ("psycho-bomb", "hallucination-attack", "event", "deadline", "chronos-trap", "genocide",
                "sync-attack-of-300", "black-hole")
EVIL = ("identity", "information")
#: Evil exceptions the flow cannot reach: a base player takes no planet-phase turn (KMC 7.2.1, N43), so it
#: never draws a new information card there; the rule has its scenario test in test_planet_cards.py.
UNREACHABLE = {"information": "not reachable: base players draw no planet card (KMC 7.2.1); scenario test only"}


def _table(rows: list[tuple[str, str, int, str]]) -> str:
    width = max(len(r[1]) for r in rows)
    return "\n".join(f"{group:8} {name:{width}} {count:6} {note}" for group, name, count, note in rows)


@pytest.mark.slow
@pytest.mark.xdist_group("locke300")
def test_every_planet_card_kind_and_trap_event_entry_fires() -> None:
    kinds: Counter[str] = Counter()
    effects: Counter[str] = Counter()
    traps: Counter[str] = Counter()
    events: Counter[str] = Counter()
    evil: Counter[str] = Counter()
    trap_rolls = 0
    volleys = 0  # trap 15 carried out: its attack was made up (engine/locke/combat/volley.py)
    for played in played_games():
        for e in played.table.state.events:
            tag = e[0]
            if tag == "planet":
                kinds[e[1]] += 1
            elif tag == "card-shown":
                kinds[pc.kind_of(e[3])] += 1
            elif tag == "ambush":
                kinds["ambush"] += 1
            elif tag == "trap":
                traps[e[1]] += 1
                trap_rolls += not e[1].startswith("ongoing-")
            elif tag == "event":
                events[e[1]] += 1
            elif tag == "v300-attack":
                volleys += 1
            elif tag == "evil-exception":
                evil[e[1]] += 1
            if tag in INSTRUCTION_EFFECT.values():
                effects[tag] += 1
    all_kinds = sorted({pc.kind_of(c.id) for c in game().components.planets})
    assert len(all_kinds) == 28
    rows: list[tuple[str, str, int, str]] = []
    gaps: list[str] = []
    for kind in all_kinds:
        note = ""
        count = kinds[kind]
        if kind in INSTRUCTION_EFFECT:
            count = min(count, effects[INSTRUCTION_EFFECT[kind]]) if kind != "trap" else min(count, trap_rolls)
        if count == 0:
            gaps.append(kind)
            note = "GAP"
        rows.append(("card", kind, count, note))
    for name in EVIL:
        note = "" if evil[name] else "GAP"
        if not evil[name] and name in UNREACHABLE:
            note = UNREACHABLE[name]
        elif not evil[name]:
            gaps.append("evil:" + name)
        rows.append(("evil", name, evil[name], note))
    # trap rolls made by the chart itself (event 12's +4) are not plain rolls: count them out
    plain = trap_rolls - events["trap-plus-4"]
    for group, names, counter in (("trap", TRAP_ENTRIES, traps), ("event", EVENT_ENTRIES, events)):
        for name in names:
            expected = float(chance_per_trap_roll(name) * plain)
            note = f"expected {expected:.1f}"
            if counter[name] == 0:
                if expected < RARE:
                    note += ": rare with fair dice, see its scenario test (test_traps.py, test_volley.py)"
                else:
                    gaps.append(f"{group}:{name}")
                    note += ": GAP"
            rows.append((group, name, counter[name], note))
    print(f"\nl3-planet coverage over {len(played_games())} games ({plain} plain trap rolls)\n" + _table(rows))
    assert not gaps, f"never fired: {gaps}"
    assert volleys or not traps["sync-attack-of-300"], "trap 15 fired but never made up its attack"


def test_the_chart_probabilities_add_up() -> None:
    """The probabilities the coverage test uses: every plain trap roll ends in exactly one
    trap entry of the chart (the event chain included)."""
    from engine.locke.chart_data import TRAP

    rows = {e.id: e.rows for e in TRAP.entries}
    total = sum((trap_row(r, 0) for r in range(2, 13)), Fraction(0))
    assert total == 1 and rows["black-hole"] == (16,)
    assert chance_per_trap_roll("black-hole") == Fraction(1, 6) * Fraction(1, 36) * Fraction(1, 36)
    assert chance_per_trap_roll("necra-crawley") == (Fraction(1, 6) + Fraction(1, 216) * Fraction(1, 18)) / 36

"""Issue 12 acceptance (l3-base's share) over the shared 300 random-bot games: every
base-card kind (KMC ch. 4) and every chart entry outside combat that fate owns (seed 002
prison, transformation, actually alive / there, residual thought) fires at least once,
and deaths, clone revivals, arrest-then-escape, ESP proofs in and out and games ended
by Nova or the King editorial room all occur. Prints the table; fails on a gap.

The King room ending is rare in random play: the 300 games' only one (9 seats, seed 18)
followed a prisoner's escape by joining another prisoner's prison combat, which ruling N276
(docs/rules/locke-rulings.md) undid, so one more random-bot game outside the 300
(``KING_ROOM_GAME``) is played for that row.

It reads only the public event log (``state.events``), as a spectator could.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.locke import chart_data
from tests.engine.locke.behaviour import untraced
from tests.engine.locke.flow_helpers import bot_table, game
from tests.engine.locke.three_hundred import played_games

#: (seats, seed) of a random-bot game outside the 300 that ends by the King room (see above).
KING_ROOM_GAME = (6, 69)


def base_kind(card: str) -> str:
    """The 21 kinds of KMC ch. 4 (several ids share a kind: key bases, illusions, alarms)."""
    base = game().components.base(card)
    kind = base.effect.type
    if kind == "chart":
        return str(base.effect.params["chart"]) + "-card"
    if kind == "none":
        return card
    return kind


KINDS = sorted({base_kind(b.id) for b in game().components.bases})
CHART_ENTRIES = {
    chart: tuple(e.id for e in chart_data.CHARTS[chart].entries)
    for chart in ("prison", "transformation", "actually-alive", "actually-there", "residual-thought")
}
MILESTONES = ("death", "death in a base-card effect", "revival by clone", "arrest then escape",
              "ESP proof put in", "ESP proof removed", "restraint", "restraint released",
              "ended by Nova", "ended by the King room", "true self", "hit outside combat")


def census() -> tuple[Counter[str], Counter[tuple[str, str]], Counter[str]]:
    kinds: Counter[str] = Counter()
    entries: Counter[tuple[str, str]] = Counter()
    milestones: Counter[str] = Counter()
    for played in played_games():
        s = played.table.state
        arrested: set[int] = set()
        for e in s.events:
            tag = e[0]
            if tag == "base-obeyed":
                kinds[base_kind(e[1])] += 1
            elif tag == "key-base-destroyed":
                kinds["key-base"] += 1
            elif tag == "chart-entry":
                entries[(e[1], e[2])] += 1
            elif tag == "transformation":
                entries[("transformation", e[2])] += 1
            elif tag == "died":
                milestones["death"] += 1
                if e[2] in ("ek", "illusion", "stacked-vortex"):
                    milestones["death in a base-card effect"] += 1
            elif tag == "revived" and e[2] in ("clone", "wildcard-clone"):
                milestones["revival by clone"] += 1
            elif tag == "arrested":
                arrested.add(e[1])
            elif tag == "escaped" and e[1] in arrested:
                milestones["arrest then escape"] += 1
            elif tag == "esp-proof":
                milestones["ESP proof put in"] += 1
            elif tag == "esp-proof-removed":
                milestones["ESP proof removed"] += 1
            elif tag == "restrained":
                milestones["restraint"] += 1
            elif tag == "woke":
                milestones["restraint released"] += 1
            elif tag == "true-self":
                milestones["true self"] += 1
            elif tag == "damage":
                milestones["hit outside combat"] += 1
        if s.ending == "nova":
            milestones["ended by Nova"] += 1
        if s.ending == "king-room":
            milestones["ended by the King room"] += 1
    with untraced():
        extra = bot_table(*KING_ROOM_GAME)
        extra.run(400_000)
    if extra.state.ending == "king-room":
        milestones["ended by the King room"] += 1
    return kinds, entries, milestones


@pytest.mark.slow
@pytest.mark.xdist_group("locke300")
def test_every_base_kind_and_fate_chart_entry_fires() -> None:
    kinds, entries, milestones = census()
    rows: list[tuple[str, Any]] = [(f"base card: {k}", kinds[k]) for k in KINDS]
    rows += [(f"{chart}: {entry}", entries[(chart, entry)]) for chart, ids in CHART_ENTRIES.items() for entry in ids]
    rows += [(m, milestones[m]) for m in MILESTONES]
    width = max(len(name) for name, _ in rows)
    print(f"\n{'l3-base coverage over ' + str(len(played_games())) + ' games':<{width}}  count")
    for name, count in rows:
        print(f"{name:<{width}}  {count}")
    assert len(KINDS) == 21
    gaps = [name for name, count in rows if not count]
    assert not gaps, f"never fired in the 300 games: {gaps}"

"""Kills that win stay recorded (issue 25 A3; KMC 11.8.2, rulings C8 and N25).

S-Strohheim wins by killing a Locke with his own attack; KMC 11.8.2 says such a kill stays
won whatever happens afterwards, and a random Locke counts (C8). The engine keeps every kill
in ``LockeState.kill_log`` with the cards of that moment (engine/locke/fate.py credit_kill),
and the judgement reads those cards at the final reveal (engine/locke/ending.py facts).
"""

from __future__ import annotations

from typing import Any

from engine.locke import ending, fate, victory
from engine.locke.combat.actions import Equip, UseItem
from engine.locke.combat.obstacles import obstacles_from
from engine.locke.outcomes import Opponent
from engine.locke.state import NO_SEAT, with_zone, zone_of
from tests.engine.locke.combat_helpers import combat_table, seven
from tests.engine.locke.flow_helpers import act, five, game, roll, table_at


def _strohheim(**more: Any) -> list[dict[str, Any]]:
    return five(s0={"character": "strohheim-s", "silhouette": "strohheim-s", **more})


def _verdict(state: Any, truth: dict[int, str], seat: int) -> victory.Verdict:
    """Judge ``state`` as the final reveal would: every card behind the log's handles open."""
    opened = tuple((h, truth[h]) for h in range(state.next_handle) if h in truth)
    state = state._replace(open_cards=opened, ending="guard")
    return victory.judge(game().components, ending.facts(game(), state))[seat]


def test_a_random_locke_killed_by_strohheim_s_is_credited_c8() -> None:
    """KMC 11.8.2 with ruling C8: a random Locke of a random combat counts for S-Strohheim. His Nike
    attack (KMC 2.3.2) kills a random Locke 2 whose durability is down to 1."""
    (locke,) = obstacles_from(game(), (Opponent("unused-character", count=1, random_characters=1),), ("locke-2",))
    locke = locke._replace(durability=1)
    table = combat_table(seats=_strohheim(), sides=((0,), ()), obstacles=(locke,), deck=seven() + seven(),
                         equip={0: Equip(0, 0, "", False, -1, 10)})
    roll(table, 3, 3)  # the Nike check passes
    roll(table, 6, 6, 1, 1)  # Strohheim first
    act(table, UseItem(0, "nike", 1))
    roll(table, 3, 4)  # the damage check: Nike's 20 against 1
    assert table.state.kill_log == ((0, table.state.seats[0].character, NO_SEAT, NO_SEAT, "locke-2"),)
    got = _verdict(table.state, table.truth, 0)
    assert got.personal_met, got


def test_a_kill_stays_won_after_the_killer_and_the_victim_change_character_n25() -> None:
    """KMC 11.8.2: 'once won, it stays won'. Strohheim kills Locke 1 (seat 1), then both change
    card (a true self puts the old card in chars:discarded, fate.py): he still wins as the
    S-Strohheim he was, and the card he has now gains nothing from that kill."""
    seats = _strohheim()
    seats[1] = {**seats[1], "character": "locke-2", "silhouette": "locke", "place": "P:1:0"}
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier"})
    s = fate.kill(game(), table.state, 1, killer=0, cause="combat")
    truth = dict(table.truth)
    old0, old1 = s.seats[0].character, s.seats[1].character
    new0, new1 = s.next_handle, s.next_handle + 1
    truth[new0], truth[new1] = "nagato", "octavius"
    seats2 = list(s.seats)
    seats2[0] = seats2[0]._replace(character=new0)
    seats2[1] = seats2[1]._replace(character=new1)
    s = s._replace(seats=tuple(seats2), next_handle=new1 + 1)
    s = s._replace(zones=with_zone(s, "chars:discarded", zone_of(s, "chars:discarded") + (old0, old1)))
    got = _verdict(s, truth, 0)
    assert got.won and got.code == "personal:locked-win-as-strohheim-s", got
    # the record is the cards of that moment: Locke 2 killed by S-Strohheim
    assert s.kill_log == ((0, old0, 1, old1, ""),)

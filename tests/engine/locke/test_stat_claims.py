"""Every declaration of a stat outside combat is judged on the current stats (ruling N100).

The current stats are the printed card plus the public ledger (``Seat.mods``:
transformation gains for the game, psycho blast and Hijiri's whim until death)
and, while an ESP proof is in, level and power 0 (seed 002 prison 12+, N112).
Each test plays one declaration on a trusted LocalTable, where a claim is
judged at once: an honest declaration at the current value must pass and
the honest legal actions must offer it; a declaration the current stats do
not allow must be a false claim (or refused when the stat is public).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import CheatDetected, IllegalAction
from engine.locke import claims as ck
from engine.locke.fate import HitRoll
from engine.locke.actions import (
    Answer,
    CheckValue,
    Choose,
    Declare,
    DeclareDurability,
    Escape,
    Follow,
    KingRoom,
    Land,
    Nova,
    Override,
    Release,
    Stat,
    Teleport,
)
from tests.engine.locke.flow_helpers import act, five, roll, settle, table_at, waiting
from tests.engine.locke.test_base_cards import arrive
from tests.engine.locke.test_traps import _trap

GAINED_LEVEL = [["level", "add", 1, "game"]]  # seed 002 transformation chart: ESP level +1 for the game


def _planet(seats: Any) -> Any:
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier"})
    act(table, Declare(0, False))
    return table


def _on_trap(seats: Any, event: bool = False) -> Any:
    """Seat 0 walks onto a trap card (rolling 6 to keep any ESP proof in the check phase first)."""
    from engine.core.pending import Chance
    from engine.locke.actions import Keep, Walk

    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier",
                      "cells": {"P:1:1": "trap"}})
    act(table, Declare(0, False))
    if isinstance(table.pending, Chance):
        roll(table, 6)
    act(table, Walk(0, "P:1:1"))
    act(table, Keep(0, False))
    if event:
        roll(table, 3, 4)  # trap 7: the event chart
    return table


NIA = {"character": "nia", "silhouette": "nia"}
OTHER = {"character": "locke-1", "silhouette": "locke"}  # seat 2 when seat 0 plays Nia


def _last_claim(table: Any) -> Any:
    return table.state.claims[-1]


# --- ESP level: teleport, party follow, prison escape, Nova (KMC 9.2.1, seed 002, KMC 4) ---------


def test_a_teleport_at_a_level_gained_by_transformation_is_honest() -> None:
    """Seed 002 transformation (+1 ESP level for the game), N100: Nia (printed 4) now teleports at 5."""
    table = _planet(five(s0={**NIA, "mods": GAINED_LEVEL}, s2=OTHER))
    assert max(a.level for a in table.legal(0) if isinstance(a, Teleport)) == 5
    act(table, Teleport(0, 5))  # judged at once on the LocalTable: no FalseClaim
    assert _last_claim(table).what == ck.STAT_NOW and table.state.queue[0].kind == "tele_roll"


def test_a_teleport_above_the_current_level_is_still_a_false_claim() -> None:
    """KMC 9.2.1, N100: the gained level is the limit; Nia at 4 + 1 cannot teleport at 6."""
    table = _planet(five(s0={**NIA, "mods": GAINED_LEVEL}, s2=OTHER))
    with pytest.raises(FalseClaim):
        table.feed(Teleport(0, 6))


def _party_teleport(partner: dict[str, Any], level: int) -> Any:
    seats = five(s2={"place": "P:1:0", "status": "partner", "leader": 0, **partner})
    table = _planet(seats)
    act(table, Teleport(0, level))
    roll(table, level)
    act(table, Land(0, next(a.to for a in table.legal(0) if isinstance(a, Land))))
    assert waiting(table) == ("locke.follow", 2)
    return table


def test_a_partner_follows_a_teleport_at_its_gained_level() -> None:
    """KMC 9.2.1 (a partner follows if its level reaches the leader's), N100: Nia at 4 + 1 follows a 5."""
    table = _party_teleport({"mods": GAINED_LEVEL}, 5)
    assert [a.follow for a in table.legal(2)] == [False, True]
    act(table, Follow(2, True))
    assert table.state.seats[2].place == table.state.seats[0].place


def test_a_partner_with_an_esp_proof_cannot_follow() -> None:
    """Seed 002 prison 12+ (N112): with a proof in, the ESP level is 0, below any teleport."""
    table = _party_teleport({"proofs": 1}, 1)
    assert [a.follow for a in table.legal(2)] == [False]
    with pytest.raises(FalseClaim):
        table.feed(Follow(2, True))


def _prison(s0: dict[str, Any], faces: tuple[int, int]) -> Any:
    seats = five(s0={**NIA, "place": "P:1:1", "status": "arrested", **s0}, s2=OTHER)
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier",
                      "cells": {"P:1:1": {"face_up": "arrest"}}})
    act(table, Declare(0, False))
    if s0.get("proofs"):
        roll(table, 6)  # the check phase: the ESP proof stays in
    act(table, Release(0, False))
    roll(table, *faces)
    assert waiting(table) == ("locke.escape", 0)
    return table


def test_a_prison_escape_at_a_gained_level_is_honest() -> None:
    """Seed 002 prison 7 (escape with ESP level 5 or more), N100: Nia at 4 + 1 escapes."""
    table = _prison({"mods": GAINED_LEVEL}, (3, 4))
    assert Escape(0, True) in table.legal(0)
    act(table, Escape(0, True))
    assert table.state.seats[0].status == "normal"


def test_a_prison_escape_with_an_esp_proof_is_a_false_claim() -> None:
    """Seed 002 prison 6 (ESP level 4 or more) and 12+: Nia's printed 4 is 0 while a proof is in."""
    table = _prison({"proofs": 1}, (3, 3))
    assert Escape(0, True) not in table.legal(0)
    with pytest.raises(FalseClaim):
        table.feed(Escape(0, True))


def test_the_nova_check_at_a_gained_level_is_honest() -> None:
    """KMC 4 Nova (an ESP level check), N100: Francis at 4 + 1 declares 5."""
    table = arrive("nova", s0={"character": "francis", "silhouette": "francis", "mods": GAINED_LEVEL})
    assert waiting(table) == ("locke.nova", 0)
    assert max(a.level for a in table.legal(0) if isinstance(a, Nova)) == 5
    act(table, Nova(0, 5))
    assert _last_claim(table).what == ck.STAT_NOW


# --- the trap and event charts (seed 002) ----------------------------------------------------


def test_hallucination_with_an_esp_proof_declares_level_0() -> None:
    """Seed 002 trap 6 (declare the current ESP level), 12+ (0 with a proof): the printed 6 is refused."""
    table = _on_trap(five(s0={"proofs": 1}))
    roll(table, 2, 4)
    assert waiting(table) == ("locke.hallu_declare", 0)
    assert table.legal(0) == [Stat(0, "level", 0)]
    before = table.state
    with pytest.raises(IllegalAction):
        table.feed(Stat(0, "level", 6))
    assert table.state is before
    act(table, Stat(0, "level", 0))


def test_hallucination_declares_the_gained_level() -> None:
    """Seed 002 trap 6, transformation +1: Locke-1 (printed 6) declares 7; declaring 6 is false."""
    table = _trap(five(s0={"mods": GAINED_LEVEL}))
    roll(table, 2, 4)
    assert table.legal(0) == [Stat(0, "level", 7)]
    with pytest.raises(FalseClaim):
        table.feed(Stat(0, "level", 6))


def test_psycho_blast_level_0_with_an_esp_proof_is_honest() -> None:
    """Seed 002 event 3 (level 0 is spared), 12+: a proof holds Nia's level at 0, so 'level-0' is true."""
    table = _on_trap(five(s0={**NIA, "proofs": 1}, s2=OTHER), event=True)
    roll(table, 1, 2)
    assert waiting(table) == ("locke.blast_choice", 0)
    assert table.legal(0) == [Choose(0, "level-0")]
    act(table, Choose(0, "level-0"))
    assert ("psycho-blast", 0, "level-0") in table.state.events


def test_a_level_check_with_an_esp_proof_is_at_level_0() -> None:
    """KMC 11.2 with seed 002 12+: the black hole's level check (trap 16) declares 0 with a proof in."""
    table = _on_trap(five(s0={"proofs": 1}), event=True)
    roll(table, 6, 6)
    roll(table, 6, 6)  # 12 + 4: black hole, a level check
    assert ("trap", "black-hole", 0) in table.state.events
    before = table.state
    with pytest.raises(IllegalAction):  # the level is public: nothing is asked
        table.feed(CheckValue(0, 6))
    assert table.state is before
    # 2d6 cannot come to 0 or less: the check fails at once, with no dice, and the seat falls in
    assert ("check", 0, "level", 0, 0, False) in table.state.events
    assert table.state.claims == () and any(e[:2] == ("black-hole-fell", 0) for e in table.state.events)


def test_a_mind_check_after_psycho_bomb_losses_reaches_only_the_mind_left() -> None:
    """Ruling N1 (psycho bomb lowers the mind), KMC 11.3: Locke-1's 8 - 2 = 6 is the top of a mind check."""
    table = _trap(five(s0={"mods": [["mind", "add", -2, "life"]]}))
    roll(table, 6, 6)  # trap 12: chronos trap, a mind check
    assert max(a.value for a in table.legal(0) if isinstance(a, CheckValue)) == 6
    with pytest.raises(FalseClaim):
        table.feed(CheckValue(0, 7))
    act(table, CheckValue(0, 6))


def test_a_mind_set_by_hijiris_whim_is_public_and_not_declared_again() -> None:
    """Seed 002 event 11 (Hijiri's whim sets the mind for life), N100: a 'set' is public; a psycho bomb's
    damage check then runs on the set mind (3 - 1 = 2) without asking."""
    table = _trap(five(s0={"mods": [["mind", "set", 3, "life"], ["mind", "add", -1, "life"]]}))
    roll(table, 1, 1)  # trap 2: psycho bomb against the mind
    assert table.pending.purpose == "locke.chart.damage"
    head = table.state.queue[0]
    assert isinstance(head, HitRoll) and head.before == 2


def test_a_durability_gained_by_transformation_is_declared() -> None:
    """Seed 002 transformation (+1 durability), N100 / N111: Locke-1 (6) with 1 damage declares 6."""
    table = _trap(five(s0={"mods": [["durability", "add", 1, "game"]], "damage": 1}))
    roll(table, 2, 4)
    act(table, Stat(0, "level", 6))
    roll(table, 4, 4)
    roll(table, 3, 4)
    assert table.legal(0) == [DeclareDurability(0, 6)]
    with pytest.raises(FalseClaim):
        table.feed(DeclareDurability(0, 5))
    act(table, DeclareDurability(0, 6))


# --- the King editorial room (KMC 4, a mind check for Yuki Hijiri) ------------------------------


def test_the_king_room_mind_is_the_current_mind() -> None:
    """KMC 4 King editorial room, N100: Hijiri (printed mind 7) after losing 2 declares at most 5."""
    table = arrive("king-editorial-room", s0={"character": "hijiri-yuki", "silhouette": "hijiri-yuki",
                                              "mods": [["mind", "add", -2, "life"]]})
    assert waiting(table) == ("locke.king", 0)
    assert max(a.mind for a in table.legal(0) if isinstance(a, KingRoom)) == 5
    with pytest.raises((FalseClaim, IllegalAction)):
        table.feed(KingRoom(0, 7))


# --- Lord Leon's override and the final judgement (KMC 11.1.3, C10) ----------------------------


def _leon_refused(**others: dict[str, Any]) -> Any:
    """Seat 4 plays Lord Leon, declares victory, and seat 0 refuses: the override is asked."""
    seats = five(s4={"character": "lord-leon", "silhouette": "lord-leon"}, **others)
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 4, "fill": "frontier"})
    act(table, Declare(4, True))
    act(table, Answer(0, False))
    assert waiting(table) == ("locke.override", 4)
    return table


def test_lord_leon_counts_the_others_current_levels() -> None:
    """KMC 11.1.3 (every other living character at level 4 or less), N100, seed 002 12+: Locke-1 and
    Riot (printed 6) hold ESP proofs, so they are at 0: the override holds and Lord Leon wins (C10)."""
    table = _leon_refused(s0={"proofs": 1}, s1={"proofs": 1})
    act(table, Override(4, True))  # judged at the end on the LocalTable: no FalseClaim, no cheat
    outcome = table.outcome()
    assert outcome is not None and outcome.reason.startswith("locke.end.declaration")
    assert outcome.seats[4].grade == "A"  # C10, judged on the current levels too: nobody else above 4


def test_lord_leon_fails_on_a_level_gained_by_transformation() -> None:
    """KMC 11.1.3, N100: Nia (printed 4) with +1 is at 5: Lord Leon's override is a false claim."""
    table = _leon_refused(s0={"proofs": 1}, s1={"proofs": 1}, s2={"mods": GAINED_LEVEL})
    table.feed(Override(4, True))
    with pytest.raises((FalseClaim, CheatDetected)):
        settle(table)

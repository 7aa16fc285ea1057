"""Death, revival, prison, restraint and the transformation check (engine/locke/fate.py;
seed 002 prison and transformation charts, KMC 8, seed 000 clone). Each test names the
seed line or KMC section it checks and gives every die itself."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import IllegalAction
from engine.locke import fate, stats
from engine.locke.actions import (
    Declare,
    DeclareDurability,
    EnterBase,
    Nop,
    PlayTeleport,
    Release,
    Teleport,
    Walk,
)
from net.local_table import LocalTable
from tests.engine.locke.flow_helpers import act, five, game, roll, table_at, waiting

KEYS = {"B:1:2": "command-room", "B:3:3": "laboratory", "B:5:5": "computer-room", "B:6:6": "energy-room"}


def planet(seats: list[dict[str, Any]], **position: Any) -> LocalTable:
    return table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier", **position})


def base(seats: list[dict[str, Any]], **position: Any) -> LocalTable:
    return table_at({"seats": seats, "phase": "base", "fill": "corridor", "turn_of": 0,
                     "placements": [{"zone": "keybases", "seat": 1, "cells": KEYS}], **position})


def me(table: LocalTable) -> Any:
    return table.state.seats[0]


def events(table: LocalTable, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def _arrested(**extra: Any) -> LocalTable:
    seats = five(s0={"place": "P:1:1", "status": "arrested", **extra})
    table = planet(seats, cells={"P:1:1": {"face_up": "arrest"}})
    act(table, Declare(0, False))
    return table


# --- prison ------------------------------------------------------------------------------


def test_prison_12_puts_an_esp_proof_in_and_the_check_phase_removes_it() -> None:
    """Seed 002 prison 12+: escape fails and one ESP proof goes in (level and power 0); each own
    check phase a 1d6 of 2 or less removes one."""
    table = _arrested()
    act(table, Release(0, False))
    roll(table, 6, 6)
    assert me(table).proofs == 1 and me(table).status == "arrested"
    assert ("esp-proof", 0, 1) in table.state.events
    character = game().components.character("locke-1")
    assert stats.current(character, (), 1, "level") == 0 and stats.current(character, (), 1, "mind") == 8
    _next_own_turn(table)
    act(table, Declare(0, False))
    roll(table, 2)  # the check phase removal roll
    assert me(table).proofs == 0 and ("esp-proof-removed", 0, 0) in table.state.events


def test_proofs_add_up_and_one_is_tried_per_check_phase() -> None:
    """Seed 002 prison 12+: a second proof adds to the first; a 3+ removes none."""
    table = _arrested(proofs=1, prison_failures=1)
    roll(table, 3)  # check phase: stays
    act(table, Release(0, False))
    roll(table, 6, 6)
    assert me(table).proofs == 2


def test_an_esp_proof_forbids_teleports_and_level_declarations() -> None:
    """Seed 002 prison 12+: with a proof in the ESP level is 0: no teleport, Nova or entry above 0."""
    table = planet(five(s0={"proofs": 1}))
    act(table, Declare(0, False))
    roll(table, 6)  # check phase: proof stays
    assert not any(isinstance(a, Teleport) for a in table.legal(0))
    with pytest.raises(IllegalAction):
        table.feed(Teleport(0, 2))
    off = base(five(s0={"place": "", "proofs": 1}, s1={"place": "B:4:4"}, s2={"place": ""}, s3={"place": ""},
                    s4={"place": ""}))
    act(off, Declare(0, False))
    roll(off, 6)
    assert [a for a in off.legal(0) if isinstance(a, EnterBase)] == [EnterBase(0, 0)]


def test_prison_11_escapes_into_the_trap_chart() -> None:
    """Seed 002 prison 11: free, then the trap chart (engine/locke/traps.py)."""
    table = _arrested()
    act(table, Release(0, False))
    roll(table, 5, 6)
    assert me(table).status == "normal" and "trap" in table.pending.purpose  # type: ignore[union-attr]


def test_prison_growing_modifier_turns_a_6_into_an_escape_row() -> None:
    """Seed 002 prison: each failure adds 1; a natural 2-5 always escapes."""
    table = _arrested(prison_failures=3)
    act(table, Release(0, False))
    roll(table, 2, 3)  # 5 + 3 = 8 but natural 5: escape
    assert me(table).status == "normal" and me(table).prison_failures == 0


def test_arrest_then_escape_through_the_level_row() -> None:
    """Seed 002 prison 6: level 4 or more may escape (a claim)."""
    table = _arrested()
    act(table, Release(0, False))
    roll(table, 3, 3)
    from engine.locke.actions import Escape

    act(table, Escape(0, True))
    assert me(table).status == "normal" and ("escaped", 0, "level-4") in table.state.events


def _next_own_turn(table: LocalTable) -> None:
    from engine.core.pending import Chance, Decision

    start = table.state.turn
    for _ in range(300):
        pending = table.pending
        if table.state.current == 0 and table.state.turn != start:
            return
        if isinstance(pending, Chance):
            roll(table, *([3] * len(pending.dice)))
            continue
        assert isinstance(pending, Decision)
        legal = table.legal(pending.seat)
        pick = next((a for a in legal if isinstance(a, (Nop, Declare)) and not getattr(a, "declare", False)), legal[0])
        act(table, pick)
    raise AssertionError("seat 0's turn never came")


# --- death and revival -------------------------------------------------------------------------


def test_revival_turns_a_converted_e_g_back_to_evil_and_gives_back_the_nova_try() -> None:
    """KMC 6.3 E/G, seed 000 clone: back alive the character is Evil again; KMC 4: Nova may be tried again."""
    seats = five(s0={"character": "ran-eg", "silhouette": "locke", "alive": False, "place": "", "kept": ["clone"],
                     "converted": True})
    table = planet(seats)
    seat0 = table.state.seats[0]._replace(tried=("nova",))
    s = fate.revive(game(), table.state._replace(seats=(seat0,) + table.state.seats[1:]), 0, cell="P:1:0",
                    how="test")
    assert not s.seats[0].converted and s.seats[0].tried == () and s.seats[0].alive


def test_kill_drops_proofs_life_mods_and_partners() -> None:
    """Seed 002 prison 12+: proofs go at death; 'until death' changes end; partners are freed (KMC 8)."""
    table = planet(five(s0={"proofs": 2, "mods": [["level", "add", 1, "life"], ["mind", "add", 1, "game"]]},
                        s2={"place": "P:1:0", "status": "partner", "leader": 0}))
    s = fate.kill(game(), table.state, 0, killer=3, cause="test")
    p = s.seats[0]
    assert not p.alive and p.proofs == 0 and p.mods == (("mind", "add", 1, "game"),)
    assert s.seats[2].status == "normal" and s.seats[3].kills == (0,)
    assert s.events[-1] == ("died", 0, "test", 3)
    assert fate.kill(game(), s, 0, cause="again") is s


# --- restraint --------------------------------------------------------------------------------


def test_restraint_counts_down_and_wakes() -> None:
    """KMC 8 resting: the turns count down; at zero the seat wakes."""
    table = planet(five(s0={"status": "resting", "rest": 1, "restraint": "energy-absorber"}))
    assert me(table).status == "normal" and ("woke", 0, "counted") in table.state.events


def test_restrain_rejects_unknown_causes() -> None:
    table = planet(five())
    with pytest.raises(ValueError):
        fate.restrain(game(), table.state, 0, cause="nap", turns=2)


# --- transformation check ---------------------------------------------------------------------


def _hit(seed: int = 0, **s0: Any) -> LocalTable:
    """Seat 0 takes a 10:1 hit from a stacked vortex with no teleport (a seed dealing none)."""
    for k in range(seed, seed + 40):
        seats = five(s0={"place": "B:1:1", **s0}, s1={"place": "B:4:4"}, s2={"place": ""}, s3={"place": ""},
                     s4={"place": ""})
        table = table_at({"seats": seats, "phase": "base", "fill": "corridor", "turn_of": 0,
                          "cells": {"B:2:1": "stacked-vortex"},
                          "placements": [{"zone": "keybases", "seat": 1, "cells": KEYS}]}, seed=k)
        act(table, Declare(0, False))
        act(table, Walk(0, "B:2:1"))
        if table.legal(0) == [PlayTeleport(0, -1)]:
            act(table, PlayTeleport(0, -1))
            return table
    raise AssertionError("no seed dealt seven cards without a teleport")


@pytest.mark.parametrize(("faces", "stat", "gain"), [((2, 2), "power", 10), ((4, 6), "durability", 1),
                                                       ((5, 6), "mind", 1), ((6, 6), "level", 1)])
def test_transformation_stat_changes_last_the_game(faces: tuple[int, int], stat: str, gain: int) -> None:
    """Seed 002 damage table: a natural 6-6 on a character leads to the transformation check;
    4 power +10, 10 durability +1, 11 mind +1, 12 level +1, for the rest of the game."""
    table = _hit()
    act(table, DeclareDurability(0, 6))
    roll(table, 6, 6)  # 10:1 at 12: one damage, natural doubles
    roll(table, *faces)
    assert me(table).mods == ((stat, "add", gain, "game"),)
    assert events(table, "transformation")[-1][2] != "nothing"


def test_transformation_nothing_and_extra_cards() -> None:
    """Seed 002 transformation 5-6, 8-9 nothing; 7 extra combat cards (logged for the combat)."""
    table = _hit()
    act(table, DeclareDurability(0, 6))
    roll(table, 6, 6)
    roll(table, 3, 4)
    assert events(table, "transformation")[-1] == ("transformation", 0, "extra-combat-cards")
    assert me(table).mods == ()


def test_true_self_deals_a_new_character_and_silhouette() -> None:
    """Seed 002 transformation 2-3: the card and the silhouette are replaced by random ones; the
    old card is discarded; the new card is dealt to the seat alone."""
    table = _hit()
    old = me(table).character
    act(table, DeclareDurability(0, 6))
    roll(table, 1, 1)  # 10:1 at 2: 5 damage (Locke-1 has 6): survives, natural 1-1
    assert me(table).alive
    roll(table, 1, 2)  # true self
    copies = fate.silhouette_copies(game(), table.state)
    roll(table, 1)
    assert waiting(table) == ("locke.hit_redeclare", 0)  # ruling D34: the damage comes after, on the new card
    act(table, table.legal(0)[0])
    new = me(table).character
    assert new != old and old in dict(table.state.zones)["chars:discarded"]
    assert me(table).silhouette == copies[0] and events(table, "true-self")
    assert new not in dict(table.state.open_cards)
    assert table.knowledge[0].knows(new) and not table.knowledge[2].knows(new)


def test_a_false_durability_declaration_is_caught() -> None:
    """KMC 10.7: the declared durability must be the current one (printed + changes - damage)."""
    table = _hit()
    with pytest.raises(FalseClaim):
        table.feed(DeclareDurability(0, 5))


def test_mods_enter_the_claims() -> None:
    """A durability +1 from the transformation check makes 7 the honest declaration for Locke-1."""
    table = _hit(mods=[["durability", "add", 1, "game"]])
    assert table.legal(0) == [DeclareDurability(0, 7)]
    act(table, DeclareDurability(0, 7))
    assert table.state.claims[-1].value[2] == [["durability", "add", 1, "game"]]


# --- when a combat starts: actually alive / actually there / residual thought (seed 002) ---------


def _combat_starts(**s2: Any) -> LocalTable:
    """Seat 0 turns a combat card on P:1:1 and refuses to surrender; seat 2 is elsewhere or dead."""
    seats = five(s2={"place": "P:2:0", **s2})
    table = planet(seats, cells={"P:1:1": "combat"})
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    from engine.locke.actions import Keep, Surrender

    act(table, Keep(0, False))
    roll(table, 3, 4)
    act(table, Surrender(0, False))
    return table


def _offer_to(table: LocalTable, seat: int) -> None:
    from engine.locke.actions import TryRevive

    while waiting(table) == ("locke.try_revive", waiting(table)[1]) and waiting(table)[1] != seat:
        act(table, TryRevive(waiting(table)[1], False))
    assert waiting(table) == ("locke.try_revive", seat)
    act(table, TryRevive(seat, True))


def test_actually_alive_2_or_12_revives_on_the_combat_cell() -> None:
    """Seed 002 actually-alive 2/12: the dead character is back, on the combat cell."""
    table = _combat_starts(alive=False, place="")
    _offer_to(table, 2)
    roll(table, 6, 6)
    p = table.state.seats[2]
    assert p.alive and p.place == "P:1:1" and ("revived", 2, "actually-alive", "P:1:1") in table.state.events
    assert ("chart-entry", "actually-alive", "alive", 2) in table.state.events


def test_actually_alive_3_to_5_is_a_residual_thought_with_its_firepower() -> None:
    """Seed 002 actually-alive 3-5 and residual-thought chart: 2 gives firepower 100."""
    table = _combat_starts(alive=False, place="")
    _offer_to(table, 2)
    roll(table, 1, 3)
    roll(table, 1, 1)
    assert ("joined", 2, "P:1:1", 1, 100) in table.state.events and not table.state.seats[2].alive


def test_actually_there_2_to_4_moves_to_the_cell_now() -> None:
    """Seed 002 actually-there 2-4: the piece moves onto the combat cell at once."""
    table = _combat_starts()
    _offer_to(table, 2)
    roll(table, 1, 2)
    assert table.state.seats[2].place == "P:1:1" and ("joined", 2, "P:1:1", 1, 0) in table.state.events


def test_actually_there_5_to_7_joins_a_later_round_and_8_up_not_at_all() -> None:
    """Seed 002 actually-there 5-7: from round 2-4 (for the combat to honour); 8-12: not there."""
    table = _combat_starts()
    _offer_to(table, 2)
    roll(table, 3, 3)
    assert ("joins-later", 2, "P:1:1", 3) in table.state.events and table.state.seats[2].place == "P:2:0"


def test_a_prisoner_who_is_actually_there_escapes() -> None:
    """Seed 002 prison: an arrested character joining a combat not of the prison chart is free (D11)."""
    table = _combat_starts(status="arrested")
    _offer_to(table, 2)
    roll(table, 2, 2)
    assert table.state.seats[2].status == "normal" and ("escaped", 2, "joined-combat") in table.state.events


def test_resting_seats_get_no_offer() -> None:
    """KMC 8: an unable-to-act seat cannot roll actually-there."""
    from engine.locke.actions import TryRevive

    table = _combat_starts(status="resting", rest=3)
    offered = []
    while waiting(table)[0] == "locke.try_revive":
        offered.append(waiting(table)[1])
        act(table, TryRevive(waiting(table)[1], False))
    assert 2 not in offered and offered

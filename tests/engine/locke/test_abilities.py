"""The characters' abilities outside combat (KMC 2.2; engine/locke/abilities.py, rulings
N168-N170): offered inside the movement decision, each a claim or a reveal."""

from __future__ import annotations

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import CheatDetected, IllegalAction
from engine.core.pending import HiddenOp
from engine.locke import claims as ck
from engine.locke.abilities import CONVERSION, PRIVILEGE, SHAPE_CHANGE
from engine.locke.actions import Declare, UseAbility
from net.local_table import LocalTable
from tests.engine.locke.flow_helpers import act, five, game, roll, table_at, waiting


def _moving(**overrides) -> LocalTable:  # type: ignore[no-untyped-def]
    """Seat 0 (Locke-1 on a Locke face unless told otherwise) at its movement decision on
    P:1:0, with Nia (seat 2, an E/G-neutral Good) beside it."""
    table = table_at({"seats": five(**{"s2": {"place": "P:1:0"}, **overrides}), "phase": "planet", "turn_of": 0,
                      "fill": "frontier"})
    act(table, Declare(0, False))
    assert waiting(table) == ("locke.move", 0)
    return table


def _reveal(table: LocalTable) -> None:
    while isinstance(table.pending, HiddenOp):
        table.step()


def test_conversion_reveals_the_card_and_a_passed_level_check_marks_the_target() -> None:
    """KMC 2.2.1: Locke shows his card, names Nia, passes a level check: she is marked
    converted (Good from now if she is E/G), and Locke's movement decision comes back."""
    table = _moving()
    offer = UseAbility(0, CONVERSION, 2, "", 6)
    assert offer in table.legal(0)
    act(table, offer)
    _reveal(table)
    assert table.state.seats[0].exposed and 2 in table.state.seats[0].converts
    roll(table, 3, 3)
    assert table.state.seats[2].converted and ("conversion", 0, 2) in table.state.events
    assert waiting(table) == ("locke.move", 0)
    assert not [a for a in table.legal(0) if isinstance(a, UseAbility) and a.ability == CONVERSION]


def test_a_failed_conversion_check_changes_nothing_but_uses_the_try() -> None:
    """KMC 2.2.1 note: one try per target (until either changes character or revives)."""
    table = _moving()
    act(table, UseAbility(0, CONVERSION, 2, "", 6))
    _reveal(table)
    roll(table, 6, 5)
    assert not table.state.seats[2].converted and table.state.seats[0].converts == (2,)
    with pytest.raises(IllegalAction):
        table.feed(UseAbility(0, CONVERSION, 2, "", 6))


def test_conversion_by_someone_without_the_ability_is_caught_at_the_reveal() -> None:
    """KMC 2.2.1: only Locke and Liza convert; the revealed card names the cheat."""
    table = _moving(s0={"character": "riot", "silhouette": "locke", "place": "P:1:0"}, s1={"character": "locke-1"})
    assert not [a for a in table.legal(0) if isinstance(a, UseAbility) and a.ability == CONVERSION]
    table.feed(UseAbility(0, CONVERSION, 2, "", 3))
    with pytest.raises(CheatDetected) as err:
        _reveal(table)
    assert err.value.seat == 0


def test_a_converted_mark_goes_when_the_target_comes_back_to_life() -> None:
    """KMC 2.2.1 table 2.2 and note: revived, the E/G is Evil again and may be tried again."""
    from engine.locke import fate

    table = _moving()
    act(table, UseAbility(0, CONVERSION, 2, "", 6))
    _reveal(table)
    roll(table, 3, 3)
    s = fate.revive(game(), table.state, 2, cell="P:1:0", how="test")
    assert not s.seats[2].converted and 2 not in s.seats[0].converts


def test_shape_change_takes_a_free_face_of_the_same_alignment_as_a_claim() -> None:
    """KMC 2.2.5: Locke-1 may show any free Good silhouette, never an Evil or Special one."""
    table = _moving()
    faces = {a.choice for a in table.legal(0) if isinstance(a, UseAbility) and a.ability == SHAPE_CHANGE}
    comps = game().components
    assert faces and all(comps.silhouette(f).attribute == "good" for f in faces) and "locke" not in faces
    act(table, UseAbility(0, SHAPE_CHANGE, 0, "soi"))
    p = table.state.seats[0]
    assert p.silhouette == "soi" and p.shifter and waiting(table) == ("locke.move", 0)
    assert table.state.claims[-1].what == ck.HAS_ABILITY and table.state.claims[-1].value == SHAPE_CHANGE
    with pytest.raises(IllegalAction):
        table.feed(UseAbility(0, SHAPE_CHANGE, 0, "riot"))  # an Evil face


def test_a_shape_change_without_the_ability_is_a_false_claim() -> None:
    """KMC 2.2.5: Nia has no shape change; claiming it is caught and names her."""
    table = _moving(s0={"character": "nia", "silhouette": "locke", "place": "P:1:0"},
                    s2={"character": "locke-1", "silhouette": "nia", "place": "P:1:0"})
    with pytest.raises(FalseClaim) as err:
        table.feed(UseAbility(0, SHAPE_CHANGE, 0, "soi"))
    assert err.value.seat == 0


def test_the_authors_privilege_changes_anothers_face_unless_it_shape_changed() -> None:
    """KMC 2.2.3: Yuki Hijiri gives Nia another Good face; a player who has shown a shape
    change is out of reach."""
    table = _moving(s0={"character": "hijiri-yuki", "silhouette": "hijiri-yuki", "place": "P:1:0"})
    offers = [a for a in table.legal(0) if isinstance(a, UseAbility) and a.ability == PRIVILEGE]
    assert offers and {a.target for a in offers} == {2}
    act(table, UseAbility(0, PRIVILEGE, 2, "soi"))
    assert table.state.seats[2].silhouette == "soi" and not table.state.seats[2].shifter
    s = table.state._replace(seats=tuple(q._replace(shifter=(i == 2)) for i, q in enumerate(table.state.seats)))
    table.state = s
    assert not [a for a in table.legal(0) if isinstance(a, UseAbility) and a.ability == PRIVILEGE]
    with pytest.raises(IllegalAction):
        table.feed(UseAbility(0, PRIVILEGE, 2, "adel"))


def test_a_conversion_declared_below_2_fails_without_dice() -> None:
    """KMC 2.2.1 with ruling N221: the conversion's level check goes through fate's one
    declared-check roll, so a level of 1 fails at once (2d6 never make less than 2): no dice
    are asked for, the try is used, the claim is made and the movement decision comes back."""
    table = _moving()
    act(table, UseAbility(0, CONVERSION, 2, "", 1))
    _reveal(table)
    assert waiting(table) == ("locke.move", 0)  # no Chance came: the check failed on the spot
    assert ("check", 0, "level", 1, 0, False) in table.state.events
    assert not table.state.seats[2].converted and table.state.seats[0].converts == (2,)
    assert table.state.claims[-1].what == ck.STAT_NOW

"""The transformation check before the damage in combat (KMC 11.4; rulings D34, R9, N110, N154;
audit-13 finding 4).

KMC 11.4: the damage of the attack that caused a transformation is taken after it; D34 applies
every result first; R9: an E (and so any killing hit) on a natural 1-1 or 6-6 still triggers
the check. So a combat hit on natural doubles rolls the transformation chart first and then
lands on the durability the result left: +1 from result 10, or a true self's fresh card.

Locke-1 (seat 0) fires a G-bomb (firepower 30) at Nia (seat 2, durability 4): a 1-1 reads 4
damage in the 7:1 column, which kills her on her own durability.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.core.pending import Chance
from engine.locke.actions import Nop
from engine.locke.combat.actions import Durability
from engine.locke.combat.model import IN
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, game, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)


def _hit_on_snake_eyes() -> Any:
    table = combat_table(deck=seven("g-bomb-30") + seven())
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "g-bomb-30", target=1))
    act(table, Nop(2))  # no escape
    act(table, Nop(2))  # no defence
    act(table, Durability(2, 4))
    roll(table, 1, 1)  # the damage check: 4 damage, and a natural 1-1
    return table


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def test_the_transformation_check_comes_before_the_damage() -> None:
    """KMC 11.4, D34: the chart is rolled while Nia is still unhurt (before: the damage landed
    first, and as it killed her no check was made at all)."""
    table = _hit_on_snake_eyes()
    assert isinstance(table.pending, Chance) and table.pending.purpose == "locke.chart.transformation"
    assert table.state.seats[2].damage == 0 and not _events(table, "cb-hit")


def test_durability_plus_one_counts_before_the_damage() -> None:
    """Seed 002 transformation 10 (+1 durability), D34: the 4 damage lands on 5, so the hit that
    would have killed her leaves her standing on 1."""
    table = _hit_on_snake_eyes()
    roll(table, 5, 5)  # 10: durability +1
    p = table.state.seats[2]
    assert p.alive and p.damage == 4 and fight(table).fighters[1].state == IN
    assert _events(table, "cb-hit")[-1][4:6] == (5, 1)


def test_a_killing_hit_on_natural_doubles_still_transforms() -> None:
    """R9 (an E result still triggers the check): the check is made, "nothing" (6) changes
    nothing, and then the hit kills her, Locke's kill."""
    table = _hit_on_snake_eyes()
    roll(table, 3, 3)  # 6: nothing
    assert _events(table, "transformation")[-1] == ("transformation", 2, "nothing")
    assert not table.state.seats[2].alive and _events(table, "died")[-1] == ("died", 2, "combat", 0)
    assert _events(table, "combat")[-1][4] == [2]  # the combat is over, Nia among its dead


def test_after_a_true_self_the_new_card_declares_its_durability_and_takes_the_hit() -> None:
    """KMC 11.4 (a new card, fresh stats; the damage after the change), N158: the seat declares
    the new character's durability (a claim: the old 4 is false unless the new card has 4), and
    the 4 damage lands on it."""
    table = _hit_on_snake_eyes()
    roll(table, 1, 1)  # 2: the true self
    while isinstance(table.pending, Chance):  # the new silhouette's draw
        roll(table, 1)
    assert waiting(table) == ("locke.cb_dur", 2)
    new = game().components.character(table.truth[table.state.seats[2].character])
    assert table.legal(2) == [Durability(2, new.durability)]
    if new.durability != 4:
        with pytest.raises(FalseClaim) as err:
            table.feed(Durability(2, 4))
        assert err.value.seat == 2
    act(table, Durability(2, new.durability))
    p = table.state.seats[2]
    assert p.damage == min(4, new.durability) and p.alive == (new.durability > 4)
    assert _events(table, "cb-hit")[-1][4:6] == (new.durability, max(0, new.durability - 4))

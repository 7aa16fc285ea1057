"""One cell holds one ambush (issue 25 A5; KMC 7.1.9, seed 000 3.2.3; rulings N40, N251).

With two base players each used to hide its own ambush without knowing the other's, and the
engine's own set-up put both on one cell (6 seats, seed 38), where both then fired. Both
ambushes are now laid in one placement (distinct cells by construction); the second base
player is told where they lie, and ambush B stays its own to come out of.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.pending import EMPTY
from engine.locke.actions import Declare, Walk
from tests.engine.locke.flow_helpers import act, bot_table, five, table_at, waiting


@pytest.mark.parametrize("players,seed", [(6, 38), (7, 3), (8, 11), (10, 5)])
def test_the_set_up_never_puts_two_ambushes_on_one_cell(players: int, seed: int) -> None:
    table = bot_table(players, seed)
    while table.state.phase == "setup":
        table.step()
    cells: Counter[str] = Counter()
    for zone, _, where, handles in (p[:4] for p in table.state.placements):
        if zone.startswith("ambush:"):
            cells.update(c for c, h in zip(where, handles) if table.truth[h] != EMPTY)
    assert sum(cells.values()) == 2 and max(cells.values()) == 1, cells


def test_ambush_b_is_the_second_base_players_to_come_out_of() -> None:
    """Seed 000 3.2.3, N40: only its owner may appear; B belongs to the second base player even
    though the first laid both (N251)."""
    seats = five(s3={"character": "octavius", "silhouette": "octavius", "place": ""})
    position = {"seats": seats, "phase": "planet", "turn_of": 0, "fill": "spaceport", "order": [0, 2, 4, 1, 3],
                "placements": [{"zone": "ambush:1", "seat": 1, "cells": {"P:1:1": "ambush-b", "P:2:2": "ambush-a"},
                                "disclosed_to": [3]}]}
    table = table_at(position)
    act(table, Declare(0, False))
    act(table, Walk(0, "P:1:1"))
    assert waiting(table) == ("locke.appear", 3)

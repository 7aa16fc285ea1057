"""A networked session does not run hidden placements yet and says so (issue 11: later work)."""

from __future__ import annotations

import pytest
from harness import tiny_table

from engine.core import Placement
from net.session.rounds import make_round


def test_a_placement_on_a_networked_table_is_refused_with_a_clear_reason() -> None:
    table, _ = tiny_table(2)
    table.start()
    table.run()  # a finished game: its card book exists
    session = table.sessions[0]
    with pytest.raises(RuntimeError, match="networked tables do not run placements yet.*local table"):
        make_round(session, Placement("place", "keybases", 0, ("a", "b"), ("kb1",)))

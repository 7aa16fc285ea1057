"""The Locke roll of zero dice that made networked dice crash (issue 26 item 0).

A 5-seat random-bot Locke game with seed 6 asks, at step 210, for the
initiative roll of no fighter at all: ``Chance("locke.combat.initiative", ())``.
``net.dice.check_dice`` used to refuse it. Now it is a settled roll: the
answer a networked table applies without any message is accepted by the
engine, and is the answer the trusted local table gives too.
"""

from __future__ import annotations

from engine.core.game import hash_of
from engine.core.pending import Chance
from net.games import game_named
from net.local_table import LocalTable
from net.session.dice_rounds import settled_round
from tools.match import local_setup, make_agents


def test_locke_seed_6_asks_for_zero_dice_and_the_settled_answer_is_accepted() -> None:
    entry = game_named("locke")
    setup = local_setup(entry, 5)
    table = LocalTable(setup.game, setup.state, setup.knowledge, make_agents(entry, "random", 6, 5), 6)
    for _ in range(210):
        assert table.pending is not None
        table.step()
    pending = table.pending
    assert pending == Chance("locke.combat.initiative", ())
    settled = settled_round(pending)
    assert settled is not None and settled.answer.faces == ()
    after = setup.game.apply(table.state, settled.answer)  # the engine takes the networked table's answer
    table.step()  # and the local table's own answer leads to the same state
    assert hash_of(setup.game, after) == hash_of(setup.game, table.state)

"""The Locke roll of zero dice that made networked dice crash (issue 26 item 0).

A random-bot Locke game can ask for the initiative roll of no fighter at
all: ``Chance("locke.combat.initiative", ())`` (5 seats, seed 6, step 210 under
the rules of issue 24; the search below finds such a moment under any rules).
``net.dice.check_dice`` used to refuse it. Now it is a settled roll: the
answer a networked table applies without any message is accepted by the
engine, and is the answer the trusted local table gives too.
"""

from __future__ import annotations

from typing import Any

from engine.core.game import hash_of
from engine.core.pending import Chance
from net.games import game_named
from net.local_table import LocalTable
from net.session.dice_rounds import settled_round
from tools.match import local_setup, make_agents


def _zero_dice_moment() -> tuple[Any, LocalTable]:
    """The first roll of no dice in 5-seat random-bot games, seeds 0 to 59."""
    entry = game_named("locke")
    for seed in range(60):
        setup = local_setup(entry, 5)
        table = LocalTable(setup.game, setup.state, setup.knowledge, make_agents(entry, "random", seed, 5), seed)
        for _ in range(3000):
            pending = table.pending
            if pending is None:
                break
            if isinstance(pending, Chance) and pending.dice == ():
                return setup.game, table
            table.step()
    raise AssertionError("no Locke game of seeds 0-59 asked for a roll of no dice")


def test_locke_asks_for_zero_dice_and_the_settled_answer_is_accepted() -> None:
    game, table = _zero_dice_moment()
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.initiative" and pending.dice == ()
    settled = settled_round(pending)
    assert settled is not None and settled.answer.faces == ()
    after = game.apply(table.state, settled.answer)  # the networked table's answer
    table.step()  # and the local table's own answer leads to the same state
    assert hash_of(game, after) == hash_of(game, table.state)

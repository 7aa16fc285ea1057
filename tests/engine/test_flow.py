"""The shared flow core (engine/core/flow.py): a step kind is defined once, and the settle
loop stops where the state waits or reports an engine fault instead of hanging."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.flow import StepDefinitionError, StepTable, settle
from engine.core.pending import DiceRolled, SealedChoicesRevealed


def _table() -> StepTable[str, Any, Any]:
    table: StepTable[str, Any, Any] = StepTable("test")
    table.waits("roll", {DiceRolled: "answer the dice"})
    table.runs("tick", "run the tick")
    return table


def test_a_kind_says_what_answers_it_or_how_it_runs() -> None:
    table = _table()
    assert table.handler("roll", DiceRolled) == "answer the dice"
    assert table.handler("roll", SealedChoicesRevealed) is None  # not an answer to this kind
    assert table.handler("tick", DiceRolled) is None and table.automatic("tick") == "run the tick"
    assert table.automatic("roll") is None and table.answered_by("roll") == (DiceRolled,)
    assert table.kinds() == ("roll", "tick")


@pytest.mark.parametrize("again", ["waits", "runs"])
def test_a_second_definition_of_a_kind_is_refused(again: str) -> None:
    table = _table()
    with pytest.raises(StepDefinitionError, match="'roll' is defined twice"):
        if again == "waits":
            table.waits("roll", {DiceRolled: "another"})
        else:
            table.runs("roll", "another")
    with pytest.raises(StepDefinitionError, match="'tick' is defined twice"):
        table.waits("tick", {DiceRolled: "another"})
    assert table.handler("roll", DiceRolled) == "answer the dice"  # the first definition stands


def test_a_waiting_kind_must_name_what_answers_it() -> None:
    with pytest.raises(StepDefinitionError, match="names no action"):
        StepTable[str, Any, Any]("test").waits("ask", {})


def test_settle_runs_until_the_state_waits() -> None:
    def run_next(n: int) -> int | None:
        return n + 1 if n < 7 else None

    assert settle(0, run_next, rule="test.guard") == 7
    assert settle(9, run_next, rule="test.guard") == 9  # already waiting: nothing runs


def test_settle_reports_an_endless_chain_as_an_engine_fault() -> None:
    with pytest.raises(IllegalAction, match="too many automatic steps") as caught:
        settle(0, lambda n: n + 1, rule="test.guard", limit=50)
    assert caught.value.rule == "test.guard"


def test_rider_and_locke_define_each_kind_once() -> None:
    """Both games build their tables at import: a repeated kind would have failed there."""
    from engine.locke import registry
    from engine.rider.game import STEPS as RIDER

    assert "main" in RIDER.kinds() and RIDER.handler("main", Action) is None
    assert len(registry.STEPS.kinds()) == len({cls.KIND for cls in registry.STEPS.kinds()})


def test_rider_refuses_a_step_kind_no_rule_defines() -> None:
    """An engine fault (a queued kind nothing defines) is a typed error, not a silent stall."""
    from engine.rider.state import Step
    from tests.engine.rider.rider_helpers import deck_list, synthetic_game

    game = synthetic_game()
    state, _ = game.new_game([deck_list(), deck_list()])
    with pytest.raises(IllegalAction, match="no rule defines") as caught:
        game.settle(state._replace(queue=(Step("nonsense", 0),)))
    assert caught.value.rule == "rider.guard"

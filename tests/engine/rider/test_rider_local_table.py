"""net.local_table.LocalTable: the trusted local driver (hot seat, bots, tests)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from rider_helpers import deck_list, synthetic_game

from engine.core import (
    SYSTEM,
    Action,
    ActionCodec,
    Chance,
    Decision,
    DiceRolled,
    Knowledge,
    Outcome,
    Pending,
    check_answer_matches,
    hash_of,
)
from engine.rider.actions import SetUp
from engine.core.inputs import SealedPick
from net.bots import GreedyBot, RandomBot
from net.games.rider.evaluation import rider_score
from net.local_table import LocalTable, TableError
from net.seam import InputRefused


def _rider_table(agents: list[Any], seed: int = 1) -> LocalTable:
    game = synthetic_game()
    state, knowledge = game.new_game([deck_list(), deck_list()])
    return LocalTable(game, state, knowledge, agents, seed)


def test_hot_seat_waits_for_the_human_seat_at_decisions_and_sealed_choices() -> None:
    table = _rider_table([None, RandomBot(random.Random(0))])
    assert table.run() is None and table.waiting_for() == (0,)
    assert table.step() is None  # nothing happens without the human
    legal = table.legal(0)
    assert legal and all(isinstance(a, SetUp) for a in legal)
    table.feed(legal[0])
    table.run()
    # the battle-mark choice: the bot has picked, the human has not
    assert table.waiting_for() == (0,)
    picks = table.legal(0)
    assert {p.choice for p in picks if isinstance(p, SealedPick)} == {"A", "B", "C"}
    purpose = picks[0].purpose  # type: ignore[union-attr]
    with pytest.raises(InputRefused):
        table.submit(0, SealedPick(0, purpose, "Z"))
    with pytest.raises(InputRefused):
        table.submit(1, SealedPick(1, purpose, "A"))  # already picked by its bot
    table.submit(0, SealedPick(0, purpose, "B"))
    assert table.picked(0) == SealedPick(0, purpose, "B") and table.picked(1) is not None
    table.run()
    assert table.state.players[0].columns[1].cards  # column B was turned over


def test_each_seat_learns_only_its_own_dealt_cards() -> None:
    table = _rider_table([RandomBot(random.Random(1)), RandomBot(random.Random(2))])
    for _ in range(6):
        table.step()  # two set-ups, two shuffles, two deals
    for seat in (0, 1):
        hand = table.state.players[seat].hand
        assert all(table.knowledge[seat].knows(h) for h in hand)
        assert not any(table.knowledge[1 - seat].knows(h) for h in hand)
        assert all(table.card(h) for h in hand)  # the trusted table knows everything


def test_same_seed_same_game_and_hashes_recorded_per_step() -> None:
    def play(seed: int) -> LocalTable:
        table = _rider_table([GreedyBot(random.Random(seed), rider_score), RandomBot(random.Random(seed + 1))], seed)
        table.run()
        return table

    a, b = play(9), play(9)
    assert a.log == b.log and a.hashes == b.hashes
    assert len(a.hashes) == len(a.log) and a.hashes[-1] == hash_of(a.game, a.state)
    assert a.initial_hash != a.hashes[0]
    with pytest.raises(TableError):
        a.step()  # the game is over


# --- a toy dice game: the table is game-agnostic ---------------------------------------


@dataclasses.dataclass(frozen=True)
class Stop(Action):
    KIND = "stop"


class DiceGame:
    """Roll 2d6 until seat 0 stops; the state is the tuple of totals so far."""

    rules_id = "toy/1"
    codec = ActionCodec([Stop, DiceRolled])

    def pending(self, state: tuple[Any, ...]) -> Pending | None:
        if state and state[-1] == "stop":
            return None
        return Chance("roll", (6, 6)) if len(state) % 2 == 0 else Decision(0, "toy.go")

    def legal_actions(self, state: Any, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        return [Stop(0)] if self.pending(state) == Decision(0, "toy.go") and seat == 0 else []

    def apply(self, state: tuple[Any, ...], action: Action) -> tuple[Any, ...]:
        check_answer_matches(self.pending(state), action)
        if isinstance(action, DiceRolled):
            return (*state, sum(action.faces))
        return (*state, "stop")

    def public(self, state: Any) -> Any:
        return list(state)

    def zone(self, state: Any, name: str) -> tuple[int, ...]:
        return ()

    def outcome(self, state: Any) -> Outcome | None:
        return Outcome(0, "stopped") if self.pending(state) is None else None

    def view(self, state: Any, seat: int, knowledge: Knowledge) -> Any:
        return list(state)


def test_chance_is_answered_from_the_seeded_rng() -> None:
    game = DiceGame()
    runs = []
    for _ in range(2):
        table = LocalTable(game, (), [Knowledge(0)], [RandomBot(random.Random(0))], seed=42)
        assert table.run() == Outcome(0, "stopped")
        runs.append(table.state)
        rolled = [a for a in table.log if isinstance(a, DiceRolled)]
        assert rolled and all(a.seat == SYSTEM and all(1 <= f <= 6 for f in a.faces) for a in rolled)
    assert runs[0] == runs[1] and 2 <= runs[0][0] <= 12

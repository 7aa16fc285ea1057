"""net.bots: the random and greedy agents and the Rider position scorer.

A toy counting game makes the greedy choice checkable by hand: the bot must
take an action with the best score, break ties only among the best, skip
actions the reducer refuses, and never score when there is nothing to choose.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from engine.core import Action, IllegalAction, Knowledge
from engine.core.inputs import SealedPick
from net.bots import GreedyBot, RandomBot
from net.games.rider.evaluation import WIN, rider_score
from net.games import game_named
from net.local_table import LocalTable


@dataclasses.dataclass(frozen=True)
class Add(Action):
    KIND = "add"
    n: int


class Counting:
    """State is an int; Add(n) adds n; Add(99) is refused by the reducer."""

    rules_id = "toy-count/1"

    def apply(self, state: int, action: Action) -> int:
        assert isinstance(action, Add)
        if action.n == 99:
            raise IllegalAction("99 is never allowed")
        return state + action.n


def capped(game: Any, state: int, seat: int) -> int:
    return min(state, 3)  # Add(3), Add(4) and Add(5) tie for best from 0


ADDS = [Add(0, n) for n in (1, 2, 3, 4, 5)]
ME = Knowledge(0)


def test_greedy_takes_only_best_scoring_actions_and_breaks_ties_by_its_rng() -> None:
    picks = Counter(GreedyBot(random.Random(seed), capped).choose(Counting(), 0, 0, ME, ADDS).n  # type: ignore[attr-defined]
                    for seed in range(60))
    assert set(picks) == {3, 4, 5}  # every best action is possible, no other is
    again = [GreedyBot(random.Random(7), capped).choose(Counting(), 0, 0, ME, ADDS) for _ in range(2)]
    assert again[0] == again[1]  # same rng, same pick


def test_greedy_prefers_a_strictly_better_score() -> None:
    def exact(game: Any, state: int, seat: int) -> int:
        return -abs(state - 2)

    for seed in range(10):
        assert GreedyBot(random.Random(seed), exact).choose(Counting(), 0, 0, ME, ADDS) == Add(0, 2)


def test_greedy_skips_actions_the_reducer_refuses() -> None:
    def smaller(game: Any, state: int, seat: int) -> int:
        return -state  # the unchanged state would score best: a refused move must not count as it

    legal = [Add(0, 1), Add(0, 99)]
    for seed in range(10):
        assert GreedyBot(random.Random(seed), smaller).choose(Counting(), 0, 0, ME, legal) == Add(0, 1)

    def bigger(game: Any, state: int, seat: int) -> int:
        return state
    # when every candidate is refused, it still answers with one of them
    assert GreedyBot(random.Random(0), bigger).choose(Counting(), 0, 0, ME, [Add(0, 99)] * 2) == Add(0, 99)


def test_greedy_does_not_score_forced_moves_or_sealed_picks() -> None:
    def never(game: Any, state: int, seat: int) -> int:
        raise AssertionError("scored a move that needed no scoring")

    bot = GreedyBot(random.Random(0), never)
    assert bot.choose(Counting(), 0, 0, ME, [Add(0, 1)]) == Add(0, 1)
    picks = [SealedPick(0, "rps", c) for c in "ABC"]
    seen = {GreedyBot(random.Random(s), never).choose(Counting(), 0, 0, ME, picks) for s in range(30)}
    assert seen == set(picks)


def test_bots_refuse_to_act_without_legal_actions_and_rider_greedy_scores_with_rider_score() -> None:
    with pytest.raises(ValueError, match="no legal action"):
        RandomBot(random.Random(0)).choose(Counting(), 0, 3, ME, [])
    with pytest.raises(ValueError, match="no legal action"):
        GreedyBot(random.Random(0), capped).choose(Counting(), 0, 3, ME, [])
    greedy = game_named("rider").bot("greedy", random.Random(0))
    assert isinstance(greedy, GreedyBot) and greedy.scorer is rider_score
    with pytest.raises(ValueError, match="rider has no bot 'clever'; its bots: greedy, random"):
        game_named("rider").bot("clever", random.Random(0))


def test_random_bot_reaches_every_option_and_is_reproducible() -> None:
    picks = Counter(RandomBot(random.Random(seed)).choose(Counting(), 0, 0, ME, ADDS).n  # type: ignore[attr-defined]
                    for seed in range(100))
    assert set(picks) == {1, 2, 3, 4, 5}
    a, b = random.Random(5), random.Random(5)
    assert [RandomBot(a).choose(None, 0, 0, ME, ADDS) for _ in range(10)] == [
        RandomBot(b).choose(None, 0, 0, ME, ADDS) for _ in range(10)]


def test_rider_score_is_zero_sum_and_decisive_at_the_end() -> None:
    rider = game_named("rider")
    setup = rider.local(rider.local_record(2, None), None)
    t = LocalTable(setup.game, setup.state, setup.knowledge,
                   [GreedyBot(random.Random(1), rider_score), RandomBot(random.Random(2))], 3, record_hashes=False)
    while t.pending is not None:
        t.step()
        assert rider_score(t.game, t.state, 0) == -rider_score(t.game, t.state, 1)
    winner = t.outcome().winner  # type: ignore[union-attr]
    if winner is None:
        assert rider_score(t.game, t.state, 0) == 0
    else:
        assert rider_score(t.game, t.state, winner) == WIN
        assert rider_score(t.game, t.state, 1 - winner) == -WIN


def test_the_locke_random_bot_tries_the_king_room_with_its_full_mind() -> None:
    """KMC 4 King editorial room: offered the attempt, the random bot always takes it with the
    highest mind it may declare (net/games/locke/random_bot.py), so random games reach this ending."""
    import random

    from engine.core.hidden import Knowledge
    from engine.locke.actions import KingRoom, Nop
    from net.games.locke.random_bot import LockeRandomBot

    legal = [Nop(3)] + [KingRoom(3, mind) for mind in range(2, 8)]
    for seed in range(20):
        bot = LockeRandomBot(random.Random(seed))
        assert bot.choose(None, None, 3, Knowledge(3), legal) == KingRoom(3, 7)

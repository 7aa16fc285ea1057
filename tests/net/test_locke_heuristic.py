"""The heuristic Locke bot (net/games/locke/heuristic.py): it sees only its own seat, plays
toward its own win on constructed positions, and its games end judged and replay exactly."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import pytest

from engine.core.hidden import Knowledge
from engine.core.inputs import PlacementPick, SeatInput
from engine.locke.actions import Answer, Declare, Destroy, Fight, Nop, Walk
from engine.locke.declare import FightChoice
from engine.locke.state import LockeState
from engine.locke.turn import Move
from net.games import game_named
from net.games.locke import components
from net.games.locke.aims import KEY_BASES, Aims
from net.games.locke.beliefs import build
from net.games.locke.heuristic import LockeHeuristicBot
from net.games.locke.judge import disagreements
from net.games.locke.moves import distance, face_down_cells, nearest
from net.games.locke.outlook import win_chance
from net.local_table import LocalTable

LOCKE = game_named("locke")


def _table(seats: int, seed: int, agents: Sequence[Any] | None = None) -> LocalTable:
    setup = LOCKE.local(LOCKE.local_record(seats, None, None), None)
    bots = agents if agents is not None else [
        LockeHeuristicBot(random.Random(f"{seed}/bot/{i}")) for i in range(seats)]
    return LocalTable(setup.game, setup.state, setup.knowledge, list(bots), seed, record_hashes=False)


# --- the scramble test: only the seat's own view counts ------------------------------------------


def _hidden_from(state: LockeState, seat: int) -> list[tuple[int, str]]:
    """Handles ``seat`` may not know (other seats' unseen characters, their dice and kept cards,
    face-down cells), each with a false card of the right kind."""
    chars = [c.id for c in components().characters]
    planets = [p.id for p in components().planets]
    rng = random.Random(f"scramble/{state.step_no}/{seat}")
    opened = dict(state.open_cards)
    out: list[tuple[int, str]] = []
    for i, p in enumerate(state.seats):
        if i == seat:
            continue
        if p.character >= 0 and p.character not in opened and seat not in p.seen_by and not p.exposed:
            out.append((p.character, rng.choice(chars)))
        if p.die >= 0 and p.die not in opened:
            out.append((p.die, str(rng.randint(1, 6))))
        out += [(h, rng.choice(planets)) for h in p.kept if h not in opened]
    out += [(cell.handle, rng.choice(planets)) for _, cell in state.cells
            if cell.handle is not None and cell.handle not in opened]
    return out


def scrambled(state: LockeState, seat: int, knowledge: Knowledge) -> Knowledge:
    """``knowledge`` plus false cards for everything ``seat`` may not see (its own entries win)."""
    fake = [(h, c) for h, c in _hidden_from(state, seat) if not knowledge.knows(h)]
    return knowledge.learn(fake)


class Checked:
    """Plays a bot, asking a twin with the same RNG state and a scrambled knowledge first."""

    def __init__(self, bot: Any, make: Any) -> None:
        self.bot, self.make = bot, make
        self.compared = self.scrambled_handles = 0
        self.differences: list[str] = []

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge,
               legal: Sequence[SeatInput]) -> SeatInput:
        twin = self.make(random.Random())
        twin.rng.setstate(self.bot.rng.getstate())
        fake = scrambled(state, seat, knowledge)
        self.scrambled_handles += len(fake.cards) - len(knowledge.cards)
        other = twin.choose(game, state, seat, fake, legal)
        mine: SeatInput = self.bot.choose(game, state, seat, knowledge, legal)
        self.compared += 1
        if other != mine:
            self.differences.append(f"step {state.step_no} seat {seat}: {mine} vs {other} when scrambled")
        return mine


def _checked_game(seats: int, seed: int, make: Any, steps: int) -> list[Checked]:
    agents = [Checked(make(random.Random(f"{seed}/bot/{i}")), make) for i in range(seats)]
    table = _table(seats, seed, agents)
    for _ in range(steps):
        if table.pending is None or table.step() is None:
            break
    return agents


def test_the_heuristic_bot_chooses_the_same_whatever_it_may_not_see() -> None:
    agents = _checked_game(6, 3, LockeHeuristicBot, 2000)
    assert sum(a.compared for a in agents) > 500 and sum(a.scrambled_handles for a in agents) > 1000
    assert [d for a in agents for d in a.differences] == []


class Peeker(LockeHeuristicBot):
    """A cheat: fights whoever's knowledge entry says Evil, seen or not (the scramble test's control)."""

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge,
               legal: Sequence[SeatInput]) -> SeatInput:
        fights = [a for a in legal if isinstance(a, Fight)]
        if fights:
            for a in fights:
                card = knowledge.card(state.seats[a.target].character) if a.target >= 0 else None
                if card is not None and game.components.character(card).attribute != "good":
                    return a
            return fights[-1]
        if any(isinstance(a, Walk) for a in legal):
            return max(legal, key=lambda a: (sum(map(ord, knowledge.card(state.seats[0].die) or "")), str(a)))
        return super().choose(game, state, seat, knowledge, legal)


def test_the_scramble_check_catches_a_bot_that_peeks() -> None:
    agents = _checked_game(6, 3, Peeker, 1500)
    assert [d for a in agents for d in a.differences], "the check must be able to fail"


# --- decisions on constructed positions ---------------------------------------------------------


def _mid_game(seats: int = 8, seed: int = 1, phase: str = "planet") -> LocalTable:
    """Seed 1 at 8 seats deals two Good characters with no own condition (checked where it matters)."""
    table = _table(seats, seed)
    while table.state.phase != phase or table.state.turn < 3:
        assert table.pending is not None and table.step() is not None
    return table


def _seen(state: LockeState, seat: int, by: int) -> LockeState:
    seats = list(state.seats)
    seats[seat] = seats[seat]._replace(seen_by=tuple(sorted(set(seats[seat].seen_by) | {by})))
    return state._replace(seats=tuple(seats))


def _with(state: LockeState, table: LocalTable, **alive: bool) -> LockeState:
    seats = [p._replace(alive=alive.get(f"s{i}", p.alive)) for i, p in enumerate(state.seats)]
    return state._replace(seats=tuple(seats))


def test_it_declares_when_what_it_knows_makes_it_win_and_refuses_a_losing_declaration() -> None:
    table = _mid_game()
    state, game = table.state, table.game
    sides = LOCKE.end_sides(game, _opened(table))  # type: ignore[misc]
    good = sides.index("good")
    evil = sides.index("evil")
    knowledge = table.knowledge[good]
    # only the Good seat and an Evil seat it has seen are alive: it would lose, so it refuses
    alive = {f"s{i}": i in (good, evil) for i in range(state.n)}
    losing = _seen(_with(state, table, **alive), evil, good)
    bot = LockeHeuristicBot(random.Random(1))
    known = knowledge.learn([(state.seats[evil].character, table.card(state.seats[evil].character))])
    answer = bot.choose(game, losing, good, known, [Answer(good, True), Answer(good, False)])
    assert answer == Answer(good, False)
    # the Evil seat dead instead, and every other living seat seen and Good: it declares
    friends = [i for i in range(state.n) if sides[i] == "good" and i != good]
    alive = {f"s{i}": i == good or i in friends for i in range(state.n)}
    winning = _with(state, table, **alive)
    for i in friends:
        winning = _seen(winning, i, good)
        known = known.learn([(state.seats[i].character, table.card(state.seats[i].character))])
    me = components().character(table.card(state.seats[good].character))
    assert me.victory.kind == "none" and friends
    b = build(components(), winning, good, known)
    assert win_chance(b, components(), winning) == 100
    choice = bot.choose(game, winning, good, known, [Declare(good, False), Declare(good, True)])
    assert choice == Declare(good, True)
    # with nothing known about a living Evil-looking seat, a Good seat does not declare at once
    assert bot.choose(game, state._replace(turn=1), good, knowledge,
                      [Declare(good, False), Declare(good, True)]) == Declare(good, False)


def _opened(table: LocalTable) -> LockeState:
    """The state with every character card open (what the final reveal shows), for the test's eyes only."""
    state: LockeState = table.state
    extra = tuple((p.character, table.card(p.character)) for p in state.seats)
    return state._replace(open_cards=state.open_cards + extra)


def test_in_the_planet_phase_it_walks_toward_a_face_down_card() -> None:
    table = _mid_game()
    state = table.state
    seat = next(i for i, p in enumerate(state.seats) if p.alive and p.place.startswith("P:") and p.status == "normal")
    here = state.seats[seat].place
    cards = face_down_cells(state)
    steps = [Walk(seat, c) for c in sorted({f"P:{here.split(':')[1]}:{(int(here.split(':')[2]) + d) % 7}" for d in (1, 6)})]
    legal: list[SeatInput] = [Nop(seat), *steps]
    state = state._replace(queue=(Move(seat),) + state.queue[1:])
    choice = LockeHeuristicBot(random.Random(2)).choose(table.game, state, seat, table.knowledge[seat], legal)
    best = min(nearest(a.to, cards) for a in steps)
    assert best < nearest(here, cards)
    assert isinstance(choice, Walk) and nearest(choice.to, cards) == best


def test_it_destroys_a_key_base_it_stands_on_and_hides_key_bases_inside_the_grid() -> None:
    table = _mid_game()
    state = table.state
    state = state._replace(queue=(Move(0),) + state.queue[1:])
    bot = LockeHeuristicBot(random.Random(3))
    assert bot.choose(table.game, state, 0, table.knowledge[0], [Nop(0), Walk(0, "B:2:2"), Destroy(0)]) == Destroy(0)
    picks = [PlacementPick(0, "keybases", "laboratory", f"B:{r}:{c}") for r in range(1, 7) for c in range(1, 7)]
    for _ in range(20):
        cell = bot.choose(table.game, state, 0, table.knowledge[0], picks)
        assert isinstance(cell, PlacementPick) and "1" not in cell.cell[2:] and "6" not in cell.cell[2:]


def test_it_declares_a_combat_on_a_known_enemy_but_not_on_a_known_friend() -> None:
    table = _mid_game()
    sides = LOCKE.end_sides(table.game, _opened(table))  # type: ignore[misc]
    state = table.state
    good = next(i for i, s in enumerate(sides) if s == "good")
    evil = next(i for i, s in enumerate(sides) if s == "evil")
    friend = next((i for i, s in enumerate(sides) if s == "good" and i != good), None)
    state = _seen(state, evil, good)
    known = table.knowledge[good].learn([(state.seats[evil].character, table.card(state.seats[evil].character))])
    state = state._replace(queue=(FightChoice(good, False),) + state.queue[1:])
    seats = list(state.seats)
    seats[good] = seats[good]._replace(mods=(("level", "set", 6, "game"),), damage=0)
    state = state._replace(seats=tuple(seats))
    bot = LockeHeuristicBot(random.Random(4))
    legal: list[SeatInput] = [Fight(good, -1), Fight(good, evil)]
    assert components().character(table.card(state.seats[good].character)).durability >= 3 and friend is not None
    assert bot.choose(table.game, state, good, known, legal) == Fight(good, evil)
    if friend is not None:
        state = _seen(state, friend, good)
        known = known.learn([(state.seats[friend].character, table.card(state.seats[friend].character))])
        assert bot.choose(table.game, state, good, known, [Fight(good, -1), Fight(good, friend)]) == Fight(good, -1)


def test_board_distances_follow_the_rings_flights_and_grid() -> None:
    assert distance("P:1:1", "P:1:6") == 2  # the ring joins (KMC 9.2.1)
    assert distance("P:1:3", "P:2:1") == 3 + 1 + 1  # to the spaceport, fly, walk
    assert distance("B:1:1", "B:3:4") == 5
    assert distance("P:1:1", "B:1:1") > 50


# --- whole games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seats,seed", [(5, 0), pytest.param(8, 1, marks=pytest.mark.slow)])
def test_short_heuristic_games_end_by_a_rule_judged_alike_and_replay(seats: int, seed: int) -> None:
    table = _table(seats, seed)
    start = time.process_time()
    table.run(100_000)
    assert time.process_time() - start < 5
    outcome = table.outcome()
    assert outcome is not None and table.state.ending != "guard"
    assert disagreements(table.game, table.state) == []
    again = _table(seats, seed)
    again.run(100_000)
    assert again.state == table.state


def test_a_decision_takes_under_50_ms() -> None:
    """CPU time per decision (the wall clock of a shared machine is no measure; tools.bench
    locke_bots reports the wall-clock figures)."""
    worst = 0.0

    class Timed(LockeHeuristicBot):
        def choose(self, *args: Any) -> SeatInput:
            nonlocal worst
            begin = time.process_time()
            out = super().choose(*args)
            worst = max(worst, time.process_time() - begin)
            return out

    table = _table(10, 4, [Timed(random.Random(i)) for i in range(10)])
    for _ in range(3000):
        if table.pending is None or table.step() is None:
            break
    assert 0 < worst < 0.05


def test_a_base_player_heads_for_seats_or_key_bases_never_for_base_cards_it_cannot_turn() -> None:
    # KMC 9.3.2: only non-base players turn base cards, so face-down cells are no goal for a base player
    table = _mid_game(8, 7, phase="base")  # seed 7: a Good character under an Evil face is a base player
    while sum(1 for q in table.state.seats if q.alive and q.place) < 3:  # until the base fills up
        assert table.pending is not None and table.step() is not None
    state = table.state
    seat = next(i for i, p in enumerate(state.seats) if p.alive and p.base_player and sides_of(table)[i] == "good")
    b = build(components(), state, seat, table.knowledge[seat])
    aims = Aims(components(), table.knowledge[seat], late=False)
    goals = aims.goals(components(), state, table.knowledge[seat], b)
    places = {q.place for i, q in enumerate(state.seats) if i != seat and q.alive and q.place}
    keys = {key for key, cell in state.cells if cell.face_up in KEY_BASES}
    assert goals and set(goals) <= places | keys
    assert not set(goals) & (set(face_down_cells(state)) - places)


def sides_of(table: LocalTable) -> list[str]:
    return LOCKE.end_sides(table.game, _opened(table))  # type: ignore[misc]

"""Whole random-bot games: every game ends by a rule, replays to the same hashes,
and no seat's view ever shows another seat's secret (issue 11, items 6, 8, 9)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.core import hash_of
from tests.engine.locke.flow_helpers import bot_table, game
from tests.engine.locke.three_hundred import played_games

PRIVATE_VIEW_KEYS = ("seat", "my_character", "my_die", "my_kept", "seen_characters", "known_placements")


def _play(players: int, seed: int, *, hashes: bool = False) -> Any:
    table = bot_table(players, seed, hashes=hashes)
    table.run(400_000)
    return table


@pytest.mark.parametrize("players", range(5, 11))
def test_random_bot_games_end_by_a_rule(players: int) -> None:
    """KMC 6.4 (+ ruling N47.s guard): two seeded games per table size end, judged, every claim true."""
    for seed in range(2):
        table = _play(players, seed)
        outcome = table.outcome()
        assert outcome is not None and outcome.reason.startswith("locke.end.")
        assert len(outcome.seats) == players and all(r.grade in "ABCD" for r in outcome.seats)
        assert all((r.grade in "AB") == r.won for r in outcome.seats)
        assert table.claims_judged  # claims were made, and the table found every one true


def _replays(table: Any, players: int) -> bool:
    g = game()
    state, _ = g.new_game(players)
    if hash_of(g, state) != table.initial_hash:
        return False
    for action, expected in zip(table.log, table.hashes):
        state = g.apply(state, action)
        if hash_of(g, state) != expected:
            return False
    return g.outcome(state) == table.outcome()


def test_a_game_replays_to_identical_hashes() -> None:
    """Determinism: the logged inputs rebuild every state hash of a 7-seat game."""
    table = _play(7, 3, hashes=True)
    assert _replays(table, 7)


def _check_views(table: Any, holders: dict[int, set[int]]) -> None:
    """``holders``: every seat that has held each kept planet card so far (kept up to date here)."""
    g = game()
    s = table.state
    public = g.public(s)
    opened = dict(s.open_cards)
    final = s.phase in ("reveal", "over")
    for i, p in enumerate(s.seats):
        # the public state opens a character only when it was shown to all (expose, override) or at the end
        if p.character in opened:
            assert p.exposed or final, f"seat {i}'s character is public"
        if p.die in opened:
            assert final, f"seat {i}'s shadow die is public"
        for h in p.kept:  # kept face down until the final reveal opens them for the audit (N173)
            assert h not in opened or final, f"seat {i}'s kept card {h} is public"
    for i, p in enumerate(s.seats):
        for h in p.kept + p.shown:
            holders.setdefault(h, set()).add(i)
    _check_combat_hands(table, opened, holders)
    log = [list(e) for e in s.events]
    for i in range(s.n):
        k = table.knowledge[i]
        view = g.view(s, i, k)
        assert {key: v for key, v in view.items() if key not in PRIVATE_VIEW_KEYS + ("log",)} == public
        assert view["log"] == log
        me = s.seats[i]
        assert view["my_character"] == k.card(me.character)
        assert all(k.card(h) == card for h, card in view["my_kept"])
        for j, card in view["seen_characters"]:
            assert k.card(s.seats[j].character) == card is not None
        for zone, cells in view["known_placements"]:
            placement = next(p for p in s.placements if p[0] == zone)
            for cell, thing in cells:
                assert k.card(placement[3][placement[2].index(cell)]) == thing
        # nothing of another seat's hidden cards unless this seat was told
        for j, other in enumerate(s.seats):
            if j != i and not k.knows(other.character):
                assert all(j != seen for seen, _ in view["seen_characters"])


def _check_combat_hands(table: Any, opened: dict[int, str], holders: dict[int, set[int]]) -> None:
    """KMC 10.3.2: a seat's combat hand is dealt face down, known to its holder alone until a card is
    played; an obstacle's is dealt face up (LOCKE-PLAN 7, N140); a kept planet card used as a jammer,
    field or P-suit stays face down until it breaks (seed 000 3.1.2, N201). A block that falls short
    gives its cards back face up (KMC 10.9), and a controlled seat that cannot carry out its order
    shows its hand (N211): only those hand cards may be public. A seat that held the item card
    before it was given away (the entertainment district, seed 000 3.2.4) still knows it."""
    s = table.state
    if s.combat is None or not hasattr(s.combat.detail, "fighters"):
        return
    # only this combat's plays and shown hands count: every hand goes back to the deck at a combat's end
    start = next((k for k in range(len(s.events) - 1, -1, -1) if s.events[k] and s.events[k][0] == "cb-called"), 0)
    events = s.events[start:]
    for f in s.combat.detail.fighters:
        for h in f.hand:
            if f.seat < 0:
                assert h in opened, f"obstacle {f.ob.id if f.ob else '?'}'s card {h} is dealt face down"
                continue
            if h in opened:  # played and given back, or its hand shown to a controller who could not act (N211)
                played = any(e[0] == "cb-play" and e[1:3] == (f.seat, opened[h]) for e in events)
                shown = any(e[0] == "hand-shown" and e[1] == f.seat for e in events)
                assert played or shown, f"seat {f.seat}'s combat card {h} in hand is public"
                continue
            for j, k in enumerate(table.knowledge):
                assert k.knows(h) == (j == f.seat), f"seat {j} knows seat {f.seat}'s combat card {h}: {k.knows(h)}"
        for h in (f.jam_card, f.field_card, f.suit_card):
            if h >= 0 and f.seat >= 0 and h in s.seats[f.seat].kept:
                assert h not in opened, f"seat {f.seat}'s face-down item card {h} is public"
                for j, k in enumerate(table.knowledge):
                    assert not k.knows(h) or j in holders.get(h, {f.seat}), f"seat {j} knows seat {f.seat}'s item card {h}"


@pytest.mark.parametrize("players", [5, 10])
def test_no_view_shows_another_seats_secret_at_any_step(players: int) -> None:
    """Item 8: at every step of a bot game, for every seat, the view is the public state plus only what
    that seat knows, and the public state opens no hidden card early."""
    table = bot_table(players, 11)
    holders: dict[int, set[int]] = {}
    steps = 0
    while table.pending is not None and steps < 400_000:
        _check_views(table, holders)
        table.step()
        steps += 1
    _check_views(table, holders)
    assert table.outcome() is not None


def _replays_to_the_same_state(table: Any, players: int) -> bool:
    """The logged inputs rebuild the same final state (and so the same final hash)."""
    g = game()
    state, _ = g.new_game(players)
    for action in table.log:
        state = g.apply(state, action)
    return bool(state == table.state) and hash_of(g, state) == hash_of(g, table.state)


@pytest.mark.slow
@pytest.mark.xdist_group("locke300")
def test_three_hundred_games() -> None:
    """Acceptance: N = 5..10 x 50 seeds all end by a rule, the guard in at most 2%, every game replays;
    some reach the base phase and some end by the destruction of the four key bases.

    Hashing every state costs about six times the game itself, so each game replays to the same
    final state, and every 25th game is also played and replayed comparing the hash at every step.
    """
    endings: Counter[str] = Counter()
    base_phase = 0
    for played in played_games():
        table, players = played.table, played.players
        outcome = table.outcome()
        assert outcome is not None, played[:2]
        endings[table.state.ending] += 1
        base_phase += any(e[0] == "phase-change" for e in table.state.events)
        assert _replays_to_the_same_state(table, players), played[:2]
        if table.record_hashes:
            assert _replays(table, players), played[:2]
    total = sum(endings.values())
    assert total == 300
    assert endings["guard"] <= 6, endings
    assert base_phase > 0 and endings["key-bases"] > 0, endings

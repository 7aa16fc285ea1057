"""Locke set-up tables (engine/locke/setup_tables.py).

Rule references: KMC 7.1.2-7.1.4 and table 7.1 (groups and their sizes,
rulings N17 for 5 and 10 players, C3 Raiza is a Locke), table 7.2 (shadow
roll, N18), KMC 7.1.8 (face check, N19), table 7.3 (base players' planet
cards, N20), KMC 7.1.10 (turn order, N21). Numbers are typed in from the
rulebook, not derived from the module.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import IllegalAction, MalformedAction
from engine.locke import setup_tables as st_
from engine.locke.setup_tables import (
    COMPOSITIONS,
    CharacterPools,
    Composition,
    character_pools,
    check_selection,
    composition,
    first_draw,
    random_draw,
)
from tests.engine.locke.test_components import components

# ---------------------------------------------------------------- table 7.1


@pytest.mark.parametrize(("n", "row"), [
    (6, (1, 0, 2, 2, 1)),
    (7, (1, 0, 3, 2, 1)),
    (8, (1, 1, 3, 2, 1)),
    (9, (1, 1, 3, 2, 2)),
])
def test_printed_rows_of_table_7_1(n: int, row: tuple[int, ...]) -> None:
    assert composition(n) == Composition(*row)


def test_rows_for_5_and_10_players_ruling_n17() -> None:
    """N17: 5 = L1 G0 E2 S1 X1, 10 = L1 G1 E4 S2 X2."""
    assert composition(5) == Composition(1, 0, 2, 1, 1)
    assert composition(10) == Composition(1, 1, 4, 2, 2)


def test_every_row_sums_to_its_table_and_keeps_a_random_card() -> None:
    """N17's reason: every printed row has a Locke and at least one X."""
    assert sorted(COMPOSITIONS) == [5, 6, 7, 8, 9, 10]
    for n, comp in COMPOSITIONS.items():
        assert comp.players == n
        assert comp.locke == 1 and comp.random >= 1


@pytest.mark.parametrize("n", [4, 11, 0])
def test_table_sizes_outside_5_to_10_are_refused(n: int) -> None:
    with pytest.raises(IllegalAction) as err:
        composition(n)
    assert err.value.rule == "locke.7.1.2"
    with pytest.raises(MalformedAction):
        composition(True)


def test_groups_raiza_is_a_locke() -> None:
    """KMC 7.1.2 + C3: L holds Locke 1-3 and Raiza; E/G cards count as Evil."""
    pools = character_pools(components())
    assert pools.locke == ("locke-1", "locke-2", "locke-3", "raiza")
    assert set(pools.good) == {"lag", "ran-g", "francis", "nia", "rema", "marian", "yamaki-2", "yamaki-1"}
    assert set(pools.evil) == {"riot", "nagato", "amazona", "grunberg-e", "ran-eg", "cornelia", "octavius",
                               "strohheim-e"}
    assert set(pools.special) == {"lord-leon", "elmi", "grunberg-s", "jessica", "hijiri-yuki", "strohheim-s",
                                  "dr-wong"}


def _shuffled(pools: CharacterPools, rng: random.Random) -> CharacterPools:
    return CharacterPools(*(tuple(rng.sample(g, len(g))) for _, g in pools.groups()))


@given(st.integers(5, 10), st.integers(0, 2**32))
def test_draw_gives_a_valid_selection(n: int, seed: int) -> None:
    """KMC 7.1.3-7.1.4: the top of each shuffled group, X from the rest of
    G, E and S; check_selection accepts every such result."""
    rng = random.Random(seed)
    pools = character_pools(components())
    comp = composition(n)
    shuffled = _shuffled(pools, rng)
    chosen, leftover = first_draw(pools, comp, shuffled)
    assert chosen[: comp.locke] == shuffled.locke[: comp.locke]
    assert len(chosen) == n - comp.random
    assert not set(leftover) & set(chosen) and not set(leftover) & set(pools.locke)
    assert len(leftover) == 23 - (comp.good + comp.evil + comp.special)
    xs = random_draw(leftover, rng.sample(leftover, len(leftover)), comp)
    assert len(xs) == comp.random
    check_selection(components(), n, chosen + xs)


def test_draw_refuses_a_shuffle_that_is_not_the_group() -> None:
    pools = character_pools(components())
    comp = composition(7)
    bad = CharacterPools(pools.locke[:3] + ("riot",), pools.good, pools.evil, pools.special)
    with pytest.raises(IllegalAction) as err:
        first_draw(pools, comp, bad)
    assert err.value.rule == "locke.7.1.4"
    with pytest.raises(IllegalAction):
        random_draw(("lag", "nia"), ("lag", "lag"), comp)


def test_check_selection_refuses_impossible_deals() -> None:
    c = components()
    good_deal = ("locke-2", "riot", "nagato", "jessica", "elmi", "lag")  # 6: L1 E2 S2 X=lag
    check_selection(c, 6, good_deal)
    for bad in [
        ("locke-2", "raiza", "riot", "nagato", "jessica", "elmi"),  # two Lockes: X is never a Locke
        ("locke-2", "riot", "lag", "nia", "jessica", "elmi"),       # only one Evil
        ("locke-2", "riot", "nagato", "jessica", "lag", "nia"),     # only one Special
        ("locke-2", "riot", "nagato", "jessica", "elmi"),           # five cards for six
        ("locke-2", "riot", "riot", "jessica", "elmi", "lag"),      # a card twice
        ("locke-2", "riot", "nagato", "jessica", "elmi", "nobody"),
    ]:
        with pytest.raises(IllegalAction):
            check_selection(c, 6, bad)


# ---------------------------------------------------------------- table 7.2


def test_shadow_table_is_table_7_2() -> None:
    assert dict(st_.SHADOW_TABLE) == {1: "own", 2: "any", 3: "any", 4: "any", 5: "any", 6: "evil"}


def test_shadow_one_gives_the_own_silhouette() -> None:
    """Face 1: your own character's silhouette; Lag has two (lag-1, lag-2)."""
    c = components()
    assert st_.silhouette_choices(c, 1, "locke-3", {}) == ("locke",)
    assert st_.silhouette_choices(c, 1, "raiza", {}) == ("teo",)
    assert st_.silhouette_choices(c, 1, "lag", {}) == ("lag-1", "lag-2")
    assert st_.silhouette_choices(c, 1, "lag", {"lag-1": 2}) == ("lag-2",)


def test_shadow_one_when_the_own_silhouette_is_taken_gives_any() -> None:
    """Face 1 with every copy of your own silhouette taken: any silhouette (N18)."""
    c = components()
    any_free = st_.silhouette_choices(c, 1, "locke-1", {"locke": 2})
    assert "locke" not in any_free
    assert len(any_free) == len(c.silhouettes) - 1


def test_shadow_two_to_five_any_six_evil() -> None:
    c = components()
    for face in (2, 3, 4, 5):
        assert st_.silhouette_choices(c, face, "nia", {}) == tuple(s.id for s in c.silhouettes)
    evil = st_.silhouette_choices(c, 6, "nia", {})
    assert set(evil) == {"grunberg-e", "strohheim-e", "ran-e", "amazona", "octavius", "cornelia", "nagato", "riot"}
    assert "riot" not in st_.silhouette_choices(c, 6, "nia", {"riot": 2})


def test_silhouette_choice_is_checked() -> None:
    c = components()
    st_.check_silhouette_choice(c, 6, "nia", {}, "riot")
    with pytest.raises(IllegalAction) as err:
        st_.check_silhouette_choice(c, 6, "nia", {}, "nia")
    assert err.value.rule == "locke.7.1.7"
    with pytest.raises(IllegalAction):
        st_.silhouette_choices(c, 2, "nia", {"helene": 2})  # only one copy exists
    with pytest.raises(MalformedAction):
        st_.silhouette_choices(c, 7, "nia", {})
    with pytest.raises(MalformedAction):
        st_.silhouette_choices(c, 2, "nia", {"nobody": 1})


def test_switch_choices_are_every_non_evil_face_left() -> None:
    c = components()
    choices = st_.switch_choices(c, {"locke": 2})
    assert "locke" not in choices and "riot" not in choices and "jessica" in choices and "nia" in choices


# ---------------------------------------------------------------- the face check


@pytest.mark.parametrize(("n", "cap"), [(5, 2), (6, 2), (7, 3), (8, 3), (9, 3), (10, 4)])
def test_evil_face_cap(n: int, cap: int) -> None:
    """N19: ceil(n/3)."""
    assert st_.evil_face_cap(n) == cap


def test_no_good_or_no_evil_face_means_a_new_shadow_roll() -> None:
    """KMC 7.1.8: at least one Good and one Evil face."""
    assert st_.needs_shadow_reroll(["special", "special", "evil", "evil", "special"])
    assert st_.needs_shadow_reroll(["good"] * 5)
    assert not st_.needs_shadow_reroll(["good", "special", "evil", "special", "special"])
    with pytest.raises(MalformedAction):
        st_.needs_shadow_reroll(["good", "evil", "bad", "good", "good"])
    with pytest.raises(IllegalAction):
        st_.needs_shadow_reroll(["good", "evil"])


def test_excess_evil_faces_switch_in_reverse_seat_order() -> None:
    """N19: 7 players, cap 3, five Evil faces at seats 0, 2, 3, 5, 6: seats 6
    and 5 switch."""
    faces = ["evil", "good", "evil", "evil", "special", "evil", "evil"]
    assert st_.evil_faces_to_switch(faces) == (6, 5)
    assert st_.evil_faces_to_switch(["evil", "good", "evil", "good", "good", "good", "good"]) == ()


@given(st.lists(st.sampled_from(["good", "evil", "special"]), min_size=5, max_size=10))
def test_after_switching_the_table_keeps_between_one_and_cap_evil_faces(faces: list[str]) -> None:
    """Whatever the roll, once it passes the re-roll check and the excess
    switches, 1..ceil(n/3) Evil faces stay and at least 3 seats search the
    planets (so table 7.3 always applies)."""
    if st_.needs_shadow_reroll(faces):
        return
    switched = set(st_.evil_faces_to_switch(faces))
    kept = [s for s, a in enumerate(faces) if a == "evil" and s not in switched]
    assert 1 <= len(kept) <= st_.evil_face_cap(len(faces))
    assert len(faces) - len(kept) >= 3
    assert all(faces[s] == "evil" for s in switched)
    if switched:
        assert min(switched) > max(kept)


# ---------------------------------------------------------------- table 7.3 and turn order


@pytest.mark.parametrize(("others", "cards"), [(3, 6), (4, 4), (5, 3), (6, 3), (8, 3), (2, 6), (0, 6)])
def test_table_7_3(others: int, cards: int) -> None:
    assert st_.base_player_planet_cards(others) == cards


def test_turn_order_roll_and_ties() -> None:
    """KMC 7.1.10: the highest 1d6 starts; N21: tied highest seats roll again."""
    assert st_.roll_for_first({1: 3, 2: 6, 4: 5}) == st_.FirstRoll(2, ())
    assert st_.roll_for_first({1: 6, 2: 6, 4: 5, 0: 6}) == st_.FirstRoll(None, (0, 1, 2))
    assert st_.roll_for_first({3: 2, 4: 2, 0: 1}) == st_.FirstRoll(None, (3, 4))
    with pytest.raises(IllegalAction):
        st_.roll_for_first({})
    with pytest.raises(MalformedAction):
        st_.roll_for_first({1: 7})


def test_turn_order_goes_left_from_the_first() -> None:
    assert st_.turn_order(3, 5) == (3, 4, 0, 1, 2)
    assert st_.turn_order(0, 6) == (0, 1, 2, 3, 4, 5)
    with pytest.raises(MalformedAction):
        st_.turn_order(6, 6)

"""Set-up invariants per table size (KMC 7.1, tables 7.1-7.3; rulings N17-N21, N40-N42).

Each test plays the set-up with random bots on the trusted LocalTable (which
judges every claim at once) and checks the state when the planet phase starts.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.pending import Decision
from engine.locke import setup_tables
from engine.locke.setup import PLANET_CELLS
from tests.engine.locke.flow_helpers import bot_table, game


def _to_planet_phase(players: int, seed: int):  # type: ignore[no-untyped-def]
    table = bot_table(players, seed)
    while table.state.phase == "setup":
        table.step()
    return table


@pytest.mark.parametrize("players", range(5, 11))
@pytest.mark.parametrize("seed", range(3))
def test_setup_invariants(players: int, seed: int) -> None:
    """KMC 7.1.2-7.1.11: the dealt characters, faces, cards and order for every table size."""
    table = _to_planet_phase(players, seed)
    g, s = game(), table.state
    characters = [table.card(p.character) for p in s.seats]
    # 7.1.2-5: one card each, all different, a possible outcome of the draw by table 7.1 (N17)
    assert len(set(characters)) == players
    setup_tables.check_selection(g.components, players, characters)
    # 7.1.7-8: faces within the copies, at least one Good and one Evil face, Evil faces capped (N19)
    faces = Counter(p.silhouette for p in s.seats)
    assert all(count <= g.components.silhouette(face).count for face, count in faces.items())
    attributes = [g.components.silhouette(p.silhouette).attribute for p in s.seats]
    assert "good" in attributes and "evil" in attributes
    assert attributes.count("evil") <= setup_tables.evil_face_cap(players)
    # every seat's shadow claim was judged true by the table (a false one would have raised)
    assert {c.seat for c in table.claims_judged if c.what == "locke.shadow"} == set(range(players))
    # 7.1.9: base players are the Evil faces; the two ambush cards are placed in one placement by
    # the first base player, on two cells (N40, N251), and the second is told where they lie
    base = [i for i, p in enumerate(s.seats) if p.base_player]
    assert base == [i for i, a in enumerate(attributes) if a == "evil"]
    placed = [table.truth[h] for placement in s.placements for h in placement[3] if table.truth[h]]
    assert sorted(placed) == ["ambush-a", "ambush-b"]
    assert [placement[1] for placement in s.placements] == base[:1]
    if len(base) > 1:
        assert all(table.knowledge[base[1]].knows(h) for h in s.placements[0][3])
    # 7.1.1: a face-down planet card on each of the 36 cells
    assert [key for key, _ in s.cells] == list(PLANET_CELLS)
    assert all(cell.handle is not None for _, cell in s.cells)
    # 7.1.10: the order starts with a non-base player and goes left through every seat (N21)
    assert sorted(s.order) == list(range(players))
    assert all(s.order[k] == (s.order[0] + k) % players for k in range(players))
    assert not s.seats[s.order[0]].base_player
    # 7.1.11, table 7.3: planet cards for each base player
    expected = setup_tables.base_player_planet_cards(players - len(base))
    assert [len(s.seats[i].kept) for i in base] == [expected] * len(base)
    # 7.2.1: the planet phase starts with the base players' information check, then a non-base turn
    assert isinstance(table.pending, Decision)
    assert table.pending.prompt in ("locke.info_check", "locke.declaring")


def test_public_state_names_no_dealt_character() -> None:
    """KMC 7.1 (characters stay face down): after set-up the public state holds handles only."""
    table = _to_planet_phase(7, 1)
    opened = dict(table.state.open_cards)
    for p in table.state.seats:
        assert p.character not in opened and p.die not in opened
    # the character decks' pre-shuffle identities are gone from the public record
    dealt = {table.card(p.character) for p in table.state.seats}
    assert not dealt & {card for handle, card in table.state.open_cards if handle < table.state.seats[0].die}

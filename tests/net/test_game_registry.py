"""The game registry (net/games/): every shipped game is one entry, and every look-up goes through it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.core.game import hash_of
from net.games import game_for_rules, game_named, games, register, table_for
from net.games.tiny import ENTRY as TINY
from net.identity import Identity
from net.local_table import LocalTable


SHIPPED = ("locke", "rider", "tiny")  # other tests may register test-only games beside them


def test_the_shipped_games_are_registered_with_their_engines_rules_ids() -> None:
    assert set(SHIPPED) <= {e.name for e in games()}
    for entry in map(game_named, SHIPPED):
        setup = entry.local(entry.local_record(entry.default_seats, None, None), None)
        assert setup.game.rules_id == entry.rules_id
        assert game_for_rules(entry.rules_id) is entry
        assert entry.min_seats <= entry.default_seats <= entry.max_seats
        assert len(setup.knowledge) == entry.default_seats
        assert set(entry.default_bots) <= set(entry.bots)
    assert game_for_rules("chess/1") is None
    assert [n for n in SHIPPED if not game_named(n).networked] == []  # every shipped game plays between peers


@pytest.mark.parametrize("name", ["rider", "tiny"])
def test_a_local_game_of_each_networked_entry_ends_with_its_default_bots(name: str) -> None:
    entry = game_named(name)
    setup = entry.local(entry.local_record(entry.default_seats, None, None), None)
    bots = (list(entry.default_bots) * entry.default_seats)[:entry.default_seats]
    table = LocalTable(setup.game, setup.state, setup.knowledge,
                       [entry.bot(b, random.Random(i)) for i, b in enumerate(bots)], 5)
    table.run()
    assert table.outcome() is not None
    again = entry.local(setup.record, None)  # the record rebuilds the same start
    assert hash_of(again.game, again.state) == hash_of(setup.game, setup.state)


def test_look_ups_name_what_is_known() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'; this Fairtable knows: locke, rider, tiny"):
        game_named("chess")
    with pytest.raises(ValueError, match="tiny has no bot 'greedy'; its bots: random"):
        TINY.bot("greedy", random.Random(0))
    with pytest.raises(ValueError, match="Tiny is played by 2 to 10 seats, not 11"):
        TINY.check_seats(11)
    with pytest.raises(ValueError, match="Rider is played by 2 seats, not 3"):
        game_named("rider").check_seats(3)


def test_a_name_or_rules_id_cannot_be_registered_twice() -> None:
    register(TINY)  # the same entry again is no change
    with pytest.raises(ValueError, match="clashes with the registered 'tiny'"):
        register(dataclasses.replace(TINY, name="tiny2"))
    with pytest.raises(ValueError, match="clashes with the registered 'tiny'"):
        register(dataclasses.replace(TINY, rules_id="tiny/2"))
    assert game_named("tiny") is TINY


def _keys(n: int) -> list[bytes]:
    return [Identity.generate().public_key for _ in range(n)]


def test_table_for_builds_networked_tables_and_refuses_what_does_not_fit() -> None:
    tiny = TINY.genesis(_keys(4), [bytes(16)] * 4)
    table = table_for(tiny)
    assert table.game.rules_id == "tiny/1" and table.state.seats == 4
    assert dict(table.plan.public_cards(table.state)) == table.game.open_cards(table.state)
    with pytest.raises(ValueError, match="another version of the tiny game"):
        table_for(dataclasses.replace(tiny, card_set_hash=bytes(32)))
    rider = game_named("rider")
    assert rider.shipped_deck is not None
    decks = [rider.shipped_deck(0), rider.shipped_deck(1)]
    genesis = rider.genesis(_keys(2), [bytes(16)] * 2, decks, names=["a", "b"])
    assert genesis.options == {"deck_sizes": [len(decks[0]), len(decks[1])], "names": ["a", "b"]}
    assert table_for(genesis).plan.hand_audit is not None
    with pytest.raises(ValueError, match="another Rider card set"):
        table_for(dataclasses.replace(genesis, card_set_hash=bytes(32)))
    locke = game_named("locke")
    built = table_for(locke.genesis(_keys(5), [bytes(16)] * 5))
    assert built.plan.claims is not None and built.plan.public_cards(built.state)  # every deck starts public
    with pytest.raises(ValueError, match="another version of the Locke components"):
        table_for(dataclasses.replace(locke.genesis(_keys(5), [bytes(16)] * 5), card_set_hash=bytes(32)))
    with pytest.raises(ValueError, match="played by 5 to 10 seats, not 4"):
        table_for(locke.genesis(_keys(4), [bytes(16)] * 4))
    with pytest.raises(ValueError, match="unknown rules 'chess/1'; known: locke/1, rider/1, .*tiny/1"):
        table_for(dataclasses.replace(tiny, rules_id="chess/1"))

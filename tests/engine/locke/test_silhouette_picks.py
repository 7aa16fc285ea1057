"""The secret silhouette pick offers only honest faces (KMC 7.1.7, table 7.2; ruling N18).

The sealed choice's public options are every free silhouette, but a seat may
only pick what its shadow die allows with its character; another pick is a
false claim (locke.7.1.7) and a trusted table stops on it. So the game narrows
the options by the seat's own cards (LockeGame.sealed_options, the
NarrowsSealed capability of engine/core/capabilities.py) and both drivers
offer only those (net/seam.py). Found by a person at the client's Locke
table: seat 1 of a 10-seat table, seed 2, was offered a face its die forbade.
"""

from __future__ import annotations

import random

import pytest

from engine.core.capabilities import capabilities
from engine.core.pending import SealedChoice
from engine.locke import setup_tables
from engine.locke.claims import die_face
from engine.locke.setup import taken_copies
from net.games import game_named
from net.local_table import LocalTable


def _table(seed: int, seats: int = 10) -> LocalTable:
    entry = game_named("locke")
    setup = entry.local(entry.local_record(seats, None, None), None)
    bots = [None] + [entry.bot("random", random.Random(seed * 31 + i)) for i in range(1, seats)]
    return LocalTable(setup.game, setup.state, list(setup.knowledge), bots, seed)


@pytest.mark.parametrize("seed", [2, 5, 9])
def test_the_person_is_offered_only_the_faces_its_die_allows_and_each_of_them_is_accepted(seed: int) -> None:
    table = _table(seed)
    table.run()
    pending = table.pending
    assert isinstance(pending, SealedChoice) and pending.purpose == "locke.silhouette" and 0 in pending.seats
    me = table.state.seats[0]
    know = table.knowledge[0]
    allowed = setup_tables.silhouette_choices(table.game.components, die_face(know.card(me.die)),  # type: ignore[attr-defined]
                                              know.card(me.character), taken_copies(table.state, table.state.picking))
    offered = [p.choice for p in table.legal(0)]  # type: ignore[union-attr]
    assert offered and set(offered) == set(allowed) & set(pending.options_for(0))
    for pick in table.legal(0):  # every offered face is honest: the game goes on from each
        trial = _table(seed)
        trial.run()
        trial.submit(0, pick)
        trial.run()  # a false claim would raise FalseClaim here
        later = trial.pending
        assert not (isinstance(later, SealedChoice) and later.purpose == "locke.silhouette" and 0 in later.seats)


def test_a_game_that_does_not_narrow_offers_every_option() -> None:
    caps = capabilities(object())
    assert caps.sealed_options is None and caps.honest_options(None, 0, None, ("a", "b")) == ["a", "b"]  # type: ignore[arg-type]

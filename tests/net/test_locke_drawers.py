"""The Locke table plan names who draws from a zone it shuffles (net/games/locke/table.py ``drawers``)."""

from __future__ import annotations

from engine.locke.combat.model import DECK, Fight, Fighter
from engine.locke.state import Combat
from engine.locke.game import LockeGame
from engine.locke.state import LockeState
from net.games.locke import components
from net.games.locke.table import drawers
from net.session.subset_shuffle import shufflers_for


def _start(seats: int = 6) -> LockeState:
    state, _ = LockeGame(components()).new_game(seats)
    return state


def test_a_combat_deck_is_drawn_by_its_fighters_and_the_seats_on_their_way() -> None:
    state = _start()
    fight = Fight(fighters=(Fighter(4, 0), Fighter(-1, 1), Fighter(1, 0)), arrivals=((5, 2),))
    gathering = state._replace(combat=Combat("declared", "a1", ((4, 1), ())))
    assert drawers(gathering, DECK) is None  # no running fight yet: every seat shuffles
    running = state._replace(combat=Combat("declared", "a1", ((4, 1), ()), detail=fight))
    assert drawers(running, DECK) == (1, 4, 5)  # the obstacle (seat -1) draws face up: not a drawer
    assert shufflers_for((1, 4, 5), tuple(range(6)), ()) == (1, 4, 5)
    lone = state._replace(combat=Combat("ambush", "a1", ((3,), ()), detail=Fight(fighters=(Fighter(3, 0),
                                                                                         Fighter(-1, 1)))))
    assert drawers(lone, DECK) == (3,)
    assert shufflers_for((3,), tuple(range(6)), ()) == (3, 4)  # a lone fighter and the next seat


def test_a_die_deck_is_drawn_by_its_seat_and_other_zones_by_every_seat() -> None:
    state = _start()
    assert drawers(state, "die:3") == (3,)
    assert drawers(state, "die:9") is None and drawers(state, "die:x") is None
    for zone in ("chars:X", "chars:pool", "planet:stock", "base:stock", DECK):
        assert drawers(state, zone) is None, zone

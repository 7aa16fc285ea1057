"""Who joins a combat from outside (KMC 10.2, seed 002 actually-there / actually-alive):
rulings N117, N166. The checks themselves are tested in test_fate.py; here the fight
takes the joiners in."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.core.pending import HiddenOp
from engine.locke.actions import Nop
from engine.locke.combat.actions import Durability, Equip, GoOn, Play, UseItem
from engine.locke.combat.common import RESIDUAL, targets
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, five, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)


def _events(table, kind):  # type: ignore[no-untyped-def]
    return [e for e in table.state.events if e[0] == kind]


def test_a_seat_actually_there_fights_as_a_party_of_its_own() -> None:
    """Seed 002 actually-there 2-4 (N166): Yamaki-1 is on the cell at once and fights for
    himself: he may attack both Locke and Nia, and both may attack him."""
    table = combat_table(deck=seven("bazooka-10") + seven("raygun-2") + seven("raygun-1"), offers={3: (1, 2)})
    f = fight(table)
    assert [x.seat for x in f.fighters] == [0, 2, 3]
    assert len({x.party for x in f.fighters}) == 3
    assert table.state.seats[3].place == "P:1:0"
    assert set(targets(table.state, f, 2)) == {0, 1} and 2 in targets(table.state, f, 0)
    assert all(len(x.hand) == 7 for x in f.fighters)  # dealt like everyone (KMC 10.3.1)


def test_a_revived_seat_joins_the_fight() -> None:
    """Seed 002 actually-alive 2/12: Elmi, dead, is back on the combat cell and in the fight."""
    seats = five(s2={"place": "P:1:0"}, s4={"alive": False, "place": ""})
    table = combat_table(deck=seven("bazooka-10") + seven("raygun-2") + seven("raygun-1"), seats=seats,
                         offers={4: (6, 6)})
    assert [x.seat for x in fight(table).fighters] == [0, 2, 4]
    assert table.state.seats[4].alive and table.state.seats[4].place == "P:1:0"


def _thought(firepower_dice: tuple[int, int] = (1, 1)):  # type: ignore[no-untyped-def]
    """Elmi (seat 4) is dead; actually-alive 4 makes her a residual thought (2 on the chart: 100)."""
    seats = five(s2={"place": "P:1:0"}, s4={"alive": False, "place": ""})
    return combat_table(deck=seven("bazooka-10") + seven("raygun-2"), seats=seats,
                        offers={4: (1, 3) + firepower_dice})


def test_a_residual_thought_fights_with_its_firepower_and_no_cards() -> None:
    """KMC 10.2.1, 10.3.1 (N167): the thought is a fighter of its own party, dealt no cards,
    asked for no items, and not a target (it has no durability, KMC 10.6)."""
    table = _thought()
    assert ("joined", 4, "P:1:0", 1, 100) in table.state.events
    f = fight(table)
    assert [(x.seat, x.thought) for x in f.fighters] == [(0, 0), (2, 0), (4, 100)]
    assert f.fighters[2].hand == () and not table.state.seats[4].alive
    assert 2 not in targets(table.state, f, 0) and 2 not in targets(table.state, f, 1)
    assert set(targets(table.state, f, 2)) == {0, 1}


def test_a_residual_thought_attack_goes_straight_to_the_body() -> None:
    """KMC 10.7: no escape, no defence; the target declares its durability and takes the
    thought's firepower (100) on the damage table."""
    table = _thought()
    roll(table, 1, 1, 2, 2, 6, 6)  # initiative: the thought (12) first, then Nia, then Locke
    assert waiting(table) == ("locke.cb_act", 4)
    assert UseItem(4, RESIDUAL, 1) in table.legal(4) and not [a for a in table.legal(4) if isinstance(a, Play)]
    act(table, UseItem(4, RESIDUAL, 1))
    assert waiting(table) == ("locke.cb_dur", 2)  # no escape or defence was offered
    act(table, Durability(2, 4))
    roll(table, 2, 2)  # 100 against 4 reads the 10:1 column: 4 damage
    hit = _events(table, "cb-hit")[-1]
    assert hit[1] == 4 and hit[2] == 2 and not table.state.seats[2].alive
    assert not fight(table).attacked  # KMC 10.3.5: a thought's attack keeps no combat going


def test_residual_thoughts_are_refused_cards_and_other_items() -> None:
    """KMC 10.6: a thought attacks a fighter it may attack, with nothing else."""
    table = _thought()
    roll(table, 1, 1, 2, 2, 6, 6)
    with pytest.raises(IllegalAction):
        table.feed(UseItem(4, RESIDUAL, 2))  # itself
    with pytest.raises(IllegalAction):
        table.feed(UseItem(4, "beam-cannon", 0))


def test_a_seat_arriving_in_round_2_comes_onto_the_cell_then() -> None:
    """Seed 002 actually-there 5 (N166): Yamaki-1 stays where he is during round 1; as round 2
    begins his piece moves onto the cell, he declares his items and is dealt seven cards."""
    table = combat_table(deck=seven("bazooka-10") + seven("raygun-2"), offers={3: (2, 3)})
    assert [x.seat for x in fight(table).fighters] == [0, 2] and fight(table).arrivals == ((3, 2),)
    assert table.state.seats[3].place == "P:3:0"
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    act(table, Nop(2))  # no escape
    act(table, Nop(2))  # no defence
    act(table, Durability(2, 4))
    roll(table, 5, 6)  # 11 on bazooka-10 against 4: one damage
    act(table, Nop(0))  # the rest of Locke's turn (N235)
    assert waiting(table) == ("locke.cb_act", 2)
    act(table, Nop(2))  # Nia lets her turn go
    while waiting(table)[0] == "locke.cb_go_on":
        act(table, GoOn(waiting(table)[1], True))
    assert waiting(table) == ("locke.cb_equip", 3)  # round 2: he is here
    assert table.state.seats[3].place == "P:1:0" and ("cb-arrived", 3, 2) in table.state.events
    act(table, Equip(3, 0, "", False))
    while isinstance(table.pending, HiddenOp):
        table.step()
    f = fight(table)
    assert f.round == 2 and [x.seat for x in f.fighters] == [0, 2, 3] and len(f.fighters[2].hand) == 7


def _two_thoughts():  # type: ignore[no-untyped-def]
    """Yamaki-1 (seat 3) and Elmi (seat 4) are dead; both come back as residual thoughts of 100."""
    seats = five(s2={"place": "P:1:0"}, s3={"alive": False, "place": ""}, s4={"alive": False, "place": ""})
    return combat_table(deck=seven("bazooka-10") + seven("raygun-2"), seats=seats,
                        offers={3: (1, 3, 1, 1), 4: (1, 3, 1, 1)})


def test_a_residual_thought_syncs_another_thoughts_attack() -> None:
    """KMC 10.8.2 (N185): a thought that has not attacked this round may add its firepower to
    another thought's attack, and then makes no attack of its own this round."""
    table = _two_thoughts()
    assert [(x.seat, x.thought) for x in fight(table).fighters][2:] == [(3, 100), (4, 100)]
    roll(table, 2, 2, 3, 3, 6, 6, 1, 1)  # the thought of seat 3 first, Nia, Locke, then seat 4's
    act(table, UseItem(3, RESIDUAL, 1))
    assert waiting(table) == ("locke.cb_thought_sync", 4)
    assert table.legal(4) == [Nop(4), UseItem(4, RESIDUAL, -1)]
    with pytest.raises(IllegalAction) as err:
        table.feed(UseItem(4, RESIDUAL, 0))
    assert err.value.rule == "locke.10.8.2"
    act(table, UseItem(4, RESIDUAL, -1))
    assert _events(table, "cb-sync")[-1] == ("cb-sync", 4, RESIDUAL, 0, 200)
    assert waiting(table) == ("locke.cb_dur", 2) and fight(table).strike.firepower == 200
    act(table, Durability(2, 4))
    roll(table, 2, 2)
    assert not table.state.seats[2].alive  # 200 against 4
    assert waiting(table) == ("locke.cb_act", 0)  # Locke's turn; the syncing thought's own turn is gone
    act(table, Nop(0))
    assert table.pending is None or waiting(table) != ("locke.cb_act", 4)


def test_a_thought_that_attacked_is_not_asked_to_sync() -> None:
    """KMC 10.8.2: only a thought that has not attacked yet may sync."""
    table = _two_thoughts()
    roll(table, 2, 2, 3, 3, 6, 6, 1, 1)
    act(table, Nop(3))  # the first thought lets its turn go
    act(table, Nop(2))
    act(table, Nop(0))
    assert waiting(table) == ("locke.cb_act", 4)
    act(table, UseItem(4, RESIDUAL, 0))
    assert waiting(table) == ("locke.cb_dur", 0)  # seat 3's thought already had its turn

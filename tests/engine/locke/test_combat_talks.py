"""Parties formed and left inside a combat (KMC 10.3.1 (3), 10.3.4; ruling N246).

Seat 0 (Locke-1) declared a combat on Nia (seat 2); Yamaki-1 (seat 3, silhouette Adel) rolled
actually-there 2-4 and fights as a party of its own (N166): three parties, fighters 0, 1, 2 for
seats 0, 2, 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalAction
from engine.core.pending import Chance
from engine.locke.actions import Join, Leave, Nop, Propose
from engine.locke.combat.common import put, targets, with_fighter
from tests.engine.locke.combat_helpers import combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, five, game, roll, waiting

IN_ORDER = (6, 6, 3, 3, 1, 1)  # initiative: fighters 0, 1, 2


def _three() -> Any:
    table = combat_table(deck=seven() + seven() + seven(), offers={3: (1, 2)}, talks=True)
    assert [f.seat for f in fight(table).fighters] == [0, 2, 3]
    return table


def _parties(table: Any) -> list[int]:
    return [f.party for f in fight(table).fighters]


def test_a_seat_may_invite_another_party_member_once_the_hands_are_dealt() -> None:
    """KMC 10.3.1 (3): in the pre-processing Locke may invite Nia or Yamaki, alone and of other
    silhouettes; either joining still leaves two sides to fight."""
    table = _three()
    assert waiting(table) == ("locke.cb_party", 0)
    assert table.legal(0) == [Nop(0), Propose(0, (2,)), Propose(0, (3,))]
    assert all(len(f.hand) == 7 for f in fight(table).fighters)  # after the deal (KMC 10.3.1 (2)-(3))


def test_an_accepted_invitation_makes_a_party_on_the_board_and_in_the_fight() -> None:
    table = _three()
    act(table, Propose(0, (3,)))
    assert waiting(table) == ("locke.cb_party_join", 3)
    act(table, Join(3, True))
    s = table.state
    assert s.seats[3].leader == 0 and s.seats[3].status == "partner"
    assert _parties(table)[0] == _parties(table)[2] != _parties(table)[1]
    assert 2 not in targets(s, fight(table), 0) and 0 not in targets(s, fight(table), 2)
    assert ("cb-party-joined", 3, 0) in s.events
    # nobody else can form a party now: Nia's candidates lead or follow a party already
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.initiative"


def test_a_declined_invitation_changes_nothing_and_the_next_seat_is_asked() -> None:
    table = _three()
    before = _parties(table)
    act(table, Propose(0, (3,)))
    act(table, Join(3, False))
    assert _parties(table) == before and table.state.seats[3].leader == -1
    assert waiting(table) == ("locke.cb_party", 2)  # Nia, then Yamaki, may invite in turn


def test_an_invitation_that_would_leave_no_one_to_fight_is_refused() -> None:
    """KMC 10.3.1 (3): the parties formed must still leave a fight: with two sides there is
    nobody to invite, and nobody is asked."""
    table = combat_table(deck=seven() + seven(), talks=True)
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.initiative"


def test_an_invitation_to_someone_not_offered_is_refused() -> None:
    table = _three()
    with pytest.raises(IllegalAction) as err:
        table.feed(Propose(0, (2, 3)))  # one invitation a round
    assert err.value.rule == "locke.10.3.1"
    with pytest.raises(IllegalAction):
        table.feed(Propose(0, (4,)))  # Elmi is not in this combat
    assert waiting(table) == ("locke.cb_party", 0)


def _to_post(table: Any) -> None:
    """Everyone passes round 1's turns, so the post-processing begins; the round counts as
    one with an attack (KMC 10.3.5), so the combat is still on when the questions end."""
    roll(table, *IN_ORDER)
    table.state = put(table.state, fight(table)._replace(attacked=True))
    for seat in (0, 2, 3):
        assert waiting(table) == ("locke.cb_act", seat)
        act(table, Nop(seat))


def _partnered() -> Any:
    table = _three()
    act(table, Propose(0, (3,)))
    act(table, Join(3, True))
    _to_post(table)
    return table


def test_a_partner_may_leave_in_the_post_processing() -> None:
    """KMC 10.3.4: Yamaki leaves Locke's party and fights for himself again."""
    table = _partnered()
    assert waiting(table) == ("locke.cb_leave", 0)
    act(table, Nop(0))
    assert waiting(table) == ("locke.cb_leave", 3)
    act(table, Leave(3))
    s = table.state
    assert s.seats[3].leader == -1 and s.seats[3].status == "normal"
    assert len(set(_parties(table))) == 3 and 2 in targets(s, fight(table), 0)
    assert ("cb-party-left", 3) in s.events
    assert waiting(table) == ("locke.cb_go_on", 0)  # then going on (KMC 10.3.4)


def test_a_leader_leaving_dissolves_the_party() -> None:
    """KMC 10.3.4 with the board's rule (KMC 9.2.1): the leader's leaving frees every partner."""
    table = _partnered()
    act(table, Leave(0))
    s = table.state
    assert s.seats[3].leader == -1 and len(set(_parties(table))) == 3
    assert ("cb-party-dissolved", 0) in s.events
    assert waiting(table) == ("locke.cb_go_on", 0)  # Yamaki, in no party now, is not asked


def test_a_knocked_out_fighter_is_not_asked_to_leave() -> None:
    """N162: a knocked-out fighter answers nothing."""
    table = _three()
    act(table, Propose(0, (3,)))
    act(table, Join(3, True))
    roll(table, *IN_ORDER)
    f = fight(table)
    table.state = put(table.state, with_fighter(f, 2, f.fighters[2]._replace(fainted=True, wake=2)))
    table.state = put(table.state, fight(table)._replace(attacked=True))
    for seat in (0, 2):
        act(table, Nop(seat))
    assert waiting(table) == ("locke.cb_leave", 0)
    act(table, Nop(0))
    assert waiting(table) == ("locke.cb_go_on", 0)  # not Yamaki's leave question


def test_without_talks_the_scenario_helpers_decline_every_question() -> None:
    """The helpers' default (flow_helpers.settle) answers the party questions with Nop."""
    table = combat_table(deck=seven() + seven() + seven(), offers={3: (1, 2)})
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.initiative"
    assert len(set(_parties(table))) == 3


# --- leaving in the pre-processing, and who may talk -------------------------------------------------


def _allies() -> Any:
    """Yamaki-1 (seat 3) is Locke's partner on the board: side 0 is that party, Nia side 1."""
    seats = five(s3={"place": "P:1:0", "leader": 0, "status": "partner"})
    return combat_table(sides=((0, 3), (2,)), seats=seats, deck=seven() + seven() + seven(), talks=True)


def test_a_partner_may_leave_in_the_pre_processing_too() -> None:
    """KMC 10.3.1 (3) speaks of forming and breaking parties before the round: Yamaki leaves
    before round 1 and is then a party of his own, whom Locke may invite back."""
    table = _allies()
    assert waiting(table) == ("locke.cb_leave", 0)
    act(table, Nop(0))
    assert waiting(table) == ("locke.cb_leave", 3)
    act(table, Leave(3))
    assert table.state.seats[3].leader == -1 and len(set(_parties(table))) == 3
    assert waiting(table) == ("locke.cb_party", 0)
    assert Propose(0, (3,)) in table.legal(0)


def test_a_partner_is_not_asked_to_invite() -> None:
    """KMC 9.2.1 (N46): only a seat alone or leading forms a party; a partner invites nobody."""
    table = _allies()
    act(table, Nop(0))
    act(table, Nop(3))
    # Locke leads and Nia is alone: Locke may not invite her (no side would be left); Nia may not
    # invite Locke (he leads a party) nor Yamaki (a partner): nobody is asked
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.initiative"


def test_nobody_of_the_same_silhouette_is_offered() -> None:
    """KMC 9.2.1: no two in a party with the same silhouette: Nia shows Locke's face now."""
    seats = five(s2={"place": "P:1:0", "silhouette": "locke"})
    table = combat_table(seats=seats, deck=seven() + seven() + seven(), offers={3: (1, 2)}, talks=True)
    assert [f.seat for f in fight(table).fighters] == [0, 2, 3]
    assert waiting(table) == ("locke.cb_party", 0)
    assert table.legal(0) == [Nop(0), Propose(0, (3,))]


def test_a_knocked_out_fighter_neither_invites_nor_is_invited() -> None:
    """N162: a knocked-out fighter answers nothing, so it is no inviter and no invitee."""
    table = _three()
    f = fight(table)
    table.state = put(table.state, with_fighter(f, 2, f.fighters[2]._replace(fainted=True, wake=2)))
    assert table.legal(0) == [Nop(0), Propose(0, (2,))]  # not Yamaki
    f = fight(table)
    table.state = put(table.state, with_fighter(f, 0, f.fighters[0]._replace(fainted=True, wake=2)))
    from engine.locke.combat.talks import invitees
    assert invitees(game(), table.state, 0) == ()


def test_a_controlled_seat_s_leaving_is_its_controllers_decision() -> None:
    """N210: parties and leaving them are decisions the controller makes outright."""
    seats = five(s3={"place": "P:1:0", "leader": 0, "status": "partner", "controller": 2})
    table = combat_table(sides=((0, 3), (2,)), seats=seats, deck=seven() + seven() + seven(), talks=True)
    act(table, Nop(0))
    assert waiting(table) == ("locke.cb_leave", 2)  # asked of Nia, for Yamaki
    from engine.locke.control import UnderControl
    with pytest.raises(UnderControl):
        table.feed(Leave(3))
    act(table, Leave(2))
    assert table.state.seats[3].leader == -1


def test_a_party_formed_in_a_combat_with_three_information_cards_ends_the_planet_phase() -> None:
    """Seed 000 3.2.2 (issue 25 A7): Locke (2 information cards) takes Yamaki (1) into his party in
    the combat's pre-processing; once the combat is over the planet phase ends, the cards of the
    combat back in the deck (before, only a drawn information card was checked)."""
    seats = five(s0={"info": 2}, s2={"place": "P:1:0"}, s3={"info": 1})
    table = combat_table(seats=seats, deck=seven() + seven() + seven(), offers={3: (1, 2)}, talks=True)
    act(table, Propose(0, (3,)))
    act(table, Join(3, True))
    while table.state.combat is not None:
        pending = table.pending
        if isinstance(pending, Chance):
            roll(table, *([3] * len(pending.dice)) if pending.purpose != "locke.combat.initiative" else IN_ORDER[:len(pending.dice)])
            continue
        seat = waiting(table)[1]
        legal = table.legal(seat)
        choice = next((a for a in legal if isinstance(a, Nop)), None) or next(
            a for a in legal if getattr(a, "go_on", None) is False)
        act(table, choice)
    assert table.state.phase == "base" and ("phase-change", "information", 0) in table.state.events

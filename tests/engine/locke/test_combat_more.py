"""The last combat rules of issue 13 (N186-N190): transformation 7 in a combat, and the rest
listed in docs/rules/locke.md chapter 10. Seat 0 is Locke-1, seat 2 Nia (fighters 0 and 1)."""

from __future__ import annotations

from typing import Any

from engine.core.pending import Chance
from engine.locke.actions import Fight, Land, Nop
import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import IllegalAction
from engine.locke import claims as ck
from engine.locke.combat.actions import Durability, EBuster, Equip, Play
from engine.locke.combat.common import obstacle_jam, targets
from engine.locke.combat.model import Obstacle
from engine.locke.combat.common import FOREST
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def test_transformation_seven_deals_two_cards_and_raises_the_hand_limit() -> None:
    """Seed 002 transformation 7 (N186): in a combat the seat is dealt two more combat cards at
    once, through the hidden deal, and refills to two more than before until the combat ends."""
    table = combat_table(deck=seven("raygun-1") + seven("raygun-2"))
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "raygun-1", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    act(table, Durability(2, 4))
    before = len(fight(table).fighters[1].hand)
    roll(table, 6, 6)  # no damage, a natural 6-6: the transformation check
    roll(table, 3, 4)  # 7: two more combat cards
    assert _events(table, "cb-extra-cards")[-1] == ("cb-extra-cards", 2, 2)
    f = fight(table).fighters[1]
    assert len(f.hand) == before + 2 and f.extra == 2
    assert all(table.knowledge[2].knows(h) for h in f.hand) and not any(table.knowledge[0].knows(h) for h in f.hand)
    act(table, Nop(0))  # the rest of Locke's turn (N235)
    act(table, Nop(2))  # Nia passes her turn
    while not isinstance(table.pending, Chance):  # the going-on question (KMC 10.3.4): go on
        act(table, table.legal(waiting(table)[1])[0])
    assert table.pending.purpose == "locke.combat.initiative" and fight(table).round == 2
    assert len(fight(table).fighters[1].hand) == 9  # the next round refills to 7 + 2


def test_in_the_resonance_forest_a_card_hurts_its_user_after_its_action() -> None:
    """Seed 002 trap 4 (N187): in the resonance-tree forest each combat card used makes a damage
    check on its user's own durability with the card's level as firepower, once the action it
    was played in has resolved (before the next fighter's turn)."""
    police = Obstacle("police", 0, 1, 1, squad=1)
    table = combat_table(sides=((0,), ()), obstacles=(police,), cause=FOREST, deck=seven("bazooka-10"))
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    roll(table, 1, 2)  # the damage check on the policeman (3 against 1)
    assert _events(table, "cb-forest") == [("cb-forest", 0, 3)]
    assert waiting(table) == ("locke.cb_dur", 0)  # Locke declares his own durability: the check is his
    act(table, Durability(0, 6))
    roll(table, 5, 6)
    hit = _events(table, "cb-hit")[-1]
    assert hit[1] == 0 and hit[2] == 0 and table.state.seats[0].damage == hit[4] - hit[5]


def test_outside_the_forest_no_card_hurts_its_user() -> None:
    """Seed 002: the self-damage is the forest's alone."""
    police = Obstacle("police", 0, 1, 1, squad=1)
    table = combat_table(sides=((0,), ()), obstacles=(police,), cause="random-combat:card", deck=seven("bazooka-10"))
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    roll(table, 1, 2)
    assert not _events(table, "cb-forest")


def _ebuster(super_: bool = False, deck: tuple[str, ...] = ()) -> Any:
    """Locke (seat 0) and Jessica (seat 2, level 1) against the trap chart's (super) E-buster."""
    from engine.locke import charts
    from engine.locke.combat.obstacles import obstacles_from
    from tests.engine.locke.flow_helpers import five, game, table_at
    from engine.locke.combat.flow import begin
    from engine.locke.state import Combat
    from tests.engine.locke.combat_helpers import stack
    from tests.engine.locke.flow_helpers import decline_joins

    outcome = charts.resolve("trap", (6, 6), 1) if super_ else charts.resolve("trap", (5, 6))
    buster = obstacles_from(game(), outcome.opponents, ())
    seats = five(s2={"character": "jessica", "silhouette": "nia", "place": "P:1:0"})
    table = table_at({"seats": seats, "phase": "planet", "turn_of": 0, "fill": "frontier"})
    table.state = game().settle(begin(table.state, Combat("trap:e-buster", "P:1:0", ((0, 2), ()), obstacles=buster)))
    decline_joins(table)
    table.step()  # the shuffle
    stack(table, seven(*deck))  # Locke's hand
    act(table, Equip(0, 0, "", False))
    act(table, Equip(2, 0, "", False))
    return table


def test_a_character_of_level_two_or_less_is_spared_by_the_e_buster() -> None:
    """Seed 002 trap 11 (N188): before the first round everyone is asked (so the question shows
    nothing); Jessica says her level is 2 or less (a claim) and the E-buster never targets her."""
    table = _ebuster()
    assert waiting(table) == ("locke.cb_spare", 0) and table.legal(0) == [EBuster(0, "", 0)]
    act(table, EBuster(0, "", 0))
    assert table.legal(2) == [EBuster(2, "", 0), EBuster(2, "spare", 2)]
    act(table, EBuster(2, "spare", 2))
    assert table.state.claims[-1].what == ck.STAT_NOW and table.state.claims[-1].value[:3] == ["level", "ge", 2]
    assert fight(table).fighters[1].spared
    roll(table, 1, 1, 1, 2, 6, 6)  # the E-buster first
    assert fight(table).strike is not None and fight(table).strike.target == 0  # no pick: only Locke


def test_claiming_a_low_level_one_does_not_have_is_caught() -> None:
    """Seed 002 trap 11: Locke-1 (level 6) saying his level is 2 or less names his seat."""
    table = _ebuster()
    with pytest.raises(FalseClaim) as err:
        table.feed(EBuster(0, "spare", 2))
    assert err.value.seat == 0 and err.value.claim.what == ck.STAT_NOW


def test_persuasion_is_a_level_check_in_ones_own_turn() -> None:
    """Seed 002 trap 11 (N189): level 3 or more, once a turn, a free option of the turn: a pass
    and the E-buster attacks no more in this combat (it can still be attacked)."""
    table = _ebuster()
    act(table, EBuster(0, "", 0))
    act(table, EBuster(2, "", 0))
    roll(table, 6, 6, 1, 1, 1, 2)  # Locke first
    options = table.legal(0)
    assert EBuster(0, "persuade", 6) in options and EBuster(0, "persuade", 7) not in options
    assert EBuster(0, "persuade", 2) not in options and EBuster(0, "spare", 2) not in options
    with pytest.raises(IllegalAction) as bad:
        table.feed(EBuster(0, "persuade", 2))
    assert bad.value.rule == "locke.s002.trap.11"
    act(table, EBuster(0, "persuade", 6))
    roll(table, 3, 3)
    assert _events(table, "cb-persuaded")[-1] == ("cb-persuaded", 0, 6, True) and fight(table).fighters[2].fainted
    assert waiting(table) == ("locke.cb_act", 0) and not [a for a in table.legal(0) if isinstance(a, EBuster)]
    assert 2 in targets(table.state, fight(table), 0)  # still a target


def test_a_persuasion_above_ones_level_is_a_false_claim() -> None:
    """Seed 002 trap 11: the declared level is a claim on the current level: Jessica (level 1)
    declaring 3 to persuade is caught naming her seat; her honest options hold no persuasion."""
    table = _ebuster()
    act(table, EBuster(0, "", 0))
    act(table, EBuster(2, "", 0))
    roll(table, 1, 1, 6, 6, 1, 2)  # Jessica first
    assert waiting(table) == ("locke.cb_act", 2)
    assert not [a for a in table.legal(2) if isinstance(a, EBuster) and a.what == "persuade"]
    with pytest.raises(FalseClaim) as err:
        table.feed(EBuster(2, "persuade", 3))
    assert err.value.seat == 2


def test_the_super_e_buster_is_not_persuaded_and_jams_escapes_only() -> None:
    """Seed 002 trap 13: no sparing question, no persuasion; its level-3 jammer stops escape
    cards of level 3 or less, and no other card."""
    table = _ebuster(super_=True, deck=("teleport-3", "teleport-4", "bazooka-10"))
    roll(table, 1)  # no spare question came; the jammer goes on the first player (KMC 10.12.2)
    roll(table, 6, 6, 1, 1, 1, 2)  # Locke first
    f = fight(table).fighters
    assert obstacle_jam(fight(table), f[0], escape=True) == 3 and all(obstacle_jam(fight(table), x) == 0 for x in f)
    assert waiting(table) == ("locke.cb_act", 0) and not [a for a in table.legal(0) if isinstance(a, EBuster)]
    plays = {(a.use, a.card) for a in table.legal(0) if isinstance(a, Play)}
    assert ("flee", "teleport-4") in plays and ("flee", "teleport-3") not in plays and ("attack", "bazooka-10") in plays
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 0, "flee", "teleport-3"))
    assert err.value.rule == "locke.s002.trap.13"


def _escape_to_elmi(elmi_face: str = "elmi") -> Any:
    """Nia flees Locke by teleport onto P:1:2, an empty cell where Elmi (seat 4) stands."""
    from tests.engine.locke.flow_helpers import five

    seats = five(s2={"place": "P:1:0"}, s4={"place": "P:1:2", "silhouette": elmi_face})
    table = combat_table(seats=seats, deck=seven("raygun-1") + seven("teleport-2"), cells={"P:1:2": None})
    roll(table, 1, 1, 6, 6)  # Nia first
    act(table, card(table, 2, "flee", "teleport-2"))
    while not isinstance(table.pending, Chance):
        act(table, Nop(waiting(table)[1]))  # nobody blocks
    roll(table, 2)
    act(table, Land(2, "P:1:2"))
    act(table, Nop(0))  # Locke has nobody left to fight: the combat ends
    return table


def test_players_who_meet_after_an_escape_may_start_a_follow_up_combat() -> None:
    """KMC 10.11 (N190): after the combat the escaper obeys its new cell; then, with someone it may
    fight there, the escaper and then the others there may each declare a follow-up combat."""
    table = _escape_to_elmi()
    assert table.state.combat is None and waiting(table) == ("locke.follow_fight", 2)
    assert table.legal(2) == [Fight(2, -1), Fight(2, 4)]
    with pytest.raises(IllegalAction) as err:
        table.feed(Fight(2, 0))
    assert err.value.rule == "locke.10.11"
    act(table, Fight(2, -1))
    assert waiting(table) == ("locke.follow_fight", 4)
    act(table, Fight(4, 2))
    assert _events(table, "cb-follow-up")[-1] == ("cb-follow-up", 4, 2, "P:1:2")
    assert table.state.combat is not None and table.state.combat.cause == "follow-up"
    assert table.state.combat.sides == ((4,), (2,))


def test_the_escapers_silhouette_there_starts_the_follow_up_combat_by_itself() -> None:
    """KMC 10.11: someone there shows the escaper's silhouette: the combat is compulsory."""
    table = _escape_to_elmi(elmi_face="nia")
    assert waiting(table) == ("locke.follow_fight", 2) and table.legal(2) == [Fight(2, 4)]
    act(table, Fight(2, 4))
    assert table.state.combat is not None and table.state.combat.cause == "follow-up"


def _on_card(card_id: str) -> Any:
    """Locke and Nia fight on P:1:1 under the face-up planet card ``card_id``; Yamaki-1 (seat 3)
    is actually there (seed 002, 2-4)."""
    from tests.engine.locke.flow_helpers import five

    seats = five(s0={"place": "P:1:1"}, s2={"place": "P:1:1"})
    return combat_table(seats=seats, cell="P:1:1", deck=seven("bazooka-10") + seven() + seven(), offers={3: (1, 2)},
                        cells={"P:1:1": {"face_up": card_id}})


def test_a_newcomer_obeys_the_cells_arrest_card_before_the_deal() -> None:
    """KMC 10.2.2 (N192): Yamaki-1, actually there (2-4), obeys the face-up prison card of the
    combat's cell before the cards are dealt: he is arrested there, and still fights."""
    table = _on_card("arrest")
    assert _events(table, "cb-newcomer-obeys") == [("cb-newcomer-obeys", 3, "arrest", "now")]
    assert table.state.seats[3].status == "arrested" and table.state.seats[3].place == "P:1:1"
    assert [x.seat for x in fight(table).fighters] == [0, 2, 3] and len(fight(table).fighters[2].hand) == 7


def test_a_newcomer_obeys_a_combat_card_only_when_the_combat_is_over() -> None:
    """KMC 10.1, 10.2.2 (N192): the cell's random-combat card would start a second combat, which
    cannot run while this one does: the newcomer obeys it when this combat ends."""
    table = _on_card("combat")
    assert _events(table, "cb-newcomer-obeys") == [("cb-newcomer-obeys", 3, "combat", "after")]
    assert fight(table).newcomers == (3,)
    roll(table, 6, 6, 1, 2, 1, 1)  # Locke, Nia, Yamaki-1
    for seat in (0, 2, 3):  # a round with no attack ends the combat (KMC 10.3.5)
        act(table, Nop(seat))
    assert table.state.combat is None
    assert isinstance(table.pending, Chance) and table.pending.purpose == "locke.chart.random-combat"

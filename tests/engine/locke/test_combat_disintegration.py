"""Jessica's disintegration (KMC 2.2.2, 10.7.1, fig. 10.2; rulings N180-N184): one scenario per
outcome, the party member's case with its reveal, the field's and the obstacle's attacks, the
recovery rolls, and the false claims. Seat 0 is Locke-1 (level 6); seat 2 is Jessica (level 1)
unless a test says otherwise; fighters 0 and 1 are seats 0 and 2."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import CheatDetected, IllegalAction
from engine.locke import claims as ck
from engine.locke import stats
from engine.locke.actions import CheckValue, Nop
from engine.locke.combat.actions import Disintegrate, Equip, Play
from engine.locke.combat.disintegration import LOST, lost
from engine.locke.combat.model import Obstacle
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, five, game, roll, table_at, waiting

LOCKE_FIRST = (6, 6, 1, 1)
ZERO = ("level", "zero", 0, "life")


def _seats(s2: str = "jessica", **more: Any) -> list[dict[str, Any]]:
    return five(s2={"character": s2, "silhouette": "nia", "place": "P:1:0"}, **more)


def _attacked(s2: str = "jessica", deck2: tuple[str, ...] = ()) -> Any:
    """Locke attacks seat 2 with a level-3 bazooka; the game waits for the disintegration question."""
    table = combat_table(seats=_seats(s2), deck=seven("bazooka-10") + seven(*deck2))
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    return table


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def test_the_target_has_the_power_as_an_option_of_its_escape_decision() -> None:
    """KMC fig. 10.2: the disintegration phase stands before the escape; the target is asked its
    escape anyway, so the power is one more option there (N180), and after a pass the same
    decision comes back, without the power (one try per attack)."""
    table = _attacked()
    assert waiting(table) == ("locke.cb_escape", 2)
    assert Disintegrate(2, True) in table.legal(2) and Nop(2) in table.legal(2)
    act(table, Disintegrate(2, True))
    act(table, CheckValue(0, 6))
    roll(table, 2, 3)
    assert waiting(table) == ("locke.cb_escape", 2) and Disintegrate(2, True) not in table.legal(2)
    with pytest.raises(IllegalAction) as err:
        table.feed(Disintegrate(2, True))
    assert err.value.rule == "locke.2.2.2"
    act(table, Nop(2))
    assert waiting(table) == ("locke.cb_defend", 2) and _events(table, "cb-disint")[-1][-1] == "passed"


def test_nobody_else_is_asked_when_the_target_stands_alone() -> None:
    """N180: without party members on the target's side no extra question is asked at all."""
    table = _attacked(s2="nia")
    assert waiting(table) == ("locke.cb_escape", 2) and Disintegrate(2, True) not in table.legal(2)


def test_a_failed_check_drops_the_attacker_to_level_zero_and_the_attack_vanishes() -> None:
    """KMC 2.2.2: on her own behalf the use is a claim; the attacker declares its level (a claim)
    and fails: the attack is gone (it still happened) and its level is publicly 0."""
    table = _attacked()
    act(table, Disintegrate(2, True))
    claim = table.state.claims[-1]
    assert claim.what == ck.HAS_ABILITY and claim.value == "disintegration" and claim.seat == 2
    assert waiting(table) == ("locke.cb_disint_level", 0) and table.legal(0)[-1] == CheckValue(0, 6)
    act(table, CheckValue(0, 6))
    roll(table, 4, 4)  # 8 > 6
    assert _events(table, "cb-disint")[-1] == ("cb-disint", 2, 0, 6, 8, "failed")
    assert ZERO in table.state.seats[0].mods and fight(table).strike is None and fight(table).attacked
    assert stats.public(table.state.seats[0].mods, 0, "level") == 0
    act(table, Nop(0))  # the rest of Locke's turn (N235)
    assert waiting(table) == ("locke.cb_act", 2)  # Jessica's turn comes: the attack never reached her


def test_a_passed_check_lets_the_attack_go_on() -> None:
    """KMC 2.2.2: a pass leaves the attacker's level alone; the attack goes on to the escape phase."""
    table = _attacked()
    act(table, Disintegrate(2, True))
    act(table, CheckValue(0, 6))
    roll(table, 3, 3)
    assert _events(table, "cb-disint")[-1][-1] == "passed" and table.state.seats[0].mods == ()
    assert waiting(table) == ("locke.cb_escape", 2)


def test_a_two_takes_the_power_away_for_good() -> None:
    """KMC 2.2.2: a roll of 2 is reversed disintegration: the attack goes on and Jessica is never
    asked again (a public mark, so nobody else is asked in her place either)."""
    table = _attacked()
    act(table, Disintegrate(2, True))
    act(table, CheckValue(0, 6))
    roll(table, 1, 1)
    assert _events(table, "cb-disint")[-1][-1] == "reversed" and lost(table.state.seats[2])
    assert LOST in table.state.seats[2].mods and table.state.seats[0].mods == ()
    assert waiting(table) == ("locke.cb_escape", 2) and Disintegrate(2, True) not in table.legal(2)


def test_a_false_claim_of_the_power_names_the_seat() -> None:
    """KMC 2.2.2: Nia has no disintegration; claiming it on her own behalf is caught at once."""
    table = _attacked(s2="nia")
    assert not [a for a in table.legal(2) if isinstance(a, Disintegrate)]  # the honest list
    before = table.state
    with pytest.raises(FalseClaim) as err:
        table.feed(Disintegrate(2, True))
    assert err.value.seat == 2 and err.value.claim.what == ck.HAS_ABILITY and table.state is before


def test_an_attackers_level_above_its_own_is_a_false_claim() -> None:
    """KMC 11.2: the attacker's declared level is a claim on its current level: Ran (G), level 5,
    declaring 6 is caught naming his seat; 7 is above any card's level and refused outright (N222)."""
    seats = five(s0={"character": "ran-g", "silhouette": "ran-g"},
                 s2={"character": "jessica", "silhouette": "nia", "place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven("bazooka-10") + seven())
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    act(table, Disintegrate(2, True))
    assert table.legal(0)[-1] == CheckValue(0, 5)
    with pytest.raises(FalseClaim) as err:
        table.feed(CheckValue(0, 6))
    assert err.value.seat == 0 and err.value.claim.what == ck.STAT_NOW
    with pytest.raises(IllegalAction) as bad:
        table.feed(CheckValue(0, 7))
    assert bad.value.rule == "locke.2.2.2"


def _party_attack(jessica_at: int = 4, s4: str = "jessica") -> Any:
    """Locke attacks Nia (seat 2); seat 4 stands on her side."""
    seats = five(s2={"place": "P:1:0"}, s4={"character": s4, "silhouette": "elmi", "place": "P:1:0"})
    table = combat_table(sides=((0,), (2, jessica_at)), seats=seats, deck=seven("bazooka-10") + seven() + seven())
    roll(table, 6, 6, 1, 1, 2, 2)
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    return table


def test_for_a_party_member_her_card_is_turned_face_up_first() -> None:
    """KMC 2.2.2 step 1: every other seat on the target's side that could hold the power is asked
    (so the question tells nothing, N180); Jessica's use turns her card face up before the check."""
    table = _party_attack()
    assert waiting(table) == ("locke.cb_disint", 4)
    assert table.legal(4) == [Disintegrate(4, False), Disintegrate(4, True)]
    act(table, Disintegrate(4, True))
    assert table.state.seats[4].exposed and _events(table, "cb-disint-reveal")[-1] == ("cb-disint-reveal", 4, "jessica")
    assert (table.state.seats[4].character, "jessica") in table.state.open_cards
    act(table, CheckValue(0, 6))
    roll(table, 6, 5)
    assert _events(table, "cb-disint")[-1][:2] == ("cb-disint", 4) and ZERO in table.state.seats[0].mods


def test_a_party_members_use_without_the_power_is_caught_at_the_reveal() -> None:
    """KMC 2.2.2: the card turned face up is Elmi's: the use is a cheat naming seat 4."""
    table = _party_attack(s4="elmi")
    assert table.legal(4) == [Disintegrate(4, False)]
    with pytest.raises(CheatDetected) as err:
        table.feed(Disintegrate(4, True))
        table.step()
    assert err.value.seat == 4


def test_a_field_attack_only_vanishes() -> None:
    """KMC 2.2.2: an attack played through an ESP field vanishes on a failure, and neither the
    attacker's level nor the field's changes."""
    seats = five(s0={"character": "yamaki-1", "silhouette": "yamaki-1"}, s3={"character": "ran-g", "silhouette": "ran-g"},
                 s2={"character": "jessica", "silhouette": "nia", "place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven("bazooka-10") + seven(), equip={0: Equip(0, 0, "", True)})
    roll(table, *LOCKE_FIRST)
    act(table, Play(0, "attack", next(h for h in fight(table).fighters[0].hand
                                      if table.knowledge[0].card(h) == "bazooka-10"), "bazooka-10", "", 1, 0, 0, 0, True))
    act(table, Disintegrate(2, True))
    assert table.legal(0) == [CheckValue(0, 0)]  # Yamaki-1 is level 0: he declares it (the ledger does not fix it)
    act(table, CheckValue(0, 0))
    roll(table, 6, 6)
    act(table, Nop(0))  # the rest of Yamaki-1's turn (N235)
    assert waiting(table) == ("locke.cb_act", 2) and fight(table).strike is None
    assert table.state.seats[0].mods == () and fight(table).fighters[0].field
    assert _events(table, "cb-disint-field")


def test_an_obstacle_attacker_checks_on_its_public_level() -> None:
    """KMC 2.2.2 with an esper attacking (its cards face up, N140): the check is rolled on its
    level without a declaration; a failure leaves it level 0, so it can play no card above 0."""
    esper = Obstacle("esper", 3, 0, 3, cards=True)
    table = combat_table(sides=((2,), ()), seats=_seats(), obstacles=(esper,),
                         deck=seven("raygun-1") + seven("bazooka-10", "bazooka-7"))
    roll(table, 1, 1, 6, 6)  # the esper first
    assert waiting(table) == ("locke.cb_escape", 2)
    act(table, Disintegrate(2, True))
    roll(table, 5, 5)
    assert _events(table, "cb-disint")[-1] == ("cb-disint", 2, "esper", 3, 10, "failed")
    assert fight(table).fighters[1].ob.level == 0 and _events(table, "disintegrated")[-1] == ("disintegrated", "esper")


def test_a_weapon_attack_has_no_disintegration_phase() -> None:
    """KMC 2.2.2 "with a combat card": a police squad's weapon goes straight to the escape phase."""
    police = Obstacle("police", 0, 3, 2, squad=1)
    table = combat_table(sides=((2,), ()), seats=_seats(), obstacles=(police,), deck=seven())
    roll(table, 1, 1, 6, 6)
    assert waiting(table) == ("locke.cb_escape", 2) and Disintegrate(2, True) not in table.legal(2)


def test_a_disintegrated_character_rolls_to_recover_in_its_turns() -> None:
    """KMC 2.2.2: 1d6 in each of its own turns (the check phase): 1-2 gives one level and 10
    power back, never above the maximum; the level is declared again, not fixed, afterwards."""
    table = table_at({"seats": five(s0={"mods": [list(ZERO)]}), "phase": "planet", "turn_of": 0, "fill": "frontier"})
    while waiting_kind(table) != "locke.disintegration-recovery":
        pending = table.pending
        act(table, table.legal(pending.seat)[0])
    roll(table, 2)
    p = table.state.seats[0]
    assert _events(table, "disint-recovery")[-1] == ("disint-recovery", 0, 2, True)
    locke = game().components.character("locke-1")
    assert stats.current(locke, p.mods, 0, "level") == 1 and stats.public(p.mods, 0, "level") is None
    assert stats.current(locke, p.mods, 0, "power") == 50  # never above the maximum


def waiting_kind(table: Any) -> str:
    from engine.core.pending import Chance, Decision

    pending = table.pending
    if isinstance(pending, Chance):
        return pending.purpose
    assert isinstance(pending, Decision)
    return pending.prompt


def test_regains_stop_at_the_maximum() -> None:
    """KMC 2.2.2 "never above the maximum": the level comes back one by one up to the printed
    level plus the gains; the power never passes its maximum either."""
    jessica = game().components.character("jessica")
    mods = [("level", "add", 1, "game"), ZERO] + [("level", "regain", 1, "life"), ("power", "regain", 10, "life")] * 3
    assert stats.current(jessica, mods, 0, "level") == 2 and stats.current(jessica, mods, 0, "power") == 10
    assert stats.current(jessica, [ZERO], 0, "level") == 0 and stats.public([ZERO], 0, "level") == 0

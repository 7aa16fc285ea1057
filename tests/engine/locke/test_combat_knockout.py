"""Knock-outs in combat (ruling N162; audit-13 findings 9 and 2).

KMC 2.3.1: a geoid bomb of 10 or more knocks Dr. Wong out ("キーン") and he does nothing for
the rest of that round; the subspace field's 10 or more does the same; KMC 2.3.2: Nike's 11
or more knocks its user out for that round. A knocked-out fighter stays a target, but answers
nothing (no escape, defence, block, sync or disintegration: the body takes what reaches it),
and it wakes as the next round begins.

Seat 0 is Dr. Wong (level 0, mind 6, durability 2) or S-Strohheim (Nike, check 10) unless a
test says otherwise; seat 2 Nia (level 4); seat 4 Elmi (level 6).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.pending import Chance, Decision
from engine.locke.actions import Nop
from engine.locke.combat.actions import Durability, Equip, GoOn, Play, Sleep, UseItem
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]
from tests.engine.locke.flow_helpers import act, five, roll, waiting

WONG_FIRST = (6, 6, 1, 1)  # initiative: fighter 0 rolls 12, fighter 1 rolls 2
FACES = {"dr-wong": "dr-wong", "strohheim-s": "strohheim-s", "locke-1": "locke"}


def _seats(s0: str, s2: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return five(s0={"character": s0, "silhouette": FACES[s0]}, s2={"place": "P:1:0", **(s2 or {})})


def _wong(deck0: tuple[str, ...] = (), deck2: tuple[str, ...] = ("blaster-4",)) -> Any:
    table = combat_table(seats=_seats("dr-wong"), deck=seven(*deck0) + seven(*deck2))
    roll(table, *WONG_FIRST)
    return table


def _knocked_out_by_his_geoid_bomb(table: Any) -> None:
    act(table, UseItem(0, "geoid-bomb", 1))
    roll(table, 5, 5)  # 10: knocked out (KMC 2.3.1)
    assert fight(table).fighters[0].fainted


def test_the_geoid_bomb_knock_out_ends_his_turn_at_once() -> None:
    """KMC 2.3.1: after the 10 he does nothing for the rest of the round: the normal action his
    special attack left him is gone, and the next fighter's turn comes (before: he was offered
    an attack and an escape)."""
    table = _wong()
    _knocked_out_by_his_geoid_bomb(table)
    assert waiting(table) == ("locke.cb_act", 2)


def test_a_knocked_out_fighter_is_attacked_but_neither_escapes_nor_defends() -> None:
    """KMC 2.3.1: still a target (fighter 0 is among Nia's targets), but out cold: no escape
    decision (his subspace field, a teleport), no defence: his body takes the hit, he declares
    its durability (a statement about the card, not an action)."""
    table = _wong(deck0=("teleport-7", "esp-psycho-pod"))
    _knocked_out_by_his_geoid_bomb(table)
    assert any(isinstance(a, Play) and a.target == 0 for a in table.legal(2))
    act(table, card(table, 2, "attack", "blaster-4", target=0))
    assert waiting(table) == ("locke.cb_dur", 0)
    act(table, Durability(0, 2))
    assert fight(table).strike is not None


def test_a_knocked_out_fighter_blocks_no_escape() -> None:
    """KMC 10.9 with KMC 2.3.1: Nia flees by teleport on her turn; Dr. Wong, out cold, is not
    asked to block it (he holds a teleport), so her escape roll comes at once."""
    table = _wong(deck0=("teleport-7",), deck2=("teleport-3",))
    _knocked_out_by_his_geoid_bomb(table)
    act(table, card(table, 2, "flee", "teleport-3"))
    assert table.pending is not None and getattr(table.pending, "purpose", "") == "locke.combat.escape"


def test_a_fighter_knocked_out_by_nike_syncs_nothing() -> None:
    """KMC 2.3.2 (Nike 11+) and KMC 10.8.1: S-Strohheim (seat 4, on Locke's side, turn to come)
    is out this round, so he is not offered to sync Locke's attack on Nia (before: he was, as
    Nike's knock-out left his turn unused)."""
    seats = five(s2={"place": "P:1:0"}, s4={"character": "strohheim-s", "silhouette": "strohheim-s",
                                          "place": "P:1:0"})
    table = combat_table(sides=((0, 4), (2,)), seats=seats, deck=seven("blaster-4") + seven() + seven("raygun-2"),
                         equip={4: Equip(4, 0, "", False, -1, 10)})
    roll(table, 5, 6)  # the Nike check: 11, knocked out
    assert fight(table).fighters[1].fainted
    roll(table, 6, 6, 1, 1, 3, 3)  # initiative: Locke, then Strohheim (out), then Nia
    act(table, card(table, 0, "attack", "blaster-4", target=2))
    assert waiting(table) == ("locke.cb_escape", 2)


def _go_on(table: Any) -> None:
    """Every seat says it goes on (KMC 10.3.4), up to the next round's dice."""
    while isinstance(table.pending, Decision) and table.pending.prompt == "locke.cb_go_on":
        act(table, GoOn(table.pending.seat, True))


def _to_round_two(table: Any, attacker: int, target: int, card_id: str) -> None:
    """Nia's attack makes the round count (KMC 10.3.5); the hit on the knocked-out seat 0; both
    want to go on."""
    act(table, card(table, attacker, "attack", card_id, target=target))
    act(table, Durability(0, 2))
    roll(table, 6, 5)  # 11 on the damage table: a light hit
    act(table, Nop(attacker))  # the rest of the attacker's turn (N235)
    _go_on(table)


def test_the_geoid_bomb_knock_out_ends_with_the_round() -> None:
    """KMC 2.3.1 "そのラウンドの残りは": Dr. Wong wakes as round 2 begins and has his turn again
    (before: he was out for the whole combat, N162's old reading)."""
    table = _wong(deck2=("raygun-2",))
    _knocked_out_by_his_geoid_bomb(table)
    _to_round_two(table, 2, 0, "raygun-2")
    assert not fight(table).fighters[0].fainted and fight(table).round == 2
    roll(table, *WONG_FIRST)
    assert waiting(table) == ("locke.cb_act", 0) and UseItem(0, "geoid-bomb", 1) in table.legal(0)


def test_the_subspace_field_knock_out_ends_with_the_round() -> None:
    """KMC 2.3.1: the subspace field's 10 knocks Dr. Wong out too, for that round: Locke's
    attack hits him (the escape was tried, no defence follows); next round he acts."""
    seats = _seats("dr-wong", s2={"character": "locke-1", "silhouette": "locke", "place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven() + seven("raygun-2", "raygun-1"))
    roll(table, 1, 1, 6, 6)  # Locke (fighter 1) first
    act(table, card(table, 2, "attack", "raygun-2", target=0))
    act(table, UseItem(0, "subspace-field", -1))
    roll(table, 4, 6)  # 10: knocked out, and no escape
    assert fight(table).fighters[0].fainted and waiting(table) == ("locke.cb_dur", 0)
    act(table, Durability(0, 2))
    roll(table, 6, 5)
    act(table, Nop(2))  # the rest of Locke's turn (N235)
    _go_on(table)
    assert fight(table).round == 2 and not fight(table).fighters[0].fainted
    roll(table, 6, 6, 1, 1)  # Dr. Wong first this time
    assert waiting(table) == ("locke.cb_act", 0)


def test_the_nike_knock_out_ends_with_the_round() -> None:
    """KMC 2.3.2 Nike 11+ "そのラウンドは何もできない": S-Strohheim has no turn in round 1, is
    attacked there (the body: no Nike, no escape), and acts again in round 2 after a new Nike
    check."""
    table = combat_table(seats=_seats("strohheim-s"), deck=seven() + seven("raygun-2"),
                         equip={0: Equip(0, 0, "", False, -1, 10)})
    roll(table, 5, 6)  # the Nike check: knocked out
    roll(table, *WONG_FIRST)  # he would be first, but he is out
    assert waiting(table) == ("locke.cb_act", 2)
    _to_round_two(table, 2, 0, "raygun-2")
    assert fight(table).round == 2 and not fight(table).fighters[0].fainted
    roll(table, 3, 3)  # this round's Nike check: in use
    roll(table, *WONG_FIRST)
    assert waiting(table) == ("locke.cb_act", 0) and UseItem(0, "nike", 1) in table.legal(0)


def test_a_persuaded_e_buster_stays_out_for_the_combat() -> None:
    """N189 is not a knock-out of a round: a persuaded E-buster's mark has no wake-up round."""
    from engine.locke.combat import turn_cards
    from engine.locke.combat.model import Fight, Fighter

    out = Fighter(-1, 1, fainted=True)  # wake 0: persuaded (engine/locke/combat/ebuster.py)
    woken = Fighter(0, 0, fainted=True, wake=2)
    fight_after = turn_cards.wake_up(Fight(round=1, fighters=(out, woken)), 2)
    assert fight_after.fighters[0].fainted and not fight_after.fighters[1].fainted


# --- a knocked-out seat answers nothing (KMC 5.3.2 "行動可能", 10.3.4; N162, N237) ----------------------


def test_a_knocked_out_seat_is_not_under_an_illusion_so_it_cannot_be_used_on_him_alone() -> None:
    """KMC 5.3.2: the illusion check is for the players able to act; Dr. Wong, out cold, is not one,
    so with nobody else to put to sleep Nia's illusion is refused and nothing changes (before: he
    was asked whether he sleeps)."""
    table = _wong(deck2=("illusion-3",))
    _knocked_out_by_his_geoid_bomb(table)
    assert not any(isinstance(a, Play) and a.use == "illusion" for a in table.legal(2))
    before = table.state
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 2, "illusion", "illusion-3"))
    assert err.value.rule == "locke.5.3.2" and table.state == before


def test_an_illusion_skips_the_knocked_out_and_its_user_escapes_when_the_rest_sleep() -> None:
    """KMC 5.3.2: Dr. Wong (knocked out) and Locke fight Nia; her illusion asks Locke alone, and
    once he sleeps everyone able to act is asleep: she escapes, Dr. Wong still lying there."""
    seats = five(s0={"character": "dr-wong", "silhouette": "dr-wong"}, s2={"place": "P:1:0"},
                 s4={"character": "locke-1", "silhouette": "locke", "place": "P:1:0"})
    table = combat_table(sides=((0, 4), (2,)), seats=seats, deck=seven() + seven() + seven("illusion-3"))
    roll(table, 6, 6, 1, 1, 3, 3)  # Dr. Wong, then Nia (fighter 2), then Locke
    act(table, UseItem(0, "geoid-bomb", 2))
    roll(table, 5, 5)  # 10: knocked out
    assert waiting(table) == ("locke.cb_act", 2)
    act(table, card(table, 2, "illusion", "illusion-3"))
    pending = table.pending
    assert isinstance(pending, Chance) and len(pending.dice) == 2  # one check: Locke's
    roll(table, 6, 6)  # 3 + 12 = 15 > 6 + 8: Locke sleeps, no choice
    assert waiting(table) == ("locke.cb_sleep", 4)
    act(table, Sleep(4, True))
    assert _events(table, "cb-illusion-escape") and fight(table).fighters[0].state == "in"


def test_a_knocked_out_seat_is_not_asked_whether_to_go_on() -> None:
    """KMC 10.3.4 with N162: after Nia's attack on the knocked-out Dr. Wong only she says whether
    the combat goes on; his answer is not taken."""
    table = _wong(deck2=("raygun-2",))
    _knocked_out_by_his_geoid_bomb(table)
    act(table, card(table, 2, "attack", "raygun-2", target=0))
    act(table, Durability(0, 2))
    roll(table, 6, 5)
    act(table, Nop(2))  # the rest of her turn (N235)
    assert waiting(table) == ("locke.cb_go_on", 2)
    with pytest.raises(NotYourTurn):
        table.feed(GoOn(0, True))
    act(table, GoOn(2, True))
    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.initiative" and fight(table).round == 2

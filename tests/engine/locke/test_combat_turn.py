"""A seat's own combat turn (KMC 10.4): the normal action and the special actions in any order
(N235), Dr. Wong's irregular escape and the character's Lafnor mirror as the normal action (N236).
Seat 0 is fighter 0, seat 2 (Nia unless a test says otherwise) fighter 1, both on Locke's cell."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import IllegalAction
from engine.locke.actions import Nop
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Durability, Equip, JamVeto, Play, ShipEffect, UseItem
from tests.engine.locke.combat_helpers import card, combat_table, fight, initiative, seven
from tests.engine.locke.flow_helpers import act, five, roll, waiting

SEAT0_FIRST = (6, 6, 1, 1)
NIA_FIRST = (1, 1, 6, 6)
FACES = {"locke-1": "locke", "nia": "nia", "dr-wong": "dr-wong", "lord-leon": "lord-leon", "francis": "francis",
         "strohheim-e": "soi", "strohheim-s": "strohheim-s"}


def _table(s0: str, deck0: tuple[str, ...] = (), deck2: tuple[str, ...] = (), first: tuple[int, ...] = SEAT0_FIRST,
           equip: dict[int, Equip] | None = None, kept0: tuple[str, ...] = ()) -> Any:
    over: dict[str, Any] = {"character": s0, "silhouette": FACES[s0]}
    if kept0:
        over["kept"] = list(kept0)
    seats = five(s0=over, s2={"place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven(*deck0) + seven(*deck2), equip=equip)
    initiative(table, *first)  # a kept card's holder keeps its own dice (N208)
    return table


def _take_hit(table: Any, seat: int, *faces: int) -> None:
    """``seat`` answers nothing to the attack in flight, declares its durability and takes the dice."""
    while waiting(table)[0] in ("locke.cb_escape", "locke.cb_defend"):
        act(table, Nop(seat))
    assert waiting(table) == ("locke.cb_dur", seat)
    act(table, next(a for a in table.legal(seat) if isinstance(a, Durability)))
    roll(table, *faces)


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


# --- special attacks after the normal action (KMC 10.4, 10.4.2; N235) -----------------------------


def test_a_ship_fires_after_the_normal_action_once_and_then_the_turn_ends() -> None:
    """KMC 10.4 "通常行動と特殊行動はどの順番で行なってもよい": Lord Leon attacks with a card; once it
    has resolved his turn comes back with his ship and no card play; the ship fires once, and the
    turn comes back again with nothing but a pass (KMC 10.4.2: once a round)."""
    table = _table("lord-leon", deck0=("blaster-4",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    _take_hit(table, 2, 6, 5)
    assert waiting(table) == ("locke.cb_act", 0)
    options = table.legal(0)
    assert UseItem(0, "ship", 1) in options and not any(isinstance(a, Play) for a in options)
    act(table, UseItem(0, "ship", 1))
    roll(table, 1, 2)  # ship support 3: a G-bomb
    act(table, ShipEffect(0, "g-bomb"))  # what the "ship" did (N226)
    _take_hit(table, 2, 6, 5)
    assert waiting(table) == ("locke.cb_act", 0) and table.legal(0) == [Nop(0)]
    act(table, Nop(0))
    assert waiting(table) == ("locke.cb_act", 2)


def test_no_second_normal_action_after_the_first() -> None:
    """KMC 10.4.1: one normal action a turn: after his attack Locke's second card play is refused
    and nothing changes."""
    table = _table("locke-1", deck0=("blaster-4", "raygun-2"))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    _take_hit(table, 2, 6, 5)
    assert waiting(table) == ("locke.cb_act", 0) and table.legal(0) == [Nop(0)]
    before = table.state
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 0, "attack", "raygun-2", target=1))
    assert err.value.rule == "locke.10.4.1" and table.state == before


def test_a_special_attack_used_before_the_normal_action_is_not_offered_after_it() -> None:
    """KMC 10.4.2: the ship before the card attack counts for the round; after the attack only a
    pass is left, and the ship is refused."""
    table = _table("lord-leon", deck0=("blaster-4",))
    act(table, UseItem(0, "ship", 1))
    roll(table, 4, 4)  # ship support 8: no support
    act(table, table.legal(0)[0])  # what the "ship" did (N226): nothing
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    _take_hit(table, 2, 6, 5)
    assert table.legal(0) == [Nop(0)]
    with pytest.raises(IllegalAction) as err:
        table.feed(UseItem(0, "ship", 1))
    assert err.value.rule == "locke.10.4.2"


def test_a_geoid_bomb_knock_out_after_the_normal_action_ends_the_turn() -> None:
    """KMC 2.3.1 with N162: Dr. Wong's stretched ray gun, then his geoid bomb at 10: knocked out,
    his turn is over and Nia's comes."""
    table = _table("dr-wong", deck0=("raygun-1",))
    act(table, card(table, 0, "attack", "raygun-1", target=1, stretch=1, mind=6))
    roll(table, 1, 1)  # the mind check
    _take_hit(table, 2, 6, 5)
    act(table, UseItem(0, "geoid-bomb", 1))
    roll(table, 5, 5)
    assert fight(table).fighters[0].fainted and waiting(table) == ("locke.cb_act", 2)


def test_a_card_a_jammer_stops_leaves_one_rest_of_the_turn() -> None:
    """KMC 10.10 with N235: E-Strohheim's jammer stops Nia's bazooka, she plays her G-bomb instead;
    after it her turn comes back once, and then E-Strohheim's turn comes (not hers again)."""
    seats = five(s0={"character": "strohheim-e", "silhouette": "soi"}, s2={"place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven() + seven("bazooka-10", "g-bomb-25"),
                         equip={0: Equip(0, 0, "", False, 1)})
    roll(table, *NIA_FIRST)
    act(table, card(table, 2, "attack", "bazooka-10", target=0))
    act(table, JamVeto(0, True))
    assert waiting(table) == ("locke.cb_act", 2) and any(isinstance(a, Play) for a in table.legal(2))
    act(table, card(table, 2, "attack", "g-bomb-25", target=0, stretch=1, mind=5))
    roll(table, 1, 1)
    act(table, JamVeto(0, False))
    _take_hit(table, 0, 6, 5)
    assert waiting(table) == ("locke.cb_act", 2) and table.legal(2) == [Nop(2)]
    act(table, Nop(2))
    assert waiting(table) == ("locke.cb_act", 0)


# --- Dr. Wong's irregular escape (KMC 2.3.1, 10.4.2 note 3; N236) -----------------------------------


def test_dr_wong_escapes_by_his_subspace_field_after_his_own_geoid_bomb() -> None:
    """KMC 2.3.1 "通常攻撃や特殊攻撃を行った後に亜空間フィールドを用いて逃避": the geoid bomb hits Nia,
    then his subspace field (2d6 of 9 or less) takes him away; the use is a claim."""
    table = _table("dr-wong")
    act(table, UseItem(0, "geoid-bomb", 1))
    roll(table, 1, 2)
    _take_hit(table, 2, 6, 5)
    assert UseItem(0, "subspace-field", -1) in table.legal(0)
    act(table, UseItem(0, "subspace-field", -1))
    assert table.state.claims[-1].what == cc.ITEM and table.state.claims[-1].value == ["subspace-field", 1]
    roll(table, 4, 5)  # 9: the escape
    roll(table, 1)  # how far
    assert waiting(table) == ("locke.cb_land", 0)


def test_dr_wong_escapes_after_his_card_attack_too() -> None:
    """KMC 10.4.2 note 3: the irregular escape is a special action, so a normal action before it
    does not stop it."""
    table = _table("dr-wong", deck0=("raygun-1",))
    act(table, card(table, 0, "attack", "raygun-1", target=1, stretch=1, mind=6))
    roll(table, 1, 1)
    _take_hit(table, 2, 6, 5)
    act(table, UseItem(0, "subspace-field", -1))
    roll(table, 3, 3)
    roll(table, 1)
    assert waiting(table) == ("locke.cb_land", 0)


def test_the_irregular_escape_at_ten_knocks_dr_wong_out() -> None:
    """KMC 2.3.1: 10 or more, the high frequency: knocked out, his turn is over."""
    table = _table("dr-wong")
    act(table, UseItem(0, "subspace-field", -1))
    roll(table, 5, 5)
    assert fight(table).fighters[0].fainted and waiting(table) == ("locke.cb_act", 2)


def test_an_irregular_escape_by_someone_without_the_field_is_caught() -> None:
    """KMC 2.3: Locke has no subspace field: the use is a false claim naming seat 0."""
    table = _table("locke-1")
    with pytest.raises(FalseClaim) as err:
        table.feed(UseItem(0, "subspace-field", -1))
    assert err.value.seat == 0 and err.value.claim.what == cc.ITEM


def test_the_planet_subspace_field_is_no_special_action() -> None:
    """Seed 000 3.1.3 (and KMC 2.3.1 note 1): the planet card's field escapes only as the normal
    action, so after Locke's attack it is neither offered nor accepted."""
    table = _table("locke-1", deck0=("blaster-4",), kept0=("subspace-field",))
    h = table.state.seats[0].kept[0]
    assert UseItem(0, "subspace-field", -1, h, "subspace-field") in table.legal(0)
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    _take_hit(table, 2, 6, 5)
    while waiting(table) == ("locke.reroll", 0):  # the damage dice are Locke's (N208): he keeps them
        act(table, Nop(0))
    assert table.legal(0) == [Nop(0)]
    with pytest.raises(IllegalAction) as err:
        table.feed(UseItem(0, "subspace-field", -1, h, "subspace-field"))
    assert err.value.rule == "locke.10.4.1"


def test_no_irregular_escape_while_nike_is_in_use() -> None:
    """N165: while Nike is in use no item escapes; S-Strohheim has no field anyway, and the engine
    refuses the escape before judging the claim."""
    table = combat_table(seats=five(s0={"character": "strohheim-s", "silhouette": "strohheim-s"},
                                    s2={"place": "P:1:0"}),
                         deck=seven() + seven(), equip={0: Equip(0, 0, "", False, -1, 10)})
    roll(table, 3, 3)  # the Nike check: in use
    roll(table, *SEAT0_FIRST)
    assert UseItem(0, "subspace-field", -1) not in table.legal(0)
    with pytest.raises(IllegalAction):
        table.feed(UseItem(0, "subspace-field", -1))


# --- the character's Lafnor mirror as the normal action (KMC 10.4.1; N236) ------------------------


def test_francis_escapes_by_her_mirror_as_her_turns_action() -> None:
    """KMC 10.4.1 "ラフノールの鏡による逃避" is a normal action: 1d6 of 4 or less, a level-7 escape
    nobody can block, then 1d6 of movement; the use is a claim."""
    table = _table("francis")
    assert UseItem(0, "lafnor-mirror", -1) in table.legal(0)
    act(table, UseItem(0, "lafnor-mirror", -1))
    assert table.state.claims[-1].what == cc.ITEM and table.state.claims[-1].value == ["lafnor-mirror", 1]
    roll(table, 4)
    roll(table, 2)
    assert waiting(table) == ("locke.cb_land", 0)


def test_a_failed_mirror_uses_up_the_normal_action() -> None:
    """KMC 10.4.1: on a 5 the mirror does nothing; the turn comes back without a card play."""
    table = _table("francis", deck0=("blaster-4",))
    act(table, UseItem(0, "lafnor-mirror", -1))
    roll(table, 5)
    assert waiting(table) == ("locke.cb_act", 0) and table.legal(0) == [Nop(0)]
    with pytest.raises(IllegalAction) as err:
        table.feed(card(table, 0, "attack", "blaster-4", target=1))
    assert err.value.rule == "locke.10.4.1"


def test_the_mirror_is_refused_after_the_normal_action() -> None:
    """KMC 10.4.1: an attack and then the mirror would be two normal actions."""
    table = _table("francis", deck0=("blaster-4",))
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    _take_hit(table, 2, 6, 5)
    assert UseItem(0, "lafnor-mirror", -1) not in table.legal(0)
    with pytest.raises(IllegalAction) as err:
        table.feed(UseItem(0, "lafnor-mirror", -1))
    assert err.value.rule == "locke.10.4.1"


def test_a_mirror_by_someone_without_one_is_caught() -> None:
    """KMC 2.3: Locke has no mirror: the use is a false claim naming seat 0."""
    table = _table("locke-1")
    with pytest.raises(FalseClaim) as err:
        table.feed(UseItem(0, "lafnor-mirror", -1))
    assert err.value.seat == 0 and err.value.claim.what == cc.ITEM


def test_dr_wong_who_synced_still_has_his_irregular_escape() -> None:
    """KMC 10.4.1-10.4.2 with N150: Dr. Wong (seat 4, Locke's side) syncs Locke's attack on Nia
    with a stretched ray gun, so his turn has no normal action; the irregular escape, a special
    action, is still offered and works."""
    seats = five(s2={"place": "P:1:0"}, s4={"character": "dr-wong", "silhouette": "dr-wong", "place": "P:1:0"})
    table = combat_table(sides=((0, 4), (2,)), seats=seats, deck=seven("blaster-4") + seven("raygun-2") + seven())
    roll(table, 6, 6, 1, 1, 3, 3)  # Locke, Nia, Dr. Wong
    act(table, card(table, 0, "attack", "blaster-4", target=2))
    act(table, card(table, 4, "sync", "raygun-2", stretch=1, mind=6))
    roll(table, 1, 1)  # his mind check
    _take_hit(table, 2, 6, 5)
    act(table, Nop(0))  # the rest of Locke's turn
    act(table, Nop(2))  # Nia passes
    assert waiting(table) == ("locke.cb_act", 4)
    options = table.legal(4)
    assert UseItem(4, "subspace-field", -1) in options and not any(isinstance(a, Play) for a in options)
    act(table, UseItem(4, "subspace-field", -1))
    roll(table, 2, 2)
    roll(table, 1)
    assert waiting(table) == ("locke.cb_land", 4)

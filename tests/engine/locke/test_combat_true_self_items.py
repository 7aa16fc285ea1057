"""A true self adjusts the old card's items (KMC 11.4; rulings D33, N228).

KMC 11.4: the new character card is the seat's from then on, its stats start afresh (no power
spent, no damage), a hand that lost henchmen is trimmed at once; the old card's items go with it
(KMC 2.3: they are the card's), the kept planet cards' stay (they are the seat's), and the new
card's items are declared before the next initiative (KMC 2.3.2).

Locke-1 (seat 0) fires a G-bomb (30) at seat 2 (fighter 1): a natural 1-1 on the damage check
calls the transformation check, whose 1-1 is the true self; the test picks the new card."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.actions import SYSTEM
from engine.core.errors import FalseClaim, IllegalAction
from engine.core.pending import DiceRolled, HiddenOp
from engine.locke.actions import Nop
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Broken, Durability, Equip, GoOn, Trim
from engine.locke.combat.model import SUIT
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, five, game, roll, settle, waiting

LOCKE_FIRST = (6, 6, 1, 1)
FACES = {"cornelia": "leticia", "yamaki-1": "yamaki-1", "nia": "nia"}


def _table(s2: str, equip: Equip, deck2: tuple[str, ...] = (), attack: str = "g-bomb-30") -> Any:
    over: dict[str, Any] = {"s2": {"character": s2, "silhouette": FACES[s2], "place": "P:1:0"}}
    if s2 == "yamaki-1":
        over["s3"] = {"character": "ran-g", "silhouette": "ran-g"}
    extra = ["*"] * equip.henchmen
    table = combat_table(seats=five(**over), deck=seven(attack) + seven(*deck2) + extra, equip={2: equip})
    roll(table, *LOCKE_FIRST)
    return table


def _true_self_into(table: Any, new: str, before: Any = None, attack: str = "g-bomb-30") -> None:
    """Locke's G-bomb hits fighter 1 on a 1-1; the transformation's 1-1 deals the new card ``new``
    (``before``: a change to the fight just before the transformation check)."""
    act(table, card(table, 0, "attack", attack, target=1))
    act(table, Nop(2))
    if waiting(table) == ("locke.cb_break", 2):  # a level-3 bazooka: Yamaki-1's level-3 field holds
        assert table.legal(2) == [Broken(2, False)]
        act(table, Broken(2, False))
    act(table, Nop(2))
    act(table, Durability(2, game().components.character(table.truth[table.state.seats[2].character]).durability))
    roll(table, 1, 1)  # the damage check: a natural 1-1
    if before is not None:
        table.state = table.state._replace(combat=table.state.combat._replace(detail=before(fight(table))))
    table.feed(DiceRolled(SYSTEM, "locke.chart.transformation", (1, 1)))  # 2: the true self
    assert isinstance(table.pending, HiddenOp) and table.pending.op == "shuffle"
    table.step()  # the unused characters are shuffled; the test picks the top one
    unused = game().zone(table.state, "chars:unused")
    j = next(j for j, h in enumerate(unused) if table.truth[h] == new)
    table.truth[unused[0]], table.truth[unused[j]] = table.truth[unused[j]], table.truth[unused[0]]
    settle(table)


def _through_the_new_silhouette(table: Any) -> None:
    from engine.core.pending import Chance

    while isinstance(table.pending, Chance) and table.pending.purpose == "locke.random-silhouette":
        roll(table, 1)


def _land_the_hit(table: Any) -> None:
    """The new card declares its durability and takes the 4 damage (the D34 order)."""
    _through_the_new_silhouette(table)
    assert waiting(table) == ("locke.cb_dur", 2)
    act(table, table.legal(2)[0])


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def _to_next_round(table: Any) -> None:
    """Nia passes her turn, both go on: the next round begins."""
    while waiting(table)[0] != "locke.cb_go_on":
        seat = waiting(table)[1]
        act(table, Nop(seat))
    while waiting(table)[0] == "locke.cb_go_on":
        act(table, GoOn(waiting(table)[1], True))


def test_the_old_cards_henchmen_go_and_the_hand_is_trimmed_at_once() -> None:
    """KMC 11.4: Cornelia brought her henchman (8 cards); true self into Hijiri (no henchmen):
    the hand must go back to 7 at once, the seat choosing which card to put back."""
    table = _table("cornelia", Equip(2, 1, "", False))
    assert len(fight(table).fighters[1].hand) == 8 and fight(table).fighters[1].own_henchmen == 1
    _true_self_into(table, "hijiri-yuki")
    assert waiting(table) == ("locke.cb_trim", 2)
    nia = fight(table).fighters[1]
    assert nia.henchmen == 0 and nia.own_henchmen == 0 and nia.reequip
    assert table.legal(2) == [Trim(2, (h,)) for h in nia.hand]
    assert _events(table, "cb-items-gone")[-1] == ("cb-items-gone", 2, ["henchman"])
    with pytest.raises(IllegalAction) as err:
        table.feed(Trim(2, nia.hand[:2]))
    assert err.value.rule == "locke.11.4"
    act(table, Trim(2, (nia.hand[0],)))
    assert len(fight(table).fighters[1].hand) == 7 and nia.hand[0] in fight(table).used
    _land_the_hit(table)
    assert table.state.seats[2].alive and table.state.seats[2].damage == 4


def test_the_old_cards_field_and_jammer_go_and_the_power_ledger_starts_afresh() -> None:
    """KMC 11.4: Yamaki-1's ESP field and his jammer on Locke are gone with his card; the power he
    spent is no longer counted (the new card's stats are fresh)."""
    table = _table("yamaki-1", Equip(2, 0, "", True), attack="bazooka-7")  # level 3: the field holds
    assert fight(table).fighters[1].field

    def spent_and_jammed(f: Any) -> Any:  # as if his jammer were on Locke and he had spent 3 power
        return f._replace(fighters=(f.fighters[0]._replace(jam_owner=2), f.fighters[1]._replace(spent=3)))

    _true_self_into(table, "hijiri-yuki", spent_and_jammed, attack="bazooka-7")
    _through_the_new_silhouette(table)
    yamaki, locke = fight(table).fighters[1], fight(table).fighters[0]
    assert not yamaki.field and yamaki.spent == 0 and locke.jam_owner == -1
    assert _events(table, "cb-items-gone")[-1] == ("cb-items-gone", 2, ["esp-field", "esp-jammer"])


def test_the_new_card_declares_its_own_items_before_the_next_initiative() -> None:
    """KMC 2.3.2, 11.4 (N228): Nia becomes E-Strohheim (H-suit, jammer 4, beam cannon); as the
    next round begins she declares his items (claims about the new card), no kept card."""
    table = _table("nia", Equip(2, 0, "", False))
    _true_self_into(table, "strohheim-e")
    _land_the_hit(table)
    _to_next_round(table)
    assert waiting(table) == ("locke.cb_equip", 2)
    options = table.legal(2)
    assert Equip(2, 0, "hell-diver-suit", False, 0) in options and all(not a.cards for a in options if isinstance(a, Equip))
    act(table, Equip(2, 0, "hell-diver-suit", False, 0))
    claims = [c for c in table.state.claims if c.what == cc.ITEM and c.seat == 2]
    assert claims[-1].about == (table.state.seats[2].character,) and claims[-1].value == ["esp-jammer", 1]
    f = fight(table).fighters[1]
    assert f.suit == "hell-diver-suit" and f.suit_left == 8 and not f.reequip
    assert fight(table).fighters[0].jam_owner == 2


def test_declaring_the_old_cards_items_after_a_true_self_is_caught() -> None:
    """N228: Cornelia's henchman is gone with her card; the new Hijiri declaring one is a false
    claim about the new card, naming seat 2."""
    table = _table("cornelia", Equip(2, 1, "", False))
    _true_self_into(table, "hijiri-yuki")
    act(table, Trim(2, (fight(table).fighters[1].hand[0],)))
    _land_the_hit(table)
    _to_next_round(table)
    assert waiting(table) == ("locke.cb_equip", 2) and table.legal(2) == [Equip(2, 0, "", False)]
    with pytest.raises(FalseClaim) as err:
        table.feed(Equip(2, 1, "", False))
    assert err.value.seat == 2 and err.value.claim.value == ["henchman", 1]


def test_a_kept_planet_field_stays_through_a_true_self() -> None:
    """KMC 11.4 takes the old card's items only: Nia's kept ESP field card is the seat's and stays
    in use; the new Yamaki-1 may not declare his own field as well (KMC 2.3.2, one at a time)."""
    from tests.engine.locke.combat_helpers import initiative
    from tests.engine.locke.flow_helpers import table_at

    over = {"s2": {"character": "nia", "silhouette": "nia", "place": "P:1:0", "kept": ["esp-field-3"]},
            "s3": {"character": "ran-g", "silhouette": "ran-g"}}
    h = table_at({"seats": five(**over), "phase": "planet", "turn_of": 0, "fill": "frontier"}).state.seats[2].kept[0]
    table = combat_table(seats=five(**over), deck=seven("bazooka-7") + seven(),
                         equip={2: Equip(2, 0, "", False, cards=(h,), kinds=("esp-field",))})
    initiative(table, *LOCKE_FIRST)
    _true_self_into(table, "yamaki-1", attack="bazooka-7")
    _land_the_hit(table)
    f = fight(table).fighters[1]
    assert f.field and f.field_card == h and f.reequip
    assert _events(table, "cb-items-gone")[-1] == ("cb-items-gone", 2, [])
    _to_next_round(table)
    assert waiting(table) == ("locke.cb_equip", 2)
    assert Equip(2, 0, "powered-suit", False) in table.legal(2)
    assert not [a for a in table.legal(2) if isinstance(a, Equip) and a.field]
    before = table.state
    with pytest.raises(IllegalAction) as err:
        table.feed(Equip(2, 0, "", True))
    assert err.value.rule == "locke.11.4" and table.state == before


def test_out_of_combat_a_true_self_changes_no_item_and_the_next_declaration_reads_the_new_card() -> None:
    """KMC 11.4 outside a combat: items are declared only in one, so there is nothing to take away
    (the hook leaves the state as it is); the next combat's declaration is the new card's: seat 2,
    whose card is now Octavius (Nia's silhouette kept), is offered his E-suit, and Nia's nothing."""
    from engine.locke.combat.equip import new_character
    from tests.engine.locke.flow_helpers import table_at

    over = {"s2": {"character": "octavius", "silhouette": "nia", "place": "P:1:0"}}
    state = table_at({"seats": five(**over), "phase": "planet", "turn_of": 0, "fill": "frontier"}).state
    assert new_character(state, 2) is state
    table = combat_table(seats=five(**over), equip={2: Equip(2, 0, SUIT, False)})
    f = fight(table).fighters[1]
    assert f.suit == SUIT and not f.reequip and f.own_henchmen == 0

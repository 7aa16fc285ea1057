"""A character card's items are worn down for good (issue 25 A2; KMC 2.3.2).

KMC 2.3.2: a suit's durability never recovers, a broken item of the character card is gone,
and everything comes back whole only when the character dies and comes back to life. The
engine built each combat's fighter afresh, so every new combat brought the items back whole.
Now the seat keeps what is left (``Seat.gear``, engine/locke/combat/common.py ``wear``), the
next combat starts from it, and revival (engine/locke/fate.py ``revive``) or a new character
card clears it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalAction
from engine.locke import fate
from engine.locke.actions import Nop
from engine.locke.combat.actions import Equip
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, five, game, roll

LOCKE_FIRST = (6, 6, 1, 1)


def _seats(character: str, **s2: Any) -> list[dict[str, Any]]:
    over = {"s2": {"character": character, "silhouette": "nia", "place": "P:1:0", **s2}}
    if character == "yamaki-1":
        over["s3"] = {"character": "ran-g", "silhouette": "ran-g"}
    return five(**over)


def test_a_suits_lost_durability_stays_lost_after_the_combat() -> None:
    """KMC 2.3.2 H-suit (durability 8, 'cannot be restored'): a hit's damage is kept by the seat."""
    table = combat_table(seats=_seats("strohheim-e"), deck=seven("bazooka-10") + seven(),
                         equip={2: Equip(2, 0, "hell-diver-suit", False)})
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "bazooka-10", target=1))
    act(table, Nop(2))
    act(table, Nop(2))
    roll(table, 1, 2)  # 2 damage on the suit (1:1 column)
    left = fight(table).fighters[1].suit_left
    assert 0 < left < 8
    assert table.state.seats[2].gear == (("hell-diver-suit", left),)


def test_the_next_combat_starts_from_what_is_left() -> None:
    table = combat_table(seats=_seats("strohheim-e", gear={"hell-diver-suit": 3}), deck=seven() + seven(),
                         equip={2: Equip(2, 0, "hell-diver-suit", False)})
    assert fight(table).fighters[1].suit == "hell-diver-suit" and fight(table).fighters[1].suit_left == 3


def test_a_broken_item_cannot_be_declared_again() -> None:
    """KMC 2.3.2: Yamaki 1's P-suit broke in an earlier combat; he may not wear it (nor say 'a
    suit' of a kind he no longer has), while his whole ESP field is still offered."""
    with pytest.raises(IllegalAction) as err:
        combat_table(seats=_seats("yamaki-1", gear={"powered-suit": 0}), equip={2: Equip(2, 0, "powered-suit", False)})
    assert err.value.rule == "locke.2.3.2"
    table = combat_table(seats=_seats("yamaki-1", gear={"powered-suit": 0}), equip={2: Equip(2, 0, "", True)})
    assert fight(table).fighters[1].field


def test_revival_makes_the_items_whole_again() -> None:
    """KMC 2.3.2: 'once dead and brought back, every item of the character card is whole'."""
    table = combat_table(seats=_seats("strohheim-e", gear={"hell-diver-suit": 0}))
    s = fate.kill(game(), table.state, 2, cause="test")
    s = fate.revive(game(), s, 2, cell="P:1:0", how="test")
    assert s.seats[2].gear == ()

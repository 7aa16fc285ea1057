"""Jammers and fields broken by a stronger attack (KMC 10.7.3, 10.7.4 note, 2.3.2; ruling N185):
an attack that gets past the escape phase breaks the target's jammer and field below its level,
whether the defence works or not; the owner's word on a hidden level is a claim."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.locke.actions import Nop
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Broken, Equip, JamVeto
from engine.locke.combat.model import Obstacle
from tests.engine.locke.combat_helpers import card, combat_table, fight, seven
from tests.engine.locke.flow_helpers import act, five, roll, waiting

LOCKE_FIRST = (6, 6, 1, 1)


def _yamaki(attack: str, defence: str = "", jammer: int = 0) -> Any:
    """Yamaki-1 (seat 2: jammer 3 on Locke unless ``jammer`` is -1, field 3) is attacked by Locke
    with ``attack``."""
    seats = five(s2={"character": "yamaki-1", "silhouette": "yamaki-1", "place": "P:1:0"},
                 s3={"character": "ran-g", "silhouette": "ran-g"})
    table = combat_table(seats=seats, deck=seven(attack) + seven(*((defence,) if defence else ())),
                         equip={2: Equip(2, 0, "", True, jammer)})
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", attack, target=1))
    if waiting(table) == ("locke.cb_jam_ask", 2):  # the jammer's owner lets the card work (KMC 10.10)
        act(table, JamVeto(2, False))
    act(table, Nop(2))  # no escape
    return table


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def test_an_attack_above_the_levels_breaks_jammer_and_field_past_the_escape() -> None:
    """KMC 10.7.3: a level-5 G-bomb not escaped breaks Yamaki-1's level-3 jammer and field before
    the defence phase, and the jammer leaves Locke. Letting the G-bomb work was his claim that the
    jammer is below 5 (KMC 10.10), so it breaks with no question; the field's "broken" is a claim
    about his card."""
    table = _yamaki("g-bomb-25")
    assert any(c.what == cc.JAM_PASS and c.value == 5 for c in table.state.claims)
    assert waiting(table) == ("locke.cb_break", 2) and table.legal(2) == [Broken(2, True)]
    act(table, Broken(2, True))
    assert table.state.claims[-1].what == cc.BROKEN and table.state.claims[-1].value == ["esp-field", "character", 5, True]
    assert [e[3] for e in _events(table, "cb-broken")] == ["esp-jammer", "esp-field"]
    assert fight(table).fighters[0].jam_owner == -1 and not fight(table).fighters[1].field
    assert waiting(table) == ("locke.cb_defend", 2)


def test_saying_a_weaker_attack_broke_them_is_a_false_claim() -> None:
    """KMC 10.7.3: a level-3 bazooka is not above the level-3 field: it holds; "broken" is false
    (no jammer here: its own level-3 jammer would have to stop the bazooka, KMC 10.10). The
    answer "holds" is recorded: the field is known to reach 3 (N184)."""
    table = _yamaki("bazooka-10", jammer=-1)
    assert table.legal(2) == [Broken(2, False)]
    before = table.state
    with pytest.raises(FalseClaim) as err:
        table.feed(Broken(2, True))
    assert err.value.seat == 2 and err.value.claim.what == cc.BROKEN and table.state is before
    act(table, Broken(2, False))
    assert fight(table).fighters[1].field and fight(table).fighters[1].field_known == 3
    assert len(_events(table, "cb-item-holds")) == 1


def test_an_escaped_attack_breaks_nothing() -> None:
    """KMC 10.7.3: only an attack that passes the escape phase breaks them: Yamaki-1 (level 0,
    mind 5) escapes the G-bomb with a level-5 teleport stretched by five mind checks."""
    seats = five(s2={"character": "yamaki-1", "silhouette": "yamaki-1", "place": "P:1:0"},
                 s3={"character": "ran-g", "silhouette": "ran-g"})
    table = combat_table(seats=seats, deck=seven("g-bomb-25") + seven("teleport-5"),
                         equip={2: Equip(2, 0, "", True, 0)})
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "g-bomb-25", target=1))
    act(table, JamVeto(2, False))
    act(table, card(table, 2, "escape", "teleport-5", stretch=5, mind=5))
    roll(table, *(1, 1) * 5)  # the five mind checks pass
    while not waiting_dice(table) and waiting(table)[0] == "locke.cb_block":
        act(table, Nop(waiting(table)[1]))
    roll(table, 1)  # the escape's distance (KMC 10.7.2)
    assert fight(table).fighters[1].state == "escaped"
    assert not _events(table, "cb-broken") and fight(table).fighters[1].field


def test_an_obstacles_jammer_of_public_level_breaks_without_a_question() -> None:
    """KMC 10.7.3 with an obstacle's jammer (public level, N156): Locke's level-5 attack breaks
    the level-3 jammer of the esper it hits."""
    esper = Obstacle("esper", 3, 0, 3, cards=True, jammer=3)
    table = combat_table(sides=((0,), ()), obstacles=(esper,), deck=seven("g-bomb-25") + seven())
    roll(table, *LOCKE_FIRST)
    act(table, card(table, 0, "attack", "g-bomb-25", target=1))
    assert _events(table, "cb-broken")[-1] == ("cb-broken", -1, "esper", "esp-jammer", "obstacle", 5)
    assert fight(table).fighters[1].ob.jammer == 0


def waiting_dice(table: Any) -> bool:
    from engine.core.pending import Chance

    return isinstance(table.pending, Chance)

"""One control mechanism for the ESP controller (seed 000 3.1.3, in combat) and the ESP
controller system (KMC 4, base card): while V is controlled by C, C makes V's decisions that
rest on no hidden card, and orders the ones that do (rulings N209-N213)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import IllegalAction
from engine.locke import control
from engine.locke.actions import CheckValue, Declare, Nop, Teleport, UseCard, Walk
from engine.locke.combat import claims as cc
from engine.locke.combat.actions import Order, Play, UseItem
from engine.locke.state import zone_of
from tests.engine.locke.combat_helpers import card, combat_table, fight, initiative, seven
from tests.engine.locke.flow_helpers import act, five, roll, table_at, waiting

LOCKE_FIRST = (6, 6, 1, 1)


# --- the ESP controller system (KMC 4): outside combat ---------------------------------------------


def _base(s3: dict[str, Any] | None = None) -> Any:
    """Seat 3 (Yamaki-1) is controlled by seat 1 (Riot, a base player) and its turn begins."""
    return table_at({"seats": five(s3={"controller": 1, "kept": ["frontier"], **(s3 or {})}), "phase": "planet",
                     "turn_of": 3, "fill": "frontier"})


def test_the_controller_makes_the_victims_victory_declaration() -> None:
    """KMC 4, 11.1.1: a controlled player does not declare of its own will; its controller decides
    (the Decision names seat 3, so a networked table waits for seat 3's signed action)."""
    table = _base()
    assert waiting(table) == ("locke.declaring", 1)
    with pytest.raises(control.UnderControl) as err:
        table.feed(Declare(3, True))
    assert err.value.rule == "locke.4"
    assert table.legal(3) == [] and table.legal(1) == [Declare(1, False), Declare(1, True)]
    act(table, Declare(1, False))
    assert waiting(table) == ("locke.move", 1)


def test_the_controller_moves_the_victim_but_never_by_its_hidden_cards() -> None:
    """N210: walking, flying and staying are dictated; a teleport (its level), a kept card's use and
    the victim's abilities rest on its hidden cards and are neither offered nor accepted."""
    table = _base(s3={"damage": 1})
    act(table, Declare(1, False))
    options = table.legal(1)
    assert any(isinstance(a, Walk) for a in options) and all(a.seat == 1 for a in options)
    assert not any(isinstance(a, (Teleport, UseCard)) for a in options)
    with pytest.raises(IllegalAction) as err:
        table.feed(Teleport(1, 1))
    assert err.value.rule == "locke.4"
    walk = next(a for a in options if isinstance(a, Walk))
    act(table, walk)
    assert table.state.seats[3].place == walk.to


def test_the_controllers_options_hold_nothing_hidden_of_the_victim() -> None:
    """N212: the controller's options are the same whatever the victim's character and kept cards."""
    a = _base(s3={"kept": ["frontier"], "damage": 1})
    b = _base(s3={"character": "francis", "silhouette": "adel", "kept": ["shape-change", "wildcard"], "damage": 1})
    for table in (a, b):
        act(table, Declare(1, False))
    assert a.legal(1) == b.legal(1) and a.pending == b.pending


def test_a_dead_controller_gives_no_orders_and_the_victims_death_frees_it() -> None:
    """N213, N105: the victim's death frees it; while the controller is dead nobody decides for it."""
    from tests.engine.locke.flow_helpers import game

    table = _base()
    s = table.state
    assert control.controller_of(s, 3) == 1
    s = s._replace(seats=tuple(p._replace(alive=False) if i == 1 else p for i, p in enumerate(s.seats)))
    assert control.controller_of(s, 3) == -1
    from engine.locke import fate

    dead = fate.kill(game(), table.state, 3, cause="test")
    assert dead.seats[3].controller == -1 and control.controller_of(dead, 3) == -1


# --- the ESP controller card in combat (seed 000 3.1.3) ------------------------------------------------


def _controlled(deck2: tuple[str, ...] = ("blaster-4", "teleport-3")) -> tuple[Any, int]:
    """Locke (seat 0) uses his ESP controller on Nia (fighter 1), who fails her mind check."""
    seats = five(s0={"kept": ["esp-controller"]}, s2={"character": "nia", "silhouette": "nia", "place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven() + seven(*deck2))
    initiative(table, *LOCKE_FIRST)
    h = table.state.seats[0].kept[0]
    act(table, UseItem(0, "esp-controller", 1, h, "esp-controller"))
    assert waiting(table) == ("locke.check_value", 2)  # the victim declares its own mind
    act(table, CheckValue(2, 5))
    roll(table, 6, 6)
    assert fight(table).fighters[1].ctl_by == 0 and h in table.state.seats[0].shown
    act(table, Nop(0))  # Locke's normal action
    return table, h


def test_the_esp_controller_puts_a_failed_mind_check_under_orders() -> None:
    """Seed 000 3.1.3: on its turn the victim first rolls 1d6 (1 frees it); then the controller
    orders (Decision to seat 0) and the victim carries the order out with its own cards."""
    table, _ = _controlled()
    roll(table, 3)  # the release roll: still controlled
    assert waiting(table) == ("locke.order", 0)
    with pytest.raises(control.UnderControl):
        table.feed(card(table, 2, "attack", "blaster-4", target=0))
    assert table.legal(0) == [Order(0, "free"), Order(0, "pass"), Order(0, "attack:0")]
    act(table, Order(0, "attack:0"))
    assert waiting(table) == ("locke.cb_act", 2)
    options = table.legal(2)
    assert options and all(isinstance(a, Play) and a.use == "attack" and a.target == 0 for a in options)
    with pytest.raises(IllegalAction) as err:  # fleeing is not what it was told
        table.feed(card(table, 2, "flee", "teleport-3"))
    assert err.value.rule == "locke.4"
    act(table, card(table, 2, "attack", "blaster-4", target=0))
    assert any(e[0] == "order" and e[1:] == (0, 2, "cb_act", "attack:0") for e in table.state.events)


def test_the_controller_can_order_the_victim_to_take_the_hit() -> None:
    """KMC 3.1.3 ("take this attack"): the victim's escape answer is ordered too."""
    seats = five(s0={"kept": ["esp-controller"]}, s2={"character": "nia", "silhouette": "nia", "place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven("blaster-4") + seven("teleport-3"))
    initiative(table, *LOCKE_FIRST)
    h = table.state.seats[0].kept[0]
    act(table, UseItem(0, "esp-controller", 1, h, "esp-controller"))
    act(table, CheckValue(2, 5))
    roll(table, 6, 6)
    act(table, card(table, 0, "attack", "blaster-4", target=1))
    assert waiting(table) == ("locke.order", 0) and table.legal(0) == [Order(0, "free"), Order(0, "take")]
    act(table, Order(0, "take"))
    assert table.legal(2) == [Nop(2)]
    with pytest.raises(IllegalAction):
        table.feed(card(table, 2, "escape", "teleport-3"))


def test_a_one_frees_the_victim_and_the_card_is_spent() -> None:
    table, h = _controlled()
    roll(table, 1)
    assert fight(table).fighters[1].ctl_by == -1 and waiting(table) == ("locke.cb_act", 2)
    assert h in zone_of(table.state, "planet:stock")


def test_a_passed_mind_check_spends_the_card() -> None:
    seats = five(s0={"kept": ["esp-controller"]}, s2={"character": "nia", "silhouette": "nia", "place": "P:1:0"})
    table = combat_table(seats=seats, deck=seven() + seven())
    initiative(table, *LOCKE_FIRST)
    h = table.state.seats[0].kept[0]
    act(table, UseItem(0, "esp-controller", 1, h, "esp-controller"))
    act(table, CheckValue(2, 5))
    roll(table, 1, 1)
    assert fight(table).fighters[1].ctl_by == -1 and h in zone_of(table.state, "planet:stock")


def test_unable_to_attack_the_victim_passes_and_shows_its_hand() -> None:
    """N211: ordered to attack with no attack card, the victim passes; its hand is turned face up
    and its claim that none could attack is judged from the public record."""
    table, _ = _controlled(deck2=("esp-screen",) * 4 + ("teleport-1", "teleport-2", "teleport-3"))
    roll(table, 3)
    act(table, Order(0, "attack:0"))
    assert table.legal(2) == [Nop(2)]
    hand_before = fight(table).fighters[1].hand
    act(table, Nop(2))
    opened = dict(table.state.open_cards)
    assert all(h in opened for h in hand_before) and table.state.claims[-1].what == cc.NO_ATTACK


def test_passing_an_attack_order_while_holding_an_attack_card_is_caught() -> None:
    table, _ = _controlled()
    roll(table, 3)
    act(table, Order(0, "attack:0"))
    with pytest.raises(FalseClaim) as err:
        table.feed(Nop(2))
    assert err.value.seat == 2 and err.value.claim.what == cc.NO_ATTACK


def test_the_order_menu_holds_nothing_hidden_of_the_victim() -> None:
    """N212: the controller's order options are the same whatever the victim holds."""
    a, _ = _controlled(deck2=("blaster-4",))
    b, _ = _controlled(deck2=("esp-screen", "teleport-7"))
    for table in (a, b):
        roll(table, 3)
    assert a.legal(0) == b.legal(0) and a.pending == b.pending

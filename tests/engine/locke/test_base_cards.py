"""One named scenario per secret-base card kind (KMC ch. 4): seat 0 walks onto the
card and obeys it; the test gives every die and every declaration."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.claims import FalseClaim
from engine.core.errors import IllegalAction
from engine.locke.actions import TryRevive, CheckValue, Declare, DeclareDurability, Destroy, Fact, Nop, PlayTeleport, Walk
from engine.locke.combat.actions import Equip
from engine.core.pending import Decision, HiddenOp
from engine.locke.combat.flow import begin
from engine.locke.combat.model import DECK, DISCARD
from engine.locke.state import Combat, with_zone, zone_of
from tests.engine.locke.flow_helpers import decline_joins, act, five, game, roll, table_at, waiting
from net.local_table import LocalTable

KEYS = {"B:1:2": "command-room", "B:3:3": "laboratory", "B:5:5": "computer-room", "B:6:6": "energy-room"}


def arrive(card: str | None, *, face_up: bool = False, s0: dict[str, Any] | None = None,
           cells: dict[str, Any] | None = None, **position: Any) -> LocalTable:
    """Seat 0 (Locke-1 on a Locke face unless ``s0`` says otherwise) walks from B:1:1 onto B:2:1."""
    seats = five(s0={"place": "B:1:1", **(s0 or {})}, s1={"place": "B:4:4"}, s2={"place": ""}, s3={"place": ""},
                 s4={"place": ""})
    layout: dict[str, Any] = dict(cells or {})
    if card is not None:
        layout["B:2:1"] = {"face_up": card} if face_up else card
    data = {"seats": seats, "phase": "base", "fill": "corridor", "turn_of": 0, "cells": layout,
            "placements": [{"zone": "keybases", "seat": 1, "cells": KEYS}], **position}
    table = table_at(data)
    act(table, Declare(0, False))
    act(table, Walk(0, "B:2:1"))
    return table


def events(table: LocalTable, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def effects(table: LocalTable) -> list[str]:
    return [e[3] for e in events(table, "base-effect")]


def me(table: LocalTable) -> Any:
    return table.state.seats[0]


def test_corridor_and_white_hole_do_nothing() -> None:
    """KMC 4 corridor, white hole: no event; the turn goes on to the next seat."""
    for card in ("corridor", "white-hole"):
        table = arrive(card)
        assert ("base-obeyed", card, 0) in table.state.events
        assert me(table).status == "normal" and waiting(table)[1] != 0


def test_key_base_is_found_then_destroyed_by_good() -> None:
    """KMC 4 key bases: no event on arrival; a Good character destroys it in its move phase."""
    table = table_at({"seats": five(s0={"place": "B:1:2"}, s1={"place": "B:4:4"}, s2={"place": ""},
                                    s3={"place": ""}, s4={"place": ""}),
                      "phase": "base", "fill": "corridor", "turn_of": 0,
                      "cells": {"B:1:2": {"face_up": "command-room"}},
                      "placements": [{"zone": "keybases", "seat": 1, "cells": KEYS}]})
    act(table, Declare(0, False))
    act(table, Destroy(0))
    assert table.state.key_bases_destroyed == 1 and ("key-base-destroyed", 0, "command-room", "B:1:2") in table.state.events


def test_declaring_a_level_above_yours_is_a_false_claim() -> None:
    """KMC 11.2: the declared level must be within yours (Francis has 4; other cards have 6)."""
    table = arrive("energy-absorber", s0={"character": "francis", "silhouette": "francis"})
    with pytest.raises(FalseClaim):
        table.feed(CheckValue(0, 5))


def test_a_level_no_card_can_have_is_refused_before_any_claim() -> None:
    """KMC 11.2: no character card has an ESP level above 6 and nothing public raised it, so 7 is
    no claim at all but an illegal declaration; the table is unchanged."""
    table = arrive("energy-absorber")
    before = table.state
    with pytest.raises(IllegalAction) as err:
        table.feed(CheckValue(0, 7))
    assert err.value.rule == "locke.11.2" and not isinstance(err.value, FalseClaim) and table.state == before


def _to_own_turn(table: LocalTable) -> None:
    """Answer other seats with the first legal action until seat 0's turn needs input."""
    from engine.core.pending import Chance, Decision

    for _ in range(200):
        pending = table.pending
        if isinstance(pending, Chance):
            if table.state.current == 0:
                return
            roll(table, *([3] * len(pending.dice)))
            continue
        assert isinstance(pending, Decision)
        if pending.seat == 0 and table.state.current == 0:
            return
        legal = table.legal(pending.seat)
        pick = next((a for a in legal if isinstance(a, (Nop, Declare)) and not getattr(a, "declare", False)), legal[0])
        act(table, pick)
    raise AssertionError("seat 0's turn never came")


def test_illusion_room_does_not_touch_a_level_above_it() -> None:
    """KMC 4 illusion room: a character whose level is above the illusion's says so (a claim)."""
    table = arrive("illusion-room-5")
    assert table.legal(0) == [Fact(0, True)]  # Locke-1: level 6 > 5
    act(table, Fact(0, True))
    assert "not-affected" in effects(table) and table.state.claims[-1].what == "locke.stat_now"


def test_illusion_room_card_loop_hits_until_the_mind_check_passes() -> None:
    """KMC 4 illusion room: at or below the illusion level and failing the mind check, combat
    cards are turned one by one; an attack at or below your level hits you; a passed mind
    check ends the loop."""
    table = arrive("illusion-room-6", s0={"character": "francis", "silhouette": "francis"})
    act(table, Fact(0, False))  # Nia: level below 6
    act(table, CheckValue(0, 2))
    roll(table, 6, 6)  # failed: the loop starts
    assert "card-loop" in effects(table)
    turned = 0
    while turned < 20:
        prompt, who = waiting(table)
        if prompt == "locke.check_value":
            act(table, CheckValue(0, 2))
            turned += 1
            roll(table, 1, 1 if turned >= 3 else 6)  # the third card's check passes
            if turned >= 3:
                break
        elif prompt == "locke.loop_hit":
            act(table, table.legal(0)[0])
        elif prompt == "locke.hit_value":
            act(table, table.legal(0)[0])
            roll(table, 4, 5)
        else:
            break
    assert len(events(table, "loop-card")) == 3 and events(table, "loop-ended")


def test_ek_turns_cards_until_the_mind_check_passes() -> None:
    """KMC 4 E.K.: the loop of turned combat cards starts at once (no gate)."""
    table = arrive("ek")
    assert "card-loop" in effects(table)
    act(table, CheckValue(0, 8))
    roll(table, 1, 2)
    assert events(table, "loop-ended") and len(events(table, "loop-card")) == 1


def _combat_shuffle_after(table: LocalTable) -> tuple[int, ...]:
    """Start a declared combat on seat 0's cell from ``table``'s state; the handles its deck shuffle takes."""
    state = table.state
    cell = state.seats[0].place
    started = game().settle(begin(state, Combat("declared", cell, ((0,), (1,)))))
    while True:
        pending = game().pending(started)
        if isinstance(pending, HiddenOp) and pending.op == "shuffle" and pending.zone == DECK:
            assert not zone_of(started, DISCARD)
            return pending.handles
        assert isinstance(pending, Decision) and pending.prompt == "locke.try_revive", pending
        started = game().settle(game().apply(started, TryRevive(pending.seat, False)))  # seed 002: not there


def test_cards_a_loop_turned_go_back_into_the_deck_when_a_combat_starts() -> None:
    """Ruling N143: the combat deck is all 86 cards at every combat's start, so the cards an E.K.
    loop spent in the base phase are shuffled in again; with every card spent (a long loop) the
    combat still gets its whole deck (a networked table once met an empty shuffle there)."""
    table = arrive("ek")
    act(table, CheckValue(0, 8))
    roll(table, 1, 2)
    spent = zone_of(table.state, DISCARD)
    assert len(spent) == 1 and len(zone_of(table.state, DECK)) == 85
    assert set(_combat_shuffle_after(table)) == set(spent) | set(zone_of(table.state, DECK))
    everything = spent + zone_of(table.state, DECK)
    table.state = table.state._replace(zones=with_zone(table.state._replace(
        zones=with_zone(table.state, DISCARD, everything)), DECK, ()))
    assert sorted(_combat_shuffle_after(table)) == sorted(everything) and len(everything) == 86


def test_alarm_device_fights_and_is_broken_when_destroyed() -> None:
    """KMC 4 alarm device: an automatic combat (KMC 10) against the device, a machine with the
    card's attack level and ESP jammer (N104); destroyed, it is gone."""
    table = arrive("alarm-1-1")
    decline_joins(table)
    act(table, Equip(0, 0, "", False))  # no items (KMC 10.3.2)
    device = table.state.combat.detail.fighters[1].ob
    assert (device.level, device.jammer, device.durability) == (1, 1, 1) and "machine" in device.traits
    roll(table, 6, 6, 1, 1)  # initiative: Locke first
    attacks = [a for a in table.legal(0) if getattr(a, "use", "") == "attack"]
    assert attacks and all(game().components.combat_card(a.card).level > 1 for a in attacks)  # the jammer: level 1
    act(table, attacks[0])
    roll(table, 2, 2)  # the device is destroyed
    assert table.state.combat is None
    s = table.state
    assert dict(s.cells)["B:2:1"].face_up == "destroyed" and "broken" in effects(table)


def test_controller_system_puts_a_failing_seat_under_the_base_player() -> None:
    """KMC 4 ESP controller system: a non-Evil face failing the mind check obeys a base player."""
    table = arrive("esp-controller-system")
    act(table, CheckValue(0, 8))
    roll(table, 6, 5)
    assert me(table).controller == 1


def test_audio_room_rests_one_turn_on_a_failed_mind_check() -> None:
    """KMC 4 audio room: others than the author face take a mind check; a fail rests one turn."""
    table = arrive("audio-room")
    act(table, CheckValue(0, 8))
    roll(table, 6, 6)
    assert me(table).status == "resting" and me(table).rest == 1 and me(table).restraint == "audio-room"


def test_powder_room_checks_women_only() -> None:
    """KMC 4 powder room: a female face takes a mind check; a fail rests 1d6."""
    table = arrive("powder-room")
    assert "not-female-face" in effects(table)
    woman = arrive("powder-room", s0={"character": "francis", "silhouette": "francis"})
    act(woman, CheckValue(woman.legal(0)[-2].seat, 2))
    roll(woman, 6, 6)
    roll(woman, 5)
    assert woman.state.seats[0].rest == 5 and woman.state.seats[0].restraint == "powder-room"


def test_autograph_session_rests_everyone_on_the_board() -> None:
    """KMC 4 autograph session: every awake seat on the board rests 1d6, a Locke face twice as long."""
    table = arrive("autograph-session")
    roll(table, 2)  # seat 0, Locke face: 4 turns
    roll(table, 3)  # seat 1 (on the board at B:4:4): 3 turns
    s = table.state
    assert ("restrained", 0, "autograph", 4) in s.events and ("restrained", 1, "autograph", 3) in s.events
    assert s.seats[1].restraint == "autograph"


def test_stacked_vortex_without_teleport_takes_a_10_to_1_hit() -> None:
    """KMC 4 stacked vortex: seven combat cards dealt; without a teleport the seat takes a 10:1
    hit on its durability (declared)."""
    for seed in range(30):
        table = _vortex_table(seed)
        if table.legal(0) == [PlayTeleport(0, -1)]:
            break
    act(table, PlayTeleport(0, -1))
    assert table.state.claims[-1].what == "locke.no_teleport"
    act(table, DeclareDurability(0, 6))
    roll(table, 6, 5)
    hit = events(table, "damage")[-1]
    assert hit[1:5] == ("stacked-vortex", 0, "durability", "10-1") and me(table).damage == 2


def test_stacked_vortex_teleport_then_mind_check() -> None:
    """KMC 4 stacked vortex: a teleport among the seven is shown, then a mind check; passed: nothing."""
    for seed in range(30):
        table = _vortex_table(seed)
        if table.legal(0) != [PlayTeleport(0, -1)]:
            break
    act(table, table.legal(0)[0])
    assert "teleport-played" in effects(table)
    act(table, CheckValue(0, 8))
    roll(table, 2, 2)
    assert "passed" in effects(table) and me(table).damage == 0


def _vortex_table(seed: int) -> LocalTable:
    seats = five(s0={"place": "B:1:1"}, s1={"place": "B:4:4"}, s2={"place": ""}, s3={"place": ""}, s4={"place": ""})
    table = table_at({"seats": seats, "phase": "base", "fill": "corridor", "turn_of": 0,
                      "cells": {"B:2:1": "stacked-vortex"},
                      "placements": [{"zone": "keybases", "seat": 1, "cells": KEYS}]}, seed=seed)
    act(table, Declare(0, False))
    act(table, Walk(0, "B:2:1"))
    return table


def test_black_hole_failed_check_moves_to_the_white_hole() -> None:
    """KMC 4 black hole: with a white hole open, a failed level check moves you onto it."""
    table = arrive("black-hole", cells={"B:6:1": {"face_up": "white-hole"}})
    act(table, CheckValue(0, 6))
    roll(table, 6, 6)
    assert me(table).place == "B:6:1" and "to-white-hole" in effects(table)


def test_goat_farm_rests_a_locke_face() -> None:
    """KMC 4 goat farm: a Locke face rests 1d6; others are not affected."""
    table = arrive("goat-farm")
    roll(table, 6)
    assert me(table).rest == 6 and me(table).restraint == "goat-farm"
    other = arrive("goat-farm", s0={"character": "francis", "silhouette": "francis"})
    assert "not-locke-face" in effects(other)


def test_trap_base_card_rolls_the_trap_chart() -> None:
    """KMC 4 trap: the trap chart (its entries are l3-planet's; the entry point is traps.trap_steps)."""
    table = arrive("trap")
    assert "trap-chart" in effects(table)


def test_barracks_rolls_random_combat() -> None:
    """KMC 4 barracks: the random-combat chart (flow of part 2)."""
    table = arrive("barracks")
    assert table.pending.purpose == "locke.chart.random-combat"  # type: ignore[union-attr]


def test_nova_check_ends_the_game_for_good() -> None:
    """KMC 4 Nova: in the destruction phase a passed level check kills everyone and every key base falls."""
    table = arrive("nova")
    assert waiting(table) == ("locke.nova", 0)
    from engine.locke.actions import Nova

    act(table, Nova(0, 6))
    roll(table, 1, 2)
    assert table.state.ending == "nova" and table.state.key_bases_destroyed == 4


def test_king_room_lets_hijiri_win_alone() -> None:
    """KMC 4 King editorial room: Yuki Hijiri's passed mind check ends the game (his win)."""
    table = arrive("king-editorial-room", s0={"character": "hijiri-yuki", "silhouette": "hijiri-yuki"})
    from engine.locke.actions import KingRoom

    act(table, KingRoom(0, 5))
    roll(table, 2, 2)
    assert table.state.ending == "king-room" and table.state.ended_by == 0


def test_nova_and_king_room_checks_are_fates_declared_checks() -> None:
    """KMC 4 Nova / King room with rulings N221 and N62: both checks are rolled by fate's one
    declared-check function, so a Nova declared at level 0 fails without dice, and the King
    room's mind check is the seat's own roll that a residential district may re-roll."""
    from engine.locke.actions import KingRoom, Nova

    table = arrive("nova")
    act(table, Nova(0, 0))
    assert ("check", 0, "level", 0, 0, False) in table.state.events
    assert ("nova-failed", 0) in table.state.events and table.state.ending == ""
    table = arrive("king-editorial-room", s0={"character": "hijiri-yuki", "silhouette": "hijiri-yuki"})
    act(table, KingRoom(0, 5))
    assert table.state.queue[0].kind == "check_roll" and table.pending.purpose == "locke.check.mind"
    roll(table, 6, 6)
    assert ("king-room-failed", 0) in table.state.events and table.state.ending == ""


def test_every_base_card_effect_type_has_one_home() -> None:
    """A base card's behaviour is found from its data's effect type: each type the component loader
    accepts (components.BASE_EFFECTS) is carried out by base_cards.EFFECTS or by the turn before the
    card reaches it (base_cards.ELSEWHERE), never both, and every shipped card's type has a home."""
    from engine.locke import base_cards
    from engine.locke.components import BASE_EFFECTS

    handled = set(base_cards.EFFECTS)
    elsewhere = set(base_cards.ELSEWHERE)
    assert not handled & elsewhere
    assert handled | elsewhere == set(BASE_EFFECTS)
    assert {b.effect.type for b in game().components.bases} <= handled | elsewhere

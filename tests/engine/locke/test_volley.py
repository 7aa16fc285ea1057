"""Seed 002 trap 15 (line 145), the synchronised attack of the 300 (engine/locke/combat/volley.py).

Seat 0 (Locke 1: level 6, durability 6) walks onto a trap card; the event chart's 12 (trap +4)
and an 11 bring it to row 15. The combat deck is stacked after its shuffle: the first seven
cards are the victim's hand, the next ones are those the trap turns up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine.core.actions import SYSTEM
from engine.core.claims import FalseClaim
from engine.core.errors import IllegalAction
from engine.core.pending import Chance, DiceRolled, HiddenOp
from engine.locke.actions import Nop, Stat
from engine.locke.combat.model import DECK
from tests.engine.locke.combat_helpers import card, fight, seven, stack
from tests.engine.locke.flow_helpers import five, game, roll, settle, waiting
from tests.engine.locke.test_traps import _event


#: Seven turned-up cards, three of them attacks (levels 1, 2, 3: one attack of level 5, firepower 12).
QUIET = ["raygun-1", "blaster-4", "bazooka-7", "esp-block", "esp-shield", "esp-barrier", "contact-telepathy"]


def _events(table: Any, kind: str) -> list[tuple[Any, ...]]:
    return [e for e in table.state.events if e[0] == kind]


def volley(deck: Sequence[str], seats: Any = None) -> Any:
    """Seat 0 on trap row 15, its hand dealt from ``deck`` (stacked after the shuffle)."""
    table = _event(seats)
    roll(table, 6, 6)  # event 12: the trap chart again with +4 (seed 002 line 170)
    chance = table.pending
    assert isinstance(chance, Chance)
    table.feed(DiceRolled(SYSTEM, chance.purpose, (5, 6)))  # 11 + 4 = 15
    while not (isinstance(table.pending, HiddenOp) and table.pending.op != "shuffle"):
        table.step()
    stack(table, deck)
    settle(table)
    assert ("trap", "sync-attack-of-300", 0) in table.state.events
    return table


def test_the_hand_is_dealt_privately_then_the_level_is_declared() -> None:
    """Seed 002 trap 15: cards as in a combat (seven, dealt to the victim alone), then the level."""
    table = volley(seven("esp-psycho-pod"))
    assert waiting(table) == ("locke.v300_level", 0)
    mine = fight(table).fighters[0]
    assert len(mine.hand) == 7 and all(h not in dict(table.state.open_cards) for h in mine.hand)
    assert table.legal(0) == [Stat(0, "level", 6)]  # Locke 1's 6 is the highest any card has


def test_declaring_a_lower_level_is_a_false_claim() -> None:
    """Seed 002 trap 15: the level may not be declared lower than it is (a claim, N223)."""
    table = volley(seven("esp-psycho-pod"))
    with pytest.raises(FalseClaim) as caught:
        table.feed(Stat(0, "level", 5))
    assert caught.value.claim.seat == 0


def test_a_level_no_card_has_is_refused() -> None:
    table = volley(seven("esp-psycho-pod"))
    before = table.state
    with pytest.raises(IllegalAction):
        table.feed(Stat(0, "level", 7))
    assert table.state == before


def test_declared_plus_one_cards_turn_up_and_every_attack_syncs() -> None:
    """Seed 002 trap 15: level 6 turns up 7 cards; the three attack cards among them are one
    attack: bazooka (level 3) + 2 syncs = level 5, firepower 1 + 4 + 7 = 12 (N223)."""
    turned = ["raygun-1", "blaster-4", "esp-screen", "bazooka-7", "illusion-1", "teleport-1", "combat-wildcard"]
    table = volley(seven("esp-psycho-pod") + turned)
    _declare(table, 6)
    attack = _events(table, "v300-attack")[-1]
    assert attack[1:] == (0, turned, "bazooka-7", 5, 12)
    assert all(h in dict(table.state.open_cards) for h in fight(table).fighters[1].hand)
    strike = fight(table).strike
    assert strike is not None and (strike.level, strike.firepower, strike.card) == (5, 12, "bazooka-7")
    assert waiting(table) == ("locke.cb_escape", 0)


def test_a_defence_card_of_the_level_stops_it() -> None:
    """Seed 002 trap 15: the victim may defend with its hand (KMC 10.7.3: level 6 >= 5)."""
    table = volley(seven("esp-psycho-pod") + QUIET)
    _declare(table, 6)
    table.feed(Nop(0))  # no escape
    settle(table)
    table.feed(card(table, 0, "defend", "esp-psycho-pod"))
    settle(table)
    assert ("cb-defend", 0) in table.state.events
    _over(table)
    assert table.state.seats[0].damage == 0


def test_an_escape_avoids_it_but_the_victim_stays() -> None:
    """Seed 002 trap 15: evading with a teleport is allowed, the escape's move is not."""
    table = volley(seven("teleport-6") + QUIET)
    place = table.state.seats[0].place
    _declare(table, 6)
    table.feed(card(table, 0, "escape", "teleport-6"))
    settle(table)
    assert ("cb-evaded", 0) in table.state.events
    assert not _events(table, "cb-escape")
    _over(table)
    assert table.state.seats[0].place == place and table.state.seats[0].damage == 0


def test_an_unanswered_attack_is_a_damage_check_on_the_declared_durability() -> None:
    """KMC 10.7.4 through seed 002's table: firepower 12 against durability 6."""
    table = volley(seven("illusion-1") + QUIET)
    _declare(table, 6)
    table.feed(Nop(0))
    settle(table)
    table.feed(Nop(0))  # no defence
    settle(table)
    assert waiting(table) == ("locke.cb_dur", 0)
    table.feed(table.legal(0)[0])
    settle(table)
    roll(table, 3, 4)
    hits = _events(table, "cb-hit")
    assert hits and hits[-1][1:3] == ("the-300", 0)
    assert table.state.seats[0].damage == 6 - hits[-1][5] or not table.state.seats[0].alive
    _over(table)


def test_no_attack_card_turned_up_means_nothing_happens() -> None:
    """Seed 002 trap 15 with no attack card among the turned-up ones: no attack."""
    table = volley(seven("illusion-1") + ["esp-block", "esp-shield"], seats=five(s0={"character": "jessica",
                                                                                "silhouette": "jessica"}))
    _declare(table, 1)  # Jessica's level 1: two cards
    assert _events(table, "v300-attack")[-1][3:] == ("", 0, 0)
    _over(table)


def _declare(table: Any, level: int) -> None:
    table.feed(Stat(0, "level", level))
    settle(table)


def _over(table: Any) -> None:
    """The trap is over: no combat, every card back in the deck, the game goes on."""
    assert table.state.combat is None
    assert len(game().zone(table.state, DECK)) == 86
    assert any(e[0] == "combat" and e[1] == "trap:sync-attack-of-300" for e in table.state.events)
    assert table.state.last_combat == ()  # no combat took place (KMC 6: Hijiri's final combat)


def test_an_illusion_puts_the_300_to_sleep_and_the_victim_stays() -> None:
    """Seed 002 trap 15 with KMC 5.3.2: an illusion of the attack's level or more is an evasion;
    the 300 (level and mind 0 as a crowd) fall asleep, their attack is gone, nobody moves."""
    table = volley(seven("illusion-6") + QUIET)
    place = table.state.seats[0].place
    _declare(table, 6)
    table.feed(card(table, 0, "escape", "illusion-6"))
    settle(table)
    roll(table, 1, 1)  # 6 + 2 against 0 + 0: asleep
    assert ("cb-illusion-stops", 0) in table.state.events and ("cb-evaded", 0) in table.state.events
    _over(table)
    assert table.state.seats[0].place == place and table.state.seats[0].damage == 0

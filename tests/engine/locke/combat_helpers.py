"""Combat positions for the KMC 10 scenario tests: a table at a combat's start with
the combat deck stacked (the cards each fighter is dealt, in fighter order), so a
test picks the hands as it picks the dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.actions import SYSTEM
from engine.core.pending import Chance, Decision, DiceRolled, HiddenOp
from engine.locke.actions import TryRevive
from engine.locke.combat.flow import begin
from engine.locke.combat.actions import Equip, Play
from engine.locke.combat.model import DECK, Fight
from engine.locke.state import Combat
from net.local_table import LocalTable
from tests.engine.locke.flow_helpers import five, game, settle, table_at


#: A deck position left as the shuffle made it.
ANY = "*"


def stack(table: LocalTable, cards: Sequence[str]) -> None:
    """Put ``cards`` on top of the (just shuffled) combat deck, in this order: a position,
    like the dice a test gives (the trusted table's truth is a permutation before and after)."""
    handles = game().zone(table.state, DECK)
    fixed: set[int] = set()
    for k, card in enumerate(cards):
        if card == ANY:
            continue
        j = next(j for j in range(len(handles)) if j not in fixed and table.truth[handles[j]] == card)
        a, b = handles[k], handles[j]
        table.truth[a], table.truth[b] = table.truth[b], table.truth[a]
        fixed.add(k)


def combat_table(sides: tuple[tuple[int, ...], tuple[int, ...]] = ((0,), (2,)), deck: Sequence[str] = (),
                 seats: list[dict[str, Any]] | None = None, obstacles: tuple[Any, ...] = (), henchmen: int = 0,
                 cause: str = "declared", cell: str = "P:1:0", equip: Mapping[int, Equip] | None = None,
                 offers: Mapping[int, Sequence[int]] | None = None,
                 cells: Mapping[str, Any] | None = None, talks: bool = False) -> LocalTable:
    """Seats of five() (seat 2, Nia, moved onto Locke's cell) in a combat, the deck stacked;
    every seat declares no item before the first round unless ``equip`` says otherwise; the
    seats in ``offers`` roll actually-there / actually-alive with those dice (seed 002), the
    others decline; ``cells`` lays the cards of particular cells (None: an empty cell); with
    ``talks`` the combat's party questions are left to the test (flow_helpers.settle declines them)."""
    table = table_at({"seats": seats or five(s2={"place": cell}), "phase": "planet", "turn_of": 0, "fill": "frontier",
                      "cells": dict(cells or {})})
    table.state = game().settle(begin(table.state, Combat(cause, cell, sides, obstacles=obstacles, henchmen=henchmen)))
    while not (isinstance(table.pending, HiddenOp) and table.pending.op != "shuffle"
               and not table.pending.zone.startswith("kept:")):  # kept planet cards turned up by use
        pending = table.pending
        if isinstance(pending, Decision) and pending.prompt == "locke.cb_equip":
            table.feed((equip or {}).get(pending.seat, Equip(pending.seat, 0, "", False)))
        elif isinstance(pending, Decision) and pending.prompt == "locke.try_revive":
            tries = pending.seat in (offers or {})
            table.feed(TryRevive(pending.seat, tries))  # seed 002, N117
            dice = list((offers or {}).get(pending.seat, ()))
            while dice:  # 2d6 for the check, then 2d6 for the residual-thought chart if it asks
                chance = table.pending
                assert isinstance(chance, Chance), f"combat_table: dice left for seat {pending.seat}"
                table.feed(DiceRolled(SYSTEM, chance.purpose, tuple(dice[:2])))
                dice = dice[2:]
        elif isinstance(pending, Decision):
            raise AssertionError(f"combat_table: unexpected question {pending.prompt} to seat {pending.seat}")
        else:
            table.step()
    stack(table, deck)
    table.talks = talks  # type: ignore[attr-defined]
    settle(table)
    return table


def fight(table: LocalTable) -> Fight:
    assert table.state.combat is not None
    detail = table.state.combat.detail
    assert isinstance(detail, Fight)
    return detail


def hand(table: LocalTable, seat: int) -> dict[str, int]:
    """The seat's own cards (card id -> a handle), as it knows them."""
    f = next(f for f in fight(table).fighters if f.seat == seat)
    return {table.knowledge[seat].card(h) or "?": h for h in reversed(f.hand)}


def card(table: LocalTable, seat: int, use: str, card_id: str, target: int = -1, *, acts_as: str = "",
         stretch: int = 0, mind: int = 0, level: int = 0) -> Play:
    return Play(seat, use, hand(table, seat)[card_id], card_id, acts_as, target, stretch, mind, level)


def seven(*cards: str, filler: str = ANY) -> list[str]:
    """A seven-card hand: ``cards``, then ``filler`` (by default whatever the shuffle put there)."""
    return list(cards) + [filler] * (7 - len(cards))


def initiative(table: LocalTable, *faces: int) -> None:
    """Roll the initiative; every seat holding a face-down card keeps its own two dice (it is
    offered the residential re-roll of them, KMC 10.3.3 and ruling N208)."""
    from engine.locke.actions import Nop

    pending = table.pending
    assert isinstance(pending, Chance) and pending.purpose == "locke.combat.initiative", pending
    table.feed(DiceRolled(SYSTEM, pending.purpose, tuple(faces)))
    settle(table)
    while isinstance(table.pending, Decision) and table.pending.prompt == "locke.reroll":
        table.feed(Nop(table.pending.seat))
        settle(table)

"""Enumerate the legal actions of a Rider seat (what bots and the UI may offer).

The reducer checks each action with the same helpers (rules.py, effects.py),
and the property tests assert that an action is accepted exactly when it is
listed here. Hand cards need the seat's knowledge (or a public identity); a
pass that only the hidden hand makes legal is listed only when no other action
is (rider.3, rider.14).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.rider.actions import (
    Attack,
    Discard,
    EndAttacks,
    LevelUp,
    OpenColumn,
    Pass,
    Renew,
    SetUp,
)
from engine.rider.effects import TARGETED, targets_for
from engine.rider.rules import Info, attack_options, placement_levels
from engine.rider.state import COLUMNS, RiderState, other, with_column, with_player

SETUP_COLUMNS = 3  # rider.0


def legal_actions(table: Mapping[str, Info], state: RiderState, seat: int, knowledge: Knowledge | None) -> list[Action]:
    if not state.queue or state.reason:
        return []
    step = state.queue[0]
    if step.seat != seat:
        return []
    kind = step.kind
    if kind == "attack":
        acts: list[Action] = [Attack(seat, COLUMNS[i], COLUMNS[j]) for i, j in attack_options(table, state, seat)]
        acts.append(EndAttacks(seat))
        return acts
    if kind == "main":
        return _main_actions(table, state, seat, known_hand(table, state, seat, knowledge))
    if kind == "discard":
        return [Discard(seat, h, c) for h, c in known_hand(table, state, seat, knowledge)]
    if kind == "setup":
        return _setup_actions(table, state, seat, knowledge)
    return []


def known_hand(table: Mapping[str, Info], s: RiderState, seat: int, knowledge: Knowledge | None) -> list[tuple[int, str]]:
    """(handle, card) for every hand card whose identity the seat knows."""
    opened = dict(s.open_cards) if s.open_cards else {}
    result = []
    for h in s.players[seat].hand:
        card = opened.get(h) or (knowledge.card(h) if knowledge is not None else None)
        if card is not None and card in table:
            result.append((h, card))
    return result


def _setup_actions(table: Mapping[str, Info], s: RiderState, seat: int, knowledge: Knowledge | None) -> list[Action]:
    if knowledge is None:
        return []
    lv1 = [h for h in s.players[seat].deck if (c := knowledge.card(h)) is not None and c in table and table[c].lv1]
    return [SetUp(seat, combo) for combo in itertools.permutations(lv1, SETUP_COLUMNS)]


def _main_actions(table: Mapping[str, Info], s: RiderState, seat: int, cards: list[tuple[int, str]]) -> list[Action]:
    p = s.players[seat]
    opp_lost = len(s.players[other(seat)].lost)
    acts: list[Action] = []
    for h, c in cards:
        info = table[c]
        for i, col in enumerate(p.columns):
            if col.cards:
                for level in placement_levels(table, info, col, opp_lost):
                    for targets in _target_choices(table, s, seat, info, i, level):
                        acts.append(LevelUp(seat, COLUMNS[i], h, c, level, targets))
            elif info.lv1 and col.facedown is None:
                acts.append(Renew(seat, COLUMNS[i], h, c))
    if p.hand:
        for i, col in enumerate(p.columns):
            if col.facedown is not None:
                acts.extend(OpenColumn(seat, COLUMNS[i], h, c) for h, c in cards)
    if not acts:
        if not p.hand:
            acts.append(Pass(seat, None, None))
        elif not any(c.facedown is not None for c in p.columns):
            acts.extend(Pass(seat, h, c) for h, c in cards)
    return acts


def _target_choices(table: Mapping[str, Info], s: RiderState, seat: int, info: Info, index: int, level: int) -> list[tuple[str, ...]]:
    """Every combination of valid targets, one per instant effect (rider.13)."""
    if not info.instants:
        return [()]
    # Targets are judged with the card already placed, as the reducer does.
    col = s.players[seat].columns[index]
    col = col._replace(zero=info.card.id) if info.lv0 else col._replace(cards=col.cards + ((info.card.id, level),))
    placed = s._replace(players=with_player(s, seat, with_column(s.players[seat], index, col)))
    options: list[tuple[str, ...]] = []
    for effect in info.card.effects:
        if effect.when != "instant":
            continue
        if effect.type in TARGETED:
            valid = targets_for(table, placed, seat, effect.type, effect.max_level)
            options.append(valid if valid else ("",))
        else:
            options.append(("",))
    return [tuple(t) for t in itertools.product(*options)]

"""Pure rule helpers: column power, placement, attack eligibility and resolution.

These functions take the card table and columns, never the whole state, so
both the reducer and the legal-action generator use the very same checks.
Rule ids ("rider.7") refer to docs/rules/rider.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from engine.rider.cards import FREE, Card, CardSet
from engine.rider.state import Column, RiderState, other

MAX_LEVEL = 4
WIN_LOST = 3  # rider.9


class Info(NamedTuple):
    """A card's rule-relevant facts, precomputed once per card set (speed)."""

    card: Card
    levels: tuple[int, ...]
    attribute: str
    lv1: bool
    lv0: bool
    attack_power: int  # normal or full power when attacking
    defend_power: int
    attack_bonus: int
    defend_bonus: int
    can_attack: bool
    double_attack: bool
    guard: int  # 0: no guard
    skip_from: int  # 0: no skip placement
    any_attribute: bool
    min_lost: int  # -1: no onto_opponent_lost placement
    instants: tuple[str, ...]  # instant effect types in card order


def card_info(card: Card) -> Info:
    full_att = any(e.applies_on("attack") for e in card.effects_of("full_power"))
    full_def = any(e.applies_on("defend") for e in card.effects_of("full_power"))
    place = card.special_placement
    return Info(
        card=card,
        levels=card.levels,
        attribute=card.attribute,
        lv1=card.levels == (1,),
        lv0=card.levels == (0,),
        attack_power=card.full_power if full_att else card.power,
        defend_power=card.full_power if full_def else card.power,
        attack_bonus=sum(e.amount for e in card.effects_of("power_bonus") if e.applies_on("attack")),
        defend_bonus=sum(e.amount for e in card.effects_of("power_bonus") if e.applies_on("defend")),
        can_attack=card.has("can_attack"),
        double_attack=card.has("double_attack"),
        guard=max((e.min_attack for e in card.effects_of("guard")), default=0),
        skip_from=place.from_level if place is not None and place.type == "skip" else 0,
        any_attribute=place is not None and place.type == "any_attribute",
        min_lost=place.min_lost if place is not None and place.type == "onto_opponent_lost" else -1,
        instants=tuple(e.type for e in card.effects if e.when == "instant"),
    )


def info_table(cardset: CardSet) -> dict[str, Info]:
    return {cid: card_info(card) for cid, card in cardset.cards.items()}


def _column_ids(col: Column) -> list[str]:
    ids = [cid for cid, _ in col.cards]
    if col.zero is not None:
        ids.append(col.zero)
    return ids


def column_power(table: Mapping[str, Info], col: Column, side: str) -> int:
    """Rule rider.7: sum of normal power (full power / bonuses where an effect says so)."""
    total = 0
    attack = side == "attack"
    for cid in _column_ids(col):
        i = table[cid]
        total += (i.attack_power + i.attack_bonus) if attack else (i.defend_power + i.defend_bonus)
    return total


def can_attack(table: Mapping[str, Info], col: Column) -> bool:
    """Rule rider.6: a standing column with a Lv.4 card or a card that allows attacking."""
    if not col.cards:
        return False
    for cid, level in col.cards:
        if level == MAX_LEVEL or table[cid].can_attack:
            return True
    return col.zero is not None and table[col.zero].can_attack


def attacks_allowed(table: Mapping[str, Info], col: Column) -> int:
    """Rule rider.6: one attack per turn, two with a double_attack card in the column."""
    return 2 if any(table[cid].double_attack for cid in _column_ids(col)) else 1


def guard_of(table: Mapping[str, Info], col: Column) -> int:
    """Least attack power needed to attack this column (0 = anyone)."""
    return max((table[cid].guard for cid in _column_ids(col)), default=0)


def placement_levels(table: Mapping[str, Info], info: Info, col: Column, opp_lost: int) -> tuple[int, ...]:
    """Levels at which a hand card may be placed on ``col`` by a level up (rules rider.4, rider.12-13)."""
    if not col.cards:
        return ()
    if info.min_lost >= 0 and opp_lost < info.min_lost:
        return ()
    if info.lv0:
        return (0,) if col.zero is None else ()
    top_id, top = col.cards[-1]
    if not (info.any_attribute or info.attribute == FREE or info.attribute == table[top_id].attribute
            or table[top_id].attribute == FREE):
        return ()
    result = []
    if top + 1 in info.levels and top + 1 <= MAX_LEVEL:
        result.append(top + 1)
    if info.skip_from and top == info.skip_from and top + 2 in info.levels and top + 2 <= MAX_LEVEL:
        result.append(top + 2)
    return tuple(result)


class Battle(NamedTuple):
    """What one attack did: new columns and where destroyed cards go."""

    attack_power: int
    defence_power: int
    attacker: Column
    defender: Column
    attacker_discarded: tuple[str, ...]
    defender_discarded: tuple[str, ...]
    defender_lost: tuple[str, ...]


def resolve_attack(table: Mapping[str, Info], att: Column, dfn: Column, attacker_pays: bool = True) -> Battle:
    """Rules rider.7-8 (and rider.11 for the attacker's own cards).

    Attack > defence: every destroyable defending card is destroyed.
    Otherwise defending cards are destroyed from the highest placed level down
    until the destroyed (defending) power reaches the attack value; the card
    that crosses the line is destroyed whole. Lv.0 cards are never destroyed.
    Either way the attacking column keeps only its Lv.1 and Lv.0 (unless
    ``attacker_pays`` is False: the first of a double attack, rider.15).
    """
    a = column_power(table, att, "attack")
    d = column_power(table, dfn, "defend")
    keep = list(dfn.cards)
    if a > d:
        destroyed = keep[::-1]  # highest level first, as in the partial case
        keep = []
    else:
        destroyed = []
        done = 0
        while keep and done < a:
            cid, level = keep.pop()
            destroyed.append((cid, level))
            done += table[cid].defend_power
    lost = tuple(cid for cid, level in destroyed if level == 1)
    discarded = tuple(cid for cid, level in destroyed if level != 1)
    new_att, att_gone = strip_attacker(att) if attacker_pays else (att, ())
    return Battle(a, d, new_att, dfn._replace(cards=tuple(keep)), att_gone, discarded, lost)


def strip_attacker(att: Column) -> tuple[Column, tuple[str, ...]]:
    """The attacking column's cost (rider.7, rider.11): only its Lv.1 and Lv.0 stay."""
    gone = tuple(cid for cid, level in att.cards if level != 1)
    return att._replace(cards=tuple(c for c in att.cards if c[1] == 1)), gone


def attack_options(table: Mapping[str, Info], s: RiderState, seat: int) -> list[tuple[int, int]]:
    """(attacking column, target column) pairs allowed now (rider.6, rider.12, rider.15, rider.21)."""
    mine = s.players[seat].columns
    theirs = s.players[other(seat)].columns
    result = []
    for i, col in enumerate(mine):
        if not can_attack(table, col) or s.attacks[i] >= attacks_allowed(table, col):
            continue
        power = column_power(table, col, "attack")
        for j, target in enumerate(theirs):
            if target.cards and guard_of(table, target) <= power:
                result.append((i, j))
    return result


def check_win(s: RiderState) -> RiderState:
    """rider.9: three Lost Lv.1 cards end the game at once."""
    for seat in (0, 1):
        if len(s.players[seat].lost) >= WIN_LOST:
            winner = other(seat)
            return s._replace(
                queue=(), winner=winner, reason=f"seat {winner} won: three Lv.1 cards of seat {seat} are Lost (rider.9)"
            )
    return s

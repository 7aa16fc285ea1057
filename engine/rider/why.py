"""Why an input is not allowed, as data: a stable key, the rule, the facts.

The reducer refuses an input with a typed error; a player who clicked
something needs the same reason in words in their own language. So every
check that can refuse a placement, an attack or a pass returns a :class:`Why`
(key, rule id, named facts) here, once; the reducer turns it into its English
error message (:func:`message`), and a client words the key in any language
without parsing text. Rule ids refer to docs/rules/rider.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from engine.core.hidden import Knowledge
from engine.rider.actions import OpenColumn, Pass
from engine.rider.cards import FREE
from engine.rider.legal import legal_actions
from engine.rider.rules import (
    MAX_LEVEL,
    Info,
    attacks_allowed,
    can_attack,
    column_power,
    guard_of,
    placement_levels,
)
from engine.rider.state import COLUMNS, Column, RiderState, other

Fact = int | str


class Why(NamedTuple):
    """A refusal: ``key`` names the reason, ``rule`` the rule, ``facts`` its values."""

    key: str
    rule: str
    facts: tuple[tuple[str, Fact], ...] = ()

    def fields(self) -> dict[str, Fact]:
        return dict(self.facts)


def _why(key: str, rule: str, **facts: Fact) -> Why:
    return Why(key, rule, tuple(sorted(facts.items())))


#: The engine's own (English) wording of each key; clients have their own catalogue.
MESSAGES: dict[str, str] = {
    "next_level": "{card} (Lv.{card_levels}) cannot go on column {column}: its top is Lv.{top}, so it needs "
                  "a card of Lv.{next} (the next level){skip_note}; choose another column or card",
    "wrong_level": "{card} can go on column {column} only as Lv.{fits}, not Lv.{level}",
    "top_level": "column {column} is at Lv.4, the top: nothing goes above it; choose another column",
    "attribute": "{card} is {attribute} but the top card of column {column} is {top_attribute}: the attributes "
                 "must match unless one of them is free; choose a column whose top card is {attribute} or free",
    "needs_lost": "{card} needs at least {needed} opposing Lv.1 cards in Lost (there are {lost}); play another card",
    "zero_taken": "column {column} already holds a Lv.0 card; put {card} on another column",
    "zero_level": "{card} is a Lv.0 card: place it with level 0",
    "fallen": "column {column} lost its Lv.1: renew it with a Lv.1 card before levelling it up",
    "renew_lv1": "column {column} lost its Lv.1 and only a Lv.1 card can renew it, not {card}",
    "not_fallen": "column {column} still has its Lv.1 (or is face down); renew only a column whose Lv.1 was "
                  "destroyed",
    "no_attacker": "column {column} cannot attack: it needs a standing Lv.1 and a Lv.4 or a card that allows "
                   "attacking; attack with another column or end attacks",
    "fallen_attacker": "column {column} lost its Lv.1 and cannot attack until it is renewed",
    "attacked": "column {column} has already made its attacks this turn; attack with another column or end attacks",
    "no_target": "opposing column {target} is not a face-up column with its Lv.1 and cannot be attacked; choose "
                 "another target",
    "guarded": "opposing column {target} is guarded against attacks below {guard} power and column {column} has "
               "{power}; choose another target",
    "game_over": "the game is over",
    "not_your_turn": "it is not your decision now; wait for your turn",
    "setup_first": "set up your face-down Lv.1 cards first",
    "pass_phase": "you can pass only as your main action",
    "main_done": "you have made your main action this turn; attack or end the turn",
    "discard_now": "an effect makes you discard a card now: click the card to discard",
    "attack_later": "attacks come after the main action: first level up, renew, open a column or pass",
    "pass_open": "you can still open a face-down column, so you cannot pass; open one instead",
    "pass_playable": "{card} can be played now, so you cannot pass; level up, renew or open instead",
}


def message(why: Why) -> str:
    """The reason in the engine's English (for error messages and logs)."""
    fields = why.fields()
    skip = fields.get("skip", 0)
    fields["skip_note"] = f" (this card may also go on a column whose top is Lv.{skip})" if skip else ""
    return MESSAGES[why.key].format(**fields)


def placement_why(table: Mapping[str, Info], info: Info, col: Column, letter: str, opp_lost: int,
                  level: int | None = None) -> Why | None:
    """Why ``info`` may not level up ``col`` (at ``level``, or at any level when None); None if it may.

    The same order of checks as :func:`engine.rider.rules.placement_levels`
    (rules rider.4, rider.12, rider.17 and the special placements)."""
    card = info.card.id
    if not col.cards:
        return _why("fallen", "rider.12", column=letter)
    fits = placement_levels(table, info, col, opp_lost)
    if fits:
        if level is None or level in fits:
            return None
        if info.lv0:
            return _why("zero_level", "rider.17", card=card)
        return _why("wrong_level", "rider.4", card=card, column=letter, level=level,
                    fits=" / Lv.".join(map(str, fits)))
    if info.min_lost >= 0 and opp_lost < info.min_lost:
        return _why("needs_lost", "rider.4", card=card, needed=info.min_lost, lost=opp_lost)
    if info.lv0:
        return _why("zero_taken", "rider.17", card=card, column=letter)
    top_id, top = col.cards[-1]
    top_info = table[top_id]
    if not (info.any_attribute or FREE in (info.attribute, top_info.attribute) or info.attribute == top_info.attribute):
        return _why("attribute", "rider.4", card=card, column=letter, attribute=info.attribute,
                    top_attribute=top_info.attribute)
    if top >= MAX_LEVEL:
        return _why("top_level", "rider.4", column=letter)
    return _why("next_level", "rider.4", card=card, column=letter, top=top, next=top + 1,
                card_levels="-".join(map(str, info.levels)), skip=info.skip_from)


def hand_card_why(table: Mapping[str, Info], state: RiderState, seat: int, card: str, index: int) -> Why | None:
    """Why the hand card ``card`` cannot go on the seat's own column ``index`` now (main action); None if it can.

    A face-down column can always be opened with any card (rider.3)."""
    p = state.players[seat]
    col = p.columns[index]
    letter = COLUMNS[index]
    info = table[card]
    if col.facedown is not None:
        return None
    if not col.cards:
        return None if info.lv1 else _why("renew_lv1", "rider.3", column=letter, card=card)
    return placement_why(table, info, col, letter, len(state.players[other(seat)].lost))


def attack_why(table: Mapping[str, Info], state: RiderState, seat: int, i: int, j: int | None = None) -> Why | None:
    """Why the seat's column ``i`` cannot attack (opposing column ``j``, or any when None); None if it can."""
    col = state.players[seat].columns[i]
    letter = COLUMNS[i]
    if not col.cards and col.facedown is None:
        return _why("fallen_attacker", "rider.12", column=letter)
    if not can_attack(table, col):
        return _why("no_attacker", "rider.6", column=letter)
    if state.attacks[i] >= attacks_allowed(table, col):
        return _why("attacked", "rider.15" if attacks_allowed(table, col) > 1 else "rider.6", column=letter)
    if j is None:
        return None
    target = state.players[other(seat)].columns[j]
    if not target.cards:
        return _why("no_target", "rider.12", target=COLUMNS[j])
    guard = guard_of(table, target)
    power = column_power(table, col, "attack")
    if guard > power:
        return _why("guarded", "rider.21", target=COLUMNS[j], guard=guard, column=letter, power=power)
    return None


def pass_why(table: Mapping[str, Info], state: RiderState, seat: int, knowledge: Knowledge | None) -> Why | None:
    """Why the seat may not pass now (its main action), judged with everything it
    knows of its own hand; None if it may (rider.3; rider.14: the seat knows its
    hand, the public reducer does not). The legal-action list is the judge: a
    pass is refused exactly when the list holds another move."""
    if not state.players[seat].hand:
        return None
    moves = [a for a in legal_actions(table, state, seat, knowledge) if not isinstance(a, Pass)]
    if not moves:
        return None
    if any(isinstance(a, OpenColumn) for a in moves):
        return _why("pass_open", "rider.3")
    move = moves[0]
    return _why("pass_playable", "rider.3", card=str(getattr(move, "card", "")), move=move.KIND.removeprefix("rider."))


#: Decisions a seat takes with the table scene's gestures.
_DECISIONS = ("main", "attack", "discard", "setup")


def gesture_why(table: Mapping[str, Info], state: RiderState, seat: int, knowledge: Knowledge | None, *,
                card: str | None = None, column: int | None = None, target: int | None = None,
                passing: bool = False) -> Why | None:
    """Why a gesture of ``seat`` is not allowed now; None when it is (see RiderGame.why_not).

    ``card`` (a hand card) with ``column``: put it on that own column; ``card``
    alone: play it anywhere; ``column`` alone or with ``target``: attack with
    it; ``passing``: pass."""
    if state.reason:
        return _why("game_over", "rider.9")
    step = state.queue[0] if state.queue else None
    if step is None or step.kind not in _DECISIONS or step.seat != seat:
        return _why("not_your_turn", "rider.3", seat=-1 if step is None else step.seat)
    kind = step.kind
    if kind == "setup":
        return _why("setup_first", "rider.0")
    if passing:
        return pass_why(table, state, seat, knowledge) if kind == "main" else _why("pass_phase", "rider.3")
    if card is not None:
        if kind == "attack":
            return _why("main_done", "rider.6")
        if kind == "discard":
            return None if column is None else _why("discard_now", "rider.19")
        if column is not None:
            return hand_card_why(table, state, seat, card, column)
        reasons = [hand_card_why(table, state, seat, card, i) for i in range(len(COLUMNS))]
        if any(r is None for r in reasons):
            return None
        standing = [r for r, c in zip(reasons, state.players[seat].columns) if c.cards]
        return (standing or reasons)[0]
    if column is not None:
        if kind == "main":
            return _why("attack_later", "rider.6")
        if kind == "discard":
            return _why("discard_now", "rider.19")
        return attack_why(table, state, seat, column, target)
    return None

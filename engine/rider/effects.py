"""Instant effects (rider.5, rider.13, rider.18-20, rider.24): targets and resolution.

A level up names one target per instant effect of the placed card. Here the
targets are checked (:func:`effect_steps`, which raises before anything is
built) and turned into queued steps; the steps that need no input resolve in
:data:`AUTO_EFFECTS`, each re-checking its target, which may be gone by then.
Steps that wait for input reuse the game's own kinds: ``draw`` (a deal),
``discard`` (the opponent's decision), ``peek`` (a show-to) and ``flip`` (a
reveal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.core.errors import IllegalAction
from engine.rider.rules import Info, check_win
from engine.rider.state import (
    COLUMN_INDEX,
    COLUMNS,
    RiderState,
    Step,
    other,
    remove_one,
    with_column,
    with_player,
)

#: Effects whose target is named in the level-up action, and what they target.
TARGETED = {
    "destroy_top": "an opposing standing column whose top card is low enough",
    "destroy_level0": "an opposing column holding a Lv.0 card",
    "recover": "a card in your discard pile of low enough level",
    "flip_facedown": "one of your face-down columns",
    "rescue_lost": "a card in your Lost pile",
}


def targets_for(table: Mapping[str, Info], s: RiderState, seat: int, effect_type: str, param: int) -> tuple[str, ...]:
    """Valid targets of a targeted instant effect (rider.13), in a stable order."""
    me = s.players[seat]
    them = s.players[other(seat)]
    if effect_type == "destroy_top":
        return tuple(COLUMNS[i] for i, c in enumerate(them.columns) if c.cards and c.top_level <= param)
    if effect_type == "destroy_level0":
        return tuple(COLUMNS[i] for i, c in enumerate(them.columns) if c.zero is not None)
    if effect_type == "recover":  # rider.18: a Lv.2-3 card counts as Lv.3
        return tuple(sorted({cid for cid in me.discard if max(table[cid].levels) <= param}))
    if effect_type == "flip_facedown":
        return tuple(COLUMNS[i] for i, c in enumerate(me.columns) if c.facedown is not None)
    if effect_type == "rescue_lost":
        return tuple(sorted(set(me.lost)))
    return ()


def effect_steps(table: Mapping[str, Info], s: RiderState, seat: int, info: Info, targets: tuple[str, ...]) -> tuple[Step, ...]:
    """Check the targets of a levelled-up card (already placed in ``s``) and queue its effects."""
    instants = [e for e in info.card.effects if e.when == "instant"]
    if len(targets) != len(instants):
        raise IllegalAction(
            f"{info.card.id} has {len(instants)} instant effects; give one target per effect (\"\" for none)",
            rule="rider.13",
        )
    steps: list[Step] = []
    for effect, target in zip(instants, targets):
        kind = effect.type
        if kind in TARGETED:
            valid = targets_for(table, s, seat, kind, effect.max_level)
            if target == "" and valid:
                raise IllegalAction(
                    f"{info.card.id}'s {kind} must target one of {list(valid)}; name one in the level up's targets",
                    rule="rider.13",
                )
            if target != "" and target not in valid:
                raise IllegalAction(
                    f"{target!r} is not a valid target for {kind} ({TARGETED[kind]}); valid: {list(valid) or 'none'}",
                    rule="rider.13",
                )
            if target:
                steps.append(Step("flip" if kind == "flip_facedown" else kind, seat, effect.max_level, target))
            continue
        if target != "":
            raise IllegalAction(f"{kind} takes no target; give \"\" for it", rule="rider.13")
        if kind == "draw":
            steps.extend(Step("draw", seat) for _ in range(effect.count))
        elif kind == "opponent_discards":
            steps.append(Step("discard", other(seat), effect.count))
        elif kind == "peek":
            # the deck is counted when the peek resolves (an earlier draw may refill it)
            steps.append(Step("peek", seat, effect.count))
        else:  # pragma: no cover - cards.py admits only known effect types
            raise IllegalAction(f"unknown instant effect {kind!r}", rule="rider.13")
    return tuple(steps)


def _destroy_top(table: Mapping[str, Info], s: RiderState, step: Step) -> RiderState:
    """rider.24: the top card of an opposing standing column, if its level is low enough."""
    opp = other(step.seat)
    index = COLUMN_INDEX[step.arg]
    p = s.players[opp]
    col = p.columns[index]
    s = s._replace(queue=s.queue[1:])
    if not col.cards or col.top_level > step.n:
        return s
    cid, level = col.cards[-1]
    p = with_column(p, index, col._replace(cards=col.cards[:-1]))
    p = p._replace(lost=p.lost + (cid,)) if level == 1 else p._replace(discard=p.discard + (cid,))
    return check_win(s._replace(players=with_player(s, opp, p)))


def _destroy_level0(table: Mapping[str, Info], s: RiderState, step: Step) -> RiderState:
    opp = other(step.seat)
    index = COLUMN_INDEX[step.arg]
    p = s.players[opp]
    col = p.columns[index]
    s = s._replace(queue=s.queue[1:])
    if col.zero is None:
        return s
    p = with_column(p, index, col._replace(zero=None))._replace(discard=p.discard + (col.zero,))
    return s._replace(players=with_player(s, opp, p))


def _recover(table: Mapping[str, Info], s: RiderState, step: Step) -> RiderState:
    """rider.18: a discarded card back to hand, as a handle everyone can name."""
    p = s.players[step.seat]
    s = s._replace(queue=s.queue[1:])
    if step.arg not in p.discard:
        return s
    handle = s.next_handle
    p = p._replace(discard=remove_one(p.discard, step.arg), hand=p.hand + (handle,))
    return s._replace(
        players=with_player(s, step.seat, p), next_handle=handle + 1, open_cards=s.open_cards + ((handle, step.arg),)
    )


def _rescue_lost(table: Mapping[str, Info], s: RiderState, step: Step) -> RiderState:
    p = s.players[step.seat]
    s = s._replace(queue=s.queue[1:])
    if step.arg not in p.lost:
        return s
    p = p._replace(lost=remove_one(p.lost, step.arg), discard=p.discard + (step.arg,))
    return s._replace(players=with_player(s, step.seat, p))


#: Effect steps that resolve without input, by step kind.
AUTO_EFFECTS: dict[str, Callable[[Mapping[str, Info], RiderState, Step], RiderState]] = {
    "destroy_top": _destroy_top,
    "destroy_level0": _destroy_level0,
    "recover": _recover,
    "rescue_lost": _rescue_lost,
}

"""How good a public Rider position is for one seat (for the greedy bot).

Lost Lv.1 cards decide the game, so they dominate; then the strength of the
standing columns (levels reached and power), then cards in hand.
"""

from __future__ import annotations

from typing import Any

from engine.rider.state import Player, RiderState

WIN = 1_000_000
LOST_LV1 = 1_000
ACTIVE_COLUMN = 40
LEVEL = 12
POWER = 3
HAND_CARD = 4
FACEDOWN = 15


def _player_value(game: Any, p: Player) -> int:
    table = game.table
    value = HAND_CARD * len(p.hand) - LOST_LV1 * len(p.lost)
    for col in p.columns:
        if col.facedown is not None:
            value += FACEDOWN
        if col.cards:
            value += ACTIVE_COLUMN + LEVEL * col.top_level
            value += POWER * sum(table[cid].card.power for cid, _ in col.cards)
        if col.zero is not None:
            value += POWER * table[col.zero].card.power
    return value


def rider_score(game: Any, state: RiderState, seat: int) -> int:
    if state.reason:
        if state.winner is None:
            return 0
        return WIN if state.winner == seat else -WIN
    return _player_value(game, state.players[seat]) - _player_value(game, state.players[1 - seat])

"""Tiny's registry entry: the whole of what makes the tiny game playable everywhere.

This file is the "adding a game" example of docs/architecture.md. The engine
is engine/tiny/game.py; here it gets a name, its components hash, a seat
range, a local set-up and its record, a networked set-up with its table plan
(the shared deck starts face up in a known order, so the plan names those
cards public; nothing is secret at genesis, nothing needs an extra audit),
its bot, and the client module that draws it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.hidden import Knowledge
from engine.tiny.game import MAX_SEATS, MIN_SEATS, RULES_ID, TinyGame, TinyState, card_set_hash
from net.bots.random_bot import RandomBot
from net.envelope import Genesis
from net.games import GameEntry, LocalSetup, Table, register
from net.session.plan import TablePlan


def table(genesis: Genesis) -> Table[TinyState]:
    """The networked start: the tiny game for the genesis' seats; ValueError when it does not fit."""
    if genesis.card_set_hash != card_set_hash():
        raise ValueError("this table plays another version of the tiny game (components hashes differ)")
    if not MIN_SEATS <= len(genesis.seat_keys) <= MAX_SEATS:
        raise ValueError(f"tiny is played by {MIN_SEATS} to {MAX_SEATS} seats")
    game = TinyGame()
    return Table(game, game.initial_state(len(genesis.seat_keys)), TablePlan(public_cards=game.open_cards))


def local_record(seats: int, decks: Sequence[Sequence[str]] | None, components: Any = None) -> dict[str, Any]:
    return {"seats": seats, "cards": card_set_hash().hex()}


def local(record: Mapping[str, Any], components: Any = None) -> LocalSetup[TinyState]:
    seats = record.get("seats")
    if record.get("cards") != card_set_hash().hex():
        raise ValueError("the record was made with another version of the tiny game")
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"tiny is played by {MIN_SEATS} to {MAX_SEATS} seats; pass --seats N")
    game = TinyGame()
    return LocalSetup(game, game.initial_state(seats), tuple(Knowledge(s) for s in range(seats)), dict(record))


ENTRY: GameEntry[TinyState] = GameEntry(
    name="tiny", title="Tiny", rules_id=RULES_ID, rules_version="1", card_set_hash=card_set_hash,
    min_seats=MIN_SEATS, max_seats=MAX_SEATS, default_seats=3,
    local_record=local_record, local=local, bots={"random": RandomBot}, default_bots=("random",),
    game_class=TinyGame,
    table=table, client_ui="client.tiny",
)
register(ENTRY)

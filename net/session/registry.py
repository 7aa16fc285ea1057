"""Rules id -> how to set a table up from a genesis record.

Both the peers and tools.verify need the same game object, initial state and
:class:`TablePlan` from nothing but the genesis record, so the setup lives in
one place. A setup checks the genesis (card-set hash, options) and raises
``ValueError`` with a clear message when it does not fit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from engine.core.actions import Action
from net.envelope import Genesis
from net.session.plan import HandAudit, TablePlan, rider_plan


@dataclasses.dataclass(frozen=True)
class Table:
    """What a session is built from, besides identity, seat and deck."""

    game: Any
    state: Any
    plan: TablePlan


Setup = Callable[[Genesis], Table]
SETUPS: dict[str, Setup] = {}


def register(rules_id: str, setup: Setup) -> None:
    SETUPS[rules_id] = setup


def table_for(genesis: Genesis) -> Table:
    setup = SETUPS.get(genesis.rules_id)
    if setup is None:
        raise ValueError(f"unknown rules {genesis.rules_id!r}; known: {', '.join(sorted(SETUPS))}")
    return setup(genesis)


def rider_cardset() -> Any:
    from assets import load_json
    from engine.rider.cards import cardset_from_data

    return cardset_from_data(load_json("rider/cardset.json"))


def rider_genesis_options(deck_sizes: tuple[int, int], **extra: Any) -> dict[str, Any]:
    return {"deck_sizes": list(deck_sizes), **extra}


def rider_hand_audit(game: Any) -> HandAudit:
    """rider.3/rider.14: a pass is legal only when no hand card could be played.

    The engine sees only handles, so it cannot tell at the time; the audit
    opens the passing seat's whole hand as it was at each pass and asks
    ``RiderGame.pass_problem``.
    """
    from engine.rider.actions import Pass

    def select(state: Any, action: Action) -> tuple[int, str] | None:
        return (action.seat, f"hand:{action.seat}") if isinstance(action, Pass) else None

    def check(state: Any, seat: int, cards: Mapping[int, str]) -> str | None:
        problem: str | None = game.pass_problem(state, seat, cards)
        return problem

    return HandAudit(select, check)


def _rider(genesis: Genesis, cardset: Any = None) -> Table:
    from engine.rider.game import RiderGame

    cardset = cardset if cardset is not None else rider_cardset()
    if cardset.digest() != genesis.card_set_hash:
        raise ValueError("this table plays another Rider card set than the one installed here "
                         "(card-set hashes differ); install the same version of the game")
    sizes = genesis.options.get("deck_sizes")
    if not isinstance(sizes, (list, tuple)) or len(sizes) != 2 or not all(isinstance(n, int) for n in sizes):
        raise ValueError("a Rider genesis needs options.deck_sizes = [size of seat 0, size of seat 1]")
    game = RiderGame(cardset)
    plan = dataclasses.replace(rider_plan(game), hand_audit=rider_hand_audit(game))
    return Table(game, game.initial_state(list(sizes)), plan)


register("rider/1", _rider)

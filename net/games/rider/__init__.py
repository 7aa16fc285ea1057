"""Rider's registry entry: two seats, each with its own secret 24-card deck.

What the session needs beyond the engine: each seat's deck list is secret
(``deck:S``), committed at genesis and opened at the end-of-game audit, which
also checks every face-down column card is a Lv.1 and re-judges every pass
with the passing seat's hand opened (rider.3/rider.14).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.actions import Action
from engine.rider.cards import CardSet
from engine.rider.game import RiderGame
from engine.rider.state import RULES_ID, SEATS, RiderState
from net.bots.greedy import GreedyBot
from net.bots.random_bot import RandomBot
from net.games.rider.evaluation import rider_score
from net.envelope import Genesis
from net.games import GameEntry, LocalSetup, Table, register
from net.session.plan import HandAudit, Resolve, TablePlan

DEFAULT_DECKS = ("rider/decks/ember-rush.deck.json", "rider/decks/tidewall-vigil.deck.json")


@functools.cache
def cardset() -> CardSet:
    """The shipped card set (assets/rider/cardset.json)."""
    from assets import load_json
    from engine.rider.cards import cardset_from_data

    return cardset_from_data(load_json("rider/cardset.json"))


def shipped_deck(seat: int) -> tuple[str, ...]:
    """The cards of the shipped deck of ``seat`` (Ember Rush for seat 0, Tidewall Vigil for seat 1)."""
    from assets import load_json
    from engine.rider.deck import deck_from_data, expand

    _, _, counts = deck_from_data(load_json(DEFAULT_DECKS[seat % len(DEFAULT_DECKS)]))
    return expand(counts)


def genesis_options(deck_sizes: Sequence[int], **extra: Any) -> dict[str, Any]:
    """The options of a Rider genesis: each seat's deck size (never the cards)."""
    return {"deck_sizes": list(deck_sizes), **extra}


def plan(game: Any) -> TablePlan:
    """The table plan of :class:`engine.rider.game.RiderGame` for two seats."""
    from engine.rider.deck import check_deck as rider_check_deck

    def check_deck(seat: int, cards: Sequence[str]) -> list[str]:
        counts: dict[str, int] = {}
        for card in cards:
            counts[card] = counts.get(card, 0) + 1
        return list(rider_check_deck(game.cardset, counts))

    def audit_hidden(state: Any, seat: int, resolve: Resolve) -> list[str]:
        problems = []
        for handle in game.zone(state, f"columns:{seat}"):
            card = resolve(handle)
            if card is None:
                problems.append(f"face-down card {handle} cannot be identified from the opened deck list")
            elif card not in game.table or not game.table[card].lv1:
                problems.append(f"face-down card {handle} is {card!r}, not a Lv.1 card (rider.0)")
        return problems

    return TablePlan(secret_zones={0: "deck:0", 1: "deck:1"}, check_deck=check_deck,
                     audit_hidden=audit_hidden, hand_audit=hand_audit(game))


def hand_audit(game: Any) -> HandAudit:
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


def table(genesis: Genesis, components: CardSet | None = None) -> Table[RiderState]:
    """The networked start of a Rider genesis; ValueError when it names another card set or bad options."""
    chosen = components if components is not None else cardset()
    if chosen.digest() != genesis.card_set_hash:
        raise ValueError("this table plays another Rider card set than the one installed here "
                         "(card-set hashes differ); install the same version of the game")
    sizes = genesis.options.get("deck_sizes")
    if not isinstance(sizes, (list, tuple)) or len(sizes) != 2 or not all(isinstance(n, int) for n in sizes):
        raise ValueError("a Rider genesis needs options.deck_sizes = [size of seat 0, size of seat 1]")
    game = RiderGame(chosen)
    return Table(game, game.initial_state(list(sizes)), plan(game))


def local_record(seats: int, decks: Sequence[Sequence[str]] | None, components: CardSet | None = None) -> dict[str, Any]:
    """The record of a fresh local Rider game: the card set's id and digest and both decks."""
    chosen = components if components is not None else cardset()
    lists = [list(d) for d in decks] if decks is not None else [list(shipped_deck(s)) for s in range(seats)]
    return {"cardset_id": chosen.id, "cardset_digest": chosen.digest().hex(), "decks": lists}


def local(record: Mapping[str, Any], components: CardSet | None = None) -> LocalSetup[RiderState]:
    """A local Rider table from its record; ValueError when the card set differs or a deck cannot be played."""
    from engine.core.errors import EngineError
    chosen = components if components is not None else cardset()
    if chosen.digest().hex() != record.get("cardset_digest"):
        raise ValueError("the card set differs from the one the game was recorded with; use the same card set")
    decks = record.get("decks")
    if not isinstance(decks, (list, tuple)) or len(decks) != 2 or not all(isinstance(d, (list, tuple)) for d in decks):
        raise ValueError("a Rider record needs two decks (lists of card ids)")
    game = RiderGame(chosen)
    try:
        state, knowledge = game.new_game([tuple(d) for d in decks])
    except EngineError as exc:
        raise ValueError(f"the decks are not playable: {exc}; check each deck with "
                         "python -m tools.deck check FILE") from None
    return LocalSetup(game, state, tuple(knowledge), dict(record))


def _seat_info(deck: Sequence[str] | None) -> dict[str, Any]:
    if deck is None:
        raise ValueError("Rider needs a deck list for every seat")
    return {"deck_size": len(deck)}


def _options(infos: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return genesis_options([int(i["deck_size"]) for i in infos])


def _check_info(info: Mapping[str, Any]) -> list[str]:
    size = info.get("deck_size")
    if set(info) != {"deck_size"} or not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 200:
        return ["a Rider seat brings {'deck_size': 1..200}"]
    return []


ENTRY: GameEntry[RiderState] = GameEntry(
    name="rider", title="Rider", rules_id=RULES_ID, rules_version="1",
    card_set_hash=lambda: cardset().digest(),
    min_seats=SEATS, max_seats=SEATS, default_seats=SEATS,
    local_record=local_record, local=local,
    bots={"random": RandomBot, "greedy": lambda rng: GreedyBot(rng, rider_score)},
    default_bots=("greedy", "random"), game_class=RiderGame,
    table=table, needs_deck=True, seat_info=_seat_info, options=_options, check_info=_check_info,
    shipped_deck=shipped_deck, client_ui="client.rider", deck_tool="net.games.rider.deck_tool",
    scenario="net.games.rider.scenario",
)
register(ENTRY)

__all__ = ["DEFAULT_DECKS", "ENTRY", "RULES_ID", "cardset", "genesis_options", "hand_audit", "local",
           "local_record", "plan", "shipped_deck", "table"]

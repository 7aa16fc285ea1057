"""Super Human Locke's registry entry: 5-10 seats, on a local table or between peers.

The networked table (``table``, net/games/locke/table.py) plays every card
operation through net.poker, hidden placements through net.commit
(net/session/placement.py) and judges every declaration at the end-of-game
audit. The client draws it with client/locke/ (``client_ui``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from engine.locke.components import ComponentSet, component_set_from_data
from engine.locke.game import LockeGame
from engine.locke.state import MAX_SEATS, MIN_SEATS, RULES_ID, LockeState
from net.games.locke.heuristic import LockeHeuristicBot
from net.games.locke.judge import disagreements, end_sides
from net.games.locke.random_bot import LockeRandomBot
from net.games.locke import table as locke_table
from net.envelope import Genesis
from net.games import GameEntry, LocalSetup, Table, register

FILES = ("characters", "silhouettes", "combat_cards", "planets", "bases")


@functools.cache
def components() -> ComponentSet:
    """The shipped Locke components (assets/locke/*.json), checked against appendix C."""
    import assets

    return component_set_from_data(**{name: assets.load_json(f"locke/{name}.json") for name in FILES})


def table(genesis: Genesis) -> Table[LockeState]:
    """The networked start of a genesis record (net/games/locke/table.py), with the shipped components."""
    return locke_table.table(genesis, components())


def local_record(seats: int, decks: Sequence[Sequence[str]] | None, override: Any = None) -> dict[str, Any]:
    """The record of a fresh local Locke game: the seat count and the components digest."""
    chosen = override if override is not None else components()
    return {"seats": seats, "components_digest": chosen.digest().hex()}


def local(record: Mapping[str, Any], override: Any = None) -> LocalSetup[LockeState]:
    """A local Locke table from its record; ValueError when the components or the seat count do not fit."""
    chosen = override if override is not None else components()
    if record.get("components_digest") != chosen.digest().hex():
        raise ValueError("the Locke components differ from the ones the game was recorded with; use the same version")
    seats = record.get("seats")
    if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"Locke is played by {MIN_SEATS} to {MAX_SEATS} seats; pass --seats N with N in that range")
    game = LockeGame(chosen)
    state, knowledge = game.new_game(seats)
    return LocalSetup(game, state, tuple(knowledge), dict(record))


#: Bumped whenever a saved game of the older rules could replay differently. 2: the rebuilt
#: engine of typed steps (issue 24), whose step encoding changes every state hash; with it (no
#: version-1 record replays either way) who may refuse a victory declaration (KMC 11.1.2) and
#: the key-base claim carrying the converted mark (KMC 2.2.1), issue 25. 3 (issue 25 A2-A8, A10
#: and B): kills kept with the cards of their moment (state.kill_log, KMC 11.8.2), a character
#: card's items worn down across combats (Seat.gear, KMC 2.3.2), the henchmen's undeclared sync
#: question (KMC 10.3.1 note 2), both ambushes in one placement with a disclosure (N251), a
#: clone-revived turn going on to the combat phase (KMC 8), the planet phase ending at once
#: (three information cards in a party as it forms, the last card opened; KMC 7.2.2), the
#: prisoner's stop of a prison combat and its escape leaving it in prison (N257, N258). 4: the
#: seed audit of rulings N271-N274 (a prison check turned trap frees the prisoner, a prisoner in
#: a combat the prison chart did not make escapes, the dead may roll actually-alive in the astro
#: race, an obstacle asleep under an illusion is not destroyed). 5: rulings N275-N277 (Hijiri's whim
#: (a) played through engine/locke/kit.py, a prisoner joining another's prison combat stays
#: arrested, every character in a prison combat may stop).
RULES_VERSION = "5"

ENTRY: GameEntry[LockeState] = GameEntry(
    name="locke", title="Super Human Locke", title_ja="超人ロック", rules_id=RULES_ID, rules_version=RULES_VERSION,
    card_set_hash=lambda: components().digest(),
    min_seats=MIN_SEATS, max_seats=MAX_SEATS, default_seats=5,
    local_record=local_record, local=local, table=table,
    bots={"random": LockeRandomBot, "heuristic": LockeHeuristicBot}, default_bots=("heuristic",), game_class=LockeGame,
    bot_descriptions={
        "random": ("Picks among the legal moves at random: a fuzzer, not a player.",
                   "合法手からランダムに選ぶ。動作確認用で、対戦相手ではない。"),
        "heuristic": ("Plays its own side: reads the table, hunts its enemies, searches and storms the base.",
                      "自陣営の勝利を目指す：卓を読み、敵を狙い、基地を探して攻める。"),
    },
    judge=disagreements, end_sides=end_sides,
    client_ui="client.locke", rules_doc="docs/rules/locke.md", scenario="net.games.locke.scenario",
    story="client.locke.story",
)
register(ENTRY)

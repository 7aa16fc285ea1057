"""A hidden placement made by a person on the client's local table, end to end (net/seam.py).

The treasure test game (tests/engine/treasure_game.py) asks its hider to put
a gold coin and two traps face down on three of nine cells. Here the hider is
the person behind the table layer's local adapter
(client/table/local.py), every other seat a bot: the adapter offers the
placement one thing at a time as placement picks from the driver's legal list,
forwards each pick unchanged, refuses a pick it did not offer without
changing anything, and the placement lands as one PlacementMade once the
last thing has its cell. The game then plays to its end and the record
replays in the audit.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from twisted.internet.task import Clock

from client.table.local import LocalSession
from engine.core.actions import Action
from engine.core.hidden import Knowledge
from engine.core.inputs import PlacementPick
from engine.core.pending import EMPTY, Placement, PlacementMade
from net.bots import RandomBot
from net.games import GameEntry, LocalSetup, game_named, register
from net.seam import InputRefused
from tests.engine.treasure_game import CELLS, HIDER, RULES_ID, THINGS, TreasureGame
from tests.local_tables import STEP

GAME = TreasureGame()


def _record(seats: int, decks: Sequence[Sequence[str]] | None, components: Any = None) -> dict[str, Any]:
    return {"seats": 3}


def _local(record: Mapping[str, Any], components: Any = None) -> LocalSetup:
    state, knowledge, _ = GAME.new_game()
    return LocalSetup(GAME, state, knowledge, dict(record))


def _entry() -> GameEntry:
    try:
        return game_named("treasure-test")
    except ValueError:
        entry = GameEntry(name="treasure-test", title="Treasure (a test game)", rules_id=RULES_ID, rules_version="1",
                          card_set_hash=lambda: bytes(32), min_seats=3, max_seats=3, default_seats=3,
                          local_record=_record, local=_local, bots={"random": RandomBot}, default_bots=("random",),
                          game_class=TreasureGame)
        register(entry)
        return entry


def _session(clock: Clock, seed: int = 3) -> LocalSession[Any]:
    entry = _entry()
    setup = entry.local(entry.local_record(3, None, None), None)
    bots = [None if s == HIDER else RandomBot(random.Random(seed + s)) for s in range(3)]
    return LocalSession(setup.game, setup.state, setup.knowledge, setup=setup.record, me=HIDER,
                        names=["Hider", "Ally", "Rival"], bots=bots, seed=seed, clock=clock,
                        bot_delay=0.01, system_delay=0.01)


def _until_offered(session: LocalSession[Any], clock: Clock) -> None:
    for _ in range(200):
        if session.legal():
            return
        clock.advance(STEP)
    raise AssertionError("the table never asked the hider")


def test_a_person_places_face_down_things_through_the_local_adapter_and_the_game_ends_audited(clock: Clock) -> None:
    session = _session(clock)
    applied: list[Action] = []
    session.listeners.append(lambda pre, action, post: applied.append(action))
    session.start()
    _until_offered(session, clock)
    pending = session.pending
    assert isinstance(pending, Placement) and pending.op == "place" and pending.seat == HIDER
    wanted = {"b2": "gold", "c1": "trap", "a3": "trap"}
    placed: list[str] = []
    for number, thing in enumerate(THINGS):
        offered = session.legal()
        assert offered and all(isinstance(p, PlacementPick) and p.thing == thing for p in offered)
        assert {p.cell for p in offered if isinstance(p, PlacementPick)} == set(CELLS) - set(placed)
        cell = next(c for c, t in wanted.items() if t == thing and c not in placed)
        log = list(session.table.log)
        session.submit(next(p for p in offered if isinstance(p, PlacementPick) and p.cell == cell))
        placed.append(cell)
        if number < len(THINGS) - 1:
            assert session.table.log == log and session.legal()  # collected, not applied: the next thing is asked
    assert isinstance(applied[-1], PlacementMade)  # one answer for the whole placement, shown to the listeners
    handles = dict(session.state.cells)
    assert {c: session.table.card(handles[c]) for c in CELLS} == {c: wanted.get(c, EMPTY) for c in CELLS}
    knowledge: Knowledge = session.knowledge
    assert all(knowledge.card(handles[c]) == wanted.get(c, EMPTY) for c in CELLS)  # the hider knows its own
    rng = random.Random(5)
    for _ in range(400):
        if session.over:
            break
        legal = session.legal()
        if legal:
            session.submit(rng.choice(legal))
        clock.advance(STEP)
    assert session.over and session.outcome() is not None
    ok, detail = session.audit()
    assert ok, detail


def test_a_pick_the_adapter_did_not_offer_is_refused_and_changes_nothing(clock: Clock) -> None:
    session = _session(clock)
    session.start()
    _until_offered(session, clock)
    first = session.legal()[0]
    assert isinstance(first, PlacementPick)
    before = (session.state, list(session.table.log), session.legal())
    for wrong in (dataclasses.replace(first, cell="z9"), dataclasses.replace(first, thing="trap"),
                  dataclasses.replace(first, seat=1)):
        with pytest.raises(InputRefused, match="no such placement"):
            session.submit(wrong)
    assert (session.state, list(session.table.log), session.legal()) == before
    session.submit(first)
    with pytest.raises(InputRefused):
        session.submit(first)  # that cell is taken now: no longer offered

"""client/table/: the layer every game's table uses, exercised with a game that is not Rider.

Tiny (five seats) on the generic local adapter, to its end, then the
generic end screen: the adapter offers only legal inputs, reports every
input to its listeners, reports statuses as catalogue keys, audits by
replay, and the end screen words the reason with seats counted from 1.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from twisted.internet.task import Clock

from client.app import App
from client.table.end_scene import EndScene
from client.table.local import LocalSession
from client.table.session import TableSession
from net.seam import InputRefused
from client.table.status import COLOURS, status_colour
from client.table.ui import game_ui, net_ui
from engine.core.inputs import SealedPick
from tests.local_tables import play_out, tiny_session


def test_the_local_adapter_plays_a_five_seat_game_and_the_generic_end_screen_shows_it(app: App, clock: Clock) -> None:
    session = tiny_session(clock)
    checked: TableSession[Any] = session  # the adapter is a TableSession of any game's state
    assert checked.networked is False and checked.proof == "local"
    seen = play_out(session, clock, random.Random(1))
    assert seen == list(session.table.log)  # every applied input reached the listeners, in order
    statuses = {session.peer_status(s) for s in range(5)}
    assert statuses <= set(COLOURS) and all(isinstance(s, str) for s in statuses)  # keys; colours are the layer's
    assert status_colour("peer_connected") != status_colour("peer_cheat")
    ok, detail = session.audit()
    assert ok, detail
    outcome = session.outcome()
    assert outcome is not None and outcome.reason.startswith("seat ")  # recorded text: counted from 0
    end = EndScene(app, session)
    app.switch(end)
    app.render()
    assert end.audit_ok
    winner = outcome.winner
    assert winner is not None
    assert end.reason(outcome, "en").startswith(f"seat {winner + 1} ")  # people read seats from 1
    assert end.progress("en") == f"{session.moves} moves"


def test_the_local_adapter_refuses_what_is_not_legal_and_what_a_local_table_lacks(clock: Clock) -> None:
    session = tiny_session(clock, seats=3)
    session.start()
    while not session.legal():
        clock.advance(0.05)
    pick = session.legal()[0]
    assert isinstance(pick, SealedPick)  # Tiny's first question to us: the sealed guess
    moves = session.moves
    with pytest.raises(InputRefused):
        session.submit(dataclasses.replace(pick, choice="sideways"))  # not one of the options
    with pytest.raises(InputRefused):
        session.submit(dataclasses.replace(pick, seat=1))  # not our seat's pick
    assert session.moves == moves and session.my_pick is None  # nothing changed
    session.submit(pick)
    assert session.my_pick == pick
    with pytest.raises(InputRefused):
        session.say("hello")
    with pytest.raises(InputRefused):
        session.claim_forfeit()
    assert session.forfeit_seat() is None and session.silence() is None
    with pytest.raises(ValueError):
        LocalSession(session.game, session.state, session.table.knowledge, setup=session.setup, me=0,
                     names=["a", "b", "c"],
                     bots=[object(), None, None], clock=clock)  # our own seat must not have a bot


def test_game_uis_are_found_through_the_registry_only() -> None:
    assert callable(game_ui("rider").start_local) and callable(game_ui("tiny").start_local)
    assert net_ui("rider") is not None and net_ui("tiny") is not None  # both draw networked tables
    assert callable(game_ui("tiny").setup_fields) and callable(game_ui("rider").setup_fields)
    assert callable(game_ui("locke").start_local) and net_ui("locke") is not None  # Locke: local and networked


def test_a_game_without_a_client_ui_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    import net.games

    monkeypatch.setitem(net.games._GAMES, "locke", dataclasses.replace(net.games.game_named("locke"), client_ui=None))
    with pytest.raises(ValueError, match="no table in this client"):
        game_ui("locke")

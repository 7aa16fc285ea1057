"""The Locke table's defects a newcomer's playtest found (client layer): a stale picker over the
board, a seat-less view (a watcher, a replay) worded as seat 1, cut choice buttons, a combat box
losing its newest lines, two ambushes placed without feedback, and the rest of the list in the
playtest report. Each test drives the real scene (pygame's dummy driver) and fails without its fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
from twisted.internet.task import Clock

from client.app import App
from client.locke.intents import groups
from client.table.replay import open_replay
from engine.core.pending import Decision
from net.transcript import load_raw
from tests.client.conftest import click
from tests.client.locke_helpers import locke_table, settle
from tools import match


def test_no_picker_covers_the_board_while_others_decide() -> None:
    clock = Clock()
    app, scene = locke_table(clock, seats=5, seed=4, auto=False, size=(960, 600))
    checked = 0
    for _ in range(300):
        settle(app, clock, scene)
        if not scene.legal or checked >= 2:
            break
        several = [g for g in groups(scene.legal) if not g.single]
        choice = scene.legal[-1]
        if several:  # open a group of several: its members are listed over the board
            scene._opener(several[0])()
            scene._build_controls()
            choice = several[0].inputs[0]
        had_picker = scene.picker is not None
        scene._submit(choice)
        if had_picker and not scene.legal:  # the other seats decide now: nothing is ours to choose
            assert scene.picker is None
            app.render()
            checked += 1
    assert checked


def _record(tmp_path: Path) -> Any:
    path = tmp_path / "locke.json"
    assert match.main(["locke", "--seats", "5", "--bots", "random", "--seed", "3", "--save", str(path), "--json"]) == 0
    return load_raw(path)


def test_a_replay_has_no_you_in_banner_rail_combat_or_log(tmp_path: Path) -> None:
    app = App((1280, 800), clock=Clock(), lang="en")
    viewer = open_replay(app, _record(tmp_path))
    seen_seat0 = 0
    for position in range(0, min(viewer.replay.steps, 400), 7):
        viewer.go(position)
        scene = viewer.inner
        pending = scene.session.pending
        words = [scene.banner_text(), scene.instruction(), *[e.text for e in scene.log]]
        namer = scene.namer()
        words += [namer.seat(s) for s in range(5)]
        from client.locke.views import combat_lines, rail_lines
        words += combat_lines(scene.state, namer)
        for s in range(5):
            words += rail_lines(scene.state, s, namer)
        assert not any("Your decision" in w or "You (Seat" in w or w.startswith("you:") for w in words), words
        assert not any(e.turn_marker for e in scene.log)
        if isinstance(pending, Decision) and pending.seat == 0:
            seen_seat0 += 1
            assert "Seat 1" in scene.banner_text()
        app.render()
    assert seen_seat0 > 0

"""Clicking the offered controls applies exactly the legal actions, and
every legal action is offered (copies of one card count as one choice).

The exploration clicks real mouse events on whatever the scene offers,
depth first; each leaf applies an input to the real LocalTable, which is
restored from a deep copy before the next path.
"""

from __future__ import annotations

import dataclasses

import random

import pytest

from client.rider.demo import play_to_midgame
from client.rider.describe import option_text
from client.rider.play import start_local_game
from client.settings import Settings
from engine.core.inputs import SealedPick, SeatInput
from engine.core.actions import Action
from net.bots import GreedyBot
from net.games.rider.evaluation import rider_score
from tests.client.conftest import click

SKIP_LABELS = {"Cancel", "Close"}


def normal(scene, action: SeatInput) -> tuple:
    """An action with hand handles replaced by their cards: copies are one choice."""
    data = dict(action.to_data()) if isinstance(action, Action) else dataclasses.asdict(action)
    know = scene.session.knowledge
    if "handle" in data and data["handle"] is not None:
        data["handle"] = know.card(data["handle"])
    if "handles" in data:
        data["handles"] = tuple(know.card(h) for h in data["handles"])
    return tuple(sorted(data.items()))


def snapshot(table):
    """The LocalTable's mutable parts (its states and knowledge are immutable)."""
    return {"state": table.state, "knowledge": list(table.knowledge), "rng": table.rng.getstate(),
            "truth": dict(table.truth), "log": list(table.log), "hashes": list(table.hashes),
            "sealed": dict(table._sealed)}


def restore(table, saved):
    table.state = saved["state"]
    table.knowledge = list(saved["knowledge"])
    table.rng.setstate(saved["rng"])
    table.truth = dict(saved["truth"])
    table.log = list(saved["log"])
    table.hashes = list(saved["hashes"])
    table._sealed = dict(saved["sealed"])


def explore(app, clock, scene):
    session = scene.session
    saved = snapshot(session.table)
    legal = list(session.legal())
    reached: dict[Action, list] = {}
    labels: dict[Action, str] = {}

    def reset():
        session.stop()
        restore(session.table, saved)
        scene.selected = None
        scene.prompt = None
        scene.drag = None
        scene.refresh()

    def follow(path):
        for rect_key in path:
            control = next(c for c in scene.offered() if c.key == rect_key)
            click(app, control.rect.center)

    def dfs(path, depth):
        reset()
        follow(path)
        options = [c for c in scene.offered() if c.key[0] != "pile" and c.label not in SKIP_LABELS
                   and c.key not in path]
        for control in options:
            reset()
            follow(path)
            before = len(session.table.log)
            click(app, control.rect.center)
            if len(session.table.log) > before or (session.table.pending is not None and session.my_pick is not None):
                applied = session.table.log[before] if len(session.table.log) > before else None
                if applied is None:  # a sealed pick is recorded, not applied, until all seats chose
                    applied = session.my_pick
                assert applied in legal, f"clicking {path + [control.key]} applied an illegal {applied}"
                reached[applied] = path + [control.key]
                if control.key[0] == "prompt":
                    labels[applied] = control.label
            elif depth < 4:
                dfs(path + [control.key], depth + 1)

    dfs([], 0)
    reset()
    return legal, reached, labels


def check(scene, legal, reached, labels, lang):
    assert legal, "the sample position must offer something"
    assert {normal(scene, a) for a in reached} == {normal(scene, a) for a in legal}
    for action, label in labels.items():
        if label not in ("Confirm", "確定"):
            # a choice button applies the action it names (Lv.2-3, discards, targets)
            expected = scene._option_label(action)
            assert label == expected, (label, expected)


@pytest.mark.slow
def test_every_main_phase_action_is_offered_and_exact(app, clock):
    scene = play_to_midgame(app, clock, seed=11)
    legal, reached, labels = explore(app, clock, scene)
    check(scene, legal, reached, labels, app.lang)
    kinds = {a.KIND for a in legal}
    assert "rider.level_up" in kinds or "rider.open" in kinds


def test_attack_phase_actions_are_offered_and_exact(app, clock):
    scene = play_to_midgame(app, clock, seed=11)
    session = scene.session
    me = GreedyBot(random.Random(2), rider_score)
    for _ in range(4000):
        if any(a.KIND == "rider.attack" for a in scene.legal):
            break
        assert not session.over, "no attack came up in this game; pick another seed"
        if scene.legal:
            session.submit(me.choose(session.game, session.state, session.me, session.knowledge, scene.legal))
            scene.refresh()
        clock.advance(1.0)
        app.tick()
    legal, reached, labels = explore(app, clock, scene)
    check(scene, legal, reached, labels, app.lang)
    assert {a.KIND for a in reached} >= {"rider.attack", "rider.end_attacks"}


def test_sealed_choices_are_offered_and_exact(app, clock):
    # (the set-up, chosen by dragging cards onto columns, is explored in test_client_setup.py)
    scene = start_local_game(app, Settings(), on_leave=lambda: None, seed=4)
    setup = scene.legal[0]
    scene.session.submit(setup)
    for _ in range(20):
        clock.advance(1.0)
        app.tick()
        if scene.legal:
            break
    assert isinstance(scene.legal[0], SealedPick)
    legal, reached, labels = explore(app, clock, scene)
    check(scene, legal, reached, labels, app.lang)


def test_attack_needs_confirmation_with_a_preview(app, clock):
    scene = play_to_midgame(app, clock, seed=11)
    session = scene.session
    me = GreedyBot(random.Random(2), rider_score)
    for _ in range(4000):
        if any(a.KIND == "rider.attack" for a in scene.legal):
            break
        if scene.legal:
            session.submit(me.choose(session.game, session.state, session.me, session.knowledge, scene.legal))
            scene.refresh()
        clock.advance(1.0)
        app.tick()
    attack = next(a for a in scene.legal if a.KIND == "rider.attack")
    before = len(session.table.log)
    scene.press(("mine", attack.column))
    scene.press(("theirs", attack.target))
    assert scene.prompt is not None and scene.prompt.kind == "attack"
    assert len(session.table.log) == before  # nothing happens before the confirm
    text = " ".join(scene.prompt.lines)
    assert "power" in text and ("destroy" in text.lower())
    scene.press(("prompt", 1))  # cancel
    assert scene.prompt is None and len(session.table.log) == before


def test_option_text_names_the_level(app, clock):
    scene = play_to_midgame(app, clock, seed=11)
    for action in scene.legal:
        if action.KIND == "rider.level_up":
            assert f"Lv.{action.level}" in option_text(action, scene._name, "en")

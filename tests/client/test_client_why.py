"""Item: clicking something that is not legal says why, in words from the
engine's own rule, in English and Japanese; rule ids only in the details line."""

from __future__ import annotations

import pygame

from client.rider.demo import play_to_midgame
from engine.rider.actions import Pass
from engine.rider.state import COLUMNS
from tests.client.conftest import click, key


def refused_pair(scene):  # type: ignore[no-untyped-def]
    """A (hand handle, own column letter) the engine refuses, with its reason."""
    state = scene.session.state
    for handle, card in scene.my_hand():
        for i, letter in enumerate(COLUMNS):
            why = scene.session.game.why_not(state, scene.me, scene.session.knowledge, card=card, column=i)
            if why is not None and ("hand", handle) in scene.intents.sources():
                return handle, letter, why
    return None


def test_a_card_dropped_on_a_column_it_cannot_go_on_says_why_in_words(app, clock):  # type: ignore[no-untyped-def]
    for seed in (11, 12, 13, 14, 15):
        scene = play_to_midgame(app, clock, seed=seed)
        found = refused_pair(scene)
        if found:
            break
    assert found, "no mid-game position with a refused placement"
    handle, letter, why = found
    hand = [h for h, _ in scene.my_hand()]
    before = len(scene.session.table.log)
    click(app, scene.hand_slots(scene.me)[hand.index(handle)].center)
    assert scene.selected == ("hand", handle)
    click(app, scene.column_rect(scene.me, letter).center)
    assert len(scene.session.table.log) == before  # nothing was played
    assert scene.notice is not None
    text, details, _ = scene.notice
    assert text and "rider." not in text  # words, no rule id in the message ...
    assert why.rule in details  # ... the rule id only in the details line
    app.render()
    # the same reason in Japanese
    app.set_lang("ja")
    scene.explain(("mine", letter))
    assert scene.notice is not None and scene.notice[0] != text and "rider." not in scene.notice[0]
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in scene.notice[0])


def test_the_pass_key_when_a_pass_is_illegal_says_why(app, clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    assert not any(isinstance(a, Pass) for a in scene.legal)
    key(app, pygame.K_p)
    assert scene.notice is not None and "rider." not in scene.notice[0]
    assert "rider.3" in scene.notice[1]


def test_the_notice_goes_away_after_a_few_seconds(app, clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    key(app, pygame.K_p)
    assert scene.notice is not None
    clock.advance(7)
    scene.update(clock.seconds())
    assert scene.notice is None

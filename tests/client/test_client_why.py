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


def test_a_refused_attack_click_keeps_the_chosen_attacker_and_says_why(app, clock):  # type: ignore[no-untyped-def]
    """Issue 29 item 7: clicking an opposing column the attacker may not hit explains it and keeps the
    attacker chosen (it used to drop it); a click on nothing lets it go."""
    from engine.rider.actions import Attack

    found = None
    for seed in range(11, 40):
        scene = play_to_midgame(app, clock, seed=seed)
        for _ in range(60):  # play our turns until we may attack with some column
            attacks = [a for a in scene.legal if isinstance(a, Attack)]
            if attacks:
                break
            if scene.legal:
                scene.session.submit(scene.legal[0])
                scene.refresh()
            clock.advance(1.0)
            app.tick()
            if scene.session.over:
                break
        attacks = [a for a in scene.legal if isinstance(a, Attack)]
        for column in {a.column for a in attacks}:
            hit = {a.target for a in attacks if a.column == column}
            missed = [c for c in COLUMNS if c not in hit]
            if missed:
                found = (scene, column, missed[0])
                break
        if found:
            break
    assert found is not None, "no seed reached an attack with a column it may not hit"
    scene, column, target = found
    click(app, scene.column_rect(scene.me, column).center)
    assert scene.selected == ("mine", column)
    click(app, scene.column_rect(scene.opp, target).center)
    assert scene.selected == ("mine", column)  # still chosen
    why = scene.session.game.why_not(scene.session.state, scene.me, scene.session.knowledge,
                                     column=COLUMNS.index(column), target=COLUMNS.index(target))
    if why is not None:  # the engine has words for it: said, without the rule id
        assert scene.notice is not None and "rider." not in scene.notice[0]
    app.render()
    empty = (scene.layout.bar.centerx, scene.layout.bar.top - 4)  # between the board and the bar: nothing there
    if scene._thing_at(empty) is None and scene._control_at(empty) is None:
        click(app, empty)
        assert scene.selected is None  # a click on nothing lets go

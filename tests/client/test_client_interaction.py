"""Drag and drop, keyboard shortcuts, bot pacing, animations and the log."""

from __future__ import annotations

import pygame

from client.rider.demo import play_to_midgame
from client.rider.intents import needs_confirm, source_of, target_of
from client.table.session import BOT_DELAY
from tests.client.conftest import key


def unique_placement(scene):
    """A legal action that is the only one for its (hand card, column) and needs no confirm."""
    groups: dict = {}
    for action in scene.legal:
        groups.setdefault((source_of(action), target_of(action)), []).append(action)
    for (src, tgt), actions in groups.items():
        if src[0] == "hand" and tgt is not None and len(actions) == 1 and not needs_confirm(actions[0]):
            return actions[0]
    return None


def test_dragging_a_hand_card_onto_a_column_plays_it(app, clock):
    scene = play_to_midgame(app, clock, seed=11)
    action = unique_placement(scene)
    assert action is not None
    hand = [h for h, _ in scene.my_hand()]
    start = scene.hand_slots(scene.me)[hand.index(action.handle)].center
    end = scene.column_rect(scene.me, action.column).center
    before = len(scene.session.table.log)
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)))
    app.render()  # the dragged card is drawn under the pointer
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    assert scene.session.table.log[before] == action


def test_keyboard_number_then_column_letter_plays_the_card(app, clock):
    scene = play_to_midgame(app, clock, seed=11)
    action = unique_placement(scene)
    hand = [h for h, _ in scene.my_hand()]
    before = len(scene.session.table.log)
    key(app, pygame.K_1 + hand.index(action.handle))
    assert scene.selected == ("hand", action.handle)
    key(app, pygame.K_a + "ABC".index(action.column))
    assert scene.session.table.log[before] == action


def test_escape_cancels_a_selection(app, clock):
    scene = play_to_midgame(app, clock, seed=11)
    action = unique_placement(scene)
    scene.press(("hand", action.handle))
    assert scene.selected is not None
    key(app, pygame.K_ESCAPE)
    assert scene.selected is None


def test_bot_waits_for_the_clock_and_moves_are_animated_and_logged(app, clock):
    scene = play_to_midgame(app, clock, seed=11)
    session = scene.session
    action = unique_placement(scene)
    scene.press(("hand", action.handle))
    scene.press(("mine", action.column))
    assert scene.anims.items and scene.update(clock.seconds())  # the placement flies in
    log_size = len(session.table.log)
    # attacks may come first; play through our own turn with "end turn" when offered
    while scene.legal:
        end = [a for a in scene.legal if a.KIND == "rider.end_attacks"]
        assert end, scene.legal
        session.submit(end[0])
        scene.refresh()
    log_size = len(session.table.log)
    clock.advance(0.01)
    assert len(session.table.log) == log_size  # nothing yet: the table paces its steps
    for _ in range(20):
        clock.advance(BOT_DELAY)
        app.tick()
    assert len(session.table.log) > log_size + 1  # the draw, then the bot's decision
    assert any(e.proof == "local" for e in scene.log)  # deals and shuffles say where randomness came from
    assert any("Greedy bot (Seat 2)" in e.text for e in scene.log[-6:])
    clock.advance(5.0)
    assert not scene.update(clock.seconds())  # animations end; the app can idle again


def test_leaving_a_running_game_asks_first(app, clock):
    left = []
    from client.rider.play import start_local_game
    from client.settings import Settings

    scene = start_local_game(app, Settings(), on_leave=lambda: left.append(True), seed=2)
    scene.click(scene.side_buttons[0].rect.center)
    assert scene.prompt is not None and scene.prompt.kind == "leave" and not left
    clock.advance(5.0)
    app.tick()  # the table keeps running underneath; the question stays
    assert scene.prompt is not None and scene.prompt.kind == "leave"
    key(app, pygame.K_RETURN)  # the default answer is to stay
    assert scene.prompt is None and not left
    scene.click(scene.side_buttons[0].rect.center)
    scene.press(("prompt", 0))
    assert left == [True]


def test_end_reasons_are_told_with_seats_counted_from_one():
    from client.rider.describe import reason_text

    text = reason_text("seat 1 won: three Lv.1 cards of seat 0 are Lost (rider.9)", 1, ("Ann", "Bot"), 0, "en")
    assert text == "You (Seat 1) have three Lv.1 cards in the Lost pile"  # no rule id for players
    assert "rider." not in reason_text("draw: turn limit reached (rider.10)", None, ("Ann", "Bot"), 0, "en")
    assert "引き分け" in reason_text("draw: turn limit reached (rider.10)", None, ("Ann", "Bot"), 0, "ja")
    assert reason_text("something new", None, ("Ann", "Bot"), 0, "en") == "something new"


def test_a_card_that_breaks_the_rules_stops_the_table_and_names_the_seat(app, clock):
    """Tamper: the table's record of the bot's face-down card says it is a Lv.4.

    When the battle-mark flip reveals it, the engine refuses (CheatDetected);
    the table stops, the bar and the players panel name the seat."""
    from client.rider.play import start_local_game
    from client.settings import Settings

    scene = start_local_game(app, Settings(), on_leave=lambda: None, seed=6)
    session = scene.session
    session.submit(scene.legal[0])  # our set-up
    for _ in range(40):
        clock.advance(1.0)
        app.tick()
        if scene.legal:
            break
    bot = scene.opp
    lv4 = next(c.id for c in session.game.cardset.cards.values() if c.levels == (4,))
    for col in session.state.players[bot].columns:
        session.table.truth[col.facedown] = lv4
    scene.press(("button", "sealed"))
    scene.press(("prompt", 0))
    for _ in range(20):
        clock.advance(1.0)
        app.tick()
    assert session.cheat and session.problem_seat == bot
    assert session.peer_status(bot) == "peer_cheat"
    assert session.legal() == []  # nothing more is accepted
    assert "Cheat detected by Greedy bot (Seat 2)" in scene.log[-1].text
    app.render()

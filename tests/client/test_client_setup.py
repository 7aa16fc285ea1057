"""Issue 15 item 5: set-up by sight. The three face-down Lv.1 cards and their
columns are chosen by dragging card faces onto A/B/C (or click, click; or keys),
with the battle marks visible; every choice the engine's legal list offers can
be made, and nothing else (the picker is built from legal_actions only)."""

from __future__ import annotations

import pygame
import pytest

from client.rider.play import start_local_game
from client.settings import Settings
from engine.rider.actions import SetUp
from engine.rider.state import COLUMNS
from tests.client.conftest import click, key
from tests.client.test_client_actions import restore, snapshot


def drag(app, start: tuple[int, int], end: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))


def cards_of(scene, action: SetUp) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    return tuple(scene.session.knowledge.card(h) for h in action.handles)


def slot_of(scene, card: str) -> pygame.Rect:  # type: ignore[no-untyped-def]
    return next(rect for rect, c in scene.setup_slots() if c == card)


def test_every_legal_set_up_can_be_dragged_and_nothing_else(app, clock):  # type: ignore[no-untyped-def]
    scene = start_local_game(app, Settings(), on_leave=lambda: None, seed=4)
    session = scene.session
    legal = list(scene.legal)
    assert legal and all(isinstance(a, SetUp) for a in legal)
    picker = scene.setup
    assert picker is not None and scene.prompt is None
    assert ("button", "setup") not in [c.key for c in scene.offered()]  # no list of permutations
    wanted = {cards_of(scene, a) for a in legal}
    assert len(wanted) < len(legal)  # copies are interchangeable: fewer choices than permutations
    saved = snapshot(session.table)
    for triple in sorted(wanted):
        session.stop()
        restore(session.table, saved)
        scene.setup = None
        scene.refresh()
        for letter, card in zip(COLUMNS, triple):
            drag(app, slot_of(scene, card).center, scene.column_rect(scene.me, letter).center)
        assert scene.setup is not None and tuple(scene.setup.slots[c] for c in COLUMNS) == triple
        app.render()
        before = len(session.table.log)
        place = next(c for c in scene.offered() if c.key == ("button", "setup_place"))
        click(app, place.rect.center)
        applied = session.table.log[before]
        assert applied in legal and cards_of(scene, applied) == triple
    # a triple the engine does not offer cannot be built: more copies than the deck has
    session.stop()
    restore(session.table, saved)
    scene.setup = None
    scene.refresh()
    scarce = next(c for c in scene.setup.cards if scene.setup.copies[c] == 1)
    drag(app, slot_of(scene, scarce).center, scene.column_rect(scene.me, "A").center)
    assert scene.setup.remaining(scarce) == 0
    assert ("setup_card", scarce) not in [c.key for c in scene.offered()]
    drag(app, slot_of(scene, scarce).center, scene.column_rect(scene.me, "B").center)
    assert scene.setup.slots["B"] is None
    assert not all(scene.setup.can_place(scarce, c) and scene.setup.slots[c] is None for c in "BC")


def test_click_then_column_keys_start_over_and_choose_for_me(app, clock):  # type: ignore[no-untyped-def]
    scene = start_local_game(app, Settings(), on_leave=lambda: None, seed=4)
    picker = scene.setup
    first = picker.cards[0]
    click(app, slot_of(scene, first).center)
    assert scene.selected == ("setup_card", first)
    click(app, scene.column_rect(scene.me, "B").center)
    assert picker.slots["B"] == first
    click(app, scene.column_rect(scene.me, "B").center)  # a click on a chosen column takes the card back
    assert picker.slots["B"] is None and scene.selected == ("setup_card", first)
    key(app, pygame.K_ESCAPE)
    assert scene.selected is None
    key(app, pygame.K_1)
    key(app, pygame.K_c)
    assert picker.slots["C"] == first
    place = next(b for b in scene.bar_buttons if b.payload == ("button", "setup_place"))
    assert not place.enabled  # only three chosen cards can be placed
    key(app, pygame.K_s)
    assert scene.session.state.players[scene.me].columns[2].facedown is None  # nothing was placed
    click(app, next(b for b in scene.bar_buttons if b.payload == ("button", "setup_clear")).rect.center)
    assert all(v is None for v in picker.slots.values())
    click(app, next(b for b in scene.bar_buttons if b.payload == ("button", "setup_fill")).rect.center)
    assert picker.complete and picker.choice() in scene.legal
    choice = picker.choice()
    key(app, pygame.K_s)
    assert scene.session.table.log[-1] == choice
    assert scene.setup is None  # the engine moved on: no picker any more


def test_the_marks_show_on_the_cards_to_choose_from_and_in_the_columns(app, clock):  # type: ignore[no-untyped-def]
    scene = start_local_game(app, Settings(), on_leave=lambda: None, seed=4)
    marks: list[str] = []
    scene._mark_badge = lambda surface, rect, card: marks.append(card)  # type: ignore[method-assign]
    app.render()
    assert marks == scene.setup.cards  # every card to choose from carries its battle mark
    drag(app, slot_of(scene, marks[0]).center, scene.column_rect(scene.me, "A").center)
    marks.clear()
    app.render()
    assert marks.count(scene.setup.slots["A"]) >= 1 and len(marks) == len(scene.setup.cards) + 1


def test_the_picker_offers_only_what_the_legal_list_allows() -> None:
    from client.rider.decks import cardset
    from client.rider.setup_picker import SetupPicker
    from engine.rider.game import RiderGame

    game = RiderGame(cardset())
    deck = ("FT-001", "FT-001", "FT-002", "FT-003", "FT-004") + ("FT-005",) * 15
    state, knowledge = game.new_game((deck, deck), check_decks=False)  # a small deck, for the counting
    legal = game.legal_actions(state, 0, knowledge[0])
    assert all(isinstance(a, SetUp) for a in legal)
    picker = SetupPicker(legal, knowledge[0])
    assert picker.cards == ["FT-001", "FT-002", "FT-003"]  # only Lv.1 cards, each once
    assert picker.copies == {"FT-001": 2, "FT-002": 1, "FT-003": 1}
    assert picker.place("FT-002", "A") and not picker.place("FT-002", "B")  # one copy only
    assert not picker.place("FT-004", "B")  # a Lv.2 card is never offered
    assert picker.place("FT-001", "B") and picker.place("FT-001", "C")
    assert picker.choice() in legal
    picker.reset()
    picker.place("FT-003", "C")
    picker.fill()  # completes around what was chosen
    assert picker.complete and picker.slots["C"] == "FT-003" and picker.choice() in legal
    empty = SetupPicker([], knowledge[0])
    assert empty.cards == [] and empty.choice() is None and not empty.place("FT-001", "A")


def _second_seat(app, clock):  # type: ignore[no-untyped-def]
    """A table where the bot is seat 1 and places first, slowly: the person (seat 2) waits."""
    from client.rider.play import card_art, new_session
    from client.rider.session import RiderSession
    from client.rider.table_scene import RiderTableScene

    made = new_session(app, Settings(), seed=4)
    session = RiderSession(made.game, (made.decks[1], made.decks[0]), me=1, names=("Bot", "Player"), seed=4,
                           clock=clock, bot_delay=5.0, system_delay=0.1)
    scene = RiderTableScene(app, session, card_art(), on_leave=lambda: None, on_end=lambda s: None)
    app.switch(scene)
    return scene, session


def test_the_second_seat_arranges_while_the_first_places_and_ready_places_it(app, clock):  # type: ignore[no-untyped-def]
    """Issue 29 item 7: the set-up is no longer a wait. While the other seat places, our picker is
    open (early, from RiderGame.upcoming_setups); Ready places the arrangement the moment our set-up
    is asked for, and it is one of the legal set-ups then."""
    scene, session = _second_seat(app, clock)
    assert not scene.legal and scene.setup is not None and scene.setup.early
    place = next(b for b in scene.bar_buttons if b.payload == ("button", "setup_place"))
    assert place.label == "Ready" and not place.enabled  # nothing arranged yet
    click(app, next(b for b in scene.bar_buttons if b.payload == ("button", "setup_fill")).rect.center)
    assert scene.setup.complete
    chosen = dict(scene.setup.slots)
    app.render()  # the hint says we may arrange now
    click(app, next(b for b in scene.bar_buttons if b.payload == ("button", "setup_place")).rect.center)
    assert scene.setup_ready
    assert next(b for b in scene.bar_buttons if b.payload == ("button", "setup_place")).label == "Not ready"
    before = len(session.table.log)
    clock.advance(6.0)  # the bot places; ours follows at once
    clock.advance(0.0)
    mine = [a for a in session.table.log[before:] if isinstance(a, SetUp) and a.seat == 1]
    assert len(mine) == 1 and tuple(scene.session.knowledge.card(h) for h in mine[0].handles) == tuple(
        chosen[c] for c in COLUMNS)
    assert scene.setup is None and not scene.setup_ready


def test_an_early_arrangement_not_marked_ready_waits_for_the_player(app, clock):  # type: ignore[no-untyped-def]
    scene, session = _second_seat(app, clock)
    click(app, next(b for b in scene.bar_buttons if b.payload == ("button", "setup_fill")).rect.center)
    chosen = dict(scene.setup.slots)
    clock.advance(6.0)
    clock.advance(0.0)
    assert scene.legal and scene.setup is not None and not scene.setup.early
    assert scene.setup.slots == chosen  # the arrangement carried over; placing is still the player's call
    assert not any(isinstance(a, SetUp) and a.seat == 1 for a in session.table.log)
    place = next(b for b in scene.bar_buttons if b.payload == ("button", "setup_place"))
    assert place.label == "Place face down" and place.enabled


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_early_set_up_keeps_its_instructions_while_the_other_seat_thinks(clock, lang):  # type: ignore[no-untyped-def]
    """Seen in two real windows at 960x600 (issue 29 item 7): the seat arranging early read
    "Waiting for Ann (Seat 1): place three Lv.1 cards fac…", and after 8 s the table's long
    silence note ("has not answered for 0:23. You may claim the win in 1:38…") took the whole
    bar: what to do now was gone. The status is short, the hint stays."""
    from client.app import App
    from client.rider.drawing import STATUS_SIZE, bar_hint, bar_text_room, early_setup_status
    from client.text import fits

    app = App((960, 600), clock=clock, lang=lang)
    scene, session = _second_seat(app, clock)
    _, room = bar_text_room(scene, session.state)
    status, _ = early_setup_status(scene, lang)
    assert "Bot" in status and fits(status, STATUS_SIZE, room, True), status
    session.silence = lambda: (0, 23.0, 98.0)  # as a networked table says after SILENT_AFTER
    status, _ = early_setup_status(scene, lang)
    assert "0:23" in status and fits(status, STATUS_SIZE, room, True), status
    assert bar_hint(scene, lang).startswith("Arrange yours now" if lang == "en" else "今のうちに")
    app.render()

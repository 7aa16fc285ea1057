"""The Locke table's defects a newcomer's playtest found (client layer): a stale picker over the
board, a seat-less view (a watcher, a replay) worded as seat 1, cut choice buttons, a combat box
losing its newest lines, two ambushes placed without feedback, and the rest of the list in the
playtest report. Each test drives the real scene (pygame's dummy driver) and fails without its fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pygame
from twisted.internet.task import Clock

from client.app import App
from client.locke.intents import groups
from client.table.replay import open_replay
from client.i18n import tr
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


def test_long_choices_get_wider_buttons_two_lines_and_a_tooltip_with_the_whole_label() -> None:
    from client.locke.choices import ChoiceButton, columns, draw_tooltip, tooltip_text

    labels = [f"Telepathy: Contact telepathy at Heuristic bot (Seat {n})'s party and read their hand" for n in (3, 4)]
    labels += ["No", "Invite Heuristic bot (Seat 4) to your party"]
    cols = columns(labels, 18, 1100, 3, 8, 210)
    assert cols < 5  # the narrowest buttons (5 a row at 1100 px) would cut every long label
    width = (1100 - (cols - 1) * 8) // cols
    assert width > 210
    app = App((1920, 1080), clock=Clock(), lang="en")
    buttons = [ChoiceButton(pygame.Rect(20 + i * (width + 8) % 1100, 900, width, 46), label, lambda: None, size=18)
               for i, label in enumerate(labels)]
    shown = [" ".join(b.lines()[0]) for b in buttons]
    assert shown[0] != shown[1]  # the two telepathy choices can be told apart on the buttons
    assert not buttons[3].cut() and shown[3] == labels[3]  # the invitation is whole
    narrow = ChoiceButton(pygame.Rect(20, 900, 150, 46), labels[0], lambda: None, size=18)
    assert narrow.cut()
    narrow.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=narrow.rect.center, rel=(0, 0), buttons=(0, 0, 0)))
    tip = tooltip_text([narrow])
    assert tip is not None and tip[0] == labels[0]
    box = draw_tooltip(app.screen, tip[0], tip[1], 13)
    assert app.screen.get_rect().contains(box) and not box.colliderect(narrow.rect)


def test_the_table_at_1920_shows_each_choice_whole_or_whole_on_hover() -> None:
    clock = Clock()
    app, scene = locke_table(clock, seats=5, seed=4, auto=False, size=(1920, 1080))
    widest = 0
    for _ in range(120):
        settle(app, clock, scene)
        if not scene.legal:
            break
        for button in scene.buttons:
            if button.payload in ("auto", "page", "back", "repeat"):
                continue
            widest = max(widest, button.rect.width)
            if button.cut():
                button.hover = True
                app.render()
                from client.locke.choices import tooltip_text
                tip = tooltip_text(scene.buttons)
                assert tip is not None and tip[0] == button.label
                button.hover = False
        scene._submit(scene.legal[-1])
    assert widest > 210


def test_a_full_combat_box_at_960_keeps_the_newest_events_in_view() -> None:
    import random

    from client.locke.views import combat_events, combat_lines
    from client.text import line_height, wrap

    clock = Clock()
    app, scene = locke_table(clock, seats=6, seed=5, size=(960, 600))
    rng = random.Random(2)
    overflowing = 0
    for _ in range(400):
        settle(app, clock, scene)
        if scene.session.over or app.scene is not scene or overflowing >= 3:
            break
        lay = scene.layout()
        if lay.combat is not None:
            namer = scene.namer()
            lines = combat_lines(scene.state, namer)
            events = combat_events(scene.state, namer)
            size = lay.text(13)
            shown = [*lines[:1], scene.banner_text(), *lines[1:]]
            inner = lay.combat.inflate(-16, -12)
            total = sum(len(wrap(line, size, inner.width)) for line in shown)
            drawn = scene._draw_lines(app.screen, lay.combat, shown, size, title=True, newest=len(events))
            assert len(drawn) * line_height(size) <= inner.height
            if events:
                assert drawn[-1] == wrap(events[-1], size, inner.width)[-1]  # the newest event is in view
                assert drawn[0] == wrap(shown[0], size, inner.width, True)[0]  # under the combat's title
                fixed = [part for i, line in enumerate(shown[:len(shown) - len(events)])
                         for part in wrap(line, size, inner.width, i == 0)]
                k = 0
                while k < min(len(fixed), len(drawn)) and drawn[k] == fixed[k]:
                    k += 1
                tail = drawn[k:]  # the events shown: from the start of one (seen: the tail of an event alone)
                if tail and len(tail) < len(wrap(events[-1], size, inner.width)) + 1:
                    pass  # only the newest event fits (its end shown)
                elif tail:
                    assert tail[0] in {wrap(e, size, inner.width)[0] for e in events}, (tail, drawn)
            if total * line_height(size) > inner.height:
                overflowing += 1
        if scene.legal:
            scene._submit(rng.choice(scene.legal))
    assert overflowing


def test_the_logs_last_line_is_never_cut_at_the_bottom() -> None:
    from client.locke.logview import draw_entries
    from client.table.log import LogEntry
    from client.text import line_height

    app = App((960, 600), clock=Clock(), lang="ja")
    entries = [LogEntry(f"Heuristic bot（席{n % 5 + 1}）：何もしない") for n in range(40)]
    for height in range(100, 140):  # every remainder of the height by the line step
        rect = pygame.Rect(700, 200, 220, height)
        bottom = draw_entries(app.screen, rect, entries, 0, "ja", 12)
        assert rect.bottom - line_height(12) <= bottom <= rect.bottom, (height, bottom)


def _at_our_placement(clock: Clock, size: tuple[int, int] = (1280, 800)) -> tuple[App, Any]:
    """A 5-seat table (seed 7) played by random choices until our seat places its hidden markers
    (two ambushes at its first turn)."""
    import random

    from client.locke.intents import placing

    app, scene = locke_table(clock, seats=5, seed=7, size=size)
    rng = random.Random(7)
    for _ in range(50):
        settle(app, clock, scene)
        if placing(scene.legal) is not None:
            break
        scene._submit(rng.choice(scene.legal))
    return app, scene


def test_placing_two_ambushes_marks_the_first_and_counts_in_the_bar() -> None:
    from client.locke.intents import placing

    clock = Clock()
    app, scene = _at_our_placement(clock)
    first = placing(scene.legal)
    assert first is not None and len(scene.session.pending.things) == 2
    things = scene.session.pending.things
    assert "Place" in scene.instruction() and "chosen" not in scene.instruction()
    cell = next(iter(scene.targets))
    click(app, scene.board_cells.cells[cell].center)
    assert scene.staged == {cell: things[0]}  # chosen, not given: the table still asks for the first
    assert placing(scene.legal) == first
    words = scene.instruction()
    assert "1 of 2 chosen" in words and things[1] not in words, words
    assert cell not in scene.targets
    app.render()  # the board marks the first ambush where it was put
    app.lang = "ja"
    assert "1/2を選択済み" in scene.instruction()
    app.lang = "en"
    second = next(iter(scene.targets))
    click(app, scene.board_cells.cells[second].center)
    assert scene.staged == {cell: things[0], second: things[1]} and not scene.targets
    assert scene.instruction().startswith("Both chosen") and "confirm" in scene.instruction()  # not "All 2"
    confirm = next(b for b in scene.buttons if b.payload == "place_confirm")
    click(app, confirm.rect.center)
    assert placing(scene.legal) is None and scene.staged == {}
    settle(app, clock, scene)
    from client.locke.views import my_placements

    mine = my_placements(scene.state, scene.namer())
    assert {c: mine.get(c) for c in (cell, second)} == {cell: things[0], second: things[1]}


def test_an_ambush_placement_can_be_taken_back_before_it_is_confirmed() -> None:
    clock = Clock()
    app, scene = _at_our_placement(clock)
    moves, lit = scene.session.moves, set(scene.targets)
    things = scene.session.pending.things
    a, b, c = sorted(lit)[:3]
    click(app, scene.board_cells.cells[a].center)
    click(app, scene.board_cells.cells[b].center)
    undo = next(x for x in scene.buttons if x.payload == "place_undo")
    click(app, undo.rect.center)  # Take back the last: b is lit again, a stays chosen
    assert scene.staged == {a: things[0]} and b in scene.targets
    click(app, scene.board_cells.cells[a].center)  # a click on a chosen cell takes it back too
    assert scene.staged == {} and set(scene.targets) == lit
    assert scene.session.moves == moves  # nothing was given to the table
    click(app, scene.board_cells.cells[c].center)
    click(app, scene.board_cells.cells[b].center)
    assert "confirm" in scene.instruction() and scene.marker_rect() is None
    click(app, next(x for x in scene.buttons if x.payload == "place_confirm").rect.center)
    settle(app, clock, scene)
    from client.locke.views import my_placements

    mine = my_placements(scene.state, scene.namer())
    assert mine.get(c) == things[0] and mine.get(b) == things[1] and a not in mine


def test_taking_back_the_first_of_two_placed_markers_leaves_the_other_where_it_was() -> None:
    """Review: taking back a cell rebuilt the placement in order, so the markers after it moved to
    other cells unseen (with the key bases, a base would land on another cell than the one shown)."""
    clock = Clock()
    app, scene = _at_our_placement(clock)
    things = scene.session.pending.things
    a, b, c = sorted(scene.targets)[:3]
    click(app, scene.board_cells.cells[a].center)
    click(app, scene.board_cells.cells[b].center)
    click(app, scene.board_cells.cells[a].center)  # take back the first: the second stays put
    assert scene.staged == {b: things[1]}
    click(app, scene.board_cells.cells[c].center)  # the next click places the one taken back
    assert scene.staged == {b: things[1], c: things[0]}
    click(app, next(x for x in scene.buttons if x.payload == "place_confirm").rect.center)
    settle(app, clock, scene)
    from client.locke.views import my_placements

    mine = my_placements(scene.state, scene.namer())
    assert mine.get(c) == things[0] and mine.get(b) == things[1] and a not in mine


def test_l_switches_the_language_at_the_locke_table() -> None:
    from tests.client.conftest import key

    clock = Clock()
    app, scene = locke_table(clock, seats=5, seed=4)
    settle(app, clock, scene)
    assert app.lang == "en"
    key(app, pygame.K_l)
    assert app.lang == "ja" and scene.log and scene._log_lang == "ja"
    key(app, pygame.K_l)
    assert app.lang == "en"


def test_answers_given_for_our_seat_show_under_mine() -> None:
    import random

    clock = Clock()
    app, scene = locke_table(clock, seats=5, seed=4, auto=True)
    rng = random.Random(4)
    for _ in range(40):
        settle(app, clock, scene)
        if scene.auto_answers >= 2 or not scene.legal:
            break
        scene._submit(rng.choice(scene.legal))
    assert scene.auto_answers
    mine = [e.text for e in scene.shown_log("mine")]
    assert any(t.startswith("Answered for you") for t in mine), mine


def test_a_click_on_the_board_when_no_cell_is_asked_says_what_the_question_is() -> None:
    import random

    clock = Clock()
    app, scene = locke_table(clock, seats=5, seed=4, auto=False)
    rng = random.Random(5)
    for _ in range(80):
        settle(app, clock, scene)
        if scene.legal and not scene.targets and scene.question():
            break
        scene._submit(rng.choice(scene.legal))
    assert scene.legal and not scene.targets
    cell = next(iter(scene.board_cells.cells))
    click(app, scene.board_cells.cells[cell].center)
    assert scene.notice is not None
    assert "No cell is chosen now" in scene.notice[0] and "lit cell" not in scene.notice[0], scene.notice


def test_the_silhouette_pick_is_explained_and_the_die_line_names_it_once() -> None:
    from client.locke.views import my_hand, panel_lines

    clock = Clock()
    app, scene = locke_table(clock, seats=5, seed=4, auto=False)
    settle(app, clock, scene)
    assert getattr(scene.session.pending, "purpose", "") == "locke.silhouette"
    assert "face the table sees" in scene.explanation() and "base player" in scene.explanation()
    assert scene.explain_rect is not None and scene.explain_rect.colliderect(scene.layout().bar)
    assert all(not scene.explain_rect.colliderect(b.rect) for b in scene.buttons)
    app.render()
    lines = panel_lines(scene.state, scene.namer(), my_hand(scene.state, scene.me))
    die = [line for line in lines if "hadow die" in line]
    assert die and not any("Shadow die: shadow die" in line for line in lines), die
    app.lang = "ja"
    scene.refresh()
    assert "基地プレイヤー" in scene.explanation()
    lines = panel_lines(scene.state, scene.namer(), my_hand(scene.state, scene.me))
    assert not any("影のダイス：影のダイス" in line for line in lines), lines
    scene._submit(scene.legal[0])
    assert scene.explanation() == "" and scene.explain_rect is None


def test_more_pages_count_and_go_back() -> None:
    import random

    clock = Clock()
    app, scene = locke_table(clock, seats=5, seed=4, auto=False, size=(960, 600))
    rng = random.Random(6)
    for _ in range(300):
        settle(app, clock, scene)
        if not scene.legal:
            break
        several = [g for g in groups(scene.legal) if len(g.inputs) > 8]
        if several:
            scene._opener(several[0])()
            scene._build_controls()
        more = [b for b in scene.buttons if b.payload == "page"]
        if more:
            break
        scene.open_group = None
        scene._submit(rng.choice(scene.legal))
    more = [b for b in scene.buttons if b.payload == "page"]
    assert more, "no list longer than a page"
    pages = int(more[0].label.rsplit("/", 1)[1].rstrip(")"))
    assert more[0].label == f"More… (1/{pages})" and pages >= 2
    click(app, more[0].rect.center)
    assert next(b for b in scene.buttons if b.payload == "page").label == f"More… (2/{pages})"
    back = next(b for b in scene.buttons if b.payload == "page_prev")
    click(app, back.rect.center)
    assert next(b for b in scene.buttons if b.payload == "page").label == f"More… (1/{pages})"


def test_the_help_legend_draws_the_boards_figures_and_explains_the_stands() -> None:
    from client.i18n import tr
    from client.locke.board import PLINTH
    from client.locke.help import LEGEND

    app = App((1280, 800), clock=Clock(), lang="en")
    keys = [e.text_key for e in LEGEND]
    assert "lk_l_plinth" in keys
    assert "Evil" in tr("en", "lk_l_plinth") and "悪" in tr("ja", "lk_l_plinth")
    entry = LEGEND[keys.index("lk_l_plinth")]
    icon = pygame.Rect(0, 0, 80, 40)
    surface = pygame.Surface(icon.size)
    entry.icon(surface, icon, entry.text_key)
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(icon.width) for y in range(icon.height)}
    assert all(tuple(c) in colours for c in PLINTH.values())  # each side's stand is drawn
    pieces = LEGEND[keys.index("lk_l_pieces")]
    surface.fill((0, 0, 0))
    pieces.icon(surface, icon, pieces.text_key)
    drawn = {tuple(surface.get_at((x, y)))[:3] for x in range(icon.width) for y in range(icon.height)}
    assert PLINTH["good"] in drawn  # a standing figure on its stand, as on the board (not a disc)
    app.running = False


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_placement_instruction_fits_the_bar_at_960(lang: str) -> None:
    """The bar's line while placing (first, next, all chosen) is never cut at the smallest window."""
    from client.text import fits

    clock = Clock()
    app, scene = _at_our_placement(clock, size=(960, 600))
    app.lang = lang
    lay = scene.layout()
    seen = []
    for _ in range(len(scene.session.pending.things) + 1):
        line = scene.instruction()
        seen.append(line)
        assert fits(line, lay.text(14), lay.bar.width - 160), line
        if scene.targets:
            click(app, scene.board_cells.cells[next(iter(scene.targets))].center)
    assert len(set(seen)) == len(seen)


def test_our_combat_hand_in_japanese_is_listed_the_japanese_way() -> None:
    """Seen: "1. あなた（席1）：手札7枚・使ったパワー0: ブラスター L2, 光の剣 L7, ..." (English ": " and ", ")."""
    import random

    from client.locke.views import combat_lines
    from engine.locke.combat.model import Fight

    clock = Clock()
    app, scene = locke_table(clock, seats=6, seed=5, lang="ja")
    rng = random.Random(2)
    for _ in range(400):
        settle(app, clock, scene)
        combat = scene.state.combat
        fight = combat.detail if combat is not None else None
        if isinstance(fight, Fight) and any(f.seat == 0 and f.hand for f in fight.fighters):
            break
        if scene.session.over or app.scene is not scene:
            break
        if scene.legal:
            scene._submit(rng.choice(scene.legal))
    assert isinstance(fight, Fight) and any(f.seat == 0 and f.hand for f in fight.fighters)
    lines = combat_lines(scene.state, scene.namer())
    ours = next(line for line in lines if "あなた（席1）：手札" in line)
    assert "あなた" in ours and ": " not in ours and ", " not in ours, ours


def test_the_private_panel_in_japanese_lists_the_japanese_way() -> None:
    """Seen: "アイテム：パワードスーツ, ＥＳＰフィールド L5, ESPジャマー, 船" (English commas)."""
    from client.locke.views import my_hand, panel_lines

    clock = Clock()
    for seed in range(3, 12):  # a character with two items or abilities at least
        app, scene = locke_table(clock, seats=5, seed=seed, lang="ja")
        settle(app, clock, scene)
        lines = panel_lines(scene.state, scene.namer(), my_hand(scene.state, scene.me))
        if any("、" in line for line in lines):
            break
    assert any("、" in line for line in lines), lines
    assert not any(", " in line for line in lines), lines


def test_the_private_panel_lists_the_abilities_hijiri_s_whim_left_not_the_printed_ones() -> None:
    """Ruling N275: after the whim's option (a) the card's printed special abilities are gone and
    the rolled ones are in force; the panel read the printed card and listed what could no longer
    be used (engine/locke/kit.py is the one place that says what a character may use now)."""
    from client.locke.views import my_hand, panel_lines
    from engine.locke import kit

    clock = Clock()
    app, scene = locke_table(clock, seats=5, seed=3, lang="en")
    settle(app, clock, scene)
    state, namer = scene.state, scene.namer()
    seat = state.seats[scene.me]
    card = namer.components.character(namer.knowledge.card(seat.character))
    printed = [namer.card(g.id) for g in card.abilities]
    whim = (kit.LOST, (kit.PREFIX + "release", "set", 1, "life"))
    changed = state._replace(seats=tuple(p._replace(mods=tuple(p.mods) + whim) if i == scene.me else p
                                          for i, p in enumerate(state.seats)))
    line = next(x for x in panel_lines(changed, namer, my_hand(changed, scene.me)) if x.startswith("Abilities"))
    assert namer.card("release") in line
    assert not any(name in line for name in printed if name != namer.card("release")), (printed, line)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_astro_race_offer_to_the_dead_names_the_race_not_a_combat(lang: str) -> None:
    """Review: the dead's actually-alive offer of the astro race (N273) read "Roll to turn up in
    this combat", with the combat's odds (a residual thought fights), and a Repeat answer given
    for combats answered it too. It is asked as a question of its own (engine/locke/fate.py)."""
    from client.locke.scene import RACE_PROMPT, REPEATABLE
    from client.locke.views import wait_words
    from engine.locke.actions import TryRevive

    import random

    from engine.core.pending import Decision

    clock = Clock()
    app, scene = locke_table(clock, seats=5, seed=3, lang=lang)
    rng = random.Random(3)
    for _ in range(80):  # past the set-up's secret picks and placements, to a plain question of ours
        settle(app, clock, scene)
        if isinstance(scene.session.pending, Decision) and scene.legal:
            break
        scene._submit(rng.choice(scene.legal))
    namer = scene.namer()
    scene.question = lambda: RACE_PROMPT  # type: ignore[method-assign]
    scene.legal = [TryRevive(scene.me, True), TryRevive(scene.me, False)]  # as the race's offer gives them
    yes = scene._words(namer, TryRevive(scene.me, True))
    assert yes == tr(lang, "lk_act_race_revive_yes") and yes != namer.action(TryRevive(scene.me, True))
    assert scene.explanation() == tr(lang, "lk_try_revive_race_explain")
    assert RACE_PROMPT not in REPEATABLE
    assert wait_words(RACE_PROMPT, lang, namer) == tr(lang, "lk_wait_try_revive_race")

"""Super Human Locke's table: the table layer's scene with a board, a seat rail, a private panel,
a combat overlay and choices made only from the legal list.

What the table layer (client/table/scene.py) gives: the log kept in the
current language, the help and settings overlays, the side panel's
buttons, the leave and concede questions and the hand-over to the end
screen. What this module adds:

- the drawing, from the public state and our own knowledge only: the board
  (client/locke/board.py), the rail, the private panel and the combat
  overlay (client/locke/views.py), in the layout of client/locke/layout.py;
- our choices, from ``session.legal()`` only (client/locke/intents.py):
  lit board cells (walk, land, fly, a hidden placement) and one button per
  group of inputs; a group of several opens its members; a refused input
  is explained in words, the rule id only in the notice's details line;
- pacing: a banner that always says who is deciding what, the lines since
  our last decision beside the board while we decide, and (a setting) an
  answer given for us when a question has exactly one legal answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from client import theme
from client.app import App
from client.i18n import known, tr
from client.locke.choices import ChoiceButton, columns, draw_tooltip, tooltip_text
from client.locke.claimlog import claim_entries, claim_statuses
from client.locke.board import BoardLayout, BoardMarks, destroyed_cells, draw_board, layout as board_layout, piece, side_of
from client.locke.help import HELP
from client.locke.intents import Group, board_targets, groups, kind_of, placing
from client.table.status import status_colour
from client.locke.layout import TableLayout, table_layout
from client.locke.views import (banner, combat_events, combat_lines, fighters_of, my_hand, my_placements, panel_lines,
                                rail_lines, turn_line, wait_words)
from client.locke.session import NEAR_FACTOR, LockeLocalSession
from client.locke.story import told
from client.locke.words import Namer
from client.table.controls import draw_notice, notice_rect
from client.table.log import LogEntry
from client.table.log_panel import watchers_line
from client.locke.logview import FILTERS, draw_entries, keeps, tags_of
from client.table.prompts import draw_prompt
from client.table.scene import NOTICE_SECONDS, TableScene
from client.table.session import TableSession
from client.table.words import forfeit_key
from net.seam import InputRefused
from client.text import draw_text, draw_wrapped, line_height, wrap
from client.widgets import Button, panel
from engine.core.actions import Action
from engine.core.errors import EngineError, IllegalAction
from engine.core.inputs import PlacementPick
from engine.core.pending import Decision, Placement, SealedChoice, SealedChoicesRevealed
from engine.locke.state import LockeState
from engine.locke.actions import TryRevive
from engine.locke.fate import JoinOffer
from net.seats import for_people

#: Height of one choice button at the reference size, and the gap between buttons.
BUTTON_H, GAP = 34, 8
#: The narrowest a choice button gets (the bar's columns follow from it).
BUTTON_MIN_W = 210
#: The astro race's offer to the dead (N273): asked apart from the combat's (engine/locke/fate.py).
RACE_PROMPT = JoinOffer.RACE_PROMPT
#: Confirmations asked again and again (every turn, every combat, every roll of a residential
#: district): the player may have them answered as last time for the rest of the game.
REPEATABLE = ("locke.declaring", "locke.try_revive", "locke.reroll", "locke.cb_go_on", "locke.answer",
              "locke.cb_sleep", "locke.cb_party", "locke.cb_leave")


class LockeScene(TableScene[LockeState]):
    """Our seat of a Locke table (see the module docstring)."""

    name = "locke"
    opening_hint = "lk_hint"

    def __init__(self, app: App, session: TableSession[LockeState], *, on_leave: Callable[[], None] | None = None,
                 on_end: Callable[[Any], None] | None = None) -> None:
        super().__init__(app, session, on_leave=on_leave, on_end=on_end)
        #: We hold no seat here (a watcher, net/peer/watching.py, or a replay, client/table/replay.py):
        #: no seat is "you" anywhere on this table (banner, bar, combat box, rail, log), so ``me`` is -1.
        self.seatless = bool(getattr(session, "watching", False)) or getattr(session, "proof", "") == "replay"
        if self.seatless:
            self.me = -1
        self.buttons: list[Button] = []
        self.targets: dict[str, list[Any]] = {}
        self.open_group: Group | None = None
        self.page = 0
        self.board_cells: BoardLayout | None = None
        #: Where a long list of choices is shown over the board (None: in the bar).
        self.picker: pygame.Rect | None = None
        #: Answer for us when a question has one legal answer (the player's setting).
        self.auto = app.prefs.auto_answer
        self._auto_call: Any = None
        #: Questions we asked to answer as we last did, for the rest of the game, and our last answers.
        self.repeat: set[str] = set()
        self.last_answer: dict[str, Any] = {}
        self._repeat_from = 0
        #: Where in the log our last decision was made (the summary shows what came after).
        self._mark = 0
        #: What the player did: decisions taken by a click, clicks in all, answers given for them.
        self.decisions = 0
        self.clicks = 0
        self.auto_answers = 0
        self.components = session.game.components
        #: The log's filter (client/locke/logview.py) and each log source's tags, aligned with the sources.
        self.log_filter = "since"
        self._tags: list[frozenset[str]] = []
        self._next_tags: frozenset[str] = frozenset()
        self._shown: dict[str, tuple[tuple[str, str, int, int], list[LogEntry]]] = {}
        #: Cell -> thing of the placement we are making now, chosen so far but not given yet: the
        #: board marks them, Take back undoes the last, and Confirm gives them all to the driver at
        #: once, each as one of its legal picks (a pick once given cannot be taken back).
        self.staged: dict[str, str] = {}
        #: Where the question's explanation is drawn above its choices (None: no explanation now).
        self.explain_rect: pygame.Rect | None = None
        #: Whether the claim of a stalling seat's forfeit is offered now, and the table's note last drawn
        #: (update() rebuilds or redraws when they change: a deadline passes without an input).
        self._forfeit_shown = False
        self._note = ""
        #: The hidden marker being dragged onto the board: where the pointer is now (None: no drag).
        self.drag: tuple[int, int] | None = None

    # -- names ------------------------------------------------------------------------------
    def namer(self, lang: str | None = None) -> Namer:
        """Words for cells, cards and seats in ``lang`` (default: the app's), with our knowledge."""
        return Namer(lang or self.app.lang, self.session.names, self.me, self.components, self.session.knowledge,
                     fighters_of(self.state))

    # -- what a game's scene adds to the table's ---------------------------------------------------
    def help_pages(self) -> Any:
        return list(HELP)

    def prompt_area(self) -> pygame.Rect:
        return self.layout().board

    def turn_of(self, state: LockeState) -> Any:
        return (state.turn, state.current)

    def describe_input(self, pre: LockeState, action: Action, post: LockeState) -> Callable[[str], list[LogEntry]]:
        """The input's line (a driver's answer tagged with its proof) and the public events it caused."""
        names, me, components = self.session.names, self.me, self.components
        knowledge = self.session.knowledge
        fighters = fighters_of(pre)
        proof = "" if isinstance(action, Action) and action.seat >= 0 else self.session.proof
        mine = me >= 0 and getattr(action, "seat", -1) == me  # seat-less (me -1): no line is ours, not the table's

        claims = claim_statuses(self.session, pre, post)  # read now: proven or waiting (client/locke/claimlog.py)

        pending = self.session.game.pending(pre) if isinstance(action, SealedChoicesRevealed) else None
        picked = tuple(pending.seats) if isinstance(pending, SealedChoice) else ()  # who picked what, in order

        def words(lang: str) -> list[LogEntry]:
            namer = Namer(lang, names, me, components, knowledge, fighters)
            first, *events = told(namer, pre, action, post)
            if picked and isinstance(action, SealedChoicesRevealed):
                first = namer.sealed_picks(picked, action.choices)
            return ([LogEntry(first, proof=proof, turn_marker=mine)] + [LogEntry(line) for line in events]
                    + claim_entries(lang, claims, names, me))

        return words

    def after_input(self, action: Action) -> None:
        if self.open_group is not None and not all(c in self.session.legal() for c in self.open_group.inputs):
            self.open_group = None

    def _on_refresh(self) -> None:
        self.targets = board_targets(self.legal)
        if placing(self.legal) is None:  # no placement of ours under way (any made is in our knowledge)
            self.staged = {}
        elif self.staged:  # a chosen cell takes nothing more; every thing chosen: nothing is lit
            full = len(self.staged) >= len(self._things())
            self.targets = {} if full else {c: i for c, i in self.targets.items() if c not in self.staged}
        if self.open_group is not None and not all(c in self.legal for c in self.open_group.inputs):
            self.open_group, self.page = None, 0
        if self._auto_call is None and self.prompt is None and self.automatic() is not None:
            self._auto_call = self.app.clock.callLater(0, self._auto_answer)

    def question(self) -> str:
        """The decision prompt we are asked now ("" when none)."""
        pending = self.session.pending
        return pending.prompt if isinstance(pending, Decision) and self.legal else ""

    def automatic(self) -> tuple[Any, str] | None:
        """The answer given for us now, and why (a catalogue key): the only legal one (Auto), or
        the one we gave last time to a question we asked to answer the same way (Repeat)."""
        legal = self.legal
        if self.auto and len(legal) == 1 and not isinstance(legal[0], PlacementPick):
            return legal[0], "lk_auto_did"
        prompt = self.question()
        again = self.last_answer.get(prompt)
        if prompt in self.repeat and again is not None and again in legal and self.session.moves > self._repeat_from:
            return again, "lk_repeat_did"
        return None

    def _auto_answer(self) -> None:
        """Give the answer :meth:`automatic` names, and say so in the log."""
        self._auto_call = None
        self.legal = self.session.legal()
        found = self.automatic()
        if found is None:
            return
        choice, key = found
        namer_words = self._choice_words(choice)
        self.auto_answers += 1
        self._next_tags = frozenset({"mine"})  # an answer given for our seat is ours (the Mine filter shows it)
        self.add_log(lambda lang: [LogEntry(tr(lang, key, what=namer_words(lang)))])
        self._submit(choice, by_click=False)

    def _toggle_repeat(self) -> None:
        """Answer this question the way we answer it now, for the rest of the game (or ask again)."""
        prompt = self.question()
        self.clicks += 1
        if prompt in self.repeat:
            self.repeat.discard(prompt)
        elif prompt:
            self.repeat.add(prompt)
            self._repeat_from = self.session.moves  # from the next time it is asked: now we answer ourselves

    def _words(self, namer: Namer, choice: Any) -> str:
        """A choice's button words; the astro race's offer to the dead (N273) names the race, not a
        combat (the same action answers both questions)."""
        if self.question() == RACE_PROMPT and isinstance(choice, TryRevive):
            return tr(namer.lang, "lk_act_race_revive_yes" if choice.attempt else "lk_act_locke.try_revive_no")
        return namer.action(choice)

    def _choice_words(self, choice: Any) -> Callable[[str], str]:
        names, me, components, knowledge = self.session.names, self.me, self.components, self.session.knowledge
        fighters = fighters_of(self.state)
        return lambda lang: Namer(lang, names, me, components, knowledge, fighters).action(choice)

    # -- layout and controls -------------------------------------------------------------------
    @property
    def state(self) -> LockeState:
        return self.session.state

    def layout(self) -> TableLayout:
        return table_layout(self.app.screen.get_size(), self.state.combat is not None)

    @property
    def leave_button(self) -> Button:
        return next(b for b in self.side_buttons if b.payload == "lobby")

    def _build_controls(self) -> None:
        """The choice buttons (groups of the legal list, a group's members when open), Auto, side panel."""
        lang = self.app.lang
        lay = self.layout()
        self.board_cells = board_layout(lay.board.inflate(-16, -16), side_of(self.state))
        self.buttons = []
        bar = lay.bar
        if not self.seatless:  # a watcher or a replay answers nothing: no Auto
            self.buttons.append(Button(pygame.Rect(bar.right - 130, bar.top + 6, 122, 26),
                                       tr(lang, "lk_auto_on" if self.auto else "lk_auto_off"), self._toggle_auto,
                                       payload="auto", size=13))
        blocked = self.prompt is not None or self.help is not None or self.settings_panel is not None
        self.picker = self.explain_rect = None  # nothing for us to choose: no picker, no explanation
        if not blocked and self.legal:
            self._choice_buttons(lay)
        self._forfeit_shown = not blocked and not self.legal and self.session.forfeit_seat() is not None
        if self._forfeit_shown:  # a seat missed its deadline: we may claim its forfeit, as at every table
            self.buttons.append(Button(pygame.Rect(bar.right - 10 - 240, bar.bottom - 10 - round(BUTTON_H * lay.scale),
                                                   240, round(BUTTON_H * lay.scale)),
                                       tr(lang, forfeit_key("claim_forfeit", len(self.session.names))),
                                       self._claim_forfeit, payload="forfeit", primary=True, size=lay.text(13)))
        self.side_buttons = self.side_panel_buttons(lay.side)
        modes = [m for m in FILTERS if not (self.seatless and m == "mine")]  # a seatless view has no moves of its own
        fw = (lay.log.width - (len(modes) - 1) * 6) // len(modes)
        for i, mode in enumerate(modes):
            button = Button(pygame.Rect(lay.log.left + i * (fw + 6), lay.log.top - 30, fw, 24),
                            tr(lang, f"lk_log_{mode}"), self._set_filter(mode), payload=("log", mode), size=12)
            button.selected = mode == self.log_filter
            self.side_buttons.append(button)
        if self.prompt is not None:
            self._layout_prompt(self.prompt)
        self.app.invalidate()

    def _choice_buttons(self, lay: TableLayout) -> None:
        """Our choices as buttons: in the bar; a long list (an open group, or many choices without a
        lit cell) in the picker over the board, so it takes few pages."""
        lang, namer = self.app.lang, self.namer()
        bar = lay.bar
        h = round(BUTTON_H * lay.scale)
        area = pygame.Rect(bar.left + 10, bar.top + 14 + line_height(lay.text(14)), bar.width - 20, 0)
        area.height = bar.bottom - 8 - area.top
        entries: list[tuple[str, Callable[[], None], Any, bool]] = []
        offered = self._offered()
        if self.staged:  # a placement under way: confirm it once every thing has a cell, or take one back
            if len(self.staged) >= len(self._things()):
                entries.append((tr(lang, "lk_place_confirm"), self._confirm_placement, "place_confirm", True))
            entries.append((tr(lang, "lk_place_undo"), self._take_back, "place_undo", False))
        if self.open_group is not None:
            entries.append((tr(lang, "lk_back"), self._close_group, "back", False))
            entries += [(self._words(namer, c), self._chooser(c), c, False) for c in self.open_group.inputs]
        elif len(offered) + (self.question() in REPEATABLE) <= self._capacity(area, h):  # all fit: one click each
            entries += [(self._words(namer, c), self._chooser(c), c, False) for c in offered]
        else:
            for group in groups(offered):
                if group.single:
                    entries.append((namer.action(group.inputs[0]), self._chooser(group.inputs[0]), group.inputs[0],
                                    False))
                else:
                    label = self._group_label(group, namer)
                    entries.append((label, self._opener(group), group, True))
        prompt = self.question()
        if prompt in REPEATABLE and self.open_group is None:
            key = "lk_repeat_on" if prompt in self.repeat else "lk_repeat_off"
            entries.append((tr(lang, key), self._toggle_repeat, "repeat", False))
        self.picker = None
        explain = self.explanation()
        explained = bool(explain) and not self.targets and not self._fits_explained(entries, area, h, lay, explain)
        crowded = len(entries) > self._capacity(area, h) and (self.open_group is not None or not self.targets)
        if explained or crowded:  # over the board; over the combat box too only for a long list
            full = lay.board.union(lay.combat) if lay.combat is not None and crowded else lay.board
            self.picker = full.inflate(-24, -24)
            area = pygame.Rect(self.picker.left + 12, self.picker.top + 12 + line_height(lay.text(14)),
                               self.picker.width - 24, 0)
            area.height = self.picker.bottom - 10 - area.top
        self.explain_rect = None
        if explain:  # what this question means, above its choices (explain_lines at most)
            size = lay.text(12)
            used = min(self.explain_lines(), len(wrap(explain, size, area.width))) * line_height(size) + 4
            if area.height - used >= h:
                self.explain_rect = pygame.Rect(area.left, area.top, area.width, used - 4)
                area = pygame.Rect(area.left, area.top + used, area.width, area.height - used)
        rows = max(1, (area.height + GAP) // (h + GAP))
        cols = columns([label for label, *_ in entries], lay.text(13), area.width, rows, GAP, BUTTON_MIN_W)
        w = (area.width - (cols - 1) * GAP) // cols
        per_page = cols * rows
        if len(entries) > per_page:
            per_page = max(1, per_page - 2)  # room for "Previous" and "More… (page/pages)"
            pages = (len(entries) + per_page - 1) // per_page
            self.page %= pages
            shown = entries[self.page * per_page:(self.page + 1) * per_page]
            shown.append((tr(lang, "lk_page_prev"), self._previous_page, "page_prev", False))
            shown.append((tr(lang, "lk_page_of", page=self.page + 1, pages=pages), self._next_page, "page", False))
        else:
            self.page = 0
            shown = entries
        numbered = 0
        for i, (label, action, payload, primary) in enumerate(shown):
            rect = pygame.Rect(area.left + (i % cols) * (w + GAP), area.top + (i // cols) * (h + GAP), w, h)
            hotkey = ""  # keys 1-9 choose too; Back has Esc (key 1 is an open group's first choice, not Back)
            if payload != "back" and numbered < 9:
                numbered += 1
                hotkey = str(numbered)
            button = ChoiceButton(rect, label, action, payload=payload, primary=primary, size=lay.text(13),
                                  hotkey=hotkey)
            button.selected = payload == "repeat" and prompt in self.repeat
            self.buttons.append(button)

    def _fits_explained(self, entries: list[Any], area: pygame.Rect, h: int, lay: TableLayout, explain: str) -> bool:
        """Whether ``explain`` (whole, in the bar's lines) and every choice fit ``area`` on one page."""
        size = lay.text(12)
        lines = len(wrap(explain, size, area.width))
        if lines > self.explain_lines():
            return False
        rows = (area.height - lines * line_height(size) - 4 + GAP) // (h + GAP)
        if rows < 1:
            return False
        cols = columns([label for label, *_ in entries], lay.text(13), area.width, rows, GAP, BUTTON_MIN_W)
        return cols * rows >= len(entries)

    @staticmethod
    def _capacity(area: pygame.Rect, h: int) -> int:
        """How many buttons fit ``area`` at once."""
        return max(1, (area.width + GAP) // (BUTTON_MIN_W + GAP)) * max(1, (area.height + GAP) // (h + GAP))

    def _group_label(self, group: Group, namer: Namer) -> str:
        """A button that opens several inputs: the kind in words, and how many."""
        lang = self.app.lang
        kind = kind_of(group.inputs[0])
        key = f"lk_grp_{kind}"
        head = tr(lang, key) if known(key) else namer.action(group.inputs[0])
        return f"{head} ({len(group.inputs)})"

    def _chooser(self, choice: Any) -> Callable[[], None]:
        return lambda: self._choose(choice)

    def _opener(self, group: Group) -> Callable[[], None]:
        def open_() -> None:
            self.clicks += 1
            self.open_group, self.page = group, 0
            self.notice = None

        return open_

    def _close_group(self) -> None:
        self.clicks += 1
        self.open_group, self.page = None, 0

    def _next_page(self) -> None:
        self.clicks += 1
        self.page += 1

    def _previous_page(self) -> None:
        self.clicks += 1
        self.page -= 1  # from the first page: the last one (_choice_buttons takes the page modulo the pages)

    def explain_lines(self) -> int:
        """How many lines the explanation may take: six in the picker over the board (the choices
        keep the room they need: the explanation gives way first), two in the bar."""
        return 6 if self.picker is not None else 2

    def explanation(self) -> str:
        """What the question asked now means, when its words alone do not say it ("" otherwise): the
        secret silhouette pick (docs/rules/locke-rulings.md N18, N41, N43), how a hidden
        placement is made and changed before it is confirmed, and what the roll to turn up in a
        combat can bring (docs/rules/locke.md, the actually-there and actually-alive charts)."""
        pending = self.session.pending
        if self.legal and getattr(pending, "purpose", "") == "locke.silhouette":
            return tr(self.app.lang, "lk_silhouette_explain")
        if placing(self.legal) is not None:
            return tr(self.app.lang, "lk_place_explain")
        if self.question().removeprefix("locke.") in ("try_revive", "try_revive_race"):  # the roll's odds
            return tr(self.app.lang, "lk_" + self.question().removeprefix("locke.") + "_explain")
        return ""

    def _toggle_auto(self) -> None:
        self.auto = not self.auto
        self.app.prefs.auto_answer = self.auto
        self.app.prefs.save()
        self.refresh()

    def _things(self) -> tuple[str, ...]:
        """The things of the placement we are making now (none when we place nothing)."""
        pending = self.session.pending
        return tuple(getattr(pending, "things", ())) if isinstance(pending, Placement) else ()

    def _offered(self) -> list[Any]:
        """The legal list as the buttons offer it: a placement pick on a cell already chosen, or
        any pick once every thing has a cell, is left out (Confirm and Take back stand there)."""
        if not self.staged:
            return list(self.legal)
        full = len(self.staged) >= len(self._things())
        return [c for c in self.legal if not (isinstance(c, PlacementPick) and (full or c.cell in self.staged))]

    def _stage(self, pick: PlacementPick) -> None:
        """Choose ``pick``'s cell for the next thing of our placement (given only on Confirm)."""
        things = self._things()
        self.notice = None
        free = [t for t in things if t not in self.staged.values()]  # a thing taken back comes first
        if pick.cell not in self.staged and free:
            self.clicks += 1
            self.staged[pick.cell] = free[0]
        self.open_group, self.page = None, 0
        self.refresh()

    def _take_back(self) -> None:
        """Undo the last cell chosen for our placement (nothing was given to the table yet)."""
        self.clicks += 1
        self.notice = None
        if self.staged:
            self.staged.pop(next(reversed(self.staged)))
        self.refresh()

    def _unstage(self, cell: str) -> None:
        """Take back the cell chosen for one thing; the others keep their cells (a review found the
        things after it moved to other cells unseen), and the next click places the thing taken back."""
        self.clicks += 1
        self.notice = None
        self.staged.pop(cell, None)
        self.refresh()

    def _confirm_placement(self) -> None:
        """Give the chosen cells to the table, thing by thing, each as the pick its legal list
        offers for that thing and cell (net/seam.py ``place_all`` does the same for tools)."""
        things = self._things()
        chosen = sorted(self.staged.items(), key=lambda item: things.index(item[1]))  # the order the table asks in
        for i, (cell, thing) in enumerate(chosen):
            pick = next((p for p in self.session.legal()
                         if isinstance(p, PlacementPick) and p.cell == cell and p.thing == thing), None)
            if pick is None:  # the table no longer asks for it: say so, and let the player choose again
                self.staged = {}
                self.notice = (tr(self.app.lang, "lk_place_gone"), "", self.now + NOTICE_SECONDS)
                self.refresh()
                return
            self._submit(pick, by_click=i == 0)
        self.staged = {}
        self.refresh()

    def _choose(self, choice: Any) -> None:
        """A click on a choice: a placement pick is only chosen (Confirm gives it), anything else given."""
        if isinstance(choice, PlacementPick):
            self._stage(choice)
        else:
            self._submit(choice)

    def _submit(self, choice: Any, *, by_click: bool = True) -> None:
        """Give one legal input to the table now; a refusal becomes a notice in words."""
        self.notice = None
        if by_click:  # "Latest" then shows what happened since this decision (answers Auto gave included)
            self.clicks += 1
            self.decisions += 1
            self._mark = len(self._log_sources)
            if self.question() in REPEATABLE:
                self.last_answer[self.question()] = choice
        try:
            self.session.submit(choice)
        except (InputRefused, EngineError) as exc:
            self._refused(exc)
        self.open_group, self.page = None, 0
        self.refresh()

    def _refused(self, exc: Exception) -> None:
        lang = self.app.lang
        cause = exc if isinstance(exc, IllegalAction) else exc.__cause__  # a driver's refusal carries the engine's
        rule = (cause.rule or "") if isinstance(cause, IllegalAction) else ""
        why = str(exc).replace(f" [{rule}]", "") if rule else str(exc)  # the rule id goes to the details only
        details = tr(lang, "lk_rule", rule=rule) if rule else ""
        self.notice = (tr(lang, "lk_refused", why=for_people(why)), details, self.now + NOTICE_SECONDS)

    def click_cell(self, cell: str) -> None:
        """A click on a board cell: its only legal input, a choice among several, or why not."""
        lang = self.app.lang
        if cell in self.staged:  # a cell chosen for our placement: the click takes it back
            self._unstage(cell)
            return
        inputs = self.targets.get(cell, [])
        if len(inputs) == 1:
            self._choose(inputs[0])
            return
        if inputs:
            self.clicks += 1
            self.open_group, self.page = Group(("cell", cell), tuple(inputs)), 0
            self._build_controls()
            return
        if self.legal and not self.targets:  # the question is not about a cell: say what it wants
            what = wait_words(self.question(), lang, self.namer()) if self.question() else tr(lang, "lk_sys_sealed")
            self.notice = (tr(lang, "lk_no_cell_now", what=what), "", self.now + NOTICE_SECONDS)
            self.app.invalidate()
            return
        key = "lk_not_legal_cell" if self.legal else "lk_not_yours"
        self.notice = (tr(lang, key, cell=self.namer().cell(cell)), "", self.now + NOTICE_SECONDS)
        self.app.invalidate()

    # -- scene protocol ---------------------------------------------------------------------------
    def leave(self) -> None:
        if self._auto_call is not None and self._auto_call.active():
            self._auto_call.cancel()
        self._auto_call = None
        super().leave()

    def update(self, now: float) -> bool:
        moving = super().update(now)
        if self.session.networked:  # time passes without an input: a silence counts down, a deadline passes
            note = self.session.table_note(self.app.lang)
            blocked = self.prompt is not None or self.help is not None or self.settings_panel is not None
            offered = not blocked and not self.legal and self.session.forfeit_seat() is not None
            if offered != self._forfeit_shown:
                self._build_controls()
            if note != self._note:
                self._note = note
                self.app.invalidate()
        return moving

    def resized(self, size: tuple[int, int]) -> None:
        self.overlays_resized(size)
        self.refresh()

    def _setting_changed(self, field: str) -> None:
        if field == "bot_speed" and isinstance(self.session, LockeLocalSession):
            self.session.near_delay = self.app.prefs.bot_delay * NEAR_FACTOR
        super()._setting_changed(field)

    def handle(self, event: pygame.event.Event) -> None:
        if self.handle_overlays(event):
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_l and not event.mod & pygame.KMOD_CTRL:
            self._toggle_lang()  # L: the other language, as in the lobby and at the other tables
            return
        if event.type == pygame.MOUSEWHEEL:
            self.log_scroll = max(0, self.log_scroll + event.y)
            self.app.invalidate()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.prompt is not None:
                self._cancel()
            elif self.open_group is not None:
                self.open_group = None
            self._build_controls()
            return
        if event.type == pygame.KEYDOWN and self.prompt is None and getattr(event, "unicode", "") in tuple("123456789"):
            chosen = next((b for b in self.buttons if b.hotkey == event.unicode), None)
            if chosen is not None:
                chosen.on_click()
                self._build_controls()
            return
        prompt = self.prompt.buttons if self.prompt is not None else []
        for button in [*prompt, *self.side_buttons, *([] if self.prompt is not None else self.buttons)]:
            if button.handle(event):
                self._build_controls()
                return
        if self._drag_marker(event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.prompt is None \
                and self.board_cells is not None:
            cell = self.board_cells.cell_at(event.pos)
            if cell is not None:
                self.click_cell(cell)

    def marker_rect(self) -> pygame.Rect | None:
        """Where the thing we place now waits in the bar, to be dragged onto a lit cell (None
        when we place nothing). A click on a lit cell places it too."""
        if self.prompt is not None or placing(self.legal) is None or len(self.staged) >= len(self._things()):
            return None
        bar = self.layout().bar
        width = min(220, bar.width // 3)
        return pygame.Rect(bar.right - 10 - width, bar.bottom - 10 - 30, width, 30)

    def _drag_marker(self, event: pygame.event.Event) -> bool:
        """Press on the marker, move, release over a lit cell: the same input as a click on that
        cell; released elsewhere, nothing is placed and a notice says where it can go."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            rect = self.marker_rect()
            if rect is not None and rect.collidepoint(event.pos):
                self.drag = event.pos
                self.app.invalidate()
                return True
            return False
        if self.drag is None:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.drag = event.pos
            self.app.invalidate()
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.drag = None
            cell = self.board_cells.cell_at(event.pos) if self.board_cells is not None else None
            if cell is not None and cell in self.targets:
                self.clicks += 1  # the press on the marker; the drop counts as the cell's click
                self.click_cell(cell)
            elif not (rect := self.marker_rect()) or not rect.collidepoint(event.pos):  # dropped off a lit cell
                self.notice = (tr(self.app.lang, "lk_drop_on_lit"), "", self.now + NOTICE_SECONDS)
            self.app.invalidate()
            return True
        return False

    # -- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG_FELT)
        lay = self.layout()
        namer = self.namer()
        self._draw_rail(surface, lay, namer)
        self._draw_banner(surface, lay, namer)
        panel(surface, lay.board, fill=theme.BG_FELT_DARK)
        board = self.board_cells or board_layout(lay.board.inflate(-16, -16), side_of(self.state))
        pending = self.session.pending
        marks = BoardMarks(targets=frozenset(self.targets), mine={**my_placements(self.state, namer), **self.staged},
                           destroyed=destroyed_cells(self.state.events),
                           active=pending.seat if isinstance(pending, Decision) else -1)
        draw_board(surface, board, self.state, namer, marks, lay.text(12))
        if lay.combat is not None:  # the combat, and who is asked what in it now
            lines = combat_lines(self.state, namer)
            events = len(combat_events(self.state, namer))
            self._draw_lines(surface, lay.combat, [*lines[:1], self.banner_text(), *lines[1:]], lay.text(13),
                             title=True, newest=events)
        self._draw_bar(surface, lay, namer)
        self._draw_side(surface, lay, namer)
        if self.notice is not None:
            text, details, _until = self.notice
            draw_notice(surface, notice_rect(lay.board, lay.bar, text, details), text, details)
        tip = tooltip_text(self.buttons) if self.prompt is None else None
        if tip is not None:  # a cut choice label, whole (two choices may share their first words)
            draw_tooltip(surface, tip[0], tip[1], lay.text(13))
        if self.prompt is not None:
            draw_prompt(surface, self.prompt, lambda card, size: pygame.Surface(size))
        if self.help is not None:
            self.help.draw(surface)
        if self.settings_panel is not None:
            self.settings_panel.draw(surface)

    def _draw_rail(self, surface: pygame.Surface, lay: TableLayout, namer: Namer) -> None:
        seats = len(self.state.seats)
        rail = lay.rail
        row_h = min(rail.height // seats, round(120 * lay.scale))
        pending = self.session.pending
        deciding = pending.seat if isinstance(pending, Decision) else -1
        name_size, line_size = lay.text(13), lay.text(11)
        outcome = self.session.outcome()
        for seat in range(seats):
            rect = pygame.Rect(rail.left, rail.top + seat * row_h, rail.width, row_h - 4)
            edge = theme.HILITE if seat == deciding else theme.ACCENT if seat == self.me else theme.PANEL_EDGE
            panel(surface, rect, edge=edge)
            radius = max(8, min(14, row_h // 6))
            piece(surface, (rect.left + radius + 5, rect.top + radius + 5), radius, seat,
                  self.state.seats[seat].alive, seat == deciding)
            x = rect.left + 2 * radius + 12
            draw_text(surface, namer.seat(seat), (x, rect.top + 4), name_size, theme.TEXT, bold=True,
                      max_width=rect.right - x - 6)
            y = rect.top + 4 + line_height(name_size)
            lines = rail_lines(self.state, seat, namer, outcome)
            status = self.session.peer_status(seat) if self.session.networked and seat != self.me else ""
            bottom = rect.bottom - (line_height(line_size) if status else 0)
            for line in lines:
                if y + line_height(line_size) > bottom:
                    break
                draw_text(surface, line, (x, y), line_size, theme.TEXT_DIM, max_width=rect.right - x - 6)
                y += line_height(line_size)
            if status:  # the link to that seat's player: connected, reconnecting, stalling, left
                dot_y = rect.bottom - line_height(line_size) // 2 - 2
                pygame.draw.circle(surface, status_colour(status), (x + 4, dot_y), 4)
                draw_text(surface, tr(self.app.lang, status), (x + 12, rect.bottom - line_height(line_size) - 2),
                          line_size, theme.TEXT_DIM, max_width=rect.right - x - 18)

    def _draw_banner(self, surface: pygame.Surface, lay: TableLayout, namer: Namer) -> None:
        rect = lay.banner
        mine = bool(self.legal)
        panel(surface, rect, edge=theme.ACCENT if mine else theme.PANEL_EDGE)
        text = self.banner_text()
        size = lay.text(15)
        draw_text(surface, text, (rect.left + 12, rect.top + 4), size, theme.ACCENT if mine else theme.TEXT,
                  bold=True, max_width=rect.width - 24)
        draw_text(surface, turn_line(self.state, namer), (rect.left + 12, rect.top + 4 + line_height(size)),
                  lay.text(11), theme.TEXT_DIM, max_width=rect.width - 24)

    def banner_text(self) -> str:
        """Who is deciding what now (tests read it)."""
        if self.session.problem:
            return self._problem_text(self.app.lang)
        return banner(self.state, self.session.pending, self.namer(), bool(self.legal))

    def instruction(self) -> str:
        """The bar's first line: what to do now."""
        lang, legal = self.app.lang, self.legal
        if not legal:
            pick = self.session.my_pick
            if pick is not None and not self.session.problem:  # our secret pick is in: say which, and why we wait
                return tr(lang, "lk_sealed_done", choice=self.namer().card(str(pick.choice)))
            return self.banner_text()
        first = legal[0]
        if isinstance(first, PlacementPick):
            things = self._things()
            total = len(things) or len(self.staged) + 1
            if len(self.staged) >= total:  # every thing has a cell: confirm, or take one back
                return tr(lang, "lk_place_ready_two" if total == 2 else "lk_place_ready", total=total)
            if self.staged:  # the next of several: say that the first ones are chosen, and where
                return tr(lang, "lk_place_next", thing=self.namer().thing(things[len(self.staged)]),
                          n=len(self.staged), total=total)
            return tr(lang, "lk_place_thing", thing=self.namer().thing(first.thing))
        if self.targets:
            return tr(lang, "lk_pick_cell")
        return tr(lang, "lk_choose_one")

    def _draw_bar(self, surface: pygame.Surface, lay: TableLayout, namer: Namer) -> None:
        bar = lay.bar
        panel(surface, bar, edge=theme.ACCENT if self.legal else theme.PANEL_EDGE)
        size = lay.text(14)
        draw_text(surface, self.instruction(), (bar.left + 12, bar.top + 10), size,
                  theme.ACCENT if self.legal else theme.TEXT, max_width=bar.width - 160)
        note = self.session.table_note(self.app.lang) if self.session.networked and not self.legal else ""
        if note:  # what the table waits for outside the game: a silent seat's countdown, a stalling seat
            alarm = self.session.silence() is not None or self.session.forfeit_seat() is not None
            claim = next((b.rect for b in self.buttons if b.payload == "forfeit"), None)
            right = claim.left - 10 if claim is not None else bar.right - 12
            draw_wrapped(surface, note, pygame.Rect(bar.left + 12, bar.top + 14 + line_height(size),
                                                    right - bar.left - 12, bar.height - 20 - line_height(size)),
                         lay.text(13), theme.WARN if alarm else theme.TEXT)
        if self.picker is not None:
            panel(surface, self.picker, edge=theme.ACCENT)
            title = self.open_group_title() or tr(self.app.lang, "lk_choose_one")
            draw_text(surface, title, (self.picker.left + 12, self.picker.top + 8), size, theme.ACCENT, bold=True,
                      max_width=self.picker.width - 24)
        if self.explain_rect is not None:
            explain = self.explanation()
            small = lay.text(12)
            most = self.explain_lines()
            for i, part in enumerate(wrap(explain, small, self.explain_rect.width)[:most]):
                last = i == most - 1 and len(wrap(explain, small, self.explain_rect.width)) > most
                draw_text(surface, part + ("…" if last else ""), (self.explain_rect.left, self.explain_rect.top
                                                                  + i * line_height(small)),
                          small, theme.TEXT, max_width=self.explain_rect.width)
        for button in self.buttons:
            button.draw(surface)
        marker = self.marker_rect()
        pick = placing(self.legal)
        if marker is not None and pick is not None:  # the thing we place, ready to be dragged
            label = namer.thing(pick.thing)
            panel(surface, marker, fill=theme.BUTTON if self.drag is None else theme.BG_FELT_DARK, edge=theme.ACCENT)
            draw_text(surface, f"◆ {label}", (marker.left + 8, marker.top + 5), lay.text(13), theme.ACCENT,
                      max_width=marker.width - 16)
            if self.drag is not None:  # beside the pointer while it moves, the lit cell below it outlined
                below = self.board_cells.cell_at(self.drag) if self.board_cells is not None else None
                if below is not None and below in self.targets and self.board_cells is not None:
                    pygame.draw.rect(surface, theme.HILITE, self.board_cells.cells[below].inflate(8, 8), 3,
                                     border_radius=6)
                moving = pygame.Rect(0, 0, marker.width * 2 // 3, marker.height)
                moving.midleft = (self.drag[0] + 14, self.drag[1])
                panel(surface, moving, fill=theme.BUTTON_HOVER, edge=theme.ACCENT)
                draw_text(surface, f"◆ {label}", (moving.left + 8, moving.top + 5), lay.text(13), theme.ACCENT,
                          max_width=moving.width - 16)

    def open_group_title(self) -> str:
        """The open group's words (the picker's title), or ""."""
        if self.open_group is None:
            return ""
        return self._group_label(self.open_group, self.namer())

    def summary_lines(self) -> list[str]:
        """What happened since our last decision, without other seats' routine (newest last)."""
        return [e.text.strip() for e in self.shown_log("since")]

    def shown_log(self, mode: str | None = None) -> list[LogEntry]:
        """The log entries filter ``mode`` (default: the chosen one) keeps, in the current language."""
        mode = mode or self.log_filter
        lang = self.app.lang
        key = (mode, lang, len(self._log_sources), self._mark)
        cached = self._shown.get(mode)
        if cached is not None and cached[0] == key:
            return cached[1]
        out: list[LogEntry] = []
        for i, words in enumerate(self._log_sources):  # drawn every frame: worded once per change
            tags = self._tags[i] if i < len(self._tags) else frozenset()
            if keeps(mode, tags, i, self._mark):
                out += [e for e in words(lang) if not e.chat]
        self._shown[mode] = (key, out)
        return out

    def add_log(self, words: Callable[[str], list[LogEntry]]) -> None:
        super().add_log(words)
        self._tags.append(self._next_tags)
        self._next_tags = frozenset()

    def _on_event(self, pre: LockeState, action: Action, post: LockeState) -> None:
        self._next_tags = tags_of(action, post.events[len(pre.events):], self.me,
                                  self.me >= 0 and post.combat is not None and any(self.me in side for side in post.combat.sides))
        super()._on_event(pre, action, post)

    def _set_filter(self, mode: str) -> Callable[[], None]:
        def choose() -> None:
            self.log_filter, self.log_scroll = mode, 0

        return choose

    def _draw_lines(self, surface: pygame.Surface, rect: pygame.Rect, lines: list[str], size: int, *,
                    title: bool = False, newest: int = 0) -> list[str]:
        """Draw ``lines`` wrapped in a panel; the last ``newest`` lines are a feed: when they do not
        all fit below the others, the oldest of them are left out, so the latest stay in view.
        Returns the wrapped lines drawn (tests read them)."""
        panel(surface, rect)
        inner = rect.inflate(-16, -12)
        step = line_height(size)
        room = max(0, inner.height // step)
        head = [(part, i) for i, line in enumerate(lines[:len(lines) - newest])
                for part in wrap(line, size, inner.width, title and i == 0)]
        entries = [[(part, -1) for part in wrap(line, size, inner.width)] for line in lines[len(lines) - newest:]]
        feed = [part for entry in entries for part in entry]
        if len(head) + len(feed) > room:  # the feed's newest lines first; the fixed lines keep the rest
            keep = min(len(feed), max(room - len(head), room // 3))  # a third of the box at least, if needed
            while len(entries) > 1 and sum(map(len, entries)) > keep:  # whole events left out, never half of one
                entries.pop(0)
            feed = [part for entry in entries for part in entry][-keep:] if keep else []
            head = head[:max(0, room - len(feed))]
        drawn = []
        for j, (part, i) in enumerate([*head, *feed]):
            first = title and i == 0
            draw_text(surface, part, (inner.left, inner.top + j * step), size,
                      theme.ACCENT if first else theme.TEXT, bold=first)
            drawn.append(part)
        return drawn

    @property
    def replaying(self) -> bool:
        """A saved game shown by the replay viewer (client/table/replay.py), not a live table."""
        return getattr(self.session, "proof", "") == "replay"

    def replay_area(self) -> pygame.Rect:
        """Where the replay viewer puts its controls: the bar under the board, below its first line
        (a replay asks nothing there), so they cover neither the rail nor the side panel."""
        bar = self.layout().bar
        top = bar.top + 14 + line_height(self.layout().text(14))
        return pygame.Rect(bar.left + 8, top, bar.width - 16, bar.bottom - 6 - top)

    def _draw_side(self, surface: pygame.Surface, lay: TableLayout, namer: Namer) -> None:
        side = lay.side
        panel(surface, side.inflate(-8, -8))
        lang = self.app.lang
        size = lay.text(12)
        watching = self.seatless  # a watcher (or a replay) has no private panel
        replaying = self.replaying
        title = "lk_panel_replay" if replaying else "lk_panel_watching" if watching else "lk_panel_title"
        draw_text(surface, tr(lang, title), (lay.private.left + 4, 14), lay.text(15), theme.TEXT_DIM, bold=True)
        others = watchers_line(self, lang)  # who watches the table without a seat (the host knows them)
        if replaying:
            lines = [tr(lang, "lk_replay_note")]
        else:
            lines = [others] if watching else [*panel_lines(self.state, namer, my_hand(self.state, self.me)),
                                               *([others] if others else [])]
        inner = lay.private
        pygame.draw.rect(surface, theme.PANEL_EDGE, inner, width=1, border_radius=6)
        y = inner.top + 6
        for line in lines:
            y += draw_wrapped(surface, line, pygame.Rect(inner.left + 8, y, inner.width - 16, inner.bottom - y - 4),
                              size, theme.TEXT)
            if y >= inner.bottom - 4:
                break
        entries = self.shown_log()
        if not entries and self.log_filter == "since":
            entries = [LogEntry(tr(lang, "lk_nothing_since"))]
        draw_entries(surface, lay.log, entries, self.log_scroll, lang, lay.text(12))
        for button in self.side_buttons:
            button.draw(surface)

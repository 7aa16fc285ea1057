"""The Rider table scene: both fields, hands, piles, status, log, prompts.

What is drawn comes from the public state plus the local seat's own
:class:`Knowledge` only. The opponent's hand is drawn from its *count*
(card backs); no code path here ever asks the card renderer for the face
of a card the local seat does not know.

Input becomes actions only through :class:`client.rider.intents.Intents`
built from the session's legal list; see docs/client.md for the controls.

What every game's table shares (the log, chat, overlays, the side panel's
buttons, leaving, conceding, claiming a forfeit, the hand-over to the end
screen) is :class:`client.table.scene.TableScene`; this module is Rider's
part: the controls built from the legal list, the set-up picker, input,
animations, and the drawing (client/rider/drawing.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from client import theme
from client.anim import Animator, Flash, Flight, Flip, Strike
from client.app import App
from client.rider.cardart import CardArt, mark_name
from client.i18n import tr
from client.rider import drawing
from client.rider.describe import describe, option_text, setup_text, why_text
from client.rider.help import rider_help
from client.rider.intents import Intents, needs_confirm
from client.rider.layout import SeatArea, TableLayout
from client.text import render
from client.rider.setup_picker import SetupPicker
from client.table.controls import Control, Key, control_at, notice_rect
from client.table.log import LogEntry
from client.table.prompts import Prompt
from client.table.scene import ACTION_PROMPTS, NOTICE_SECONDS, TableScene
from client.table.session import TableSession
from client.table.words import player_label
from client.widgets import Button
from engine.core.actions import Action
from engine.core.pending import CardsDealt, CardsRevealed
from engine.rider.actions import Attack, Discard, LevelUp, OpenColumn, Pass, Renew, SetUp
from engine.rider.rules import resolve_attack
from engine.rider.state import COLUMN_INDEX, COLUMNS, RiderState
from engine.core.inputs import SealedPick, SeatInput

RPS_KEYS = {"rock": "rps_rock", "paper": "rps_paper", "scissors": "rps_scissors"}
#: The set-up picker's bar buttons (the helpers among them are not primary).
SETUP_BUTTONS = (("button", "setup_place"), ("button", "setup_clear"), ("button", "setup_fill"))
SETUP_AIDS = ("setup_clear", "setup_fill")


class RiderTableScene(TableScene[RiderState]):
    name = "table"
    #: An attack's confirmation is about a move too (the table layer's kinds and Rider's).
    action_prompts = (*ACTION_PROMPTS, "attack")
    opening_hint = "hint_select"

    def __init__(self, app: App, session: TableSession[RiderState], art: CardArt, *,
                 on_leave: Callable[[], None] | None = None,
                 on_end: Callable[[RiderTableScene], None] | None = None) -> None:
        super().__init__(app, session, on_leave=on_leave, on_end=on_end)
        self.art = art
        self.opp = 1 - session.me
        self.layout = TableLayout(app.screen.get_size(), self.me)
        self.anims = Animator()
        self.intents = Intents([])
        self.selected: Key | None = None
        self.controls: list[Control] = []
        self.faces: list[tuple[pygame.Rect, str]] = []  # visible card faces (hover preview)
        self.hover_pos = (-1, -1)
        self.hover_card: str | None = None
        self.drag: dict[str, Any] | None = None
        self.bar_buttons: list[Button] = []
        self._background: pygame.Surface | None = None
        #: On a small window: the collapsed side panel is opened over the board.
        self.panel_open = False
        #: Set-up by sight while the engine waits for our three face-down Lv.1 cards.
        self.setup: SetupPicker | None = None
        #: An early set-up (made while the other seat places) the player said is ready: it is
        #: placed as soon as our set-up is asked for, if it is still one of the legal ones.
        self.setup_ready = False

    # -- scene protocol (the rest is TableScene's) -----------------------------------------
    def resized(self, size: tuple[int, int]) -> None:
        self.layout = TableLayout(size, self.me)
        self._background = None
        self.overlays_resized(size)
        self.refresh()

    # -- what a game's scene adds to the table's (client/table/scene.py) -----------------------
    def help_pages(self) -> Any:
        return rider_help(self.art)

    def prompt_area(self) -> pygame.Rect:
        return self.layout.board

    def moving(self, now: float) -> bool:
        return self.anims.update(now)

    def describe_input(self, pre: RiderState, action: Action, post: RiderState) -> Callable[[str], list[LogEntry]]:
        session = self.session

        def words(lang: str) -> list[LogEntry]:
            return describe(pre, action, post, me=self.me, names=session.names, lang=lang,
                            name=lambda card: self.art.name(card, lang), knowledge=session.knowledge,
                            table=session.game.table, proof=session.proof)

        return words

    def on_input(self, pre: RiderState, action: Action, post: RiderState) -> None:
        self._animate(pre, action, post)
        if isinstance(action, Attack):
            self.app.sound.play("attack")

    def after_input(self, action: Action) -> None:
        self.selected = None if action.seat == self.me else self.selected

    def _on_refresh(self) -> None:
        """Rider's part of refresh: the intents, the set-up picker, a selection that still holds."""
        self.intents = Intents(self.legal)
        setups: list[SetUp] = [a for a in self.legal if isinstance(a, SetUp)]
        early = not setups
        if early:  # the other seat places first: arrange ours meanwhile (rider.0)
            setups = self.session.game.upcoming_setups(self.session.state, self.me, self.session.knowledge)
        if not setups:
            self.setup = None
            self.setup_ready = False
        elif self.setup is None or self.setup.setups != setups or self.setup.early != early:
            old = self.setup
            self.setup = SetupPicker(setups, self.session.knowledge, early=early)
            if old is not None:
                self.setup.keep(old.slots)
            if not early and self.setup_ready:
                self.setup_ready = False
                self.app.clock.callLater(0, self._place_ready)
        sources = self.intents.sources()
        keep = self.setup is not None and self.selected is not None and self.selected[0] == "setup_card" \
            and self.setup.remaining(str(self.selected[1])) > 0
        if self.selected is not None and self.selected not in sources and not keep:
            self.selected = None

    # -- helpers --------------------------------------------------------------------------
    def _name(self, card_id: str) -> str:
        return self.art.name(card_id, self.app.lang)

    def area(self, seat: int) -> SeatArea:
        return self.layout.area(seat)

    def column_rect(self, seat: int, letter: str) -> pygame.Rect:
        return self.area(seat).columns[COLUMN_INDEX[letter]]

    def hand_slots(self, seat: int, count: int | None = None) -> list[pygame.Rect]:
        player = self.session.state.players[seat]
        n = len(player.hand) if count is None else count
        if seat == self.me:
            return self.layout.hand_slots(self.layout.near.hand, n, self.layout.hand_card)
        area = self.layout.area(seat).hand
        room = area.inflate(-2 * min(320, area.width // 3), 0)  # leave the label on the left clear
        return self.layout.hand_slots(room, n, self.layout.far_hand_card)

    def my_hand(self) -> list[tuple[int, str | None]]:
        """The local seat's hand as (handle, card id) from its own knowledge."""
        state = self.session.state
        know = self.session.knowledge
        opened = dict(state.open_cards)
        return [(h, know.card(h) or opened.get(h)) for h in state.players[self.me].hand]

    # -- controls ------------------------------------------------------------------------
    def _build_controls(self) -> None:
        lang = self.app.lang
        L = self.layout
        controls: list[Control] = []
        faces: list[tuple[pygame.Rect, str]] = []
        sources = self.intents.sources()
        state = self.session.state
        # hand (or, at the set-up, the Lv.1 cards to choose from)
        if self.setup is not None:
            for rect, choice in self.setup_slots():
                faces.append((rect, choice))
                if self.setup.remaining(choice) > 0:
                    controls.append(Control(rect, ("setup_card", choice), choice))
        for rect, (handle, card) in zip(self.hand_slots(self.me), self.my_hand()):
            key = ("hand", handle)
            if key == self.selected:
                rect = rect.move(0, -18)
            if card is not None:
                faces.append((rect, card))
            if key in sources:
                controls.append(Control(rect, key, card or ""))
        # columns
        targets = self.intents.targets(self.selected) if self.selected is not None else set()
        for seat in (self.me, self.opp):
            side = "mine" if seat == self.me else "theirs"
            player = state.players[seat]
            for i, letter in enumerate(COLUMNS):
                col = player.columns[i]
                area = self.area(seat).columns[i]
                for idx, (cid, _lvl) in enumerate(col.cards):
                    faces.append((self.layout.cascade(area, idx), cid))
                if col.zero is not None:
                    faces.append((self.layout.zero_slot(area), col.zero))
                if col.facedown is not None and seat == self.me:
                    own = self.session.knowledge.card(col.facedown)
                    if own is not None:
                        faces.append((self.layout.cascade(area, 0), own))
                col_key: Key = (side, letter)
                if col_key in targets or (self.selected is None and col_key in sources):
                    controls.append(Control(area, col_key, letter))
                if self.setup is not None and seat == self.me:
                    chosen = self.setup.slots[letter]
                    if chosen is not None:
                        faces.append((self.layout.cascade(area, 0), chosen))
                    if chosen is not None or self.setup_target(letter):
                        controls.append(Control(area, ("setup_col", letter), letter))
            for pile in ("discard", "lost"):
                pile_cards: tuple[str, ...] = getattr(player, pile)
                pile_rect: pygame.Rect = getattr(self.area(seat), pile)
                if pile_cards:
                    faces.append((pile_rect, pile_cards[-1]))
                controls.append(Control(pile_rect, ("pile", seat, pile), pile))
        # bar buttons
        self.bar_buttons = []
        bar = L.bar
        labels = {"pass": (tr(lang, "pass"), "P"), "end": (tr(lang, "end_attacks"), "E"),
                  "setup": (tr(lang, "setup_button"), "S"), "sealed": (tr(lang, "choose"), "S")}
        sealed = next((a for a in self.legal if isinstance(a, SealedPick)), None)
        if sealed is not None:
            labels["sealed"] = (tr(lang, "mark_button" if sealed.purpose == "rider.battle_mark" else "rps_button"), "S")
        x = bar.right - 16
        forfeit = self.session.forfeit_seat()
        if forfeit is not None and not self.legal:  # a stalling opponent: we may claim the win
            rect = pygame.Rect(x - 220, bar.top + 8, 220, bar.height - 16)
            x -= 230
            button = Button(rect, tr(lang, "claim_forfeit"), self._claim_forfeit, payload=("button", "forfeit"))
            self.bar_buttons.append(button)
            controls.append(Control(rect, ("button", "forfeit"), button.label))
        names = self.intents.buttons()
        if self.setup is not None:  # set-up by sight: its own buttons instead of a list of permutations
            names = [n for n in names if n != "setup"] + ["setup_clear", "setup_fill", "setup_place"]
            labels["setup_place"] = (tr(lang, "setup_place"), "S")
            if self.setup.early:
                labels["setup_place"] = (tr(lang, "setup_unready" if self.setup_ready else "setup_ready"), "S")
            labels["setup_clear"] = (tr(lang, "setup_clear"), "")
            labels["setup_fill"] = (tr(lang, "setup_fill"), "")
        for name in reversed(names):
            label, hot = labels.get(name, (name, ""))
            # as wide as the label needs (its hotkey tag too), no wider: the hint beside the buttons
            # was cut on boards narrower than the reference sizes' (a 1120x660 window, side panel open)
            aid = name in SETUP_AIDS
            text_w = render(label, (bar.height - 16) // 2, theme.TEXT, not aid).get_width()
            width = max(110 if aid else 140, min(150 if aid else 200, text_w + 40))
            rect = pygame.Rect(x - width, bar.top + 8, width, bar.height - 16)
            x -= width + 10
            enabled = self.setup is None or name != "setup_place" or self.setup.complete
            button = Button(rect, label, self._presser(("button", name)), primary=name not in SETUP_AIDS, hotkey=hot,
                            payload=("button", name), enabled=enabled)
            self.bar_buttons.append(button)
            if enabled:
                controls.append(Control(rect, ("button", name), label))
        # side panel buttons
        panel_rect = self.side_rect()
        self.side_buttons = []
        if L.collapsed:
            strip = L.side
            self.side_buttons.append(Button(pygame.Rect(strip.left + 6, strip.top + 8, strip.width - 12, 40),
                                            ">" if self.panel_shown else "<", self._toggle_panel, payload="panel"))
        self.chat_buttons = []
        if self.panel_shown:  # lobby, settings, help, concede and the chat: the table layer's
            self.side_buttons += self.side_panel_buttons(panel_rect)
        if self.prompt is not None:
            self._layout_prompt(self.prompt)
            controls = [Control(b.rect, ("prompt", i), b.label) for i, b in enumerate(self.prompt.buttons)]
        self.controls = controls
        self.faces = faces
        self._update_hover()

    def offered(self) -> list[Control]:
        """What the player can click now (used by tests and keyboard help)."""
        return list(self.controls)

    def press(self, key: Key) -> None:
        """Act on a control, exactly as a click on it would."""
        kind = key[0]
        if kind == "prompt":
            assert self.prompt is not None
            index = key[1]
            assert isinstance(index, int)
            self.prompt.buttons[index].on_click()
        elif kind == "pile":
            self._show_pile(key[1], key[2])  # type: ignore[arg-type]
        elif kind == "hand":
            targets = self.intents.targets(key)
            if not targets:
                self._resolve(self.intents.between(key, None))
            else:
                self.selected = None if self.selected == key else key
        elif kind in ("mine", "theirs"):
            if self.selected is not None and key in self.intents.targets(self.selected):
                self._resolve(self.intents.between(self.selected, key))
            elif key in self.intents.sources():
                self.selected = None if self.selected == key else key
            else:
                self.explain(key)
        elif key == ("button", "forfeit"):
            self._claim_forfeit()
        elif kind in ("setup_card", "setup_col") or key in SETUP_BUTTONS:
            self._press_setup(key)
        elif kind == "button":
            self._resolve(self.intents.from_source(key))
        self._build_controls()
        self.app.invalidate()

    # -- set-up by sight ----------------------------------------------------------------
    def setup_slots(self) -> list[tuple[pygame.Rect, str]]:
        """Where each distinct Lv.1 card to choose from sits (the hand row, empty at the set-up)."""
        if self.setup is None:
            return []
        cards = self.setup.cards
        slots = self.layout.hand_slots(self.layout.near.hand, len(cards), self.layout.hand_card)
        return [(rect.move(0, -18) if ("setup_card", card) == self.selected else rect, card)
                for rect, card in zip(slots, cards)]

    def setup_target(self, letter: str) -> bool:
        """Column ``letter`` takes the selected set-up card now."""
        sel = self.selected
        return (self.setup is not None and sel is not None and sel[0] == "setup_card"
                and self.setup.can_place(str(sel[1]), letter))

    def _press_setup(self, key: Key) -> None:
        picker = self.setup
        if picker is None:
            return
        kind = key[0]
        if kind == "setup_card":
            self.selected = None if self.selected == key else key
        elif kind == "setup_col":
            letter = str(key[1])
            held = str(self.selected[1]) if self.selected is not None and self.selected[0] == "setup_card" else None
            if held is not None and picker.slots[letter] == held:
                picker.clear(letter)  # the same card again: take it back
            elif self.setup_target(letter):
                assert self.selected is not None
                card = str(self.selected[1])
                picker.place(card, letter)
                # another copy stays in hand, selected, while it can still go somewhere
                if picker.remaining(card) <= 0 or not any(self.setup_target(c) for c in COLUMNS):
                    self.selected = None
            elif picker.slots[letter] is not None:
                picker.clear(letter)  # a click on a chosen column takes its card back
        elif key == ("button", "setup_clear"):
            picker.reset()
            self.selected = None
        elif key == ("button", "setup_fill"):
            picker.fill()
            self.selected = None
        elif key == ("button", "setup_place"):
            if picker.early:  # not our turn to place yet: ready (or not) to place when it comes
                self.setup_ready = not self.setup_ready and picker.complete
                return
            action = picker.choice()
            if action is not None:
                self._submit(action)
        if picker.early:
            self.setup_ready = False  # the arrangement changed: say ready again

    def _place_ready(self) -> None:
        """Our set-up is asked for now and we said the early arrangement was ready: place it
        (one of the legal set-ups, or nothing: then the player places by hand)."""
        picker = self.setup
        action = picker.choice() if picker is not None and not picker.early else None
        if action is not None and action in self.legal:
            self._submit(action)

    def explain(self, key: Key) -> None:
        """Say why a gesture on ``key`` (with the current selection) is not allowed,
        in words from the engine's own rule (RiderGame.why_not); the rule id goes
        to the details line only. Nothing is said when the gesture is allowed."""
        state = self.session.state
        know = self.session.knowledge
        gesture: dict[str, Any] = {}
        sel = self.selected
        kind = key[0]
        if kind == "hand":
            card = dict(self.my_hand()).get(key[1])  # type: ignore[call-overload]
            if card is None:
                return
            gesture = {"card": card}
        elif kind == "mine" and sel is not None and sel[0] == "hand":
            card = dict(self.my_hand()).get(sel[1])  # type: ignore[call-overload]
            if card is None:
                return
            gesture = {"card": card, "column": COLUMN_INDEX[str(key[1])]}
        elif kind == "mine":
            gesture = {"column": COLUMN_INDEX[str(key[1])]}
        elif kind == "theirs" and sel is not None and sel[0] == "mine":
            gesture = {"column": COLUMN_INDEX[str(sel[1])], "target": COLUMN_INDEX[str(key[1])]}
        elif kind == "theirs":
            return  # the opponent's column alone is not a gesture
        elif key == ("button", "pass"):
            gesture = {"passing": True}
        else:
            return
        why = self.session.game.why_not(state, self.me, know, **gesture)
        if why is None:
            return
        pending = self.session.pending
        waited = getattr(pending, "seat", None)
        who = player_label(waited, self.session.names, self.me, self.app.lang) if isinstance(waited, int) \
            and waited >= 0 else tr(self.app.lang, "table_itself")
        text, details = why_text(self.app.lang, why, self._name, who)
        self.notice = (text, details, self.app.clock.seconds() + NOTICE_SECONDS)
        self.app.invalidate()

    def _resolve(self, candidates: list[SeatInput]) -> None:
        """One candidate: do it (after a confirm if irreversible); several: ask which."""
        lang = self.app.lang
        if not candidates:
            return
        if len(candidates) == 1:
            action = candidates[0]
            if needs_confirm(action):
                self._confirm(action)
            else:
                self._submit(action)
            return
        first = candidates[0]
        if isinstance(first, SealedPick):
            title = tr(lang, "sealed_flip") if first.purpose == "rider.battle_mark" else tr(lang, "sealed_rps")
        elif isinstance(first, LevelUp) and len({a.level for a in candidates if isinstance(a, LevelUp)}) > 1:
            title = tr(lang, "choose_level")
        elif isinstance(first, (Pass, Discard)):
            title = tr(lang, "choose_discard")
        elif isinstance(first, LevelUp) and len({a.targets for a in candidates if isinstance(a, LevelUp)}) > 1:
            title = tr(lang, "choose_target")
        elif isinstance(first, SetUp):
            title = tr(lang, "setup_title")
        else:
            title = tr(lang, "choose_action")
        # Copies of one card are interchangeable: offer each distinct choice once.
        seen: set[str] = set()
        options: list[tuple[str, Callable[[], None], bool]] = []
        for a in candidates:
            label = self._option_label(a)
            if label not in seen:
                seen.add(label)
                options.append((label, self._picker(a), False))
        if len(options) == 1:
            self._picked(candidates[0])
            return
        options.append((tr(lang, "cancel"), self._cancel, False))
        cards = [a.card for a in candidates if isinstance(a, (LevelUp, Renew, OpenColumn, Pass, Discard)) and a.card]
        if isinstance(first, SealedPick) and first.purpose == "rider.battle_mark":
            own = self.session.state.players[self.me].columns
            know = self.session.knowledge
            cards = [c for a in candidates if isinstance(a, SealedPick)
                     if (h := own[COLUMN_INDEX[a.choice]].facedown) is not None and (c := know.card(h))]
        self.prompt = Prompt(title, [], options, cards=list(dict.fromkeys(cards))[:6])

    def _option_label(self, action: SeatInput) -> str:
        lang = self.app.lang
        if isinstance(action, SealedPick):
            if action.purpose == "rider.battle_mark":
                col = self.session.state.players[self.me].columns[COLUMN_INDEX[action.choice]]
                card = self.session.knowledge.card(col.facedown) if col.facedown is not None else None
                mark = mark_name(self.session.game.cardset.card(card).mark, lang) if card else ""
                return tr(lang, "opt_mark_pick", column=action.choice, card=self._name(card), mark=mark) if card \
                    else str(action.choice)
            return tr(lang, RPS_KEYS.get(action.choice, "choose")) if action.choice in RPS_KEYS else str(action.choice)
        if isinstance(action, SetUp):
            know = self.session.knowledge
            return setup_text([know.card(h) or "?" for h in action.handles], self._name, lang)
        return option_text(action, self._name, lang)

    def _presser(self, key: Key) -> Callable[[], None]:
        return lambda: self.press(key)

    def _picker(self, action: SeatInput) -> Callable[[], None]:
        return lambda: self._picked(action)

    def _face_of(self, card: str) -> Callable[[tuple[int, int]], pygame.Surface]:
        lang = self.app.lang
        return lambda size: self.art.face(card, size, lang)

    def _picked(self, action: SeatInput) -> None:
        self.prompt = None
        if needs_confirm(action):
            self._confirm(action)
        else:
            self._submit(action)

    def _confirm(self, action: SeatInput) -> None:
        lang = self.app.lang
        confirm_q = tr(lang, "confirm_q_net" if self.session.networked else "confirm_q")  # signed only when networked
        lines = [confirm_q]
        cards: list[str] = []
        kind = "confirm"
        title = option_text(action, self._name, lang)
        if isinstance(action, Attack):
            kind = "attack"
            title = tr(lang, "attack_preview")
            state = self.session.state
            att = state.players[self.me].columns[COLUMN_INDEX[action.column]]
            dfn = state.players[self.opp].columns[COLUMN_INDEX[action.target]]
            battle = resolve_attack(self.session.game.table, att, dfn)
            destroyed = [c for c in dfn.cards if c not in battle.defender.cards]
            lines = [tr(lang, "attack_vs", col=action.column, atk=battle.attack_power, tgt=action.target,
                        dfn=battle.defence_power)]
            if destroyed:
                listing = ", ".join(f"Lv.{lv} {self._name(c)}" + (" → Lost" if lv == 1 else "") for c, lv in reversed(destroyed))
                lines.append(tr(lang, "would_destroy", cards=listing))
            else:
                lines.append(tr(lang, "would_destroy_none"))
            lines.append(tr(lang, "attacker_keeps"))
            lines.append(confirm_q)
            cards = [c for c, _ in reversed(destroyed)]
        elif isinstance(action, (OpenColumn, Pass, Discard)) and action.card:
            cards = [action.card]
        self.prompt = Prompt(title, lines, [(tr(lang, "confirm"), lambda: self._submit(action), True),
                                            (tr(lang, "cancel"), self._cancel, False)], cards=cards[:5], kind=kind,
                             accent=kind == "attack")

    def _cancel(self) -> None:
        self.prompt = None
        self.selected = None  # Rider's: a cancelled question also drops the selection

    def _submit(self, action: SeatInput) -> None:
        self.prompt = None
        self.selected = None
        self.session.submit(action)  # checks membership in the legal list again
        self.refresh()

    def _show_pile(self, seat: int, pile: str) -> None:
        lang = self.app.lang
        cards = list(getattr(self.session.state.players[seat], pile))
        who = player_label(seat, self.session.names, self.me, lang)
        name = tr(lang, "discard_pile" if pile == "discard" else "lost_pile")
        lines = [] if cards else [tr(lang, "pile_empty")]
        self.prompt = Prompt(tr(lang, "pile_title", pile=name, who=who, n=len(cards)), lines,
                             [(tr(lang, "close"), self._cancel, True)], cards=cards[::-1], kind="pile")

    def chat_shown(self) -> bool:
        return self.panel_shown

    @property
    def panel_shown(self) -> bool:
        """The side panel (players, log, Lobby) is on screen: always, unless the
        window is so small that it collapsed to a strip and was not opened."""
        return not self.layout.collapsed or self.panel_open

    def side_rect(self) -> pygame.Rect:
        """Where the side panel is drawn: its column, or over the board when opened from the strip."""
        return self.layout.side_open

    def _toggle_panel(self) -> None:
        self.panel_open = not self.panel_open
        self._build_controls()
        self.app.invalidate()

    # -- input -------------------------------------------------------------------------------
    def _control_at(self, pos: tuple[int, int]) -> Control | None:
        return control_at(self.controls, pos)

    def _update_hover(self) -> None:
        self.hover_card = None
        if self.prompt is not None and self.prompt.kind == "pile":
            return
        for rect, card in reversed(self.faces):
            if rect.collidepoint(self.hover_pos):
                self.hover_card = card
                return

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION and self.help is not None:
            self.hover_pos = event.pos  # the help overlay takes the motion; the hover follows it
        if self.handle_overlays(event):  # settings, help, chat: the table layer's
            return
        if event.type == pygame.MOUSEMOTION:
            self.hover_pos = event.pos
            self._update_hover()
            for b in self.bar_buttons + self.side_buttons + self.chat_buttons + (self.prompt.buttons if self.prompt else []):
                b.handle(event)
            if self.drag is not None:
                self.drag["pos"] = event.pos
            return
        if event.type == pygame.MOUSEWHEEL:
            self.log_scroll = max(0, self.log_scroll + event.y)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos)
            return
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.release(event.pos)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self._cancel()
            self._build_controls()
            return
        if event.type == pygame.KEYDOWN:
            self.key(event)

    def click(self, pos: tuple[int, int]) -> None:
        for b in self.side_buttons + (self.chat_buttons if self.prompt is None else []):
            if b.rect.collidepoint(pos):
                b.on_click()
                return
        if self.layout.collapsed and self.panel_open and self.side_rect().collidepoint(pos):
            return  # the opened panel covers the board here
        control = self._control_at(pos)
        if control is None:
            under = self._thing_at(pos) if self.prompt is None else None
            if under is not None:
                self.explain(under)
            if self.prompt is None and self.selected is not None and under is None:
                self.selected = None  # a click on nothing lets go; one on a column keeps the choice (explained)
                self._build_controls()
            return
        self.notice = None
        if (control.key[0] == "hand" and self.intents.targets(control.key)) or control.key[0] == "setup_card":
            self.drag = {"key": control.key, "start": pos, "pos": pos, "was": self.selected == control.key}
            self.selected = control.key
            self._build_controls()
            return
        self.press(control.key)

    def _thing_at(self, pos: tuple[int, int]) -> Key | None:
        """The hand card or column under ``pos`` whether or not it is clickable now."""
        for rect, (handle, _card) in reversed(list(zip(self.hand_slots(self.me), self.my_hand()))):
            if rect.collidepoint(pos):
                return ("hand", handle)
        for seat, side in ((self.me, "mine"), (self.opp, "theirs")):
            for i, rect in enumerate(self.area(seat).columns):
                if rect.collidepoint(pos):
                    return (side, COLUMNS[i])
        return None

    def release(self, pos: tuple[int, int]) -> None:
        drag, self.drag = self.drag, None
        if drag is None:
            return
        moved = abs(pos[0] - drag["start"][0]) + abs(pos[1] - drag["start"][1]) > 10
        if moved:
            for control in self.controls:
                if control.key[0] in ("mine", "theirs", "setup_col") and control.rect.collidepoint(pos):
                    self.press(control.key)
                    return
            self.selected = drag["key"]
            under = self._thing_at(pos)
            if under is not None and under[0] == "mine":
                self.explain(under)
            elif under is not None and under[0] == "theirs" and drag["key"][0] == "setup_card":
                self.notice = (tr(self.app.lang, "setup_own_side"), "", self.app.clock.seconds() + NOTICE_SECONDS)
                self.app.invalidate()
        elif drag["was"]:
            self.selected = None
        self._build_controls()

    def key(self, event: pygame.event.Event) -> None:
        k = event.key
        if self.prompt is not None:
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
                for i, b in enumerate(self.prompt.buttons):
                    if b.primary:
                        self.press(("prompt", i))
                        return
            elif k == pygame.K_ESCAPE:
                self._cancel()
                self._build_controls()
            elif pygame.K_1 <= k <= pygame.K_9 and k - pygame.K_1 < len(self.prompt.buttons):
                self.press(("prompt", k - pygame.K_1))
            return
        if k == pygame.K_ESCAPE:
            self._cancel()
            self._build_controls()
        elif k == pygame.K_l:
            self._toggle_lang()
        elif self.setup is not None and (pygame.K_1 <= k <= pygame.K_9 or k in (pygame.K_a, pygame.K_b, pygame.K_c)
                                         or k == pygame.K_s):
            if k == pygame.K_s:
                self.press(("button", "setup_place"))
            elif k in (pygame.K_a, pygame.K_b, pygame.K_c):
                self.press(("setup_col", "ABC"[k - pygame.K_a]))
            elif k - pygame.K_1 < len(self.setup.cards):
                self.press(("setup_card", self.setup.cards[k - pygame.K_1]))
        elif pygame.K_1 <= k <= pygame.K_9:
            hand = self.my_hand()
            index = k - pygame.K_1
            if index < len(hand) and ("hand", hand[index][0]) in self.intents.sources():
                self.press(("hand", hand[index][0]))
            elif index < len(hand):
                self.explain(("hand", hand[index][0]))
        elif k in (pygame.K_a, pygame.K_b, pygame.K_c):
            letter = "ABC"[k - pygame.K_a]
            shift = bool(event.mod & pygame.KMOD_SHIFT)
            if self.selected is not None and self.selected[0] == "mine" or shift:
                self.press(("theirs", letter))
            else:
                self.press(("mine", letter))
        elif k == pygame.K_p:
            if ("button", "pass") in self.intents.sources():
                self.press(("button", "pass"))
            else:
                self.explain(("button", "pass"))
        elif k == pygame.K_e and ("button", "end") in self.intents.sources():
            self.press(("button", "end"))
        elif k == pygame.K_s:
            for name in ("setup", "sealed"):
                if ("button", name) in self.intents.sources():
                    self.press(("button", name))

    # -- animations ---------------------------------------------------------------------------
    def _animate(self, pre: RiderState, action: Action, post: RiderState) -> None:
        now = self.app.clock.seconds()
        self.anims.speed = self.app.prefs.anim_factor
        self.anims.origin = now
        L = self.layout
        me = self.me
        back = self.art.back
        if isinstance(action, CardsDealt):
            seat = int(action.zone.split(":")[1])
            slots = self.hand_slots(seat, len(post.players[seat].hand))
            start = self.area(seat).deck
            hand = post.players[seat].hand
            for k, handle in enumerate(action.handles[:6]):
                if handle not in hand:
                    continue
                dst = slots[hand.index(handle)]
                drawn = self.session.knowledge.card(handle) if seat == me else None
                surf = self._face_of(drawn) if drawn else back
                self.anims.add(Flight(now + 0.07 * k, 0.32, (("hand", handle),), src=start, dst=dst, surf=surf))
            return
        if isinstance(action, CardsRevealed) and action.zone.startswith("columns:"):
            seat = int(action.zone.split(":")[1])
            for i, col in enumerate(post.players[seat].columns):
                if col.cards and pre.players[seat].columns[i].facedown in action.handles:
                    rect = L.cascade(self.area(seat).columns[i], 0)
                    self.anims.add(Flip(now, 0.35, (("col", seat, i, 0),), rect=rect, back=back,
                                        face=self._face_of(col.cards[0][0])))
            return
        seat = action.seat
        if seat not in (0, 1):
            return
        pre_slots = self.hand_slots(seat, len(pre.players[seat].hand))
        moved: int | None = getattr(action, "handle", None)
        src = self.area(seat).hand
        if moved is not None and moved in pre.players[seat].hand:
            src = pre_slots[pre.players[seat].hand.index(moved)]
        card: str | None = getattr(action, "card", None)
        if isinstance(action, (LevelUp, Renew)) and card:
            i = COLUMN_INDEX[action.column]
            col = post.players[seat].columns[i]
            area = self.area(seat).columns[i]
            hide: tuple[object, ...]
            if isinstance(action, LevelUp) and action.level == 0:
                dst, hide = L.zero_slot(area), ("zero", seat, i)
            else:
                idx = len(col.cards) - 1
                dst, hide = L.cascade(area, idx), ("col", seat, i, idx)
            self.anims.add(Flight(now, 0.3, (hide,), src=src, dst=dst, surf=self._face_of(card)))
        elif isinstance(action, (OpenColumn, Pass, Discard)) and card:
            self.anims.add(Flight(now, 0.3, (("pile", seat, "discard"),), src=src, dst=self.area(seat).discard,
                                  surf=self._face_of(card)))
        elif isinstance(action, Attack):
            a = self.column_rect(seat, action.column)
            b = self.column_rect(1 - seat, action.target)
            self.anims.add(Strike(now, 0.4, (), a=a.center, b=b.center))
            dfn_pre = pre.players[1 - seat].columns[COLUMN_INDEX[action.target]]
            dfn_post = post.players[1 - seat].columns[COLUMN_INDEX[action.target]]
            gone = len(dfn_pre.cards) - len(dfn_post.cards)
            for idx in range(len(dfn_post.cards), len(dfn_pre.cards)):
                rect = L.cascade(b, idx)
                cid, lvl = dfn_pre.cards[idx]
                self.anims.add(Flash(now + 0.25, 0.3, (), rect=rect, colour=theme.BAD))
                pile = self.area(1 - seat).lost if lvl == 1 else self.area(1 - seat).discard
                self.anims.add(Flight(now + 0.45, 0.35, (), src=rect, dst=pile,
                                      surf=self._face_of(cid)))
            att_pre = pre.players[seat].columns[COLUMN_INDEX[action.column]]
            for idx in range(1, len(att_pre.cards)):
                rect = L.cascade(a, idx)
                self.anims.add(Flash(now + 0.35, 0.3, (), rect=rect, colour=theme.WARN))
            if gone:
                self.anims.add(Flash(now + 0.2, 0.4, (), rect=b.inflate(8, 8), colour=(255, 120, 60)))

    # -- drawing (read-only) ---------------------------------------------------------------------

    # -- drawing (client/rider/drawing.py) --------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        drawing.draw(self, surface)

    def _felt(self, size: tuple[int, int]) -> pygame.Surface:
        """The table's background for a window size (cached): felt, column beds, bar, side panel."""
        return drawing.felt(self, size)

    def _mark_badge(self, surface: pygame.Surface, rect: pygame.Rect, card: str) -> None:
        drawing.mark_badge(self, surface, rect, card)

    def notice_rect(self, text: str = "", details: str = "") -> pygame.Rect:
        """Where a why-not notice goes (client/table/controls.py: above the bar)."""
        return notice_rect(self.layout.board, self.layout.bar, text, details)

    def preview_target(self, pos: tuple[int, int]) -> pygame.Rect:
        return drawing.preview_target(self, pos)

    def preview_rects(self, pos: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect]:
        return drawing.preview_rects(self, pos)

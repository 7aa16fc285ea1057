"""RiderGame: the complete, rules-enforced Rider reducer (engine.core.game.Game).

How the flow works: the state carries a *queue* of steps (state.Step). The
head of the queue is either something to wait for (a seat's decision, a sealed
choice, a hidden-card operation) or something the engine does by itself (start
a turn, resolve an instant effect, end a turn). After every input the reducer
*settles*: it runs automatic steps until the head waits for input again. So
``pending(state)`` is a pure function of the queue head, and a log of inputs
replays to the same states everywhere. The queue, the table of step kinds and
the settle loop are the shared flow core (engine/core/flow.py); ``STEPS`` below
says what each Rider step kind does.

Turn = draw (rider.2), exactly one main action (rider.3-5), attacks
(rider.6-8), then the other seat's turn. Rule ids refer to docs/rules/rider.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.core.actions import SYSTEM, Action
from engine.core.errors import (
    CheatDetected,
    DeckError,
    GameOver,
    IllegalAction,
    WrongInputKind,
)
from engine.core.flow import StepTable, settle
from engine.core.game import Outcome, check_answer_matches
from engine.core.hidden import Knowledge
from engine.core.pending import (
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Decision,
    HiddenOp,
    Pending,
    SealedChoice,
    SealedChoicesRevealed,
)
from engine.rider.actions import (
    CODEC,
    Attack,
    Discard,
    EndAttacks,
    LevelUp,
    OpenColumn,
    Pass,
    Renew,
    SetUp,
)
from engine.rider.cards import CardSet
from engine.rider.deck import check_deck
from engine.rider.effects import AUTO_EFFECTS, effect_steps
from engine.rider.legal import SETUP_COLUMNS, legal_actions
from engine.rider.rules import (
    Info,
    attack_options,
    attacks_allowed,
    check_win,
    info_table,
    resolve_attack,
    strip_attacker,
)
from engine.rider.why import Why, attack_why, gesture_why, message, pass_why, placement_why
from engine.rider.state import (
    COLUMN_INDEX,
    COLUMNS,
    EMPTY_COLUMNS,
    Column,
    Player,
    RULES_ID,
    SEATS,
    RiderState,
    Step,
    other,
    public_data,
    with_column,
    with_player,
)

HAND_SIZE = 5  # rider.0: opening hand
TURN_LIMIT = 300  # rider.10
RPS = ("rock", "paper", "scissors")
#: Battle marks as rock-paper-scissors (rider.1).
MARK_AS_RPS = {"sword": "scissors", "feather": "paper", "rock": "rock"}
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}

#: Effects whose target is chosen in the level-up action, and what they target.
def _column(letter: str, rule: str) -> int:
    index = COLUMN_INDEX.get(letter)
    if index is None:
        raise IllegalAction(f"there is no column {letter!r}; columns are A, B and C", rule=rule)
    return index


class RiderGame:
    """The Rider rules over one card set. Stateless apart from the card table."""

    rules_id = RULES_ID
    codec = CODEC

    def __init__(self, cardset: CardSet) -> None:
        self.cardset = cardset
        self.table: dict[str, Info] = info_table(cardset)
        self._decisions: dict[tuple[int, str], Decision] = {}

    # --- starting a game ------------------------------------------------------

    def initial_state(self, decks: Sequence[Sequence[str] | int]) -> RiderState:
        """The public starting state; seat ``i``'s deck becomes fresh handles.

        ``decks[i]`` is the deck (card ids) or just its size: the public state
        never holds the ids, so a networked peer that knows only its own deck
        can build the same state. Use :meth:`new_game` to also get knowledge.
        """
        if len(decks) != SEATS:
            raise DeckError(["Rider is a game for exactly two seats"])
        players = []
        start = 0
        for deck in decks:
            size = deck if isinstance(deck, int) else len(deck)
            players.append(Player(EMPTY_COLUMNS, tuple(range(start, start + size)), (), (), ()))
            start += size
        queue = (
            Step("setup", 0), Step("setup", 1), Step("shuffle", 0), Step("shuffle", 1),
            Step("deal", 0, HAND_SIZE), Step("deal", 1, HAND_SIZE), Step("mark", SYSTEM),
        )
        return RiderState(players=(players[0], players[1]), queue=queue, next_handle=start)

    def new_game(self, decks: Sequence[Sequence[str]], *, check_decks: bool = True) -> tuple[RiderState, tuple[Knowledge, ...]]:
        """Start a game from each seat's deck (card ids, in the owner's private order).

        Returns the public state and each seat's private knowledge of its own
        deck. The order of ``decks[i]`` fixes which handle is which card before
        the shuffle; only seat ``i`` may know it (a networked driver must feed a
        private order). Deck construction is checked with engine.rider.deck.
        """
        problems: list[str] = []
        for seat, deck in enumerate(decks):
            for cid in deck:
                if cid not in self.table:
                    problems.append(f"seat {seat}: card {cid!r} is not in card set {self.cardset.id!r}")
            if check_decks and not problems:
                problems.extend(f"seat {seat}: {p}" for p in deck_problems(self.cardset, deck))
            lv1 = sum(1 for cid in deck if cid in self.table and self.table[cid].lv1)
            if lv1 < SETUP_COLUMNS:
                problems.append(f"seat {seat}: a deck needs at least {SETUP_COLUMNS} Lv.1 cards to set up")
        if problems:
            raise DeckError(problems)
        state = self.initial_state(decks)
        knowledge = []
        for seat, deck in enumerate(decks):
            handles = state.players[seat].deck
            knowledge.append(Knowledge(seat).learn(zip(handles, deck)))
        return state, tuple(knowledge)

    # --- the Game protocol ----------------------------------------------------

    def pending(self, state: RiderState) -> Pending | None:
        if not state.queue:
            return None
        step = state.queue[0]
        kind = step.kind
        seat = step.seat
        if kind in ("main", "attack", "discard", "setup"):
            key = (seat, kind)
            found = self._decisions.get(key)
            if found is None:
                found = self._decisions[key] = Decision(seat, "rider." + kind)
            return found
        if kind == "deal":
            deck = state.players[seat].deck
            return HiddenOp("deal", f"deck:{seat}", deck[: step.n], to_seat=seat)
        if kind == "shuffle":
            return HiddenOp("shuffle", f"deck:{seat}", state.players[seat].deck)
        if kind == "flip":
            handle = state.players[seat].columns[COLUMN_INDEX[step.arg]].facedown
            assert handle is not None
            return HiddenOp("reveal", f"columns:{seat}", (handle,))
        if kind == "peek":
            deck = state.players[seat].deck
            return HiddenOp("show_to", f"deck:{seat}", deck[: step.n], to_seat=seat)
        if kind == "mark":
            options = tuple(
                tuple(COLUMNS[i] for i, c in enumerate(p.columns) if c.facedown is not None) for p in state.players
            )
            return SealedChoice((0, 1), "rider.battle_mark", options)
        if kind == "rps":
            return SealedChoice((0, 1), "rider.rps", (RPS, RPS))
        raise AssertionError(f"unsettled step {step}")  # pragma: no cover

    def public(self, state: RiderState) -> Any:
        return public_data(state)

    def zone(self, state: RiderState, name: str) -> tuple[int, ...]:
        """Handles of a hidden zone: ``deck:S``, ``hand:S`` or ``columns:S`` (face-down cards)."""
        kind, _, seat_text = name.partition(":")
        if seat_text not in ("0", "1") or kind not in ("deck", "hand", "columns"):
            raise IllegalAction(f"unknown zone {name!r}; use deck:S, hand:S or columns:S with S = 0 or 1")
        player = state.players[int(seat_text)]
        if kind == "deck":
            return player.deck
        if kind == "hand":
            return player.hand
        return tuple(c.facedown for c in player.columns if c.facedown is not None)

    def open_cards(self, state: RiderState) -> Mapping[int, str]:
        """Handles in hidden zones whose card everyone knows (recovered cards, a
        discard pile about to be shuffled into a deck). Drivers use it to learn them."""
        return dict(state.open_cards)

    def outcome(self, state: RiderState) -> Outcome | None:
        return Outcome(state.winner, state.reason) if state.reason else None

    def view(self, state: RiderState, seat: int, knowledge: Knowledge) -> Any:
        """Public data plus what ``seat`` knows about its own hidden cards."""
        data = public_data(state)
        opened = dict(state.open_cards)
        player = state.players[seat]
        data["seat"] = seat
        data["hand_cards"] = [[h, knowledge.card(h) or opened.get(h)] for h in player.hand]
        data["facedown_cards"] = [
            None if c.facedown is None else knowledge.card(c.facedown) for c in player.columns
        ]
        data["known_deck"] = [[i, knowledge.card(h)] for i, h in enumerate(player.deck) if knowledge.knows(h)]
        return data

    # --- applying inputs --------------------------------------------------------

    def apply(self, state: RiderState, action: Action) -> RiderState:
        """The next state, or a typed error (and nothing built)."""
        if state.reason:
            raise GameOver(f"the game is over ({state.reason}); start a new game to play again")
        check_answer_matches(self.pending(state), action)
        step = state.queue[0]
        handler = STEPS.handler(step.kind, type(action))
        if handler is None:
            raise WrongInputKind(
                f"{type(action).__name__} does not answer the current step {step.kind!r}; "
                f"ask legal_actions for what is allowed now",
                rule="rider.3",
            )
        return self._settle(handler(self, state, step, action))

    # --- automatic steps --------------------------------------------------------

    def settle(self, state: RiderState) -> RiderState:
        """Run automatic steps until the state waits for input (used by position builders)."""
        return check_win(self._settle(state))

    def _settle(self, s: RiderState) -> RiderState:
        return settle(s, self._run_next, rule="rider.guard")

    def _run_next(self, s: RiderState) -> RiderState | None:
        """The state after the head step when it runs by itself; None when the state waits.
        A waiting step with nothing to wait for (``_ready``) is dropped."""
        if not s.queue or s.reason:
            return None
        step = s.queue[0]
        if not STEPS.defines(step.kind):
            raise IllegalAction(f"the queue holds a step kind no rule defines: {step.kind!r} (an engine fault)",
                                rule="rider.guard")
        automatic = STEPS.automatic(step.kind)
        if automatic is not None:
            return automatic(self, s, step)
        if self._ready(s, step):
            return None
        return s._replace(queue=s.queue[1:])

    def _ready(self, s: RiderState, step: Step) -> bool:
        """False when a waiting step has nothing to wait for and is skipped."""
        kind = step.kind
        if kind == "attack":
            return bool(attack_options(self.table, s, step.seat))
        if kind == "discard":
            return step.n > 0 and bool(s.players[step.seat].hand)
        if kind == "peek":
            return step.n > 0 and bool(s.players[step.seat].deck)
        if kind == "flip":
            return s.players[step.seat].columns[COLUMN_INDEX[step.arg]].facedown is not None
        if kind == "deal":
            return step.n > 0 and bool(s.players[step.seat].deck)
        return True

    def _auto_turn(self, s: RiderState, step: Step) -> RiderState:
        """Start ``step.seat``'s turn: draw, one main action, attacks, end (rider.2-3, 6)."""
        turn = s.turn + 1
        if turn > TURN_LIMIT:
            return s._replace(queue=(), turn=s.turn, winner=None, reason="draw: turn limit reached (rider.10)")
        seat = step.seat
        queue = (Step("draw", seat), Step("main", seat), Step("attack", seat), Step("end", seat))
        return s._replace(queue=queue + s.queue[1:], turn=turn, active=seat, attacks=(0, 0, 0))

    def _auto_end(self, s: RiderState, step: Step) -> RiderState:
        """End of turn; a double-attack column that attacked once pays its cost now (rider.15)."""
        seat = step.seat
        p = s.players[seat]
        for i, used in enumerate(s.attacks):
            if used and used < attacks_allowed(self.table, p.columns[i]):
                col, gone = strip_attacker(p.columns[i])
                p = with_column(p, i, col)._replace(discard=p.discard + gone)
        return s._replace(players=with_player(s, seat, p), queue=(Step("turn", other(seat)),) + s.queue[1:])

    def _auto_draw(self, s: RiderState, step: Step) -> RiderState:
        """rider.2: draw one; an empty deck is refilled by shuffling the discard pile."""
        seat = step.seat
        p = s.players[seat]
        rest = s.queue[1:]
        if p.deck:
            return s._replace(queue=(Step("deal", seat, 1),) + rest)
        if not p.discard:
            return s._replace(queue=rest)
        start = s.next_handle
        handles = tuple(range(start, start + len(p.discard)))
        opened = s.open_cards + tuple(zip(handles, p.discard))
        p = p._replace(deck=handles, discard=())
        return s._replace(
            players=with_player(s, seat, p), next_handle=start + len(handles), open_cards=opened,
            queue=(Step("shuffle", seat), Step("deal", seat, 1)) + rest,
        )

    def _auto_first(self, s: RiderState, step: Step) -> RiderState:
        """rider.1: compare the flipped battle marks; a tie goes to plain RPS."""
        marks = []
        for seat in (0, 1):
            col = s.players[seat].columns[COLUMN_INDEX[s.marks[seat]]]
            marks.append(MARK_AS_RPS[self.table[col.cards[0][0]].card.mark])
        winner = _rps_winner(marks[0], marks[1])
        head = Step("rps", SYSTEM) if winner is None else Step("turn", winner)
        return s._replace(queue=(head,) + s.queue[1:])

    # --- answers from the driver --------------------------------------------------

    def _on_shuffled(self, s: RiderState, step: Step, action: Action) -> RiderState:
        p = s.players[step.seat]
        old = set(p.deck)
        start = s.next_handle
        fresh = tuple(range(start, start + len(p.deck)))
        opened = tuple(o for o in s.open_cards if o[0] not in old)
        p = p._replace(deck=fresh)
        return s._replace(
            players=with_player(s, step.seat, p), next_handle=start + len(fresh), open_cards=opened,
            queue=s.queue[1:],
        )

    def _on_dealt(self, s: RiderState, step: Step, action: Action) -> RiderState:
        p = s.players[step.seat]
        p = p._replace(deck=p.deck[step.n:], hand=p.hand + p.deck[: step.n])
        return s._replace(players=with_player(s, step.seat, p), queue=s.queue[1:])

    def _on_shown(self, s: RiderState, step: Step, action: Action) -> RiderState:
        return s._replace(queue=s.queue[1:])

    def _on_revealed(self, s: RiderState, step: Step, action: CardsRevealed) -> RiderState:
        """A face-down Lv.1 turned face up; anything but a Lv.1 card is cheating (rider.0)."""
        card = action.cards[0]
        info = self.table.get(card)
        if info is None or not info.lv1:
            raise CheatDetected(
                f"the face-down card in column {step.arg} was claimed as a Lv.1 card but is {card!r}",
                seat=step.seat, rule="rider.0",
            )
        p = s.players[step.seat]
        index = COLUMN_INDEX[step.arg]
        col = p.columns[index]
        p = with_column(p, index, col._replace(facedown=None, cards=((card, 1),)))
        return s._replace(players=with_player(s, step.seat, p), queue=s.queue[1:])

    def _on_sealed(self, s: RiderState, step: Step, action: SealedChoicesRevealed) -> RiderState:
        if step.kind == "mark":
            c0, c1 = action.choices
            queue = (Step("flip", 0, 0, c0), Step("flip", 1, 0, c1), Step("first", SYSTEM))
            return s._replace(marks=(c0, c1), queue=queue + s.queue[1:])
        winner = _rps_winner(action.choices[0], action.choices[1])
        head = Step("rps", SYSTEM) if winner is None else Step("turn", winner)
        return s._replace(queue=(head,) + s.queue[1:])

    # --- seat decisions -----------------------------------------------------------

    def _on_setup(self, s: RiderState, step: Step, action: SetUp) -> RiderState:
        """rider.0: three distinct cards of the seat's own deck go face down in A, B, C."""
        p = s.players[step.seat]
        handles = action.handles
        if len(handles) != SETUP_COLUMNS or len(set(handles)) != SETUP_COLUMNS:
            raise IllegalAction("set-up needs three different Lv.1 cards from your deck, one for each of columns A, B and C", rule="rider.0")
        deck = set(p.deck)
        for h in handles:
            if h not in deck:
                raise IllegalAction(f"card handle {h} is not in your deck; choose three cards from your own deck", rule="rider.0")
        cols = (Column(facedown=handles[0]), Column(facedown=handles[1]), Column(facedown=handles[2]))
        chosen = set(handles)
        p = p._replace(columns=cols, deck=tuple(h for h in p.deck if h not in chosen))
        return s._replace(players=with_player(s, step.seat, p), queue=s.queue[1:])

    def _take_from_hand(self, s: RiderState, seat: int, handle: int, card: str, rule: str) -> tuple[Player, tuple[tuple[int, str], ...]]:
        """Check a claimed hand card and remove it from the hand (public checks only)."""
        p = s.players[seat]
        if handle not in p.hand:
            raise IllegalAction(
                f"{card} (card handle {handle}) is not in your hand; choose a card you hold", rule=rule
            )
        if card not in self.table:
            raise IllegalAction(f"card {card!r} is not in card set {self.cardset.id!r}", rule=rule)
        opened = s.open_cards
        for h, known in opened:
            if h == handle:
                if known != card:
                    raise CheatDetected(f"hand card {handle} is {known!r}, not {card!r}", seat=seat, rule=rule)
                opened = tuple(o for o in opened if o[0] != handle)
                break
        return p._replace(hand=tuple(h for h in p.hand if h != handle)), opened

    def _on_level_up(self, s: RiderState, step: Step, action: LevelUp) -> RiderState:
        seat = step.seat
        index = _column(action.column, "rider.4")
        info = self.table.get(action.card)
        if info is None:
            raise IllegalAction(f"card {action.card!r} is not in card set {self.cardset.id!r}", rule="rider.4")
        col = s.players[seat].columns[index]
        if col.facedown is not None:
            raise IllegalAction(f"column {action.column} is face down: open it before levelling it up", rule="rider.4")
        refused = placement_why(self.table, info, col, action.column, len(s.players[other(seat)].lost), action.level)
        if refused is not None:  # the error keeps the rule of the action (the Why may name a finer one)
            raise IllegalAction(message(refused), rule="rider.12" if refused.key == "fallen" else "rider.4")
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.4")
        if info.lv0:
            col = col._replace(zero=action.card)
        else:
            col = col._replace(cards=col.cards + ((action.card, action.level),))
        p = with_column(p, index, col)
        placed = s._replace(players=with_player(s, seat, p), open_cards=opened)
        effects = effect_steps(self.table, placed, seat, info, action.targets)
        return placed._replace(queue=effects + s.queue[1:])

    def _on_renew(self, s: RiderState, step: Step, action: Renew) -> RiderState:
        """rider.3: a Lv.1 card face up in a column whose Lv.1 was destroyed."""
        seat = step.seat
        index = _column(action.column, "rider.3")
        col = s.players[seat].columns[index]
        if col.facedown is not None or col.cards:
            raise IllegalAction(message(Why("not_fallen", "rider.3", (("column", action.column),))), rule="rider.3")
        info = self.table.get(action.card)
        if info is None or not info.lv1:
            refused = Why("renew_lv1", "rider.3", (("card", action.card), ("column", action.column)))
            raise IllegalAction(message(refused), rule="rider.3")
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.3")
        p = with_column(p, index, col._replace(cards=((action.card, 1),)))
        return s._replace(players=with_player(s, seat, p), open_cards=opened, queue=s.queue[1:])

    def _on_open(self, s: RiderState, step: Step, action: OpenColumn) -> RiderState:
        """rider.3: discard a hand card, then reveal a face-down Lv.1."""
        seat = step.seat
        index = _column(action.column, "rider.3")
        if s.players[seat].columns[index].facedown is None:
            raise IllegalAction(f"column {action.column} is not face down; open one of your face-down columns", rule="rider.3")
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.3")
        p = p._replace(discard=p.discard + (action.card,))
        return s._replace(
            players=with_player(s, seat, p), open_cards=opened,
            queue=(Step("flip", seat, 0, action.column),) + s.queue[1:],
        )

    def _on_pass(self, s: RiderState, step: Step, action: Pass) -> RiderState:
        """rider.3: pass only when nothing else is possible; discard one card if any.

        The engine checks what is public (an empty hand, a face-down column, the
        discarded card itself); whether *another* hidden hand card was playable
        can only be checked by the seat's own legal-action list and the
        networked end-of-game audit (rider.14).
        """
        seat = step.seat
        p = s.players[seat]
        if not p.hand:
            if action.handle is not None or action.card is not None:
                raise IllegalAction("your hand is empty: pass without naming a card", rule="rider.3")
            return s._replace(queue=s.queue[1:])
        if action.handle is None or action.card is None:
            raise IllegalAction("passing discards one hand card: name the card to discard", rule="rider.3")
        # public checks only: the named card and the face-down columns (see check_private)
        if action.card not in self.table:
            raise IllegalAction(f"card {action.card!r} is not in card set {self.cardset.id!r}", rule="rider.3")
        refused = pass_why(self.table, s, seat, Knowledge(seat).learn([(action.handle, action.card)]))
        if refused is not None:
            raise IllegalAction(message(refused), rule=refused.rule)
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.3")
        p = p._replace(discard=p.discard + (action.card,))
        return s._replace(players=with_player(s, seat, p), open_cards=opened, queue=s.queue[1:])

    def pass_problem(self, state: RiderState, seat: int, hand: Mapping[int, str]) -> str | None:
        """Audit a pass (rider.14): why it was not forced, given the seat's whole hand, or None.

        ``state`` is the state in which ``seat`` passed and ``hand`` its opened
        hand there (handle -> card id). The reducer cannot see the hidden hand,
        so a networked end-of-game audit calls this for every pass once the
        hands are opened.
        """
        refused = pass_why(self.table, state, seat, Knowledge(seat).learn(hand.items()))
        if refused is None:
            return None
        facts = refused.fields()
        could = f"{facts['move']} with {facts['card']}" if refused.key == "pass_playable" else "open a face-down column"
        return (f"seat {seat} passed in turn {state.turn} although it could {could} "
                f"(rule rider.3: pass only when nothing else is possible)")

    def check_private(self, state: RiderState, action: Action, knowledge: Knowledge) -> None:
        """Refuse what the public reducer cannot see but the acting seat can (rider.3, rider.14).

        A pass that discards a card while another card in the seat's hand could
        be played is legal as far as the public state shows; the seat itself
        knows its hand, so its own table refuses such a pass at once with this
        check (the local table, and a networked session for its own seat).
        The opponent's passes are judged by the end-of-game audit
        (:meth:`pass_problem`)."""
        if isinstance(action, Pass) and state.queue and state.queue[0].kind == "main":
            refused = pass_why(self.table, state, action.seat, knowledge)
            if refused is not None:
                raise IllegalAction(message(refused), rule=refused.rule)

    def why_not(self, state: RiderState, seat: int, knowledge: Knowledge | None, *, card: str | None = None,
                column: int | None = None, target: int | None = None, passing: bool = False) -> Why | None:
        """Why a gesture is not allowed now (a hand card onto one of the seat's columns,
        a column attacking, an attack on a target, a pass), or None: one place for
        the reasons a table shows a player. Rules as in the reducer (engine.rider.why)."""
        return gesture_why(self.table, state, seat, knowledge, card=card, column=column, target=target,
                           passing=passing)

    def _on_discard(self, s: RiderState, step: Step, action: Discard) -> RiderState:
        """Instant opponent_discards: the affected seat discards cards one at a time."""
        seat = step.seat
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.19")
        p = p._replace(discard=p.discard + (action.card,))
        rest = s.queue[1:]
        if step.n > 1:
            rest = (step._replace(n=step.n - 1),) + rest
        return s._replace(players=with_player(s, seat, p), open_cards=opened, queue=rest)

    def _on_attack(self, s: RiderState, step: Step, action: Attack) -> RiderState:
        """rider.6-9: one column attacks one face-up opposing column."""
        seat = step.seat
        i = _column(action.column, "rider.6")
        j = _column(action.target, "rider.6")
        refused = attack_why(self.table, s, seat, i, j)
        if refused is not None:
            raise IllegalAction(message(refused), rule="rider.6")
        me = s.players[seat]
        them = s.players[other(seat)]
        # rider.15: a column allowed two attacks pays its own cost after the second.
        pays = s.attacks[i] + 1 >= attacks_allowed(self.table, me.columns[i])
        battle = resolve_attack(self.table, me.columns[i], them.columns[j], attacker_pays=pays)
        me = with_column(me, i, battle.attacker)._replace(discard=me.discard + battle.attacker_discarded)
        them = with_column(them, j, battle.defender)._replace(
            discard=them.discard + battle.defender_discarded, lost=them.lost + battle.defender_lost
        )
        attacks = list(s.attacks)
        attacks[i] += 1
        players = (me, them) if seat == 0 else (them, me)
        return check_win(s._replace(players=players, attacks=(attacks[0], attacks[1], attacks[2])))

    def _on_end_attacks(self, s: RiderState, step: Step, action: Action) -> RiderState:
        return s._replace(queue=s.queue[1:])

    # --- legal actions ----------------------------------------------------------

    def legal_actions(self, state: RiderState, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        """Every action ``seat`` may take now (engine/rider/legal.py). Hand cards need
        ``knowledge`` (or a public identity); without it only card-free actions are listed."""
        return legal_actions(self.table, state, seat, knowledge)

    def upcoming_setups(self, state: RiderState, seat: int, knowledge: Knowledge) -> list[SetUp]:
        """The set-ups ``seat`` will be offered once its set-up step comes, while the other
        seat still places (rider.0): they rest only on its own deck, which nothing before its
        step changes, so a person can arrange its columns while it waits. [] when its set-up
        is not queued behind the head (already placed, or its turn now: ask legal_actions)."""
        for index, step in enumerate(state.queue):
            if step.kind == "setup" and step.seat == seat:
                if index == 0:
                    return []
                ahead = legal_actions(self.table, state._replace(queue=state.queue[index:]), seat, knowledge)
                return [a for a in ahead if isinstance(a, SetUp)]
        return []


def _rps_winner(seat0: str, seat1: str) -> int | None:
    if seat0 == seat1:
        return None
    return 0 if BEATS[seat0] == seat1 else 1


def deck_problems(cardset: CardSet, deck: Iterable[str]) -> list[str]:
    """Deck-construction problems of a deck list (engine.rider.deck.check_deck); [] if legal."""
    counts: dict[str, int] = {}
    for cid in deck:
        counts[cid] = counts.get(cid, 0) + 1
    return list(check_deck(cardset, counts))


_check_deck = deck_problems  # older name, still used by net.session.plan


#: What each Rider step kind does (engine/core/flow.py): the waiting kinds and what answers
#: them, then the automatic kinds, card effects included (engine/rider/effects.py).
Handler = Callable[..., RiderState]  # (game, state, step, the action type it answers)
Auto = Callable[[RiderGame, RiderState, Step], RiderState]
STEPS: StepTable[str, Handler, Auto] = StepTable("rider")
STEPS.waits("setup", {SetUp: RiderGame._on_setup})
STEPS.waits("shuffle", {CardsShuffled: RiderGame._on_shuffled})
STEPS.waits("deal", {CardsDealt: RiderGame._on_dealt})
STEPS.waits("peek", {CardsShownTo: RiderGame._on_shown})
STEPS.waits("flip", {CardsRevealed: RiderGame._on_revealed})
STEPS.waits("mark", {SealedChoicesRevealed: RiderGame._on_sealed})
STEPS.waits("rps", {SealedChoicesRevealed: RiderGame._on_sealed})
STEPS.waits("main", {LevelUp: RiderGame._on_level_up, Renew: RiderGame._on_renew,
                     OpenColumn: RiderGame._on_open, Pass: RiderGame._on_pass})
STEPS.waits("discard", {Discard: RiderGame._on_discard})
STEPS.waits("attack", {Attack: RiderGame._on_attack, EndAttacks: RiderGame._on_end_attacks})
STEPS.runs("turn", RiderGame._auto_turn)
STEPS.runs("end", RiderGame._auto_end)
STEPS.runs("draw", RiderGame._auto_draw)
STEPS.runs("first", RiderGame._auto_first)


def _effect(run: Callable[[Mapping[str, Info], RiderState, Step], RiderState]) -> Auto:
    return lambda game, s, step: run(game.table, s, step)


for _kind, _run in AUTO_EFFECTS.items():
    STEPS.runs(_kind, _effect(_run))

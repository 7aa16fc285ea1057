"""RiderGame: the complete, rules-enforced Rider reducer (engine.core.game.Game).

How the flow works: the state carries a *queue* of steps (state.Step). The
head of the queue is either something to wait for (a seat's decision, a sealed
choice, a hidden-card operation) or something the engine does by itself (start
a turn, resolve an instant effect, end a turn). After every input the reducer
*settles*: it runs automatic steps until the head waits for input again. So
``pending(state)`` is a pure function of the queue head, and a log of inputs
replays to the same states everywhere.

Turn = draw (rider.2), exactly one main action (rider.3-5), attacks
(rider.6-8), then the other seat's turn. Rule ids refer to docs/rules/rider.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.core.actions import SYSTEM, Action
from engine.core.errors import (
    CheatDetected,
    DeckError,
    GameOver,
    IllegalAction,
    WrongInputKind,
)
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
from engine.rider.rules import (
    Info,
    attacks_allowed,
    can_attack,
    column_power,
    guard_of,
    info_table,
    placement_levels,
    resolve_attack,
    strip_attacker,
)
from engine.rider.state import (
    COLUMN_INDEX,
    COLUMNS,
    EMPTY_COLUMNS,
    Column,
    Player,
    RiderState,
    Step,
    public_data,
)

RULES_ID = "rider/1"
HAND_SIZE = 5  # rider.0: opening hand
SETUP_COLUMNS = 3
WIN_LOST = 3  # rider.9
TURN_LIMIT = 300  # rider.10
RPS = ("rock", "paper", "scissors")
#: Battle marks as rock-paper-scissors (rider.1).
MARK_AS_RPS = {"sword": "scissors", "feather": "paper", "rock": "rock"}
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}

#: Step kinds that wait for input; every other kind is run by ``_settle``.
_WAITING = frozenset({"setup", "shuffle", "deal", "mark", "flip", "rps", "main", "discard", "peek", "attack"})
#: Effects whose target is chosen in the level-up action, and what they target.
_TARGETED = {
    "destroy_top": "opposing column",
    "destroy_level0": "opposing column",
    "recover": "card in own discard pile",
    "flip_facedown": "own face-down column",
    "rescue_lost": "card in own Lost pile",
}


def _other(seat: int) -> int:
    return 1 - seat


def _with_player(state: RiderState, seat: int, player: Player) -> tuple[Player, Player]:
    return (player, state.players[1]) if seat == 0 else (state.players[0], player)


def _with_column(player: Player, index: int, col: Column) -> Player:
    cols = list(player.columns)
    cols[index] = col
    return player._replace(columns=(cols[0], cols[1], cols[2]))


def _remove_one(pile: tuple[str, ...], card: str) -> tuple[str, ...]:
    """Remove the most recent copy of ``card`` from a pile."""
    i = len(pile) - 1 - pile[::-1].index(card)
    return pile[:i] + pile[i + 1:]


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
        if len(decks) != 2:
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
                problems.extend(f"seat {seat}: {p}" for p in _check_deck(self.cardset, deck))
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
        handler = _HANDLERS.get((step.kind, type(action)))
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
        return _check_win(self._settle(state))

    def _settle(self, s: RiderState) -> RiderState:
        while s.queue and not s.reason:
            step = s.queue[0]
            kind = step.kind
            if kind in _WAITING:
                if self._ready(s, step):
                    return s
                s = s._replace(queue=s.queue[1:])
                continue
            s = _AUTO[kind](self, s, step)
        return s

    def _ready(self, s: RiderState, step: Step) -> bool:
        """False when a waiting step has nothing to wait for and is skipped."""
        kind = step.kind
        if kind == "attack":
            return bool(self._attack_options(s, step.seat))
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
                p = _with_column(p, i, col)._replace(discard=p.discard + gone)
        return s._replace(players=_with_player(s, seat, p), queue=(Step("turn", _other(seat)),) + s.queue[1:])

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
            players=_with_player(s, seat, p), next_handle=start + len(handles), open_cards=opened,
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

    def _auto_destroy_top(self, s: RiderState, step: Step) -> RiderState:
        """Instant destroy_top: the top card of an opposing column, if low enough."""
        opp = _other(step.seat)
        index = COLUMN_INDEX[step.arg]
        p = s.players[opp]
        col = p.columns[index]
        s = s._replace(queue=s.queue[1:])
        if not col.cards or col.top_level > step.n:
            return s
        cid, level = col.cards[-1]
        p = _with_column(p, index, col._replace(cards=col.cards[:-1]))
        p = p._replace(lost=p.lost + (cid,)) if level == 1 else p._replace(discard=p.discard + (cid,))
        return _check_win(s._replace(players=_with_player(s, opp, p)))

    def _auto_destroy_level0(self, s: RiderState, step: Step) -> RiderState:
        opp = _other(step.seat)
        index = COLUMN_INDEX[step.arg]
        p = s.players[opp]
        col = p.columns[index]
        s = s._replace(queue=s.queue[1:])
        if col.zero is None:
            return s
        p = _with_column(p, index, col._replace(zero=None))
        p = p._replace(discard=p.discard + (col.zero,))
        return s._replace(players=_with_player(s, opp, p))

    def _auto_recover(self, s: RiderState, step: Step) -> RiderState:
        """Instant recover: a discarded card back to hand, as a handle everyone can name."""
        p = s.players[step.seat]
        s = s._replace(queue=s.queue[1:])
        if step.arg not in p.discard:
            return s
        handle = s.next_handle
        p = p._replace(discard=_remove_one(p.discard, step.arg), hand=p.hand + (handle,))
        return s._replace(
            players=_with_player(s, step.seat, p), next_handle=handle + 1,
            open_cards=s.open_cards + ((handle, step.arg),),
        )

    def _auto_rescue_lost(self, s: RiderState, step: Step) -> RiderState:
        p = s.players[step.seat]
        s = s._replace(queue=s.queue[1:])
        if step.arg not in p.lost:
            return s
        p = p._replace(lost=_remove_one(p.lost, step.arg), discard=p.discard + (step.arg,))
        return s._replace(players=_with_player(s, step.seat, p))

    # --- answers from the driver --------------------------------------------------

    def _on_shuffled(self, s: RiderState, step: Step, action: Action) -> RiderState:
        p = s.players[step.seat]
        old = set(p.deck)
        start = s.next_handle
        fresh = tuple(range(start, start + len(p.deck)))
        opened = tuple(o for o in s.open_cards if o[0] not in old)
        p = p._replace(deck=fresh)
        return s._replace(
            players=_with_player(s, step.seat, p), next_handle=start + len(fresh), open_cards=opened,
            queue=s.queue[1:],
        )

    def _on_dealt(self, s: RiderState, step: Step, action: Action) -> RiderState:
        p = s.players[step.seat]
        p = p._replace(deck=p.deck[step.n:], hand=p.hand + p.deck[: step.n])
        return s._replace(players=_with_player(s, step.seat, p), queue=s.queue[1:])

    def _on_shown(self, s: RiderState, step: Step, action: Action) -> RiderState:
        return s._replace(queue=s.queue[1:])

    def _on_revealed(self, s: RiderState, step: Step, action: Action) -> RiderState:
        """A face-down Lv.1 turned face up; anything but a Lv.1 card is cheating (rider.0)."""
        assert isinstance(action, CardsRevealed)
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
        p = _with_column(p, index, col._replace(facedown=None, cards=((card, 1),)))
        return s._replace(players=_with_player(s, step.seat, p), queue=s.queue[1:])

    def _on_sealed(self, s: RiderState, step: Step, action: Action) -> RiderState:
        assert isinstance(action, SealedChoicesRevealed)
        if step.kind == "mark":
            c0, c1 = action.choices
            queue = (Step("flip", 0, 0, c0), Step("flip", 1, 0, c1), Step("first", SYSTEM))
            return s._replace(marks=(c0, c1), queue=queue + s.queue[1:])
        winner = _rps_winner(action.choices[0], action.choices[1])
        head = Step("rps", SYSTEM) if winner is None else Step("turn", winner)
        return s._replace(queue=(head,) + s.queue[1:])

    # --- seat decisions -----------------------------------------------------------

    def _on_setup(self, s: RiderState, step: Step, action: Action) -> RiderState:
        """rider.0: three distinct cards of the seat's own deck go face down in A, B, C."""
        assert isinstance(action, SetUp)
        p = s.players[step.seat]
        handles = action.handles
        if len(handles) != SETUP_COLUMNS or len(set(handles)) != SETUP_COLUMNS:
            raise IllegalAction("set-up needs three different cards, one for each column", rule="rider.0")
        deck = set(p.deck)
        for h in handles:
            if h not in deck:
                raise IllegalAction(f"card handle {h} is not in your deck", rule="rider.0")
        cols = (Column(facedown=handles[0]), Column(facedown=handles[1]), Column(facedown=handles[2]))
        chosen = set(handles)
        p = p._replace(columns=cols, deck=tuple(h for h in p.deck if h not in chosen))
        return s._replace(players=_with_player(s, step.seat, p), queue=s.queue[1:])

    def _take_from_hand(self, s: RiderState, seat: int, handle: int, card: str, rule: str) -> tuple[Player, tuple[tuple[int, str], ...]]:
        """Check a claimed hand card and remove it from the hand (public checks only)."""
        p = s.players[seat]
        if handle not in p.hand:
            raise IllegalAction(f"card handle {handle} is not in your hand", rule=rule)
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

    def _on_level_up(self, s: RiderState, step: Step, action: Action) -> RiderState:
        assert isinstance(action, LevelUp)
        seat = step.seat
        index = _column(action.column, "rider.4")
        info = self.table.get(action.card)
        if info is None:
            raise IllegalAction(f"card {action.card!r} is not in card set {self.cardset.id!r}", rule="rider.4")
        col = s.players[seat].columns[index]
        if col.facedown is not None:
            raise IllegalAction(f"column {action.column} is face down: open it before levelling it up", rule="rider.4")
        if not col.cards:
            raise IllegalAction(
                f"column {action.column} lost its Lv.1: renew it with a Lv.1 card before levelling it up", rule="rider.12"
            )
        levels = placement_levels(self.table, info, col, len(s.players[_other(seat)].lost))
        if action.level not in levels:
            raise IllegalAction(self._placement_problem(info, col, action, s), rule="rider.4")
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.4")
        if info.lv0:
            col = col._replace(zero=action.card)
        else:
            col = col._replace(cards=col.cards + ((action.card, action.level),))
        p = _with_column(p, index, col)
        placed = s._replace(players=_with_player(s, seat, p), open_cards=opened)
        effects = self._effect_steps(placed, seat, info, action.targets)
        return placed._replace(queue=effects + s.queue[1:])

    def _placement_problem(self, info: Info, col: Column, action: LevelUp, s: RiderState) -> str:
        opp_lost = len(s.players[_other(action.seat)].lost)
        if info.min_lost >= 0 and opp_lost < info.min_lost:
            return f"{action.card} needs at least {info.min_lost} opposing Lv.1 cards in Lost (there are {opp_lost})"
        if info.lv0:
            return f"column {action.column} already holds a Lv.0 card" if col.zero else f"{action.card} is a Lv.0 card: use level 0"
        top = col.top_level
        return (
            f"{action.card} (levels {list(info.levels)}, {info.attribute}) cannot be placed as Lv.{action.level} on "
            f"column {action.column} (top Lv.{top}, {self.table[col.cards[-1][0]].attribute}); it needs level "
            f"{top + 1} and the same attribute unless one of them is free"
        )

    def _targets_for(self, s: RiderState, seat: int, effect_type: str, param: int) -> tuple[str, ...]:
        """Valid targets of a targeted instant effect (rider.13), in a stable order."""
        if effect_type == "destroy_top":
            them = s.players[_other(seat)]
            return tuple(COLUMNS[i] for i, c in enumerate(them.columns) if c.cards and c.top_level <= param)
        me = s.players[seat]
        if effect_type == "recover":
            return tuple(sorted({cid for cid in me.discard if max(self.table[cid].levels) <= param}))
        if effect_type == "destroy_level0":
            them = s.players[_other(seat)]
            return tuple(COLUMNS[i] for i, c in enumerate(them.columns) if c.zero is not None)
        if effect_type == "flip_facedown":
            return tuple(COLUMNS[i] for i, c in enumerate(me.columns) if c.facedown is not None)
        if effect_type == "rescue_lost":
            return tuple(sorted(set(me.lost)))
        return ()

    def _effect_steps(self, s: RiderState, seat: int, info: Info, targets: tuple[str, ...]) -> tuple[Step, ...]:
        """rider.5 and rider.13: queue the instant effects of a levelled-up card, in card order."""
        instants = [e for e in info.card.effects if e.when == "instant"]
        if len(targets) != len(instants):
            raise IllegalAction(
                f"{info.card.id} has {len(instants)} instant effects; give one target per effect (\"\" for none)",
                rule="rider.13",
            )
        steps: list[Step] = []
        for effect, target in zip(instants, targets):
            kind = effect.type
            if kind in _TARGETED:
                param = effect.max_level
                valid = self._targets_for(s, seat, kind, param)
                if target == "" and valid:
                    raise IllegalAction(f"{kind} must target one of {list(valid)}", rule="rider.13")
                if target != "" and target not in valid:
                    raise IllegalAction(
                        f"{target!r} is not a valid target for {kind} ({_TARGETED[kind]}); valid: {list(valid)}",
                        rule="rider.13",
                    )
                if target == "":
                    continue
                steps.append(Step("flip" if kind == "flip_facedown" else kind, seat, param, target))
                continue
            if target != "":
                raise IllegalAction(f"{kind} takes no target; give \"\"", rule="rider.13")
            if kind == "draw":
                steps.extend(Step("draw", seat) for _ in range(effect.count))
            elif kind == "opponent_discards":
                steps.append(Step("discard", _other(seat), effect.count))
            elif kind == "peek":
                steps.append(Step("peek", seat, min(effect.count, len(s.players[seat].deck))))
            else:  # pragma: no cover - cards.py validates effect types
                raise IllegalAction(f"unknown instant effect {kind!r}", rule="rider.13")
        return tuple(steps)

    def _on_renew(self, s: RiderState, step: Step, action: Action) -> RiderState:
        """rider.3: a Lv.1 card face up in a column whose Lv.1 was destroyed."""
        assert isinstance(action, Renew)
        seat = step.seat
        index = _column(action.column, "rider.3")
        col = s.players[seat].columns[index]
        if col.facedown is not None or col.cards:
            raise IllegalAction(f"column {action.column} still has its Lv.1; renew needs a column that lost it", rule="rider.3")
        info = self.table.get(action.card)
        if info is None or not info.lv1:
            raise IllegalAction(f"renewing a column needs a Lv.1 card, not {action.card!r}", rule="rider.3")
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.3")
        p = _with_column(p, index, col._replace(cards=((action.card, 1),)))
        return s._replace(players=_with_player(s, seat, p), open_cards=opened, queue=s.queue[1:])

    def _on_open(self, s: RiderState, step: Step, action: Action) -> RiderState:
        """rider.3: discard a hand card, then reveal a face-down Lv.1."""
        assert isinstance(action, OpenColumn)
        seat = step.seat
        index = _column(action.column, "rider.3")
        if s.players[seat].columns[index].facedown is None:
            raise IllegalAction(f"column {action.column} is not face down", rule="rider.3")
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.3")
        p = p._replace(discard=p.discard + (action.card,))
        return s._replace(
            players=_with_player(s, seat, p), open_cards=opened,
            queue=(Step("flip", seat, 0, action.column),) + s.queue[1:],
        )

    def _on_pass(self, s: RiderState, step: Step, action: Action) -> RiderState:
        """rider.3: pass only when nothing else is possible; discard one card if any.

        The engine checks what is public (an empty hand, a face-down column, the
        discarded card itself); whether *another* hidden hand card was playable
        can only be checked by the seat's own legal-action list and the
        networked end-of-game audit (rider.14).
        """
        assert isinstance(action, Pass)
        seat = step.seat
        p = s.players[seat]
        if not p.hand:
            if action.handle is not None or action.card is not None:
                raise IllegalAction("your hand is empty: pass without a card", rule="rider.3")
            return s._replace(queue=s.queue[1:])
        if action.handle is None or action.card is None:
            raise IllegalAction("passing discards one hand card: name it", rule="rider.3")
        if any(c.facedown is not None for c in p.columns):
            raise IllegalAction("you can still open a face-down column, so you cannot pass", rule="rider.3")
        info = self.table.get(action.card)
        if info is not None and self._playable(s, seat, info):
            raise IllegalAction(f"{action.card} can be played now, so you cannot pass", rule="rider.3")
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.3")
        p = p._replace(discard=p.discard + (action.card,))
        return s._replace(players=_with_player(s, seat, p), open_cards=opened, queue=s.queue[1:])

    def _playable(self, s: RiderState, seat: int, info: Info) -> bool:
        p = s.players[seat]
        opp_lost = len(s.players[_other(seat)].lost)
        for col in p.columns:
            if info.lv1 and col.facedown is None and not col.cards:
                return True
            if placement_levels(self.table, info, col, opp_lost):
                return True
        return False

    def _on_discard(self, s: RiderState, step: Step, action: Action) -> RiderState:
        """Instant opponent_discards: the affected seat discards cards one at a time."""
        assert isinstance(action, Discard)
        seat = step.seat
        p, opened = self._take_from_hand(s, seat, action.handle, action.card, "rider.19")
        p = p._replace(discard=p.discard + (action.card,))
        rest = s.queue[1:]
        if step.n > 1:
            rest = (step._replace(n=step.n - 1),) + rest
        return s._replace(players=_with_player(s, seat, p), open_cards=opened, queue=rest)

    def _attack_options(self, s: RiderState, seat: int) -> list[tuple[int, int]]:
        """(attacking column, target column) pairs allowed now (rider.6, rider.11, guard)."""
        mine = s.players[seat].columns
        theirs = s.players[_other(seat)].columns
        result = []
        for i, col in enumerate(mine):
            if not can_attack(self.table, col) or s.attacks[i] >= attacks_allowed(self.table, col):
                continue
            power = column_power(self.table, col, "attack")
            for j, target in enumerate(theirs):
                if target.cards and guard_of(self.table, target) <= power:
                    result.append((i, j))
        return result

    def _on_attack(self, s: RiderState, step: Step, action: Action) -> RiderState:
        """rider.6-9: one column attacks one face-up opposing column."""
        assert isinstance(action, Attack)
        seat = step.seat
        i = _column(action.column, "rider.6")
        j = _column(action.target, "rider.6")
        if (i, j) not in self._attack_options(s, seat):
            raise IllegalAction(self._attack_problem(s, seat, i, j), rule="rider.6")
        me = s.players[seat]
        them = s.players[_other(seat)]
        # rider.15: a column allowed two attacks pays its own cost after the second.
        pays = s.attacks[i] + 1 >= attacks_allowed(self.table, me.columns[i])
        battle = resolve_attack(self.table, me.columns[i], them.columns[j], attacker_pays=pays)
        me = _with_column(me, i, battle.attacker)._replace(discard=me.discard + battle.attacker_discarded)
        them = _with_column(them, j, battle.defender)._replace(
            discard=them.discard + battle.defender_discarded, lost=them.lost + battle.defender_lost
        )
        attacks = list(s.attacks)
        attacks[i] += 1
        players = (me, them) if seat == 0 else (them, me)
        return _check_win(s._replace(players=players, attacks=(attacks[0], attacks[1], attacks[2])))

    def _attack_problem(self, s: RiderState, seat: int, i: int, j: int) -> str:
        col = s.players[seat].columns[i]
        target = s.players[_other(seat)].columns[j]
        if not can_attack(self.table, col):
            return f"column {COLUMNS[i]} cannot attack: it needs a standing Lv.1 and a Lv.4 or a card that allows attacking"
        if s.attacks[i] >= attacks_allowed(self.table, col):
            return f"column {COLUMNS[i]} has already attacked this turn"
        if not target.cards:
            return f"opposing column {COLUMNS[j]} is not a face-up column with its Lv.1 and cannot be attacked"
        return f"opposing column {COLUMNS[j]} is guarded against attacks below {guard_of(self.table, target)} power"

    def _on_end_attacks(self, s: RiderState, step: Step, action: Action) -> RiderState:
        return s._replace(queue=s.queue[1:])

    # --- legal actions ----------------------------------------------------------

    def legal_actions(self, state: RiderState, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        """Every action ``seat`` may take now. Hand cards need ``knowledge``
        (or a public identity); without it only card-free actions are listed."""
        if not state.queue or state.reason:
            return []
        step = state.queue[0]
        if step.seat != seat or step.kind not in ("main", "attack", "discard", "setup"):
            return []
        cards = self._known_hand(state, seat, knowledge)
        if step.kind == "attack":
            acts: list[Action] = [Attack(seat, COLUMNS[i], COLUMNS[j]) for i, j in self._attack_options(state, seat)]
            acts.append(EndAttacks(seat))
            return acts
        if step.kind == "discard":
            return [Discard(seat, h, c) for h, c in cards]
        if step.kind == "setup":
            return self._setup_actions(state, seat, knowledge)
        return self._main_actions(state, seat, cards)

    def _known_hand(self, s: RiderState, seat: int, knowledge: Knowledge | None) -> list[tuple[int, str]]:
        opened = dict(s.open_cards) if s.open_cards else {}
        result = []
        for h in s.players[seat].hand:
            card = opened.get(h) or (knowledge.card(h) if knowledge is not None else None)
            if card is not None and card in self.table:
                result.append((h, card))
        return result

    def _setup_actions(self, s: RiderState, seat: int, knowledge: Knowledge | None) -> list[Action]:
        if knowledge is None:
            return []
        lv1 = [h for h in s.players[seat].deck if (c := knowledge.card(h)) is not None and c in self.table and self.table[c].lv1]
        return [SetUp(seat, combo) for combo in itertools.permutations(lv1, SETUP_COLUMNS)]

    def _main_actions(self, s: RiderState, seat: int, cards: list[tuple[int, str]]) -> list[Action]:
        p = s.players[seat]
        opp_lost = len(s.players[_other(seat)].lost)
        acts: list[Action] = []
        for h, c in cards:
            info = self.table[c]
            for i, col in enumerate(p.columns):
                if col.cards:
                    for level in placement_levels(self.table, info, col, opp_lost):
                        for targets in self._target_choices(s, seat, info, i, level):
                            acts.append(LevelUp(seat, COLUMNS[i], h, c, level, targets))
                elif info.lv1 and col.facedown is None:
                    acts.append(Renew(seat, COLUMNS[i], h, c))
        if p.hand:
            for i, col in enumerate(p.columns):
                if col.facedown is not None:
                    acts.extend(OpenColumn(seat, COLUMNS[i], h, c) for h, c in cards)
        if not acts:
            if not p.hand:
                acts.append(Pass(seat, None, None))
            elif not any(c.facedown is not None for c in p.columns):
                acts.extend(Pass(seat, h, c) for h, c in cards)
        return acts

    def _target_choices(self, s: RiderState, seat: int, info: Info, index: int, level: int) -> list[tuple[str, ...]]:
        if not info.instants:
            return [()]
        # Targets are judged with the card already placed (as apply does).
        col = s.players[seat].columns[index]
        col = col._replace(zero=info.card.id) if info.lv0 else col._replace(cards=col.cards + ((info.card.id, level),))
        placed = s._replace(players=_with_player(s, seat, _with_column(s.players[seat], index, col)))
        options: list[tuple[str, ...]] = []
        for effect in info.card.effects:
            if effect.when != "instant":
                continue
            if effect.type in _TARGETED:
                valid = self._targets_for(placed, seat, effect.type, effect.max_level)
                options.append(valid if valid else ("",))
            else:
                options.append(("",))
        return [tuple(t) for t in itertools.product(*options)]


def _rps_winner(seat0: str, seat1: str) -> int | None:
    if seat0 == seat1:
        return None
    return 0 if BEATS[seat0] == seat1 else 1


def _check_win(s: RiderState) -> RiderState:
    """rider.9: three Lost Lv.1 cards end the game at once."""
    for seat in (0, 1):
        if len(s.players[seat].lost) >= WIN_LOST:
            winner = _other(seat)
            return s._replace(queue=(), winner=winner, reason=f"seat {winner} won: three Lv.1 cards of seat {seat} are Lost (rider.9)")
    return s


def _check_deck(cardset: CardSet, deck: Iterable[str]) -> list[str]:
    """Deck construction via engine.rider.deck (written separately); absent -> no check."""
    try:
        from engine.rider.deck import check_deck
    except ImportError:  # pragma: no cover - until the deck module lands
        return []
    counts: dict[str, int] = {}
    for cid in deck:
        counts[cid] = counts.get(cid, 0) + 1
    return list(check_deck(cardset, counts))


_HANDLERS = {
    ("setup", SetUp): RiderGame._on_setup,
    ("shuffle", CardsShuffled): RiderGame._on_shuffled,
    ("deal", CardsDealt): RiderGame._on_dealt,
    ("peek", CardsShownTo): RiderGame._on_shown,
    ("flip", CardsRevealed): RiderGame._on_revealed,
    ("mark", SealedChoicesRevealed): RiderGame._on_sealed,
    ("rps", SealedChoicesRevealed): RiderGame._on_sealed,
    ("main", LevelUp): RiderGame._on_level_up,
    ("main", Renew): RiderGame._on_renew,
    ("main", OpenColumn): RiderGame._on_open,
    ("main", Pass): RiderGame._on_pass,
    ("discard", Discard): RiderGame._on_discard,
    ("attack", Attack): RiderGame._on_attack,
    ("attack", EndAttacks): RiderGame._on_end_attacks,
}

_AUTO = {
    "turn": RiderGame._auto_turn,
    "end": RiderGame._auto_end,
    "draw": RiderGame._auto_draw,
    "first": RiderGame._auto_first,
    "destroy_top": RiderGame._auto_destroy_top,
    "destroy_level0": RiderGame._auto_destroy_level0,
    "recover": RiderGame._auto_recover,
    "rescue_lost": RiderGame._auto_rescue_lost,
}

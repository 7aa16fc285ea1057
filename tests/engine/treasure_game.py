"""Treasure: a tiny three-seat test game that uses every new core feature.

Not a real game; it exists so the engine core's placement, claims, notes and
multi-winner outcome are exercised end to end on a LocalTable.

- Seat 0 (the hider) secretly places "gold" and two "trap"s on three of the nine
  cells a1..c3 (a :class:`Placement`), then discloses the map to seat 1, its
  ally (KMC 1.2.4 style: the base players know the key bases).
- Seats 1 and 2 each get one face-down card from a shuffled three-card deck
  (one heart, two spades).
- Then seats 1 and 2 take turns. On its turn a digger may first *declare*
  its card's suit once (a claim: accepted when the public record allows it,
  i.e. no more seats claim hearts than the deck holds), then digs one
  unopened cell (a placement ``open``).
- Gold ends the game. A trap knocks the digger out (it is "dead" for the
  grade). If both diggers are out, the game ends too. At the end every hand
  is revealed, which is when a networked table would judge the claims.
- Judgement: seat 1 finding the gold wins for the hider and seat 1; seat 2
  finding it wins alone; if nobody finds it the hider wins alone. Grades
  follow KMC 6 (A/B won alive/dead, C/D lost alive/dead).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.core import (
    DRIVER_ANSWERS,
    EMPTY,
    SYSTEM,
    Action,
    ActionCodec,
    CardsDealt,
    CardsRevealed,
    CardsShuffled,
    CellsOpened,
    Claim,
    Decision,
    HiddenOp,
    IllegalAction,
    Knowledge,
    Outcome,
    Pending,
    Placement,
    PlacementDisclosed,
    PlacementMade,
    SeatResult,
    check_answer_matches,
)

RULES_ID = "treasure/test"
CELLS = tuple(f"{col}{row}" for col in "abc" for row in "123")
THINGS = ("gold", "trap", "trap")
DECK = ("heart", "spade", "spade")
HIDER, ALLY, RIVAL = 0, 1, 2
DIGGERS = (ALLY, RIVAL)


@dataclasses.dataclass(frozen=True)
class Declare(Action):
    """Claim that the declarer's face-down card has ``suit``."""

    KIND = "treasure.declare"
    suit: str


@dataclasses.dataclass(frozen=True)
class Dig(Action):
    KIND = "treasure.dig"
    cell: str


@dataclasses.dataclass(frozen=True)
class State:
    step: int  # inputs applied so far (claims record it)
    queue: tuple[str, ...]  # head = what the state waits for
    deck: tuple[int, ...]
    hands: tuple[tuple[int, int], ...]  # (seat, handle)
    cells: tuple[tuple[str, int], ...]  # cell -> handle of the placement, once placed
    opened: tuple[tuple[str, str], ...]  # cell -> content, public once dug
    turn: int  # the digger whose turn it is
    out: tuple[int, ...]  # diggers knocked out by the trap
    declared: tuple[int, ...]  # seats that have declared
    claims: tuple[Claim, ...]
    revealed: tuple[tuple[int, str], ...]  # hand handle -> card, at the end
    finder: int | None
    next_handle: int


class TreasureGame:
    rules_id = RULES_ID
    codec = ActionCodec((Declare, Dig, *DRIVER_ANSWERS))

    def new_game(self) -> tuple[State, tuple[Knowledge, ...], dict[int, str]]:
        state = State(0, ("shuffle", "deal:1", "deal:2", "place", "disclose", "turn"), (0, 1, 2), (), (), (),
                      ALLY, (), (), (), (), None, 3)
        truth = dict(zip((0, 1, 2), DECK))
        return state, tuple(Knowledge(s) for s in range(3)), truth

    # --- the Game protocol ----------------------------------------------------------

    def pending(self, state: State) -> Pending | None:
        if not state.queue:
            return None
        head = state.queue[0]
        if head == "shuffle":
            return HiddenOp("shuffle", "deck", state.deck)
        if head.startswith("deal:"):
            return HiddenOp("deal", "deck", state.deck[:1], to_seat=int(head[5:]))
        if head == "place":
            return Placement("place", "treasure", HIDER, CELLS, THINGS)
        handles = tuple(h for _, h in state.cells)
        if head == "disclose":
            return Placement("disclose", "treasure", HIDER, CELLS, handles=handles, to_seats=(ALLY,))
        if head.startswith("open:"):
            cell = head[5:]
            return Placement("open", "treasure", HIDER, (cell,), handles=(dict(state.cells)[cell],))
        if head == "reveal":
            return HiddenOp("reveal", "hands", tuple(h for _, h in state.hands))
        return Decision(state.turn, "treasure.turn")

    def legal_actions(self, state: State, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        pending = self.pending(state)
        if not isinstance(pending, Decision) or pending.seat != seat:
            return []
        opened = dict(state.opened)
        actions: list[Action] = [Dig(seat, c) for c in CELLS if c not in opened]
        card = knowledge.card(self._hand(state, seat)) if knowledge is not None else None
        if card is not None and seat not in state.declared:
            try:
                self._check_declaration(state, seat, card)
                actions.append(Declare(seat, card))
            except IllegalAction:
                pass
        return actions

    def apply(self, state: State, action: Action) -> State:
        check_answer_matches(self.pending(state), action)
        head, rest = state.queue[0], state.queue[1:]
        s = dataclasses.replace(state, step=state.step + 1)
        if isinstance(action, CardsShuffled):
            fresh = tuple(range(s.next_handle, s.next_handle + len(s.deck)))
            return dataclasses.replace(s, deck=fresh, next_handle=s.next_handle + len(fresh), queue=rest)
        if isinstance(action, CardsDealt):
            seat = int(head[5:])
            return dataclasses.replace(s, deck=s.deck[1:], hands=s.hands + ((seat, s.deck[0]),), queue=rest)
        if isinstance(action, PlacementMade):
            handles = range(s.next_handle, s.next_handle + len(CELLS))
            return dataclasses.replace(s, cells=tuple(zip(CELLS, handles)), next_handle=s.next_handle + len(CELLS),
                                       queue=rest)
        if isinstance(action, PlacementDisclosed):
            return dataclasses.replace(s, queue=rest)
        if isinstance(action, Declare):
            self._check_declaration(s, action.seat, action.suit)
            claim = Claim(action.seat, state.step, "treasure.suit", (self._hand(s, action.seat),), action.suit,
                          rule="treasure.declare")
            return dataclasses.replace(s, declared=s.declared + (action.seat,), claims=s.claims + (claim,))
        if isinstance(action, Dig):
            if action.cell not in CELLS or action.cell in dict(s.opened):
                raise IllegalAction(f"cell {action.cell!r} is not an unopened cell; dig another", rule="treasure.dig")
            return dataclasses.replace(s, queue=(f"open:{action.cell}",) + s.queue)
        if isinstance(action, CellsOpened):
            return self._dug(s, head[5:], action.contents[0], rest)
        if isinstance(action, CardsRevealed):
            return dataclasses.replace(s, revealed=tuple(zip(action.handles, action.cards)), queue=rest)
        raise IllegalAction(f"{type(action).__name__} does not answer {head!r}")

    def _dug(self, s: State, cell: str, content: str, rest: tuple[str, ...]) -> State:
        if content not in (EMPTY, *THINGS):
            raise IllegalAction(f"cell {cell} cannot hold {content!r}")
        s = dataclasses.replace(s, opened=s.opened + ((cell, content),))
        digger = s.turn
        if content == "gold":
            return dataclasses.replace(s, finder=digger, queue=("reveal",))
        out = s.out + ((digger,) if content == "trap" else ())
        left = [d for d in DIGGERS if d not in out]
        if not left:
            return dataclasses.replace(s, out=out, queue=("reveal",))
        following = [d for d in DIGGERS if d != digger and d not in out]
        return dataclasses.replace(s, out=out, turn=following[0] if following else digger, queue=rest)

    def _hand(self, state: State, seat: int) -> int:
        return dict(state.hands)[seat]

    def _check_declaration(self, state: State, seat: int, suit: str) -> None:
        """Consistent with the public record: a suit of the deck, once per seat, not more claims than cards."""
        if suit not in DECK:
            raise IllegalAction(f"{suit!r} is not a suit of this deck", rule="treasure.declare")
        if seat in state.declared:
            raise IllegalAction("you have already declared your card", rule="treasure.declare")
        claimed = sum(1 for c in state.claims if c.value == suit)
        if claimed >= DECK.count(suit):
            raise IllegalAction(f"the deck has only {DECK.count(suit)} {suit} card(s) and they are all claimed",
                                rule="treasure.declare")

    def open_cards(self, state: State) -> dict[int, str]:
        """The deck's starting order is public (as Tiny's is): its first handles name their cards,
        so a table built without ``truth`` (the client's local adapter) can shuffle it."""
        return dict(zip((0, 1, 2), DECK))

    def claims(self, state: State) -> tuple[Claim, ...]:
        return state.claims

    def claim_holds(self, claim: Claim, contents: tuple[str, ...]) -> bool:
        return contents == (claim.value,)

    def public(self, state: State) -> Any:
        data = dataclasses.asdict(state)
        data["claims"] = [c.__canonical__() for c in state.claims]
        return data

    def zone(self, state: State, name: str) -> tuple[int, ...]:
        if name == "deck":
            return state.deck
        if name == "treasure":
            return tuple(h for _, h in state.cells)
        if name == "hands":
            return tuple(h for _, h in state.hands)
        raise IllegalAction(f"unknown zone {name!r}")

    def outcome(self, state: State) -> Outcome | None:
        if state.queue:
            return None
        finder = state.finder
        winners = {None: (HIDER,), ALLY: (HIDER, ALLY), RIVAL: (RIVAL,)}[finder]
        reason = "nobody found the gold" if finder is None else f"seat {finder} found the gold"
        return Outcome.judged(reason, [
            SeatResult.graded(seat, won=seat in winners, alive=seat not in state.out,
                              reason="treasure.side" if seat in winners else "treasure.lost")
            for seat in range(3)
        ])

    def view(self, state: State, seat: int, knowledge: Knowledge) -> Any:
        data = self.public(state)
        data["known"] = [[c, knowledge.card(h)] for c, h in state.cells if knowledge.knows(h)]
        return data


def system(cls: type[Action], **fields: Any) -> Action:
    return cls(seat=SYSTEM, **fields)

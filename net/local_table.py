"""LocalTable: the TRUSTED local driver (hot-seat, bots, tests, benchmarks).

This is NOT the fair networked table. A LocalTable knows every card of every
seat and answers the engine's chance and hidden-card requests itself with one
seeded ``random.Random(seed)``: nobody could check its shuffles or dice, so use
it only where every player trusts the machine it runs on (one computer, bots,
tests). The networked session (net/) answers the very same requests with
joint cryptographic protocols, and the engine cannot tell the difference:
same inputs, same states, same hashes.

What it does for any game implementing engine.core.game.Game:

- keeps the public state and each seat's :class:`Knowledge`;
- answers :class:`Chance` (dice), :class:`HiddenOp` (shuffle, deal, show,
  reveal) from its complete knowledge of the cards (``truth``);
- collects :class:`SealedChoice` picks from each seat's agent (or from
  :meth:`submit_sealed` for a human seat) and reveals them together;
- asks the seat's agent for a :class:`Decision` (or waits for
  :meth:`submit` when the seat has no agent: a human on the hot seat);
- fulfils a hidden :class:`Placement`: asks the placer's agent for one
  :class:`PlacementPick` per thing (or takes :meth:`submit_placement` from a
  human seat), answers :class:`PlacementMade`, and remembers what lies under
  every candidate cell's handle; opens cells and discloses them to named
  seats from that knowledge. Nothing is committed: the table is trusted;
- judges every claim the game logs (``claims(state)`` and
  ``claim_holds(claim, contents)``, see engine.core.claims) at once, since it
  knows every hidden card: an input that makes a false claim is refused with
  :class:`~engine.core.errors.FalseClaim` (seat and step) and changes nothing;
- writes a :class:`~engine.core.hidden.Note` into a seat's knowledge whenever
  it is privately shown or told something (``shown:``, ``placed:``,
  ``disclosed:`` + zone);
- records the log of applied inputs and, if asked, the state hash after each.

Games may offer ``open_cards(state) -> Mapping[handle, card]`` for handles
whose card is public knowledge (for example a discard pile turned into a deck
before its shuffle); the table consults it when it meets an unknown handle.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.actions import SYSTEM, Action
from engine.core.claims import Claim, false_claims, judge_claim
from engine.core.game import Game, Outcome, hash_of
from engine.core.hidden import Knowledge
from engine.core.pending import (
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Chance,
    Decision,
    EMPTY,
    CellsOpened,
    DiceRolled,
    HiddenOp,
    Placement,
    PlacementDisclosed,
    PlacementMade,
    SealedChoice,
    SealedChoicesRevealed,
)
from engine.core.inputs import PlacementPick, SealedPick
from net.bots.base import Agent


class TableError(RuntimeError):
    """The local table was driven wrongly (no legal action, unknown card, step limit)."""


class LocalTable:
    """Drive one game locally; see the module docstring (trusted mode only)."""

    def __init__(
        self,
        game: Game[Any],
        state: Any,
        knowledge: Sequence[Knowledge],
        agents: Sequence[Agent | None],
        seed: int,
        *,
        truth: Mapping[int, str] | None = None,
        record_hashes: bool = True,
    ) -> None:
        self.game = game
        self.state = state
        self.knowledge = list(knowledge)
        self.agents = list(agents)
        self.rng = random.Random(seed)
        self.truth: dict[int, str] = {}
        for k in knowledge:
            self.truth.update(k.cards)
        if truth is not None:
            self.truth.update(truth)
        self.record_hashes = record_hashes
        self.log: list[Action] = []
        self.initial_hash = hash_of(game, state) if record_hashes else b""
        self.hashes: list[bytes] = []
        self._sealed: dict[int, Any] = {}
        self._placing: dict[str, str] = {}  # cell -> thing, picks of the placement being made
        #: Every claim judged so far, in order; all held (an input making a false one is refused).
        self.claims_judged: list[Claim] = []

    # --- queries ----------------------------------------------------------------

    @property
    def pending(self) -> Any:
        return self.game.pending(self.state)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def legal(self, seat: int) -> list[Action]:
        """What ``seat`` may do now, sealed picks included (as :class:`SealedPick`)."""
        pending = self.pending
        if isinstance(pending, SealedChoice):
            if seat not in pending.seats or seat in self._sealed:
                return []
            return [SealedPick(seat, pending.purpose, option) for option in pending.options_for(seat)]
        if isinstance(pending, Placement):
            if pending.op != "place" or seat != pending.seat or len(self._placing) >= len(pending.things):
                return []
            thing = pending.things[len(self._placing)]
            return [PlacementPick(seat, pending.zone, thing, c) for c in pending.cells if c not in self._placing]
        return self.game.legal_actions(self.state, seat, self.knowledge[seat])

    def waiting_for(self) -> tuple[int, ...]:
        """Seats without an agent whose input is needed now (a human on the hot seat)."""
        pending = self.pending
        if isinstance(pending, Decision):
            return (pending.seat,) if self.agents[pending.seat] is None else ()
        if isinstance(pending, SealedChoice):
            return tuple(s for s in pending.seats if s not in self._sealed and self.agents[s] is None)
        if isinstance(pending, Placement) and pending.op == "place":
            return (pending.seat,) if self.agents[pending.seat] is None else ()
        return ()

    # --- driving ------------------------------------------------------------------

    def step(self) -> Action | None:
        """Apply one input; return it, or None when a human seat must act first."""
        pending = self.pending
        if pending is None:
            raise TableError("the game is over; no step to take")
        if isinstance(pending, Decision):
            agent = self.agents[pending.seat]
            if agent is None:
                return None
            legal = self.legal(pending.seat)
            if not legal:
                raise TableError(f"seat {pending.seat} has no legal action at {pending.prompt}")
            return self._apply(agent.choose(self.game, self.state, pending.seat, self.knowledge[pending.seat], legal))
        if isinstance(pending, SealedChoice):
            for seat in pending.seats:
                agent = self.agents[seat]
                if seat not in self._sealed and agent is not None:
                    pick = agent.choose(self.game, self.state, seat, self.knowledge[seat], self.legal(seat))
                    assert isinstance(pick, SealedPick)
                    self._sealed[seat] = pick.choice
            if any(s not in self._sealed for s in pending.seats):
                return None
            choices = tuple(self._sealed[s] for s in pending.seats)
            self._sealed.clear()
            return self._apply(SealedChoicesRevealed(SYSTEM, pending.purpose, choices))
        if isinstance(pending, Chance):
            faces = tuple(self.rng.randint(1, sides) for sides in pending.dice)
            return self._apply(DiceRolled(SYSTEM, pending.purpose, faces))
        if isinstance(pending, HiddenOp):
            return self._hidden(pending)
        if isinstance(pending, Placement):
            return self._placement(pending)
        raise TableError(f"unknown pending input {pending!r}")

    def run(self, max_steps: int = 1_000_000) -> Outcome | None:
        """Step until the game ends or a human seat must act; return the outcome."""
        for _ in range(max_steps):
            if self.pending is None or self.step() is None:
                return self.outcome()
        raise TableError(f"no end after {max_steps} steps")

    def submit(self, action: Action) -> None:
        """Apply a human seat's decision (must come from :meth:`legal`).

        A game may offer ``check_private(state, action, knowledge)``: checks
        only the acting seat's own knowledge allows (Rider: a pass while
        another hand card could be played, rider.14). The table runs it with
        that seat's knowledge first, so such an input is refused at once."""
        check = getattr(self.game, "check_private", None)
        if check is not None and 0 <= action.seat < len(self.knowledge):
            check(self.state, action, self.knowledge[action.seat])
        self._apply(action)

    def submit_sealed(self, seat: int, choice: Any) -> None:
        """Record a human seat's sealed pick; it is revealed with the others."""
        pending = self.pending
        if not isinstance(pending, SealedChoice) or seat not in pending.seats:
            raise TableError(f"seat {seat} has no sealed choice to make now")
        if seat in self._sealed:
            raise TableError(f"seat {seat} has already made its sealed choice; it cannot be changed")
        if choice not in pending.options_for(seat):
            raise TableError(f"{choice!r} is not one of {list(pending.options_for(seat))}")
        self._sealed[seat] = choice

    def submit_placement(self, seat: int, arrangement: Mapping[str, str]) -> Action:
        """Place a human seat's things at once (``cell -> thing``) and apply the placement."""
        pending = self.pending
        if not isinstance(pending, Placement) or pending.op != "place" or pending.seat != seat:
            raise TableError(f"seat {seat} has no placement to make now")
        if sorted(arrangement.values()) != sorted(pending.things):
            raise TableError(f"place exactly these things: {list(pending.things)}")
        outside = [c for c in arrangement if c not in pending.cells]
        if outside:
            raise TableError(f"cells {outside} are not among the cells you may use for {pending.zone}")
        self._placing = dict(arrangement)
        return self._placed(pending)

    # --- internals ---------------------------------------------------------------

    def card(self, handle: int) -> str:
        """The card behind any handle (the trusted table knows them all)."""
        return self._card(handle)

    def _card(self, handle: int) -> str:
        card = self.truth.get(handle)
        if card is None:
            opened = getattr(self.game, "open_cards", None)
            if opened is not None:
                self.truth.update(opened(self.state))
                card = self.truth.get(handle)
        if card is None:
            raise TableError(f"the table does not know card handle {handle}")
        return card

    def _hidden(self, op: HiddenOp) -> Action:
        if op.op == "shuffle":
            cards = [self._card(h) for h in op.handles]
            self.rng.shuffle(cards)
            action = self._apply(CardsShuffled(SYSTEM, op.zone))
            fresh = self.game.zone(self.state, op.zone)
            if len(fresh) != len(cards):
                raise TableError(f"zone {op.zone} changed size during its shuffle")
            self.truth.update(zip(fresh, cards))
            return action
        if op.op == "reveal":
            return self._apply(CardsRevealed(SYSTEM, op.zone, op.handles, tuple(self._card(h) for h in op.handles)))
        assert op.to_seat is not None
        pairs = [(h, self._card(h)) for h in op.handles]
        answer: Action = CardsDealt(SYSTEM, op.zone, op.handles) if op.op == "deal" else CardsShownTo(SYSTEM, op.zone, op.handles)
        step = len(self.log)
        action = self._apply(answer)
        known = self.knowledge[op.to_seat].learn(pairs)
        if op.op == "show_to":
            known = known.noted(step, f"shown:{op.zone}", tuple(pairs))
        self.knowledge[op.to_seat] = known
        return action

    def _placement(self, p: Placement) -> Action | None:
        if p.op == "place":
            agent = self.agents[p.seat]
            while len(self._placing) < len(p.things):
                if agent is None:
                    return None
                pick = agent.choose(self.game, self.state, p.seat, self.knowledge[p.seat], self.legal(p.seat))
                if not isinstance(pick, PlacementPick) or pick not in self.legal(p.seat):
                    raise TableError(f"seat {p.seat} answered the placement {p.zone} with {pick!r}")
                self._placing[pick.cell] = pick.thing
            return self._placed(p)
        told = tuple((c, self._card(h)) for c, h in zip(p.cells, p.handles))
        if p.op == "open":
            return self._apply(CellsOpened(SYSTEM, p.zone, p.handles, tuple(content for _, content in told)))
        step = len(self.log)
        action = self._apply(PlacementDisclosed(SYSTEM, p.zone, p.handles, p.to_seats))
        for seat in p.to_seats:
            known = self.knowledge[seat].learn((h, self._card(h)) for h in p.handles)
            self.knowledge[seat] = known.noted(step, f"disclosed:{p.zone}", told)
        return action

    def _placed(self, p: Placement) -> Action:
        """Apply PlacementMade and remember what lies under each candidate cell's new handle."""
        arrangement, self._placing = self._placing, {}
        step = len(self.log)
        action = self._apply(PlacementMade(SYSTEM, p.zone))
        handles = self.game.zone(self.state, p.zone)
        if len(handles) != len(p.cells):
            raise TableError(f"placement {p.zone} has {len(handles)} handles for {len(p.cells)} cells")
        contents = [arrangement.get(cell, EMPTY) for cell in p.cells]
        self.truth.update(zip(handles, contents))
        placed = tuple((cell, arrangement[cell]) for cell in p.cells if cell in arrangement)
        known = self.knowledge[p.seat].learn(zip(handles, contents))
        self.knowledge[p.seat] = known.noted(step, f"placed:{p.zone}", placed)
        return action

    def _judge_claims(self, state: Any) -> None:
        """Judge the claims ``state`` added (the game's claim log only grows); raise on a false one."""
        claims_of = getattr(self.game, "claims", None)
        if claims_of is None:
            return
        fresh = tuple(claims_of(state))[len(self.claims_judged):]
        if not fresh:
            return
        holds = self.game.claim_holds  # type: ignore[attr-defined]
        for claim in fresh:
            if judge_claim(claim, self._content, holds) is None:
                raise TableError(f"claim {claim.describe()} is about a handle the table does not know")
        false = false_claims(fresh, self._content, holds)
        if false:
            raise false[0]
        self.claims_judged.extend(fresh)

    def _content(self, handle: int) -> str | None:
        try:
            return self._card(handle)
        except TableError:
            return None

    def _apply(self, action: Action) -> Action:
        state = self.game.apply(self.state, action)
        self._judge_claims(state)
        self.state = state
        self.log.append(action)
        if self.record_hashes:
            self.hashes.append(hash_of(self.game, self.state))
        return action

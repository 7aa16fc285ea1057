"""LocalTable: the TRUSTED local driver (hot-seat, bots, tests, benchmarks).

This is NOT the fair networked table. A LocalTable knows every card of every
seat and answers the engine's chance and hidden-card requests itself with one
seeded ``random.Random(seed)``: nobody could check its shuffles or dice, so use
it only where every player trusts the machine it runs on (one computer, bots,
tests). The networked session (net/) answers the very same requests with
joint cryptographic protocols, and the engine cannot tell the difference:
same inputs, same states, same hashes.

It is one of the two drivers of net/seam.py (the networked session is the
other): :meth:`LocalTable.legal` and :meth:`LocalTable.submit` are the seam.
What it does for any game implementing engine.core.game.Game:

- keeps the public state and each seat's :class:`Knowledge`;
- answers :class:`Chance` (dice), :class:`HiddenOp` (shuffle, deal, show,
  reveal) from its complete knowledge of the cards (``truth``);
- collects :class:`SealedChoice` picks from each seat's agent (or from
  :meth:`submit` for a human seat) and reveals them together;
- asks the seat's agent for a :class:`Decision` (or waits for
  :meth:`submit` when the seat has no agent: a human on the hot seat);
- fulfils a hidden :class:`Placement`: asks the placer's agent for one
  :class:`PlacementPick` per thing (or takes them from :meth:`submit` for a
  human seat), answers :class:`PlacementMade`, and remembers what lies under
  every candidate cell's handle; opens cells and discloses them to named
  seats from that knowledge. Nothing is committed: the table is trusted;
- judges every claim a ClaimingGame logs (engine/core/claims.py) at once, since it
  knows every hidden card: an input that makes a false claim is refused with
  :class:`~engine.core.errors.FalseClaim` (seat and step) and changes nothing;
- writes a :class:`~engine.core.hidden.Note` into a seat's knowledge whenever
  it is privately shown or told something (``shown:``, ``placed:``,
  ``disclosed:`` + zone);
- records the log of applied inputs and, if asked, the state hash after each.

A game's optional parts (engine/core/capabilities.py) are found once, when
the table is made: the cards a game shows face up (HasOpenCards) name unknown
handles, and a seat's private checks (ChecksPrivate) run in the one dry run
of its action (net.seam.vet).
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
from engine.core.pending import Pending
from engine.core.capabilities import capabilities
from engine.core.inputs import PlacementPick, SealedPick, SeatInput
from net.bots.base import Agent
from net.seam import InputRefused, refusal, vet


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
        self.caps = capabilities(game)
        self.log: list[Action] = []
        self.initial_hash = hash_of(game, state) if record_hashes else b""
        self.hashes: list[bytes] = []
        self._sealed: dict[int, Any] = {}
        self._placing: dict[str, str] = {}  # cell -> thing, picks of the placement being made
        #: Every claim judged so far, in order; all held (an input making a false one is refused).
        self.claims_judged: list[Claim] = []

    # --- queries ----------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        return self.game.pending(self.state)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def legal(self, seat: int) -> list[SeatInput]:
        """What ``seat`` may give now (net/seam.py): its actions at a Decision, its sealed
        picks at a SealedChoice it has not answered, the placer's picks for the next thing."""
        pending = self.pending
        if isinstance(pending, SealedChoice):
            if seat not in pending.seats or seat in self._sealed:
                return []
            honest = self.caps.honest_options(self.state, seat, self.knowledge[seat], pending.options_for(seat))
            return [SealedPick(seat, pending.purpose, option) for option in honest]
        if isinstance(pending, Placement):
            if pending.op != "place" or seat != pending.seat or len(self._placing) >= len(pending.things):
                return []
            thing = pending.things[len(self._placing)]
            return [PlacementPick(seat, pending.zone, thing, c) for c in pending.cells if c not in self._placing]
        return list(self.game.legal_actions(self.state, seat, self.knowledge[seat]))

    def picked(self, seat: int) -> SealedPick | None:
        """``seat``'s sealed pick for the sealed choice now pending, until all are revealed."""
        pending = self.pending
        if not isinstance(pending, SealedChoice) or seat not in self._sealed:
            return None
        return SealedPick(seat, pending.purpose, self._sealed[seat])

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
            return self._take(pending.seat, agent.choose(self.game, self.state, pending.seat,
                                                         self.knowledge[pending.seat], legal))
        if isinstance(pending, SealedChoice):
            for seat in pending.seats:
                agent = self.agents[seat]
                if seat not in self._sealed and agent is not None:
                    self._take(seat, agent.choose(self.game, self.state, seat, self.knowledge[seat], self.legal(seat)))
            return self._reveal_sealed(pending)
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

    def submit(self, seat: int, chosen: SeatInput) -> Action | None:
        """Take a person's input for ``seat`` (net/seam.py): one of :meth:`legal`. Returns the input applied to the engine, if one was:
        the action itself, the reveal after the last sealed pick, the placement after
        its last thing. :class:`~net.seam.InputRefused` (nothing changes) otherwise."""
        if not 0 <= seat < len(self.knowledge) or chosen not in self.legal(seat):
            raise refusal(self.game, self.caps, self.state, self.knowledge[seat] if 0 <= seat < len(self.knowledge)
                          else Knowledge(seat), seat, chosen)
        return self._take(seat, chosen)

    def feed(self, action: Action) -> Action:
        """Apply an input exactly as given, for tests and scenario files on this trusted table:
        a seat's action (after its private checks, as the seam's dry run does) or a driver
        answer that fixes a die or a card. The engine's own error says why one is refused
        (nothing changes). A seat's input from a player goes through :meth:`submit`."""
        if action.seat == SYSTEM:
            return self._apply(action)
        knowledge = self.knowledge[action.seat] if 0 <= action.seat < len(self.knowledge) else Knowledge(action.seat)
        return self._apply(action, vet(self.game, self.caps, self.state, knowledge, action))

    # --- internals ---------------------------------------------------------------

    def _take(self, seat: int, chosen: SeatInput) -> Action | None:
        """The one branch on what a seat gave (for an agent's choice and a person's alike)."""
        pending = self.pending
        if isinstance(chosen, Action):
            if chosen.seat != seat:
                raise InputRefused(f"seat {seat + 1} cannot act in the name of seat {chosen.seat + 1}", seat=seat)
            self._apply(chosen, vet(self.game, self.caps, self.state, self.knowledge[seat], chosen))
            return chosen
        if chosen not in self.legal(seat):  # an agent's pick; a person's was checked by submit()
            raise TableError(f"seat {seat + 1}'s agent picked {chosen!r}, which it was not offered")
        if isinstance(chosen, SealedPick):
            assert isinstance(pending, SealedChoice)  # legal() offers sealed picks only then
            self._sealed[seat] = chosen.choice  # revealed with the others by step()
            return None
        assert isinstance(pending, Placement)  # legal() offers placement picks only then
        self._placing[chosen.cell] = chosen.thing
        return self._placed(pending) if len(self._placing) == len(pending.things) else None

    def _reveal_sealed(self, pending: SealedChoice) -> Action | None:
        """Reveal every sealed pick at once, when every seat has picked."""
        if any(s not in self._sealed for s in pending.seats):
            return None
        choices = tuple(self._sealed[s] for s in pending.seats)
        self._sealed.clear()
        return self._apply(SealedChoicesRevealed(SYSTEM, pending.purpose, choices))

    def card(self, handle: int) -> str:
        """The card behind any handle (the trusted table knows them all)."""
        return self._card(handle)

    def _card(self, handle: int) -> str:
        card = self.truth.get(handle)
        if card is None:
            self.truth.update(self.caps.open_cards(self.state))
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
                applied = self._take(p.seat, pick)
                if applied is not None:
                    return applied
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
        claiming = self.caps.claiming
        if claiming is None:
            return
        fresh = claiming.claims(state)[len(self.claims_judged):]
        if not fresh:
            return
        holds = claiming.claim_holds
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

    def _apply(self, action: Action, after: Any = None) -> Action:
        """Apply ``action`` (``after``: the state a dry run already computed for it)."""
        state = self.game.apply(self.state, action) if after is None else after
        self._judge_claims(state)
        self.state = state
        self.log.append(action)
        if self.record_hashes:
            self.hashes.append(hash_of(self.game, self.state))
        return action

"""A random bot for Super Human Locke: uniform among honest legal actions, with
three weights so that random games reach the base phase (a fuzzer, not a player).

- The silhouette pick is uniform over the faces the driver offers, which are
  only those the bot's own shadow die allows (KMC table 7.2; LockeGame.sealed_options),
  so the shadow claim it makes is true.
- It declares victory rarely (``declare`` probability) and refuses a
  declaration with probability ``refuse``: uniform choices would end most
  games by an accepted declaration within a few turns. Once the table has
  played ``late_turns`` turns per seat it declares with ``late_declare``
  and refuses with ``late_refuse`` instead: with the real combat (KMC 10)
  every Good character can be dead with key bases left, and only an
  accepted declaration ends such a game before the termination guard (N47).
- It surrenders to police rarely (``surrender``) and destroys a key base it
  stands on when it can (``destroy``): prison loops and missed key bases
  would otherwise stretch many games to the termination guard.
- With probability ``explore`` it moves to a cell whose card is still face
  down when it can: a pure random walk leaves a planet unvisited for
  hundreds of turns, and the planet phase ends only when the cards are found.
- Offered the King editorial room (KMC 4: only Yuki Hijiri is), it tries with
  its full mind: a uniform pick would mostly decline or declare a low mind,
  and with the real combat few Hijiris live to stand there, so this ending
  would hardly ever be seen.
- Offered a use of a kept planet card in a combat (an item, seed 000 3.1) it takes one with
  probability ``items``: one option among a hand's many plays would hardly ever be picked, and
  the single copies (geoid bomb, ESP controller, subspace field) would never be seen.
- Asked in a combat whether it invites someone into its party or leaves its party
  (KMC 10.3.1 (3), 10.3.4) it does so with probability ``talks``: a coin each round
  would dissolve and re-form every party in every combat.
- Everything else (movement, keeping cards, combats, placements) is uniform
  over ``legal``, which the engine makes honest from the bot's knowledge.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.core.hidden import Knowledge
from engine.locke.actions import Answer, Declare, Destroy, Fly, KingRoom, Land, Nop, Surrender, Walk
from engine.locke.combat.actions import Equip, Play, UseItem
from engine.core.inputs import SealedPick, SeatInput

#: The combat's party questions (engine/locke/combat/talks.py).
TALKS = ("cb_party", "cb_leave")


class LockeRandomBot:
    """Random Locke play with the weights above; the caller injects the RNG."""

    def __init__(self, rng: random.Random, *, declare: float = 0.01, refuse: float = 0.7,
                 surrender: float = 0.1, destroy: float = 0.8, explore: float = 0.5,
                 late_declare: float = 0.1, late_refuse: float = 0.2, late_turns: int = 50,
                 items: float = 0.5, talks: float = 0.1) -> None:
        self.rng = rng
        self.talks = talks
        self.items = items
        self.declare = declare
        self.late_declare = late_declare
        self.late_refuse = late_refuse
        self.late_turns = late_turns
        self.refuse = refuse
        self.surrender = surrender
        self.destroy = destroy
        self.explore = explore

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge, legal: Sequence[SeatInput]) -> SeatInput:
        if not legal:
            raise ValueError(f"seat {seat} was asked to act with no legal action")
        first = legal[0]
        if isinstance(first, SealedPick):  # the driver offers only the honest faces (NarrowsSealed)
            return legal[self.rng.randrange(len(legal))]
        if isinstance(first, Declare):
            late = state.turn >= self.late_turns * state.n
            want = self.rng.random() < (self.late_declare if late else self.declare)
            return next(a for a in legal if isinstance(a, Declare) and a.declare == want)
        if isinstance(first, Answer):
            late = state.turn >= self.late_turns * state.n
            accept = self.rng.random() >= (self.late_refuse if late else self.refuse)
            return next(a for a in legal if isinstance(a, Answer) and a.accept == accept)
        if isinstance(first, Surrender):
            give_up = self.rng.random() < self.surrender
            return next(a for a in legal if isinstance(a, Surrender) and a.surrender == give_up)
        king = [a for a in legal if isinstance(a, KingRoom)]
        if king:
            return max(king, key=lambda a: a.mind)
        destroy = [a for a in legal if isinstance(a, Destroy)]
        if destroy and self.rng.random() < self.destroy:
            return destroy[0]
        if state.queue and state.queue[0].kind in TALKS:
            moves = [a for a in legal if not isinstance(a, Nop)]
            if moves and self.rng.random() < self.talks:
                return moves[self.rng.randrange(len(moves))]
            return next((a for a in legal if isinstance(a, Nop)), legal[0])
        planet = [a for a in legal if _planet_use(a)]
        if planet and self.rng.random() < self.items:
            return planet[self.rng.randrange(len(planet))]
        if self.rng.random() < self.explore:
            hidden = {key for key, cell in state.cells if cell.handle is not None}
            fresh = [a for a in legal if isinstance(a, (Walk, Land, Fly)) and a.to in hidden]
            if fresh:
                return fresh[self.rng.randrange(len(fresh))]
        return legal[self.rng.randrange(len(legal))]


def _planet_use(action: SeatInput) -> bool:
    """A combat use of a kept planet card (engine/locke/combat/kept.py)."""
    if isinstance(action, Equip):
        return bool(action.cards)
    if isinstance(action, UseItem):
        return action.card >= 0
    return isinstance(action, Play) and action.planet >= 0

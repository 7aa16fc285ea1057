"""LockeGame: Super Human Locke from the deal to a judged end (engine.core.game.Game).

How the flow works: the state carries a queue of typed steps (engine/locke/steps.py),
run by the shared flow core (engine/core/flow.py). The head either waits (a seat's
decision, a sealed choice, dice, a hidden-card operation, a hidden placement) or is
run by the engine; after every input the reducer settles until the head waits again,
so ``pending(state)`` reads only the queue head and a log of inputs replays to the
same states everywhere.

Each step class carries its own code (what it waits for, its honest legal actions,
one method per action type that answers it, or how it runs) and is registered once in
engine/locke/registry.py. This module only dispatches: who decides for a controlled
seat (engine/locke/control.py), which answer method takes the input, and the settle
loop. It also offers the lower layers the turn's steps they hand control back to
(``instruct``, ``end_turn`` ... the steps.Rules protocol), so no module imports the
turn that starts it. docs/rules/locke.md "How the engine is built" says where each
family lives. Rule ids cite KMC sections ("locke.9.2.1"), seed lines
("locke.s000.3.2.2") or rulings (N-numbers).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.actions import Action, ActionCodec
from engine.core.claims import Claim
from engine.core.errors import GameOver, IllegalAction, WrongInputKind
from engine.core.flow import settle
from engine.core.game import Outcome, check_answer_matches
from engine.core.hidden import Knowledge
from engine.core.pending import DRIVER_ANSWERS, Decision, Pending, SealedChoice
from engine.locke import claims as claim_kinds
from engine.locke import control, declare, legal, registry, setup, setup_tables, traps, turn
from engine.locke.combat import path
from engine.locke.combat.actions import ACTIONS as COMBAT_ACTIONS
from engine.locke.combat.flow import begin
from engine.locke.combat.actions import Order
from engine.locke.actions import ACTIONS
from engine.locke.components import ComponentSet
from engine.locke.state import RULES_ID, Combat, LockeState, public_data, zone_of
from engine.locke.steps import AttackPath, Automatic, LockeStep, Ordered, Waiting

CODEC = ActionCodec(ACTIONS + COMBAT_ACTIONS + DRIVER_ANSWERS)

class LockeGame:
    """The Locke rules over one component set. Stateless apart from lookup tables."""

    rules_id = RULES_ID
    codec = CODEC

    def __init__(self, components: ComponentSet) -> None:
        self.components = components
        #: the attack path's steps, for the combat's lower modules (engine/locke/steps.py AttackPath)
        self.attack: AttackPath = path

    # --- starting a game ------------------------------------------------------

    def new_game(self, players: int) -> tuple[LockeState, tuple[Knowledge, ...]]:
        """The public starting state for ``players`` seats (5-10, KMC 6.2) and each
        seat's (empty) knowledge; every deck starts face down in data order, with
        its handles public (``open_cards``) until its first shuffle."""
        state = setup.initial_state(self, players, then=turn.PlanetStart())
        return self._settle(state), tuple(Knowledge(seat) for seat in range(players))

    # --- the turn's steps that the layers below it hand control back to (steps.Rules) --------

    def begin_combat(self, s: LockeState, combat: Combat) -> LockeState:
        return begin(s, combat)

    def instruct(self, seat: int) -> LockeStep:
        return turn.Instruct(seat)

    def end_turn(self, seat: int) -> LockeStep:
        return turn.EndTurn(seat)

    def revived_turn(self, seat: int) -> tuple[LockeStep, ...]:
        return turn.Instruct(seat), declare.CombatPhase(seat), declare.DestructionPhase(seat)

    def expose(self, seat: int) -> LockeStep:
        return turn.Expose(seat)

    def show_character(self, seat: int, target: int) -> LockeStep:
        return turn.ShowCharacter(seat, target)

    def no_searchers(self) -> LockeStep:
        return turn.PhaseChange(turn.PhaseTrigger.NO_SEARCHERS)

    def information_found(self, seat: int) -> LockeStep:
        return turn.InformationTrigger(seat)

    def random_combat(self, seat: int) -> LockeStep:
        return turn.RandomCombatRoll(seat, turn.RandomCause.FOREST)

    def freed(self, s: LockeState, seat: int, how: str) -> LockeState:
        return turn.freed(s, seat, how)

    def trap_steps(self, seat: int, cell: str) -> tuple[LockeStep, ...]:
        return traps.trap_steps(seat, cell)

    # --- the Game protocol ----------------------------------------------------

    def pending(self, state: LockeState) -> Pending | None:
        if not state.queue:
            return None
        step = state.queue[0]
        if not isinstance(step, Waiting):
            raise IllegalAction(f"the state waits at automatic step {step!r} (an engine fault)", rule="locke.guard")
        return control.who_decides(state, step, step.pending(self, state))

    def public(self, state: LockeState) -> Any:
        return public_data(state)

    def zone(self, state: LockeState, name: str) -> tuple[int, ...]:
        """Handles of a hidden zone or placement (see setup.py and turn.py for names)."""
        if name == state.shuffled[0]:
            return state.shuffled[1]
        if name == "characters":
            return tuple(p.character for p in state.seats)
        if name == "dice":
            return tuple(p.die for p in state.seats)
        if name.startswith("kept:"):
            return state.seats[int(name[5:])].kept
        for placement in state.placements:
            if placement[0] == name:
                return tuple(placement[3])
        return zone_of(state, name)

    def open_cards(self, state: LockeState) -> Mapping[int, str]:
        """Handles whose card everyone knows (decks before their shuffle, revealed cards)."""
        return dict(state.open_cards)

    def outcome(self, state: LockeState) -> Outcome | None:
        result: Outcome | None = state.result
        return result

    def view(self, state: LockeState, seat: int, knowledge: Knowledge) -> Any:
        """Public data plus what ``seat`` itself knows; never another seat's secret."""
        data = public_data(state)
        me = state.seats[seat]
        data["seat"] = seat
        data["log"] = [list(e) for e in state.events]  # public, covered by the hash through its digest
        data["my_character"] = knowledge.card(me.character)
        data["my_die"] = knowledge.card(me.die)
        data["my_kept"] = [[h, knowledge.card(h)] for h in me.kept]
        data["seen_characters"] = [
            [i, knowledge.card(p.character)] for i, p in enumerate(state.seats)
            if i != seat and knowledge.knows(p.character)
        ]
        data["known_placements"] = [
            [placement[0], [[cell, knowledge.card(h)] for cell, h in zip(placement[2], placement[3])
                            if knowledge.card(h)]]
            for placement in state.placements if any(knowledge.card(h) for h in placement[3])
        ]
        return data

    def legal_actions(self, state: LockeState, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        """Every action ``seat`` may take now (engine/locke/legal.py), honest about
        its own hidden cards when ``knowledge`` is given."""
        return legal.legal_actions(self, state, seat, knowledge)

    # --- claims (engine.core.claims.ClaimingGame) -------------------------------

    def sealed_options(self, state: LockeState, seat: int, knowledge: Knowledge) -> tuple[str, ...] | None:
        """The silhouettes ``seat`` may choose honestly now (engine/core/capabilities.py
        NarrowsSealed): the ones its shadow die allows with its character (table 7.2, ruling
        N18; a pick outside them is a false claim, locke.7.1.7). None for any other sealed
        choice, or while the seat does not know its own cards."""
        pending = self.pending(state)
        if not isinstance(pending, SealedChoice) or pending.purpose != "locke.silhouette":
            return None
        me = state.seats[seat]
        die, character = knowledge.card(me.die), knowledge.card(me.character)
        if die is None or character is None:
            return None
        taken = setup.taken_copies(state, state.picking)
        return setup_tables.silhouette_choices(self.components, claim_kinds.die_face(die), character, taken)

    def claims(self, state: LockeState) -> tuple[Claim, ...]:
        return tuple(state.claims)

    def claim_holds(self, claim: Claim, contents: tuple[str, ...]) -> bool:
        return claim_kinds.holds(self.components, claim, contents)

    # --- applying inputs --------------------------------------------------------

    def apply(self, state: LockeState, action: Action) -> LockeState:
        """The next state, or a typed error (and nothing built)."""
        if state.result is not None:
            raise GameOver("the game is over; start a new game to play again", rule="locke.6.4")
        pending = self.pending(state)
        if pending is not None:  # KMC 4, seed 000 3.1.3: who decides for a controlled seat (N210)
            control.check(self, state, state.queue[0], pending, action)
        check_answer_matches(pending, action)
        step = state.queue[0]
        if isinstance(action, Order):
            if not (isinstance(pending, Decision) and pending.prompt == "locke.order" and isinstance(step, Ordered)):
                raise self._unanswered(step.kind, action)
            new = control.on_order(self, state, step, action)
        else:
            answer = registry.STEPS.handler(type(step), type(action))
            if answer is None:
                raise self._unanswered(step.kind, action)
            new = answer(step, self, state, action)
        new = control.after(self, state, new, step, action)
        return self._settle(new._replace(step_no=state.step_no + 1))

    @staticmethod
    def _unanswered(kind: str, action: Action) -> WrongInputKind:
        return WrongInputKind(
            f"{type(action).__name__} does not answer the current step {kind!r}; "
            "ask legal_actions for what is allowed now",
            rule="locke.9.1",
        )

    def settle(self, state: LockeState) -> LockeState:
        """Run automatic steps until the state waits (used by scenario builders)."""
        return self._settle(state)

    def _settle(self, s: LockeState) -> LockeState:
        return settle(s, self._run_next, rule="locke.guard")

    def _run_next(self, s: LockeState) -> LockeState | None:
        """The state after the head step when it runs by itself; None when the state waits."""
        if not s.queue:
            return None
        step = s.queue[0]
        return step.run(self, s) if isinstance(step, Automatic) else None

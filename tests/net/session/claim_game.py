"""The tiny test game plus one claim, to show a networked audit judging claims.

Before the plays, seat 0 *predicts* the card on top of the deck: a claim
about a hidden handle that the engine logs and cannot check. The deck's top
card is revealed to all later, so the end-of-game audit can judge the claim
with engine.core.false_claims, the same function the LocalTable uses at once.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.core.actions import Action, ActionCodec
from engine.core.claims import Claim
from engine.core.errors import IllegalAction
from engine.core.game import check_answer_matches
from engine.core.hidden import Knowledge
from engine.core.pending import DRIVER_ANSWERS, Decision, Pending
from engine.tiny.game import Play, TinyGame, TinyState, card_ids
from net.envelope import Genesis
from net.games import LocalSetup, Table, register
from net.games.tiny import ENTRY as TINY
from net.session.plan import TablePlan

RULES_ID = "test/dice-cards-claims"


@dataclasses.dataclass(frozen=True)
class Predict(Action):
    KIND = "test.predict"
    card: str


@dataclasses.dataclass(frozen=True)
class ClaimState(TinyState):
    step: int = 0
    claims: tuple[Claim, ...] = ()


class ClaimGame(TinyGame):
    rules_id = RULES_ID
    codec = ActionCodec((Predict, Play, *DRIVER_ANSWERS))

    def initial_state(self, seats: int) -> ClaimState:
        base = super().initial_state(seats)
        plays = next(i for i, q in enumerate(base.queue) if q[0] == "play")
        queue = base.queue[:plays] + (("predict", 0),) + base.queue[plays:]
        fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(TinyState)}
        return ClaimState(**{**fields, "queue": queue})

    def pending(self, state: TinyState) -> Pending | None:
        if state.queue and state.queue[0][0] == "predict":
            return Decision(0, "test.predict")
        return super().pending(state)

    def legal_actions(self, state: TinyState, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        if state.queue and state.queue[0] == ("predict", seat):
            return [Predict(seat, c) for c in card_ids(2 * state.seats + 4)]
        return super().legal_actions(state, seat, knowledge)

    def apply(self, state: TinyState, action: Action) -> ClaimState:
        assert isinstance(state, ClaimState)
        if state.queue and state.queue[0][0] == "predict":
            check_answer_matches(self.pending(state), action)
            if not isinstance(action, Predict) or action.card not in card_ids(2 * state.seats + 4):
                raise IllegalAction("predict one card of this game", rule="test.predict")
            claim = Claim(0, state.step, "test.top", (state.deck[0],), action.card, rule="test.predict")
            return dataclasses.replace(state, queue=state.queue[1:], claims=state.claims + (claim,),
                                       step=state.step + 1)
        after = super().apply(state, action)
        assert isinstance(after, ClaimState)
        return dataclasses.replace(after, step=state.step + 1)

    def claims(self, state: ClaimState) -> tuple[Claim, ...]:
        return state.claims

    def claim_holds(self, claim: Claim, contents: tuple[str, ...]) -> bool:
        return contents == (claim.value,)

    def public(self, state: TinyState) -> Any:
        assert isinstance(state, ClaimState)
        return {**super().public(state), "step": state.step, "claims": [c.__canonical__() for c in state.claims]}


def setup(genesis: Genesis) -> Table:
    game = ClaimGame()
    state = game.initial_state(len(genesis.seat_keys))
    return Table(game, state, TablePlan(public_cards=game.open_cards))


def local(record: Any, components: Any = None) -> LocalSetup:
    game = ClaimGame()
    return LocalSetup(game, game.initial_state(record["seats"]), tuple(Knowledge(s) for s in range(record["seats"])),
                      dict(record))


register(dataclasses.replace(TINY, name="tiny-claims", title="Tiny with a claim", rules_id=RULES_ID, table=setup,
                             local=local, client_ui=None, rules_doc="tests/net/session/claim_game.py"))

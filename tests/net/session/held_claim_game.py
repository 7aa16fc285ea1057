"""The tiny test game plus a declaration about the declarer's own hand cards (issue 31).

Right after the deals, seat 0 declares a floor ``n``: "my first hand card is
c<n> or higher" (``test.first_at_least``, one card) or "both my hand cards
are" (``test.both_at_least``, the same of each card). The claim is about
cards seat 0 holds privately, so a table that proves claims at their step
has it prove the claim with its action; every peer computes the cards that
make it true from the claim and the cards each handle may hold. The honest options
offered are the floors its own cards allow; a liar picks another.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from engine.core.actions import Action, ActionCodec
from engine.core.claims import Claim
from engine.core.errors import IllegalAction
from engine.core.game import check_answer_matches
from engine.core.hidden import Knowledge
from engine.core.pending import DRIVER_ANSWERS, Decision, Pending
from engine.tiny.game import Play, TinyGame, TinyState, card_ids, card_number, card_set_hash
from net.bots.random_bot import RandomBot
from net.envelope import CLAIMS_AT_STEP, Genesis
from net.games import LocalSetup, Table, register
from net.games.tiny import ENTRY as TINY
from net.session import Session
from net.session.loopback import Loopback
from net.session.plan import TablePlan
from tests.net.session.harness import NONCE, identities

RULES_ID = "test/held-claims"
FIRST = "test.first_at_least"
BOTH = "test.both_at_least"


@dataclasses.dataclass(frozen=True)
class Declare(Action):
    KIND = "test.declare"
    floor: int
    both: bool


@dataclasses.dataclass(frozen=True)
class HeldClaimState(TinyState):
    step: int = 0
    claims: tuple[Claim, ...] = ()


class HeldClaimGame(TinyGame):
    rules_id = RULES_ID
    codec = ActionCodec((Declare, Play, *DRIVER_ANSWERS))

    def initial_state(self, seats: int) -> HeldClaimState:
        base = super().initial_state(seats)
        guess = next(i for i, q in enumerate(base.queue) if q[0] == "guess")
        queue = base.queue[:guess] + (("declare", 0),) + base.queue[guess:]
        fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(TinyState)}
        return HeldClaimState(**{**fields, "queue": queue})

    def pending(self, state: TinyState) -> Pending | None:
        if state.queue and state.queue[0][0] == "declare":
            return Decision(0, "test.declare")
        return super().pending(state)

    def legal_actions(self, state: TinyState, seat: int, knowledge: Knowledge | None = None) -> list[Action]:
        if state.queue and state.queue[0] == ("declare", seat):
            cards = [knowledge.card(h) for h in state.hands[seat]] if knowledge is not None else []
            numbers = [card_number(c) for c in cards if c is not None]
            size = 2 * state.seats + 4
            return [Declare(seat, n, both) for both in (False, True) for n in range(size)
                    if knowledge is None or (numbers and n <= (min(numbers) if both else numbers[0]))]
        return super().legal_actions(state, seat, knowledge)

    def apply(self, state: TinyState, action: Action) -> HeldClaimState:
        assert isinstance(state, HeldClaimState)
        if state.queue and state.queue[0][0] == "declare":
            check_answer_matches(self.pending(state), action)
            if not isinstance(action, Declare) or not 0 <= action.floor < 2 * state.seats + 4:
                raise IllegalAction("declare a floor among this game's cards", rule="test.declare")
            hand = state.hands[0]
            about = hand if action.both else hand[:1]
            claim = Claim(0, state.step, BOTH if action.both else FIRST, about, action.floor, rule="test.declare")
            return dataclasses.replace(state, queue=state.queue[1:], claims=state.claims + (claim,),
                                       step=state.step + 1)
        after = super().apply(state, action)
        assert isinstance(after, HeldClaimState)
        return dataclasses.replace(after, step=state.step + 1)

    def claims(self, state: HeldClaimState) -> tuple[Claim, ...]:
        return state.claims

    def claim_holds(self, claim: Claim, contents: tuple[str, ...]) -> bool:
        return all(card_number(c) >= int(claim.value) for c in contents)

    def public(self, state: TinyState) -> Any:
        assert isinstance(state, HeldClaimState)
        return {**super().public(state), "step": state.step, "claims": [c.__canonical__() for c in state.claims]}


def per_card(claim: Claim) -> bool:
    """Both kinds hold exactly when each card alone is at or above the floor."""
    return claim.what in (FIRST, BOTH)


def plan(game: HeldClaimGame) -> TablePlan:
    return TablePlan(public_cards=game.open_cards, claim_per_card=per_card)


def genesis(seats: int, claims: str = CLAIMS_AT_STEP) -> Genesis:
    ids = identities(seats, tag="held-claim")
    return Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids), {}, (NONCE,) * seats,
                   claims=claims)


def table(seats: int = 3, *, claims: str = CLAIMS_AT_STEP, seed: int = 5,
          declarer: Any = "random") -> Loopback:
    """A loopback table of this game; ``declarer`` None leaves seat 0 without an agent (a test acts for it)."""
    g = genesis(seats, claims)
    ids = identities(seats, tag="held-claim")
    game = HeldClaimGame()
    state = game.initial_state(seats)
    sessions = []
    for s in range(seats):
        agent: Any = RandomBot(random.Random(seed * 100 + s))
        if s == 0 and declarer != "random":
            agent = declarer
        sessions.append(Session(g, game, state, plan=plan(game), identity=ids[s], seat=s, agent=agent))
    return Loopback(sessions)


def card_ids_of(seats: int) -> tuple[str, ...]:
    return card_ids(2 * seats + 4)


def setup(g: Genesis) -> Table[Any]:
    game = HeldClaimGame()
    return Table(game, game.initial_state(len(g.seat_keys)), plan(game))


def local(record: Any, components: Any = None) -> LocalSetup:
    game = HeldClaimGame()
    return LocalSetup(game, game.initial_state(record["seats"]), tuple(Knowledge(s) for s in range(record["seats"])),
                      dict(record))


register(dataclasses.replace(TINY, name="tiny-held-claims", title="Tiny with a declaration about one's hand",
                             rules_id=RULES_ID, table=setup, local=local, client_ui=None, game_class=HeldClaimGame,
                             rules_doc="tests/net/session/held_claim_game.py"))

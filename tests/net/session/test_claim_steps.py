"""Claims proven at their step (issue 31, net/session/claim_steps.py), on a small table.

Seat 0 of tests/net/session/held_claim_game.py declares a floor for its own
hand cards right after the deals. The test acts for seat 0 (no agent), so it
can send honest, tampered and forged proofs with the declaration; every other
seat must accept the honest ones and stop the game naming seat 0 at that step
for anything else.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.hidden import Knowledge
from engine.tiny.game import card_number
from net.bots.random_bot import RandomBot
from engine.core.encoding import decode, encode
from net.envelope import CLAIMS_AT_AUDIT, CLAIMS_AT_STEP, Genesis
from net.transcript import save
from net.verifier import verify
from tools.verify import main as verify_cli
from net.poker import group as g
from net.poker.claim_proofs import prove_claim
from net.poker.proofs import Context
from net.session import claim_steps, pump
from net.session.core import Session
from net.session.events import Cheat, Rejected
from net.session.loopback import Loopback
from tests.net.session.held_claim_game import Declare, table

Parts = list[list[Any]]


def encode_record(transcript: Any) -> Any:
    """A transcript as a file holds it (canonical encoding and back)."""
    return decode(encode(transcript))


def at_declaration(claims: str | None = None, first_at_least: int = 4) -> tuple[Loopback, Session]:
    """A 3-seat table stopped where seat 0 must declare (the test acts for it), its first hand card
    c04 or higher (the cards are dealt at random: fresh tables until one fits), so that floors
    below it make claims some cards do not satisfy (a claim every card satisfies needs no proof)."""
    for _ in range(50):
        t = table(3, declarer=None) if claims is None else table(3, declarer=None, claims=claims)
        t.start()
        t.run()
        s0 = t.sessions[0]
        assert s0.pending is not None and getattr(s0.pending, "prompt", "") == "test.declare"
        if hand(s0)[0] >= first_at_least:
            return t, s0
    raise AssertionError("fifty deals in a row gave seat 0 a low first card")


def hand(s0: Session) -> list[int]:
    return [card_number(s0.knowledge.card(h) or "") for h in s0.state.hands[0]]


def send(t: Loopback, s0: Session, action: Declare, tamper: Callable[[Parts], Any] = lambda p: p,
         body: dict[str, Any] | None = None) -> None:
    """Seat 0 signs ``action`` with its proofs as ``tamper`` leaves them; deliver everything."""
    if body is None:
        statements = claim_steps.owed(s0, 0, s0.state, s0.game.apply(s0.state, action)).statements
        body = {"action": action.to_data(), "cards": [], "claims": tamper(claim_steps.make(s0, statements))}
    s0._send("action", body)
    s0.agent = RandomBot(random.Random(9))  # seat 0 plays on by itself
    pump.pump(s0)
    t.post(0, s0._flush())
    t.run()


def convicted_at(t: Loopback, step: int) -> None:
    """Every peer but the sender stopped the game naming seat 0 at ``step``, and applied nothing."""
    for s in t.sessions[1:]:
        assert isinstance(s.halted, Cheat), s.halted
        assert (s.halted.seat, s.halted.step) == (0, step)
        assert s.step == step and 0 not in s.claims_proven


def statement(s0: Session, action: Declare) -> claim_steps.Statement:
    return claim_steps.owed(s0, 0, s0.state, s0.game.apply(s0.state, action)).statements[0]


def forged(s0: Session, st_: claim_steps.Statement, *, step: int | None = None, seat: int = 0,
           encoded: bytes | None = None, cards: list[str] | None = None) -> dict[str, list[bytes]]:
    """A proof by seat 0's own secret over another context, statement or card list."""
    book = s0.book
    assert book is not None and s0._secrets is not None
    by_card = {c: p for p, c in book.public_points.items()}
    points = [by_card[c] for c in (cards if cards is not None else st_.cards)]
    c1, under = claim_steps._under_key(book, st_.handle)
    ctx = Context(book.game, s0.step if step is None else step, seat)
    return prove_claim(ctx, encoded or st_.encoded(), points, s0._secrets.x, c1, under,
                       book.known_point[st_.handle])


def test_an_honest_declaration_is_proven_at_its_step_and_the_game_goes_on() -> None:
    t, s0 = at_declaration()
    step = s0.step
    send(t, s0, Declare(0, hand(s0)[0], False))
    for s in t.sessions:
        assert s.halted is None and s.claims_proven == {0: step} and s.phase == "done"
        assert claim_steps.status(s, 0) == claim_steps.PROVEN


def test_a_claim_about_both_cards_is_proven_card_by_card() -> None:
    t, s0 = at_declaration()
    step = s0.step
    send(t, s0, Declare(0, min(hand(s0)), True))
    assert all(s.halted is None and s.claims_proven == {0: step} for s in t.sessions)


def test_a_false_claim_with_a_forged_proof_is_convicted_at_its_step() -> None:
    t, s0 = at_declaration()
    step, low = s0.step, min(hand(s0))
    lie = Declare(0, low + 1, True)  # its lower card is below the floor it declares
    truths = claim_steps.owed(s0, 0, s0.state, s0.game.apply(s0.state, Declare(0, low, True))).statements
    # the lie's proofs made with the true cards' candidate sets (the only proofs seat 0 can make)
    send(t, s0, lie, lambda parts: [[p[0], p[1], forged(s0, truth)] for p, truth in zip(parts, truths)])
    convicted_at(t, step)


def test_a_lie_sent_without_a_proof_is_convicted_everywhere_even_by_the_liar() -> None:
    t, s0 = at_declaration()
    step = s0.step
    send(t, s0, Declare(0, min(hand(s0)) + 1, True))  # make() leaves the lie's proof out
    convicted_at(t, step)
    assert isinstance(s0.halted, Cheat) and s0.halted.seat == 0


@pytest.mark.parametrize("how", ["another step", "another seat", "another claim", "cards the prover chose",
                                 "the true card alone"])
def test_a_proof_made_for_something_else_is_convicted(how: str) -> None:
    t, s0 = at_declaration()
    step, first = s0.step, hand(s0)[0]
    floor = first - 3
    action = Declare(0, floor, False)
    st_ = statement(s0, action)
    card = s0.knowledge.card(st_.handle)
    assert card is not None
    other = statement(s0, Declare(0, floor + 1, False))
    proof = {
        "another step": lambda: forged(s0, st_, step=step + 1),
        "another seat": lambda: forged(s0, st_, seat=1),
        "another claim": lambda: forged(s0, st_, encoded=other.encoded()),
        "cards the prover chose": lambda: forged(s0, st_, cards=[c for c in st_.cards if c != card][:2] + [card]),
        "the true card alone": lambda: forged(s0, st_, cards=[card]),
    }[how]()
    send(t, s0, action, lambda parts: [[parts[0][0], parts[0][1], proof]])
    convicted_at(t, step)


def _truncate(p: Parts) -> Any:
    proof = dict(p[0][2])
    return [[p[0][0], p[0][1], {"e": proof["e"][:-1], "z": proof["z"][:-1]}]]


def _oversize(p: Parts) -> Any:
    proof = dict(p[0][2])
    return [[p[0][0], p[0][1], {"e": proof["e"] + [g.sb(1)], "z": proof["z"] + [g.sb(1)]}]]


@pytest.mark.parametrize("name, tamper", [
    ("truncated", _truncate),
    ("oversized", _oversize),
    ("no parts", lambda p: []),
    ("an extra part", lambda p: p + p),
    ("another handle", lambda p: [[p[0][0], p[0][1] + 1, p[0][2]]]),
    ("another claim index", lambda p: [[p[0][0] + 1, p[0][1], p[0][2]]]),
    ("a short scalar", lambda p: [[p[0][0], p[0][1], {"e": [b"\x01"] * len(p[0][2]["e"]), "z": p[0][2]["z"]}]]),
    ("not a map", lambda p: [[p[0][0], p[0][1], [1, 2]]]),
    ("not a list", lambda p: {"proofs": p}),
    ("a flipped challenge", lambda p: [[p[0][0], p[0][1], {"e": [g.sb((g.decode_scalar(p[0][2]["e"][0], seat=0,
                                                                               what="e") + 1) % g.L)]
                                                                + p[0][2]["e"][1:], "z": p[0][2]["z"]}]]),
])
def test_a_malformed_proof_is_convicted(name: str, tamper: Callable[[Parts], Any]) -> None:
    t, s0 = at_declaration()
    step = s0.step
    send(t, s0, Declare(0, max(0, hand(s0)[0] - 1), False), tamper)
    convicted_at(t, step)


def test_an_action_without_its_claims_field_is_convicted_when_it_owes_proofs() -> None:
    t, s0 = at_declaration()
    step = s0.step
    action = Declare(0, hand(s0)[0], False)
    send(t, s0, action, body={"action": action.to_data(), "cards": []})
    convicted_at(t, step)


def test_a_claims_field_on_a_record_that_proves_nothing_at_its_step_is_refused() -> None:
    t, s0 = at_declaration(CLAIMS_AT_AUDIT)
    step = s0.step
    action = Declare(0, hand(s0)[0], False)
    send(t, s0, action, body={"action": action.to_data(), "cards": [], "claims": []})
    for s in t.sessions[1:]:  # refused (the seat named); seat 0's agent then declares again, the old way
        assert any(isinstance(e, Rejected) and e.seat == 0 and e.step == step for e in s.events)
        assert s.halted is None and s.phase == "done"


def test_a_record_made_before_claim_proofs_plays_with_every_claim_waiting_for_the_audit() -> None:
    t, s0 = at_declaration(CLAIMS_AT_AUDIT)
    assert "claims" not in s0.genesis.to_data()
    assert Genesis.from_data(s0.genesis.to_data()).claims == CLAIMS_AT_AUDIT
    action = Declare(0, hand(s0)[0], False)
    send(t, s0, action, body={"action": action.to_data(), "cards": []})
    for s in t.sessions:
        assert s.halted is None and s.phase == "done" and s.claims_proven == {}
        assert claim_steps.counts(s) == {"claims": 1, "proven_at_step": 0, "waited_for_audit": 1}
        assert claim_steps.status(s, 0) == claim_steps.WAITS


class Liar:
    """Seat 0's agent that declares a floor above its first card (a lie its own cards show)."""

    def __init__(self) -> None:
        self.lied_at: int | None = None
        self.inner: Any = None

    def choose(self, game: Any, state: Any, seat: int, knowledge: Knowledge, legal: Any) -> Any:
        if legal and isinstance(legal[0], Declare):
            low = min(card_number(knowledge.card(h) or "") for h in state.hands[0])
            self.lied_at = state.step
            return Declare(seat, low + 1, True)
        return random.Random(1).choice(legal)


def test_a_seeded_liar_is_caught_at_the_step_it_lies_by_every_seat() -> None:
    liar = Liar()
    t = table(3, declarer=liar)
    t.start()
    t.run()
    assert liar.lied_at is not None
    for s in t.sessions:
        assert isinstance(s.halted, Cheat) and (s.halted.seat, s.halted.step) == (0, liar.lied_at)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), both=st.booleans(), below=st.integers(0, 3))
def test_honest_declarations_always_verify(seed: int, both: bool, below: int) -> None:
    t = table(3, declarer=None, seed=seed)
    t.start()
    t.run()
    s0 = t.sessions[0]
    cards = hand(s0)
    floor = max(0, (min(cards) if both else cards[0]) - below)
    step = s0.step
    send(t, s0, Declare(0, floor, both))
    assert all(s.halted is None and s.claims_proven == {0: step} and s.phase == "done" for s in t.sessions)


def test_the_verifier_replays_the_proofs_and_reports_when_each_claim_was_proven(tmp_path: Any, capsys: Any) -> None:
    t, s0 = at_declaration()
    step = s0.step
    send(t, s0, Declare(0, hand(s0)[0], False))
    verdict = verify(encode_record(t.sessions[1].transcript()))
    assert verdict.ok, str(verdict)
    assert verdict.claim_protocol == CLAIMS_AT_STEP
    assert verdict.claims == {"claims": 1, "proven_at_step": 1, "waited_for_audit": 0, "proven": [[0, step]]}
    assert "1 of 1 proven at their step" in str(verdict)
    path = tmp_path / "game.ftr"
    save(path, t.sessions[1].transcript())
    assert verify_cli([str(path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["claims"]["proven_at_step"] == 1 and printed["claims"]["waited_for_audit"] == 0


def test_a_record_without_claim_proofs_still_verifies_with_every_claim_waiting() -> None:
    t, s0 = at_declaration(CLAIMS_AT_AUDIT)
    action = Declare(0, hand(s0)[0], False)
    send(t, s0, action, body={"action": action.to_data(), "cards": []})
    verdict = verify(encode_record(t.sessions[2].transcript()))
    assert verdict.ok, str(verdict)
    assert verdict.claim_protocol == CLAIMS_AT_AUDIT
    assert verdict.claims == {"claims": 1, "proven_at_step": 0, "waited_for_audit": 1, "proven": []}


def test_the_verifier_names_the_liar_at_the_step_it_lied() -> None:
    liar = Liar()
    t = table(3, declarer=liar)
    t.start()
    t.run()
    verdict = verify(encode_record(t.sessions[1].transcript()))
    assert not verdict.ok and (verdict.seat, verdict.step, verdict.reason) == (0, liar.lied_at, "cheat"), str(verdict)


def test_a_claim_every_card_satisfies_needs_no_proof_and_counts_as_proven() -> None:
    t, s0 = at_declaration()
    step = s0.step
    action = Declare(0, 0, True)  # every card is c00 or higher
    assert claim_steps.owed(s0, 0, s0.state, s0.game.apply(s0.state, action)).statements == ()
    send(t, s0, action)
    assert all(s.halted is None and s.claims_proven == {0: step} for s in t.sessions)


def test_a_proof_narrows_what_the_card_may_be_for_every_later_claim() -> None:
    t, s0 = at_declaration()
    first = hand(s0)[0]
    action = Declare(0, first, False)
    [st_] = claim_steps.owed(s0, 0, s0.state, s0.game.apply(s0.state, action)).statements
    send(t, s0, action)
    for s in t.sessions:
        assert claim_steps.lineage(s).proven[st_.handle] == frozenset(st_.cards)
        narrowed = claim_steps.lineage(s).narrowed(s, st_.handle)
        assert narrowed is not None and min(card_number(c) for c in narrowed) == first

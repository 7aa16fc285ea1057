"""End-of-game audit: secret deck lists are opened and checked against the
deck rules; an illegal deck is named in the final record and by tools.verify.
Plus a property: any delivery order gives the same agreed, verifiable game."""

from __future__ import annotations

from collections import Counter

from harness import identities, rider_decks, rider_genesis, tiny_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.encoding import encode
from net.bots.greedy import GreedyBot
from net.games.rider.evaluation import rider_score
from net.bots.random_bot import RandomBot
from net.session import Session
from net.session.loopback import Loopback
from net.games import table_for
from net.verifier import verify


def _illegal_deck() -> tuple[str, ...]:
    """Ember Rush with a third copy of a card the rules allow twice (rider.deck)."""
    deck = list(rider_decks()[0])
    counts = Counter(deck)
    doubled = next(c for c, n in counts.items() if n == 2 and c != deck[-1])
    single = next(c for c, n in counts.items() if n == 1)
    deck.remove(single)
    deck.append(doubled)
    return tuple(deck)


def test_illegal_secret_deck_fails_the_audit_and_verify_names_the_seat() -> None:
    import random

    ids = identities(2)
    decks = (_illegal_deck(), rider_decks()[1])
    genesis = rider_genesis(ids, decks)
    table = table_for(genesis)
    agents = [GreedyBot(random.Random(1), rider_score), RandomBot(random.Random(2))]
    sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                        deck=decks[s], agent=agents[s]) for s in (0, 1)]
    net = Loopback(sessions)
    net.start()
    net.run()
    for s in sessions:
        assert s.finished
        assert s.verdict is not None and s.verdict.startswith("failed: seat 0:")
        assert s.audit_problems and {seat for seat, _ in s.audit_problems} == {0}
    verdict = verify(sessions[1].transcript())
    assert not verdict.ok and verdict.seat == 0 and verdict.reason == "audit"
    assert "rider.deck" in verdict.detail


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=2, max_value=4))
def test_any_delivery_order_gives_one_agreed_verifiable_game(order_seed: int, seats: int) -> None:
    table, _ = tiny_table(seats, shuffle_seed=order_seed)
    table.start()
    table.run()
    assert all(s.finished for s in table.sessions)
    assert len({s.hashes[-1] for s in table.sessions}) == 1
    assert len({encode(s.transcript()) for s in table.sessions}) == 1
    assert verify(table.sessions[0].transcript()).ok


def _claim_table(seed: int) -> Loopback:
    import random

    import claim_game  # registers the rules
    from harness import NONCE

    from engine.tiny.game import card_set_hash
    from net.envelope import Genesis

    ids = identities(3, tag="claims")
    genesis = Genesis(claim_game.RULES_ID, "1", card_set_hash(),
                      tuple(i.public_key for i in ids), {}, (NONCE,) * len(ids))
    table = table_for(genesis)
    sessions = [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                        agent=RandomBot(random.Random(seed * 10 + s))) for s in range(3)]
    net = Loopback(sessions)
    net.start()
    net.run()
    return net


def test_a_false_claim_is_judged_at_the_networked_audit_naming_seat_and_step() -> None:
    """Seat 0's prediction of the deck's top card is a claim nobody can check when it is made; the
    card is revealed later and the audit judges it with engine.core.false_claims (as LocalTable does).
    The shuffle is a real joint shuffle, so whether the random guess is right varies from run to run;
    both branches are checked, and a right guess is also made certain by correcting the claim."""
    import dataclasses

    for seed in range(2):
        net = _claim_table(seed)
        first = net.sessions[0]
        assert all(s.finished for s in net.sessions)
        first_audit = first.audit
        assert first_audit is not None
        (claim,) = first.game.claims(first.state)  # type: ignore[attr-defined]
        top = first.state.revealed[0]
        verdict = verify(first.transcript())
        if claim.value == top:
            assert first.verdict == "ok" and verdict.ok
        else:
            assert first.audit_findings[0][:2] == (0, claim.step)
            assert first.verdict is not None and first.verdict.startswith("failed: seat 0:")
            assert not verdict.ok and verdict.seat == 0 and verdict.step == claim.step
            assert verdict.reason == "audit" and "test.top" in verdict.detail and "test.predict" in verdict.detail
            assert len(first_audit.claim_findings()) == 1
        first.state = dataclasses.replace(first.state, claims=(dataclasses.replace(claim, value=top),))
        assert first_audit.claim_findings() == []  # the same audit finds a right guess true
        wrong = next(c for c in ("c00", "c01") if c != top)
        first.state = dataclasses.replace(first.state, claims=(dataclasses.replace(claim, value=wrong),))
        assert [f[:2] for f in first_audit.claim_findings()] == [(0, claim.step)]

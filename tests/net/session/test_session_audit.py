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
from net.bots.random_bot import RandomBot
from net.session import Session
from net.session.loopback import Loopback
from net.session.registry import table_for
from net.transcript import verify


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
    agents = [GreedyBot(random.Random(1)), RandomBot(random.Random(2))]
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

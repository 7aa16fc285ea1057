"""6 and 10 seats: shuffles by every seat, private deals, a sealed choice,
joint dice, card plays with proofs, a public reveal, a show to one seat and a
peek, all through the session and verified afterwards."""

from __future__ import annotations

import pytest
from harness import tiny_table

from engine.core.encoding import encode
from net.session import Rejected
from net.verifier import verify


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "shuffle_seed"), [(6, None), (10, 5)])
def test_dice_and_cards_exercise(seats: int, shuffle_seed: int | None) -> None:
    table, _ = tiny_table(seats, shuffle_seed=shuffle_seed)
    table.start()
    table.run()
    sessions = table.sessions
    for s in sessions:
        assert s.finished, (s.seat, s.phase, s.step, s.waiting_for(), [str(e) for e in s.events][:3])
        assert not [e for e in s.events if isinstance(e, Rejected)]
    assert len({s.hashes[-1] for s in sessions}) == 1
    assert len({encode(s.transcript()) for s in sessions}) == 1
    final = sessions[0].state
    assert len(final.dice) == 2 and all(1 <= f <= 6 for f in final.dice)
    assert all(final.played) and len(final.revealed) == 1
    # seat 0's last hand card was shown to seat 1 only
    shown = final.hands[0][0]
    knows = [s.seat for s in sessions if s.knowledge.knows(shown)]
    assert knows == [0, 1]
    assert sessions[1].knowledge.card(shown) == sessions[0].knowledge.card(shown)
    # the last seat peeked at the top card of the deck; nobody else knows it
    top = final.deck[0]
    assert [s.seat for s in sessions if s.knowledge.knows(top)] == [seats - 1]
    # every seat knows its own remaining hand and nobody else's
    for s in sessions:
        assert s.seat is not None
        for other, hand in enumerate(final.hands):
            for h in hand:
                assert s.knowledge.knows(h) == (other == s.seat or (h == shown and s.seat == 1))
    assert verify(sessions[-1].transcript()).ok

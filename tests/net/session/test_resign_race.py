"""The three-seat resignation race (net.session.resign, net.session.endgame.Final).

At a table of three, seat 2 signs its part of a joint round (here Tiny's
sealed guess: a commitment) and, before that part reaches the others, seat 0
resigns. Seat 2 had already taken its own part into its chain; seats 0 and 1
receive the resignation first and the game is over for them when seat 2's
part arrives. That late part is signed at the step the game ended at, and
seat 2's final record is chained after it: refusing it (as a message "after
the game ended") broke seat 2's chain on the other peers, so its final
record never linked and the resigner (and seat 1) stayed in phase ``final``
for ever. Every peer must end (``done``) and the transcript must verify,
whatever the delivery order; a part signed at an *earlier* step is still
refused. Fake transport (net.session.loopback, in-memory, ordered by hand).
"""

from __future__ import annotations

import random

import pytest
from harness import tiny_table

from net.envelope import Envelope
from net.session import resign
from net.session.messages import Outgoing
from net.verifier import verify


def _held_table(seed: int = 3) -> tuple[object, list[tuple[int, Outgoing]]]:
    """Three Tiny seats, seat 0 without a bot; seat 2's sealed-guess commitment is held back."""
    table, _ = tiny_table(3, seed=seed)
    a = table.sessions[0]
    a.agent = None  # seat 0 is a person who gives up instead of guessing
    held: list[tuple[int, Outgoing]] = []

    def tap(seat: int, out: Outgoing) -> Outgoing | None:
        if seat == 2 and Envelope.from_bytes(out.data).kind == "commit" and not held:
            held.append((seat, out))  # in flight: it reaches nobody until released
            return None
        return out

    table.tap = tap
    return table, held


def test_a_resignation_overtaking_another_seats_round_part_still_ends_every_peer() -> None:
    table, held = _held_table()
    a, b, c = table.sessions
    table.start()
    table.run()
    assert held, "seat 2's commitment is in flight"
    assert a.phase == "play" and a.legal(0)  # our sealed guess is due
    table.post(0, a.resign())  # it reaches seats 1 and 2 before seat 2's commitment reaches anyone
    table.run()
    table.tap = None
    for seat, out in held:
        table.queue.append((seat, out))
    table.run()
    for s in (a, b, c):
        assert s.phase == "done" and s.finished, (s.seat, s.phase, s.waiting_for())
        assert s.forfeited == 0 and s.outcome is not None and s.outcome["winner"] is None
    records = [s.transcript() for s in (a, b, c)]
    assert all(verify(t).ok for t in records), [str(verify(t)) for t in records]


@pytest.mark.parametrize("seed", range(24))
def test_a_resignation_ends_every_peer_of_three_in_any_delivery_order(seed: int) -> None:
    """Seat 0 resigns at once, with every other seat's parts in flight in a seeded random order."""
    table, _ = tiny_table(3, shuffle_seed=seed, seed=seed)
    a = table.sessions[0]
    a.agent = None
    table.start()
    rng = random.Random(seed)
    table.run(limit=rng.randrange(1, 12))  # part of the opening and the first rounds delivered
    if resign.can_resign(a):
        table.post(0, a.resign())
    table.run()
    for s in table.sessions:
        assert s.phase == "done", (seed, s.seat, s.phase, s.waiting_for())
    assert all(verify(s.transcript()).ok for s in table.sessions)

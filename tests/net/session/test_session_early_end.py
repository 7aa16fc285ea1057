"""After an early end at three or more seats the result still comes (issue 30, item 2).

A resignation (or a forfeit) takes the table to the final record with the
engine still mid-game. The final record's duties used to be read from the
engine (``game.pending(state) is None``), which an early end never reaches,
so every peer refused a forfeit claim against a seat withholding its final
record ("that seat owes nothing there") and the honest seats waited for
ever. And two seats resigning at one step ended each peer at the first
resignation it saw: the second was refused and the final records differed.

Every seat is our own Session; the network is the hand-driven queue of
test_session_forfeits (``Net``): a withholding seat has its messages dropped,
and the test decides who receives what, in which order. Tiny, 3, 5 and 10 seats.
"""

from __future__ import annotations

import pytest
from test_session_forfeits import G, T, Net, kind_of, make, to_staller_turn

from engine.core.encoding import encode
from net.envelope import Envelope
from net.session import Resigned
from net.verifier import verify


def _final_of(s: object, transcript: dict[str, object]) -> bytes:
    """The body of the final record this seat signed, as canonical bytes."""
    for data in transcript["envelopes"]:  # type: ignore[attr-defined]
        env = Envelope.from_data(data)
        if env.kind == "final" and env.seat == getattr(s, "seat"):
            return encode(env.body)
    raise AssertionError(f"seat {getattr(s, 'seat')} signed no final record")


@pytest.mark.parametrize("seats", [3, 5, 10])
def test_a_seat_withholding_its_final_record_after_a_resignation_is_forfeited(seats: int) -> None:
    """Seat 1 resigns; seat 2 never sends its final record. The others claim against
    seat 2 after their deadline and every one of them ends, with one final record."""
    sessions = make(seats)
    net = Net(sessions)
    net.drop = lambda seat, kind: seat == 2 and kind == "final"
    to_staller_turn(net, 1)
    net.post(1, sessions[1].resign())
    net.run()
    honest = [s for s in sessions if s.seat not in (1, 2)]
    for s in honest:
        assert s.phase == "final" and s.waiting_for() == (2,), (s.seat, s.phase, s.waiting_for())
    net.tick(T + 1, seats=[s.seat or 0 for s in honest])
    net.run()
    for s in honest:
        assert s.claimable() == (2,), (s.seat, s.claimable())
        net.post(s.seat or 0, s.claim_forfeit(2))
    net.run()
    refused = [e for s in honest for e in s.events if type(e).__name__ == "Rejected"]
    assert not refused, refused  # before: "claimed a forfeit by seat 2 ... but that seat owes nothing there"
    net.tick(T + 2 + G, seats=[s.seat or 0 for s in honest])
    net.run()
    finals = set()
    for s in honest:
        assert s.finished, (s.seat, s.phase, s.waiting_for())
        assert s.gone == {1, 2} and s.resigned == 1
        transcript = s.transcript()
        verdict = verify(transcript)
        assert verdict.ok and verdict.end == "forfeit claim", str(verdict)
        finals.add(_final_of(s, transcript))
    assert len(finals) == 1


@pytest.mark.parametrize("seats", [3, 5, 10])
def test_two_seats_resigning_at_one_step_give_every_peer_the_same_final_record(seats: int) -> None:
    """Seats 1 and 2 resign at the same step; half the others see seat 1's first, half
    seat 2's. Every peer ends, with byte-identical final records, and every record verifies."""
    sessions = make(seats)
    net = Net(sessions)
    to_staller_turn(net, 1)
    step = sessions[0].step
    assert sessions[2].step == step
    net.post(1, sessions[1].resign())
    net.post(2, sessions[2].resign())
    resigns = {kind_of(q[2]): q for q in net.queue}
    r1, r2 = resigns[(1, "resign")], resigns[(2, "resign")]
    others = [s.seat or 0 for s in sessions if s.seat not in (1, 2)]
    first_one = set(others[::2])
    first_two = set(others[1::2]) | {1, 2}  # the resigners see each other's too
    net.run(to=first_one, only=lambda sender, data: data == r1[2])
    net.run(to=first_two, only=lambda sender, data: data == r2[2])
    net.run()
    finals = set()
    for s in sessions:
        assert s.finished, (s.seat, s.phase, s.waiting_for())
        assert s.gone == {1, 2}, (s.seat, s.gone)
        assert {e.seat for e in s.events if isinstance(e, Resigned)} == {1, 2}
        if s.seat not in (1, 2):
            transcript = s.transcript()
            verdict = verify(transcript)
            assert verdict.ok, str(verdict)
            finals.add(_final_of(s, transcript))
            assert s.outcome is not None and s.outcome["winner"] is None
    assert len(finals) == 1, finals


def test_a_claim_signed_past_the_resignations_step_is_kept_without_effect_and_every_peer_ends() -> None:
    """Seat 0 resigns at step r while the table waits for seat 1's play; before the resignation
    reaches seat 2, seat 1 plays and seat 2 goes on past r and signs a (hostile, immediate) claim
    there. On the others that claim lies past the end: kept without effect, never waited for
    (it would hold seat 2's final record, chained after it, for ever)."""
    from engine.core.pending import Decision
    from test_session_forfeits import hostile_claim

    sessions = make(3)
    net = Net(sessions)
    for s in sessions:
        s.agent = None
    net.start()
    net.run()
    while not (isinstance(sessions[0].pending, Decision) and sessions[0].pending.seat == 1):
        for s in sessions:
            if s.legal(s.seat or 0):
                net.post(s.seat or 0, s.submit(s.seat or 0, s.legal(s.seat or 0)[0]))
        net.run()
    a, b, c = sessions
    r = a.step
    net.post(0, a.resign())  # held in the queue: nobody has it yet
    net.post(1, b.submit(1, b.legal(1)[0]))
    net.run(to={2}, only=lambda sender, data: sender == 1)  # seat 2 sees the play, not the resignation
    assert c.step == r + 1
    while c.legal(2) and isinstance(c.pending, Decision):
        net.post(2, c.submit(2, c.legal(2)[0]))
    assert c.step > r
    claim_step = c.step
    others = [seat for seat in c.waiting_for() if seat != 2] or [0]
    net.post(2, hostile_claim(c, others[0]))
    net.run()
    for s in sessions:
        assert s.finished, (s.seat, s.phase, s.waiting_for(), claim_step)
        refused = [e for e in s.events if type(e).__name__ == "Rejected" and e.kind == "forfeit"]
        assert not refused, refused
    assert verify(a.transcript()).ok


@pytest.mark.parametrize("seats", [3, 5])
def test_after_a_forfeit_a_seat_withholding_its_final_record_is_forfeited_too(seats: int) -> None:
    """Seat 1 goes silent and is forfeited by everyone's claims; then seat 2 never sends its final
    record. Before, the second claim was refused ("owes nothing there") and the others waited for ever."""
    sessions = make(seats)
    net = Net(sessions)
    net.drop = lambda seat, kind: (seat == 1 and kind not in ("hello", "shuffle", "shares", "catch-up")) \
        or (seat == 2 and kind == "final")
    to_staller_turn(net, 1)
    live = [s.seat or 0 for s in sessions if s.seat != 1]
    net.tick(T + 1, seats=live)
    net.run()
    for seat in live:
        s = sessions[seat]
        if 1 in s.claimable():
            net.post(seat, s.claim_forfeit(1))
    net.run()
    net.tick(T + 2 + G, seats=live)
    net.run()
    honest = [seat for seat in live if seat != 2]
    for seat in honest:
        s = sessions[seat]
        assert s.phase == "final" and s.forfeited == 1 and s.waiting_for() == (2,), (seat, s.phase, s.waiting_for())
    start = 2 * T + 3 + G
    net.tick(start, seats=honest)
    net.run()
    for seat in honest:
        net.post(seat, sessions[seat].claim_forfeit(2))
    net.run()
    net.tick(start + G + 1, seats=honest)
    net.run()
    for seat in honest:
        s = sessions[seat]
        assert s.finished and s.gone == {1, 2}, (seat, s.phase, s.waiting_for())
        verdict = verify(s.transcript())
        assert verdict.ok and verdict.unproven, str(verdict)


@pytest.mark.parametrize("order", ["mine first", "theirs first"])
def test_both_seats_of_two_resigning_at_once_end_with_no_winner_on_both_peers(order: str) -> None:
    """Two seats concede at the same moment: each session took its own resignation first and
    named the other the winner. Nobody signs a final record then (both left), so the second
    resignation turns the outcome into no winner, on both peers and in both records alike."""
    sessions = make(2)
    net = Net(sessions)
    to_staller_turn(net, 1)
    a, b = sessions
    net.post(0, a.resign())
    net.post(1, b.resign())
    if order == "theirs first":
        net.queue.reverse()
    net.run()
    outcomes = set()
    for s in sessions:
        assert s.finished and s.gone == {0, 1}, (s.seat, s.phase)
        assert s.outcome is not None and s.outcome["winner"] is None, s.outcome
        verdict = verify(s.transcript())
        assert verdict.ok and verdict.outcome is not None and verdict.outcome["winner"] is None, str(verdict)
        outcomes.add(encode(s.outcome))
    assert len(outcomes) == 1

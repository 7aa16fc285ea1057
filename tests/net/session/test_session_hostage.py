"""A colluding pair cannot hold a third seat hostage (issue 30, item 3; net/session/abandon.py).

One seat stalls, its partner never co-signs the forfeit claim (a forfeit
needs every other seat's claim), so before the abandonment deadline the
honest seats waited for ever. Now, after ``abandon_s``, a waiting seat signs
that the game is abandoned; it takes effect on each peer once that peer's
own abandonment deadline passed, with no winner (or, at the final record,
with the audited outcome and the silent seats excused). A hostile early
abandonment changes nothing before the honest deadlines and is named.

Every seat is our own Session on the hand-driven queue of
test_session_forfeits (``Net``), each with its own clock (``tick``). Tiny,
3, 5 and 10 seats.
"""

from __future__ import annotations

import pytest
from test_session_forfeits import G, T, Net, answer, make, misconduct, to_staller_turn

from net.session import Abandonable, pump
from net.session.abandon import body as abandon_body
from net.verifier import verify

A = 3 * T  # the default abandonment deadline (abandon.ABANDON_SHARE x timeout_s)
STALLER, PARTNER = 1, 2


def _claim_all(net: Net, seats: list[int], staller: int) -> None:
    for seat in seats:
        s = net.sessions[seat]
        if staller in s.claimable():
            net.post(seat, s.claim_forfeit(staller))
    net.run()


@pytest.mark.parametrize("seats", [3, 5, 10])
def test_a_stall_whose_partner_never_claims_ends_as_abandoned_after_the_longer_deadline(seats: int) -> None:
    sessions = make(seats)
    net = Net(sessions)
    to_staller_turn(net, STALLER)
    honest = [s.seat or 0 for s in sessions if s.seat not in (STALLER, PARTNER)]
    net.tick(T + 1, seats=honest)
    net.run()
    _claim_all(net, honest, STALLER)  # the partner signs no claim: no forfeit can come
    net.tick(A - 1, seats=honest)
    net.run()
    assert all(not net.sessions[seat].finished for seat in honest)
    assert all(not net.sessions[seat].abandonable() for seat in honest)  # not before the abandonment deadline
    net.tick(A + 1, seats=honest)
    net.run()
    for seat in honest:
        s = net.sessions[seat]
        assert any(isinstance(e, Abandonable) and e.seats == (STALLER,) for e in s.events)
        assert s.abandonable()
    first = net.sessions[honest[0]]
    net.post(honest[0], first.claim_abandon())  # one waiting seat is enough
    net.run()
    net.tick(A + 1 + G, seats=honest)
    net.run()
    for seat in honest:
        s = net.sessions[seat]
        assert s.finished, (seat, s.phase, s.waiting_for())
        assert s.outcome is not None and s.outcome["winner"] is None and "abandoned" in s.outcome["reason"]
        assert s.verdict == "not audited: abandoned" and s.abandoned is not None
        assert s.abandoned["silent"] == [STALLER] and not misconduct(s)
        verdict = verify(s.transcript())
        assert verdict.ok and verdict.end == "abandonment claim", str(verdict)
    partner = net.sessions[PARTNER]  # an honest session in the partner's seat agrees once its own deadline passed
    net.tick(A + 1 + G, seats=[PARTNER])
    net.run()
    assert partner.finished and partner.outcome == first.outcome


@pytest.mark.parametrize("seats", [3, 5])
def test_two_silent_seats_at_the_final_record_are_excused_and_the_audited_result_stands(seats: int) -> None:
    """The game reaches its audited end; seats 1 and 2 never sign the final record. Each owes,
    so neither's forfeit can gather every other claim; the abandonment excuses both."""
    sessions = make(seats)
    net = Net(sessions)
    net.drop = lambda seat, kind: seat in (STALLER, PARTNER) and kind == "final"
    net.start()
    net.run()
    honest = [s.seat or 0 for s in sessions if s.seat not in (STALLER, PARTNER)]
    for seat in honest:
        s = net.sessions[seat]
        assert s.phase == "final" and s.waiting_for() == (STALLER, PARTNER), (seat, s.phase, s.waiting_for())
    net.tick(T + 1, seats=honest)
    net.run()
    _claim_all(net, honest, STALLER)
    _claim_all(net, honest, PARTNER)
    net.tick(T + 2 + G, seats=honest)
    net.run()
    assert all(not net.sessions[seat].finished for seat in honest)  # the hostage, before this fix for ever
    net.tick(A + 1, seats=honest)
    net.run()
    net.post(honest[0], net.sessions[honest[0]].claim_abandon())
    net.run()
    net.tick(A + 1 + G, seats=honest)
    net.run()
    for seat in honest:
        s = net.sessions[seat]
        assert s.finished and s.verdict == "ok" and s.gone == {STALLER, PARTNER}
        audited = s.game.outcome(s.state)
        assert audited is not None and s.outcome == audited.__canonical__()
        verdict = verify(s.transcript())
        assert verdict.ok and verdict.end == "abandonment claim", str(verdict)


@pytest.mark.parametrize("seats", [3, 5])
def test_a_premature_abandonment_ends_nothing_and_is_named(seats: int) -> None:
    """The partner signs an abandonment the moment the staller's turn starts (a modified
    session). No honest peer ends before its own abandonment deadline; each names the
    claim; the staller's answer in time voids it and the game ends normally."""
    sessions = make(seats)
    net = Net(sessions)
    to_staller_turn(net, STALLER)
    partner = sessions[PARTNER]
    partner._send("abandon", abandon_body(partner))
    pump.pump(partner)
    net.post(PARTNER, partner._flush())
    net.run()
    honest = [s.seat or 0 for s in sessions if s.seat not in (STALLER, PARTNER)]
    net.tick(T - 1, seats=honest + [STALLER])
    net.run()
    for seat in honest:
        s = net.sessions[seat]
        assert not s.finished and any(m.seat == PARTNER and "abandoned" in m.what for m in misconduct(s))
    net.post(STALLER, answer(sessions[STALLER]))  # within its deadline
    net.run()
    sessions[STALLER].agent = sessions[0].agent  # from here it plays on like the others
    for now in (A + 2 + G, A + 3 + G):  # long after: the voided claim must not end the game
        net.tick(now)
        net.run()
    for seat in honest:
        s = net.sessions[seat]
        assert s.finished and s.verdict == "ok" and s.abandoned is None, (seat, s.phase, s.abandoned)
        assert verify(s.transcript()).end == "normal end"


def test_lateness_shielded_from_forfeits_uses_up_one_budget_for_the_whole_game() -> None:
    """The staller answers its guess just before the abandonment deadline (its partner never
    claims, so no forfeit came at the forfeit deadline). At its next turn the honest seats may
    abandon soon after the forfeit deadline: its lateness budget (abandon_s - timeout_s) is spent."""
    sessions = make(3)
    net = Net(sessions)
    to_staller_turn(net, STALLER)
    net.tick(A - 1, seats=[0, PARTNER])
    net.run()
    staller = sessions[STALLER]
    net.post(STALLER, answer(staller))  # just inside the abandonment deadline
    net.run()
    a = sessions[0]
    assert a.waits.overdue[STALLER] == pytest.approx(A - 1 - T)
    net.run()  # the others play on (at the same moment) until the staller's own play is due
    assert a.waiting_for() == (STALLER,) and staller.legal(STALLER), a.waiting_for()
    since = a.waits.since
    net.tick(since + T - 1, seats=[0])
    assert not a.abandonable()
    net.tick(since + T + 2, seats=[0])
    assert a.abandonable()  # before: only after since + abandon_s, at every one of its turns
    net.post(0, a.claim_abandon())
    net.run()
    net.tick(since + T + 3 + G, seats=[0])
    net.run()
    assert a.finished and a.abandoned is not None and a.abandoned["silent"] == [STALLER]


def test_a_second_abandonment_at_one_wait_is_refused_by_every_peer() -> None:
    """One abandonment per seat and wait, in order: a flood of them is refused, naming its signer."""
    sessions = make(3)
    net = Net(sessions)
    to_staller_turn(net, STALLER)
    partner = sessions[PARTNER]
    for _ in range(2):
        partner._send("abandon", abandon_body(partner))  # past claim_abandon's own once-per-wait check
        net.post(PARTNER, partner._flush())
    net.run()
    a = sessions[0]
    refused = [e for e in a.events if type(e).__name__ == "Rejected" and e.kind == "abandon"]
    assert len(refused) == 1 and refused[0].seat == PARTNER and "second abandonment" in refused[0].error, refused
    assert list(a.waits.abandons) == [(a.step, "play")] and list(a.waits.abandons[(a.step, "play")]) == [PARTNER]

"""Forfeit claims against hostile seats (docs/security.md, "Forfeits and timeouts").

Every seat is our own :class:`Session`; a hostile one signs claims its
honest twin would refuse to sign (:func:`hostile_claim`), a withholding one
has its messages dropped by the network. Each session has its own clock
(``tick``), and the test decides which payload reaches which peer when, so
arrival order is part of every scenario.

Shown here: a seat that answers within its own deadline never loses to a
claim, in 2 and 3 seats and either arrival order; a premature claim is named
as the claimer's misconduct; the audit and the final record have deadlines
and forfeits too; a forfeit verifies only as a signed claim, and a record
that holds the answer refutes it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from harness import NONCE, identities
from engine.tiny.game import RULES_ID, card_set_hash
from net.games import table_for

from engine.core.encoding import decode
from engine.core.pending import Decision
from net.bots.random_bot import RandomBot
from net.envelope import Envelope, Genesis
from net.session import Finished, Misconduct, Outgoing, Rejected, Session, Stalling
from net.session import deadlines, pump
from net.verifier import verify

T = 30  # deadline (whole seconds: genesis options hold no floats)
G = 5  # grace


def make(seats: int, **options: Any) -> list[Session]:
    ids = identities(seats, tag="forfeit")
    genesis = Genesis(RULES_ID, "1", card_set_hash(), tuple(i.public_key for i in ids),
                      {"timeout_s": T, "grace_s": G, "names": [f"P{s}" for s in range(seats)], **options}, (NONCE,) * seats)
    table = table_for(genesis)
    return [Session(genesis, table.game, table.state, plan=table.plan, identity=ids[s], seat=s,
                    agent=RandomBot(random.Random(10 + s))) for s in range(seats)]


def kind_of(data: bytes) -> tuple[int, str] | None:
    """(seat, kind) of an envelope payload; None for catch-up traffic."""
    try:
        env = Envelope.from_data(decode(data))
    except Exception:
        return None
    return env.seat, env.kind


class Net:
    """Payloads wait in a queue until the test delivers them (to whom, in which order)."""

    def __init__(self, sessions: list[Session]) -> None:
        self.sessions = sessions
        self.queue: list[tuple[int, set[int], bytes]] = []
        #: (sender, kind) pairs that are lost on the way (a seat withholding its message).
        self.drop: Callable[[int, str], bool] = lambda seat, kind: False

    def post(self, sender: int, out: list[Outgoing]) -> None:
        for o in out:
            k = kind_of(o.data)
            if self.drop(*(k or (sender, "catch-up"))):
                continue
            targets = {o.to} if o.to is not None else {s.seat for s in self.sessions if s.seat != sender}
            self.queue.append((sender, {t for t in targets if t is not None}, o.data))

    def start(self) -> None:
        for s in self.sessions:
            self.post(s.seat or 0, s.start())

    def run(self, to: set[int] | None = None, only: Callable[[int, bytes], bool] = lambda sender, data: True) -> None:
        """Deliver (to the seats ``to``, payloads ``only`` accepts) until nothing moves."""
        moved = True
        while moved:
            moved = False
            for item in list(self.queue):
                sender, targets, data = item
                for seat in sorted(targets):
                    if (to is None or seat in to) and only(sender, data):
                        targets.discard(seat)
                        self.post(seat, self.sessions[seat].receive(data, sender=f"peer-{sender}"))
                        moved = True
                if not targets and item in self.queue:
                    self.queue.remove(item)

    def tick(self, now: float, seats: list[int] | None = None) -> None:
        for s in self.sessions:
            if seats is None or s.seat in seats:
                self.post(s.seat or 0, s.tick(now))


def hostile_claim(s: Session, staller: int) -> list[Outgoing]:
    """What a cheater's modified session sends: a signed claim, whatever the clock says."""
    s._send("forfeit", deadlines.claim_body(s, staller))
    pump.pump(s)
    return s._flush()


def to_staller_turn(net: Net, staller: int) -> None:
    """Play until the table waits for ``staller`` alone (its sealed guess), at time 0."""
    net.sessions[staller].agent = None
    net.start()
    net.run()
    for s in net.sessions:
        assert s.waiting_for() == (staller,), (s.seat, s.waiting_for())


def answer(s: Session) -> list[Outgoing]:
    """The staller's own answer: its sealed guess (the tiny game's first choice)."""
    legal = s.legal(s.seat or 0)
    assert legal, "the seat has nothing to answer"
    return s.submit(s.seat or 0, legal[0])


def misconduct(s: Session) -> list[Misconduct]:
    return [e for e in s.events if isinstance(e, Misconduct)]


def finish(net: Net, start: float) -> None:
    """Let everyone play on (agents for all) until the end."""
    for s in net.sessions:
        if s.agent is None:
            s.agent = RandomBot(random.Random(99))
    now = start
    for _ in range(50):
        net.tick(now)
        net.run()
        if all(s.finished for s in net.sessions):
            return
        now += 1.0
    raise AssertionError([(s.seat, s.phase, s.waiting_for()) for s in net.sessions])


# --- premature claims -------------------------------------------------------------


def test_a_premature_claim_the_moment_the_victims_turn_starts_does_not_win_two_seats() -> None:
    """Seat 0 claims as soon as seat 1 owes its guess. Seat 1 names the claim as
    seat 0's misconduct, answers within its deadline and plays on; the cheater's
    own session ends the game in its favour, but that record only verifies as a
    signed claim, and the victim wins once the cheater stops playing."""
    a, b = sessions = make(2)
    net = Net(sessions)
    to_staller_turn(net, 1)
    claimed_at = a.step
    net.post(0, hostile_claim(a, 1))
    net.run()
    [named] = misconduct(b)
    assert named.seat == 0 and "premature" in named.what
    net.tick(G + 1, seats=[0])  # the cheater's own session lets its claim take effect
    assert a.forfeited == 1 and a.finished
    net.tick(T - 1, seats=[1])
    net.post(1, answer(b))  # within seat 1's own deadline
    net.run()
    assert b.forfeited is None and b.phase == "play" and b.waiting_for() == (0,)  # now the cheater owes
    assert not any(e.kind == "final" for e in b._logs[0])  # its forfeit record is held back, never accepted
    # the cheater stopped playing: after its own deadline seat 1 claims, and wins by forfeit
    b.agent = RandomBot(random.Random(5))
    net.run()
    net.tick(T + T, seats=[1])
    assert b.claimable() == (0,)
    net.post(1, b.claim_forfeit(0))
    net.tick(T + T + G, seats=[1])
    assert b.finished and b.forfeited == 0 and b.outcome is not None and b.outcome["winner"] == 1
    refused = [r for r in b.events if isinstance(r, Rejected)]
    assert refused and refused[-1].seat == 0 and refused[-1].kind == "final"
    honest = verify(b.transcript())
    assert honest.ok and honest.end == "forfeit claim" and honest.forfeit is not None
    assert honest.forfeit["staller"] == 0 and honest.forfeit["claimers"] == [1]
    assert honest.void_claims == [{"claimer": 0, "staller": 1, "step": claimed_at, "part": "play"}]
    stolen = verify(a.transcript())
    assert stolen.ok and stolen.end == "forfeit claim"  # a record, never a plain win
    assert stolen.forfeit is not None and stolen.forfeit["claimers"] == [0] and stolen.forfeit["staller"] == 1
    assert "cannot be proven offline" in str(stolen) and "forfeit claim: seat 0 (P0) signed" in str(stolen)


def test_the_cheaters_record_with_the_victims_answer_in_it_is_refuted() -> None:
    """An answer in the signed record voids every claim against that step: the
    cheater's forfeit record plus the victim's answer fails, naming the cheater."""
    a, b = sessions = make(2)
    net = Net(sessions)
    to_staller_turn(net, 1)
    net.post(0, hostile_claim(a, 1))
    net.tick(G + 1, seats=[0])
    assert a.finished and a.forfeited == 1
    reply = answer(b)
    record = a.transcript()
    extra = [decode(o.data) for o in reply if kind_of(o.data) == (1, "commit")]
    assert extra
    envs = [Envelope.from_data(e) for e in (*record["envelopes"], *extra)]
    envs.sort(key=lambda e: (e.seen.step, e.seat, e.seq))
    verdict = verify({**record, "envelopes": [e.to_data() for e in envs]})
    assert not verdict.ok and verdict.seat == 0 and verdict.reason == "void forfeit", str(verdict)
    assert "answer is in the record" in verdict.detail


def test_a_premature_claim_in_three_seats_is_named_and_the_answer_in_time_stands() -> None:
    a, b, c = sessions = make(3)
    net = Net(sessions)
    to_staller_turn(net, 1)
    net.post(0, hostile_claim(a, 1))
    net.run()
    for s in (b, c):
        [named] = misconduct(s)
        assert named.seat == 0 and "premature" in named.what
    net.tick(T - 1)
    at = b.step
    net.post(1, answer(b))
    net.run()
    net.tick(T + G + 1)
    net.run()
    assert all(s.forfeited is None and s.step > at for s in sessions)
    finish(net, T + G + 2)
    assert all(s.forfeited is None and s.finished for s in sessions)
    assert len({s.hashes[-1] for s in sessions}) == 1
    verdict = verify(c.transcript())
    assert verdict.ok and verdict.end == "normal end" and verdict.void_claims[0]["claimer"] == 0


def test_an_honest_session_refuses_to_sign_a_claim_before_its_deadline() -> None:
    a, b = sessions = make(2)
    net = Net(sessions)
    to_staller_turn(net, 1)
    with pytest.raises(ValueError, match="deadline has not passed"):
        a.claim_forfeit(1)
    net.tick(T - 0.5)
    assert a.claimable() == ()
    net.tick(T + 0.5)
    assert a.claimable() == (1,)
    stalls = [e for e in a.events if isinstance(e, Stalling)]
    assert stalls and stalls[-1].seats == (1,)


# --- a claim racing an answer sent at the deadline ----------------------------------


@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize("claims_first", [True, False])
def test_a_claim_racing_an_answer_sent_at_the_deadline_never_wins(seats: int, claims_first: bool) -> None:
    """The staller answers just inside its own deadline while the others, whose
    deadline passed, claim. Whatever arrives first, every peer keeps playing the
    same game and nobody is blamed; the record shows the claims as void."""
    sessions = make(seats)
    net = Net(sessions)
    to_staller_turn(net, 1)
    claimers = [s for s in sessions if s.seat != 1]
    staller = sessions[1]
    net.tick(T + 0.01, seats=[s.seat or 0 for s in claimers])
    for s in claimers:
        net.post(s.seat or 0, s.claim_forfeit(1))
    staller.tick(T - 0.01)
    net.post(1, answer(staller))
    net.tick(T + 1)  # both are in flight for a second
    is_claim: Callable[[int, bytes], bool] = lambda sender, data: kind_of(data) == (sender, "forfeit")
    if claims_first:
        net.run(only=is_claim)
    net.run()
    net.tick(T + 1 + 2 * G)
    net.run()
    assert all(s.forfeited is None for s in sessions)
    assert len({(s.step, s.hashes[-1]) for s in sessions}) == 1
    assert not any(misconduct(s) for s in sessions)  # a race is nobody's fault
    finish(net, T + 2 + 2 * G)
    assert all(s.finished and s.forfeited is None for s in sessions)
    for s in sessions:
        verdict = verify(s.transcript())
        assert verdict.ok and verdict.end == "normal end", str(verdict)
        assert {v["claimer"] for v in verdict.void_claims} == {c.seat for c in claimers}


def test_an_answer_after_the_grace_period_is_too_late_and_every_peer_agrees() -> None:
    """The other side of the rule: a staller that stays silent past its deadline
    concedes when it sees the claims, so every peer records the same forfeit."""
    sessions = make(3)
    net = Net(sessions)
    to_staller_turn(net, 1)
    net.tick(T + 1)
    for s in sessions:
        if s.seat != 1:
            net.post(s.seat or 0, s.claim_forfeit(1))
    net.run()
    assert sessions[1].forfeited == 1  # its own deadline passed: it concedes at once
    assert sessions[0].forfeited is None  # the grace period still runs here
    net.tick(T + 1 + G)
    net.run()
    assert all(s.finished and s.forfeited == 1 for s in sessions)
    assert len({tuple(sorted(s.outcome.items())) for s in sessions if s.outcome}) == 1
    for s in sessions:
        assert not misconduct(s)
        verdict = verify(s.transcript())
        assert verdict.ok and verdict.end == "forfeit claim" and verdict.void_claims == []
        assert verdict.forfeit is not None and verdict.forfeit["claimers"] == [0, 2] and verdict.seat is None


def test_an_honest_three_seat_game_ending_in_a_forfeit_verifies_blaming_only_the_staller() -> None:
    """Seat 1 vanishes mid-game (receives and sends nothing); seats 0 and 2 claim
    after their deadline and the game ends as seat 1's forfeit in both records."""
    sessions = make(3)
    net = Net(sessions)
    gone: list[bool] = []

    def drop(seat: int, kind: str) -> bool:  # from its first decision on, nothing of seat 1 arrives
        if seat == 1 and kind == "action":
            gone.append(True)
        return seat == 1 and bool(gone)

    net.drop = drop
    net.start()
    net.run()
    a, b, c = sessions
    assert gone and not a.finished and a.waiting_for() == (1,) == c.waiting_for()
    assert isinstance(a.pending, Decision)
    now = 0.0
    net.tick(now + T + 1, seats=[0, 2])
    net.run()
    for s in (a, c):
        if 1 in s.claimable():
            net.post(s.seat or 0, s.claim_forfeit(1))
    net.run()
    net.tick(now + T + 2 + G, seats=[0, 2])
    net.run()
    for s in (a, c):
        assert s.finished and s.forfeited == 1 and not misconduct(s)
        verdict = verify(s.transcript())
        assert verdict.ok and verdict.end == "forfeit claim", str(verdict)
        assert verdict.forfeit is not None and verdict.forfeit["staller"] == 1
        assert verdict.forfeit["claimers"] == [0, 2] and verdict.void_claims == []


# --- the audit and the final record -------------------------------------------------


def _to_the_end(net: Net) -> int:
    """Play the whole game; return the engine's loser (seat 0 or 1)."""
    net.start()
    net.run()
    a = net.sessions[0]
    assert a.phase in ("audit", "final", "done"), a.phase
    outcome = a.game.outcome(a.state)
    assert outcome is not None and outcome.winner in (0, 1)
    return 1 - outcome.winner


@pytest.mark.parametrize("part", ["audit", "final"])
def test_a_loser_withholding_its_audit_or_final_record_loses_it_after_the_deadline(part: str) -> None:
    sessions = make(2)
    net = Net(sessions)
    game = sessions[0].game
    # the loser's message of that part never reaches anyone
    loser_box: list[int] = []

    def drop(seat: int, kind: str) -> bool:
        if kind != part:
            return False
        s = sessions[seat]
        out = game.outcome(s.state)
        return out is not None and out.winner != seat and not loser_box.append(seat)  # type: ignore[func-returns-value]

    net.drop = drop
    loser = _to_the_end(net)
    winner = sessions[1 - loser]
    assert loser_box and loser_box[0] == loser
    assert winner.phase == part and winner.waiting_for() == (loser,)
    with pytest.raises(ValueError, match="deadline has not passed"):
        winner.claim_forfeit(loser)
    net.tick(T + 1, seats=[winner.seat or 0])
    assert winner.claimable() == (loser,)
    net.post(winner.seat or 0, winner.claim_forfeit(loser))
    net.tick(T + 1 + G, seats=[winner.seat or 0])
    assert winner.finished and winner.forfeited == loser
    assert winner.forfeit is not None and winner.forfeit["part"] == part
    assert winner.outcome is not None and winner.outcome["winner"] == winner.seat
    if part == "audit":
        assert winner.verdict == f"not audited: seat {loser} forfeited"
    else:
        assert winner.verdict == "ok"  # the audit was complete: only the loser's signature is missing
    verdict = verify(winner.transcript())
    assert verdict.ok and verdict.end == "forfeit claim" and verdict.forfeit is not None
    assert verdict.forfeit["part"] == part and verdict.forfeit["staller"] == loser


def test_a_premature_claim_at_the_audit_is_named_and_the_audit_in_time_stands() -> None:
    sessions = make(2)
    net = Net(sessions)
    net.start()
    net.run(only=lambda sender, data: kind_of(data) != (1, "audit"))
    a, b = sessions
    assert a.phase == "audit" and a.waiting_for() == (1,)
    held = [q for q in net.queue if kind_of(q[2]) == (1, "audit")]
    assert held
    net.post(0, hostile_claim(a, 1))  # at once, though seat 1's audit is already on its way
    net.tick(G + 1, seats=[1])
    net.run(only=lambda sender, data: sender == 0)
    [named] = misconduct(b)  # seat 1 sent its audit longer than the grace period ago
    assert named.seat == 0 and named.step == a.step and "on record" in named.what
    net.run()  # seat 1's audit, sent in time, arrives
    net.tick(G + 1)
    net.run()
    assert all(s.finished and s.forfeited is None and s.verdict == "ok" for s in sessions)
    verdict = verify(a.transcript())
    assert verdict.ok and verdict.end == "normal end" and verdict.void_claims[0]["part"] == "audit"


# --- claims that are refused by every peer alike --------------------------------------


def test_claims_every_peer_refuses_alike() -> None:
    """Refusals depend only on the record, never on timing: a claim against a seat
    that takes no part in that step, against oneself, for another step than the
    claimer had reached, or of an unknown part."""
    a, b = sessions = make(2)
    net = Net(sessions)
    for s in sessions:  # play by hand until a seat must decide (a Decision: the other takes no part)
        s.agent = None
    net.start()
    net.run()
    while not isinstance(a.pending, Decision):
        for s in sessions:
            if s.legal(s.seat or 0):
                net.post(s.seat or 0, s.submit(s.seat or 0, s.legal(s.seat or 0)[0]))
        net.run()
    decider = a.pending.seat
    other = 1 - decider
    bad = [{"staller": other, "step": a.step, "part": "play"},
           {"staller": decider, "step": a.step, "part": "later"},
           {"staller": decider, "step": a.step - 1, "part": "play"},
           {"staller": decider, "step": a.step, "part": "audit"},
           {"staller": decider, "step": a.step}]  # a claim must name its part (no two-field form any more)
    claimer = sessions[other]
    for body in bad:
        before = len([e for e in sessions[decider].events if isinstance(e, Rejected)])
        claimer._send("forfeit", body)
        net.post(other, claimer._flush())  # sent before its own session judges it
        net.run()
        refused = [e for e in sessions[decider].events if isinstance(e, Rejected)][before:]
        assert refused and refused[0].seat == other and refused[0].kind == "forfeit", body
        pump.pump(claimer)  # its own session refuses it alike, and reuses the sequence number
        claimer._flush()
    assert not any(isinstance(e, Finished) for e in sessions[decider].events)

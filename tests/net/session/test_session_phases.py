"""The session's phases as objects: the transition table, and what each phase refuses.

docs/architecture.md ("The session's phases") draws the diagram these tests hold
the code to: hello -> play -> audit -> final -> done, with the early end
(forfeit, resignation) from hello or play straight to final.
"""

from __future__ import annotations

from typing import Any

import pytest

from net.envelope import EnvelopeWriter
from net.errors import UnexpectedMessage
from net.session import Rejected, Session
from net.session.endgame import Audit, Final
from net.session.opening import Opening
from net.session.phases import PHASES, TRANSITIONS, Done, PhaseError, Wait, check_transition
from net.session.play import Play
from tests.net.session.harness import identities, tiny_table


def test_the_transition_table_allows_exactly_the_diagram() -> None:
    allowed = {(a, b) for a, nexts in TRANSITIONS.items() for b in nexts}
    assert allowed == {("hello", "play"), ("hello", "final"), ("play", "audit"), ("play", "final"),
                       ("audit", "final"), ("final", "done"),
                       ("hello", "done"), ("play", "done"), ("audit", "done")}  # abandonment (abandon.py)
    for old in PHASES:
        for new in PHASES:
            if (old, new) in allowed:
                check_transition(old, new)
            else:
                with pytest.raises(PhaseError, match=f"from phase {old!r} to phase {new!r}"):
                    check_transition(old, new)


def _run_watching(net: Any, seen: list[list[str]] | None = None) -> list[list[str]]:
    """Deliver one payload at a time until the queue is empty; each session's phases, in order."""
    seen = seen if seen is not None else [[s.phase] for s in net.sessions]

    def look() -> None:
        for s, names in zip(net.sessions, seen):
            if names[-1] != s.phase:
                names.append(s.phase)

    look()
    while net.queue:
        net.run(limit=1)
        look()
    return seen


@pytest.mark.parametrize("seats", [2, 3])
def test_a_whole_game_goes_through_every_phase_in_order(seats: int) -> None:
    net, _ = tiny_table(seats)
    net.start()
    seen = _run_watching(net)
    for s, names in zip(net.sessions, seen):
        assert names == ["hello", "play", "audit", "final", "done"], names
        assert s.finished and s.verdict == "ok" and s.waiting_for() == ()
        assert isinstance(s.current_phase, Done)
        assert s.audit is not None and s.audit.waiting_for() == ()


def test_a_resignation_in_play_skips_the_audit() -> None:
    net, _ = tiny_table(3)
    net.sessions[1].agent = None  # seat 1 decides by hand: the table stops at its first choice
    net.start()
    seen = _run_watching(net)
    assert all(s.phase == "play" and 1 in s.waiting_for() for s in net.sessions)
    net.post(1, net.sessions[1].resign())
    _run_watching(net, seen)
    for s, names in zip(net.sessions, seen):
        assert names == ["hello", "play", "final", "done"], names
        assert s.resigned == 1 and s.audit is None
        assert s.verdict == "not audited: a seat resigned"  # 3 seats: the record names no seat


def _fresh(seats: int = 2) -> Session:
    net, _ = tiny_table(seats)
    return net.sessions[0]


def _envelope(session: Session, seat: int, kind: str, body: Any, step: int = 0) -> Any:
    ids = identities(len(session.seats), tag="tiny")
    return EnvelopeWriter(ids[seat], session.gid, seat).write(kind, body, (step, session.hashes[0]))


def test_the_opening_holds_back_play_messages_and_later_phases_refuse_a_second_opening() -> None:
    s = _fresh()
    assert isinstance(s.current_phase, Opening) and s.phase == "hello"
    action = _envelope(s, 1, "action", {"action": {}, "cards": []})
    with pytest.raises(Wait):
        s.current_phase.take(action)
    hello = _envelope(s, 1, "hello", {"card": {}, "deck": ()})
    book: Any = None  # the refusal comes before the book is ever read
    for later in (Play(s, book), Audit(s, book, []), Final(s, {"winner": None, "reason": "x"}, "ok"), Done()):
        with pytest.raises(UnexpectedMessage, match="second opening message"):
            later.take(hello)


@pytest.mark.parametrize("kind", ["commit", "shuffle", "action", "audit"])
def test_the_final_record_and_done_refuse_game_messages_as_after_the_end(kind: str) -> None:
    s = _fresh()
    env = _envelope(s, 1, kind, {})
    for phase in (Final(s, {"winner": None, "reason": "x"}, "ok"), Done()):
        with pytest.raises(UnexpectedMessage, match=f"sent a '{kind}' message after the game ended"):
            phase.take(env)


def test_the_audit_holds_back_final_records_and_refuses_play_messages() -> None:
    s = _fresh()
    audit = Audit(s, None, [])  # type: ignore[arg-type]
    with pytest.raises(Wait):
        audit.take(_envelope(s, 1, "final", {}))
    with pytest.raises(UnexpectedMessage, match="'reveal' message after the game ended"):
        audit.take(_envelope(s, 1, "reveal", {}))


def test_a_finished_session_rejects_a_late_play_message_naming_its_phase_error() -> None:
    net, _ = tiny_table(2)
    net.start()
    net.run()
    done, late = net.sessions
    assert done.finished and late.finished
    env = late._send("commit", {"commit": bytes(32)})  # a well-chained, signed envelope after the end
    before = len(done.events)
    done.receive(env.to_bytes())
    refused = [e for e in done.events[before:] if isinstance(e, Rejected)]
    assert [(e.seat, e.kind, e.reason) for e in refused] == [(1, "commit", "UnexpectedMessage")]
    assert "after the game ended" in refused[0].error
    assert done.finished and done.phase == "done"


def test_the_session_refuses_an_illegal_change_of_phase_and_stays_where_it_was() -> None:
    s = _fresh()
    with pytest.raises(PhaseError):
        s._enter(Opening(s))  # hello -> hello (hello -> done is an abandonment now)
    with pytest.raises(PhaseError):
        s._enter(Audit(s, None, []))  # type: ignore[arg-type]
    assert s.phase == "hello" and isinstance(s.current_phase, Opening)

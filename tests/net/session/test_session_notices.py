"""Session.subscribe: a display hears every input, phase change, chat line and event, in order.

This is what lets a client stop polling the session's attributes (issue 10
item 2): the notices must say exactly what the attributes say, in the order
it happened, and a listener must neither break the table nor see things out
of order when it calls the session back.
"""

from __future__ import annotations

from typing import Any

import pytest

from net.session import Applied, ChatLine, Finished, Notice, PhaseChanged
from tests.net.session.harness import tiny_table


def _collect(session: Any) -> list[Notice]:
    heard: list[Notice] = []
    session.subscribe(heard.append)
    return heard


def test_a_subscriber_hears_the_whole_game_as_the_attributes_record_it() -> None:
    net, _ = tiny_table(3)
    heard = [_collect(s) for s in net.sessions]
    net.start()
    net.run()
    for s, notices in zip(net.sessions, heard):
        applied = [n for n in notices if isinstance(n, Applied)]
        assert [n.step for n in applied] == list(range(s.step))
        assert [n.action for n in applied] == s.applied
        assert all(n.before is s.states[n.step] and n.after is s.states[n.step + 1] for n in applied)
        phases = [(n.old, n.new) for n in notices if isinstance(n, PhaseChanged)]
        assert phases == [("hello", "play"), ("play", "audit"), ("audit", "final"), ("final", "done")]
        events = [n for n in notices if not isinstance(n, (Applied, PhaseChanged, ChatLine))]
        assert events == s.events and isinstance(notices[-1], Finished)
        # the order is the order things happened: play starts before the first input, the audit after the last
        order = [type(n).__name__ for n in notices]
        assert order.index("PhaseChanged") < order.index("Applied")
        last_input = max(i for i, n in enumerate(notices) if isinstance(n, Applied))
        audit = next(i for i, n in enumerate(notices) if isinstance(n, PhaseChanged) and n.new == "audit")
        assert last_input < audit


def test_chat_lines_are_heard_once_each_by_every_seat() -> None:
    net, _ = tiny_table(2)
    heard = [_collect(s) for s in net.sessions]
    net.start()
    net.post(0, net.sessions[0].chat("hello there"))
    net.run()
    for s, notices in zip(net.sessions, heard):
        lines = [(n.seat, n.text) for n in notices if isinstance(n, ChatLine)]
        assert lines == [(0, "hello there")] == s.chat_log


def test_a_listener_that_calls_the_session_back_keeps_the_order_for_every_listener() -> None:
    net, _ = tiny_table(2)
    s = net.sessions[1]
    first: list[Notice] = []
    second: list[Notice] = []

    def chatty(notice: Notice) -> None:
        first.append(notice)
        if isinstance(notice, PhaseChanged) and notice.new == "play":
            net.post(1, s.chat("we are playing"))  # a call back into the session during delivery

    s.subscribe(chatty)
    s.subscribe(second.append)
    net.start()
    net.run()
    assert s.finished and first == second
    assert ChatLine(1, "we are playing") in first


def test_a_failing_listener_is_logged_and_cannot_stop_the_table(caplog: pytest.LogCaptureFixture) -> None:
    net, _ = tiny_table(2)

    def broken(notice: Notice) -> None:
        raise RuntimeError("the display fell over")

    net.sessions[0].subscribe(broken)
    heard = _collect(net.sessions[0])
    net.start()
    net.run()
    assert all(s.finished for s in net.sessions)
    assert isinstance(heard[-1], Finished)
    assert "a session listener failed" in caplog.text


def test_after_unsubscribing_nothing_more_is_heard() -> None:
    net, _ = tiny_table(2)
    heard: list[Notice] = []
    stop = net.sessions[0].subscribe(heard.append)
    net.start()
    while not heard:
        net.run(limit=1)
    stop()
    count = len(heard)
    net.run()
    assert net.sessions[0].finished and len(heard) == count

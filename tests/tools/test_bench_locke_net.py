"""``tools.bench locke_net``: the virtual-clock network it times games with (tools/bench/locke_net.py).

The Locke games themselves are minutes of CPU (a benchmark, run by hand);
here a small Tiny table runs on the same :class:`VirtualTable`, so the
clock rules are checked: every input waits at least one hop, a longer hop
makes the game longer by whole hops, each peer's CPU is counted once.
"""

from __future__ import annotations

import time

import pytest

from tests.net.session.harness import tiny_table
from tools.bench.locke_net import VirtualTable, main


def _run(hop_ms: float) -> VirtualTable:
    table, _ = tiny_table(3, seed=5)
    virtual = VirtualTable(table.sessions, hop_ms)
    virtual.run()
    return virtual


def test_every_seat_ends_alike_and_every_input_waits_for_a_hop() -> None:
    began = time.process_time()
    t = _run(40.0)
    spent = time.process_time() - began
    sessions = t.sessions
    assert all(s.finished and s.verdict == "ok" for s in sessions)
    assert len({s.hashes[-1] for s in sessions}) == 1
    steps = sessions[0].step
    assert steps > 5 and all(len(marks) == steps + 1 for marks in t.reached)
    done = [t.applied_by_all(k) for k in range(steps + 1)]
    # no input is applied by every seat before a message crossed the table
    assert all(done[k + 1] - done[k] >= 0.040 for k in range(steps))
    assert max(t.free) >= done[-1] >= 0.040 * steps
    assert 0 < sum(t.cpu) <= spent
    assert all(r > 0 for r in t.received) and t.delivered > 0


def test_without_hops_the_game_lasts_between_one_peer_s_cpu_and_everyone_s() -> None:
    """With instant delivery some peer is always working until the end, so the game's virtual length
    is at most the CPU of all peers together, and at least the busiest peer's own CPU."""
    t = _run(0.0)
    assert max(t.cpu) <= max(t.free) <= sum(t.cpu) + 1e-9
    assert t.sessions[0].finished


def test_the_suite_refuses_a_table_size_locke_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--seats", "4"])
    assert "invalid choice" in capsys.readouterr().err


def test_a_check_put_off_until_our_part_was_sent_is_done_after_it_on_the_same_core(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The virtual table calls Session.work as the peer's driver does, once the part it was put off
    for has been posted; nothing is left to check at the end."""
    from net.session import Session

    calls: list[int] = []
    real = Session.work

    def counting(self: Session) -> list:  # type: ignore[type-arg]
        calls.append(self.seat if self.seat is not None else -1)
        return real(self)

    monkeypatch.setattr(Session, "work", counting)
    t = _run(0.5)
    assert calls and all(not s.has_work for s in t.sessions)
    assert all(s.finished and s.verdict == "ok" for s in t.sessions)


def test_a_combat_start_is_the_deck_s_shuffle_and_the_hands_dealt_right_after_it() -> None:
    from tools.bench.locke_net import COMBAT_DEAL, COMBAT_SHUFFLE, _combat_starts

    kinds = ["Decision", COMBAT_SHUFFLE, COMBAT_DEAL, COMBAT_DEAL, "Chance", COMBAT_DEAL, COMBAT_SHUFFLE]
    waits = [5.0, 200.0, 10.0, 12.0, 3.0, 9.0, 150.0]
    assert _combat_starts(kinds, waits) == [222.0, 150.0]  # a deal after another input is no combat start
    assert _combat_starts(["Decision"], [1.0]) == []


def test_the_collector_is_off_while_the_table_runs_and_back_on_after() -> None:
    """Full collections of the one process (ten peers' heaps) are not charged to a peer's handling;
    they run untimed between deliveries, and the collector is on again afterwards."""
    import gc

    from tools.bench import locke_net

    seen: list[bool] = []
    table, _ = tiny_table(3, seed=5)
    virtual = VirtualTable(table.sessions, 0.5)
    real = table.sessions[0].receive

    def watching(data: bytes, sender: str | None = None, *, via: int | None = None) -> list:  # type: ignore[type-arg]
        seen.append(gc.isenabled())
        return real(data, sender, via=via)

    table.sessions[0].receive = watching  # type: ignore[method-assign]
    assert gc.isenabled()
    old = locke_net.COLLECT_EVERY
    locke_net.COLLECT_EVERY = 10
    try:
        virtual.run()
    finally:
        locke_net.COLLECT_EVERY = old
    assert seen and not any(seen) and gc.isenabled()
    assert virtual.gc_s > 0 and virtual.delivered >= 10

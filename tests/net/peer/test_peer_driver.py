"""The driver's public controls (``Peer.leave``, ``Peer.claimable``,
``Peer.claim_forfeit``) with two in-process peers of the tiny test game over
TCP on 127.0.0.1. The default reactor is driven by ``reactor.iterate`` (never
run or stopped), so it stays reusable."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from net.identity import Identity
from net.games import game_named
from net.peer import Peer


def drive(reactor: Any, condition: Callable[[], bool], wall: float = 30.0) -> None:
    """Iterate the reactor until ``condition`` (a safety net against a hang, not a speed target)."""
    deadline = time.monotonic() + wall
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        reactor.iterate(0.002)


@pytest.fixture
def reactor() -> Any:
    from twisted.internet import reactor as the_reactor

    return the_reactor


def table(reactor: Any, *, joiner_agent: bool, timeout: float | None = None,
          said: dict[str, list[Any]] | None = None) -> tuple[Peer, Peer, list[Any]]:
    entry = game_named("tiny")
    ended: list[Any] = []
    said = said if said is not None else {}
    for who in ("host", "joiner", "host_text", "joiner_text"):
        said.setdefault(who, [])
    host = Peer(Identity.generate(), entry, reactor=reactor, agent=game_named("tiny").bot("random", random.Random(1)), name="host",
                session_timeout=timeout, linger=0.2, on_end=ended.append, on_progress=said["host"].append,
                report=said["host_text"].append)
    invite = host.host(2, interface="127.0.0.1")
    joiner = Peer(Identity.generate(), entry, reactor=reactor, name="joiner", linger=0.2, session_timeout=timeout,
                  agent=game_named("tiny").bot("random", random.Random(2)) if joiner_agent else None, on_end=ended.append,
                  on_progress=said["joiner"].append, report=said["joiner_text"].append)
    joiner.join(invite, listen="127.0.0.1")
    return host, joiner, ended


def test_progress_comes_as_events_with_stable_ids_and_the_same_english_lines(reactor: Any) -> None:
    from net.peer.progress import TEMPLATES, Progress

    said: dict[str, list[Any]] = {}
    host, joiner, _ = table(reactor, joiner_agent=True, said=said)
    try:
        drive(reactor, lambda: host.result is not None and joiner.result is not None)
    finally:
        joiner.leave("test over")
        host.leave("test over")
    for who in ("host", "joiner"):
        events = said[who]
        assert all(isinstance(e, Progress) and e.id in TEMPLATES for e in events)
        assert [e.text for e in events] == said[f"{who}_text"]  # tools.peer prints exactly these lines
    host_ids = [e.id for e in said["host"]]
    joiner_ids = [e.id for e in said["joiner"]]
    assert host_ids[0] == "hosting" and {"seat_taken", "starting", "playing", "finished"} <= set(host_ids)
    assert joiner_ids[0] == "joining_listen" and {"seated", "playing", "link_seat"} <= set(joiner_ids)
    taken = next(e for e in said["host"] if e.id == "seat_taken")
    assert taken.fields == {"who": "joiner", "seat": 1, "size": 2, "seat_n": 2}  # the index and the number people read
    assert taken.text == "joiner takes seat 2 (of 2 seats; seat 1 is the host)"
    playing = next(e for e in said["joiner"] if e.id == "playing")
    assert playing.fields["seat"] == 1 and playing.fields["names"] == ["host", "joiner"]


def test_claim_forfeit_is_refused_until_a_seat_stalls_then_ends_the_game(reactor: Any) -> None:
    host, joiner, _ = table(reactor, joiner_agent=False, timeout=0.3)
    try:
        drive(reactor, lambda: host.session is not None)
        assert host.claimable() == []
        with pytest.raises(ValueError, match="no seat has missed its deadline"):
            host.claim_forfeit()
        drive(reactor, lambda: host.claimable() == [1])  # the joiner never makes its sealed guess
        with pytest.raises(ValueError):
            host.claim_forfeit(0)  # our own seat is never claimable
        assert host.claim_forfeit() == [1]

        def over_or_claimed_again() -> bool:
            # a claim is voided if the joiner's part (say its shuffle, on a busy machine) arrives
            # within the grace period; then the host claims again at the next deadline it misses
            if host.result is None and host.claimable() == [1]:
                host.claim_forfeit(1)
            return host.result is not None

        drive(reactor, over_or_claimed_again)
        assert host.result is not None and host.result["error"] is None
        assert host.result["finished"] and host.result["forfeited"] == 1 and host.result["winner"] == 0
    finally:
        joiner.leave("test over")
        host.leave("test over")


def test_leave_closes_the_peer_once_with_the_reason(reactor: Any) -> None:
    host, joiner, ended = table(reactor, joiner_agent=True)
    try:
        drive(reactor, lambda: joiner.session is not None)
        joiner.leave("left the table from the client")
        assert joiner.result is not None and joiner.result["error"] == "left the table from the client"
        assert not joiner.result["finished"]
        joiner.leave("again")  # a second call changes nothing
        assert joiner.result["error"] == "left the table from the client"
        assert [r["error"] for r in ended] == ["left the table from the client"]
        assert joiner.claimable() == []
    finally:
        host.leave("test over")


def test_a_peer_cut_off_without_goodbye_resumes_from_its_directory(reactor: Any, tmp_path: Path) -> None:
    """``leave(goodbye=False)`` is a crash as the others see it: the joiner keeps
    redialling, and a new Peer built only from the host's directory resumes
    (same port, journal, catch-up) to the same audited end."""
    entry = game_named("tiny")
    me = Identity.generate()
    host = Peer(me, entry, reactor=reactor, agent=game_named("tiny").bot("random", random.Random(1)), delay=0.05, name="host",
                linger=0.2, directory=tmp_path / "host")
    joiner = Peer(Identity.generate(), entry, reactor=reactor, agent=game_named("tiny").bot("random", random.Random(2)), delay=0.05,
                  name="joiner", linger=0.2)
    joiner.join(host.host(2, interface="127.0.0.1"))
    back = None
    try:
        drive(reactor, lambda: host.session is not None and host.session.step >= 3)
        host.leave("crashed", goodbye=False)
        assert host.result is not None and not host.result["finished"]
        closed: list[object] = []
        for d in host.stopping:
            d.addBoth(closed.append)
        drive(reactor, lambda: len(closed) == len(host.stopping) == 1)  # the port is free again
        back = Peer(me, entry, reactor=reactor, agent=game_named("tiny").bot("random", random.Random(3)), delay=0.05, name="host",
                    linger=0.2, directory=tmp_path / "host")
        back.resume()
        drive(reactor, lambda: back.result is not None and joiner.result is not None, wall=60)
        assert back.result is not None and joiner.result is not None
        for result in (back.result, joiner.result):
            assert result["error"] is None and result["finished"] and result["audit"] == "ok", result
        assert back.result["final_hash"] == joiner.result["final_hash"]
    finally:
        joiner.leave("test over")
        if back is not None:
            back.leave("test over")


def test_a_resumed_host_still_lets_in_the_watchers_it_was_opened_with(reactor: Any, tmp_path: Path) -> None:
    """The host's watcher setting is kept in its directory: after a crash, a Peer built only from
    the directory (no ``watchers`` given) still admits a watcher, who watches to the audited end."""
    entry = game_named("tiny")
    me = Identity.generate()
    host = Peer(me, entry, reactor=reactor, agent=entry.bot("random", random.Random(1)), delay=0.05, name="host",
                linger=0.2, directory=tmp_path / "host", watchers=1, watcher_chat=False)
    joiner = Peer(Identity.generate(), entry, reactor=reactor, agent=entry.bot("random", random.Random(2)), delay=0.05,
                  name="joiner", linger=0.2)
    invite = host.host(2, interface="127.0.0.1")
    joiner.join(invite)
    back = watcher = None
    try:
        drive(reactor, lambda: host.session is not None and host.session.step >= 2)
        host.leave("crashed", goodbye=False)
        closed: list[object] = []
        for d in host.stopping:
            d.addBoth(closed.append)
        drive(reactor, lambda: len(closed) == len(host.stopping) == 1)
        back = Peer(me, entry, reactor=reactor, agent=entry.bot("random", random.Random(3)), delay=0.05, name="host",
                    linger=0.2, directory=tmp_path / "host")
        assert back.watchers == 0 and back.desk is None  # nothing given: the directory says
        back.resume()
        assert back.watchers == 1 and back.desk is not None and back.desk.limit == 1 and not back.desk.chat
        watcher = Peer(Identity.generate(), entry, reactor=reactor, name="watcher", linger=0.2, watch=True)
        watcher.join(invite)
        drive(reactor, lambda: watcher.result is not None and back.result is not None and joiner.result is not None,
              wall=60)
        assert watcher.result is not None and back.result is not None
        assert watcher.result["error"] is None and watcher.result["finished"] and watcher.result["audit"] == "ok"
        assert watcher.result["final_hash"] == back.result["final_hash"]
    finally:
        for peer in (joiner, back, watcher):
            if peer is not None:
                peer.leave("test over")


def test_a_refused_join_ends_the_joiner_with_the_reason_and_the_host_keeps_its_seat_open(reactor: Any) -> None:
    """A joiner whose card set differs is refused over TCP with the lobby's
    reason; the host does not start, and still seats the right player after."""
    import dataclasses

    from engine.core.hashing import digest

    entry = game_named("tiny")
    other = dataclasses.replace(entry, card_set_hash=lambda: digest("fairtable/test-cards", "not tiny"))
    host = Peer(Identity.generate(), entry, reactor=reactor, agent=game_named("tiny").bot("random", random.Random(1)), name="host",
                linger=0.2)
    invite = host.host(2, interface="127.0.0.1")
    wrong = Peer(Identity.generate(), other, reactor=reactor, agent=game_named("tiny").bot("random", random.Random(2)),
                 name="wrong", linger=0.2)
    right = None
    try:
        wrong.join(invite, connect_timeout=10)
        drive(reactor, lambda: wrong.result is not None)
        assert wrong.result is not None and not wrong.result["finished"]
        assert wrong.result["error"].startswith("the host refused us:"), wrong.result
        assert "card set differs" in wrong.result["error"]
        assert host.result is None and host.genesis is None  # no game started with the refused peer
        assert host.host_lobby is not None and not host.host_lobby.full
        right = Peer(Identity.generate(), entry, reactor=reactor, agent=game_named("tiny").bot("random", random.Random(3)),
                     name="right", linger=0.2)
        right.join(invite)
        drive(reactor, lambda: host.result is not None and right.result is not None)
        assert host.result is not None and right.result is not None
        assert host.result["error"] is None and host.result["finished"] and host.result["audit"] == "ok"
        assert right.result["final_hash"] == host.result["final_hash"]
        assert host.genesis is not None and wrong.identity.public_key not in host.genesis.seat_keys
    finally:
        wrong.leave("test over")
        if right is not None:
            right.leave("test over")
        host.leave("test over")


def test_a_stranger_dialling_a_running_game_is_turned_away_and_the_game_goes_on(reactor: Any) -> None:
    """Once every seat is taken, a third key is refused at the handshake with
    advice (ask for a new table); the seated peers finish the game unharmed."""
    host, joiner, _ = table(reactor, joiner_agent=True)
    stranger = Peer(Identity.generate(), game_named("tiny"), reactor=reactor,
                    agent=game_named("tiny").bot("random", random.Random(9)), name="stranger", linger=0.2)
    try:
        drive(reactor, lambda: host.genesis is not None)
        assert host.invite is not None
        stranger.join(host.invite, connect_timeout=20)
        drive(reactor, lambda: stranger.result is not None)
        assert stranger.result is not None and not stranger.result["finished"]
        error = stranger.result["error"]
        assert error.startswith("cannot join the table:") and "new table" in error, error
        drive(reactor, lambda: host.result is not None and joiner.result is not None)
        for result in (host.result, joiner.result):
            assert result is not None and result["error"] is None and result["audit"] == "ok", result
        assert host.result is not None and joiner.result is not None
        assert host.result["final_hash"] == joiner.result["final_hash"]
    finally:
        stranger.leave("test over")
        joiner.leave("test over")
        host.leave("test over")


def test_garbage_from_a_seated_peer_is_rejected_naming_it_and_the_game_goes_on(reactor: Any) -> None:
    """Payloads that are neither lobby messages nor envelopes reach the host's
    session over the real links: each is refused with a reason naming the
    sender's seat, counted, and the game still ends audited on both sides."""
    said: dict[str, list[Any]] = {}
    host, joiner, _ = table(reactor, joiner_agent=True, said=said)
    try:
        drive(reactor, lambda: host.session is not None and joiner.session is not None)
        for junk in (b"\x00 not an envelope", b"\xff" * 64, b""):
            joiner.mesh.send_to(host.identity.public_key, junk)
        drive(reactor, lambda: host.result is not None and joiner.result is not None)
    finally:
        joiner.leave("test over")
        host.leave("test over")
    assert host.result is not None and joiner.result is not None
    assert host.result["error"] is None and host.result["audit"] == "ok", host.result
    assert host.result["final_hash"] == joiner.result["final_hash"]
    assert host.result["rejected"] == 3 and joiner.result["rejected"] == 0
    refusals = [e.text for e in said["host"] if e.id == "rejected"]
    assert len(refusals) == host.result["rejected"]
    assert all("(seat 2)" in text and "MalformedMessage" in text and "game goes on" in text for text in refusals), \
        refusals


def test_a_done_notice_counts_only_for_the_senders_own_seat_and_game(reactor: Any) -> None:
    """A seated peer cannot announce another seat as done (which would let a
    peer leave before that seat had everything), nor a seat of another game.
    A garbage payload sent after them marks when the host has read them all."""
    from net.envelope import game_id
    from net.peer import lobby

    said: dict[str, list[Any]] = {}
    host, joiner, _ = table(reactor, joiner_agent=False, said=said)  # the game waits on the joiner
    try:
        drive(reactor, lambda: host.session is not None and joiner.session is not None)
        assert host.genesis is not None
        gid, key = game_id(host.genesis), host.identity.public_key

        def send_then_wait(*messages: bytes) -> None:
            marks = sum(1 for e in said["host"] if e.id == "rejected")
            for message in (*messages, b"\x00 marker %d" % marks):
                joiner.mesh.send_to(key, message)
            drive(reactor, lambda: sum(1 for e in said["host"] if e.id == "rejected") > marks)

        mine = joiner._author
        stranger = lobby.Author(Identity.generate(), host.mesh.table)
        send_then_wait(mine.done(gid, 0), mine.done(bytes(32), 1), mine.done(gid, 7), stranger.done(gid, 1))
        assert host._done == set() and host.result is None
        send_then_wait(mine.done(gid, 1))  # its own seat: counted
        assert host._done == {1}
    finally:
        joiner.leave("test over")
        host.leave("test over")


def test_claim_abandon_is_refused_until_the_abandonment_deadline_then_ends_the_game_with_no_winner(
        reactor: Any) -> None:
    """Peer.abandonable / Peer.claim_abandon (issue 30): the program's way to end a game no forfeit ends."""
    host, joiner, _ = table(reactor, joiner_agent=False, timeout=0.3)  # abandonment deadline 3 x 0.3 s
    try:
        drive(reactor, lambda: host.session is not None and host.session.waiting_for() == (1,))
        assert not host.abandonable()
        with pytest.raises(ValueError, match="cannot be abandoned now"):
            host.claim_abandon()
        drive(reactor, host.abandonable)  # the joiner never makes its sealed guess
        host.claim_abandon()
        drive(reactor, lambda: host.result is not None)
        assert host.result is not None and host.result["error"] is None and host.result["finished"]
        assert host.result["winner"] is None and host.result["abandoned"]["silent"] == [1], host.result
        assert host.result["audit"] == "not audited: abandoned"
    finally:
        joiner.leave("test over")
        host.leave("test over")


def test_a_resumed_host_brings_back_the_bots_it_seated(reactor: Any, tmp_path: Path) -> None:
    """Playtest: a host's window closed mid-game and resumed; the bot it had seated was gone for
    good (it lived only in the host's process), so the table stalled at its next roll. The host
    keeps each bot's key, kind and name in its directory (net/peer/bot_seats.py) and its resume
    brings them back: every seat finishes audited with the same final hash."""
    from net.peer.bot_seats import BOTS_DIR, add_bot

    entry = game_named("tiny")
    me = Identity.generate()
    host = Peer(me, entry, reactor=reactor, agent=entry.bot("random", random.Random(1)), delay=0.05, name="host",
                linger=0.2, directory=tmp_path / "host")
    joiner = Peer(Identity.generate(), entry, reactor=reactor, agent=entry.bot("random", random.Random(2)), delay=0.05,
                  name="joiner", linger=0.2)
    joiner.join(host.host(3, interface="127.0.0.1"))
    bot = add_bot(host, "random", seed=4)
    assert (tmp_path / "host" / BOTS_DIR / "1").is_dir()
    back = None
    try:
        drive(reactor, lambda: host.session is not None and host.session.step >= 3)
        for peer in (host, bot):  # the host's process dies, and its bot with it
            peer.leave("crashed", goodbye=False)
        closed: list[object] = []
        for d in [*host.stopping, *bot.stopping]:
            d.addBoth(closed.append)
        drive(reactor, lambda: len(closed) == len(host.stopping) + len(bot.stopping))
        back = Peer(me, entry, reactor=reactor, agent=entry.bot("random", random.Random(3)), delay=0.05, name="host",
                    linger=0.2, directory=tmp_path / "host")
        back.resume()
        assert [b.identity.public_key for b in back.bot_seats] == [bot.identity.public_key]
        assert back.bot_seats[0].name == bot.name and back.bot_seats[0].bot_kind == "random"
        again = back.bot_seats[0]
        drive(reactor, lambda: all(p.result is not None for p in (back, joiner, again)), wall=60)
        results = [p.result for p in (back, joiner, again)]
        for result in results:
            assert result is not None and result["error"] is None and result["finished"] and result["audit"] == "ok"
        assert len({r["final_hash"] for r in results if r is not None}) == 1
    finally:
        for peer in (joiner, back, *(back.bot_seats if back is not None else [])):
            if peer is not None:
                peer.leave("test over")

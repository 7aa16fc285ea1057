"""Watchers (issue 32 item 1) with whole Peers on the in-memory network (real meshes, links,
handshakes and sessions; a task clock): a watcher sees every envelope, verifies it through an
observer session, holds no card and no secret, is never a seat, and nothing it sends changes
the game; the host's limits and refusals say what happened."""

from __future__ import annotations

from net.envelope import game_id

import secrets

import pytest
from typing import Any

from engine.core.encoding import decode, encode
from net.envelope import Genesis
from net.identity import Identity
from net.peer import Peer, lobby
from net.peer.watching import CHAT_BURST, PULL_BURST, WatchDesk, check_watching
from net.transport.invite import Invite
from net.transport.keys import short_id
from net.transport.messages import Relay
from tests.net.peer.memory_peers import MemoryPeers


def _watcher(table: MemoryPeers, name: str, seed: int) -> Peer:
    peer = table.peer(name, seed, watch=True)
    peer.agent = None
    return peer


def _table(watchers: int = 2, chat: bool = True) -> tuple[MemoryPeers, Peer, Peer, Invite]:
    table = MemoryPeers()
    host = table.peer("host", 1, watchers=watchers, watcher_chat=chat)
    invite = host.host(2)
    joiner = table.peer("joiner", 2)
    return table, host, joiner, invite


def _ended(table: MemoryPeers, peers: list[Peer]) -> None:
    table.run(lambda: all(p.result is not None for p in peers), seconds=600)


def test_a_watcher_sees_every_step_of_the_seats_game_and_holds_nothing_secret() -> None:
    table, host, joiner, invite = _table()
    watcher = _watcher(table, "watcher", 3)
    watcher.join(invite)  # before the start: it waits for the game
    table.run(lambda: watcher._was_seated)
    joiner.join(invite)
    _ended(table, [host, joiner, watcher])
    for peer in (host, joiner, watcher):
        assert peer.result is not None and peer.result["error"] is None and peer.result["finished"], peer.result
    assert watcher.session is not None and host.session is not None and joiner.session is not None
    assert watcher.session.hashes == host.session.hashes == joiner.session.hashes  # every step
    assert watcher.result is not None and watcher.result["audit"] == "ok" and watcher.result["seat"] is None
    assert watcher.result["watcher"] is True and watcher.result["rejected"] == 0
    # never a seat: not in the genesis record, no card known, nothing signed
    assert watcher.identity.public_key not in watcher.session.genesis.seat_keys
    assert len(host.session.genesis.seat_keys) == 2
    assert dict(watcher.session.knowledge.cards) == {} and watcher.session.seat is None
    assert watcher.stats["messages"] == 0  # its observer session sent nothing
    assert host.result is not None and host.result["watchers"] == ["watcher"]
    assert [e.id for e in table.said["watcher"]][:1] == ["joining"]
    ids = [e.id for e in table.said["watcher"]]
    assert ids.index("watch_asked") < ids.index("watching")  # it asked, waited for the start, then watched


def test_a_watcher_that_comes_mid_game_catches_up_and_finishes_with_the_seats() -> None:
    table, host, joiner, invite = _table()
    joiner.join(invite)
    table.run(lambda: host.session is not None and host.session.step >= 6)
    watcher = _watcher(table, "late", 4)
    watcher.join(invite)
    table.run(lambda: watcher.session is not None and watcher.session.step >= 6)
    _ended(table, [host, joiner, watcher])
    assert watcher.session is not None and host.session is not None
    assert watcher.session.hashes == host.session.hashes and watcher.result is not None
    assert watcher.result["finished"] and watcher.result["error"] is None


def test_a_table_without_watchers_refuses_one_and_says_so() -> None:
    table, host, joiner, invite = _table(watchers=0)
    joiner.join(invite)
    watcher = _watcher(table, "watcher", 3)
    watcher.join(invite)
    table.run(lambda: watcher.result is not None)
    assert watcher.result is not None and "does not allow watchers" in str(watcher.result["error"])


def test_the_host_lets_in_no_more_watchers_than_it_allows() -> None:
    table, host, joiner, invite = _table(watchers=1)
    first, second = _watcher(table, "first", 3), _watcher(table, "second", 4)
    first.join(invite)
    table.run(lambda: first._was_seated)
    second.join(invite)
    table.run(lambda: second.result is not None)
    assert second.result is not None and "room for 1 watchers" in str(second.result["error"])
    joiner.join(invite)
    _ended(table, [host, joiner, first])
    assert first.result is not None and first.result["finished"]


def test_watchers_chat_through_the_host_within_its_rate_and_only_where_allowed() -> None:
    table, host, joiner, invite = _table()
    watcher = _watcher(table, "watcher", 3)
    joiner.join(invite)
    watcher.join(invite)
    table.run(lambda: watcher.session is not None)
    for n in range(CHAT_BURST + 2):
        watcher.chat(f"nice move {n}")
    table.net.settle()
    table.run(lambda: len(joiner.watch_lines) >= CHAT_BURST)
    assert [t for _, t in host.watch_lines] == [f"nice move {n}" for n in range(CHAT_BURST)]
    assert [t for _, t in joiner.watch_lines] == [f"nice move {n}" for n in range(CHAT_BURST)]
    refused = [e for e in table.said["host"] if e.id == "watch_refused"]
    assert refused and "chat lines in a row" in refused[0].text and "watcher (" in refused[0].text
    _ended(table, [host, joiner, watcher])

    quiet, quiet_host, quiet_joiner, quiet_invite = _table(chat=False)
    mute = _watcher(quiet, "mute", 3)
    quiet_joiner.join(quiet_invite)
    mute.join(quiet_invite)
    quiet.run(lambda: mute.session is not None)
    with pytest.raises(ValueError, match="does not let watchers chat"):
        mute.chat("hello")


def test_nothing_a_watcher_sends_reaches_the_other_seats_or_changes_the_game() -> None:
    table, host, joiner, invite = _table()
    watcher = _watcher(table, "sly", 3)
    joiner.join(invite)
    watcher.join(invite)
    table.run(lambda: watcher.session is not None and watcher.session.step >= 4)
    assert host.session is not None and watcher.genesis is not None
    seat1 = watcher.genesis.seat_keys[1]
    channel = watcher.mesh.peers[host.identity.public_key].channel
    assert channel is not None
    env = host.session.envelopes()[-1]
    # a seat's genuine envelope replayed, a forged one, both as a broadcast whose origin claims seat 2
    forged = bytearray(env.to_bytes())
    forged[-40] ^= 1
    for data in (env.to_bytes(), bytes(forged), secrets.token_bytes(64)):
        channel.send(Relay(watcher.mesh.game, seat1, data, 0))
        channel.send(Relay(watcher.mesh.game, seat1, data, 3, to=seat1))  # and toward seat 2 itself
    # claiming a seat: a join, a ready, and a done in seat 2's name
    gid = game_id(watcher.genesis)
    author = watcher._author
    watcher.mesh.send_to(host.identity.public_key, author.join(table.entry, table.entry.seat_info(None), "thief",
                                                               host=host.identity.public_key,
                                                               fresh=secrets.token_bytes(16)))
    watcher.mesh.send_to(host.identity.public_key, author.ready(gid, host=host.identity.public_key))
    watcher.mesh.send_to(host.identity.public_key, author.done(gid, 1))
    for _ in range(PULL_BURST + 5):
        watcher.mesh.send_to(host.identity.public_key, author.pull(gid, [0, 0]))
    table.net.settle()
    _ended(table, [host, joiner, watcher])
    assert host.result is not None and joiner.result is not None and watcher.result is not None
    assert host.result["rejected"] == 0 and joiner.result["rejected"] == 0  # no forgery reached a session
    assert host.result["final_hash"] == joiner.result["final_hash"] == watcher.result["final_hash"]
    refused = host.result["watcher_refusals"]["sly"]
    assert refused["game data"] == 3 and refused["a 'join' message"] == 1 and refused["a 'ready' message"] == 1
    assert refused["a 'done' message"] == 1 and refused["a pull"] >= 5, refused
    assert joiner.mesh.stats["guest_dropped"] == 0 and host.mesh.stats["guest_dropped"] == 3
    assert watcher.identity.public_key not in joiner.mesh.peers  # the seats never heard of it


def test_a_watching_answer_is_checked_like_every_lobby_message() -> None:
    table, host, joiner, invite = _table()
    watcher = _watcher(table, "watcher", 3)
    joiner.join(invite)
    watcher.join(invite)
    table.run(lambda: watcher.session is not None)
    assert host.genesis is not None and watcher._joiner is not None
    view, entry = watcher._joiner, table.entry
    me = watcher.identity.public_key

    start = host.genesis

    def answer(signer: Identity, **fields: object) -> lobby.LobbyMessage:
        body = {"genesis": start.to_data(), "to": me, "re": view.fresh, "chat": True, **fields}
        data = lobby.Author(signer, host.mesh.table)._sign("watching", **body)
        message = lobby.open_message(data, host.mesh.table)
        assert message is not None
        return message

    genesis, chat = check_watching(entry, answer(host.identity), view)
    assert game_id(genesis) == game_id(host.genesis) and chat
    with pytest.raises(lobby.LobbyForgery, match="not by the host"):
        check_watching(entry, answer(joiner.identity), view)
    with pytest.raises(lobby.LobbyForgery, match="another watcher or an earlier request"):
        check_watching(entry, answer(host.identity, to=joiner.identity.public_key), view)
    with pytest.raises(lobby.LobbyForgery, match="another watcher or an earlier request"):
        check_watching(entry, answer(host.identity, re=secrets.token_bytes(16)), view)
    # an altered answer does not verify at all
    data = lobby.Author(host.identity, host.mesh.table)._sign("watching", genesis=host.genesis.to_data(), to=me,
                                                              re=view.fresh, chat=True)
    outer = decode(data)["lobby"]
    altered = encode({"lobby": {**outer, "msg": {**outer["msg"], "chat": False}}})
    with pytest.raises(lobby.LobbyForgery, match="does not verify"):
        lobby.open_message(altered, host.mesh.table)


def test_the_desk_refuses_a_seat_as_watcher_other_hosts_and_other_games() -> None:
    table, host, joiner, invite = _table()
    desk = WatchDesk(table.entry, host.identity.public_key, limit=2)
    asker = Identity.generate()
    author = lobby.Author(asker, b"t" * 8)

    def ask(to: bytes, **kw: object) -> lobby.LobbyMessage:
        data = author.watch(table.entry, "w", host=to, fresh=secrets.token_bytes(16))
        message = lobby.open_message(data, b"t" * 8)
        assert message is not None
        return message

    with pytest.raises(lobby.LobbyForgery, match="another host"):
        desk.ask(ask(joiner.identity.public_key), [host.identity.public_key], 0.0)
    with pytest.raises(lobby.LobbyError, match="holds a seat"):
        desk.ask(ask(host.identity.public_key), [host.identity.public_key, asker.public_key], 0.0)
    with pytest.raises(lobby.LobbyError, match="you left this game"):  # its peer relays under that key
        desk.ask(ask(host.identity.public_key), [host.identity.public_key, asker.public_key], 0.0,
                 left=[asker.public_key])
    watcher = desk.ask(ask(host.identity.public_key), [host.identity.public_key], 0.0)
    assert desk.names() == ["w"] and not watcher.told
    pull = lobby.open_message(author.pull(b"g" * 32, [0, 0]), b"t" * 8)
    assert pull is not None
    with pytest.raises(lobby.LobbyError, match="not watching"):  # no pull before the watching answer
        desk.pull(pull, _genesis(host, joiner, table, invite), 0.0)
    with pytest.raises(ValueError, match="1 to 64"):
        WatchDesk(table.entry, host.identity.public_key, limit=0)


def _genesis(host: Peer, joiner: Peer, table: MemoryPeers, invite: Invite) -> Genesis:
    joiner.join(invite)
    table.run(lambda: host.genesis is not None)
    assert host.genesis is not None
    return host.genesis


def test_a_watchers_pulls_chat_and_answers_are_bounded() -> None:
    """The desk's buckets on its own clock: pulls, chat lines and the bytes sent in answer."""
    from net.peer import watching

    table, host, joiner, invite = _table()
    genesis = _genesis(host, joiner, table, invite)
    gid = game_id(genesis)
    desk = WatchDesk(table.entry, host.identity.public_key, limit=2)
    asker = lobby.Author(Identity.generate(), b"t" * 8)

    def signed(data: bytes) -> lobby.LobbyMessage:
        message = lobby.open_message(data, b"t" * 8)
        assert message is not None
        return message

    def ask() -> lobby.LobbyMessage:
        return signed(asker.watch(table.entry, "w", host=host.identity.public_key, fresh=secrets.token_bytes(16)))

    watcher = desk.ask(ask(), genesis.seat_keys, 0.0)
    for _ in range(PULL_BURST):  # asking again (a new link) spends the pull budget: no flood of answers
        assert desk.ask(ask(), genesis.seat_keys, 0.0) is watcher
    with pytest.raises(lobby.LobbyError, match="too often"):
        desk.ask(ask(), genesis.seat_keys, 0.0)
    watcher.pulls.tokens = float(PULL_BURST)
    watcher.told = True
    for _ in range(PULL_BURST):
        assert desk.pull(signed(asker.pull(gid, [0, 0])), genesis, 0.0) == (0, 0)
    with pytest.raises(lobby.LobbyError, match="pulls in a row"):
        desk.pull(signed(asker.pull(gid, [0, 0])), genesis, 0.0)
    assert desk.pull(signed(asker.pull(gid, [1, 2])), genesis, watching.PULL_REFILL) == (1, 2)  # one more later
    with pytest.raises(lobby.LobbyError, match="3 seats at a table of 2"):
        desk.pull(signed(asker.pull(gid, [0, 0, 0])), genesis, 100.0)
    with pytest.raises(lobby.LobbyError, match="another game"):
        desk.pull(signed(asker.pull(b"x" * 32, [0, 0])), genesis, 200.0)
    chunk = b"e" * (1024 * 1024)
    key = asker.identity.public_key
    assert desk.answer(key, [chunk] * (watching.PULL_BYTES // len(chunk)), 0.0)  # the whole budget at once
    assert not desk.answer(key, [chunk], 0.0)  # then nothing more now
    assert desk.answer(key, [chunk], 0.0 + len(chunk) / watching.PULL_BYTES_RATE + 0.01)  # its refill
    for n in range(CHAT_BURST):
        assert desk.say(signed(asker.wchat(gid, f"line {n}")), genesis, 0.0)[1] == f"line {n}"
    with pytest.raises(lobby.LobbyError, match="chat lines in a row"):
        desk.say(signed(asker.wchat(gid, "one too many")), genesis, 0.0)
    for n in range(watching.REFUSALS_SHOWN + 200):
        shown = desk.refusal(key, "game data")
        assert (shown is not None) == (n < watching.REFUSALS_SHOWN or (n + 1) % 100 == 0)
    desk.leave(key)
    assert desk.refusals() == {"w": {"game data": watching.REFUSALS_SHOWN + 200}}


def test_a_stranger_still_linked_to_a_joiner_from_the_lobby_is_not_heard_in_the_game() -> None:
    """A key that linked to a listening joiner before the start holds no seat once the seats are
    fixed: the joiner's mesh treats it as a guest (nothing forwarded) and its driver drops and
    names what it sends, so no session ever sees it."""
    from net.identity import fingerprint_of

    table, host, joiner, invite = _table(watchers=0)
    joiner.join(invite, listen="127.0.0.1")
    stranger = _watcher(table, "stranger", 5)
    stranger.watch = False
    stranger._make_mesh(invite.table, "lobby")
    stranger._start_loop()
    stranger.mesh.join(joiner.mesh.listen, fingerprint_of(joiner.identity.public_key))
    table.run(lambda: joiner.session is not None and joiner.identity.public_key in stranger.mesh.peers
              and stranger.mesh.peers[joiner.identity.public_key].channel is not None)
    assert host.session is not None and joiner.mesh.is_guest(stranger.identity.public_key)
    forged = bytearray(host.session.envelopes()[0].to_bytes())
    forged[-40] ^= 1
    stranger.mesh.game = joiner.mesh.game
    stranger.mesh.send_to(joiner.identity.public_key, bytes(forged))
    table.net.settle()
    named = [t for t in table.rejected("joiner") if "holds no seat" in t]
    assert named and short_id(stranger.identity.public_key) in named[0] and "game data" in named[0]
    _ended(table, [host, joiner])
    assert joiner.result is not None and joiner.result["rejected"] == 0 and joiner.result["finished"]
    stranger.leave("the test is over")


def test_during_the_game_the_hosts_mesh_admits_no_more_watchers_than_allowed() -> None:
    table, host, joiner, invite = _table(watchers=1)
    joiner.join(invite)
    table.run(lambda: host.session is not None and host.session.step >= 2)
    first, second = _watcher(table, "first", 3), _watcher(table, "second", 4)
    first.join(invite)
    table.run(lambda: first.session is not None)
    second.join(invite)
    table.run(lambda: second.result is not None)
    assert second.result is not None and "no room for more watchers" in str(second.result["error"])
    assert host.mesh.guest_limit == 1 and sum(1 for k in host.mesh.peers if host.mesh.is_guest(k)) == 1
    _ended(table, [host, joiner, first])
    assert first.result is not None and first.result["finished"] and host.result is not None
    assert host.result["final_hash"] == first.result["final_hash"]


def test_a_host_that_leaves_while_watched_closes_cleanly_and_the_watcher_is_told() -> None:
    table, host, joiner, invite = _table()
    joiner.join(invite)
    watcher = _watcher(table, "watcher", 3)
    watcher.join(invite)
    table.run(lambda: watcher.session is not None and watcher.session.step >= 3)
    errors_before = host.mesh.stats["callback_errors"]
    host.leave("the host quits")
    table.run(lambda: watcher.result is not None)
    assert host.mesh.closed and host.mesh.stats["callback_errors"] == errors_before
    assert watcher.result is not None and "the host left the table" in str(watcher.result["error"])
    assert watcher.ending is not None and watcher.ending.id == "end_host_left"
    joiner.leave("the test is over")


def test_a_watcher_over_its_byte_budget_gets_nothing_by_pulling_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pull refused for its byte budget is not answered later by the host's push either (the push
    pays from the same budget), so pulling the whole game again and again gets a watcher nothing."""
    table, host, joiner, invite = _table()
    joiner.join(invite)
    table.run(lambda: host.session is not None and host.session.step >= 6)
    watcher = _watcher(table, "late", 4)
    watcher.join(invite)
    table.run(lambda: watcher.session is not None and watcher.session.step >= 6)
    assert host.desk is not None and host.session is not None
    wkey = watcher.identity.public_key
    sent_bytes = {"n": 0}
    real = host.mesh.send_to

    def counting(key, data, *a, **kw):  # type: ignore[no-untyped-def]
        if key == wkey:
            sent_bytes["n"] += len(data)
        return real(key, data, *a, **kw)

    host.mesh.send_to = counting  # type: ignore[method-assign]
    from net.peer import watching as watching_module
    from net.session import catchup

    made = {"n": 0}
    real_replies = catchup.replies

    def counted_replies(*a, **kw):  # type: ignore[no-untyped-def]
        made["n"] += 1
        return real_replies(*a, **kw)

    monkeypatch.setattr(catchup, "replies", counted_replies)  # the driver's pull answer
    monkeypatch.setattr(watching_module, "replies", counted_replies)  # the desk's push
    w = host.desk.watchers[wkey]
    w.pulled.tokens = 0.0  # byte budget exhausted
    w.pulled.at = host.reactor.seconds()
    gid = game_id(host.session.genesis)
    total = sum(len(o) for o in [e.to_bytes() for e in host.session.envelopes()])
    before = sent_bytes["n"]
    pulls = 0
    for _ in range(8):
        w.pulled.tokens = 0.0
        w.pulled.at = host.reactor.seconds()
        watcher.mesh.send_to(host.identity.public_key, watcher._author.pull(gid, [0] * len(host.session.seats)))
        pulls += 1
        table.net.settle()
        host._after()
    assert made["n"] == 0  # nothing was even made for a watcher whose budget is empty
    refusals = host.desk.refusals()
    assert any("pull" in k for k in refusals.get("late", {}))
    assert sent_bytes["n"] - before < total, (sent_bytes["n"] - before, total)


def test_a_player_joining_a_running_watched_table_is_told_at_once_that_it_can_watch() -> None:
    """The table lets people watch, so the mesh lets a stranger's link in as a guest; a stranger who
    asks for a seat (not to watch) is refused at once with the reason and what to do instead, not
    left waiting for a seat until its join times out (a newcomer playtest saw exactly that)."""
    table, host, joiner, invite = _table()
    joiner.join(invite)
    table.run(lambda: host.session is not None and host.session.step >= 2)
    late = table.peer("late", 5)
    late.join(invite)
    table.run(lambda: late.result is not None, seconds=10)
    assert late.result is not None and "already started" in str(late.result["error"]), late.result
    assert "watch it instead" in str(late.result["error"])
    assert host.result is None and host.session is not None and host.session.halted is None  # the game goes on
    _ended(table, [host, joiner])
    assert host.result is not None and host.result["finished"]


def test_a_flood_of_joins_at_a_running_watched_table_is_answered_only_a_few_times(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile: a guest that ignores the refusal sends join after join; each costs the host a
    refusal message only the first few times (then every 100th), like every refused guest message."""
    from net.peer.watching import REFUSALS_SHOWN

    table, host, joiner, invite = _table()
    joiner.join(invite)
    table.run(lambda: host.session is not None and host.session.step >= 2)
    late = table.peer("late", 5)
    monkeypatch.setattr(late, "_end", lambda *a, **kw: None)  # a hostile client stays linked when refused
    late.join(invite)
    assert host.desk is not None
    table.run(lambda: host.desk is not None and host.desk.strangers >= 1, seconds=10)
    hkey, lkey = host.identity.public_key, late.identity.public_key
    sent: list[bytes] = []
    real = host.mesh.send_to

    def counting(key, data, *a, **kw):  # type: ignore[no-untyped-def]
        if key == lkey:
            sent.append(data)
        return real(key, data, *a, **kw)

    monkeypatch.setattr(host.mesh, "send_to", counting)
    for _ in range(50):
        late.mesh.send_to(hkey, late._author.join(table.entry, table.entry.seat_info(None), "late", host=hkey,
                                                  fresh=secrets.token_bytes(16)))
    table.net.settle()
    assert host.desk.strangers >= 50 and len(sent) <= REFUSALS_SHOWN, (host.desk.strangers, len(sent))
    assert host.session is not None and host.session.halted is None


def test_later_players_still_get_their_refusal_after_another_guest_used_up_its_own() -> None:
    """Review finding: one count for every key without a seat meant that after three refusals in
    all (one hostile guest's three joins), every later player was ignored and waited for its join
    to time out. Each key now has its own count."""
    from net.peer.watching import REFUSALS_SHOWN, WatchDesk
    from net.games import game_named

    desk = WatchDesk(game_named("tiny"), b"H" * 32, limit=2)
    spammer = b"S" * 32
    assert [desk.refusal(spammer, "a join") for _ in range(REFUSALS_SHOWN + 1)][-1] is None
    for i in range(5):
        assert desk.refusal(bytes([i]) * 32, "a join") == 1  # each newcomer is answered


def _resumed_host(tmp_path: Any) -> tuple[MemoryPeers, Peer, Peer, Invite]:
    """A watched table of two whose host crashed at step 2 and was resumed from its directory (it has
    no lobby then), listening where its invite says again."""
    from tests.net.transport.transport_helpers import Node

    table = MemoryPeers()
    host = table.peer("host", 1, watchers=2, directory=tmp_path / "host")
    invite = host.host(2)
    joiner = table.peer("joiner", 2)
    joiner.join(invite)
    table.run(lambda: host.session is not None and host.session.step >= 2)
    host.leave("crashed", goodbye=False)
    back = table.peer("host", 1, identity=host.identity, directory=tmp_path / "host")
    back.resume()
    assert back.host_lobby is None and back.desk is not None
    table.net.nodes[invite.addresses[0]] = Node(back.mesh, invite.addresses[0], [])
    return table, back, joiner, invite


def test_a_resumed_host_tells_a_late_player_to_watch_instead(tmp_path: Any) -> None:
    """Review gap: only a host with its lobby answered a late joiner of its running watched table;
    a host resumed from its directory has none, so the player waited until its join timed out."""
    table, back, joiner, invite = _resumed_host(tmp_path)
    late = table.peer("late", 5)
    late.join(invite)
    table.run(lambda: late.result is not None, seconds=10)
    assert late.result is not None and "watch it instead" in str(late.result["error"]), late.result
    assert back.result is None and back.session is not None and back.session.halted is None
    for peer in (back, joiner):
        peer.leave("the test is over")


def test_a_host_that_left_its_game_ends_its_watchers_watch_and_admits_nobody_new() -> None:
    """Review gap: a host that left (it only relays the seats' messages now) still let watchers in,
    though its halted session shows them nothing more. Its watchers are told the host left (their
    watch ends), and a watcher or a stranger asking later is refused at the link with the reason."""
    from net.peer.driver import RELAY_ONLY

    table = MemoryPeers()
    host = table.peer("host", 1, watchers=2)
    invite = host.host(3)
    one, two = table.peer("one", 2), table.peer("two", 3)
    one.join(invite)
    two.join(invite)
    watcher = _watcher(table, "watcher", 4)
    watcher.join(invite)
    table.run(lambda: watcher.session is not None and watcher.session.step >= 3 and host.can_step_out())
    host.step_out()
    table.run(lambda: watcher.result is not None, seconds=10)
    assert watcher.ending is not None and watcher.ending.id == "end_host_left", watcher.result
    late = _watcher(table, "late", 5)
    late.join(invite)
    table.run(lambda: late.result is not None, seconds=10)
    assert late.result is not None and "left the game" in str(late.result["error"]), late.result
    assert RELAY_ONLY[:40] in str(late.result["error"])
    assert host.desk is not None and not host.desk.watchers and host.relaying
    host.mesh.drop(one.identity.public_key, "a seat is never dropped")  # only guests are
    table.net.settle()
    assert host.mesh.peers[one.identity.public_key].channel is not None
    table.run(lambda: one.result is not None and two.result is not None, seconds=600)
    for peer in (one, two):
        assert peer.result is not None and peer.result["finished"] and peer.result["error"] is None, peer.result

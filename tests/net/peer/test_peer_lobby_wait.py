"""A table that waits for the last friend (issue 29 item 1): the lobby before the start.

Whole Peers on the in-memory network (real meshes, links and handshakes, a
task clock: minutes of waiting take no wall time). A seated joiner waits as
long as the host keeps the table open, however late the last friend comes;
a joiner that leaves or crashes before the start frees its seat (at once
when it says goodbye, after LOBBY_GRACE when its link just went away) and
the others hear how many the table still waits for; a joiner whose host is
gone gives up with words that say what to do.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from net.games import game_named
from net.identity import Identity
from net.peer import Peer
from net.peer.driver import LOBBY_GRACE
from tests.net.peer.memory_peers import MemoryPeers
from tests.net.peer.test_peer_hostile_lobby import seated

TIMEOUT = 30.0


def _wait(table: MemoryPeers, seconds: float) -> None:
    table.net.settle()
    waited = 0.0
    while waited < seconds:
        table.net.advance(0.25, step=0.25)
        waited += 0.25


def _play_out(table: MemoryPeers, peers: list[Peer]) -> None:
    """Let the game run to its end and check every peer finished it without an error."""
    table.run(lambda: all(p.result is not None for p in peers), seconds=600)
    for peer in peers:
        assert peer.result is not None and peer.result["error"] is None and peer.result["finished"], peer.result


def test_friends_who_arrive_minutes_apart_all_get_to_play() -> None:
    """Joiners at 0, 40, 90 and 150 s of a 5-seat table: nobody gives up after the 30 s join timeout."""
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(5)
    joiners: list[Peer] = []
    for n, arrives in enumerate((0.0, 40.0, 90.0, 150.0)):
        _wait(table, arrives - (0.0 if n == 0 else (0.0, 40.0, 90.0, 150.0)[n - 1]))
        assert all(j.result is None for j in joiners), [j.result for j in joiners]  # still waiting, seated
        joiner = table.peer(f"j{n}", 10 + n)
        joiner.join(invite, connect_timeout=TIMEOUT)
        seated(table, joiner, n + 1, host)
        joiners.append(joiner)
    first = joiners[0]
    waits = [e.fields["waiting"] for e in table.said["j0"] if e.id == "table_roster"]
    assert list(dict.fromkeys(waits)) == [3, 2, 1]  # "waiting for N more", as the table filled
    assert first.lobby_size == 5
    everyone = [host, *joiners]
    _play_out(table, everyone)


def test_a_joiner_who_quits_before_the_start_frees_its_seat_for_a_newcomer() -> None:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(4)
    leaver = table.peer("leaver", 2)
    leaver.join(invite, connect_timeout=TIMEOUT)
    seated(table, leaver, 1, host)
    stayer = table.peer("stayer", 3)
    stayer.join(invite, connect_timeout=TIMEOUT, listen="127.0.0.1")
    table.run(lambda: stayer.lobby_seated is not None and len(stayer.lobby_seated) == 3)  # 3 of 4 seats
    leaver.leave("changed my mind", goodbye=False)  # its process is gone: no goodbye, the link just drops
    _wait(table, LOBBY_GRACE / 2)
    assert host.host_lobby is not None and host.host_lobby.seat_of(leaver.identity.public_key) == 1  # a short outage
    table.run(lambda: host.host_lobby is not None and host.host_lobby.seat_of(leaver.identity.public_key) is None,
              seconds=LOBBY_GRACE * 2)
    freed = [e for e in table.said["host"] if e.id == "seat_freed"]
    assert freed and freed[0].fields["seat_n"] == 2 and freed[0].fields["waiting"] == 2, freed
    table.run(lambda: stayer.lobby_seated == (host.identity.public_key, stayer.identity.public_key))  # told at once
    assert host.host_lobby.seat_of(stayer.identity.public_key) == 1  # the seats after it moved up
    newcomer, last = table.peer("newcomer", 4), table.peer("last", 5)
    newcomer.join(invite, connect_timeout=TIMEOUT)
    seated(table, newcomer, 2, host)
    last.join(invite, connect_timeout=TIMEOUT)
    everyone = [host, stayer, newcomer, last]
    _play_out(table, everyone)
    assert host.genesis is not None and leaver.identity.public_key not in host.genesis.seat_keys


def test_a_joiner_who_leaves_and_comes_back_before_the_start_plays() -> None:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(3)
    identity = Identity.generate()
    first = table.peer("first", 2, identity=identity)
    first.join(invite, connect_timeout=TIMEOUT)
    seated(table, first, 1, host)
    first.leave("back in a minute")  # says goodbye: its seat is free at once
    table.run(lambda: host.host_lobby is not None and host.host_lobby.seat_of(identity.public_key) is None, seconds=5)
    other = table.peer("other", 3)
    other.join(invite, connect_timeout=TIMEOUT)
    seated(table, other, 1, host)
    again = table.peer("again", 4, identity=identity)  # the same player, a new process
    again.join(invite, connect_timeout=TIMEOUT)
    everyone = [host, other, again]
    _play_out(table, everyone)
    assert host.genesis is not None and host.genesis.seat_keys[2] == identity.public_key


def test_a_table_that_fills_while_a_seated_joiners_link_is_down_waits_for_it_or_frees_its_seat() -> None:
    """Seen in a real window (issue 29 item 1): a joiner's process died, and before its seat was
    freed the host's *Add a bot* filled the table; the game started without a living seat 2 and
    hung ("Waiting for 0 player(s)"). The start now waits for the seat to be freed (or to come back)."""
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(3)
    gone = table.peer("gone", 2)
    gone.join(invite, connect_timeout=TIMEOUT)
    seated(table, gone, 1, host)
    gone.leave("killed", goodbye=False)  # no goodbye: its link just drops
    _wait(table, 1.0)
    filler = table.peer("filler", 3)
    filler.join(invite, connect_timeout=TIMEOUT)
    seated(table, filler, 2, host)
    _wait(table, 1.0)
    assert host.genesis is None  # every seat taken, but one is down: no start yet
    held = [e for e in table.said["host"] if e.id == "start_held"]
    assert held and "gone" in held[0].fields["who"], held
    assert any(e.id == "table_full_held" for e in table.said["filler"])  # the joiner hears why, too
    table.run(lambda: host.host_lobby is not None and host.host_lobby.seat_of(gone.identity.public_key) is None,
              seconds=LOBBY_GRACE * 2)
    assert host.genesis is None and host.host_lobby.seat_of(filler.identity.public_key) == 1
    last = table.peer("last", 4)
    last.join(invite, connect_timeout=TIMEOUT)
    everyone = [host, filler, last]
    _play_out(table, everyone)
    assert host.genesis is not None and gone.identity.public_key not in host.genesis.seat_keys


def test_a_full_table_held_for_a_joiner_starts_when_it_comes_back() -> None:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(3)
    identity = Identity.generate()
    first = table.peer("first", 2, identity=identity)
    first.join(invite, connect_timeout=TIMEOUT)
    seated(table, first, 1, host)
    first.leave("crashed", goodbye=False)
    _wait(table, 1.0)
    other = table.peer("other", 3)
    other.join(invite, connect_timeout=TIMEOUT)
    seated(table, other, 2, host)
    _wait(table, 1.0)
    assert host.genesis is None
    again = table.peer("again", 4, identity=identity)  # the same player restarts within the grace
    again.join(invite, connect_timeout=TIMEOUT)
    _play_out(table, [host, other, again])
    assert host.genesis is not None and host.genesis.seat_keys[1] == identity.public_key


def _seated_joiner(seats: int) -> tuple[MemoryPeers, Peer, Peer]:
    """A host's table of ``seats`` and one joiner seated at it."""
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(seats)
    joiner = table.peer("joiner", 2)
    joiner.join(invite, connect_timeout=TIMEOUT)
    seated(table, joiner, 1, host)
    return table, host, joiner


def test_a_seated_joiner_whose_host_is_gone_gives_up_and_says_what_to_do() -> None:
    table, host, joiner = _seated_joiner(4)
    _wait(table, TIMEOUT * 3)
    assert joiner.result is None  # seated: it waits while the host is there
    host.leave("closed the table", goodbye=False)
    table.run(lambda: joiner.result is not None, seconds=TIMEOUT * 3)
    error = joiner.result["error"] if joiner.result else ""
    assert "out of reach" in error and "join again" in error, error
    assert any(e.id == "host_lost" for e in table.said["joiner"])


def test_a_joiner_never_seated_still_gives_up_after_its_timeout() -> None:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(2)
    host.leave("gone before anyone came", goodbye=False)
    joiner = table.peer("joiner", 2)
    joiner.join(invite, connect_timeout=TIMEOUT)
    table.run(lambda: joiner.result is not None, seconds=TIMEOUT + 5)
    assert "did not seat us" in (joiner.result or {}).get("error", "")


def test_a_window_that_joins_its_own_table_hears_so_at_once_and_profiles_give_two_keys(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from net.identity import default_key_path, profile_parts

    table = MemoryPeers()
    me = Identity.generate()
    host = table.peer("host", 1, identity=me)
    invite = host.host(2)
    again = table.peer("again", 2, identity=me)
    again.join(invite, connect_timeout=TIMEOUT)
    assert again.result is not None and "your own table" in again.result["error"]  # at once: no wait at all
    assert host.host_lobby is not None and len(host.host_lobby.seated) == 1
    monkeypatch.delenv("FAIRTABLE_PROFILE", raising=False)
    assert profile_parts() == ()
    first = default_key_path()
    monkeypatch.setenv("FAIRTABLE_PROFILE", "2")
    assert default_key_path() != first and default_key_path().parent.name == "2"
    monkeypatch.setenv("FAIRTABLE_PROFILE", "../up")
    import pytest

    with pytest.raises(ValueError, match="cannot name a profile"):
        profile_parts()


def test_the_host_fills_empty_seats_with_bots_that_play_like_any_seat() -> None:
    """Issue 29: bots in networked seats, run by the host (net/peer/bot_seats.py): each with its own
    key, joined over the host's own port; a friend comes too; all finish audited."""
    import pytest

    from net.peer.bot_seats import add_bot

    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(4)
    with pytest.raises(ValueError, match="has no bot 'genius'"):
        add_bot(host, "genius")
    first, second = add_bot(host, "random", seed=5), add_bot(host, "random", seed=6)
    table.run(lambda: host.host_lobby is not None and len(host.host_lobby.seated) == 3)
    keys = {host.identity.public_key, first.identity.public_key, second.identity.public_key}
    assert len(keys) == 3 and first.name == "Random bot 1"  # keys of their own
    friend = table.peer("friend", 7)
    friend.join(invite, connect_timeout=TIMEOUT)
    everyone = [host, first, second, friend]
    _play_out(table, everyone)
    with pytest.raises(ValueError, match="only the host of an open table"):
        add_bot(friend, "random")
    lonely = table.peer("lonely", 8)
    lonely.host(2)
    add_bot(lonely, "random", seed=1)
    table.run(lambda: lonely.result is not None, seconds=600)  # a 2-seat table: the bot makes it full
    with pytest.raises(ValueError, match="no empty seat"):
        add_bot(lonely, "random")


def test_a_host_who_closes_the_table_lets_its_joiners_go_at_once() -> None:
    table, host, joiner = _seated_joiner(4)
    host.leave("closed the table")  # a goodbye: not an outage
    table.run(lambda: joiner.result is not None, seconds=5)
    assert "closed the table" in (joiner.result or {}).get("error", "")


def test_a_stale_roster_relayed_to_a_seated_joiner_does_not_make_it_give_up() -> None:
    """Hostile: a roster the host really signed, but from before we sat down (replayed by another
    joiner), says we hold no seat; the joiner keeps waiting for the start all the same."""
    from net.peer import lobby

    table, host, joiner = _seated_joiner(4)
    assert host.invite is not None
    stale = lobby.Author(host.identity, host.invite.table).seated([host.identity.public_key], 4)
    opened = lobby.open_message(stale, host.invite.table)
    assert opened is not None
    joiner._on_lobby(opened)  # as if relayed to it: it verifies, and lists only the host
    assert joiner.lobby_seated == (host.identity.public_key,)
    _wait(table, TIMEOUT * 3)
    assert joiner.result is None  # still seated, still waiting


def test_a_peer_switches_its_game_only_before_any_table() -> None:
    """Peer.switch_game (an online code names its game once it pairs): made for Rider, the peer
    joins a Tiny table as Tiny; once hosting or joining, its game is fixed."""
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(2)
    with pytest.raises(RuntimeError, match="only before"):
        host.switch_game(game_named("rider"), deck=None, agent=None)
    joiner = Peer(Identity.generate(), game_named("rider"), reactor=table.clock, name="j", linger=0.2,
                  net_factory=table.factory)
    joiner.switch_game(table.entry, deck=None, agent=table.entry.bot("random", random.Random(3)))
    assert joiner.entry.name == "tiny" and joiner.info == {}
    joiner.join(invite, connect_timeout=TIMEOUT)
    table.run(lambda: joiner.result is not None and host.result is not None)
    assert joiner.result is not None and joiner.result["audit"] == "ok", joiner.result
    with pytest.raises(RuntimeError, match="only before"):
        joiner.switch_game(game_named("rider"), deck=None, agent=None)


def test_a_new_table_refuses_a_directory_that_holds_a_started_game(tmp_path: Path) -> None:
    """Found by the dice review: a peer started on a directory with another game's journal took
    over that game's card key, dice key and deck list. A new table now refuses such a folder
    (host and join alike), saying how to resume that game or what to give instead."""
    from net.peer.store import GENESIS_FILE, StoreError

    table = MemoryPeers()
    used = tmp_path / "used"
    used.mkdir()
    (used / GENESIS_FILE).write_bytes(b"from an earlier game")
    host = table.peer("host", 1, directory=used)
    with pytest.raises(StoreError, match="resume that game"):
        host.host(3)
    assert host.net is None  # nothing opened
    other = table.peer("other", 2)
    invite = other.host(3)
    joiner = table.peer("joiner", 3, directory=used)
    with pytest.raises(StoreError, match="empty folder"):
        joiner.join(invite, connect_timeout=TIMEOUT)
    fresh = table.peer("fresh", 4, directory=tmp_path / "fresh")
    fresh.join(invite, connect_timeout=TIMEOUT)  # an empty (or new) folder is fine
    table.run(lambda: len(other.host_lobby.seated) == 2, seconds=10)
    for peer in (other, fresh):
        peer.leave("test over")


def test_a_rematch_seats_the_hosts_bots_again_with_their_keys() -> None:
    """The playtest's rematch waited for the host's own bots to press *Play again*, which a bot never
    does: the new table seats them again (net/peer/bot_seats.py seat_again), with the keys the rematch
    lets in (only the last game's players), and the game starts."""
    from net.peer.bot_seats import add_bot, seat_again

    table = MemoryPeers()
    host = table.peer("host", 1)
    host.host(3)
    bots = [add_bot(host, "random", seed=5), add_bot(host, "random", seed=6)]
    _play_out(table, [host, *bots])
    assert host.genesis is not None
    players = frozenset(host.genesis.seat_keys)
    again = table.peer("host", 2, identity=host.identity)
    again.allowed_keys = players - {host.identity.public_key}
    again.host(3)
    back = seat_again(again, host)
    assert [b.identity.public_key for b in back] == [b.identity.public_key for b in bots]
    assert [b.name for b in back] == [b.name for b in bots] and all(b.bot_kind == "random" for b in back)
    _play_out(table, [again, *back])
    assert again.genesis is not None and frozenset(again.genesis.seat_keys) == players

"""A player who leaves a running game of three or more seats lets the others play on
(Peer.step_out, net/session/leave.py): whole Peers on the in-memory network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from net.peer import Peer
from net.peer.store import StoreError

from tests.net.peer.memory_peers import MemoryPeers


def _three_seats() -> tuple[MemoryPeers, Peer, Peer, Peer]:
    """A three-seat Tiny table: the host and two joiners, on the in-memory network."""
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(3)
    one, two = table.peer("one", 2), table.peer("two", 3)
    one.join(invite)
    two.join(invite)
    return table, host, one, two


@pytest.mark.parametrize("leaver", ["host", "two"])
def test_a_seat_that_steps_out_leaves_the_others_to_finish_the_game(leaver: str) -> None:
    """The leaver's signed ``leave`` goes out and it plays no more; it stays in the mesh as a relay
    (the two joiners here reach each other only through the host) until both others finished, then
    ends; its directory says it left, so it is never resumed."""
    table, host, one, two = _three_seats()
    peers = {"host": host, "one": one, "two": two}
    out = peers[leaver]
    table.run(lambda: host.session is not None and host.session.step >= 3 and out.can_step_out())
    out.step_out()
    assert out.relaying and out.session is not None and out.session.halted is not None
    assert "stepped_out" in [e.id for e in table.said[leaver]]
    others = [p for name, p in peers.items() if name != leaver]
    table.run(lambda: all(p.result is not None for p in others), seconds=600)
    for peer in others:
        assert peer.result is not None and peer.result["error"] is None and peer.result["finished"], peer.result
        assert peer.result["audit"] == "ok", peer.result
        assert peer.session is not None and out.seat in peer.session.left
        assert "left_game" in [e.id for e in table.said[peer.name]]
    assert others[0].result is not None and others[1].result is not None
    assert others[0].result["final_hash"] == others[1].result["final_hash"]
    table.run(lambda: out.result is not None)  # nobody needs it as a relay any more
    assert out.result is not None and out.result["error"] == "left the game; the others play on"


def test_a_seat_that_left_is_not_resumed(tmp_path: Path) -> None:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(3)
    one = table.peer("one", 2, directory=tmp_path / "one")
    two = table.peer("two", 3)
    one.join(invite)
    two.join(invite)
    table.run(lambda: one.can_step_out() and one.session is not None and one.session.step >= 2)
    one.step_out()
    again = table.peer("one", 2, identity=one.identity, directory=tmp_path / "one")
    with pytest.raises(StoreError, match="left that game for good"):
        again.resume()
    for peer in (host, one, two):
        peer.leave("the test is over")


def test_at_two_seats_still_playing_a_seat_cannot_step_out() -> None:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(2)
    one = table.peer("one", 2)
    one.join(invite)
    table.run(lambda: host.session is not None and host.session.step >= 2)
    assert not one.can_step_out() and not host.can_step_out()
    with pytest.raises(ValueError, match="give the game up instead"):
        one.step_out()
    assert one.result is None  # nothing was sent, nothing ended
    host.leave("the test is over")
    one.leave("the test is over")


def test_a_peer_that_left_stops_relaying_once_nobody_is_reachable_through_it() -> None:
    """The others vanish without a goodbye (their links only ever reconnect): the peer that left does
    not relay for ever; it ends RELAY_UNREACHABLE seconds after the last of them was reachable."""
    from net.peer.driver import RELAY_UNREACHABLE

    table, host, one, two = _three_seats()
    table.run(lambda: host.session is not None and host.session.step >= 3 and host.can_step_out())
    host.step_out()
    one.leave("crashed", goodbye=False)
    two.leave("crashed", goodbye=False)
    gone = table.clock.seconds()
    table.run(lambda: host.result is not None, seconds=RELAY_UNREACHABLE + 30)
    assert host.result is not None and host.result["error"] == "left the game; the others play on"
    assert table.clock.seconds() - gone >= RELAY_UNREACHABLE - 1


def test_two_seats_leaving_at_once_both_stop_relaying_after_the_others_finish() -> None:
    """Review finding: two seats step out in the same instant, so neither read the other's leave
    (a halted session reads nothing more) and each counted the other as still playing: both relayed
    for ever. A peer that left now ends once no payload of the game has reached it for
    RELAY_UNREACHABLE seconds (and after RELAY_MAX at the latest)."""
    from net.peer.driver import RELAY_UNREACHABLE

    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(5)
    others = [table.peer(n, i + 2) for i, n in enumerate(["one", "two", "three", "four"])]
    for p in others:
        p.join(invite)
    one = others[0]
    table.run(lambda: host.session is not None and host.session.step >= 3 and host.can_step_out()
              and one.can_step_out())
    host.step_out()
    one.step_out()  # at the same moment: neither has read the other's leave
    rest = others[1:]
    table.run(lambda: all(p.result is not None for p in rest), seconds=900)
    for p in rest:
        assert p.result is not None and p.result["error"] is None and p.result["finished"], p.result
    table.run(lambda: host.result is not None and one.result is not None, seconds=RELAY_UNREACHABLE + 60)
    assert host.result is not None and one.result is not None


def test_two_of_three_seats_stepping_out_at_once_end_the_game_for_the_last_one() -> None:
    """Review gap: at a table of three, the host and a joiner step out in the same instant. The leave
    the last seat read second was refused (too few would remain) though its player had gone, and the
    last seat waited for it. Now that leave ends the game: the last seat finishes, with no winner."""
    table, host, one, two = _three_seats()
    table.run(lambda: host.session is not None and host.session.step >= 3 and host.can_step_out()
              and one.can_step_out())
    host.step_out()
    one.step_out()  # neither has read the other's leave
    table.run(lambda: two.result is not None, seconds=120)
    assert two.result is not None and two.result["error"] is None and two.result["finished"], two.result
    assert two.result["winner"] is None and "one seat still played" in two.result["reason"]
    assert two.session is not None and two.session.left.keys() == {0, 1}
    table.run(lambda: host.result is not None and one.result is not None, seconds=200)
    assert host.result is not None and one.result is not None


class _Killed(BaseException):
    """The process dies here (not an error any code handles)."""


def _killed_while_leaving(tmp_path: Path) -> tuple[MemoryPeers, Peer, Peer, Peer]:
    """Seat 1 signs its leave (journalled) and its process dies before anything is sent."""
    table, host, _, two = _three_seats_in(tmp_path)
    one = table.peers["one"]
    table.run(lambda: one.can_step_out() and one.session is not None and one.session.step >= 3)

    def die(outgoing: Any) -> None:
        raise _Killed()

    one._send = die  # type: ignore[method-assign]
    with pytest.raises(_Killed):
        one.step_out()
    one.leave("killed", goodbye=False)
    return table, host, one, two


def _three_seats_in(tmp_path: Path) -> tuple[MemoryPeers, Peer, Peer, Peer]:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(3)
    one = table.peer("one", 2, directory=tmp_path / "one")
    two = table.peer("two", 3)
    table.peers = {"one": one}  # type: ignore[attr-defined]
    one.join(invite)
    two.join(invite)
    return table, host, one, two


def test_a_crash_just_after_the_leave_was_signed_does_not_offer_the_game_for_resuming(tmp_path: Path) -> None:
    """Review gap: the directory was marked only after the leave went out, so a crash in between left
    a game the seat had left on the client's resume list. The mark now comes first."""
    from net.peer import store

    table, host, one, two = _killed_while_leaving(tmp_path)
    assert store.load_peer(tmp_path / "one").get("left") is True
    again = table.peer("one", 2, identity=one.identity, directory=tmp_path / "one")
    with pytest.raises(StoreError, match="left that game for good"):
        again.resume()
    for peer in (host, two):
        peer.leave("the test is over")


def test_a_seat_whose_journal_holds_its_leave_resumes_only_as_a_relay_and_sends_the_leave(tmp_path: Path) -> None:
    """A directory with our signed leave in its journal but no mark (an older version marked after
    sending, or the mark was lost): resuming it does not play on (every envelope it signed would be
    refused); it sends its leave again (it had never gone out here), marks the directory and relays,
    and the others finish the game without it."""
    from net.peer import store

    table, host, one, two = _killed_while_leaving(tmp_path)
    saved = store.load_peer(tmp_path / "one")
    store.save_peer(tmp_path / "one", {k: v for k, v in saved.items() if k not in ("left", "format")})
    assert host.session is not None and 1 not in host.session.left  # nothing of the leave went out
    again = table.peer("one", 2, identity=one.identity, directory=tmp_path / "one")
    again.resume()
    assert again.relaying and again.session is not None and again.session.halted is not None
    assert store.load_peer(tmp_path / "one").get("left") is True
    table.run(lambda: host.result is not None and two.result is not None, seconds=600)
    for peer in (host, two):
        assert peer.result is not None and peer.result["finished"] and peer.result["audit"] == "ok", peer.result
        assert peer.session is not None and 1 in peer.session.left
        assert not [t for t in table.rejected(peer.name) if "after it left" in t]


def test_a_peer_that_left_admits_no_key_without_a_seat_and_cannot_leave_twice() -> None:
    """Hostile: strangers dialling a relaying peer are refused at the handshake with the reason (they
    cost it no session work); the seats still get through. A second step_out, or a resignation
    after leaving (which would end the game for everyone), is refused and sends nothing."""
    from net.identity import Identity
    from net.peer.driver import RELAY_ONLY

    table, host, one, two = _three_seats()
    table.run(lambda: one.session is not None and one.session.step >= 3 and one.can_step_out())
    assert one._accept_key(Identity.generate().public_key) is not None  # a stranger, already before
    one.step_out()
    for _ in range(20):
        assert one._accept_key(Identity.generate().public_key) == RELAY_ONLY
    assert one._accept_key(two.identity.public_key) is None and one._accept_key(host.identity.public_key) is None
    sent = one.stats["messages"]
    with pytest.raises(ValueError, match="give the game up instead"):
        one.step_out()
    with pytest.raises(ValueError):
        one.resign()
    assert one.stats["messages"] == sent
    table.run(lambda: host.result is not None and two.result is not None, seconds=600)
    assert host.result is not None and host.result["finished"] and host.result["error"] is None

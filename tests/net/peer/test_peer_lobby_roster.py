"""The host's ``seated`` roster (net.peer.lobby): while a table fills, the host tells its joiners
which keys sit so far, so a rematch's joiner can show who is back (client/table/net_play.py).

Only the invite's host may send it; it must list the host first and no key twice, and it
seats nobody. Whole Peers on the in-memory network (real meshes, links and handshakes; a
task clock, no sockets), and the message checks on their own.
"""

from __future__ import annotations

import pytest

from net.identity import Identity
from net.peer import lobby
from tests.net.peer.memory_peers import MemoryPeers
from tests.net.peer.test_peer_hostile_lobby import in_the_name_of, relay_as, seated

TABLE = bytes(8)


def _view(host: Identity, me: Identity) -> lobby.JoinerView:
    from net.identity import fingerprint_of

    return lobby.JoinerView(fingerprint_of(host.public_key), me.public_key, b"f" * 16)


def test_a_roster_from_the_host_reads_back_and_any_other_is_refused() -> None:
    host, me, other = Identity.generate(), Identity.generate(), Identity.generate()
    view = _view(host, me)
    keys = [host.public_key, me.public_key]
    message = lobby.open_message(lobby.Author(host, TABLE).seated(keys, 5), TABLE)
    assert message is not None and lobby.check_seated(view, message) == (tuple(keys), 5)
    forged = lobby.open_message(lobby.Author(other, TABLE).seated([other.public_key], 4), TABLE)
    assert forged is not None
    with pytest.raises(lobby.LobbyForgery, match="not by the host"):
        lobby.check_seated(view, forged)
    for bad, size in (([me.public_key, host.public_key], 4), ([host.public_key, me.public_key, me.public_key], 4),
                      ([host.public_key, me.public_key, other.public_key], 2)):
        wrong = lobby.open_message(lobby.Author(host, TABLE).seated(bad, size), TABLE)
        assert wrong is not None
        with pytest.raises(lobby.LobbyForgery, match="first key is not the host's, with a key twice, or with more"):
            lobby.check_seated(view, wrong)
    for size in (1, 0, True, lobby.MAX_ROSTER + 1):
        with pytest.raises(lobby.LobbyForgery, match="malformed lobby 'seated'"):
            lobby.open_message(lobby.Author(host, TABLE).seated(keys, size), TABLE)
    with pytest.raises(lobby.LobbyForgery, match="malformed lobby 'seated'"):
        lobby.open_message(lobby.Author(host, TABLE).seated([host.public_key] * (lobby.MAX_ROSTER + 1),
                                                            lobby.MAX_ROSTER), TABLE)
    with pytest.raises(lobby.LobbyForgery, match="malformed lobby 'seated'"):
        lobby.open_message(lobby.Author(host, TABLE).seated([b"short"], 4), TABLE)
    with pytest.raises(lobby.LobbyForgery, match="does not verify"):
        lobby.open_message(in_the_name_of(lobby.Author(other, TABLE).seated([host.public_key], 4), host.public_key),
                           TABLE)


def test_each_joiner_learns_who_sits_as_the_table_fills_and_a_forged_roster_changes_nothing() -> None:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(4)
    first = table.peer("first", 2)
    first.join(invite)
    seated(table, first, 1, host)
    hk, fk = host.identity.public_key, first.identity.public_key
    table.run(lambda: first.lobby_seated == (hk, fk))
    assert any(e.id == "table_roster" and e.fields["taken"] == 2 and e.fields["waiting"] == 2
               for e in table.said["first"])
    second = table.peer("second", 3)
    second.join(invite, listen="127.0.0.1")
    seated(table, second, 2, host)
    sk = second.identity.public_key
    table.run(lambda: first.lobby_seated == (hk, fk, sk) and second.lobby_seated == (hk, fk, sk))
    # the first joiner forges a roster in the host's name and relays it to the second: refused, nothing changes
    forged = in_the_name_of(first._author.seated([hk, fk], 4), hk)
    relay_as(first, host, hk, sk, forged)
    own = first._author.seated([hk, fk], 4)  # or signs it as itself: only the host may say who sits
    relay_as(first, host, fk, sk, own)
    table.net.settle()
    assert second.lobby_seated == (hk, fk, sk)
    refused = table.rejected("second")
    assert len(refused) == 2 and "does not verify" in refused[0] and "not by the host" in refused[1], refused
    assert host.lobby_seated is None  # the host has its own lobby
    late = table.peer("late", 4)
    late.join(invite)
    everyone = [host, first, second, late]
    table.run(lambda: all(p.result is not None for p in everyone))
    for peer in everyone:
        assert peer.result is not None and peer.result["error"] is None and peer.result["finished"], peer.result
    assert not table.rejected("host") and not table.rejected("late")

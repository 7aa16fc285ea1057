"""Display names are unique at one table (issue 30, smaller item; net/peer/lobby.py).

Before, the host seated a joiner under the host's exact display name (the genesis
said ``['Hana', 'Hana']``), so a joiner could pose as the host in every seat
list, log line and chat line. Now a joiner whose name is taken is seated as
"Hana (2)" (compared without case and outer spaces), and a joiner refuses a
genesis that shows two seats alike. Tiny, 3 and 10 seats (the lobby, sans-I/O).
"""

from __future__ import annotations

import unicodedata

import pytest
from test_peer_lobby import HOST, author, ident, opened, view

from engine.core.hashing import digest
from net.envelope import Genesis
from net.games import game_named
from net.peer import lobby

TINY = game_named("tiny")


def _join(who: object, name: str, n: int) -> lobby.LobbyMessage:
    return opened(author(who).join(TINY, {}, name, host=HOST.public_key,  # type: ignore[arg-type]
                                   fresh=digest("fresh", n)[:16]))


@pytest.mark.parametrize("seats", [3, 10])
def test_joiners_under_the_hosts_name_are_seated_under_distinct_names(seats: int) -> None:
    host = lobby.HostLobby(TINY, seats, HOST.public_key, {}, "Hana")
    names = ["Hana", " hana ", "ＨＡＮＡ", "Hana (2)", "Bo", "bo", "", "", "Hana", "Cy"][:seats - 1]
    for n, name in enumerate(names, start=1):
        assert host.join(ident(10 + n).public_key, _join(ident(10 + n), name, n)) == n
    genesis = host.make_genesis()
    shown = genesis.options["names"]
    assert shown[0] == "Hana" and len(shown) == seats
    read_as = {unicodedata.normalize("NFKC", s).strip().casefold() for s in shown}
    assert len(read_as) == seats, shown  # before: ['Hana', 'Hana', ...]
    assert shown[1] == "Hana (2)"
    me = ident(11)
    back, seat = lobby.check_start(TINY, opened(author(HOST).start(genesis)), view(me, digest("fresh", 1)[:16]), {})
    assert seat == 1 and list(back.options["names"]) == list(shown)


def test_a_joiner_refuses_a_genesis_showing_two_seats_alike() -> None:
    host = lobby.HostLobby(TINY, 3, HOST.public_key, {}, "Hana")
    me, other = ident(11), ident(12)
    host.join(me.public_key, _join(me, "Bo", 1))
    host.join(other.public_key, _join(other, "Cy", 2))
    genesis = host.make_genesis()
    copied = Genesis(genesis.rules_id, genesis.rules_version, genesis.card_set_hash, genesis.seat_keys,
                     {**genesis.options, "names": ["Hana", "Bo", "Hana"]}, genesis.nonces)
    with pytest.raises(lobby.LobbyError, match="two seats under one name"):
        lobby.check_start(TINY, opened(author(HOST).start(copied)), view(me, digest("fresh", 1)[:16]), {})

"""A hostile joiner against honest peers in the lobby (issue 9, items 2-3),
with whole Peers on the in-memory network (real meshes, links, handshakes
and sessions; a task clock, no sockets).

The attacker is one of our own joiners. It sends its forgeries as the
transport's ``msg`` frames whose ``origin`` names the host (a field nobody
signs): before, the victim took a relayed start, go or refusal from "the
host" at its word."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from engine.core.encoding import decode, encode
from net.envelope import Genesis, game_id
from net.identity import Identity
from net.peer import Peer, lobby
from net.transport.messages import Relay
from tests.net.peer.memory_peers import MemoryPeers


def in_the_name_of(data: bytes, key: bytes) -> bytes:
    """The same signed message, but naming ``key`` as its author (the signature stays the sender's)."""
    outer = decode(data)["lobby"]
    return encode({"lobby": {**outer, "by": key}})


def relay_as(sender: Peer, via: Peer, origin: bytes, to: bytes | None, data: bytes) -> None:
    """``sender`` hands ``via`` a payload whose mesh origin claims to be ``origin``."""
    channel = sender.mesh.peers[via.identity.public_key].channel
    assert channel is not None
    channel.send(Relay(sender.mesh.game, origin, data, 0, to=to))


def seated(table: MemoryPeers, peer: Peer, seat: int, host: Peer) -> None:
    table.run(lambda: host.host_lobby is not None and host.host_lobby.seat_of(peer.identity.public_key) == seat)


def test_forged_start_go_refuse_and_a_replayed_genesis_relayed_in_the_hosts_name_are_refused() -> None:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(4)
    attacker = table.peer("attacker", 2)
    attacker.join(invite)
    seated(table, attacker, 1, host)
    victim = table.peer("victim", 3)
    victim.join(invite, listen="127.0.0.1")
    seated(table, victim, 2, host)
    assert victim._joiner is not None
    entry, me, hk, ak = table.entry, victim.identity.public_key, host.identity.public_key, attacker.identity.public_key
    second_key = Identity.generate().public_key  # the attacker's other identity
    # the worst case: the attacker even knows the victim's fresh nonce
    around = Genesis(entry.rules_id, entry.rules_version, entry.card_set_hash(), (ak, me, second_key), {},
                     (secrets.token_bytes(16), victim._joiner.fresh, secrets.token_bytes(16)))
    old = Genesis(entry.rules_id, entry.rules_version, entry.card_set_hash(), (hk, ak, me), {},
                  tuple(secrets.token_bytes(16) for _ in range(3)))  # an earlier game at this table
    mine = attacker._author
    forgeries = [
        mine.start(around),  # two of its keys around the victim, signed by itself
        in_the_name_of(mine.start(around), hk),  # the same in the host's name: the signature fails
        mine.go(game_id(around)),
        mine.refuse("the table is closed", to=me, re=victim._joiner.fresh),
        host._author.start(old),  # the host's genuine start of another game, replayed
    ]
    for data in forgeries:
        relay_as(attacker, host, hk, me, data)  # the host's mesh passes it on to the victim
    table.net.settle()
    assert victim.genesis is None and victim.result is None and victim.session is None
    refused = table.rejected("victim")
    assert len(refused) == len(forgeries), refused
    assert all("relayed as from peer" in text for text in refused)
    for words, text in zip(["not by the host", "does not verify", "not by the host", "not by the host",
                            "without the fresh nonce"], refused):
        assert words in text, (words, text)

    late = table.peer("late", 4)
    late.join(invite)
    everyone = [host, attacker, victim, late]
    table.run(lambda: all(p.result is not None for p in everyone))
    for peer in everyone:
        assert peer.result is not None and peer.result["error"] is None and peer.result["finished"], peer.result
    assert victim.genesis is not None and victim.genesis.seat_keys == (hk, ak, me, late.identity.public_key)
    assert {p.result["game_id"] for p in everyone if p.result} == {game_id(victim.genesis).hex()}
    assert victim.genesis.nonces[2] == victim._joiner.fresh


def test_a_join_seats_only_a_key_that_signed_it_over_its_own_link() -> None:
    """The attacker seats nobody but itself: a join it signs with a second key
    of its own reaches the host only relayed, and a join in the victim's name
    does not verify. Neither changes the lobby."""
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(3)
    attacker = table.peer("attacker", 2)
    attacker.join(invite)
    seated(table, attacker, 1, host)
    hk = host.identity.public_key
    second = Identity.generate()
    sybil = lobby.Author(second, host.mesh.table).join(table.entry, {}, "sybil", host=hk, fresh=b"s" * 16)
    relay_as(attacker, host, second.public_key, hk, sybil)
    victim_key = Identity.generate().public_key
    framed = in_the_name_of(attacker._author.join(table.entry, {}, "v", host=hk, fresh=b"v" * 16), victim_key)
    relay_as(attacker, host, victim_key, hk, framed)
    table.net.settle()
    assert host.host_lobby is not None and [s.key for s in host.host_lobby.seated] == [hk, attacker.identity.public_key]
    refused = table.rejected("host")
    assert len(refused) == 2
    assert "only relayed" in refused[0] and "does not verify" in refused[1]
    for peer in (host, attacker):
        peer.leave("test over")


def test_catch_up_requests_count_only_signed_by_the_seat_they_name() -> None:
    """A catch-up request names who gets the replies, so an unsigned one, or one
    signed by another seat, would let anyone aim every peer's replies at a
    victim (reflection): both are ignored; the seat's own signed one is answered."""
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(3)
    attacker, victim = table.peer("attacker", 2), table.peer("victim", 3)
    attacker.join(invite)
    seated(table, attacker, 1, host)
    victim.join(invite)
    table.run(lambda: all(p.session is not None for p in (host, attacker, victim)))
    assert host.session is not None and host.genesis is not None
    fed: list[bytes] = []
    real = host.session.receive

    def spy(data: bytes, sender: Any = None, **kw: Any) -> Any:
        fed.append(data)
        return real(data, sender=sender, **kw)

    host.session.receive = spy  # type: ignore[method-assign]
    gid = game_id(host.genesis)
    request = encode({"catch_up": {"game": gid, "have": (0, 0, 0), "n": 99, "seat": 2}})
    vk = victim.identity.public_key
    relay_as(attacker, host, vk, None, request)  # unsigned, in the victim's name
    relay_as(attacker, host, vk, None, attacker._author.nudge(gid, request))  # signed by the wrong seat
    table.net.settle()
    assert fed == []
    assert any("unsigned catch-up request" in t for t in table.rejected("host"))
    assert any("in another seat's name" in t for t in table.rejected("host"))
    relay_as(attacker, host, vk, None, victim._author.nudge(gid, request))  # the victim's own (forwarded)
    table.net.settle()
    assert fed == [request]
    for peer in (host, attacker, victim):
        peer.leave("test over")


@pytest.mark.parametrize("kind", ["start", "go"])
def test_a_flood_of_forged_lobby_messages_is_reported_briefly_and_changes_nothing(kind: str) -> None:
    table = MemoryPeers()
    host = table.peer("host", 1)
    invite = host.host(4)
    attacker, victim = table.peer("attacker", 2), table.peer("victim", 3)
    attacker.join(invite)
    seated(table, attacker, 1, host)
    victim.join(invite)
    seated(table, victim, 2, host)
    hk, me = host.identity.public_key, victim.identity.public_key
    fake = Genesis(table.entry.rules_id, "1", table.entry.card_set_hash(), (hk, me), {}, (b"x" * 16,) * 2)
    for _ in range(250):
        data = attacker._author.start(fake) if kind == "start" else attacker._author.go(bytes(32))
        relay_as(attacker, host, hk, me, data)
    table.net.settle()
    assert victim.genesis is None and victim.result is None
    assert len(table.rejected("victim")) == lobby_shown(250)
    for peer in (host, attacker, victim):
        peer.leave("test over")


def lobby_shown(n: int) -> int:
    from net.peer.driver import FORGERIES_SHOWN

    return FORGERIES_SHOWN + sum(1 for k in range(FORGERIES_SHOWN + 1, n + 1) if k % 100 == 0)



"""What a ``links`` frame can make us dial (issue 9, item 4), on the in-memory
network with a task clock: only table members, never a stranger's key or
address, one attempt per member at a time, a few attempts at an address
nobody proved, and every dial within a global budget whatever the gossip.

Before, any key and address named in a ``links`` frame was dialled (and
redialled with backoff, one record per named key): one peer made the host
connect 96 times in 12 s to an address of its choosing."""

from __future__ import annotations

import pytest

from transport_helpers import MemoryNet, Node, identity

from net.transport import mesh as mesh_module
from net.transport.messages import MAX_PEERS, Links, PeerInfo

# identity(12) has the smallest key of these, so the host is the side that dials every member
HOST, ATTACKER, VICTIM = 12, 2, 3
TRAP = ("127.0.0.1", 6666)  # the address the attacker wants us to connect to (nobody listens there)


def keys(*numbers: int) -> list[bytes]:
    return [identity(n).public_key for n in numbers]


def seated(net: MemoryNet, *members: int) -> tuple[Node, Node]:
    """The host and the attacker (a member that joined), both restricted to ``members``."""
    host = net.add(HOST)
    attacker = net.add(ATTACKER, listen=False)
    for node in (host, attacker):
        node.mesh.restrict_to(keys(*members))
    attacker.mesh.join((host.address,), identity(HOST).fingerprint)
    net.settle()
    assert host.mesh.peers[identity(ATTACKER).public_key].channel is not None
    return host, attacker


def gossip(net: MemoryNet, src: Node, dst: Node, peers: list[PeerInfo], times: int = 1) -> None:
    channel = src.mesh.peers[dst.mesh.identity.public_key].channel
    assert channel is not None
    for _ in range(times):
        channel.send(Links(tuple(peers)))
    net.settle()


def dials_to(net: MemoryNet, address: tuple[str, int]) -> int:
    return sum(1 for _, a in net.dials if a == address)


def test_links_naming_a_strangers_key_or_address_are_not_dialled_or_recorded() -> None:
    net = MemoryNet()
    host, attacker = seated(net, HOST, ATTACKER, VICTIM)
    strangers = [PeerInfo(identity(n).public_key, (TRAP,)) for n in (7, 9, 38)]
    gossip(net, attacker, host, strangers)
    net.advance(12)
    assert dials_to(net, TRAP) == 0
    assert not any(identity(n).public_key in host.mesh.peers for n in (7, 9, 38))
    assert host.mesh.peers[identity(ATTACKER).public_key].neighbours == frozenset()  # not even routed through


def test_in_the_lobby_gossip_is_kept_not_dialled_until_the_seats_are_fixed() -> None:
    """Before the genesis nobody knows who belongs to the table: a lobby
    member's gossip is remembered (bounded), and dialled only for the keys
    that then hold seats."""
    net = MemoryNet()
    host = net.add(HOST)
    attacker = net.add(ATTACKER, listen=False)
    victim = net.add(VICTIM)
    attacker.mesh.join((host.address,), identity(HOST).fingerprint)
    net.settle()
    gossip(net, attacker, host, [PeerInfo(identity(VICTIM).public_key, (victim.address,)),
                                 PeerInfo(identity(7).public_key, (TRAP,))])
    net.advance(3)
    assert dials_to(net, victim.address) == 0 and dials_to(net, TRAP) == 0
    assert len(host.mesh._gossip) == 2
    host.mesh.restrict_to(keys(HOST, ATTACKER, VICTIM))  # the start: 7 holds no seat
    net.settle()
    assert dials_to(net, victim.address) == 1 and dials_to(net, TRAP) == 0
    assert host.mesh.peers[identity(VICTIM).public_key].channel is not None


def test_lobby_gossip_memory_is_bounded() -> None:
    net = MemoryNet()
    host = net.add(HOST)
    attacker = net.add(ATTACKER, listen=False)
    attacker.mesh.join((host.address,), identity(HOST).fingerprint)
    net.settle()
    for batch in range(4):
        fake = [PeerInfo(bytes([batch, n]) + bytes(30), (TRAP,)) for n in range(MAX_PEERS)]
        gossip(net, attacker, host, fake)
    assert len(host.mesh._gossip) == MAX_PEERS and dials_to(net, TRAP) == 0


def test_a_members_address_that_never_answers_is_tried_a_few_times_then_given_up() -> None:
    """The attacker names a real member at an address of its choosing: the
    host tries it only MAX_UNPROVEN_DIALS times, however long the game and
    however often it is repeated; the member is still reachable through
    the others."""
    net = MemoryNet()
    host, attacker = seated(net, HOST, ATTACKER, VICTIM)
    lie = [PeerInfo(identity(VICTIM).public_key, (TRAP,))]
    for _ in range(20):
        gossip(net, attacker, host, lie)
        net.advance(3)
    assert dials_to(net, TRAP) == mesh_module.MAX_UNPROVEN_DIALS


@pytest.mark.slow
def test_a_flood_of_links_frames_leads_to_bounded_dials() -> None:
    """The issue's measurement, 12 s of hostile gossip: 1000 frames, each
    naming a member at the trap address and 63 strangers at it too."""
    net = MemoryNet()
    host, attacker = seated(net, HOST, ATTACKER, VICTIM)
    flood = [PeerInfo(identity(VICTIM).public_key, (TRAP,))] + \
            [PeerInfo(bytes([n, 7]) + bytes(30), (TRAP,)) for n in range(MAX_PEERS - 1)]
    for _ in range(12):
        gossip(net, attacker, host, flood, times=1000 // 12)
        net.advance(1)
    for _ in range(30):  # and it keeps going for a long game: still nothing more
        gossip(net, attacker, host, flood)
        net.advance(4)
    assert dials_to(net, TRAP) <= mesh_module.MAX_UNPROVEN_DIALS
    assert len(host.mesh.peers) == 2  # the attacker and the one member it named


def test_one_attempt_per_member_at_a_time() -> None:
    net = MemoryNet()
    host, attacker = seated(net, HOST, ATTACKER, VICTIM)
    net.blocked.add(TRAP)
    channel = attacker.mesh.peers[identity(HOST).public_key].channel
    assert channel is not None
    for _ in range(50):  # before any of it is settled: the dial is still pending
        channel.send(Links((PeerInfo(identity(VICTIM).public_key, (TRAP,)),)))
        for pump in net.pumps:
            pump.pump(advanceClock=False)
    assert sum(1 for _, address, _ in net.pending if address == TRAP) == 1


def test_all_dials_together_stay_within_the_dial_budget() -> None:
    """Many members at once (a large table whose addresses all fail): a burst,
    then DIAL_RATE per second, never more."""
    net = MemoryNet()
    members = [HOST, ATTACKER, *range(13, 13 + 30)]
    host, attacker = seated(net, *members)
    others = [PeerInfo(identity(n).public_key, (("127.0.0.1", 7000 + n),)) for n in members[2:]]
    gossip(net, attacker, host, others)
    first = len(net.dials)
    net.advance(5)
    bigger = sum(1 for n in members[2:] if identity(HOST).public_key < identity(n).public_key)
    assert bigger == 30
    assert first <= mesh_module.DIAL_BURST + 1  # the attacker's own link was dialled by it, not by us
    made = sum(1 for _, address in net.dials if address[1] >= 7000)
    assert made <= mesh_module.DIAL_BURST + 5 * mesh_module.DIAL_RATE + 1

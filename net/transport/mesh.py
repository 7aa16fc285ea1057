"""The mesh: every payload reaches every peer of the table, directly or relayed.

:class:`Mesh` is the transport's brain and holds no sockets. The Twisted glue
(:mod:`net.transport.twisted_glue`) gives it *channels* (one per TCP
connection, each wrapping a :class:`Link`) and a ``connect`` function; time
comes from an injected clock (``task.Clock`` in tests).

Routing. Each peer tells its neighbours, in a ``links`` frame, which peers it
is directly linked to (and where they listen). A payload is sent by its origin
to every neighbour; a peer that receives a payload it has not seen (dedup by
SHA-256 of the payload) delivers it and forwards it to each neighbour that is
neither the one it came from, nor the origin, nor known to be linked to the
origin. In a full mesh nobody forwards; when only the host accepts
connections, the host forwards everything. Stale link knowledge at worst
sends a duplicate, which dedup drops.

Direct links. A peer learns the others (keys and listen addresses) from
``links`` frames and dials a peer when that peer listens and either we do not
or our key is the smaller: exactly one side dials, so no duplicate links. The
side that dialed first redials after a drop, with exponential backoff; a
joiner always redials the host from its invite.

Liveness. Every ``ping_interval`` each link gets a ping; the pong gives the
round-trip time. A link silent for ``stall_after`` is *stalling*; after
``dead_after`` it is dropped (and redialled). Payloads for a neighbour whose
link is down are queued (bounded) and flushed when it returns, so a short
outage loses nothing even before the session's catch-up runs.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import hashlib
import itertools
import logging
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from net.transport.backoff import Backoff
from net.transport.errors import KeyMismatch, TransportError, VersionMismatch
from net.transport.handshake import GameMismatch, Handshake, PeerRejected, Role
from net.transport.keys import Signer, short_id
from net.transport.link import Established, Event, Link, Problem, Received
from net.transport.messages import (
    LOBBY,
    MAX_HOPS,
    MAX_PEERS,
    Address,
    Bye,
    GameRef,
    Links,
    Message,
    PeerInfo,
    Ping,
    Pong,
    Reject,
    Relay,
)

log = logging.getLogger("fairtable.transport")

RELAY_DOMAIN = b"fairtable/relay/v1\x00"
#: Payload digests remembered for dedup.
SEEN_LIMIT = 100_000
#: Payloads queued per peer while its link is down, and their most bytes.
OUTBOX_LIMIT = 10_000
#: Dials to a peer at an address nobody proved (learned from gossip, never
#: answered with the expected key) before we stop trying: a lie in a ``links``
#: frame costs us this many connection attempts, then nothing.
MAX_UNPROVEN_DIALS = 5
#: Outgoing dials to table members, all together: a burst of this many, then
#: DIAL_RATE per second (a token bucket), whatever the gossip says.
DIAL_BURST = 8
DIAL_RATE = 2.0
OUTBOX_BYTES = 32 * 1024 * 1024


#: Handshake failures that make redialling an invite's host pointless.
FATAL_FOR_JOIN = (KeyMismatch, VersionMismatch, GameMismatch, PeerRejected)


class PeerStatus(enum.Enum):
    """What the client shows next to a player's name."""

    CONNECTED = "connected"  # direct link up and lively
    RELAYED = "relayed"  # no direct link, reachable through another peer
    STALLING = "stalling"  # direct link up but silent for a while
    RECONNECTING = "reconnecting"  # no path right now; redialling or waiting
    LEFT = "left"  # said goodbye on purpose


class DelayedCall(Protocol):
    def cancel(self) -> None: ...

    def active(self) -> bool: ...


class Clock(Protocol):
    """The part of Twisted's IReactorTime the mesh uses."""

    def seconds(self) -> float: ...

    def callLater(self, delay: float, callable: Callable[..., Any], *args: Any,
                  **kw: Any) -> DelayedCall: ...


class Channel(Protocol):
    """One live connection, as the glue presents it to the mesh."""

    link: Link

    def send(self, message: Message) -> None: ...

    def close(self, abort: bool = True) -> None:
        """Close the connection; ``abort=False`` first flushes what was written."""


@dataclasses.dataclass
class DialTarget:
    """Where to dial and whom we must find there."""

    addresses: tuple[Address, ...]
    key: bytes | None = None
    fingerprint: str | None = None
    next_index: int = 0

    def next_address(self) -> Address:
        address = self.addresses[self.next_index % len(self.addresses)]
        self.next_index += 1
        return address


@dataclasses.dataclass
class PeerRecord:
    """Everything the mesh knows about one other peer."""

    key: bytes
    name: str = ""
    listen: tuple[Address, ...] = ()
    dial: DialTarget | None = None  # set when we are the side that (re)dials
    channel: Channel | None = None
    had_link: bool = False
    left: bool = False
    neighbours: frozenset[bytes] = frozenset()
    last_heard: float = 0.0
    rtt: float | None = None
    ping_sent: dict[int, float] = dataclasses.field(default_factory=dict)
    backoff: Backoff = dataclasses.field(default_factory=Backoff)
    retry: DelayedCall | None = None
    dialing: bool = False
    outbox: collections.deque[Relay] = dataclasses.field(
        default_factory=lambda: collections.deque(maxlen=OUTBOX_LIMIT))
    status: PeerStatus = PeerStatus.RECONNECTING
    overflowed: bool = False
    unproven_dials: int = 0  # dials made before any link with it succeeded
    outbox_bytes: int = 0


@dataclasses.dataclass(frozen=True)
class PeerView:
    """Read-only snapshot for the client and tools."""

    key: bytes
    fingerprint: str
    name: str
    status: PeerStatus
    rtt_ms: float | None
    direct: bool


def payload_id(data: bytes) -> bytes:
    """Dedup identity of a payload: domain-separated SHA-256."""
    return hashlib.sha256(RELAY_DOMAIN + data).digest()


class Mesh:
    """Routes payloads among the peers of one table (see module docstring)."""

    def __init__(
        self,
        identity: Signer,
        *,
        table: bytes,
        clock: Clock,
        connect: Callable[[Address, DialTarget], None] | None = None,
        game: GameRef = LOBBY,
        listen: tuple[Address, ...] = (),
        name: str = "",
        on_message: Callable[[bytes, bytes], None] | None = None,
        on_status: Callable[[bytes, PeerStatus], None] | None = None,
        on_problem: Callable[[Problem], None] | None = None,
        accept_key: Callable[[bytes], str | None] | None = None,
        ping_interval: float = 2.0,
        stall_after: float = 6.0,
        dead_after: float = 15.0,
        handshake_timeout: float = 10.0,
        backoff: Callable[[], Backoff] = Backoff,
    ) -> None:
        if not 0 < ping_interval < stall_after < dead_after:
            raise ValueError("need 0 < ping_interval < stall_after < dead_after, or live links "
                             "would be declared stalling or dead between pings")
        self.identity = identity
        self.table = table
        self.game: GameRef = game
        self.clock = clock
        self.connect = connect
        self.listen = listen
        self.name = name
        self.on_message = on_message or (lambda origin, data: None)
        self.on_status = on_status or (lambda key, status: None)
        self.on_problem = on_problem or (lambda problem: None)
        self.accept_key = accept_key
        self.allowed: frozenset[bytes] | None = None
        #: How many *guests* may link to us once :meth:`restrict_to` named the members: keys that
        #: are not members (a table's watchers, net/peer/watching.py). 0: none (a guest is refused).
        self.guest_limit = 0
        #: Peers named in ``links`` frames before the table's members were known
        #: (key -> listen; bounded, first report kept): dialled only once
        #: :meth:`restrict_to` says they are members.
        self._gossip: collections.OrderedDict[bytes, tuple[Address, ...]] = collections.OrderedDict()
        self._dial_tokens = float(DIAL_BURST)
        self._dial_tokens_at = clock.seconds()
        self.ping_interval = ping_interval
        self.stall_after = stall_after
        self.dead_after = dead_after
        self.handshake_timeout = handshake_timeout
        self.make_backoff = backoff
        self.peers: dict[bytes, PeerRecord] = {}
        self.host_target: DialTarget | None = None
        self.host_retry: DelayedCall | None = None
        self.host_backoff = backoff()
        #: Why joining failed for good (wrong key, version, table), if it did.
        self.join_error: TransportError | None = None
        #: Refused attempts in a row to reach the invite's host (a UI may give up early on them).
        self.host_refusals = 0
        self._seen: collections.OrderedDict[bytes, None] = collections.OrderedDict()
        self._ping_counter = itertools.count(1)
        self._tick: DelayedCall | None = None
        self.closed = False
        self.stats = collections.Counter[str]()
        #: Optional hook naming a key's seat in log lines (set by the session).
        self.describe_key: Callable[[bytes], str] | None = None
        #: While ``on_message`` runs: the key of the link that delivered the payload
        #: (authenticated by its handshake; the origin equals it only for a direct send).
        self.delivering_via: bytes | None = None
        self._schedule_tick()

    # ------------------------------------------------------------------ setup

    def set_game(self, game: bytes) -> None:
        """Bind the table to a game id: messages for other games are refused."""
        self.game = game

    def restrict_to(self, keys: Iterable[bytes]) -> None:
        """Only these players may link to us or be dialled (the seats of the game).

        Before this, any key that knows the table nonce may join the lobby, and
        nothing named in a ``links`` frame is dialled (we do not know yet who
        belongs to the table, and a hostile lobby member could name any key
        and address to make us dial elsewhere). The driver calls this as soon
        as the seats are fixed; members we heard of meanwhile are dialled then.
        """
        self.allowed = frozenset(keys)
        heard, self._gossip = self._gossip, collections.OrderedDict()
        for key, listen in heard.items():
            if key in self.allowed:
                self._learn(PeerInfo(key, listen))

    def _admit(self, key: bytes) -> str | None:
        reason = self.accept_key(key) if self.accept_key is not None else None
        if reason is None and self.allowed is not None and key not in self.allowed:
            guests = sum(1 for r in self.peers.values() if self.is_guest(r.key) and r.channel is not None)
            if key in self.peers and self.peers[key].channel is not None:
                guests -= 1  # a guest's new link replaces its old one
            if guests >= self.guest_limit:
                reason = (f"the key {short_id(key)} is not one of the players of this game; "
                          "ask the host for an invite to a new game"
                          + (" (the table has no room for more watchers)" if self.guest_limit else ""))
        return reason

    def is_guest(self, key: bytes) -> bool:
        """A linked key that is not a member (a watcher): it may talk to us and we may send to it,
        but nothing it says is forwarded, it routes nothing, and broadcasts never go to it (the
        application sends a guest what it should see, net/peer/watching.py)."""
        return self.allowed is not None and key not in self.allowed

    def join(self, addresses: tuple[Address, ...], fingerprint: str) -> None:
        """Dial the host of an invite (addresses tried in turn, key pinned)."""
        self.host_target = DialTarget(addresses, fingerprint=fingerprint)
        self._dial_host()

    def add_peer(self, key: bytes, listen: tuple[Address, ...] = (), name: str = "") -> None:
        """Make a peer known (e.g. from the genesis record) so we may link to it."""
        self._learn(PeerInfo(key, listen), name)

    def make_link(self, role: Role, address: str, target: DialTarget | None,
                  binding: bytes | None = None) -> Link:
        """Build the protocol object for a new connection (called by the glue);
        ``binding`` is a secret of the channel mixed into the handshake transcript."""
        handshake = Handshake(
            self.identity, role, table=self.table, game=self.game, listen=self.listen,
            name=self.name,
            expect_fingerprint=target.fingerprint if target else None,
            expect_key=target.key if target else None,
            accept_key=self._admit if role == "listener" else None,
            binding=binding,
        )
        link = Link(handshake, address, game=lambda: self.game)
        link.describe_key = lambda key: self.describe_key(key) if self.describe_key else ""
        return link

    # --------------------------------------------------------------- sending

    def broadcast(self, data: bytes) -> bytes:
        """Send ``data`` to every peer of the table; returns its payload id."""
        pid = payload_id(data)
        self._remember(pid)
        relay = Relay(self.game, self.identity.public_key, data, 0)
        for record in self.peers.values():
            if not self.is_guest(record.key):
                self._send_or_queue(record, relay)
        self.stats["sent"] += 1
        return pid

    def send_to(self, key: bytes, data: bytes, *, lobby: bool = False) -> bytes:
        """Send ``data`` to one peer only (directly, or relayed toward it); ``lobby`` tags it for
        the lobby even once we play a game (a watcher learns the game id from such a message)."""
        pid = payload_id(data)
        self._remember(pid)
        relay = Relay(LOBBY if lobby else self.game, self.identity.public_key, data, 0, to=key)
        self._route_directed(relay, via=None)
        self.stats["sent"] += 1
        return pid

    def drop(self, key: bytes, reason: str) -> None:
        """Say goodbye to one linked guest and close its link (it is told ``reason`` and does not
        come back on its own: a goodbye stops its redialling). Members are never dropped: the table's
        links are its seats' business; nothing happens for a key that is no linked guest."""
        record = self.peers.get(key)
        if record is None or record.channel is None or not self.is_guest(key):
            return
        record.channel.send(Bye(reason))
        record.channel.close(abort=False)

    def close(self, reason: str = "leaving the table") -> None:
        """Say goodbye to every neighbour and stop all timers."""
        self.closed = True
        for call in [self._tick, self.host_retry, *(r.retry for r in self.peers.values())]:
            if call is not None and call.active():
                call.cancel()
        for record in list(self.peers.values()):  # a closing link may forget its guest (channel_lost)
            if record.channel is not None:
                record.channel.send(Bye(reason))
                record.channel.close(abort=False)

    # ------------------------------------------------------------ glue events

    def handle(self, channel: Channel, events: Iterable[Event]) -> None:
        """Process the events a link produced for ``channel``."""
        for event in events:
            if isinstance(event, Established):
                self._established(channel, event)
            elif isinstance(event, Received):
                self._received(channel, event.message)
            elif isinstance(event, Problem):
                self.stats["rejected"] += 1
                target = channel_target(channel)
                if (target is not None and target is self.host_target
                        and isinstance(event.error, FATAL_FOR_JOIN)):
                    # redialling cannot help: tell the user instead
                    log.error("cannot join the table: %s", event.error)
                    self.host_target = None
                    self.join_error = event.error
                self._notify(self.on_problem, event)
        self._update_statuses()

    def channel_lost(self, channel: Channel) -> None:
        """A connection closed (for any reason)."""
        key = channel.link.peer_key
        record = self.peers.get(key) if key else None
        if record is None or record.channel is not channel:
            target = channel_target(channel)
            if key is None and target is not None and not self.closed:
                # the handshake never completed (refused, timed out, wrong key)
                self.dial_failed(target)
            return
        record.channel = None
        log.info("link to %s lost", self._who(record))
        if key is not None and self.is_guest(key) and record.dial is None and not self.closed:
            del self.peers[key]  # a guest that dialled us is forgotten: guests' records stay bounded
            self._notify(self.on_status, key, PeerStatus.LEFT)
            return
        self._announce_links()
        if not record.left and not self.closed and record.dial is not None:
            self._schedule_retry(record)
        self._update_statuses()

    def dial_failed(self, target: DialTarget, *, refused: bool = False) -> None:
        """A connection attempt failed before any bytes flowed (``refused``: the
        address actively refused it, nobody listens there)."""
        if self.closed:
            return
        if target is self.host_target:
            self.host_refusals = self.host_refusals + 1 if refused else 0
            self._schedule_host_retry()
            return
        for record in self.peers.values():
            if record.dial is target:
                record.dialing = False
                self._schedule_retry(record)

    # ---------------------------------------------------------------- status

    def status(self, key: bytes) -> PeerStatus:
        return self.peers[key].status

    def view(self) -> list[PeerView]:
        """Every known peer, sorted by key, for display."""
        return [
            PeerView(r.key, short_id(r.key), r.name, r.status,
                     None if r.rtt is None else r.rtt * 1000.0, r.channel is not None)
            for _, r in sorted(self.peers.items())
        ]

    # -------------------------------------------------------------- internals

    def _notify(self, callback: Callable[..., None], *args: Any) -> None:
        """Call an application hook; its bugs are logged, never allowed to
        tear down the connection that happened to deliver the event."""
        try:
            callback(*args)
        except Exception:
            self.stats["callback_errors"] += 1
            log.exception("the application failed while handling a transport event")

    def _who(self, record: PeerRecord) -> str:
        seat = self.describe_key(record.key) if self.describe_key else ""
        name = f" {record.name!r}" if record.name else ""
        return f"peer{name} (key {short_id(record.key)}{', ' + seat if seat else ''})"

    def _established(self, channel: Channel, event: Established) -> None:
        key = event.peer.key
        record = self.peers.get(key)
        if record is None:
            record = self.peers[key] = PeerRecord(key, backoff=self.make_backoff())
        target = channel_target(channel)
        if target is not None and target is self.host_target:
            # the invite's host: from now on redial it like any dialed peer
            target.key = key
            record.dial = target
            self.host_target = None
        elif target is not None:
            record.dial = target
        old = record.channel
        if old is not None and not self._prefer(channel, old):
            channel.close()  # keep the existing link; see _prefer
            return
        record.channel = channel
        record.left = False
        if old is not None:
            old.close()
        record.name = event.peer.name
        record.listen = event.peer.listen or record.listen
        record.had_link = True
        record.dialing = False
        record.last_heard = self.clock.seconds()
        record.backoff.reset()
        if record.retry is not None and record.retry.active():
            record.retry.cancel()
        log.info("link up with %s (protocol v%d)", self._who(record), event.version)
        while record.outbox:
            channel.send(record.outbox.popleft())
        record.overflowed = False
        record.outbox_bytes = 0
        self._announce_links()

    def _received(self, channel: Channel, message: Message) -> None:
        key = channel.link.peer_key
        assert key is not None
        record = self.peers[key]
        if record.channel is not channel and not isinstance(message, Relay):
            return  # a superseded link still draining: only its payloads matter
        now = self.clock.seconds()
        record.last_heard = now
        if isinstance(message, Relay):
            self._relay(record, message)
        elif isinstance(message, Ping):
            channel.send(Pong(message.n))
        elif isinstance(message, Pong):
            sent = record.ping_sent.pop(message.n, None)
            if sent is not None:
                record.rtt = now - sent
        elif isinstance(message, Links):
            self._gossiped(record, message)
        elif isinstance(message, (Bye, Reject)):
            record.left = isinstance(message, Bye)
            log.info("%s left: %s", self._who(record),
                     message.reason)
            channel.close()

    def _prefer(self, new: Channel, old: Channel) -> bool:
        """Which of two links to one peer survives; both sides decide alike.

        Links dialed by the same side: the newer wins (the older is a
        half-open leftover). Dialed by different sides (both dialed at once):
        the one dialed by the smaller key wins.
        """
        me = self.identity.public_key
        peer = new.link.peer_key
        assert peer is not None

        def dialer(channel: Channel) -> bytes:
            return me if channel.link.handshake.role == "dialer" else peer

        if dialer(new) == dialer(old):
            return True
        return dialer(new) == min(me, peer)

    def _relay(self, via: PeerRecord, relay: Relay) -> None:
        if self.is_guest(via.key):
            self._from_guest(via, relay)
            return
        pid = payload_id(relay.data)
        if pid in self._seen:
            self.stats["duplicates"] += 1
            return
        self._remember(pid)
        if relay.to is not None and relay.to != self.identity.public_key:
            if relay.hops < MAX_HOPS:
                self._route_directed(dataclasses.replace(relay, hops=relay.hops + 1), via)
            return
        self.stats["delivered"] += 1
        if relay.to is None and relay.hops < MAX_HOPS:
            onward = dataclasses.replace(relay, hops=relay.hops + 1)
            for record in self.peers.values():
                if record is via or record.key == relay.origin or self.is_guest(record.key):
                    continue
                if relay.origin in record.neighbours and record.channel is not None:
                    continue  # the origin reached it directly
                self._send_or_queue(record, onward)
                self.stats["forwarded"] += 1
        self.delivering_via = via.key if relay.hops == 0 else None
        try:
            self._notify(self.on_message, relay.origin, relay.data)
        finally:
            self.delivering_via = None

    def _from_guest(self, via: PeerRecord, relay: Relay) -> None:
        """A guest's payload: for us alone, never forwarded, and always delivered as from the
        guest's own link (whatever its unsigned origin and hop count say), so the application
        knows a watcher sent it. Its bytes are not remembered: a guest cannot make us drop a
        payload a member sends later."""
        if relay.to is not None and relay.to != self.identity.public_key:
            self.stats["guest_dropped"] += 1
            return
        self.stats["delivered"] += 1
        self.delivering_via = via.key
        try:
            self._notify(self.on_message, via.key, relay.data)
        finally:
            self.delivering_via = None

    def _route_directed(self, relay: Relay, via: PeerRecord | None) -> None:
        """Toward ``relay.to``: its direct link if we have one (or it is queued
        for it); else neighbours that report a link to it; else all neighbours."""
        assert relay.to is not None
        target = self.peers.get(relay.to)
        if target is not None and (target.channel is not None or target.had_link):
            self._send_or_queue(target, relay)
            return
        live = [r for r in self.peers.values() if r.channel is not None and r is not via and not self.is_guest(r.key)]
        hops = [r for r in live if relay.to in r.neighbours] or live
        for record in hops:
            self._send_or_queue(record, relay)
            self.stats["forwarded"] += 1

    def _send_or_queue(self, record: PeerRecord, relay: Relay) -> None:
        if record.channel is not None:
            record.channel.send(relay)
        elif record.had_link and not record.left:
            full = len(record.outbox) == record.outbox.maxlen
            while record.outbox and (full or record.outbox_bytes + len(relay.data) > OUTBOX_BYTES):
                record.outbox_bytes -= len(record.outbox.popleft().data)
                full = False
                if not record.overflowed:
                    record.overflowed = True
                    log.warning("outbox for %s is full; dropping its oldest queued payloads "
                                "(the session's catch-up will recover them)", self._who(record))
            record.outbox.append(relay)
            record.outbox_bytes += len(relay.data)

    def _remember(self, pid: bytes) -> None:
        self._seen[pid] = None
        if len(self._seen) > SEEN_LIMIT:
            self._seen.popitem(last=False)

    def _gossiped(self, via: PeerRecord, message: Links) -> None:
        """A neighbour's ``links`` frame: whom it reaches, and where others listen.

        Only table members count (the seats, once :meth:`restrict_to` named
        them): a key outside the table is never recorded, routed through or
        dialled, so no ``links`` frame can make us connect to a stranger.
        """
        if self.is_guest(via.key):
            return  # a guest routes nothing: its word on who it reaches is not used
        members = [p for p in message.peers if self.allowed is None or p.key in self.allowed]
        via.neighbours = frozenset(p.key for p in members)
        for info in members:
            if info.key == self.identity.public_key:
                continue
            if self.allowed is not None:
                self._learn(info)
            elif info.key not in self._gossip and info.key not in self.peers:
                if len(self._gossip) >= MAX_PEERS:
                    self._gossip.popitem(last=False)
                self._gossip[info.key] = info.listen

    def _learn(self, info: PeerInfo, name: str = "") -> None:
        if info.key == self.identity.public_key:
            return
        if self.allowed is not None and info.key not in self.allowed:
            return
        record = self.peers.get(info.key)
        if record is None:
            if len(self.peers) >= MAX_PEERS:
                return
            record = self.peers[info.key] = PeerRecord(info.key, name=name,
                                                       backoff=self.make_backoff())
        if info.listen and not record.listen:
            record.listen = info.listen
        if (record.channel is None and record.dial is None and record.listen
                and not record.had_link and not record.left
                and (not self.listen or self.identity.public_key < info.key)):
            record.dial = DialTarget(record.listen, key=info.key)
            self._dial(record)

    def _dial(self, record: PeerRecord) -> None:
        """One connection attempt to a member: never two at once, at most
        MAX_UNPROVEN_DIALS to addresses it never answered at, and all dials
        together within the DIAL_BURST / DIAL_RATE budget."""
        record.retry = None
        if self.closed or record.channel is not None or record.dial is None or record.left:
            return
        if self.connect is None or record.dialing:
            return
        if self.allowed is not None and record.key not in self.allowed:
            return
        if not record.had_link:
            if record.unproven_dials >= MAX_UNPROVEN_DIALS:
                if record.unproven_dials == MAX_UNPROVEN_DIALS:
                    record.unproven_dials += 1
                    log.warning("giving up dialling %s: it never answered at %s; it may still dial us, "
                                "or be reached through another peer", self._who(record),
                                ", ".join(f"{h}:{p}" for h, p in record.dial.addresses))
                return
        wait = self._take_dial_token()
        if wait > 0:
            record.retry = self.clock.callLater(wait, self._dial, record)
            return
        if not record.had_link:
            record.unproven_dials += 1
        record.dialing = True
        self.stats["dials"] += 1
        self.connect(record.dial.next_address(), record.dial)

    def _take_dial_token(self) -> float:
        """0 and one token spent when a dial may go now, else the seconds until one may."""
        now = self.clock.seconds()
        self._dial_tokens = min(float(DIAL_BURST), self._dial_tokens + (now - self._dial_tokens_at) * DIAL_RATE)
        self._dial_tokens_at = now
        if self._dial_tokens >= 1.0:
            self._dial_tokens -= 1.0
            return 0.0
        return (1.0 - self._dial_tokens) / DIAL_RATE

    def _dial_host(self) -> None:
        self.host_retry = None
        if self.closed or self.host_target is None or self.connect is None:
            return
        self.connect(self.host_target.next_address(), self.host_target)

    def _schedule_retry(self, record: PeerRecord) -> None:
        record.dialing = False
        if record.retry is not None and record.retry.active():
            return
        delay = record.backoff.next_delay()
        log.info("redialling %s in %.1f s", self._who(record), delay)
        record.retry = self.clock.callLater(delay, self._dial, record)

    def _schedule_host_retry(self) -> None:
        if self.host_retry is not None and self.host_retry.active():
            return
        delay = self.host_backoff.next_delay()
        log.info("could not reach the host; retrying in %.1f s", delay)
        self.host_retry = self.clock.callLater(delay, self._dial_host)

    def _announce_links(self) -> None:
        linked = [r for _, r in sorted(self.peers.items()) if r.channel is not None]
        message = Links(tuple(PeerInfo(r.key, r.listen) for r in linked if not self.is_guest(r.key)))
        for record in linked:
            assert record.channel is not None
            record.channel.send(message)

    def _schedule_tick(self) -> None:
        self._tick = self.clock.callLater(self.ping_interval, self._on_tick)

    def _on_tick(self) -> None:
        if self.closed:
            return
        now = self.clock.seconds()
        for record in list(self.peers.values()):
            channel = record.channel
            if channel is None:
                continue
            if now - record.last_heard > self.dead_after:
                log.warning("no traffic from %s for %.0f s; dropping the link",
                            self._who(record), now - record.last_heard)
                channel.close()
                continue
            n = next(self._ping_counter)
            record.ping_sent = {k: v for k, v in record.ping_sent.items()
                                if now - v <= self.dead_after}
            record.ping_sent[n] = now
            channel.send(Ping(n))
        self._update_statuses()
        self._schedule_tick()

    def _update_statuses(self) -> None:
        now = self.clock.seconds()
        relayers = [r for r in self.peers.values() if r.channel is not None and not self.is_guest(r.key)]
        for record in self.peers.values():
            if record.left:
                status = PeerStatus.LEFT
            elif record.channel is not None:
                silent = now - record.last_heard > self.stall_after
                status = PeerStatus.STALLING if silent else PeerStatus.CONNECTED
            elif any(record.key in r.neighbours for r in relayers):
                status = PeerStatus.RELAYED
            else:
                status = PeerStatus.RECONNECTING
            if status is not record.status:
                record.status = status
                log.info("%s is now %s", self._who(record), status.value)
                self._notify(self.on_status, record.key, status)


def channel_target(channel: Channel) -> DialTarget | None:
    """The dial target a channel was opened for (None for inbound links)."""
    target = getattr(channel, "target", None)
    return target if isinstance(target, DialTarget) else None

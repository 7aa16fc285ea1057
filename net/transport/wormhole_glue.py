"""The reactor side of online play: one magic-wormhole pairing carrying one link.

:class:`Pairing` opens a wormhole with Dilation (allocating a code for a
host, or using a typed or derived one), exchanges the table offer over the
PAKE channel, dilates, and runs our :class:`net.transport.link.Link` inside a
subchannel named :data:`~net.transport.wormhole.SUBPROTOCOL`
(:class:`SubchannelProtocol`, a mesh channel like a TCP connection). What
to do with pairings (one code per friend, re-invites, expiry, meeting again
after a crash) is decided by :mod:`net.peer.online`; the words for failures
by :mod:`net.transport.wormhole`.

Two library facts shape this module (magic-wormhole 0.24, read from its
source, ``wormhole/_dilation/``):

* a subchannel has no ``abortConnection`` and its ``loseConnection`` only
  completes when the other side acknowledges the close, which a dead peer
  never does; so :meth:`SubchannelProtocol.close` tells the mesh at once that
  the channel is gone;
* Dilation's own TCP connections leave Nagle's algorithm on. Our frames are
  small and often forwarded (joiner -> host -> joiner); with Nagle and delayed
  ACKs each hop can stall ~40 ms. :func:`install_nodelay_shim` sets
  ``TCP_NODELAY`` on every Dilation connection this process makes, and (Linux)
  ``TCP_QUICKACK`` after every read, since the transit relay's own sockets keep
  Nagle on and wait for our ACKs (measured by ``python -m tools.bench net``,
  docs/networking.md).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from typing import Any, Literal

from twisted.internet import defer, protocol
from twisted.python.failure import Failure

from net.transport.link import Established
from net.transport.mesh import DialTarget, Mesh
from net.transport.twisted_glue import PeerProtocol
from net.transport.wormhole import (
    BINDING_PURPOSE,
    BINDING_SIZE,
    RESUME_PURPOSE,
    RESUME_SECRET_SIZE,
    SUBPROTOCOL,
    Offer,
    WormholeProblem,
    WormholeSettings,
    explain_failure,
    link_kind,
    parse_offer,
)

log = logging.getLogger("fairtable.transport")

#: Seconds between Dilation's own pings; two missed ones make it reconnect.
DILATION_PING = 10.0

_nodelay = {"installed": False, "enabled": True}
#: Linux: acknowledge what we receive at once instead of delaying the ACK (the
#: kernel falls back to delayed ACKs by itself, so it is set after every read).
#: A relay with Nagle on (the public one) holds its next small write until our
#: ACK comes; with delayed ACKs that costs ~40 ms per forwarded frame.
_QUICKACK: int | None = getattr(socket, "TCP_QUICKACK", None)


def install_nodelay_shim(enabled: bool = True) -> None:
    """Set TCP_NODELAY on every Dilation connection of this process (``enabled``
    False turns it off again: the benchmark measures both)."""
    _nodelay["enabled"] = enabled
    if _nodelay["installed"]:
        return
    from wormhole._dilation import connection

    cls: Any = connection.DilatedConnectionProtocol
    original = cls.connectionMade

    def connectionMade(self: Any) -> None:
        if _nodelay["enabled"]:
            set_nodelay = getattr(self.transport, "setTcpNoDelay", None)
            if set_nodelay is not None:
                try:
                    set_nodelay(True)
                except OSError:  # not a TCP socket after all
                    pass
        original(self)

    original_received = cls.dataReceived

    def dataReceived(self: Any, data: bytes) -> None:
        if _nodelay["enabled"] and _QUICKACK is not None:
            handle = getattr(self.transport, "getHandle", None)
            sock = handle() if handle is not None else None
            if sock is not None:
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)
                except (OSError, AttributeError):
                    pass
        original_received(self, data)

    cls.connectionMade = connectionMade
    cls.dataReceived = dataReceived
    _nodelay["installed"] = True


class SubchannelProtocol(PeerProtocol):
    """One Fairtable link inside a Dilation subchannel (a mesh channel).

    Unlike TCP, the peer address is no IP address (Dilation hides it), the
    handshake carries the pairing's binding, and closing reports the loss to
    the mesh at once (see the module docstring).
    """

    def __init__(self, mesh: Mesh, role: Literal["dialer", "listener"], pairing: Pairing,
                 target: DialTarget | None = None) -> None:
        super().__init__(mesh, role, target)
        self.pairing = pairing
        self._lost = False

    def connectionMade(self) -> None:
        self.link = self.mesh.make_link(self.role, f"wormhole {self.pairing.label}", self.target,
                                        binding=self.pairing.binding)
        self._tr.write(self.link.start())
        self._timeout = self.mesh.clock.callLater(self.mesh.handshake_timeout, self._expire)

    def dataReceived(self, data: bytes) -> None:
        step = self.link.data_received(data)
        if step.write:
            self._tr.write(step.write)
        if step.events:
            for event in step.events:
                if isinstance(event, Established):
                    self.pairing.linked(event.peer.key)
            self.mesh.handle(self, step.events)
        if step.close:
            self.close(abort=False)

    def connectionLost(self, reason: Failure = protocol.connectionDone) -> None:
        self._report_lost()

    def _report_lost(self) -> None:
        if self._lost:
            return
        self._lost = True
        if self._timeout is not None and self._timeout.active():
            self._timeout.cancel()
        self.link.closed = True
        self.mesh.channel_lost(self)

    def close(self, abort: bool = True) -> None:
        self.link.closed = True
        try:
            self._tr.loseConnection()
        except Exception:  # already closing, or the subchannel is gone with its wormhole
            pass
        self._report_lost()


Role = Literal["host", "join"]
Event = Callable[[str, Any], None]


class Pairing:
    """One wormhole between this peer and one other (see the module docstring).

    Events go to ``on_event(name, value)``: ``"code"`` (the code, once known),
    ``"offer"`` (joiner: the host's :class:`Offer`), ``"paired"`` (the PAKE
    key is confirmed; ``binding`` and ``resume_secret`` are set), ``"kind"``
    (the link kind changed: connecting/direct/relayed/reconnecting),
    ``"linked"`` (a link handshake inside finished; the peer's key) and
    ``"failed"`` (a :class:`WormholeProblem`; the pairing is closed).
    """

    def __init__(self, reactor: Any, settings: WormholeSettings, role: Role, *, on_event: Event,
                 code: str | None = None, offer: Offer | None = None,
                 mesh: Callable[[], Mesh | None] | None = None, label: str = "") -> None:
        self.reactor = reactor
        self.settings = settings
        self.role: Role = role
        self.on_event = on_event
        self.code = code
        self.offer = offer
        self._mesh = mesh or (lambda: None)
        self.label = label or (code or "new code")
        self.binding: bytes | None = None
        self.resume_secret: bytes | None = None
        self.peer_key: bytes | None = None
        self.kind = "connecting"
        self.ever_connected = False
        self.paired = False
        self.paired_at: float | None = None
        self.closed = False
        self.failed: WormholeProblem | None = None
        self.started = reactor.seconds()
        self._w: Any = None
        self._dilated: Any = None
        self._pending: list[tuple[Mesh, DialTarget]] = []

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        import wormhole

        install_nodelay_shim(_nodelay["enabled"])
        self._w = wormhole.create(self.settings.app_id, self.settings.mailbox, self.reactor, dilation=True)
        if self.code is None:
            self._w.allocate_code()
        else:
            try:
                self._w.set_code(self.code)
            except Exception as exc:  # KeyFormatError and friends
                self._fail(exc)
                return
        d = defer.ensureDeferred(self._run())
        d.addErrback(self._failure)

    async def _run(self) -> None:
        w = self._w
        code = await w.get_code()
        if self.closed:
            return
        self.code = str(code)
        if self.label == "new code":
            self.label = self.code
        self._emit("code", self.code)
        if self.role == "host":
            assert self.offer is not None
            w.send_message(self.offer.encode())
        await w.get_versions()  # the PAKE key is confirmed (a wrong code fails here)
        if self.closed:
            return
        if self.role == "join":
            offer = parse_offer(await w.get_message())
            self.offer = offer
        self.binding = w.derive_key(BINDING_PURPOSE, BINDING_SIZE)
        self.resume_secret = w.derive_key(RESUME_PURPOSE, RESUME_SECRET_SIZE)
        self.paired = True
        self.paired_at = self.reactor.seconds()
        if self.closed:
            return
        self._dilated = w.dilate(transit_relay_location=self.settings.relay, no_listen=not self.settings.direct,
                                 on_status_update=self._status, ping_interval=DILATION_PING)
        if self.role == "host":
            factory = _Factory(self, "listener")
            await self._dilated.listener_for(SUBPROTOCOL).listen(factory)
        if self.role == "join":
            self._emit("offer", self.offer)
        self._emit("paired", None)
        pending, self._pending = self._pending, []
        for mesh, target in pending:
            self.connect(mesh, target)

    def close(self) -> None:
        """Close the wormhole (its links with it); quiet about the outcome."""
        if self.closed:
            return
        self.closed = True
        for mesh, target in self.take_pending():
            mesh.dial_failed(target)  # the mesh redials, through whatever replaces us
        if self._w is not None:
            d = self._w.close()
            d.addErrback(lambda failure: None)

    # ------------------------------------------------------------------ links

    def connect(self, mesh: Mesh, target: DialTarget) -> None:
        """Open a subchannel to the other side and run a dialer link in it
        (queued until the wormhole is dilated)."""
        if self.closed:
            mesh.dial_failed(target)
            return
        if self._dilated is None:
            self._pending.append((mesh, target))
            return
        d = self._dilated.connector_for(SUBPROTOCOL).connect(_Factory(self, "dialer", mesh, target))
        d.addErrback(lambda failure: mesh.dial_failed(target))

    def take_pending(self) -> list[tuple[Mesh, DialTarget]]:
        """The dials waiting for this wormhole to dilate, handed over (to a successor)."""
        pending, self._pending = self._pending, []
        return pending

    def linked(self, key: bytes) -> None:
        self.peer_key = key
        self._emit("linked", key)

    def mesh(self) -> Mesh | None:
        return self._mesh()

    # ------------------------------------------------------------------ status

    @property
    def connected(self) -> bool:
        return self.kind in ("direct", "relayed")

    def stuck(self, now: float, after: float) -> bool:
        """Paired more than ``after`` seconds ago and no connection ever came up.

        Dilation tries each hint once per generation: when every attempt fails
        (the relay was unreachable for a moment) it waits forever, so we give
        up on such a wormhole and open a new one.
        """
        return self.paired_at is not None and not self.ever_connected and now - self.paired_at > after

    def _status(self, status: Any) -> None:
        from wormhole._status import ConnectedPeer

        peer = status.peer_connection
        connected = isinstance(peer, ConnectedPeer)
        description = str(getattr(peer, "hint_description", ""))
        self.ever_connected = self.ever_connected or connected
        kind = link_kind(connected, description, self.ever_connected)
        if kind != self.kind:
            self.kind = kind
            self._emit("kind", kind)

    def _emit(self, name: str, value: Any) -> None:
        try:
            self.on_event(name, value)
        except Exception:
            log.exception("the application failed while handling a wormhole event")

    def _failure(self, failure: Failure) -> None:
        self._fail(failure.value if failure.value is not None else RuntimeError("unknown failure"))

    def _fail(self, exc: BaseException) -> None:
        if self.closed and self.failed is None:
            return  # we closed it ourselves (pending calls then fail with WormholeClosed or LonelyError)
        problem = exc if isinstance(exc, WormholeProblem) else explain_failure(
            type(exc).__name__, exc, mailbox=self.settings.mailbox, relay=self.settings.relay, code=self.code)
        self.failed = problem
        log.warning("wormhole %s failed: %s", self.label, problem)
        was_closed = self.closed
        self.close()
        if not was_closed:
            self._emit("failed", problem)


class _Factory(protocol.Factory):
    def __init__(self, pairing: Pairing, role: Literal["dialer", "listener"], mesh: Mesh | None = None,
                 target: DialTarget | None = None) -> None:
        self.pairing = pairing
        self.role: Literal["dialer", "listener"] = role
        self.mesh = mesh
        self.target = target

    def buildProtocol(self, addr: Any) -> SubchannelProtocol:
        mesh = self.mesh or self.pairing.mesh()
        if mesh is None:
            raise RuntimeError("a wormhole link arrived before its table exists")
        return SubchannelProtocol(mesh, self.role, self.pairing, self.target)


__all__ = ["DILATION_PING", "Pairing", "SubchannelProtocol", "install_nodelay_shim"]

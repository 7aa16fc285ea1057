"""LAN discovery of hosted tables with zeroconf (mDNS/DNS-SD).

A host advertises ``<table name>._fairtable._tcp.local.`` with its port and a
TXT record: format version, game, free seats, the host's key fingerprint and
the table nonce. A browser turns each advertisement into a :class:`TableAd`
and from there into the same :class:`~net.transport.invite.Invite` a pasted
code gives, so joining is one path and the handshake still checks the key.
Advertisements are not authenticated (anyone on the LAN can announce); the
fingerprint shown next to a table is what the players compare.

zeroconf runs its own threads; results are handed to the reactor thread with
``callFromThread``. ``loopback_only=True`` binds zeroconf to 127.0.0.1 (tests).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
from collections.abc import Callable, Mapping
from typing import Any

from twisted.internet import defer, threads

from net.transport.errors import InviteError
from net.transport.invite import Invite
from net.transport.keys import fingerprint_to_bytes
from net.transport.messages import TABLE_SIZE

SERVICE_TYPE = "_fairtable._tcp.local."
TXT_VERSION = "1"
MAX_NAME = 48


class DiscoveryError(ValueError):
    """An advertisement is malformed (it is ignored, with this reason logged)."""


@dataclasses.dataclass(frozen=True)
class TableAd:
    """One hosted table as seen on the LAN."""

    name: str
    game: str
    seats_free: int
    fingerprint: str
    table: bytes
    port: int
    addresses: tuple[str, ...] = ()

    def properties(self) -> dict[str, str]:
        """The TXT record (all text, short keys)."""
        return {"v": TXT_VERSION, "game": self.game, "free": str(self.seats_free),
                "fp": self.fingerprint, "table": self.table.hex(), "name": self.name}

    @classmethod
    def from_properties(cls, props: Mapping[bytes, bytes | None], port: int,
                        addresses: tuple[str, ...]) -> TableAd:
        """Parse and validate a TXT record (hostile input: check everything)."""
        text: dict[str, str] = {}
        for key, value in props.items():
            try:
                text[key.decode("utf-8")] = (value or b"").decode("utf-8")
            except UnicodeDecodeError:
                raise DiscoveryError("TXT record is not UTF-8") from None
        if text.get("v") != TXT_VERSION:
            raise DiscoveryError(f"unsupported advertisement version {text.get('v')!r}")
        try:
            free = int(text.get("free", ""))
            table = bytes.fromhex(text.get("table", ""))
            fingerprint_to_bytes(text.get("fp", ""))
        except ValueError as exc:
            raise DiscoveryError(f"bad advertisement field: {exc}") from None
        if not 0 <= free <= 64 or len(table) != TABLE_SIZE or not 0 < port < 65536:
            raise DiscoveryError("advertisement has out-of-range seats, table or port")
        game = text.get("game", "")
        if not re.fullmatch(r"[a-z0-9_-]{1,32}", game):
            raise DiscoveryError(f"bad game name {game!r}")
        return cls(name=text.get("name", "")[:MAX_NAME], game=game, seats_free=free,
                   fingerprint=text["fp"].upper(), table=table, port=port,
                   addresses=addresses)

    def invite(self) -> Invite:
        """The invite this advertisement stands for."""
        if not self.addresses:
            raise InviteError("the advertisement carries no address to connect to")
        return Invite(self.table, self.fingerprint,
                      tuple((a, self.port) for a in self.addresses[:8]), self.game if len(self.game) <= 16 else "")


def service_name(ad: TableAd) -> str:
    """A DNS-SD instance name: the table name made safe, plus the fingerprint."""
    label = re.sub(r"[^A-Za-z0-9 _-]", "", ad.name)[:MAX_NAME].strip() or "table"
    return f"{label} {ad.fingerprint[:4]}.{SERVICE_TYPE}"


class LanDiscovery:
    """Advertise and browse tables; call from the reactor thread."""

    def __init__(self, reactor: Any, *, loopback_only: bool = False) -> None:
        from zeroconf import IPVersion, Zeroconf  # imported late: it starts threads

        self.reactor = reactor
        if loopback_only:
            self.zeroconf = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
        else:
            self.zeroconf = Zeroconf()
        self._infos: list[Any] = []
        self._browsers: list[Any] = []
        #: Our advertised tables by table id: the index of their info in _infos,
        #: and the last registration or update sent (the next update follows it).
        self._ours: dict[bytes, int] = {}
        self._last: dict[bytes, defer.Deferred[Any]] = {}

    @staticmethod
    def _info(ad: TableAd) -> Any:
        from zeroconf import ServiceInfo

        return ServiceInfo(
            SERVICE_TYPE, service_name(ad),
            addresses=[ipaddress.ip_address(a).packed for a in ad.addresses],
            port=ad.port, properties=ad.properties(),
            server=f"fairtable-{ad.fingerprint.replace('-', '').lower()[:12]}.local.",
        )

    def advertise(self, ad: TableAd) -> defer.Deferred[Any]:
        """Register ``ad`` (probing takes ~1.5 s, so it runs in a thread)."""
        info = self._info(ad)
        self._infos.append(info)
        self._ours[ad.table] = len(self._infos) - 1
        registered = threads.deferToThreadPool(
            self.reactor, self.reactor.getThreadPool(),
            self.zeroconf.register_service, info, None, True)
        self._last[ad.table] = registered
        return registered

    def update(self, ad: TableAd) -> defer.Deferred[Any]:
        """Announce what changed in an advertised table (its free seats): browsers see it as an
        update of the same service. It follows the registration (and any update before it), whose
        probing may still run, and keeps the name the registration ended with (zeroconf may have
        renamed it). A table not advertised here is advertised now."""
        key = ad.table  # not the service name: it holds the host's name, which may change meanwhile
        if key not in self._ours:
            return self.advertise(ad)
        index = self._ours[key]

        def send(_: Any) -> defer.Deferred[Any]:
            info = self._info(ad)
            info.name = self._infos[index].name  # as registered
            self._infos[index] = info
            return threads.deferToThreadPool(self.reactor, self.reactor.getThreadPool(),
                                             self.zeroconf.update_service, info)

        after = self._last[key]
        done: defer.Deferred[Any] = defer.Deferred()
        after.addBoth(lambda _: send(None).chainDeferred(done))  # in turn, whether the last one worked or not
        self._last[key] = done
        return done

    def browse(self, on_found: Callable[[TableAd], None],
               on_lost: Callable[[str], None] | None = None,
               on_bad: Callable[[str, str], None] | None = None) -> None:
        """Report tables as they appear (and vanish), in the reactor thread."""
        from zeroconf import ServiceBrowser, ServiceStateChange

        def handler(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
            if state_change is ServiceStateChange.Removed:
                if on_lost is not None:
                    self.reactor.callFromThread(on_lost, name)
                return
            info = zeroconf.get_service_info(service_type, name, timeout=3000)
            if info is None:
                return
            try:
                ad = TableAd.from_properties(info.properties, info.port,
                                             tuple(info.parsed_addresses()))
            except DiscoveryError as exc:
                if on_bad is not None:
                    self.reactor.callFromThread(on_bad, name, str(exc))
                return
            self.reactor.callFromThread(on_found, ad)

        self._browsers.append(ServiceBrowser(self.zeroconf, SERVICE_TYPE, handlers=[handler]))

    def close(self) -> defer.Deferred[Any]:
        """Withdraw advertisements and stop browsing (in a thread: it blocks)."""
        def shut() -> None:
            for browser in self._browsers:
                browser.cancel()
            for info in self._infos:
                self.zeroconf.unregister_service(info)
            self.zeroconf.close()

        return threads.deferToThreadPool(self.reactor, self.reactor.getThreadPool(), shut)

"""``python -m tools.wormhole_servers``: a private mailbox server and transit relay.

Runs the real ``magic-wormhole-mailbox-server`` and
``magic-wormhole-transit-relay`` (the programs behind the public
magic-wormhole servers) in this process, with in-memory databases, and prints
one JSON line with their addresses::

    {"mailbox": "ws://127.0.0.1:PORT/v1", "relay": "tcp:127.0.0.1:PORT"}

then serves until it is interrupted (or its stdin closes, so a parent that
dies takes it along). The tests, ``tools.bench net`` and anyone who wants a
private rendezvous for friends use it; point peers at it with
``tools.peer host --online --mailbox URL --relay URL`` (docs/networking.md).
The two server packages are test extras: ``pip install -e '.[test]'``.

    python -m tools.wormhole_servers [--interface 127.0.0.1] [--mailbox-port 0] [--relay-port 0]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from tools._cli import run as run_cli


@dataclasses.dataclass
class Servers:
    """A running mailbox server and transit relay on one reactor."""

    mailbox: str  # ws://host:port/v1
    relay: str  # tcp:host:port
    ports: list[Any]

    def stop(self) -> Any:
        """Stop listening; a Deferred that fires when both ports are closed."""
        from twisted.internet import defer

        return defer.gatherResults([port.stopListening() for port in self.ports])


def start_servers(reactor: Any, interface: str = "127.0.0.1", mailbox_port: int = 0,
                  relay_port: int = 0) -> Servers:
    """Start both servers on ``reactor`` (in-memory databases, no usage logs)."""
    try:
        from twisted.internet import protocol
        from wormhole_mailbox_server.database import create_or_upgrade_channel_db
        from wormhole_mailbox_server.server import make_server
        from wormhole_mailbox_server.web import make_web_server
        from wormhole_transit_relay import transit_server
        from wormhole_transit_relay.usage import create_usage_tracker
    except ImportError as exc:
        raise RuntimeError(f"the wormhole servers are not installed ({exc.name}); install the test extras: "
                           "pip install -e '.[test]'") from None
    mailbox = make_server(create_or_upgrade_channel_db(":memory:"), blur_usage=None)
    site = make_web_server(mailbox, log_requests=False)
    web_port = reactor.listenTCP(mailbox_port, site, interface=interface)
    transit = transit_server.Transit(create_usage_tracker(blur_usage=None, log_file=None, usage_db=None),
                                     reactor.seconds)
    factory = protocol.ServerFactory()
    factory.protocol = transit_server.TransitConnection
    factory.log_requests = False  # type: ignore[attr-defined]
    factory.transit = transit  # type: ignore[attr-defined]
    relay = reactor.listenTCP(relay_port, factory, interface=interface)
    return Servers(mailbox=f"ws://{interface}:{web_port.getHost().port}/v1",
                   relay=f"tcp:{interface}:{relay.getHost().port}", ports=[web_port, relay])


class ServerProcess:
    """``python -m tools.wormhole_servers`` as a child process (tests, benchmarks)."""

    def __init__(self, relay_front: Any = None) -> None:
        import subprocess

        from tools.match_tcp import ROOT, peer_env

        self.proc = subprocess.Popen([sys.executable, "-m", "tools.wormhole_servers"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                     env=peer_env())
        assert self.proc.stdout is not None
        import selectors

        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            ready = sel.select(30)
        line = self.proc.stdout.readline() if ready else ""
        if not line.startswith("{"):
            self.stop()
            raise RuntimeError(f"the wormhole servers did not start: {line!r}")
        found = json.loads(line)
        self.mailbox: str = found["mailbox"]
        self.relay: str = found["relay"]

    @property
    def relay_address(self) -> tuple[str, int]:
        _, host, port = self.relay.split(":")
        return host, int(port)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except Exception:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.wormhole_servers", description=__doc__.splitlines()[0])
    parser.add_argument("--interface", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--mailbox-port", type=int, default=0, help="mailbox (WebSocket) port (default: any)")
    parser.add_argument("--relay-port", type=int, default=0, help="transit relay port (default: any)")
    args = parser.parse_args(argv)
    from twisted.internet import reactor as the_reactor
    from twisted.internet import stdio
    from twisted.internet.protocol import Protocol

    reactor: Any = the_reactor
    try:
        servers = start_servers(reactor, args.interface, args.mailbox_port, args.relay_port)
    except (RuntimeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"mailbox": servers.mailbox, "relay": servers.relay}), flush=True)

    class StopOnEof(Protocol):
        def connectionLost(self, reason: Any = None) -> None:
            if reactor.running:
                reactor.stop()

    stdio.StandardIO(StopOnEof())  # type: ignore[no-untyped-call]  # twisted.internet.stdio is untyped
    reactor.run()
    return 0


if __name__ == "__main__":
    run_cli(main)

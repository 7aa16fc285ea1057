"""Online figures for ``python -m tools.bench net``: links through relayed wormholes.

- ``online_round_trip_ms``: joiner A -> host -> joiner B -> host -> A, every hop
  a Dilation subchannel through the transit relay, with the TCP_NODELAY shim
  (``nodelay``) and without it (``nagle``). A signs an envelope and broadcasts
  it; the host's mesh forwards it to B, which verifies it and answers A with
  its own signed envelope (routed back through the host); the time runs until
  A has verified the answer. The mailbox server, the transit relay and the
  three peers share this one process and core, as in the TCP round trip.
- ``code_to_first_envelope_ms``: from the joiner entering a code (the host's
  wormhole already waits on it) to the first signed envelope from the host
  verified by the joiner: mailbox, PAKE, offer, Dilation through the relay,
  our link handshake, one envelope.
- ``online_rider_game``: a full Rider game between two bot processes through
  relayed wormholes (a ``tools.wormhole_servers`` process as mailbox and
  relay), to compare with the direct-TCP game.

Targets (issue 14): relayed round trip <= 5 ms median with the shim; the
online Rider game within 1.5x of the direct-TCP one.
"""

from __future__ import annotations

import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twisted.internet import defer

from net.envelope import ZERO32, Envelope, EnvelopeWriter
from net.identity import Identity
from net.transport.backoff import Backoff
from net.transport.mesh import DialTarget, PeerStatus
from net.transport.twisted_glue import TwistedMesh
from net.transport.wormhole import Offer, WormholeSettings
from net.transport.wormhole_glue import Pairing, install_nodelay_shim

TARGET_ONLINE_RT_MS = 5.0
TARGET_ONLINE_GAME_RATIO = 1.5
NO_ADDRESS = ("127.0.0.1", 9)


def _until(reactor: Any, condition: Callable[[], bool], what: str, timeout: float = 30.0) -> defer.Deferred[None]:
    d: defer.Deferred[None] = defer.Deferred()
    deadline = time.monotonic() + timeout

    def check() -> None:
        if condition():
            d.callback(None)
        elif time.monotonic() > deadline:
            d.errback(RuntimeError(f"the online benchmark timed out waiting for {what}"))
        else:
            reactor.callLater(0.001, check)

    check()
    return d


class StarTable:
    """A host and two joiners, each joiner paired with the host through its own wormhole."""

    def __init__(self, reactor: Any, settings: WormholeSettings) -> None:
        self.reactor = reactor
        self.settings = settings
        self.ids = [Identity.generate() for _ in range(3)]
        self.keys = [i.public_key for i in self.ids]
        self.table, self.game = secrets.token_bytes(8), secrets.token_bytes(32)
        self.handlers: list[Callable[[bytes, bytes], None]] = [lambda o, d: None for _ in range(3)]
        self.on_connected: Callable[[bytes], object] = lambda key: None
        self.nets = [TwistedMesh(ident, table=self.table, reactor=reactor, game=self.game, name=f"o{i}",
                                 backoff=lambda: Backoff(initial=0.05, maximum=0.5),
                                 on_message=lambda o, d, i=i: self.handlers[i](o, d),
                                 on_status=(lambda key, status: self.on_connected(key)
                                            if status is PeerStatus.CONNECTED else None) if i == 0 else None)
                     for i, ident in enumerate(self.ids)]
        for net in self.nets:
            net.mesh.restrict_to(self.keys)  # the seats, as a game does once they are fixed
        self.pairings: list[Pairing] = []

    @defer.inlineCallbacks
    def pair(self, i: int) -> Any:
        """Pair joiner ``i`` with the host; returns ms from code entered to the host's first envelope."""
        codes: list[str] = []
        host = Pairing(self.reactor, self.settings, "host", offer=Offer(self.table, self.keys[0], "tiny"),
                       mesh=lambda: self.nets[0].mesh,
                       on_event=lambda name, value: codes.append(value) if name == "code" else None)
        host.start()
        self.pairings.append(host)
        yield _until(self.reactor, lambda: bool(codes), "a code")
        writer = EnvelopeWriter(self.ids[0], self.game, 0)
        first: dict[str, float] = {}
        self.on_connected = lambda key: self.nets[0].mesh.send_to(
            key, writer.write("hello", {"to": key}, (0, ZERO32)).to_bytes())

        def got(origin: bytes, data: bytes) -> None:
            Envelope.from_bytes(data).verify(self.keys[0], game=self.game)
            first.setdefault("t", time.perf_counter())

        self.handlers[i] = got
        t0 = time.perf_counter()
        joiner = Pairing(self.reactor, self.settings, "join", code=codes[0], mesh=lambda: self.nets[i].mesh,
                         on_event=lambda name, value: None)
        joiner.start()
        self.pairings.append(joiner)
        mesh = self.nets[i].mesh

        def dial(address: Any, target: DialTarget) -> None:
            joiner.connect(mesh, target)

        mesh.connect = dial
        mesh.join((NO_ADDRESS,), self.ids[0].fingerprint)
        yield _until(self.reactor, lambda: "t" in first, "the first signed envelope")
        return (first["t"] - t0) * 1000

    def stop(self) -> None:
        for pairing in self.pairings:
            pairing.close()
        for net in self.nets:
            net.stop()


@defer.inlineCallbacks
def online_round_trips(reactor: Any, settings: WormholeSettings, count: int, nodelay: bool) -> Any:
    install_nodelay_shim(nodelay)
    star = StarTable(reactor, settings)
    firsts = []
    for i in (1, 2):
        firsts.append((yield star.pair(i)))
    yield _until(reactor, lambda: star.keys[2] in star.nets[1].mesh.peers, "the joiners to learn of each other")
    writers = {i: EnvelopeWriter(star.ids[i], star.game, i) for i in (1, 2)}
    times: list[float] = []
    state: dict[str, Any] = {}

    def at_a(origin: bytes, data: bytes) -> None:
        env = Envelope.from_bytes(data)
        env.verify(star.keys[env.seat], game=star.game)
        if env.seat == 2:
            times.append((time.perf_counter() - state["t0"]) * 1000)
            state["done"].callback(None)

    def at_b(origin: bytes, data: bytes) -> None:
        env = Envelope.from_bytes(data)
        env.verify(star.keys[env.seat], game=star.game)
        if env.seat == 1:
            reply = writers[2].write("ack", {"of": env.seq}, (env.seq, ZERO32))
            star.nets[2].mesh.send_to(star.keys[1], reply.to_bytes())

    star.handlers[1], star.handlers[2] = at_a, at_b
    for k in range(count):
        state.update(t0=time.perf_counter(), done=defer.Deferred())
        action = writers[1].write("action", {"action": {"kind": "bench.move", "n": k}, "cards": []}, (k, ZERO32))
        star.nets[1].mesh.broadcast(action.to_bytes())
        yield state["done"]
    star.stop()
    ordered = sorted(times)
    return {"median": round(statistics.median(times), 3), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 3),
            "count": count, "code_to_first_envelope_ms": [round(x, 1) for x in firsts]}


def measure_in_reactor(reactor: Any, quick: bool) -> Any:
    """The in-process figures (servers on this reactor); a Deferred of a dict."""
    from tools.wormhole_servers import start_servers

    @defer.inlineCallbacks
    def run() -> Any:
        servers = start_servers(reactor)
        settings = WormholeSettings(mailbox=servers.mailbox, relay=servers.relay, direct=False)
        count = 40 if quick else 200
        try:
            nagle = yield online_round_trips(reactor, settings, count, nodelay=False)
            shim = yield online_round_trips(reactor, settings, count, nodelay=True)
        finally:
            install_nodelay_shim(True)
            yield servers.stop()
        firsts = nagle.pop("code_to_first_envelope_ms") + shim.pop("code_to_first_envelope_ms")
        return {"online_round_trip_ms": {"nodelay": shim, "nagle": nagle},
                "code_to_first_envelope_ms": {"median": round(statistics.median(firsts), 1), "all": firsts}}

    return run()


def online_rider_game(repeats: int) -> dict[str, Any]:
    from net.transcript import load_raw
    from net.verifier import verify
    from tools.match_tcp import audit_of, run_table
    from tools.wormhole_servers import ServerProcess

    servers = ServerProcess()
    runs: list[dict[str, Any]] = []
    try:
        for r in range(repeats):
            with tempfile.TemporaryDirectory(prefix="fairtable-bench-online-") as tmp:
                run = run_table(["greedy", "random"], seed=7 + r, workdir=Path(tmp), timeout=120,
                                online=(servers.mailbox, servers.relay))
                audit = audit_of(run)
                ok = verify(load_raw(run.transcript)).ok
                runs.append({"wall_s": run.wall_s, "cpu_s": run.cpu_s, "messages": run.messages, "bytes": run.bytes,
                             "audit": audit if ok else "verify failed", "actions": run.results[0].get("actions"),
                             "peer_wall_s": max(float(x["wall_s"]) for x in run.results)})
    finally:
        servers.stop()
    best = sorted(runs, key=lambda x: float(x["wall_s"]))[len(runs) // 2]
    return {**best, "repeats": repeats, "walls_s": [x["wall_s"] for x in runs]}

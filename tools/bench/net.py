"""Network benchmark: ``python -m tools.bench net [--json] [--quick]``.

Measures on this machine, over real TCP on 127.0.0.1:

- ``round_trip_ms``: a signed-action round trip for 2, 6 and 10 peers. Peer 0
  signs an action envelope and broadcasts it through the mesh; every other
  peer verifies the signature and answers with its own signed envelope; the
  time runs until peer 0 has verified every answer. All peers live in this
  one process and reactor (real sockets, full framing, handshake done
  beforehand), so every peer's CPU work is serialised on one core: for
  peers on separate machines these figures are an upper bound.
- ``dice_roll_ms``: one joint 2d6 roll end to end in the same setting: each
  seat commits (signed envelope), then reveals once all commitments are in;
  the time runs until every peer has checked every opening and derived the
  same faces.
- ``rider_game``: a full Rider game between two bot processes
  (``tools.match --net tcp`` machinery: separate OS processes, every shuffle,
  deal, reveal and die with its proofs checked by both peers), wall and CPU
  seconds summed over the processes, plus ``verify_s``, the offline check of
  the saved transcript by tools.verify.

Targets (issue 4): round trip <= 3 ms median for 2 peers; a full Rider game
with every proof verified in <= 5 s wall.

Online (through relayed wormholes; ``--no-online`` skips them): see
:mod:`tools.bench.net_online`.
"""

from __future__ import annotations

import json
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twisted.internet import defer

from net.dice import DiceRound
from net.envelope import ZERO32, Envelope, EnvelopeWriter
from net.identity import Identity
from net.transport.backoff import Backoff
from net.transport.mesh import PeerStatus
from net.transport.twisted_glue import TwistedMesh

PEERS = (2, 6, 10)
TARGET_RT_MS = 3.0
TARGET_GAME_S = 5.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Table:
    """N meshes in one reactor, fully linked over loopback."""

    def __init__(self, reactor: Any, n: int) -> None:
        self.reactor = reactor
        self.ids = [Identity.generate() for _ in range(n)]
        self.game = secrets.token_bytes(32)
        self.handlers: list[Callable[[bytes, bytes], None]] = [lambda o, d: None for _ in range(n)]
        self.nets: list[TwistedMesh] = []
        table = secrets.token_bytes(8)
        for i, ident in enumerate(self.ids):
            net = TwistedMesh(ident, table=table, reactor=reactor, game=self.game, name=f"b{i}",
                              backoff=lambda: Backoff(initial=0.05, maximum=0.5),
                              on_message=lambda o, d, i=i: self.handlers[i](o, d))
            net.listen_tcp(0, "127.0.0.1")
            self.nets.append(net)
        for net in self.nets:  # the seats are fixed, as after a lobby: only these keys link or are dialled
            net.mesh.restrict_to(ident.public_key for ident in self.ids)
        for net in self.nets[1:]:
            net.mesh.join(self.nets[0].mesh.listen, self.ids[0].fingerprint)
        self.seat_of = {ident.public_key: i for i, ident in enumerate(self.ids)}

    def linked(self) -> bool:
        n = len(self.nets)
        return all(sum(1 for v in net.mesh.view() if v.status is PeerStatus.CONNECTED) == n - 1
                   for net in self.nets)

    def stop(self) -> None:
        for net in self.nets:
            net.stop()


def _until(reactor: Any, condition: Callable[[], bool], timeout: float = 20.0) -> defer.Deferred[None]:
    d: defer.Deferred[None] = defer.Deferred()
    deadline = time.monotonic() + timeout

    def check() -> None:
        if condition():
            d.callback(None)
        elif time.monotonic() > deadline:
            d.errback(RuntimeError("the benchmark table did not link up in time"))
        else:
            reactor.callLater(0.005, check)

    check()
    return d


@defer.inlineCallbacks
def round_trips(reactor: Any, n: int, count: int) -> Any:
    table = Table(reactor, n)
    yield _until(reactor, table.linked)
    writers = [EnvelopeWriter(ident, table.game, i) for i, ident in enumerate(table.ids)]
    keys = [ident.public_key for ident in table.ids]
    times: list[float] = []
    state: dict[str, Any] = {}

    def answer(i: int) -> Callable[[bytes, bytes], None]:
        def handle(origin: bytes, data: bytes) -> None:
            env = Envelope.from_bytes(data)
            env.verify(keys[env.seat], game=table.game)
            if i == 0:
                state["acks"] += 1
                if state["acks"] == n - 1:
                    times.append((time.perf_counter() - state["t0"]) * 1000)
                    state["done"].callback(None)
            elif env.seat == 0:
                reply = writers[i].write("ack", {"of": env.seq}, (env.seq, ZERO32))
                table.nets[i].mesh.send_to(keys[0], reply.to_bytes())
        return handle

    table.handlers[:] = [answer(i) for i in range(n)]
    for k in range(count):
        state.update(acks=0, t0=time.perf_counter(), done=defer.Deferred())
        action = writers[0].write("action", {"action": {"kind": "bench.move", "n": k}, "cards": []}, (k, ZERO32))
        table.nets[0].mesh.broadcast(action.to_bytes())
        yield state["done"]
    table.stop()
    yield _until(reactor, lambda: True)
    return {"median": round(statistics.median(times), 3), "p95": round(_percentile(times, 0.95), 3),
            "count": count}


@defer.inlineCallbacks
def dice_rolls(reactor: Any, n: int, count: int) -> Any:
    table = Table(reactor, n)
    yield _until(reactor, table.linked)
    writers = [EnvelopeWriter(ident, table.game, i) for i, ident in enumerate(table.ids)]
    keys = [ident.public_key for ident in table.ids]
    seats = tuple(range(n))
    times: list[float] = []
    state: dict[str, Any] = {}

    def send(i: int, kind: str, body: Any, step: int) -> None:
        env = writers[i].write(kind, body, (step, ZERO32))
        table.nets[i].mesh.broadcast(env.to_bytes())
        take(i, env)  # our own part

    def take(i: int, env: Envelope) -> None:
        rnd: DiceRound = state["rounds"][i]
        if env.kind == "commit":
            rnd.commit(env.seat, env.body["commit"])
            if rnd.phase == "reveal" and i not in state["revealed"]:
                state["revealed"].add(i)
                send(i, "reveal", {"reveal": state["openings"][i].to_data()}, rnd.step)
                for early in state["early"].pop(i, []):
                    take(i, early)
        elif rnd.phase == "commit":  # a reveal that overtook a commitment on another path: keep it
            state["early"].setdefault(i, []).append(env)
        else:
            rnd.reveal(env.seat, env.body["reveal"])
            if rnd.complete and i not in state["finished"]:
                state["finished"][i] = rnd.faces()
                if len(state["finished"]) == n:
                    times.append((time.perf_counter() - state["t0"]) * 1000)
                    assert len(set(state["finished"].values())) == 1, "peers derived different faces"
                    state["done"].callback(None)

    def start(i: int, step: int) -> None:
        if i in state["started"]:
            return
        state["started"].add(i)
        commitment, opening = state["rounds"][i].contribute(i)
        state["openings"][i] = opening
        send(i, "commit", {"commit": commitment}, step)

    def handler(i: int) -> Callable[[bytes, bytes], None]:
        def handle(origin: bytes, data: bytes) -> None:
            env = Envelope.from_bytes(data)
            env.verify(keys[env.seat], game=table.game)
            if env.kind == "commit":
                start(i, env.seen.step)  # a roll we had not started yet: contribute now
            take(i, env)
        return handle

    table.handlers[:] = [handler(i) for i in range(n)]
    for k in range(count):
        state.update(t0=time.perf_counter(), done=defer.Deferred(), started=set(), revealed=set(), finished={}, early={},
                     openings={}, rounds=[DiceRound(table.game, k, seats, "bench.2d6", (6, 6)) for _ in seats])
        start(0, k)
        yield state["done"]
    table.stop()
    yield _until(reactor, lambda: True)
    return {"median": round(statistics.median(times), 3), "p95": round(_percentile(times, 0.95), 3),
            "count": count}


def rider_game(repeats: int) -> dict[str, Any]:
    from net.transcript import load_raw
    from net.verifier import verify
    from tools.match_tcp import audit_of, run_table

    runs: list[dict[str, Any]] = []
    for r in range(repeats):
        with tempfile.TemporaryDirectory(prefix="fairtable-bench-") as tmp:
            run = run_table(["greedy", "random"], seed=7 + r, workdir=Path(tmp), timeout=120)
            audit = audit_of(run)
            t0 = time.perf_counter()
            ok = verify(load_raw(run.transcript)).ok
            verify_s = time.perf_counter() - t0
            game_wall = max(float(x["wall_s"]) for x in run.results)
            runs.append({"wall_s": run.wall_s, "cpu_s": run.cpu_s, "peer_wall_s": game_wall,
                         "messages": run.messages, "bytes": run.bytes, "audit": audit if ok else "verify failed",
                         "verify_s": round(verify_s, 3), "actions": run.results[0].get("actions")})
    best = sorted(runs, key=lambda x: float(x["wall_s"]))[len(runs) // 2]
    return {**best, "repeats": repeats, "walls_s": [x["wall_s"] for x in runs]}


def measure(quick: bool = False, online: bool = True) -> dict[str, Any]:
    from twisted.internet import reactor as the_reactor

    reactor: Any = the_reactor
    out: dict[str, Any] = {"round_trip_ms": {}, "dice_roll_ms": {}}
    failure: list[Exception] = []

    @defer.inlineCallbacks
    def everything() -> Any:
        try:
            for n in PEERS:
                out["round_trip_ms"][str(n)] = yield round_trips(reactor, n, 60 if quick else 300 // n + 50)
            for n in PEERS:
                out["dice_roll_ms"][str(n)] = yield dice_rolls(reactor, n, 10 if quick else 40)
            if online:
                from tools.bench.net_online import measure_in_reactor

                out.update((yield measure_in_reactor(reactor, quick)))
        except Exception as exc:  # noqa: BLE001  (re-raised after the reactor stops)
            failure.append(exc)
        finally:
            reactor.callLater(0.05, reactor.stop)

    reactor.callWhenRunning(everything)
    reactor.run()
    if failure:
        raise failure[0]
    out["rider_game"] = rider_game(1 if quick else 3)
    out["targets"] = {"round_trip_2_peers_median_ms": TARGET_RT_MS, "rider_game_wall_s": TARGET_GAME_S}
    out["meets_targets"] = {
        "round_trip": out["round_trip_ms"]["2"]["median"] <= TARGET_RT_MS,
        "rider_game": out["rider_game"]["wall_s"] <= TARGET_GAME_S and out["rider_game"]["audit"] == "ok",
    }
    if online:
        from tools.bench.net_online import TARGET_ONLINE_GAME_RATIO, TARGET_ONLINE_RT_MS, online_rider_game

        game = out["online_rider_game"] = online_rider_game(1 if quick else 3)
        ratio = round(float(game["wall_s"]) / float(out["rider_game"]["wall_s"]), 2)
        game["vs_direct_tcp"] = ratio
        out["targets"].update(online_round_trip_median_ms=TARGET_ONLINE_RT_MS,
                              online_rider_game_vs_tcp=TARGET_ONLINE_GAME_RATIO)
        out["meets_targets"].update(
            online_round_trip=out["online_round_trip_ms"]["nodelay"]["median"] <= TARGET_ONLINE_RT_MS,
            online_rider_game=ratio <= TARGET_ONLINE_GAME_RATIO and game["audit"] == "ok")
    return out


def main(argv: list[str]) -> int:
    result = measure(quick="--quick" in argv, online="--no-online" not in argv)
    if "--json" in argv:
        print(json.dumps(result, sort_keys=True))
        return 0
    for n, figures in result["round_trip_ms"].items():
        print(f"signed-action round trip, {n:>2} peers: median {figures['median']:.2f} ms, p95 {figures['p95']:.2f} ms")
    for n, figures in result["dice_roll_ms"].items():
        print(f"2d6 roll end to end,      {n:>2} peers: median {figures['median']:.2f} ms, p95 {figures['p95']:.2f} ms")
    game = result["rider_game"]
    print(f"Rider bot game over TCP: {game['wall_s']:.2f} s wall (processes started to exit), {game['cpu_s']:.2f} s CPU, "
          f"{game['messages']} messages, {game['bytes']} bytes, audit {game['audit']}; "
          f"offline verify {game['verify_s']:.2f} s")
    if "online_round_trip_ms" in result:
        for mode, figures in result["online_round_trip_ms"].items():
            print(f"relayed wormhole round trip joiner->host->joiner ({mode}): median {figures['median']:.2f} ms, "
                  f"p95 {figures['p95']:.2f} ms")
        print(f"code entered to first signed envelope: median {result['code_to_first_envelope_ms']['median']:.0f} ms")
        online = result["online_rider_game"]
        print(f"Rider bot game over relayed wormholes: {online['wall_s']:.2f} s wall ({online['vs_direct_tcp']:.2f}x "
              f"the direct-TCP game), audit {online['audit']}")
    print(f"targets met: {result['meets_targets']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

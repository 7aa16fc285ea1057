"""One benchmark seat in its own process: ``python -m tools.bench._net_seat SEAT N SEED``.

Driven by :mod:`tools.bench._net_procs` over stdin/stdout, one JSON object a
line. The seat links into a loopback TCP mesh (net.transport, real sockets,
handshakes, framing) with the other seats, each in its own process, so each
seat's CPU work runs on its own interpreter as it would on its own machine
(on a box with fewer cores than seats they still share the cores: see
_net_procs for what is reported about that).

Identities, the game id and the dice secrets are derived from ``SEED``, so
every seat knows every public key without a lobby (a benchmark, not a game).

Commands (stdin) and answers (stdout):

- ``{"join": [[host, port]], "fp": fingerprint}`` or ``{"join": null}``: link up;
  the seat prints ``{"linked": true}`` once it holds a link to every other seat.
- ``{"rt": count}``: seat 0 times ``count`` signed round trips (it signs and
  broadcasts an action, every other seat verifies it and answers with its own
  signed envelope, seat 0 verifies every answer) and prints ``{"rt_ms": [...]}``.
- ``{"dice": count, "start": t, "gap": s}``: every seat starts roll ``k`` at
  ``time.monotonic() == t + k*s`` (the clock is the machine's, the same in every
  process), sends its one ``roll`` envelope (net.dice_vrf part), verifies every
  other seat's envelope and part, derives the faces, and prints
  ``{"dice_ms": [...], "faces": [...]}``: per roll, milliseconds from its start
  to this seat holding the faces, and ``late_ms``: how late its reactor
  started each roll (timer resolution and waiting for a core). With
  ``"protocol": "commit-reveal"`` the seats roll the two-phase dice of
  records before issue 26 instead (a ``commit`` envelope, then a ``reveal``
  once every commitment is in), for comparison.
- ``{"quit": true}``.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from engine.core.hashing import digest
from net import dice_vrf as v
from net.commit import Opening
from net.dice import DiceRound
from net.envelope import ZERO32, Envelope, EnvelopeWriter
from net.identity import Identity
from net.poker import group as g
from net.transport.backoff import Backoff
from net.transport.mesh import PeerStatus
from net.transport.twisted_glue import TwistedMesh

IDENTITY_DOMAIN = "fairtable/bench-seat-identity"
DICE_DOMAIN = "fairtable/bench-seat-dice"


def identity(seed: str, seat: int) -> Identity:
    return Identity.from_seed(digest(IDENTITY_DOMAIN, (seed, seat)))


def dice_secret(seed: str, seat: int) -> int:
    return g.hash_to_scalar(DICE_DOMAIN, (seed, seat)) or 1


def game_of(seed: str) -> bytes:
    return digest("fairtable/bench-seat-game", seed)


class Seat:
    """One seat: its mesh, its writer, and the benchmark it is told to run."""

    def __init__(self, reactor: Any, seat: int, n: int, seed: str) -> None:
        self.reactor, self.seat, self.n = reactor, seat, n
        self.ids = [identity(seed, s) for s in range(n)]
        self.keys = [i.public_key for i in self.ids]
        self.game = game_of(seed)
        self.secret = dice_secret(seed, seat)
        self.dice_keys = {s: g.base_mul(dice_secret(seed, s)) for s in range(n)}
        self.writer = EnvelopeWriter(self.ids[seat], self.game, seat)
        self.net = TwistedMesh(self.ids[seat], table=digest("fairtable/bench-seat-table", seed)[:8],
                               reactor=reactor, game=self.game, name=f"s{seat}",
                               backoff=lambda: Backoff(initial=0.05, maximum=0.5), on_message=self.on_message)
        self.listen = self.net.listen_tcp(0, "127.0.0.1")
        self.net.mesh.restrict_to(self.keys)
        self.handle: Callable[[Envelope], None] = lambda env: None
        self.rt: dict[str, Any] = {}
        self.rolls: dict[int, v.VrfDiceRound] = {}
        self.roll_start: dict[int, float] = {}
        self.roll_done: dict[int, float] = {}
        self.roll_faces: dict[int, tuple[int, ...]] = {}
        #: How late (seconds) the reactor started each roll after its instant (timer and CPU waits).
        self.roll_late: dict[int, float] = {}
        self.roll_count = 0
        self.quitting = False
        #: Roll with the commit-reveal dice of records before issue 26 instead (for comparison).
        self.two_phase = False
        self.cr_rolls: dict[int, DiceRound] = {}
        self.openings: dict[int, Opening] = {}
        self.revealed: set[int] = set()
        self.early: dict[int, list[Envelope]] = {}

    def say(self, **data: Any) -> None:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()

    def linked(self) -> bool:
        return sum(1 for p in self.net.mesh.view() if p.status is PeerStatus.CONNECTED) == self.n - 1

    def wait_linked(self) -> None:
        if self.linked():
            self.say(linked=True)
        else:
            self.reactor.callLater(0.005, self.wait_linked)

    def on_message(self, origin: bytes, data: bytes) -> None:
        env = Envelope.from_bytes(data)
        env.verify(self.keys[env.seat], game=self.game)
        self.handle(env)

    # --- commands

    def command(self, cmd: dict[str, Any]) -> None:
        if "join" in cmd:
            if cmd["join"]:
                self.net.mesh.join(tuple((h, int(p)) for h, p in cmd["join"]), cmd["fp"])
            self.wait_linked()
        elif "rt" in cmd:
            self.handle = self.on_rt
            if self.seat == 0:
                self.rt = {"left": int(cmd["rt"]), "times": [], "k": 0}
                self.reactor.callLater(0.05, self.next_rt)
        elif "dice" in cmd:
            self.handle = self.on_roll
            self.two_phase = cmd.get("protocol") == "commit-reveal"
            self.roll_count = int(cmd["dice"])
            for k in range(self.roll_count):
                at = float(cmd["start"]) + k * float(cmd["gap"])
                self.reactor.callLater(max(0.0, at - time.monotonic()), self.start_roll, k, at)
        elif "quit" in cmd and not self.quitting:
            self.quitting = True
            self.net.stop()
            self.reactor.callLater(0.05, self.reactor.stop)

    # --- round trips (seat 0 times them)

    def next_rt(self) -> None:
        rt = self.rt
        if rt["left"] == 0:
            self.say(rt_ms=rt["times"])
            return
        rt.update(acks=0, t0=time.perf_counter())
        action = self.writer.write("action", {"action": {"kind": "bench.move", "n": rt["k"]}, "cards": []},
                                   (rt["k"], ZERO32))
        self.net.mesh.broadcast(action.to_bytes())

    def on_rt(self, env: Envelope) -> None:
        if self.seat != 0:
            if env.seat == 0:
                reply = self.writer.write("ack", {"of": env.seq}, (env.seq, ZERO32))
                self.net.mesh.send_to(self.keys[0], reply.to_bytes())
            return
        rt = self.rt
        rt["acks"] += 1
        if rt["acks"] == self.n - 1:
            rt["times"].append((time.perf_counter() - rt["t0"]) * 1000)
            rt["left"] -= 1
            rt["k"] += 1
            self.reactor.callLater(0, self.next_rt)

    # --- one-phase dice

    def round(self, k: int) -> v.VrfDiceRound:
        if k not in self.rolls:
            ctx = v.RollContext(self.game, k, "bench.2d6", (6, 6), tuple(range(self.n)))
            self.rolls[k] = v.VrfDiceRound(ctx, self.dice_keys)
        return self.rolls[k]

    def start_roll(self, k: int, at: float) -> None:
        self.roll_start[k] = at
        self.roll_late[k] = time.monotonic() - at
        if self.two_phase:
            self.start_commit(k)
            return
        rnd = self.round(k)
        env = self.writer.write("roll", rnd.make(self.seat, self.secret), (k, ZERO32))
        self.net.mesh.broadcast(env.to_bytes())
        rnd.receive_ours(self.seat, env.body)
        self.check_done(k)

    def on_roll(self, env: Envelope) -> None:
        k = env.seen.step
        if self.two_phase:
            self.on_commit_reveal(k, env)
            return
        self.round(k).receive(env.seat, env.body)
        self.check_done(k)

    # --- commit-reveal dice (records before issue 26), for comparison

    def cr_round(self, k: int) -> DiceRound:
        if k not in self.cr_rolls:
            self.cr_rolls[k] = DiceRound(self.game, k, tuple(range(self.n)), "bench.2d6", (6, 6))
        return self.cr_rolls[k]

    def start_commit(self, k: int) -> None:
        rnd = self.cr_round(k)
        commitment, self.openings[k] = rnd.contribute(self.seat)
        self.net.mesh.broadcast(self.writer.write("commit", {"commit": commitment}, (k, ZERO32)).to_bytes())
        rnd.commit(self.seat, commitment)
        self.maybe_reveal(k)

    def maybe_reveal(self, k: int) -> None:
        rnd = self.cr_round(k)
        if rnd.phase != "reveal" or k not in self.openings or k in self.revealed:
            return
        self.revealed.add(k)
        opening = self.openings[k]
        self.net.mesh.broadcast(self.writer.write("reveal", {"reveal": opening.to_data()}, (k, ZERO32)).to_bytes())
        rnd.reveal(self.seat, opening)
        for early in self.early.pop(k, []):
            rnd.reveal(early.seat, early.body["reveal"])
        self.check_done(k)

    def on_commit_reveal(self, k: int, env: Envelope) -> None:
        rnd = self.cr_round(k)
        if env.kind == "commit":
            rnd.commit(env.seat, env.body["commit"])
            self.maybe_reveal(k)
        elif rnd.phase == "commit":  # a reveal that overtook a commitment on another path: keep it
            self.early.setdefault(k, []).append(env)
        else:
            rnd.reveal(env.seat, env.body["reveal"])
            self.check_done(k)

    def check_done(self, k: int) -> None:
        rnd: v.VrfDiceRound | DiceRound = self.cr_rolls[k] if self.two_phase else self.rolls[k]
        if rnd.complete and k in self.roll_start and k not in self.roll_done:
            self.roll_done[k] = time.monotonic()
            self.roll_faces[k] = rnd.faces()
            if len(self.roll_done) == self.roll_count:
                self.say(dice_ms=[(self.roll_done[i] - self.roll_start[i]) * 1000 for i in range(self.roll_count)],
                         late_ms=[self.roll_late[i] * 1000 for i in range(self.roll_count)],
                         faces=[list(self.roll_faces[i]) for i in range(self.roll_count)])


def main(argv: list[str]) -> int:
    return serve(argv, Seat)


def serve(argv: list[str], make: Callable[[Any, int, int, str], Seat]) -> int:
    """Run one seat process (``argv``: SEAT N SEED): link up, then follow the commands on stdin
    until told to quit or stdin closes (the parent went away). Shared by :mod:`tools.bench._combat_seat`."""
    from twisted.internet import reactor as the_reactor

    reactor: Any = the_reactor
    seat, n, seed = int(argv[0]), int(argv[1]), argv[2]
    me = make(reactor, seat, n, seed)
    me.say(ready=[list(a) for a in me.net.mesh.listen], fp=me.ids[seat].fingerprint)

    def read() -> None:
        for line in sys.stdin:
            if line.strip():
                reactor.callFromThread(me.command, json.loads(line))
        reactor.callFromThread(me.command, {"quit": True})

    threading.Thread(target=read, daemon=True).start()
    reactor.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

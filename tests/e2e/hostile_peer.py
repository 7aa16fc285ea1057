"""A hostile seat for end-to-end tests, made from our own Peer and Session.

``python tests/e2e/hostile_peer.py MODE [--at STEP] -- <tools.peer arguments>``
runs ``tools.peer`` with :class:`net.peer.driver.Peer` changed so that, once
its session reaches step ``--at``, it misbehaves in one way (``MODE``) and
otherwise plays honestly. Nothing here is on a production path.

Modes:

- ``refuse-once``: sign and send one action out of turn (every peer refuses
  it; the next genuine envelope reuses its seq), then play on.
- ``future-flood``: send 150 signed envelopes of 1 MB and 60 of 400 KiB for
  sequence numbers far ahead of its chain, then play on.
- ``chat-flood``: sign 2,000 chat lines at one step (its own session refuses
  its excess, as every peer does, so its chain stays whole), then play on.
- ``catchup-flood``: send 2,000 bare catch-up requests naming another seat
  as the recipient and 2,000 signed nudges asking for everything, then play on.
- ``false-hash``: sign its next envelope with a false state hash (the table
  convicts it).
- ``resign``: resign with a signed message once in play at step ``--at``
  (issue 30: an early end at three or more seats).
- ``withhold-final``: play honestly but never sign the final record, and stay
  (issue 30: the seat the honest ones must still be able to forfeit).
- ``stall``: from step ``--at`` on send nothing the table waits for (no
  answer, no claim), and stay (issue 30: one half of a hostage pair; the other
  half is an honest peer that never claims, i.e. without ``--claim-forfeits``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.core.encoding import encode  # noqa: E402
from engine.core.hashing import digest  # noqa: E402
from engine.core.pending import Decision  # noqa: E402
from net.envelope import sign_envelope  # noqa: E402
from net.peer import driver  # noqa: E402
from net.session import pump  # noqa: E402

MODES = ("refuse-once", "future-flood", "chat-flood", "catchup-flood", "false-hash", "resign", "withhold-final",
         "stall")
#: Modes that change the session's behaviour for good (installed once), not one misdeed after ``--at``.
STANDING = ("withhold-final", "stall")


def misbehave(peer: driver.Peer, mode: str, at: int, state: dict[str, Any]) -> None:
    """Called after every input of the hostile peer."""
    s = peer.session
    if s is None or s.halted is not None or s.finished or s.step < at or state.get("done") or mode in STANDING:
        return
    if mode == "resign":
        if s.phase != "play":
            return
        state["done"] = True
        peer.report(f"HOSTILE: resign at step {s.step}")
        peer._send(s.resign())
        return
    if mode == "refuse-once":
        pending = s.pending
        if s.phase != "play" or (isinstance(pending, Decision) and pending.seat == s.seat):
            return
        state["done"] = True
        s._send("action", {"action": {"kind": "rider.pass", "seat": s.seat}, "cards": []})
        pump.pump(s)
        peer.report(f"HOSTILE: sent a refused action as envelope #{s._writer.next_seq if s._writer else '?'}")
        peer._send(s._flush())
        return
    state["done"] = True
    peer.report(f"HOSTILE: {mode} at step {s.step}")
    assert s._writer is not None and peer.identity is not None
    if mode == "future-flood":
        w = s._writer
        for i, size in enumerate([1_000_000] * 150 + [400 * 1024] * 60):
            env = sign_envelope(peer.identity, game=s.gid, seat=w.seat, seq=w.next_seq + 50 + i,
                                prev=digest("fairtable/test-junk", i), kind="shuffle", body={"deck": bytes(size)},
                                seen=(s.step + 40, bytes(32)))
            peer.mesh.broadcast(env.to_bytes())
    elif mode == "chat-flood":
        journal, s.journal = s.journal, None  # its own disk is not the point (2,000 fsyncs would be slow)
        for i in range(2000):
            s._send("chat", {"text": f"spam {i}"})  # past Session.chat's own budget check
            pump.pump(s)
            peer._send(s._flush())
        s.journal = journal
    elif mode == "catchup-flood":
        victim = 0 if s.seat != 0 else 1
        for n in range(2000):  # bare requests naming a victim (the driver drops those unsigned)...
            request = {"catch_up": {"game": s.gid, "have": tuple(0 for _ in s.seats), "n": 10**6 + n,
                                    "seat": victim}}
            peer.mesh.broadcast(encode(request))
        for n in range(2000):  # ...and signed nudges asking for everything, as fast as it can
            request = {"catch_up": {"game": s.gid, "have": tuple(0 for _ in s.seats), "n": 2 * 10**6 + n,
                                    "seat": s.seat}}
            peer.mesh.broadcast(peer._author.nudge(s.gid, encode(request)))
    elif mode == "false-hash":
        real = s.hashes[s.step]
        s.hashes[s.step] = digest("fairtable/test-lie", real)
        try:
            s.chat("this envelope signs a false state hash")
        finally:
            s.hashes[s.step] = real
        peer._send(s._flush())


def install(mode: str, at: int) -> None:
    state: dict[str, Any] = {}
    if mode == "withhold-final":
        from net.session.endgame import Final

        Final.owe = lambda self: False  # type: ignore[method-assign]  # never signs the final record
    if mode == "stall":
        honest_due = pump.emit_due

        def due(s: Any) -> bool:  # from step --at on, owes everything and sends nothing
            return False if s.step >= at else honest_due(s)

        pump.emit_due = due
        honest_agent = driver.Peer._maybe_agent

        def agent(self: driver.Peer) -> None:  # and its bot stops choosing
            if self.session is None or self.session.step < at:
                honest_agent(self)

        driver.Peer._maybe_agent = agent  # type: ignore[method-assign]
    honest_after = driver.Peer._after

    def after(self: driver.Peer) -> None:
        honest_after(self)
        if self.result is None:
            misbehave(self, mode, at, state)

    driver.Peer._after = after  # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hostile_peer")
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--at", type=int, default=8, help="misbehave once the session reaches this step")
    args, rest = parser.parse_known_args(argv)
    if rest and rest[0] == "--":
        rest = rest[1:]
    install(args.mode, args.at)
    from tools.peer import main as peer_main

    return peer_main(rest)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""A hostile seat for end-to-end tests, made from our own Peer and Session.

``python tests/e2e/hostile_peer.py MODE [--at STEP] -- <tools.peer arguments>``
runs ``tools.peer`` with :class:`net.peer.driver.Peer` changed so that, once
its session reaches step ``--at``, it misbehaves in one way (``MODE``) and
otherwise plays honestly. Nothing here is on a production path.

Modes:

- ``refuse-once``: sign and send one action out of turn (every peer refuses
  it; the next genuine envelope reuses its seq), then play on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.core.pending import Decision  # noqa: E402
from net.peer import driver  # noqa: E402
from net.session import pump  # noqa: E402

MODES = ("refuse-once",)


def misbehave(peer: driver.Peer, mode: str, at: int, state: dict[str, Any]) -> None:
    """Called after every input of the hostile peer."""
    s = peer.session
    if s is None or s.halted is not None or s.finished or s.step < at or state.get("done"):
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


def install(mode: str, at: int) -> None:
    state: dict[str, Any] = {}
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

"""One peer of the three-process loopback test (run as a script, not collected).

``host``: listen on 127.0.0.1, print ``INVITE <code>``. ``join CODE``: dial the
host, do not listen. Every peer broadcasts ``hello from <fingerprint>`` once it
can reach all others, then ``done``; it exits when it has every other peer's
hello and done, printing a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import sys

from twisted.internet import reactor

from net.identity import Identity
from net.transport.backoff import Backoff
from net.transport.invite import parse_invite
from net.transport.mesh import PeerStatus
from net.transport.twisted_glue import TwistedMesh

TABLE = b"proc-tbl"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=["host", "join"])
    parser.add_argument("code", nargs="?")
    parser.add_argument("--peers", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    me = Identity.from_seed(bytes([args.seed]) * 32)
    hellos: list[str] = []
    dones: set[bytes] = set()
    state = {"said": False, "finished": False}

    def on_message(origin: bytes, data: bytes) -> None:
        text = data.decode()
        if text.startswith("hello"):
            hellos.append(text)
        else:
            dones.add(origin)
        maybe_progress()

    def on_status(key: bytes, status: PeerStatus) -> None:
        maybe_progress()

    peer = TwistedMesh(me, table=TABLE, reactor=reactor, name=f"p{args.seed}",
                       on_message=on_message, on_status=on_status,
                       backoff=lambda: Backoff(initial=0.05, maximum=0.5))
    mesh = peer.mesh
    mesh.restrict_to(Identity.from_seed(bytes([n]) * 32).public_key for n in range(1, args.peers + 1))
    others = args.peers - 1

    def reachable() -> int:
        ok = (PeerStatus.CONNECTED, PeerStatus.RELAYED)
        return sum(1 for v in mesh.view() if v.status in ok)

    def maybe_progress() -> None:
        if not state["said"] and reachable() == others:
            state["said"] = True
            mesh.broadcast(f"hello from {me.fingerprint}".encode())
            mesh.broadcast(b"done " + me.fingerprint.encode())
        if state["said"] and not state["finished"] and len(hellos) == others \
                and len(dones) == others:
            state["finished"] = True
            print(json.dumps({"me": me.fingerprint, "received": hellos,
                              "forwarded": mesh.stats["forwarded"]}), flush=True)
            reactor.callLater(0.3, finish)  # type: ignore[attr-defined]

    def finish() -> None:
        peer.stop()
        reactor.callLater(0.1, reactor.stop)  # type: ignore[attr-defined]

    if args.role == "host":
        peer.listen_tcp(0, "127.0.0.1")
        print("INVITE", peer.invite().encode(), flush=True)
    else:
        peer.join(parse_invite(args.code))
    reactor.callLater(25, reactor.stop)  # type: ignore[attr-defined]  # never hang a test run
    reactor.run()  # type: ignore[attr-defined]
    return 0 if state["finished"] else 1


if __name__ == "__main__":
    sys.exit(main())

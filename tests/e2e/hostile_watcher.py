"""Test-only hostile watcher process (issue 32), made from our own :class:`~net.peer.Peer`:
``python tests/e2e/hostile_watcher.py CODE``.

It asks the host to watch like any watcher; once it watches, it sends the
host, over its own link: game envelopes it altered (a flipped byte, so the
seat's signature no longer covers them) and made up, a flood of pulls and
chat lines, and messages that claim a seat (a join request, a catch-up nudge
and a done notice in seat 2's name, signed by its own key). It prints one
JSON line counting what it sent. Nothing here is on a production path.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from twisted.internet import reactor as the_reactor  # noqa: E402
from twisted.internet import task  # noqa: E402

from engine.core.encoding import decode, encode  # noqa: E402
from net.envelope import game_id  # noqa: E402
from net.games import game_named  # noqa: E402
from net.identity import Identity  # noqa: E402
from net.peer import Peer  # noqa: E402
from net.session.catchup import held  # noqa: E402
from net.transport.invite import parse_invite  # noqa: E402

reactor: Any = the_reactor


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("code")
    parser.add_argument("--max-time", type=float, default=60.0)
    args = parser.parse_args()
    invite = parse_invite(args.code)
    entry = game_named(invite.game or "tiny")
    counts = {"forged": 0, "flood": 0, "claims": 0, "chat": 0}
    ended: list[dict[str, Any]] = []

    def on_end(result: dict[str, Any]) -> None:
        ended.append(result)
        reactor.callLater(0.1, reactor.stop)

    peer = Peer(Identity.generate(), entry, reactor=reactor, name="hostile", watch=True, on_end=on_end,
                report=lambda text: print(f"[hostile] {text}", file=sys.stderr, flush=True))
    attacked = [False]

    def attack() -> None:
        session, genesis = peer.session, peer.genesis
        if session is None or genesis is None or peer.result is not None or session.step < 4:
            return
        host = genesis.seat_keys[0]
        mesh, author = peer.mesh, peer._author
        gid = game_id(genesis)
        if not attacked[0]:
            attacked[0] = True
            for env in session.envelopes()[:5]:  # a seat's genuine envelope with one byte of its body changed
                data = bytearray(env.to_bytes())
                data[-40] ^= 0x01
                mesh.send_to(host, bytes(data))
                mesh.send_to(host, encode({"envelopes": (decode(bytes(data)),), "game": gid}))
                counts["forged"] += 2
            mesh.send_to(host, secrets.token_bytes(300))  # not even an envelope
            counts["forged"] += 1
            # claiming a seat: a join request, a nudge and a done in seat 2's name
            mesh.send_to(host, author.join(entry, {} if entry.needs_deck else entry.seat_info(None), "seat-thief",
                                           host=host, fresh=secrets.token_bytes(16)))
            request = encode({"catch_up": {"game": gid, "have": held(session), "n": 1, "seat": 1}})
            mesh.send_to(host, author.nudge(gid, request))
            mesh.send_to(host, author.done(gid, 1))
            counts["claims"] += 3
        for _ in range(20):  # a flood of pulls, chat lines and envelopes replayed
            mesh.send_to(host, author.pull(gid, [0] * len(genesis.seat_keys)))
            counts["flood"] += 1
        for _ in range(3):
            mesh.send_to(host, author.wchat(gid, f"spam {counts['chat']}"))
            counts["chat"] += 1
        for env in session.envelopes()[-3:]:
            mesh.send_to(host, env.to_bytes())
            counts["flood"] += 1

    peer.join(invite, connect_timeout=30.0)
    loop = task.LoopingCall(attack)
    loop.clock = reactor
    loop.start(0.1, now=False)
    peer.give_up(args.max_time)
    reactor.run()
    print(json.dumps({**counts, "error": ended[0]["error"] if ended else "interrupted"}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Test-only hostile joiner process (issue 9, items 2 and 4), made from our own
:class:`~net.peer.Peer`: ``python tests/e2e/hostile_joiner.py CODE --trap PORT
--game tiny``.

It joins the table like any player (and plays its seat honestly with a random
bot), but as soon as another joiner (the victim) shows up in the host's
``links`` gossip it sends the victim, through the host, forged lobby messages
in the host's name (the transport's ``origin`` field names the host; nothing
signs it): a start seating two of its own keys around the victim, the same
start claiming the host's key, a go for that game and a refusal. It then
prints ``ATTACKED`` and, for the rest of its life, floods the host with
``links`` frames naming the victim and 63 invented keys at the trap address,
to make the host dial there. Its result is printed as one JSON line at the
end. Nothing here is on a production path.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from twisted.internet import reactor, task  # noqa: E402

from engine.core.encoding import decode, encode  # noqa: E402
from net.envelope import Genesis, game_id  # noqa: E402
from net.identity import Identity  # noqa: E402
from net.games import game_named  # noqa: E402
from net.peer import Peer  # noqa: E402
from net.transport.keys import key_matches  # noqa: E402
from net.transport.messages import MAX_PEERS, Links, PeerInfo, Relay  # noqa: E402
from net.transport.invite import parse_invite  # noqa: E402

FRAMES_PER_TICK = 20


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("code")
    parser.add_argument("--trap", type=int, required=True)
    parser.add_argument("--max-time", type=float, default=60.0)
    args = parser.parse_args()
    spec = game_named("tiny")
    invite = parse_invite(args.code)
    trap = ("127.0.0.1", args.trap)
    state: dict[str, Any] = {"victim": None, "frames": 0, "result": None}

    def on_end(result: dict[str, Any]) -> None:
        state["result"] = result
        reactor.callLater(0.5, reactor.stop)  # type: ignore[attr-defined]

    peer = Peer(Identity.generate(), spec, reactor=reactor, agent=spec.bot("random", random.Random(5)), name="mallory",
                linger=1.0, on_end=on_end, report=lambda text: print(text, file=sys.stderr, flush=True))
    peer.join(invite)
    peer.give_up(args.max_time)

    def host_channel() -> tuple[bytes, Any] | None:
        for key, record in peer.mesh.peers.items():
            if key_matches(key, invite.fingerprint) and record.channel is not None:
                return key, record.channel
        return None

    def attack(host: bytes, channel: Any, victim: bytes) -> None:
        me = peer.identity.public_key
        second = Identity.generate().public_key
        around = Genesis(spec.rules_id, spec.rules_version, spec.card_set_hash(), (me, victim, second), {},
                         tuple(secrets.token_bytes(16) for _ in range(3)))
        start = peer._author.start(around)
        outer = decode(start)["lobby"]
        forgeries = [start, encode({"lobby": {**outer, "by": host}}), peer._author.go(game_id(around)),
                     peer._author.refuse("the table is closed", to=victim, re=secrets.token_bytes(16))]
        for data in forgeries:
            channel.send(Relay(peer.mesh.game, host, data, 0, to=victim))
        print("ATTACKED", flush=True)

    def tick() -> None:
        found = host_channel()
        if found is None or state["result"] is not None:
            return
        host, channel = found
        if state["victim"] is None:
            victims = [k for k in peer.mesh._gossip if k != host]
            if not victims:
                return
            state["victim"] = victims[0]
            attack(host, channel, victims[0])
        lies = (PeerInfo(state["victim"], (trap,)),
                *(PeerInfo(secrets.token_bytes(32), (trap,)) for _ in range(MAX_PEERS - 1)))
        for _ in range(FRAMES_PER_TICK):
            channel.send(Links(lies))
            state["frames"] += 1

    loop = task.LoopingCall(tick)
    loop.start(0.25)
    reactor.run()  # type: ignore[attr-defined]
    result = state["result"] or {"error": "no result"}
    print(json.dumps({**result, "links_frames_sent": state["frames"]}), flush=True)
    return 0 if result.get("error") is None else 1


if __name__ == "__main__":
    sys.exit(main())
